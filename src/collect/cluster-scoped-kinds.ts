import { IConstruct } from 'constructs';
import { apiGroup, groupKind, isClusterScoped } from './object-identity';
import { K8S_1_30 } from './topology/k8s-1.30.generated';
import { Reference } from '../constructs/reference';

/** The kinds beyond the built-in table that are cluster-scoped, and the declarations left out because they contradict a known scope. */
export interface ClusterScopedKinds {
  /** `group/Kind` keys of cluster-scoped CRDs in the composition and of kinds declared with `Reference.clusterScoped`. */
  readonly keys: ReadonlySet<string>;
  /** Each `Reference.clusterScoped` whose kind is namespaced by the Kubernetes API or by its CRD in the composition. */
  readonly problems: ReadonlyArray<{ readonly path: string; readonly error: string }>;
  /** The `group/Kind` key of every kind declared with `Reference.clusterScoped` (a CRD outside the composition), left out or not, sorted. */
  readonly declared: readonly string[];
}

/**
 * The cluster-scoped kinds of a composition beyond the built-in ones: those
 * whose CRD in it has `spec.scope: Cluster`, and those declared with
 * `Reference.clusterScoped`. A declaration of a kind the Kubernetes 1.30 API
 * or a CRD in the composition makes namespaced contradicts it: it is left out
 * (so two objects of that kind in two namespaces stay two) and named.
 *
 * @param manifests the rendered manifests, for the CRDs
 * @param constructs every construct, for the `Reference`s
 */
export function clusterScopedKinds(manifests: readonly any[], constructs: readonly IConstruct[]): ClusterScopedKinds {
  const keys = new Set<string>();
  const namespacedCrds = new Map<string, string>();
  for (const m of manifests) {
    if (m?.kind !== 'CustomResourceDefinition' || apiGroup(String(m.apiVersion)) !== 'apiextensions.k8s.io') continue;
    const key = groupKind(String(m.spec?.group ?? ''), String(m.spec?.names?.kind ?? ''));
    if (m.spec?.scope === 'Cluster') keys.add(key);
    else if (m.spec?.scope === 'Namespaced') namespacedCrds.set(key, String(m.metadata?.name ?? ''));
  }
  const problems: Array<{ path: string; error: string }> = [];
  const declared = new Set<string>();
  for (const c of constructs) {
    if (!Reference.isReference(c) || !c.clusterScopedKind) continue;
    const { apiVersion, kind } = c.clusterScopedKind;
    const group = apiGroup(apiVersion);
    const key = groupKind(group, kind);
    declared.add(key);
    const declaration = `Reference.clusterScoped declares ${JSON.stringify(kind)} of ${JSON.stringify(apiVersion)} cluster-scoped`;
    const crd = namespacedCrds.get(key);
    if (Object.hasOwn(K8S_1_30.kinds, key) && !isClusterScoped(group, kind)) {
      problems.push({ path: c.node.path, error: `${declaration}, but the Kubernetes API makes ${kind} namespaced, so it is left out: objects of one name in two namespaces stay two objects. Remove the declaration; built-in kinds need none.` });
    } else if (crd !== undefined && !keys.has(key)) {
      problems.push({ path: c.node.path, error: `${declaration}, but its CustomResourceDefinition ${JSON.stringify(crd)} in the composition gives spec.scope Namespaced, so it is left out: objects of one name in two namespaces stay two objects. Remove the declaration; a CRD in the composition needs none.` });
    } else {
      keys.add(key);
    }
  }
  return { keys, problems, declared: [...declared].sort() };
}
