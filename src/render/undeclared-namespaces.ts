import type { Facts } from '../collect/facts';
import { describeIdentity, effectiveNamespace } from '../collect/object-identity';
import { compareText } from '../private/compare';

/**
 * The namespaces every cluster has: `default` (where an object without `metadata.namespace` goes) and the
 * ones the API server creates itself.
 */
export const BUILT_IN_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** How many objects of an undeclared namespace the plan names; the rest are counted. */
export const NAMED_OBJECTS = 3;

/** A namespace that objects of the release are in and that the composition neither declares nor says exists. */
export interface UndeclaredNamespace {
  /** The namespace. */
  readonly namespace: string;
  /** How many objects of the release are in it. */
  readonly objects: number;
  /** The first of them in the composition's order (at most three), as the plan names objects. */
  readonly first: string[];
  /** How to declare it, or to say that it exists outside the release. */
  readonly fix: string;
}

/**
 * The namespaces objects of the release are in that nothing says exist: no `Namespace` object of the
 * composition, no `Reference.external` of a `Namespace`, and not one every cluster has (`default`,
 * `kube-system`, `kube-public`, `kube-node-lease`). Applying the release to a cluster without one fails
 * there, at the first object in it; the plan says so beforehand, as a note, since the namespace may well
 * exist (made by another release, a platform team, a GitOps engine). The lock does not count: it records
 * the previous release's objects, not what the cluster holds, and a Namespace the previous release declared
 * and this one removes while objects remain in it is refused (`CAP008`).
 *
 * @returns one per namespace, by name
 */
export function undeclaredNamespaces(facts: Facts): UndeclaredNamespace[] {
  const known = new Set(BUILT_IN_NAMESPACES);
  for (const o of facts.objects) if (isNamespace(o.identity)) known.add(o.identity.name);
  for (const e of facts.externals) if (isNamespace(e.identity)) known.add(e.identity.name);
  // counted, and only the first named: a label per object would be made for thousands of objects and dropped
  const found = new Map<string, { objects: number; readonly first: string[] }>();
  for (const o of facts.objects) {
    const namespace = effectiveNamespace(o.identity);
    if (namespace === undefined || known.has(namespace) || o.duplicateOf !== undefined) continue;
    let seen = found.get(namespace);
    if (seen === undefined) found.set(namespace, (seen = { objects: 0, first: [] }));
    if (seen.objects++ < NAMED_OBJECTS) seen.first.push(describeIdentity(o.identity));
  }
  return [...found].sort(([a], [b]) => compareText(a, b)).map(([namespace, { objects, first }]) => ({
    namespace,
    objects,
    first,
    fix: `declare it in the composition, new ApiObject(scope, id, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ${quoted(namespace)} } }); `
      + `or, when it exists outside the release, say so: Reference.external(scope, id, { apiVersion: 'v1', kind: 'Namespace', name: ${quoted(namespace)} })`,
  }));
}

function isNamespace(id: { readonly group: string; readonly kind: string }): boolean {
  return id.group === '' && id.kind === 'Namespace';
}

/** A namespace as a single-quoted TypeScript literal (a valid name needs no escape; an invalid one is CAP010's). */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
