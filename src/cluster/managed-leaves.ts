import { canonicalPath, elementOf } from './fields-v1';
import type { FieldPath } from '../collect/ledger/field-path';

/** Members structured-merge-diff records that the ledger never owns: the identity of the object. */
const IDENTITY: readonly FieldPath[] = [['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace']];

/**
 * The leaves of a manager's set in the ledger's sense, to compare with what the ledger says it writes:
 *
 * - the identity (`apiVersion`, `kind`, `metadata.name`, `metadata.namespace`), which every apply owns and
 *   the API server strips, is left out, and so is `status`, which belongs to the controllers;
 * - a keyed element's key fields (`containers[name="web"].name`), which structured-merge-diff records beside
 *   the element and the ledger folds into the element's key, are left out;
 * - what remains is reduced to the members below which nothing is owned: an element or an empty map owned
 *   for itself alone is the ledger's presence leaf (`containers[name="web"]`, `metadata.labels`).
 *
 * Segments are canonical (`canonicalPath`), so keys written in a CRD's key order compare equal.
 *
 * @param members every member of the set, as `parseFieldsV1` reads it
 * @returns the leaves, in the order given
 */
export function ledgerLeaves(members: readonly FieldPath[]): FieldPath[] {
  const kept = members.map(canonicalPath).filter((p) => p.length > 0 && p[0] !== 'status' && !isIdentity(p) && !isKeyField(p));
  const prefixes = new Set<string>();
  for (const p of kept) for (let n = 1; n < p.length; n++) prefixes.add(JSON.stringify(p.slice(0, n)));
  return kept.filter((p) => !prefixes.has(JSON.stringify(p)));
}

function isIdentity(path: FieldPath): boolean {
  return IDENTITY.some((id) => id.length === path.length && id.every((s, i) => s === path[i]));
}

/** True for `...k:{"name":"web"}, name`: a key field of the keyed element it is under. */
function isKeyField(path: FieldPath): boolean {
  if (path.length < 2) return false;
  const element = elementOf(path[path.length - 2]);
  return element.kind === 'key' && element.fields.some(([name]) => name === path[path.length - 1]);
}

/** A path as a string, equal for equal paths: for sets and maps of paths. */
export function pathKey(path: FieldPath): string {
  return JSON.stringify(canonicalPath(path));
}
