/**
 * `auditCluster` on `managedFields` that the real structured-merge-diff produced (the oracle in test/smd/):
 * the seed's composition is applied with `cdk-capability apply`'s sequence, then other clients write the
 * object as they would in a cluster, and the audit must name what changed: the object, the fields, the
 * manager and the writer it displaced.
 *
 * The composition: an `ApplicationDeployment` declared by `cap/Routing/Object` (image, replicas) into which
 * the deployment pipeline's `cap/Routing/Timers` contributes `spec.timers`.
 */
import { applyOperations, asLiveObject, objectKey, Release, REPLAYED_KINDS, synthRelease } from './cluster-fixtures';
import { runSmd, SmdCase, SmdOperation, SmdResult } from './smd/smd';
import { removeTempDirs } from './util';
import { AuditFinding, auditCluster } from '../src/cluster/audit';
import { readLiveObjects } from '../src/cluster/live-objects';
import { expectedObjects } from '../src/cluster/object-writers';

afterAll(removeTempDirs);

const OBJECT = 'example.com/ApplicationDeployment ns/shared';
const KEY = 'example.com/ApplicationDeployment ns/shared';

let release: Release;
let manifest: any;
let sequence: SmdOperation[];

/** The object as the release applied it, changed by `change`: what a client's full-object update sends. */
function updated(change: (o: any) => void): any {
  const o = structuredClone(manifest);
  change(o);
  return o;
}

/** Each scenario: what other clients write after the release's apply. */
const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'clean': () => [],
  'an undeclared manager applies a field the composition does not write': () => [
    { manager: 'helm', object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { routeTables: { east: 'rt-1' } } } },
  ],
  'an undeclared manager force-applies a field of the declarer': () => [
    { manager: 'helm', force: true, object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { replicas: 9 } } },
  ],
  'kubectl edit changes a timer': () => [
    { manager: 'kubectl-edit', operation: 'update', object: updated((o) => (o.spec.timers.publishTimeout = '30m')) },
  ],
  'the seed incident: a controller\'s full-object Update() without timers': () => [
    { manager: 'netop', operation: 'update', object: updated((o) => { delete o.spec.timers; o.spec.domains = ['shop.example.com']; }) },
  ],
};

let results: Record<string, SmdResult> = {};
let cases: Record<string, SmdCase> = {};

beforeAll(() => {
  release = synthRelease({
    apiVersion: 'example.com/v1',
    kind: 'ApplicationDeployment',
    declared: { spec: { image: 'app:1.0', replicas: 2 } },
    contributions: [{ id: 'Timers', fields: { spec: { timers: { publishTimeout: '5m', retryTimeout: '10s' } } } }],
  });
  sequence = applyOperations(release).get(KEY)!.map(({ manager, force, object }) => ({ manager, force, object }));
  manifest = sequence.find((op) => op.manager === 'cdk-capability')!.object;
  const { typeName, schema } = REPLAYED_KINDS['example.com/ApplicationDeployment'];
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, writes]) => [name, { name: `audit: ${name}`, typeName, schema, apiVersion: 'example.com/v1', applies: [...sequence, ...writes()] }]));
  const answers = runSmd(Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

/** The audit of the scenario's object against the release's lock. */
function audit(scenario: string): AuditFinding[] {
  const result = results[scenario];
  expect(result.error).toBeUndefined();
  expect(result.applies.filter((a) => a.conflicts.length > 0)).toEqual([]);
  const live = readLiveObjects(JSON.stringify(asLiveObject(result, cases[scenario].applies)), 'the oracle');
  expect(live.map((l) => objectKey(l.manifest))).toEqual([KEY]);
  return auditCluster(expectedObjects(release.lock).filter((e) => e.label === OBJECT), live);
}

/** A finding without its message, which the tests match on its own. */
const shape = ({ message: _message, unitId: _unitId, ...rest }: AuditFinding) => ({ writer: undefined, writerManager: undefined, ...rest });

describe('the audit of managedFields written by structured-merge-diff', () => {
  test('a cluster as the release applied it has no finding', () => {
    expect(audit('clean')).toEqual([]);
  });

  test('an undeclared manager\'s apply: the fields it owns and the manager', () => {
    const findings = audit('an undeclared manager applies a field the composition does not write');
    expect(findings.map(shape)).toEqual([
      { kind: 'undeclared-manager', object: OBJECT, fields: [['spec', 'routeTables', 'east']], manager: 'helm', operation: 'Apply', writer: undefined, writerManager: undefined },
    ]);
    expect(findings[0].message).toMatch(/^example\.com\/ApplicationDeployment ns\/shared: 'helm' \(Apply at [0-9T:-]+Z\) owns spec\.routeTables\.east, and no writer of the composition declares that manager: drift, or a controller the composition does not declare\./);
  });

  test('an undeclared manager\'s forced apply over a leaf of ours: taken over, naming the writer displaced', () => {
    const findings = audit('an undeclared manager force-applies a field of the declarer');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'taken-over',
        object: OBJECT,
        fields: [['spec', 'replicas']],
        manager: 'helm',
        operation: 'Apply',
        writer: 'cap/Routing/Object',
        writerManager: 'cdk-capability:cap/Routing/Object',
      },
    ]);
    expect(findings[0].message).toMatch(/^example\.com\/ApplicationDeployment ns\/shared: spec\.replicas of 'cap\/Routing\/Object' \(field manager cdk-capability:cap\/Routing\/Object\) is owned by 'helm' \(Apply at .*\) alone: an apply took it over/);
  });

  test('a kubectl edit-style update of a leaf of ours: overwritten by an update, naming the writer displaced', () => {
    const findings = audit('kubectl edit changes a timer');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'overwritten-by-update',
        object: OBJECT,
        fields: [['spec', 'timers', 'publishTimeout']],
        manager: 'kubectl-edit',
        operation: 'Update',
        writer: 'cap/Routing/Timers',
        writerManager: 'cdk-capability:cap/Routing/Timers',
      },
    ]);
    expect(findings[0].message).toMatch(/is now owned by 'kubectl-edit' \(Update at .*\), whose update changed it \(a kubectl edit, or a controller's full-object Update\(\)\)/);
  });

  test('the seed incident: the timers a full-object Update() dropped are stripped, naming the update and the writer', () => {
    const findings = audit('the seed incident: a controller\'s full-object Update() without timers');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'stripped',
        object: OBJECT,
        fields: [['spec', 'timers', 'publishTimeout'], ['spec', 'timers', 'retryTimeout']],
        manager: 'netop',
        operation: 'Update',
        writer: 'cap/Routing/Timers',
        writerManager: 'cdk-capability:cap/Routing/Timers',
      },
      // NetOp writes domains, and the composition does not declare it (a RuntimeWriter would)
      { kind: 'undeclared-manager', object: OBJECT, fields: [['spec', 'domains', 'v:"shop.example.com"']], manager: 'netop', operation: 'Update', writer: undefined, writerManager: undefined },
    ]);
    expect(findings[0].message).toMatch(
      /^example\.com\/ApplicationDeployment ns\/shared: spec\.timers\.publishTimeout, spec\.timers\.retryTimeout of 'cap\/Routing\/Timers' \(field manager cdk-capability:cap\/Routing\/Timers\) are gone and owned by nobody: a full-object update that did not carry them dropped them; the latest update is by 'netop' \(Update at .*\)\./,
    );
  });
});
