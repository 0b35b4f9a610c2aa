/**
 * structured-merge-diff's orders and its JSON writer (json-iterator, ConfigCompatibleWithStandardLibrary), as
 * `fields-v1.ts` writes and orders path elements with them.
 */

/** A JSON value inside a `k:` or `v:` element. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Strings compared as Go compares them: by UTF-8 bytes, which is by code point. By UTF-16 code unit, which is
 * the same order, unless a surrogate (a character beyond U+FFFF, or a lone one) is where they first differ or
 * ends what they share (`compareByCodePoint`).
 */
export function compareCodePoints(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return isSurrogate(x) || isSurrogate(y) ? compareByCodePoint(a, b) : x < y ? -1 : 1;
  }
  if (shared > 0 && isSurrogate(a.charCodeAt(shared - 1))) return compareByCodePoint(a, b);
  return Math.sign(a.length - b.length);
}

/** True for a UTF-16 surrogate code unit (U+D800 to U+DFFF). */
function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

/** `compareCodePoints` code point by code point. */
function compareByCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return Math.sign(d);
  }
  return Math.sign(x.length - y.length);
}

/** `value.FieldList.Compare`: lexically, by name then value, a shorter list first. */
export function compareFieldLists(a: ReadonlyArray<readonly [string, JsonValue]>, b: ReadonlyArray<readonly [string, JsonValue]>): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareCodePoints(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c !== 0) return c;
  }
}

/** `value.Compare`: numbers (ints and floats numerically), then strings, booleans, lists, maps, null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const rank = (v: JsonValue) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : Array.isArray(v) ? 3 : v === null ? 5 : 4);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return Math.sign(ra - rb);
  if (typeof a === 'number') return Math.sign(a - (b as number));
  if (typeof a === 'string') return compareCodePoints(a, b as string);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const l = b as readonly JsonValue[];
    for (let i = 0; ; i++) {
      if (i >= a.length && i >= l.length) return 0;
      if (i >= a.length) return -1;
      if (i >= l.length) return 1;
      const c = compareValues(a[i], l[i]);
      if (c !== 0) return c;
    }
  }
  if (a === null) return 0;
  return compareMaps(a as Record<string, JsonValue>, b as Record<string, JsonValue>);
}

/** `value.MapCompare`: the union of keys in lexical order, a missing key or a shorter map first. */
function compareMaps(a: Record<string, JsonValue>, b: Record<string, JsonValue>): number {
  const la = Object.keys(a).length;
  const lb = Object.keys(b).length;
  if (la === 0 && lb === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareCodePoints);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === la) c = -1;
    else if (i === lb) c = 1;
    else if (!(k in a)) c = 1;
    else if (!(k in b)) c = -1;
    else c = compareValues(a[k], b[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** A JSON value as json-iterator's standard-library configuration writes it: map keys sorted, HTML escaped. */
export function goJson(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goString(v, true);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const map = v as Record<string, JsonValue>;
  return `{${Object.keys(map).sort(compareCodePoints).map((k) => `${goString(k, true)}:${goJson(map[k])}`).join(',')}}`;
}

/**
 * A JSON string as json-iterator writes it: `"` and `\` escaped, `\n` `\r` `\t` by letter and other control
 * characters as `\u00XX`; with `html`, also `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`.
 */
export function goString(s: string, html: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (html && (ch === '<' || ch === '>' || ch === '&'))) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (html && (c === 0x2028 || c === 0x2029)) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return `${out}"`;
}
