import { formatScalar } from '../../private/field-path-syntax';

/**
 * A field path in the sense of server-side apply: a list of segments, each a
 * map key (`spec`, `app.kubernetes.io/name`), an associative list element key
 * (`k:{"name":"web"}`) or a set value (`v:"example.com/protect"`), spelt as in
 * `managedFields`.
 */
export type FieldPath = readonly string[];

/** The segment of a keyed list element, as server-side apply writes it: `k:{"name":"web"}`. */
export function elementKey(keys: Record<string, unknown>): string {
  return `k:${keyJson(keys)}`;
}

/** The segment of a value of a set (`metadata.finalizers`), as server-side apply writes it: `v:"example.com/protect"`. */
export function setValueKey(value: unknown): string {
  return `v:${keyJson(value) ?? 'null'}`;
}

/**
 * A key's JSON text. A BigInt, which has none (`JSON.stringify` throws), is written as the number it holds, so
 * collect reads on and the check stage names the value and its field (`CAP010`) instead of crashing on it.
 */
function keyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  }
}

/** True when a segment is a keyed list element. */
export function isElementKey(segment: string): boolean {
  return segment.startsWith('k:{');
}

/** True when a segment is a value of a set. */
export function isSetValue(segment: string): boolean {
  return segment.startsWith('v:');
}

/** The field names of a path with element keys and set values left out: the shape the rules match. */
export function fieldNames(path: FieldPath): string[] {
  return path.filter((s) => !isElementKey(s) && !isSetValue(s));
}

/**
 * How messages print a path: `spec.template.spec.containers[name=web].image`,
 * `metadata.labels["app.kubernetes.io/name"]`, `metadata.finalizers[=example.com/protect]`; the syntax
 * `parseFieldPath` reads back to the same path, so a path copied from a message into a `RuntimeWriter`'s
 * `fields` names the same field. A key or set value is written as `formatScalar` writes it: a string that would
 * read as another value, or not end where it should, as a JSON string (`spec.releases[version="2"]`,
 * `metadata.finalizers[="true"]`).
 */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    const keys = isElementKey(segment) ? parseElementKey(segment) : undefined;
    const value = !keys && isSetValue(segment) ? parseSetValue(segment) : undefined;
    if (value) {
      out += `[=${formatScalar(value.value)}]`;
    } else if (keys) {
      out += `[${Object.entries(keys).map(([k, v]) => `${k}=${formatScalar(v)}`).join(',')}]`;
    } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) {
      out += out ? `.${segment}` : segment;
    } else {
      out += `[${JSON.stringify(segment)}]`;
    }
  }
  return out || '(the whole object)';
}

/** The keys of an element key segment; undefined for a map key that merely looks like one. */
function parseElementKey(segment: string): Record<string, unknown> | undefined {
  try {
    const keys = JSON.parse(segment.slice(2));
    return keys !== null && typeof keys === 'object' && !Array.isArray(keys) ? keys : undefined;
  } catch {
    return undefined;
  }
}

/** The value of a set value segment; undefined for a map key that merely looks like one. */
function parseSetValue(segment: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(segment.slice(2)) };
  } catch {
    return undefined;
  }
}
