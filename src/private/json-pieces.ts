import { isPlainMap } from './maps';

/**
 * The text of `JSON.stringify(value, undefined, 2)`, byte for byte, in pieces:
 * the members of the outer object and array levels one by one (down to
 * `depth`), each deeper value as one piece. Joined, the pieces are that text;
 * written one after the other, a file of many objects is never held whole.
 *
 * Follows `JSON.stringify` where it matters for plain data: `toJSON`, members
 * whose value is `undefined`, a function or a symbol left out of an object and
 * written `null` in an array, keys in `Object.keys` order. Values below `depth`
 * are handed to `JSON.stringify` itself.
 *
 * @param depth how many levels are split into members (the outer object is level 1)
 * @throws TypeError where `JSON.stringify` throws, and for a value it gives no text for (`undefined`, a
 *   function, a symbol): a file needs some
 */
export function* jsonPieces(value: unknown, depth = 2): Generator<string> {
  const written = yield* piecesOf(toJsonValue(value, ''), '', depth);
  if (written === undefined) throw new TypeError('the value has no JSON text (undefined, a function or a symbol)');
}

/** The pieces of one value at `indent`; returns undefined (yielding nothing) for a value JSON leaves out. */
function* piecesOf(value: unknown, indent: string, depth: number): Generator<string, true | undefined> {
  if (depth === 1 && Array.isArray(value) && value.length > 0) {
    yield* leafElements(value, indent);
    return true;
  }
  if (depth > 1 && Array.isArray(value) && value.length > 0) {
    const inner = `${indent}  `;
    yield '[\n';
    for (let i = 0; i < value.length; i++) {
      yield inner;
      const written = yield* piecesOf(toJsonValue(value[i], String(i)), inner, depth - 1);
      if (written === undefined) yield 'null';
      yield i < value.length - 1 ? ',\n' : '\n';
    }
    yield `${indent}]`;
    return true;
  }
  if (depth > 0 && isPlainMap(value)) {
    const inner = `${indent}  `;
    let first = true;
    for (const key of Object.keys(value)) {
      const member = toJsonValue(value[key], key);
      if (isLeftOut(member)) continue;
      yield `${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
      yield* piecesOf(member, inner, depth - 1);
      first = false;
    }
    yield first ? '{}' : `\n${indent}}`;
    return true;
  }
  const text = JSON.stringify(value, undefined, 2) as string | undefined;
  if (text === undefined) return undefined;
  // JSON text holds line breaks only between its tokens (a string's are escaped), so this indents it.
  yield indent === '' ? text : text.replace(/\n/g, `\n${indent}`);
  return true;
}

/** How many elements of a list one `JSON.stringify` call writes. */
const BATCH = 256;

/**
 * A list whose elements are written whole, at `indent`: `BATCH` elements per
 * `JSON.stringify` call, each batch nested in as many levels as the list is
 * deep, so the call indents them as they stand (no re-indenting pass). An
 * element with its own `toJSON` is written alone, as its `toJSON` is given
 * its index.
 */
function* leafElements(list: readonly unknown[], indent: string): Generator<string> {
  const inner = `${indent}  `;
  const levels = indent.length / 2;
  const head = nestingHead(levels);
  const tail = nestingTail(levels);
  yield '[\n';
  for (let start = 0; start < list.length; ) {
    if (hasToJson(list[start])) {
      const text = JSON.stringify(toJsonValue(list[start], String(start)), undefined, 2) as string | undefined;
      yield inner + (text === undefined ? 'null' : text.replace(/\n/g, `\n${inner}`));
      start++;
    } else {
      let end = start + 1;
      while (end < list.length && end - start < BATCH && !hasToJson(list[end])) end++;
      const text = JSON.stringify(nested(list.slice(start, end), levels), undefined, 2);
      yield text.slice(head.length, text.length - tail.length);
      start = end;
    }
    yield start < list.length ? ',\n' : '\n';
  }
  yield `${indent}]`;
}

/** `value` as the member `""` of `levels` objects, one inside the other. */
function nested(value: unknown, levels: number): unknown {
  let out = value;
  for (let i = 0; i < levels; i++) out = { '': out };
  return out;
}

/** The text `JSON.stringify(nested(list, levels), undefined, 2)` has before the list's first element. */
function nestingHead(levels: number): string {
  let head = levels > 0 ? '{\n' : '';
  for (let i = 1; i <= levels; i++) head += `${'  '.repeat(i)}"": ${i < levels ? '{\n' : ''}`;
  return `${head}[\n`;
}

/** The text after the list's last element. */
function nestingTail(levels: number): string {
  let tail = `\n${'  '.repeat(levels)}]`;
  for (let i = levels - 1; i >= 0; i--) tail += `\n${'  '.repeat(i)}}`;
  return tail;
}

function hasToJson(value: unknown): boolean {
  return typeof (value as { toJSON?: unknown } | null | undefined)?.toJSON === 'function';
}

/** What `JSON.stringify` serializes in place of `value`: the result of its `toJSON(key)`, if it has one. */
function toJsonValue(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? toJSON.call(value, key) : value;
}

function isLeftOut(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

