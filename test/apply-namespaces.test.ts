import { clusterScopedCrdKinds, namespaceRuns } from '../src/cluster/apply-namespaces';

const cm = (name: string, namespace?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(namespace === undefined ? {} : { namespace }) } });
const runs = (objects: any[], scoped?: ReadonlySet<string>) =>
  namespaceRuns(objects, scoped).map((r) => [r.inDefault, r.objects.map((o) => o.metadata.name)]);

describe('namespaceRuns', () => {
  test('namespace-less objects and objects in default are one run that takes -n default', () => {
    expect(runs([cm('a'), cm('b', 'default')])).toEqual([[true, ['a', 'b']]]);
  });

  test('objects that all name their namespace are one run without -n', () => {
    expect(runs([cm('a', 'shop'), cm('b', 'edge'), cm('c', 'default')])).toEqual([[false, ['a', 'b', 'c']]]);
  });

  test('a namespace-less object and one of another namespace never share a run; the order is kept', () => {
    expect(runs([cm('a'), cm('b', 'shop'), cm('c', 'edge'), cm('d'), cm('e', 'default')])).toEqual([
      [true, ['a']],
      [false, ['b', 'c']],
      [true, ['d', 'e']],
    ]);
  });

  test('a cluster-scoped object goes with either, even when its manifest names a namespace', () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: 'shop' } };
    expect(runs([cm('a'), role, cm('b')])).toEqual([[true, ['a', 'r', 'b']]]);
  });

  test('a custom kind counts as namespaced unless a CRD makes it cluster-scoped', () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'issuers.example.com' }, spec: { group: 'example.com', scope: 'Cluster', names: { kind: 'Issuer' } } };
    const issuer = { apiVersion: 'example.com/v1', kind: 'Issuer', metadata: { name: 'i', namespace: 'shop' } };
    expect(runs([cm('a'), issuer])).toEqual([[true, ['a']], [false, ['i']]]);
    expect(runs([cm('a'), issuer], clusterScopedCrdKinds([crd]))).toEqual([[true, ['a', 'i']]]);
  });

  test('no objects, no run', () => {
    expect(namespaceRuns([])).toEqual([]);
  });
});
