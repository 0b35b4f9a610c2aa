import type { SmdOperation } from './smd/smd';

/**
 * One ConfigMap as Flux and Argo CD apply it, for the tests of a release that switches GitOps engines
 * (test/gitops2-engine-switch.test.ts, test/switch2-audit.test.ts), replayed on structured-merge-diff.
 */

/** The ConfigMap's type in the Kubernetes 1.30 schema. */
export const TYPE = 'io.k8s.api.core.v1.ConfigMap';

/** The object as the release writes it. */
export const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg-acme', namespace: 'default' }, data: { tenant: 'acme' } };

/** The object's identity alone, as audit/objects.list names it. */
export const identity = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg-acme', namespace: 'default' } };

/** kustomize-controller's apply, with its owner labels (fluxcd/pkg ssa SetOwnerLabels). */
export const byFlux: SmdOperation = {
  manager: 'kustomize-controller',
  force: true,
  object: { ...manifest, metadata: { ...manifest.metadata, labels: { 'kustomize.toolkit.fluxcd.io/name': 'shop-routing', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' } } },
};

/** Argo CD's server-side apply of the copy in gitops/argocd/, with its sync wave and tracking annotation. */
export const byArgo: SmdOperation = {
  manager: 'argocd-controller',
  object: { ...manifest, metadata: { ...manifest.metadata, annotations: { 'argocd.argoproj.io/sync-wave': '0', 'argocd.argoproj.io/tracking-id': 'shop:/ConfigMap:default/cfg-acme' } } },
};
