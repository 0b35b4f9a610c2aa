import { LiveObjectsError, readLiveObjects } from '../src/cluster/live-objects';
import { ledgerLeaves } from '../src/cluster/managed-leaves';

/** A Deployment as `kubectl get deployment web -n shop -o json --show-managed-fields` prints it (trimmed). */
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    managedFields: [
      {
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } },
        manager: 'cdk-capability:cdn/Routing/Web',
        operation: 'Apply',
        time: '2026-12-03T10:00:00Z',
      },
      {
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } }, 'f:status': { 'f:replicas': {} } },
        manager: 'kube-controller-manager',
        operation: 'Update',
        subresource: 'status',
        time: '2026-12-03T10:00:05Z',
      },
    ],
  },
  spec: { replicas: 2 },
};

/** The Deployment whose one entry's `fieldsV1` is `{"f:a": {"f:a": ...}}`, `depth` levels, as JSON text (no recursion writes it). */
function nestedSet(depth: number): string {
  const deployment = JSON.stringify({ ...DEPLOYMENT, metadata: { name: 'web', namespace: 'shop', managedFields: [{ manager: 'x', operation: 'Apply', fieldsV1: 'SET' }] } });
  return deployment.replace('"SET"', `${'{"f:a":'.repeat(depth)}{}${'}'.repeat(depth)}`);
}

describe('readLiveObjects', () => {
  test('a List, as kubectl prints several objects, is flattened; each entry\'s set is read', () => {
    const [web, cm] = readLiveObjects(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [DEPLOYMENT, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } }] }), 'live.json');
    expect(web.label).toBe('apps/Deployment shop/web');
    expect(web.key).toBe('apps|Deployment|shop|web');
    expect(web.managedFields.map((m) => [m.manager, m.operation, m.subresource, m.time])).toEqual([
      ['cdk-capability:cdn/Routing/Web', 'Apply', undefined, '2026-12-03T10:00:00Z'],
      ['kube-controller-manager', 'Update', 'status', '2026-12-03T10:00:05Z'],
    ]);
    expect(web.managedFields[0].members).toEqual([
      ['spec', 'replicas'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'name'],
    ]);
    expect(cm.label).toBe('ConfigMap shop/c');
    expect(cm.managedFields).toEqual([]);
  });

  test('several YAML documents, as kubectl get -o yaml of several files, and a cluster-scoped object', () => {
    const yaml = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  managedFields:
  - manager: cdk-capability:cdn/Routing/Ns
    operation: Apply
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels:
          f:team: {}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c, namespace: shop}
`;
    const objects = readLiveObjects(yaml, 'stdin');
    expect(objects.map((o) => o.label)).toEqual(['Namespace shop', 'ConfigMap shop/c']);
    expect(objects[0].identity).toEqual({ group: '', kind: 'Namespace', namespace: undefined, name: 'shop' });
    expect(objects[0].managedFields[0].members).toEqual([['metadata', 'labels', 'team']]);
  });

  test.each<[string, string, RegExp]>([
    ['not an object', '3', /^live\.json is 3, not an object: give the objects as kubectl get -o json --show-managed-fields prints them \(a List, an object, or one object per YAML or JSON document\)$/],
    ['plain text, which YAML reads as a string', 'garbage', /^live\.json is "garbage" \(it is not JSON, and YAML reads it as that text\), not an object: give the objects as kubectl get -o json/],
    ['a YAML number in a second document', '---\n3\n---\n4\n', /^live\.json, document 1 is 3 \(read as YAML\), not an object: /],
    ['no name', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}', /^live\.json is not a Kubernetes object \(it needs apiVersion, kind and metadata\.name\)$/],
    ['a bad operation', JSON.stringify({ ...DEPLOYMENT, metadata: { name: 'web', namespace: 'shop', managedFields: [{ manager: 'x', operation: 'Patch' }] } }),
      /^live\.json \(apps\/Deployment shop\/web\): metadata\.managedFields\[0\] \(x\): operation "Patch" is neither Apply nor Update$/],
    ['a bad set', JSON.stringify({ ...DEPLOYMENT, metadata: { name: 'web', namespace: 'shop', managedFields: [{ manager: 'x', operation: 'Apply', fieldsV1: { 'f:spec': [] } }] } }),
      /^live\.json \(apps\/Deployment shop\/web\): metadata\.managedFields\[0\] \(x\): fieldsV1\["f:spec"\] is a list, expected an object$/],
    ['neither JSON nor YAML', '{ a: [', /^live\.json is neither JSON nor YAML: /],
    ['an empty manager', JSON.stringify({ ...DEPLOYMENT, metadata: { name: 'web', namespace: 'shop', managedFields: [{ manager: '', operation: 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }] } }),
      /^live\.json \(apps\/Deployment shop\/web\): metadata\.managedFields\[0\] has an empty manager \(""\): audit names the owner of every field by its manager, and cannot name this one\. Read the objects as the cluster prints them; a client that writes with neither a field manager nor a user agent is recorded so: give it one \(--field-manager\)$/],
    ['a "." that holds a string, as an element that holds one is', JSON.stringify({ ...DEPLOYMENT, metadata: { name: 'web', namespace: 'shop', managedFields: [{ manager: 'x', operation: 'Apply', fieldsV1: { 'f:spec': { '.': 'x', 'f:replicas': {} } } }] } }),
      /^live\.json \(apps\/Deployment shop\/web\): metadata\.managedFields\[0\] \(x\): fieldsV1\["f:spec"\]\["\."\] is "x", expected an object$/],
    ['a set nested 20,000 levels deep', nestedSet(20_000),
      /^live\.json \(apps\/Deployment shop\/web\): metadata\.managedFields\[0\] \(x\): fieldsV1\["f:a"\]\["f:a"\]\["f:a"\]\["f:a"\]\.\.\.\["f:a"\]\["f:a"\] nests more than 1000 levels deep, deeper than any object of a release \(synth writes objects at most 1000 levels deep\)$/],
  ])('%s is an error saying where', (_what, text, message) => {
    expect(() => readLiveObjects(text, 'live.json')).toThrow(LiveObjectsError);
    expect(() => readLiveObjects(text, 'live.json')).toThrow(message);
  });
});

describe('input with no object', () => {
  const EMPTY =
    'live.json is empty: there is no object to compare with the lock. kubectl get prints nothing on stdout when it fails (its error is on stderr), ' +
    "and with --ignore-not-found nothing when it finds none of the objects: see kubectl's error, or apply the release first; " +
    'a cluster without the objects is an empty List ({"kind":"List","items":[]})';

  test.each([['nothing', ''], ['blank lines', '\n \n']])('%s is empty, not a cluster without the objects: an error saying what kubectl printing nothing means', (_what, text) => {
    expect(() => readLiveObjects(text, 'live.json')).toThrow(new LiveObjectsError(EMPTY));
  });

  test('comments and empty YAML documents only are empty too', () => {
    expect(() => readLiveObjects('---\n# nothing here\n---\n', 'live.json')).toThrow(/^live\.json is empty \(comments and empty YAML documents only\): there is no object to compare with the lock\./);
  });

  test('null is an error, not an empty cluster', () => {
    expect(() => readLiveObjects('null', 'stdin')).toThrow(
      new LiveObjectsError('stdin holds null, not objects: give the objects as kubectl get -o json --show-managed-fields prints them (a List, an object, or one object per YAML or JSON document)'),
    );
  });

  test('an empty JSON list is read as an empty List: a cluster without the objects', () => {
    expect(readLiveObjects('[]', 'live.json')).toEqual([]);
    expect(readLiveObjects('{"apiVersion":"v1","kind":"List","items":[]}', 'live.json')).toEqual([]);
  });
});

test('a set 1,000 levels deep is read', () => {
  const [web] = readLiveObjects(nestedSet(1000), 'live.json');
  expect(web.managedFields[0].members.map((m) => m.length)).toEqual([1000]);
});

describe('ledgerLeaves', () => {
  test('identity, status and key fields are left out; an element owned for itself alone is a leaf', () => {
    expect(ledgerLeaves([
      ['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace'],
      ['metadata', 'labels'],
      ['spec', 'ports', 'k:{"protocol":"TCP","port":80}'],
      ['spec', 'ports', 'k:{"protocol":"TCP","port":80}', 'port'],
      ['spec', 'ports', 'k:{"protocol":"TCP","port":80}', 'protocol'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'name'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image'],
      ['status', 'replicas'],
    ])).toEqual([
      ['metadata', 'labels'],
      ['spec', 'ports', 'k:{"port":80,"protocol":"TCP"}'],
      ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image'],
    ]);
  });
});
