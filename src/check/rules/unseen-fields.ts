import type { Facts } from '../../collect/facts';
import { FieldPath, setValueKey } from '../../collect/ledger/field-path';
import { FieldTopology } from '../../collect/topology/field-topology';
import { elementKeyOf, listTypeOf } from '../../collect/topology/list-topology';
import { isMap } from '../../private/maps';

// What a rule of an object's values cannot see, and so does not judge: a field written in the cluster, a value known only at deploy time.

/**
 * A test of whether a rule cannot see a field of object `index`: a `RuntimeWriter` of the object (or of its
 * kind) writes it, something inside it, or a map or list that holds it; or an aws-cdk token is in it or holds it.
 */
export function unseenBy(facts: Facts, index: number): (at: readonly string[], path: FieldPath) => boolean {
  const { group, kind } = facts.objects[index].identity;
  const runtime = facts.runtimeWriters
    .filter((w) => ('object' in w.target ? w.target.object === index : w.target.group === group && w.target.kind === kind))
    .flatMap((w) => w.fields.map((f) => f.path));
  const tokens = facts.deployTimeValues.filter((v) => v.object === index).map((v) => v.path);
  return (at, path) => runtime.some((r) => overlaps(r, path)) || tokens.some((t) => overlaps(t, at));
}

/** True when one path is the other or lies inside it. */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A manifest path as the field ledger's path: keyed list elements by their keys (defaults filled in), set values by value. */
export function fieldPathOf(at: readonly string[], doc: unknown, root: FieldTopology): FieldPath {
  const path: string[] = [];
  let node = root;
  let current = doc;
  for (const s of at) {
    if (Array.isArray(current) && /^\d+$/.test(s)) {
      const element = current[Number(s)];
      const type = listTypeOf(node);
      path.push(type === 'associative' ? elementKeyOf(element, node) : type === 'set' ? setValueKey(element) : s);
      current = element;
      node = node.element();
    } else {
      path.push(s);
      current = isMap(current) ? current[s] : undefined;
      node = node.field(s);
    }
  }
  return path;
}
