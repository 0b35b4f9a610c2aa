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
 * Kinds of the Kubernetes API (and of the CRDs this library knows) that are
 * cluster-scoped. A CRD in the composition adds its own kind when its
 * `spec.scope` is `Cluster`.
 */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'gateway.networking.k8s.io/GatewayClass',
  'external-secrets.io/ClusterSecretStore',
  'external-secrets.io/ClusterExternalSecret',
]);

/** The API group of an `apiVersion`: `''` for `v1`, `apps` for `apps/v1`. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/** The key of a group and kind, as `group/Kind` (`/ConfigMap` for the core group). */
export function groupKind(group: string, kind: string): string {
  return `${group}/${kind}`;
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

/** A string that is equal for equal identities. */
export function identityKey(id: ObjectIdentity): string {
  return `${id.group}|${id.kind}|${id.namespace ?? ''}|${id.name}`;
}

/** How messages name an object: `Deployment web/frontend`, `apps.example.com/Widget w1`. */
export function describeIdentity(id: ObjectIdentity): string {
  const kind = id.group ? `${id.group}/${id.kind}` : id.kind;
  const where = id.namespace ? `${id.namespace}/${id.name}` : id.name;
  return `${kind} ${where}`;
}
