import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { apiVersionProblem, kindProblem } from './api-kinds';
import type { ExternalFact, ExternalPodsFact, ObjectFact, ReferenceFact } from './facts';
import { apiGroup, DEFAULT_NAMESPACE, describeIdentity, isClusterScoped, ObjectIdentity } from './object-identity';
import { podSpecOf } from './pod-spec';
import { apiObjectOf } from '../constructs/api-object-of';
import { Reference } from '../constructs/reference';
import { appendAll, appendTo } from '../private/append';
import { asList, keyText } from '../private/loose-values';
import { valueText } from '../private/value-text';

/**
 * Every by-name reference of every object: those the Kubernetes API defines
 * (bindings to roles; pods to service accounts, config maps, secrets and
 * claims, projected volumes' sources and the Secrets of CSI, CephFS, RBD,
 * iSCSI, FlexVolume and Azure File volumes; Ingress and HTTPRoute backends to
 * Services) and those declared with `Reference.byName`.
 *
 * @param objects the collected objects (second declarations of an identity are skipped)
 * @param constructs the constructs to find the `Reference`s among (every construct, or the `Reference`s alone)
 * @param indexOf the index of an `ApiObject` in `objects`
 * @returns the references, and each `Reference.byName` whose field does not hold a name (a `CAP010`)
 */
export function collectReferences(
  objects: readonly ObjectFact[],
  constructs: readonly IConstruct[],
  indexOf: ReadonlyMap<ApiObject, number>,
  clusterScoped: ReadonlySet<string> = new Set(),
): DeclaredReferences {
  const declared = new Map<number, Reference[]>();
  const problems: ReferenceProblem[] = declaredKindProblems(constructs);
  for (const c of constructs) {
    if (!Reference.isReference(c) || !c.byName) continue;
    // a source without an ApiObject is the reference's own CAP010 (its validation), not a crash here
    const api = apiObjectOf(c.byName.source);
    const source = api ? indexOf.get(api) : undefined;
    if (source !== undefined) {appendTo(declared, source, c);} else if (api) {
      problems.push({
        path: c.node.path,
        error: `Reference.byName's 'source' ('${api.node.path}') is not in this app, so no synth of it checks the reference. Declare it in the app of the source, or give a source of this one.`,
      });
    }
  }
  const found: ReferenceFact[] = [];
  objects.forEach((o, i) => {
    if (o.duplicateOf !== undefined) return;
    appendAll(found, apiReferences(o, i, clusterScoped));
    const own = declaredReferences(o, i, declared.get(i) ?? [], clusterScoped);
    appendAll(found, own.references);
    appendAll(problems, own.problems);
  });
  return { references: found, problems };
}

/**
 * The kinds the `Reference`s declare that no API serves as written, as the object rule judges an object's
 * (`object-shapes`): a kind that is not UpperCamelCase, or that the built-in group it names does not have
 * (`v1` `secret`, `apps/v1` `Secret`), and the core group named `core/v1`. Such a declaration matches no object,
 * so a reference to the object it meant stays dangling (`CAP005`) with no word about the declaration.
 */
function declaredKindProblems(constructs: readonly IConstruct[]): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  for (const c of constructs) {
    if (!Reference.isReference(c)) continue;
    const declared: Array<[string, { apiVersion: string; kind: string } | undefined]> = [
      ["Reference.external's target", c.external],
      ["Reference.clusterScoped's kind", c.clusterScopedKind],
      ["Reference.byName's 'target'", c.byName?.target],
    ];
    for (const [what, k] of declared) {
      if (!k) continue;
      const versionProblem = apiVersionProblem(k.apiVersion, k.kind);
      if (versionProblem) problems.push({ path: c.node.path, error: `${what}.apiVersion (${JSON.stringify(k.apiVersion)}) ${versionProblem}` });
      const problem = kindProblem(k.kind, apiGroup(k.apiVersion));
      if (problem) problems.push({ path: c.node.path, error: `${what}.kind (${JSON.stringify(k.kind)}) ${problem}` });
    }
  }
  return problems;
}

/** A `Reference.byName` whose field does not hold a name: its path and what is wrong (`CAP010`). */
export interface ReferenceProblem {
  readonly path: string;
  readonly error: string;
}

/** The by-name references found, and the declarations refused. */
export interface DeclaredReferences {
  readonly references: ReferenceFact[];
  readonly problems: ReferenceProblem[];
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

/** The pods declared to be made outside the composition with `Reference.externalPods`. */
export function collectExternalPods(constructs: readonly IConstruct[]): ExternalPodsFact[] {
  const found: ExternalPodsFact[] = [];
  for (const c of constructs) {
    if (!Reference.isReference(c) || !c.externalPods) continue;
    const { namespace, labels } = c.externalPods;
    found.push({ path: c.node.path, namespace: namespace || DEFAULT_NAMESPACE, labels: { ...labels } });
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
    asList(s.imagePullSecrets).forEach((p: any) => to('Secret', p?.name, `${at}.imagePullSecrets`));
    for (const v of asList(s.volumes)) {
      const volume = `${at}.volumes[name=${keyText(v?.name)}]`;
      if (v?.configMap && !v.configMap.optional) to('ConfigMap', v.configMap.name, `${volume}.configMap`);
      if (v?.secret && !v.secret.optional) to('Secret', v.secret.secretName, `${volume}.secret`);
      if (v?.persistentVolumeClaim) to('PersistentVolumeClaim', v.persistentVolumeClaim.claimName, `${volume}.persistentVolumeClaim`);
      for (const p of asList(v?.projected?.sources)) {
        if (p?.configMap && !p.configMap.optional) to('ConfigMap', p.configMap.name, `${volume}.projected.sources`);
        if (p?.secret && !p.secret.optional) to('Secret', p.secret.name, `${volume}.projected.sources`);
      }
      // the Secrets of volume sources that read credentials, each in the pod's namespace (a LocalObjectReference)
      to('Secret', v?.csi?.nodePublishSecretRef?.name, `${volume}.csi.nodePublishSecretRef`);
      for (const source of ['cephfs', 'rbd', 'iscsi', 'flexVolume']) to('Secret', v?.[source]?.secretRef?.name, `${volume}.${source}.secretRef`);
      to('Secret', v?.azureFile?.secretName, `${volume}.azureFile.secretName`);
    }
    for (const c of [...asList(s.initContainers), ...asList(s.containers)]) {
      const where = `${at}.containers[name=${keyText(c?.name)}]`;
      for (const e of asList(c?.envFrom)) {
        if (e?.configMapRef && !e.configMapRef.optional) to('ConfigMap', e.configMapRef.name, `${where}.envFrom`);
        if (e?.secretRef && !e.secretRef.optional) to('Secret', e.secretRef.name, `${where}.envFrom`);
      }
      for (const e of asList(c?.env)) {
        const source = e?.valueFrom;
        const field = `${where}.env[name=${keyText(e?.name)}]`;
        if (source?.configMapKeyRef && !source.configMapKeyRef.optional) to('ConfigMap', source.configMapKeyRef.name, field, { key: source.configMapKeyRef.key });
        if (source?.secretKeyRef && !source.secretKeyRef.optional) to('Secret', source.secretKeyRef.name, field, { key: source.secretKeyRef.key });
      }
    }
  }
  if (group === 'networking.k8s.io' && kind === 'Ingress') {
    to('Service', m.spec?.defaultBackend?.service?.name, 'spec.defaultBackend');
    for (const rule of asList(m.spec?.rules)) for (const p of asList(rule?.http?.paths)) to('Service', p?.backend?.service?.name, `spec.rules[host=${keyText(rule?.host ?? '')}].http.paths`);
  }
  if (group === 'gateway.networking.k8s.io' && kind === 'HTTPRoute') {
    for (const rule of asList(m.spec?.rules)) {
      for (const b of asList(rule?.backendRefs)) {
        if ((b?.group ?? '') === '' && (b?.kind ?? 'Service') === 'Service') to('Service', b.name, 'spec.rules.backendRefs', { namespace: b.namespace ?? ns });
      }
    }
  }
  return refs;
}

/** The by-name references declared with `Reference.byName` on this object, and each declaration whose field does not hold a name. */
function declaredReferences(o: ObjectFact, from: number, declared: readonly Reference[], clusterScoped: ReadonlySet<string>): DeclaredReferences {
  const references: ReferenceFact[] = [];
  const problems: ReferenceProblem[] = [];
  for (const r of declared) {
    const options = r.byName!;
    const found = fieldValue(o.manifest, options.field);
    const of = `${describeIdentity(o.identity)} ('${o.path}')`;
    if (!found.present) {
      problems.push({ path: r.node.path, error: `Reference.byName's 'field' ('${options.field}') is not in the manifest of ${of}${found.hint}. Point 'field' at the field that holds the name.` });
      continue;
    }
    const targets = namesIn(found.value);
    if (!targets) {
      problems.push({
        path: r.node.path,
        error: `Reference.byName's 'field' ('${options.field}') of ${of} holds ${valueText(found.value)}, but a field it checks holds a name, an object with name (and optionally namespace), or a list of either. Point 'field' at the field that holds the name.`,
      });
      continue;
    }
    const group = apiGroup(options.target.apiVersion);
    const kind = options.target.kind;
    const cluster = isClusterScoped(group, kind, clusterScoped);
    for (const { name, namespace } of targets) {
      const target: ObjectIdentity = { group, kind, name, namespace: cluster ? undefined : namespace ?? o.identity.namespace ?? '' };
      references.push({ from, target, field: options.field });
    }
  }
  return { references, problems };
}

/** The names a field holds: a name, an object with `name` (and optionally `namespace`), or a list of either; undefined for any other shape. */
function namesIn(value: unknown): Array<{ name: string; namespace?: string }> | undefined {
  const one = (v: any): { name: string; namespace?: string } | undefined => {
    if (typeof v === 'string') return v !== '' ? { name: v } : undefined;
    if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof v.name !== 'string' || v.name === '') return undefined;
    if (v.namespace !== undefined && typeof v.namespace !== 'string') return undefined;
    return typeof v.namespace === 'string' && v.namespace !== '' ? { name: v.name, namespace: v.namespace } : { name: v.name };
  };
  if (!Array.isArray(value)) {
    const single = one(value);
    return single ? [single] : undefined;
  }
  const all = value.map(one);
  return all.every((x) => x !== undefined) ? (all as Array<{ name: string; namespace?: string }>) : undefined;
}

/** The value at a dotted path of a manifest, or where the path leaves it: the keys of the last map it reached. */
function fieldValue(manifest: any, field: string): { present: true; value: unknown } | { present: false; hint: string } {
  let value: any = manifest;
  const keys = field.split('.');
  for (let i = 0; i < keys.length; i++) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, keys[i])) {
      const at = i === 0 ? 'the manifest' : keys.slice(0, i).join('.');
      const has = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
      return { present: false, hint: has.length > 0 ? ` (${at} has ${has.join(', ')})` : i === 0 ? '' : ` (${at} holds ${valueText(value)})` };
    }
    value = value[keys[i]];
  }
  return { present: true, value };
}

