import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { ExternalFact, ObjectFact, ReferenceFact } from './facts';
import { apiGroup, isClusterScoped, ObjectIdentity } from './object-identity';
import { podSpecOf } from './pod-spec';
import { apiObjectOf } from '../constructs/api-object-of';
import { Reference } from '../constructs/reference';
import { appendAll, appendTo } from '../private/append';

/**
 * Every by-name reference of every object: those the Kubernetes API defines
 * (bindings to roles; pods to service accounts, config maps, secrets and
 * claims; Ingress and HTTPRoute backends to Services) and those declared with
 * `Reference.byName`.
 *
 * @param objects the collected objects (second declarations of an identity are skipped)
 * @param constructs every construct, for the `Reference`s
 * @param indexOf the index of an `ApiObject` in `objects`
 */
export function collectReferences(
  objects: readonly ObjectFact[],
  constructs: readonly IConstruct[],
  indexOf: ReadonlyMap<ApiObject, number>,
  clusterScoped: ReadonlySet<string> = new Set(),
): ReferenceFact[] {
  const declared = new Map<number, Reference[]>();
  for (const c of constructs) {
    if (!Reference.isReference(c) || !c.byName) continue;
    // a source without an ApiObject is the reference's own CAP010 (its validation), not a crash here
    const api = apiObjectOf(c.byName.source);
    const source = api ? indexOf.get(api) : undefined;
    if (source !== undefined) appendTo(declared, source, c);
  }
  const found: ReferenceFact[] = [];
  objects.forEach((o, i) => {
    if (o.duplicateOf !== undefined) return;
    appendAll(found, apiReferences(o, i, clusterScoped));
    appendAll(found, declaredReferences(o, i, declared.get(i) ?? [], clusterScoped));
  });
  return found;
}

/** The objects declared external with `Reference.external`. */
export function collectExternals(constructs: readonly IConstruct[], clusterScoped: ReadonlySet<string> = new Set()): ExternalFact[] {
  const found: ExternalFact[] = [];
  for (const c of constructs) {
    if (!Reference.isReference(c) || !c.external) continue;
    const { apiVersion, kind, name, namespace } = c.external;
    const group = apiGroup(apiVersion);
    const cluster = isClusterScoped(group, kind, clusterScoped);
    const identity = { group, kind, name, namespace: cluster ? undefined : namespace };
    found.push({ path: c.node.path, identity, anyNamespace: !cluster && namespace === undefined });
  }
  return found;
}

/** The references the Kubernetes API defines, for the kinds we know. */
function apiReferences(o: ObjectFact, from: number, clusterScoped: ReadonlySet<string>): ReferenceFact[] {
  const ns = o.identity.namespace ?? '';
  const m = o.manifest;
  const refs: ReferenceFact[] = [];
  const to = (kind: string, name: unknown, field: string, options: { group?: string; namespace?: string; key?: unknown } = {}) => {
    if (typeof name !== 'string' || !name) return;
    const group = options.group ?? '';
    const namespace = isClusterScoped(group, kind, clusterScoped) ? undefined : options.namespace ?? ns;
    const target: ObjectIdentity = { group, kind, name, namespace };
    refs.push({ from, target, field, ...(typeof options.key === 'string' ? { key: options.key } : {}) });
  };
  const { group, kind } = o.identity;
  if (group === 'rbac.authorization.k8s.io' && (kind === 'RoleBinding' || kind === 'ClusterRoleBinding')) {
    to(String(m.roleRef?.kind ?? ''), m.roleRef?.name, 'roleRef', { group: 'rbac.authorization.k8s.io' });
  }
  const pod = podSpecOf(group, kind, m);
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
        const source = e?.valueFrom;
        const field = `${where}.env[name=${e.name}]`;
        if (source?.configMapKeyRef && !source.configMapKeyRef.optional) to('ConfigMap', source.configMapKeyRef.name, field, { key: source.configMapKeyRef.key });
        if (source?.secretKeyRef && !source.secretKeyRef.optional) to('Secret', source.secretKeyRef.name, field, { key: source.secretKeyRef.key });
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
        if ((b?.group ?? '') === '' && (b?.kind ?? 'Service') === 'Service') to('Service', b.name, 'spec.rules.backendRefs', { namespace: b.namespace ?? ns });
      }
    }
  }
  return refs;
}

/** The by-name references declared with `Reference.byName` on this object. */
function declaredReferences(o: ObjectFact, from: number, declared: readonly Reference[], clusterScoped: ReadonlySet<string>): ReferenceFact[] {
  const refs: ReferenceFact[] = [];
  for (const r of declared) {
    const options = r.byName!;
    let value: any = o.manifest;
    for (const key of options.field.split('.')) value = value?.[key];
    const name = typeof value === 'string' ? value : value?.name;
    if (typeof name !== 'string') continue;
    const namespace = typeof value === 'object' && typeof value?.namespace === 'string' ? value.namespace : o.identity.namespace ?? '';
    const group = apiGroup(options.target.apiVersion);
    const kind = options.target.kind;
    const target: ObjectIdentity = { group, kind, name, namespace: isClusterScoped(group, kind, clusterScoped) ? undefined : namespace };
    refs.push({ from, target, field: options.field });
  }
  return refs;
}
