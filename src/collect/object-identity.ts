import { flatString } from '../private/flat-string';

/**
 * The identity of a Kubernetes object: group, kind, namespace (for namespaced
 * kinds) and name. The API version is not part of it: `apps/v1` and
 * `apps/v1beta2` Deployments of one name are the same object.
 */
export interface ObjectIdentity {
  /** The API group; `''` for the core group. */
  readonly group: string;
  /** The kind, for example `ConfigMap`. */
  readonly kind: string;
  /** The namespace; `undefined` for cluster-scoped kinds. */
  readonly namespace?: string;
  /** `metadata.name`. */
  readonly name: string;
}

/**
 * The cluster-scoped kinds of the Kubernetes 1.30 API, and of the CRDs this
 * library knows. A CRD in the composition adds its own kind when its
 * `spec.scope` is `Cluster`, and `Reference.clusterScoped` declares one whose
 * CRD is elsewhere.
 *
 * The built-in kinds are those whose `scope` is `Cluster` in the API server's
 * aggregated discovery document (kubernetes/kubernetes
 * `api/discovery/aggregated_v2.json` at 0209a4cb57a359609b96779f044bcdff8e8df70d,
 * the 1.30/1.31 API: the same kinds as `K8S_1_30`), plus the core group's
 * (`Namespace`, `Node`, `PersistentVolume`, `ComponentStatus`), which that file
 * leaves to `aggregated_v2_core.json`.
 */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'authentication.k8s.io/SelfSubjectReview',
  'authentication.k8s.io/TokenReview',
  'authorization.k8s.io/SelfSubjectAccessReview',
  'authorization.k8s.io/SelfSubjectRulesReview',
  'authorization.k8s.io/SubjectAccessReview',
  'certificates.k8s.io/CertificateSigningRequest',
  'certificates.k8s.io/ClusterTrustBundle',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'internal.apiserver.k8s.io/StorageVersion',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'node.k8s.io/RuntimeClass',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'resource.k8s.io/ResourceClass',
  'resource.k8s.io/ResourceSlice',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/VolumeAttributesClass',
  'storagemigration.k8s.io/StorageVersionMigration',
  // CRDs this library knows (src/imports, vendor/crds)
  'gateway.networking.k8s.io/GatewayClass',
  'external-secrets.io/ClusterSecretStore',
  'external-secrets.io/ClusterExternalSecret',
]);

/** The namespace the API server puts an object of a namespaced kind in when its manifest names none. */
export const DEFAULT_NAMESPACE = 'default';

/** The API group of an `apiVersion`: `''` for `v1`, `apps` for `apps/v1`. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/** The keys made so far, by group and kind: a composition has few kinds and many objects of each. */
const GROUP_KINDS = new Map<string, Map<string, string>>();

/** The key of a group and kind, as `group/Kind` (`/ConfigMap` for the core group): one string per kind, however many objects ask. */
export function groupKind(group: string, kind: string): string {
  let kinds = GROUP_KINDS.get(group);
  if (!kinds) {
    kinds = new Map();
    GROUP_KINDS.set(group, kinds);
  }
  let key = kinds.get(kind);
  if (key === undefined) {
    key = `${group}/${kind}`;
    kinds.set(kind, key);
  }
  return key;
}

/**
 * True when objects of this group and kind are cluster-scoped.
 *
 * @param extraClusterScoped group/kind keys of cluster-scoped CRDs in the composition
 */
export function isClusterScoped(group: string, kind: string, extraClusterScoped?: ReadonlySet<string>): boolean {
  const key = groupKind(group, kind);
  return CLUSTER_SCOPED.has(key) || (extraClusterScoped?.has(key) ?? false);
}

/**
 * The identity of a rendered manifest.
 *
 * @param manifest the rendered object
 * @param extraClusterScoped group/kind keys of cluster-scoped CRDs in the composition
 */
export function identityOf(manifest: any, extraClusterScoped?: ReadonlySet<string>): ObjectIdentity {
  const group = apiGroup(String(manifest?.apiVersion ?? ''));
  const kind = String(manifest?.kind ?? '');
  const name = String(manifest?.metadata?.name ?? '');
  const namespace = isClusterScoped(group, kind, extraClusterScoped)
    ? undefined
    : String(manifest?.metadata?.namespace ?? '');
  return { group, kind, namespace, name };
}

/** A string that is equal for equal identities (as declared: no namespace and `default` differ; see `appliedKey`). */
export function identityKey(id: ObjectIdentity): string {
  return flatString(id.group, '|', id.kind, '|', id.namespace ?? '', '|', id.name);
}

/**
 * The namespace the API server stores an object in: its own, `default` when a
 * namespaced kind names none, undefined for a cluster-scoped kind.
 */
export function effectiveNamespace(id: ObjectIdentity): string | undefined {
  return id.namespace === undefined ? undefined : id.namespace || DEFAULT_NAMESPACE;
}

/**
 * A string that is equal for two identities the API server stores as one
 * object: a namespaced object without a namespace is the one in `default`
 * (kustomize's `ResId.Equals`, by `EffectiveNamespace`).
 */
export function appliedKey(id: ObjectIdentity): string {
  return identityKey({ ...id, namespace: effectiveNamespace(id) });
}

/** How messages name an object: `Deployment web/frontend`, `apps.example.com/Widget w1`. */
export function describeIdentity(id: ObjectIdentity): string {
  const parts = id.group ? [id.group, '/', id.kind, ' '] : [id.kind, ' '];
  if (id.namespace) parts.push(id.namespace, '/');
  parts.push(id.name);
  return flatString(...parts);
}
