import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { Reference } from '../constructs/reference';
import { RuntimeObject } from '../model/composition-model';
import { apiGroup, describeIdentity, identityKey, isClusterScoped, ObjectIdentity } from '../model/object-identity';
import { violation, Violation, ViolationCode } from '../violation';
import { Check } from './check';

/** Stands for every namespace in the identity of an external object declared without one. */
const ANY_NAMESPACE = '\u0000any';

/** ClusterRoles every cluster has. */
const BUILT_IN_CLUSTER_ROLES = /^(cluster-admin|admin|edit|view|system:.*)$/;

interface Ref {
  readonly target: ObjectIdentity;
  readonly field: string;
}

/**
 * `CAP005`: a by-name reference that resolves to nothing in the composition
 * and is not declared external: bindings to roles, pod specs to service
 * accounts, config maps, secrets and claims, Services to workloads, Ingress and
 * HTTPRoute backends to Services, and by-name references declared with
 * `Reference.byName`.
 */
export const danglingReferences: Check = {
  name: 'dangling references',
  code: ViolationCode.DANGLING_REFERENCE,
  run({ model }) {
    const present = new Set<string>();
    const workloads: Array<{ namespace: string; labels: Record<string, string> }> = [];
    for (const o of model.objects) {
      present.add(identityKey(o.identity));
      const providedSecret = o.identity.kind === 'ExternalSecret' ? o.manifest.spec?.target?.name ?? o.identity.name : undefined;
      if (providedSecret) present.add(identityKey({ group: '', kind: 'Secret', namespace: o.identity.namespace, name: String(providedSecret) }));
      const labels = podTemplateLabels(o);
      if (labels) workloads.push({ namespace: o.identity.namespace ?? '', labels });
    }
    const declared = model.constructs.filter((c): c is Reference => Reference.isReference(c));
    // An external object of a namespaced kind given without a namespace stands for that name in any namespace.
    for (const r of declared) if (r.external) present.add(identityKey(toIdentity(r.external, r.external.namespace ?? ANY_NAMESPACE)));

    const found: Violation[] = [];
    const byName = new Map<ApiObject, Reference[]>();
    for (const r of declared) {
      const target = r.byName && ApiObject.of(r.byName.source);
      if (target) byName.set(target, [...(byName.get(target) ?? []), r]);
    }
    for (const o of model.objects) {
      const refs = [...references(o), ...declaredReferences(o, byName.get(o.apiObject) ?? [])];
      for (const ref of refs) {
        const anywhere = { ...ref.target, namespace: ref.target.namespace === undefined ? undefined : ANY_NAMESPACE };
        if (present.has(identityKey(ref.target)) || present.has(identityKey(anywhere)) || isImplicit(ref.target)) continue;
        found.push(dangling(o, `refers to ${describeIdentity(ref.target)} at ${ref.field}, which is not in the composition`, [o.declarer]));
      }
      const selector = serviceSelector(o);
      if (selector && !workloads.some((w) => w.namespace === (o.identity.namespace ?? '') && matches(selector, w.labels))) {
        const text = Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',');
        found.push(dangling(o, `selects ${text}, which matches no workload's pod labels in namespace '${o.identity.namespace ?? ''}'`, [o.declarer]));
      }
    }
    return found;
  },
};

function dangling(o: RuntimeObject, what: string, paths: IConstruct[]): Violation {
  return violation(
    ViolationCode.DANGLING_REFERENCE,
    `dangling reference: ${describeIdentity(o.identity)} declared by '${o.declarer.node.path}' ${what}. Declare the target in the composition, fix the name, or mark it external with Reference.external(scope, id, { apiVersion, kind, name, namespace }).`,
    paths.map((p) => p.node.path),
  );
}

function toIdentity(ref: { apiVersion: string; kind: string; name: string }, namespace: string): ObjectIdentity {
  const group = apiGroup(ref.apiVersion);
  return { group, kind: ref.kind, name: ref.name, namespace: isClusterScoped(group, ref.kind) ? undefined : namespace };
}

function isImplicit(t: ObjectIdentity): boolean {
  if (t.group === '' && t.kind === 'ServiceAccount' && t.name === 'default') return true;
  if (t.group === '' && t.kind === 'ConfigMap' && t.name === 'kube-root-ca.crt') return true;
  return t.group === 'rbac.authorization.k8s.io' && t.kind === 'ClusterRole' && BUILT_IN_CLUSTER_ROLES.test(t.name);
}

/** The pod spec of a workload, and the path to it. */
function podSpec(o: RuntimeObject): { spec: any; at: string } | undefined {
  const m = o.manifest;
  switch (`${o.identity.group}/${o.identity.kind}`) {
    case '/Pod':
      return { spec: m.spec, at: 'spec' };
    case 'apps/Deployment':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
    case 'apps/ReplicaSet':
    case 'batch/Job':
      return { spec: m.spec?.template?.spec, at: 'spec.template.spec' };
    case 'batch/CronJob':
      return { spec: m.spec?.jobTemplate?.spec?.template?.spec, at: 'spec.jobTemplate.spec.template.spec' };
    default:
      return undefined;
  }
}

function podTemplateLabels(o: RuntimeObject): Record<string, string> | undefined {
  const m = o.manifest;
  if (o.identity.group === '' && o.identity.kind === 'Pod') return m.metadata?.labels ?? {};
  if (o.identity.kind === 'CronJob') return m.spec?.jobTemplate?.spec?.template?.metadata?.labels;
  return podSpec(o) ? m.spec?.template?.metadata?.labels ?? {} : undefined;
}

function serviceSelector(o: RuntimeObject): Record<string, string> | undefined {
  if (o.identity.group !== '' || o.identity.kind !== 'Service' || o.manifest.spec?.type === 'ExternalName') return undefined;
  const selector = o.manifest.spec?.selector;
  return selector && Object.keys(selector).length > 0 ? selector : undefined;
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** The by-name references the Kubernetes API defines, for the kinds we know. */
function references(o: RuntimeObject): Ref[] {
  const ns = o.identity.namespace ?? '';
  const m = o.manifest;
  const refs: Ref[] = [];
  const to = (kind: string, name: unknown, field: string, group = '', namespace = ns) => {
    if (typeof name === 'string' && name) refs.push({ target: { group, kind, name, namespace: isClusterScoped(group, kind) ? undefined : namespace }, field });
  };
  const { group, kind } = o.identity;
  if (group === 'rbac.authorization.k8s.io' && (kind === 'RoleBinding' || kind === 'ClusterRoleBinding')) {
    to(String(m.roleRef?.kind ?? ''), m.roleRef?.name, 'roleRef', 'rbac.authorization.k8s.io');
  }
  const pod = podSpec(o);
  if (pod?.spec) {
    const s = pod.spec;
    const at = pod.at;
    if (s.serviceAccountName) to('ServiceAccount', s.serviceAccountName, `${at}.serviceAccountName`);
    (s.imagePullSecrets ?? []).forEach((p: any) => to('Secret', p?.name, `${at}.imagePullSecrets`));
    for (const v of s.volumes ?? []) {
      if (v?.configMap && !v.configMap.optional) to('ConfigMap', v.configMap.name, `${at}.volumes[name=${v.name}].configMap`);
      if (v?.secret && !v.secret.optional) to('Secret', v.secret.secretName, `${at}.volumes[name=${v.name}].secret`);
      if (v?.persistentVolumeClaim) to('PersistentVolumeClaim', v.persistentVolumeClaim.claimName, `${at}.volumes[name=${v.name}].persistentVolumeClaim`);
    }
    for (const c of [...(s.initContainers ?? []), ...(s.containers ?? [])]) {
      const where = `${at}.containers[name=${c?.name}]`;
      for (const e of c?.envFrom ?? []) {
        if (e?.configMapRef && !e.configMapRef.optional) to('ConfigMap', e.configMapRef.name, `${where}.envFrom`);
        if (e?.secretRef && !e.secretRef.optional) to('Secret', e.secretRef.name, `${where}.envFrom`);
      }
      for (const e of c?.env ?? []) {
        const from = e?.valueFrom;
        if (from?.configMapKeyRef && !from.configMapKeyRef.optional) to('ConfigMap', from.configMapKeyRef.name, `${where}.env[name=${e.name}]`);
        if (from?.secretKeyRef && !from.secretKeyRef.optional) to('Secret', from.secretKeyRef.name, `${where}.env[name=${e.name}]`);
      }
    }
  }
  if (group === 'networking.k8s.io' && kind === 'Ingress') {
    to('Service', m.spec?.defaultBackend?.service?.name, 'spec.defaultBackend');
    for (const rule of m.spec?.rules ?? []) for (const p of rule?.http?.paths ?? []) to('Service', p?.backend?.service?.name, `spec.rules[host=${rule.host ?? ''}].http.paths`);
  }
  if (group === 'gateway.networking.k8s.io' && kind === 'HTTPRoute') {
    for (const rule of m.spec?.rules ?? []) {
      for (const b of rule?.backendRefs ?? []) {
        if ((b?.group ?? '') === '' && (b?.kind ?? 'Service') === 'Service') to('Service', b.name, 'spec.rules.backendRefs', '', b.namespace ?? ns);
      }
    }
  }
  return refs;
}

/** The by-name references declared with `Reference.byName` on this object. */
function declaredReferences(o: RuntimeObject, declared: Reference[]): Ref[] {
  const refs: Ref[] = [];
  for (const r of declared) {
    const options = r.byName!;
    let value: any = o.manifest;
    for (const key of options.field.split('.')) value = value?.[key];
    const name = typeof value === 'string' ? value : value?.name;
    if (typeof name !== 'string') continue;
    const namespace = typeof value === 'object' && typeof value?.namespace === 'string' ? value.namespace : o.identity.namespace ?? '';
    refs.push({ target: toIdentity({ ...options.target, name }, namespace), field: options.field });
  }
  return refs;
}
