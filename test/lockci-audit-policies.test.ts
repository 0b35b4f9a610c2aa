import { auditCluster, ExpectedObject } from '../src/cluster/audit';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { LiveObject, readLiveObjects } from '../src/cluster/live-objects';

// The hint of an audit finding whose update the release's admission policies should have refused, when the
// cluster lacks some of them: it names one or two, and for more (a release whose field-ownership step was never
// applied lacks all of them, two per protected kind) the first two and how many more, never the whole list,
// since each is a missing-object finding of its own.

const WEB = 'cdk-capability:cdn/Routing/Web';
const TEAM = 'cdk-capability:cdn/Routing/Team';
const NETOP = 'cdn/Routing/NetOp (RuntimeWriter)';
const T = '2026-12-03T10:00:04Z';

/** ConfigMap shop/settings: Web writes data.mode, Team the team label, NetOp (a runtime writer, manager netop) data.routes. */
const SETTINGS: ExpectedObject = {
  identity: { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
  label: 'ConfigMap shop/settings',
  unitId: 'object:|ConfigMap|shop|settings',
  writers: [
    { writer: 'cdn/Routing/Web', manager: WEB, leaves: [{ path: ['data', 'mode'] }] },
    { writer: 'cdn/Routing/Team', manager: TEAM, leaves: [{ path: ['metadata', 'labels', 'team'] }] },
    { writer: NETOP, manager: 'netop', leaves: [{ path: ['data', 'routes'] }], runtime: true },
  ],
};

/** The release's field-ownership policy and binding of each resource, applied whole. */
function policies(...resources: string[]): ExpectedObject[] {
  return resources.flatMap((r) => ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].map((kind): ExpectedObject => ({
    identity: { group: 'admissionregistration.k8s.io', kind, namespace: '', name: `cdn.field-owners.${r}` },
    label: `admissionregistration.k8s.io/${kind} cdn.field-owners.${r}`,
    writers: [],
    whole: true,
  })));
}

/** The ConfigMap after NetOp's full-object update dropped data.mode. */
function stripped(): LiveObject[] {
  const entries: Array<[string, 'Apply' | 'Update', string[][], string?]> = [
    ['cdk-capability', 'Apply', [['metadata', 'labels', 'team']]],
    [TEAM, 'Apply', [['metadata', 'labels', 'team']]],
    ['netop', 'Update', [['data', 'routes']], T],
  ];
  const object = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      namespace: 'shop',
      labels: { team: 'payments' },
      managedFields: entries.map(([manager, operation, leaves, time]) => ({ manager, operation, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(leaves), ...(time ? { time } : {}) })),
    },
    data: { routes: 'a.example.com' },
  };
  return readLiveObjects(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [object] }), 'live.json');
}

const hintOf = (expected: ExpectedObject[]) => {
  const findings = auditCluster(expected, stripped());
  const message = findings.find((f) => f.kind === 'stripped')!.message;
  return { hint: message.slice(message.indexOf("The release's admission policy")), missing: findings.filter((f) => f.kind === 'missing-object').length };
};

describe("audit's hint when the release's admission policies are not in the cluster", () => {
  test('none of three kinds applied: the first two named, the four more counted, each its own missing-object finding', () => {
    // GIVEN a release that protects configmaps, deployments and services, none of whose policies the cluster has
    const { hint, missing } = hintOf([SETTINGS, ...policies('configmaps', 'deployments.apps', 'services')]);

    // THEN the hint names two, counts the rest, and says where they are; the six are findings of their own
    expect(hint).toBe(
      "The release's admission policy, which refuses such an update, is not in the cluster (admissionregistration.k8s.io/ValidatingAdmissionPolicy cdn.field-owners.configmaps, " +
        'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding cdn.field-owners.configmaps and 4 more of its policies and bindings, each a missing-object finding; ' +
        'runtime/0000-field-ownership.yaml holds them): apply the release.',
    );
    expect(missing).toBe(6);
  });

  test('one kind, neither applied: both named, as before', () => {
    const { hint } = hintOf([SETTINGS, ...policies('configmaps')]);
    expect(hint).toBe(
      "The release's admission policy, which refuses such an update, is not in the cluster (admissionregistration.k8s.io/ValidatingAdmissionPolicy cdn.field-owners.configmaps, " +
        'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding cdn.field-owners.configmaps: missing-object): apply the release.',
    );
  });
});
