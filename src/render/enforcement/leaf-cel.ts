import type { LeafStep, ProtectedLeaf } from './ownership-map';

/** Words CEL does not accept as a field name after `.` (literals, `in`, and its reserved words). */
const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop',
  'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A CEL string literal, single-quoted. */
export function celString(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${escaped}'`;
}

/** A CEL literal of a key or set value from a manifest: a string, a number, a boolean or null. */
export function celLiteral(value: unknown): string {
  if (typeof value === 'string') return celString(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value); // an int, or a double such as 1.5 or 1e+21
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  throw new Error(`no CEL literal for ${JSON.stringify(value)}: keys and set values are scalars`);
}

/** `base.name`, or `base['name']` when the name is no CEL identifier. */
function select(base: string, name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name) ? `${base}.${name}` : `${base}[${celString(name)}]`;
}

/** True in CEL when `base` (a map) has the key `name`. */
function has(base: string, name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name) ? `has(${base}.${name})` : `${celString(name)} in ${base}`;
}

/**
 * The presence test and the value of a path of fields under `base`. A field
 * holding null counts as absent: the API server stores no null for a field
 * that is not `nullable`, and server-side apply's null removes a field.
 */
function fieldPath(base: string, names: readonly string[]): { present: string; value: string } {
  const tests: string[] = [];
  let value = base;
  for (const name of names) {
    tests.push(has(value, name));
    value = select(value, name);
  }
  tests.push(`${value} != null`);
  return { present: tests.join(' && '), value };
}

function isField(step: LeafStep): step is { readonly field: string } {
  return 'field' in step;
}

/** True in CEL when the list element `e` has the key fields of `step` (a missing key field counts as its default). */
function keyMatch(e: string, step: Extract<LeafStep, { element: unknown }>): string {
  const tests = Object.entries(step.element).map(([key, value]) => {
    const fallback = step.defaults && Object.hasOwn(step.defaults, key) ? step.defaults[key] : undefined;
    if (value === null) return `!${has(e, key)}`;
    if (fallback !== undefined && JSON.stringify(fallback) === JSON.stringify(value)) {
      return `(!${has(e, key)} || ${select(e, key)} == ${celLiteral(value)})`;
    }
    return `${has(e, key)} && ${select(e, key)} == ${celLiteral(value)}`;
  });
  return tests.length > 0 ? tests.join(' && ') : 'true';
}

/**
 * A CEL list of what a path holds under `base`: for a path of fields, the
 * value (or `true`, for a presence leaf) when it is present, else nothing;
 * through a keyed list, one entry per element with the key (the API server
 * keeps one), each the list of what the rest of the path holds in it; for a
 * set value, one `true` per occurrence. Two of these are equal exactly when
 * the leaf is unchanged, whatever else the lists hold or their order.
 */
function holdings(base: string, steps: readonly LeafStep[], presence: boolean, depth: number): string {
  const listAt = steps.findIndex((s) => !isField(s));
  if (listAt === -1) {
    if (steps.length === 0) return `[${presence ? 'true' : base}]`;
    const path = fieldPath(base, (steps as ReadonlyArray<{ field: string }>).map((s) => s.field));
    return `(${path.present} ? [${presence ? 'true' : path.value}] : [])`;
  }
  const prefix = (steps.slice(0, listAt) as ReadonlyArray<{ field: string }>).map((s) => s.field);
  const list = prefix.length === 0 ? base : ((p) => `(${p.present} ? ${p.value} : [])`)(fieldPath(base, prefix));
  const step = steps[listAt];
  const e = `x${depth}`;
  if ('setValue' in step) return `${list}.filter(${e}, ${e} == ${celLiteral(step.setValue)}).map(${e}, true)`;
  if (isField(step)) throw new Error('unreachable: a field step where a list step was found');
  return `${list}.filter(${e}, ${keyMatch(e, step)}).map(${e}, ${holdings(e, steps.slice(listAt + 1), presence, depth + 1)})`;
}

/**
 * A CEL expression that is true exactly when a request leaves the leaf as it
 * was: same presence, and for a leaf that owns a value, the same value (an
 * atomic list or map compared whole). Keyed list elements are found by key,
 * wherever they are in the list; a value of a set by value.
 *
 * @param leaf the leaf
 * @param before the object before the request (an empty map on CREATE)
 * @param after the object after it (the one before, on DELETE)
 */
export function leafUnchanged(leaf: ProtectedLeaf, before: string, after: string): string {
  if (leaf.steps.every(isField)) {
    const names = (leaf.steps as ReadonlyArray<{ field: string }>).map((s) => s.field);
    const was = fieldPath(before, names);
    const is = fieldPath(after, names);
    if (leaf.presence) return `(${was.present}) == (${is.present})`;
    return `${was.present} ? (${is.present} && ${was.value} == ${is.value}) : !(${is.present})`;
  }
  return `${holdings(before, leaf.steps, leaf.presence, 0)} == ${holdings(after, leaf.steps, leaf.presence, 0)}`;
}
