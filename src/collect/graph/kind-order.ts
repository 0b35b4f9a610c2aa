/**
 * The soft kind order: which kinds of one chart go first when nothing
 * stronger (an explicit dependency, a reference, a CRD, a Namespace) decides.
 *
 * It is Helm's `InstallOrder` (helm/helm pkg/release/v1/util/kind_sorter.go),
 * which Argo CD's gitops-engine copies for its kinds (pkg/sync/sync_tasks.go),
 * with three moves, in four bands:
 *
 * 1. cluster definitions: PriorityClass, Namespace, StorageClass, CRDs,
 *    ClusterRoles and their bindings, IngressClass and every other `*Class` kind;
 * 2. policies and pod-related objects, in Helm's order: NetworkPolicy,
 *    ResourceQuota, LimitRange, PodSecurityPolicy, PodDisruptionBudget,
 *    ServiceAccount, Secret (and the External Secrets Operator's `ExternalSecret`,
 *    which makes one), ConfigMap, PersistentVolume(Claim), Role, RoleBinding;
 * 3. Service, then the workloads in Helm's order, then Ingress and every kind
 *    not named here (custom resources among them), in creation order;
 * 4. APIService and admission webhooks, last.
 *
 * The moves, on purpose: CRDs, StorageClass, the ClusterRoles and their
 * bindings and IngressClass come with the cluster definitions (Helm puts CRDs
 * and StorageClass after ConfigMap and IngressClass after CronJob; kapp puts
 * CRDs and Namespaces first, and a `*Class` is what other objects name); kinds
 * Helm does not know come before APIService and the webhooks, not after them
 * (a webhook applied before the objects it admits can refuse them), and keep
 * their creation order (Helm and gitops-engine sort them by name). Service
 * stays before the workloads, as in Helm and gitops-engine: a pod gets the
 * `*_SERVICE_HOST` variables of the Services that exist when it starts, and a
 * selector is no dependency.
 */
const KIND_ORDER: ReadonlyArray<readonly [group: string, kind: string]> = [
  ['scheduling.k8s.io', 'PriorityClass'],
  ['', 'Namespace'],
  ['storage.k8s.io', 'StorageClass'],
  ['apiextensions.k8s.io', 'CustomResourceDefinition'],
  ['rbac.authorization.k8s.io', 'ClusterRole'],
  ['rbac.authorization.k8s.io', 'ClusterRoleList'],
  ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
  ['rbac.authorization.k8s.io', 'ClusterRoleBindingList'],
  ['networking.k8s.io', 'IngressClass'],
  ['*', '*Class'],
  ['networking.k8s.io', 'NetworkPolicy'],
  ['', 'ResourceQuota'],
  ['', 'LimitRange'],
  ['policy', 'PodSecurityPolicy'],
  ['policy', 'PodDisruptionBudget'],
  ['', 'ServiceAccount'],
  ['', 'Secret'],
  ['', 'SecretList'],
  ['external-secrets.io', 'ExternalSecret'],
  ['', 'ConfigMap'],
  ['', 'PersistentVolume'],
  ['', 'PersistentVolumeClaim'],
  ['rbac.authorization.k8s.io', 'Role'],
  ['rbac.authorization.k8s.io', 'RoleList'],
  ['rbac.authorization.k8s.io', 'RoleBinding'],
  ['rbac.authorization.k8s.io', 'RoleBindingList'],
  ['', 'Service'],
  ['apps', 'DaemonSet'],
  ['', 'Pod'],
  ['', 'ReplicationController'],
  ['apps', 'ReplicaSet'],
  ['apps', 'Deployment'],
  ['autoscaling', 'HorizontalPodAutoscaler'],
  ['apps', 'StatefulSet'],
  ['batch', 'Job'],
  ['batch', 'CronJob'],
  ['networking.k8s.io', 'Ingress'],
  ['*', '*'],
  ['apiregistration.k8s.io', 'APIService'],
  ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'],
  ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
];

const RANKS = new Map(KIND_ORDER.map(([group, kind], rank) => [`${group}/${kind}`, rank]));
const CLASS_RANK = RANKS.get('*/*Class')!;
const UNKNOWN_RANK = RANKS.get('*/*')!;

/** The rank of a kind in the soft kind order (lower first). */
export function kindRank(group: string, kind: string): number {
  const known = RANKS.get(`${group}/${kind}`);
  if (known !== undefined) return known;
  return kind.endsWith('Class') && kind.length > 'Class'.length ? CLASS_RANK : UNKNOWN_RANK;
}
