import { appendAll } from '../../private/append';
import type { ObjectFact, ReferenceFact } from '../facts';
import { identityKey, isClusterScoped, ObjectIdentity } from '../object-identity';
import { podLabelsOf } from '../pod-spec';

/** One ordering edge from a reference: `before` is applied before `after`, for the field that names it. */
export interface ReferenceEdge {
  /** The index of the referenced object (first). */
  readonly before: number;
  /** The index of the referring object. */
  readonly after: number;
  /** The referring field. */
  readonly field: string;
}

/**
 * Every reference that orders, resolved to object indexes: the references the
 * checks resolve too (`Facts.references`, except `roleRef`, which has its own
 * edge), and those that only order and are not required to resolve (a
 * StorageClass, an IngressClass, a GatewayClass or a Gateway the cluster may
 * already have; the workloads a Service selects; the Services of admission
 * webhooks and APIServices). A reference to a Secret that an `ExternalSecret`
 * of the composition makes resolves to the `ExternalSecret`. A reference to nothing in the composition, or to
 * the object itself, orders nothing.
 *
 * Linear in the objects and references, except Services, which look up
 * candidates by one of their selector labels.
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
  const add = (from: number, target: ObjectIdentity, field: string) => {
    const before = byKey.get(identityKey(target));
    if (before !== undefined && before !== from) edges.push({ before, after: from, field });
  };
  for (const r of references) if (r.field !== 'roleRef') add(r.from, r.target, r.field);
  objects.forEach((o, i) => {
    if (o.duplicateOf === undefined) for (const r of orderingOnlyReferences(o)) add(i, r.target, r.field);
  });
  appendAll(edges, serviceSelections(objects));
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
  return found;
}

/** A Service after the workloads whose pods it selects (same namespace, every selector label matching). */
function serviceSelections(objects: readonly ObjectFact[]): ReferenceEdge[] {
  const byLabel = new Map<string, number[]>();
  objects.forEach((o, i) => {
    if (o.duplicateOf !== undefined) return;
    const labels = podLabelsOf(o.identity.group, o.identity.kind, o.manifest);
    if (!labels) return;
    for (const [k, v] of Object.entries(labels)) {
      const key = `${o.identity.namespace ?? ''}\u0000${k}\u0000${v}`;
      const list = byLabel.get(key);
      if (list) list.push(i);
      else byLabel.set(key, [i]);
    }
  });
  const edges: ReferenceEdge[] = [];
  objects.forEach((o, i) => {
    if (o.duplicateOf !== undefined || o.identity.group !== '' || o.identity.kind !== 'Service') return;
    const selector = o.manifest?.spec?.selector;
    if (!selector || typeof selector !== 'object') return;
    const entries = Object.entries(selector).filter(([, v]) => typeof v === 'string');
    if (entries.length === 0) return;
    const ns = o.identity.namespace ?? '';
    const [k0, v0] = entries[0];
    for (const w of byLabel.get(`${ns}\u0000${k0}\u0000${v0}`) ?? []) {
      const labels = podLabelsOf(objects[w].identity.group, objects[w].identity.kind, objects[w].manifest) ?? {};
      if (entries.every(([k, v]) => labels[k] === v)) edges.push({ before: w, after: i, field: 'spec.selector' });
    }
  });
  return edges;
}

function asList(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}
