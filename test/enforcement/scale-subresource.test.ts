// Which kinds' scale subresource changes their spec.replicas: the built-in workloads, and a CRD's whose
// scale maps .spec.replicas in every version that has one.
import { scaledKinds } from '../../src/render/enforcement/scale-subresource';

function crd(kind: string, scales: Array<Record<string, unknown> | undefined>): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${kind.toLowerCase()}s.example.com` },
    spec: {
      group: 'example.com',
      names: { kind, plural: `${kind.toLowerCase()}s` },
      versions: scales.map((scale, i) => ({ name: `v${i + 1}`, ...(scale ? { subresources: { scale } } : {}) })),
    },
  };
}

test('the built-in kinds with a scale subresource of spec.replicas, and no others', () => {
  expect([...scaledKinds([])].sort()).toEqual(['/ReplicationController', 'apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet']);
});

test("a CRD's kind is scaled when every version with a scale subresource maps .spec.replicas", () => {
  // GIVEN
  const manifests = [
    crd('Worker', [{ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }, undefined]),
    crd('Pool', [{ specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' }]),
    crd('Mixed', [{ specReplicasPath: '.spec.replicas' }, { specReplicasPath: '.spec.count' }]),
    crd('Plain', [undefined]),
  ];

  // THEN
  const kinds = scaledKinds(manifests);
  expect(['example.com/Worker', 'example.com/Pool', 'example.com/Mixed', 'example.com/Plain'].map((k) => kinds.has(k))).toEqual([true, false, false, false]);
});
