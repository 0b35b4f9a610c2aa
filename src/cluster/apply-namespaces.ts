import { apiGroup, DEFAULT_NAMESPACE, groupKind, isClusterScoped } from '../collect/object-identity';

/**
 * Objects one `kubectl apply` takes together, and whether it needs `-n default`: a namespaced object whose
 * manifest names no namespace is in `default` for the library (its identity, the lock, the waits), but kubectl
 * puts it in the namespace of the kubeconfig's context unless `-n default` says otherwise.
 */
export interface NamespaceRun {
  /** The objects, in the order given. */
  readonly objects: readonly any[];
  /** True when an object of the run names no namespace and may be namespaced: the apply takes `-n default`. */
  readonly inDefault: boolean;
}

/**
 * The group/kind keys of the cluster-scoped CustomResourceDefinitions among some manifests.
 *
 * @param manifests the objects, CRDs among them
 */
export function clusterScopedCrdKinds(manifests: readonly any[]): Set<string> {
  const keys = new Set<string>();
  for (const m of manifests) {
    if (m?.kind === 'CustomResourceDefinition' && apiGroup(String(m.apiVersion)) === 'apiextensions.k8s.io' && m.spec?.scope === 'Cluster') {
      keys.add(groupKind(String(m.spec?.group ?? ''), String(m.spec?.names?.kind ?? '')));
    }
  }
  return keys;
}

/**
 * Splits objects, in their order, into the fewest runs kubectl takes in one call each, so that every
 * namespaced object without a namespace lands in `default`. kubectl refuses `-n default` for an object whose
 * manifest names another namespace, so such an object and a namespace-less one never share a run. An object of
 * a cluster-scoped kind goes with either (kubectl ignores `-n` for it), and so does one in `default`. A kind
 * whose scope is not known (a custom resource of a CRD outside `clusterScoped`) counts as namespaced: `-n
 * default` is harmless if it is not.
 *
 * @param objects the manifests of one apply, in order
 * @param clusterScoped group/kind keys of cluster-scoped kinds beyond the built-in ones
 * @returns one run when the objects need no split (an empty list for none)
 */
export function namespaceRuns(objects: readonly any[], clusterScoped?: ReadonlySet<string>): NamespaceRun[] {
  const runs: Array<{ objects: any[]; inDefault: boolean; elsewhere: boolean }> = [];
  let open: (typeof runs)[number] | undefined;
  for (const o of objects) {
    const cluster = isClusterScoped(apiGroup(String(o?.apiVersion ?? '')), String(o?.kind ?? ''), clusterScoped);
    const namespace = o?.metadata?.namespace;
    const needsDefault = !cluster && (namespace === undefined || namespace === null || namespace === '');
    const elsewhere = !cluster && !needsDefault && namespace !== DEFAULT_NAMESPACE;
    if (!open || (needsDefault && open.elsewhere) || (elsewhere && open.inDefault)) {
      open = { objects: [], inDefault: false, elsewhere: false };
      runs.push(open);
    }
    open.objects.push(o);
    open.inDefault ||= needsDefault;
    open.elsewhere ||= elsewhere;
  }
  return runs.map(({ objects: run, inDefault }) => ({ objects: run, inDefault }));
}

/** kubectl's arguments that put a run's namespace-less objects in `default`: `-n default`, or none. */
export function namespaceArgs(run: NamespaceRun | undefined): string[] {
  return run?.inDefault ? ['-n', DEFAULT_NAMESPACE] : [];
}
