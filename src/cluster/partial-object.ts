import { isDeepStrictEqual } from 'util';
import { canonicalSegment, elementOf } from './fields-v1';
import { FieldPath, formatPath } from '../collect/ledger/field-path';
import type { OwnedLeaf } from '../collect/ledger/leaves';

/**
 * A trie of the leaves to keep: a leaf keeps the whole value there, a presence leaf only the node (an empty
 * map or list, a keyed element's key fields).
 */
interface Keep {
  leaf: boolean;
  presence: boolean;
  readonly children: Map<string, Keep>;
}

const newKeep = (): Keep => ({ leaf: false, presence: false, children: new Map() });

/**
 * A leaf `partialObject` cannot cut out of a manifest: the manifest has no value there (`missing`), or has a
 * scalar where the leaf asks for a map or list below it (`scalar`). The ledger and the manifest disagree:
 * a bug when synth wrote both, a hand-edited runtime file or plan.json when `apply` reads them.
 */
export class PartialObjectError extends Error {
  /**
   * @param path where the manifest stops matching the leaf: the missing node, or the scalar
   * @param problem `missing`: nothing there; `scalar`: a value where a map or list was asked for
   */
  public constructor(public readonly path: FieldPath, public readonly problem: 'missing' | 'scalar') {
    super(problem === 'missing' ? `partialObject: ${formatPath(path)} is not in the manifest` : `partialObject: ${formatPath(path)} is a value, yet a leaf below it is asked for`);
    this.name = 'PartialObjectError';
  }
}

/**
 * The object a writer applies: the merged manifest cut down to the writer's leaves, values unchanged, in the
 * manifest's order, with the object's identity (`apiVersion`, `kind`, `metadata.name`, `metadata.namespace`)
 * and, in each keyed element kept, the element's key fields as the manifest has them. A presence leaf keeps
 * only the node: an empty map or list, a keyed element with its key fields alone. Applied under the writer's
 * own field manager, it makes the manager own exactly those leaves.
 *
 * @param manifest the merged object, as the runtime file holds it
 * @param leaves the writer's leaves, as the ledger records them
 * @throws PartialObjectError when a leaf is not in the manifest (the ledger and the manifest disagree)
 */
export function partialObject(manifest: any, leaves: readonly OwnedLeaf[]): any {
  const root = newKeep();
  for (const leaf of leaves) {
    let node = root;
    for (const segment of leaf.path) {
      const s = canonicalSegment(segment);
      let child = node.children.get(s);
      if (!child) {
        child = newKeep();
        node.children.set(s, child);
      }
      node = child;
    }
    if (leaf.presence) node.presence = true;
    else node.leaf = true;
  }
  const out = cut(manifest, root, []) ?? {};
  const metadata = { ...(out.metadata ?? {}) };
  if (manifest.metadata?.name !== undefined) metadata.name = manifest.metadata.name;
  if (manifest.metadata?.namespace !== undefined) metadata.namespace = manifest.metadata.namespace;
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = out;
  return { apiVersion: manifest.apiVersion, kind: manifest.kind, metadata: orderLike(manifest.metadata ?? {}, metadata), ...rest };
}

/** The identity of an object alone: applied under a manager, it releases every field the manager owned. */
export function identityOnly(manifest: any): any {
  return partialObject(manifest, []);
}

function cut(value: any, keep: Keep, at: readonly string[], keys?: readonly string[]): any {
  if (keep.leaf) return value;
  if (keep.presence && keep.children.size === 0) {
    if (Array.isArray(value)) return [];
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries((keys ?? []).filter((k) => k in value).map((k) => [k, value[k]]));
  }
  if (Array.isArray(value)) {
    const picked: Array<{ index: number; value: unknown }> = [];
    const taken = new Set<number>();
    for (const [segment, child] of keep.children) {
      const element = elementOf(segment);
      let index = -1;
      if (element.kind === 'key') {
        const exact = (x: any) => element.fields.every(([k, v]) => isDeepStrictEqual(x?.[k], v));
        const defaulted = (x: any) => element.fields.every(([k, v]) => x?.[k] === undefined || isDeepStrictEqual(x[k], v));
        index = value.findIndex((x, i) => !taken.has(i) && exact(x));
        if (index < 0) index = value.findIndex((x, i) => !taken.has(i) && defaulted(x));
      } else if (element.kind === 'value') {
        index = value.findIndex((x, i) => !taken.has(i) && isDeepStrictEqual(x, element.value));
      } else if (element.kind === 'index') {
        index = element.index < value.length ? element.index : -1;
      }
      if (index < 0) throw new PartialObjectError([...at, segment], 'missing');
      taken.add(index);
      const names = element.kind === 'key' ? element.fields.map(([k]) => k) : undefined;
      picked.push({ index, value: cut(value[index], child, [...at, segment], names) });
    }
    return picked.sort((a, b) => a.index - b.index).map((p) => p.value);
  }
  if (value === null || typeof value !== 'object') throw new PartialObjectError([...at], 'scalar');
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = keep.children.get(key);
    if (keys?.includes(key)) out[key] = value[key];
    else if (child) out[key] = cut(value[key], child, [...at, key]);
  }
  for (const key of keep.children.keys()) {
    // a field, or a keyed element, set value or index asked of a map (the list is not there)
    if (!(key in value)) throw new PartialObjectError([...at, key], 'missing');
  }
  return out;
}

/** `patch` with its keys in the order `like` has them. */
function orderLike(like: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(like)) if (k in patch) out[k] = patch[k];
  for (const k of Object.keys(patch)) if (!(k in out)) out[k] = patch[k];
  return out;
}
