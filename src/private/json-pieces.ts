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
  if (depth > 0 && Array.isArray(value) && value.length > 0) {
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
  if (depth > 0 && isPlainObject(value)) {
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

/** What `JSON.stringify` serializes in place of `value`: the result of its `toJSON(key)`, if it has one. */
function toJsonValue(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? toJSON.call(value, key) : value;
}

function isLeftOut(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** An object `JSON.stringify` writes member by member (not an array, a boxed primitive or a class with its own rules). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
