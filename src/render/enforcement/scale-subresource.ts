import { apiGroup, groupKind } from '../../collect/object-identity';

/**
 * The built-in kinds whose `scale` subresource reads and writes `spec.replicas` (the API server's
 * `scaleFromDeployment`, `scaleFromReplicaSet`, `scaleFromStatefulSet`, `scaleFromRC`).
 */
const BUILT_IN_SCALED = new Set([groupKind('apps', 'Deployment'), groupKind('apps', 'ReplicaSet'), groupKind('apps', 'StatefulSet'), groupKind('', 'ReplicationController')]);

/** The leaf an autoscaling/v1 `Scale`'s `spec.replicas` stands for, as the ledger prints it. */
export const SCALED_LEAF = 'spec.replicas';

/**
 * The kinds (`group/Kind`) whose `scale` subresource changes their `spec.replicas`: Deployment,
 * ReplicaSet, StatefulSet and ReplicationController, and each custom kind whose CRD is among the
 * manifests with a scale subresource in every version that has one at `specReplicasPath: .spec.replicas`.
 * A request to that subresource carries autoscaling/v1 `Scale` objects, whose `spec.replicas` is that
 * same leaf. A CRD whose scale maps another path is not among them: its Scale's `spec.replicas` is a
 * leaf of another name.
 *
 * @param manifests the composition's manifests, its CRDs among them
 */
export function scaledKinds(manifests: readonly any[]): Set<string> {
  const kinds = new Set(BUILT_IN_SCALED);
  for (const m of manifests) {
    if (m?.kind !== 'CustomResourceDefinition' || apiGroup(String(m.apiVersion ?? '')) !== 'apiextensions.k8s.io') continue;
    const { group, names, versions } = m.spec ?? {};
    if (typeof group !== 'string' || typeof names?.kind !== 'string' || !Array.isArray(versions)) continue;
    const scales = versions.map((v: any) => v?.subresources?.scale).filter((s: unknown) => s !== undefined && s !== null);
    if (scales.length > 0 && scales.every((s: any) => s?.specReplicasPath === `.${SCALED_LEAF}`)) kinds.add(groupKind(group, names.kind));
  }
  return kinds;
}
