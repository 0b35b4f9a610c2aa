import { AuditFinding, auditCluster, ExpectedObject } from '../src/cluster/audit';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { LiveObject, readLiveObjects } from '../src/cluster/live-objects';

/**
 * An update (`kubectl edit`, a controller's full-object Update()) that takes the only field a writer declares
 * in a keyed list element: structured-merge-diff leaves the element itself (`.`) and its key field in the
 * applying managers' sets, and moves the field to the updater. The audit read the element as still covering
 * the field (so no `overwritten-by-update`), then the updater as an `undeclared-manager` and the element as a
 * `stale-owner` of the applier.
 */

const WEB = 'cdk-capability:web/Routing/Api';
const T = '2026-12-06T22:00:00Z';
const CONTAINERS = ['spec', 'template', 'spec', 'containers'];
const ELEMENT = [...CONTAINERS, 'k:{"name":"web"}'];
const IMAGE = [...ELEMENT, 'image'];

const API: ExpectedObject = {
  identity: { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'api' },
  label: 'apps/Deployment web/api',
  unitId: 'object:apps|Deployment|web|api',
  writers: [{ writer: 'web/Routing/Api', manager: WEB, leaves: [{ path: IMAGE }] }],
};

function deployment(entries: Array<[string, 'Apply' | 'Update', string[][]]>): LiveObject[] {
  const object = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'api',
      namespace: 'web',
      managedFields: entries.map(([manager, operation, leaves]) => ({ manager, operation, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(leaves), ...(operation === 'Update' ? { time: T } : {}) })),
    },
    spec: { template: { spec: { containers: [{ name: 'web', image: 'web:2' }] } } },
  };
  return readLiveObjects(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [object] }), 'live.json');
}

const kinds = (findings: readonly AuditFinding[]) => findings.map((f) => [f.kind, f.manager, f.writer, f.fields]);

test('as applied, nothing differs', () => {
  const applied = [ELEMENT, [...ELEMENT, 'name'], IMAGE];
  expect(kinds(auditCluster([API], deployment([['cdk-capability', 'Apply', applied], [WEB, 'Apply', applied]])))).toEqual([]);
});

test('an update that took the image is overwritten-by-update of the writer, and the element left to the appliers is no stale owner', () => {
  const left = [ELEMENT, [...ELEMENT, 'name']];
  const findings = auditCluster([API], deployment([['cdk-capability', 'Apply', left], [WEB, 'Apply', left], ['kubectl-edit', 'Update', [IMAGE]]]));
  expect(kinds(findings)).toEqual([['overwritten-by-update', 'kubectl-edit', 'web/Routing/Api', [IMAGE]]]);
});
