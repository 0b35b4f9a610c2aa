import type { FieldTopology } from './field-topology';
import { elementSegments, keyValuesOf, listTypeOf } from './list-topology';
import { isMap } from '../../private/maps';
import { formatPath } from '../ledger/field-path';

/**
 * Where in `doc` a manifest path (list indexes as digits) is, named as the field ledger names a path
 * (`formatPath`), for messages: `data.origin`, `data["odd key"]`, an element of a keyed list by its keys
 * (`spec.template.spec.containers[name=web].env[name=ORIGIN].value`), a value of a set by itself, an element of
 * an atomic list (`spec.servers[0]`, `args[1]`), or of a keyed list whose keys repeat, by its index.
 *
 * @param root the topology of the object's kind (`topologyOf`)
 * @returns `(the whole object)` for the empty path
 */
export function manifestPathText(at: readonly string[], doc: unknown, root: FieldTopology): string {
  let out = '';
  let node = root;
  let current = doc;
  let atomic = root.atomic;
  for (const s of at) {
    if (/^\d+$/.test(s) && !isMap(current)) {
      const list: readonly unknown[] = Array.isArray(current) ? current : [];
      // an element whose key JSON cannot spell (a Symbol, a function: refused for it) is named by its index
      const segment = plainKey(list[Number(s)], node, atomic) ? elementSegments(list, node, atomic)[Number(s)] ?? Number(s) : Number(s);
      out += typeof segment === 'number' ? `[${segment}]` : formatPath([segment]);
      current = list[Number(s)];
      node = node.element();
    } else {
      out += `${out && /^[A-Za-z_]/.test(formatPath([s])) ? '.' : ''}${formatPath([s])}`;
      current = isMap(current) ? current[s] : undefined;
      node = node.field(s);
    }
    atomic ||= node.atomic;
  }
  return out || '(the whole object)';
}

/**
 * True unless `element` of a keyed list is no map, or it or an element of a set is keyed by a value that is not
 * a string, a number (a BigInt too), a boolean or null.
 */
function plainKey(element: unknown, list: FieldTopology, insideAtomic: boolean): boolean {
  const type = insideAtomic ? 'atomic' : listTypeOf(list);
  if (type === 'atomic') return true;
  if (type === 'associative' && !isMap(element)) return false;
  const values = type === 'set' ? [element] : Object.values(keyValuesOf(element, list));
  return values.every((v) => v === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof v));
}
