import { asList, keyText } from '../../private/loose-values';
import type { ObjectFact, ReferenceFact } from '../facts';
import { identityKey, isClusterScoped, ObjectIdentity } from '../object-identity';
import { podSpecOf } from '../pod-spec';

/** One ordering edge from a reference: `before` is applied before `after`, for the field that names it. */
export interface ReferenceEdge {
  /** The index of the referenced object (first). */
  readonly before: number;
  /** The index of the referring object. */
  readonly after: number;
  /** The referring field. */
  readonly field: string;
  /**
   * True for a reference that only orders (nothing needs it to resolve): the
   * edge gives way where it would close a cycle (`addInferredEdge`).
   */
  readonly orderingOnly: boolean;
}

/**
 * Every reference that orders, resolved to object indexes: the references the
 * checks resolve too (`Facts.references`, except `roleRef`, which has its own
 * edge), and those that only order and are not required to resolve (a
 * StorageClass, an IngressClass, a GatewayClass or a Gateway the cluster may
 * already have; the Services of admission webhooks and APIServices), marked
 * `orderingOnly`. A reference to a Secret that an `ExternalSecret`
 * of the composition makes resolves to the `ExternalSecret`. A reference to nothing in the composition, or to
 * the object itself, orders nothing.
 *
 * A Service's selector is no reference: a Service comes before the workloads
 * it selects by the kind order, as Helm and Argo CD apply it (a pod gets the
 * `*_SERVICE_HOST` variables of the Services that exist when it starts).
 *
 * Linear in the objects and references.
 */
export function referenceEdges(objects: readonly ObjectFact[], references: readonly ReferenceFact[]): ReferenceEdge[] {
  const byKey = new Map<string, number>();
  objects.forEach((o, i) => {
    if (o.duplicateOf === undefined && !byKey.has(o.key)) byKey.set(o.key, i);
  });
  objects.forEach((o, i) => {
    const made = o.duplicateOf === undefined ? secretMadeBy(o) : undefined;
    if (made && !byKey.has(identityKey(made))) byKey.set(identityKey(made), i);
  });
  const edges: ReferenceEdge[] = [];
  const add = (from: number, target: ObjectIdentity, field: string, orderingOnly: boolean) => {
    const before = byKey.get(identityKey(target));
    if (before !== undefined && before !== from) edges.push({ before, after: from, field, orderingOnly });
  };
  for (const r of references) if (r.field !== 'roleRef') add(r.from, r.target, r.field, false);
  objects.forEach((o, i) => {
    if (o.duplicateOf === undefined) for (const r of orderingOnlyReferences(o)) add(i, r.target, r.field, true);
  });
  return edges;
}

/**
 * The Secret an object makes in the cluster: an External Secrets Operator
 * `ExternalSecret` makes `spec.target.name` (default: its own name) in its
 * namespace, so what reads that Secret comes after it.
 */
function secretMadeBy(o: ObjectFact): ObjectIdentity | undefined {
  if (o.identity.group !== 'external-secrets.io' || o.identity.kind !== 'ExternalSecret') return undefined;
  const name = o.manifest?.spec?.target?.name ?? o.identity.name;
  return typeof name === 'string' && name ? { group: '', kind: 'Secret', namespace: o.identity.namespace, name } : undefined;
}

/** The by-name references that only order (see `referenceEdges`). */
function orderingOnlyReferences(o: ObjectFact): Array<{ target: ObjectIdentity; field: string }> {
  const { group, kind } = o.identity;
  const ns = o.identity.namespace ?? '';
  const m = o.manifest ?? {};
  const found: Array<{ target: ObjectIdentity; field: string }> = [];
  const to = (targetGroup: string, targetKind: string, name: unknown, field: string, namespace: unknown = ns) => {
    if (typeof name !== 'string' || !name) return;
    const cluster = isClusterScoped(targetGroup, targetKind);
    const where = typeof namespace === 'string' && namespace ? namespace : ns;
    found.push({ target: { group: targetGroup, kind: targetKind, name, namespace: cluster ? undefined : where }, field });
  };
  const gateway = 'gateway.networking.k8s.io';
  if (group === '' && (kind === 'PersistentVolumeClaim' || kind === 'PersistentVolume')) {
    to('storage.k8s.io', 'StorageClass', m.spec?.storageClassName, 'spec.storageClassName');
  }
  if (group === 'networking.k8s.io' && kind === 'Ingress') {
    to('networking.k8s.io', 'IngressClass', m.spec?.ingressClassName, 'spec.ingressClassName');
  }
  if (group === gateway && kind === 'Gateway') to(gateway, 'GatewayClass', m.spec?.gatewayClassName, 'spec.gatewayClassName');
  if (group === gateway && ['HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'UDPRoute'].includes(kind)) {
    for (const p of asList(m.spec?.parentRefs)) {
      if ((p?.group ?? gateway) === gateway && (p?.kind ?? 'Gateway') === 'Gateway') to(gateway, 'Gateway', p?.name, 'spec.parentRefs', p?.namespace);
    }
  }
  if (group === 'admissionregistration.k8s.io' && (kind === 'MutatingWebhookConfiguration' || kind === 'ValidatingWebhookConfiguration')) {
    for (const w of asList(m.webhooks)) {
      const service = w?.clientConfig?.service;
      to('', 'Service', service?.name, `webhooks[name=${w?.name}].clientConfig.service`, service?.namespace);
    }
  }
  if (group === 'apiregistration.k8s.io' && kind === 'APIService') to('', 'Service', m.spec?.service?.name, 'spec.service', m.spec?.service?.namespace);
  const pod = podSpecOf(group, kind, m);
  if (pod?.spec) podOrderingReferences(pod.spec, pod.at, to);
  return found;
}

/**
 * What a pod spec names that only orders: its PriorityClass and RuntimeClass (the API server refuses the pod
 * while either is missing, and the cluster may have them already), and each ConfigMap and Secret it marks
 * `optional: true` (read as empty while missing; `references.ts` takes those without `optional` as references
 * that must resolve), with the field names of `references.ts`.
 */
function podOrderingReferences(s: any, at: string, to: (group: string, kind: string, name: unknown, field: string) => void): void {
  to('scheduling.k8s.io', 'PriorityClass', s.priorityClassName, `${at}.priorityClassName`);
  to('node.k8s.io', 'RuntimeClass', s.runtimeClassName, `${at}.runtimeClassName`);
  for (const v of asList(s.volumes)) {
    const volume = `${at}.volumes[name=${keyText(v?.name)}]`;
    if (v?.configMap?.optional) to('', 'ConfigMap', v.configMap.name, `${volume}.configMap`);
    if (v?.secret?.optional) to('', 'Secret', v.secret.secretName, `${volume}.secret`);
    for (const p of asList(v?.projected?.sources)) {
      if (p?.configMap?.optional) to('', 'ConfigMap', p.configMap.name, `${volume}.projected.sources`);
      if (p?.secret?.optional) to('', 'Secret', p.secret.name, `${volume}.projected.sources`);
    }
  }
  for (const c of [...asList(s.initContainers), ...asList(s.containers)]) {
    const where = `${at}.containers[name=${keyText(c?.name)}]`;
    for (const e of asList(c?.envFrom)) {
      if (e?.configMapRef?.optional) to('', 'ConfigMap', e.configMapRef.name, `${where}.envFrom`);
      if (e?.secretRef?.optional) to('', 'Secret', e.secretRef.name, `${where}.envFrom`);
    }
    for (const e of asList(c?.env)) {
      const source = e?.valueFrom;
      if (source?.configMapKeyRef?.optional) to('', 'ConfigMap', source.configMapKeyRef.name, `${where}.env[name=${keyText(e?.name)}]`);
      if (source?.secretKeyRef?.optional) to('', 'Secret', source.secretKeyRef.name, `${where}.env[name=${keyText(e?.name)}]`);
    }
  }
}
