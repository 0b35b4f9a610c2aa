import { changedLeavesAt } from './changed-leaves';
import type { WrittenValue } from './field-ledger';
import type { FieldPath } from './field-path';
import { isIdentityKey, LeafOptions, OwnedLeaf } from './leaves';
import { isMap } from '../../private/maps';
import type { FieldTopology } from '../topology/field-topology';
import { topologyAt, valueAt } from '../topology/list-topology';

/** One place where two renders of an object differ: the values at `path`, a path of map keys only. */
export interface RenderChange {
  /** Map keys from the root. */
  readonly path: FieldPath;
  /** The value before; undefined when there was none. */
  readonly before: unknown;
  /** The value after; undefined when there is none. */
  readonly after: unknown;
}

/**
 * Where two renders of one object differ, without the parts they share: the
 * two documents walked map key by map key, stopping at the first difference
 * below which no map of both sides continues (a scalar, a list, an opaque
 * value, a map that became or stopped being empty). What a write callback
 * changed, kept as small as the change, so a thousand callbacks into one
 * object hold a thousand small changes, not two thousand renders of it;
 * `deltaLeaves` reads the leaves off it once the object's topology is known.
 */
export function renderDelta(before: unknown, after: unknown, options: LeafOptions = {}): RenderChange[] {
  const changes: RenderChange[] = [];
  const isOpaque = options.isOpaque ?? (() => false);
  const path: string[] = [];
  const visit = (b: unknown, a: unknown) => {
    // Object.is, not ===: NaN is the same value as itself (=== would see a NaN a callback set change at every look),
    // and -0 is not 0 (YAML writes it as -0)
    if (Object.is(b, a)) return;
    if (isOpenMap(b, isOpaque) && isOpenMap(a, isOpaque)) {
      const from = changes.length;
      let definedAfter = false;
      let definedBefore = false;
      // indexed loops, not `for...of`: V8 optimizes this walk in a synth's one run, and the iterator protocol's
      // implicit try/finally made that compile cost more than the walk
      const afterKeys = Object.keys(a);
      for (let i = 0; i < afterKeys.length; i++) {
        const k = afterKeys[i];
        definedAfter ||= a[k] !== undefined;
        definedBefore ||= b[k] !== undefined;
        path.push(k);
        visit(b[k], a[k]);
        path.pop();
      }
      const beforeKeys = Object.keys(b);
      for (let i = 0; i < beforeKeys.length; i++) {
        const k = beforeKeys[i];
        if (k in a) continue;
        definedBefore ||= b[k] !== undefined;
        path.push(k);
        visit(b[k], undefined);
        path.pop();
      }
      if (definedBefore === definedAfter) return;
      changes.length = from; // the map became, or stopped being, empty: a change of the map itself
    }
    if (b !== undefined && a !== undefined && !isOpaque(b) && !isOpaque(a) && typeof b === 'object' && typeof a === 'object' && JSON.stringify(b) === JSON.stringify(a)) return;
    changes.push({ path: [...path], before: b, after: a });
  };
  visit(before, after);
  return changes;
}

/**
 * The leaves a delta changes, as `changedLeaves` gives them for the two whole
 * renders: each change read against the topology at its path, or, where a node
 * on its way is written whole (atomic, or a scalar or list by schema), that
 * node's leaf.
 *
 * @param topology the topology of the object's kind (of the root)
 */
export function deltaLeaves(delta: readonly RenderChange[], topology: FieldTopology, options: LeafOptions = {}): OwnedLeaf[] {
  const out: OwnedLeaf[] = [];
  const whole = new Set<string>();
  for (const change of delta) {
    let node = topology;
    let cut: number | undefined;
    for (let i = 0; i < change.path.length; i++) {
      if (isIdentityKey(change.path.slice(0, i), change.path[i])) {
        cut = -1;
        break;
      }
      node = node.field(change.path[i]);
      if (i < change.path.length - 1 && (node.atomic || node.type === 'scalar' || node.type === 'list')) {
        cut = i + 1;
        break;
      }
    }
    if (cut === -1) continue;
    if (cut !== undefined) {
      const leaf = change.path.slice(0, cut);
      const key = leaf.join('\u0000');
      if (!whole.has(key)) out.push({ path: leaf });
      whole.add(key);
      continue;
    }
    changedLeavesAt(change.before, change.after, node, [...change.path], out, options);
  }
  return out;
}

/**
 * What a delta leaves at one of its leaves: the value after, or a removal;
 * undefined where the leaf is a node written whole above the change (the delta
 * holds only the part of it that changed).
 *
 * @param topology the topology of the object's kind (of the root)
 */
export function deltaValue(delta: readonly RenderChange[], path: FieldPath, topology: FieldTopology): WrittenValue | undefined {
  const change = delta.find((c) => c.path.length <= path.length && c.path.every((s, i) => path[i] === s));
  if (!change) return undefined;
  const value = valueAt(change.after, path.slice(change.path.length), topologyAt(topology, change.path));
  return value === undefined ? { removes: true } : { value };
}

function isOpenMap(x: unknown, isOpaque: (v: unknown) => boolean): x is Record<string, unknown> {
  return isMap(x) && !isOpaque(x);
}
