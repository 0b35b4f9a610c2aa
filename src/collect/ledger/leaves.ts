import { elementKey, FieldPath } from './field-path';
import { OwnershipRules } from './ownership-rules';

/** Fields that identify an object; nobody owns them. */
const IDENTITY: ReadonlySet<string> = new Set(['apiVersion', 'kind']);
const METADATA_IDENTITY: ReadonlySet<string> = new Set(['name', 'namespace']);

/**
 * Every leaf a manifest writes, as server-side apply would own it: scalars;
 * granular maps per key; keyed lists per element (key fields are the element's
 * identity, not owned; an element with nothing but its key is one leaf); atomic
 * lists and maps, and empty maps, as one leaf. Identity fields are left out.
 *
 * @param value the manifest, or the value written at `prefix`
 * @param rules the ownership rules of the object's kind
 * @param prefix the path `value` is written at
 */
export function leavesOf(value: unknown, rules: OwnershipRules, prefix: FieldPath = [], options: LeafOptions = {}): FieldPath[] {
  const out: FieldPath[] = [];
  collect(value, [...prefix], rules, out, options.isOpaque ?? (() => false));
  return out;
}

/** Options of `leavesOf`. */
export interface LeafOptions {
  /** Values written whole, never walked into (aws-cdk tokens). */
  readonly isOpaque?: (value: unknown) => boolean;
}

function collect(value: unknown, path: string[], rules: OwnershipRules, out: FieldPath[], isOpaque: (v: unknown) => boolean): void {
  if (isOpaque(value)) {
    out.push([...path]);
    return;
  }
  if (Array.isArray(value)) {
    const rule = path.length > 0 ? rules.ruleFor(namesOf(path)) : undefined;
    if (!rule?.keys || rule.atomic) {
      out.push([...path]);
      return;
    }
    for (const element of value) {
      const key = elementKeyOf(element, rule.keys, rule.keyDefaults);
      const inner = { ...(element as object) } as Record<string, unknown>;
      for (const k of rule.keys) delete inner[k];
      path.push(key);
      if (Object.keys(inner).length === 0) out.push([...path]);
      else collect(inner, path, rules, out, isOpaque);
      path.pop();
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const atomic = path.length > 0 && rules.ruleFor(namesOf(path))?.atomic;
    if (atomic || (entries.length === 0 && path.length > 0)) {
      out.push([...path]);
      return;
    }
    for (const [k, v] of entries) {
      if (path.length === 0 && IDENTITY.has(k)) continue;
      if (path.length === 1 && path[0] === 'metadata' && METADATA_IDENTITY.has(k)) continue;
      if (v === undefined) continue;
      path.push(k);
      collect(v, path, rules, out, isOpaque);
      path.pop();
    }
    return;
  }
  out.push([...path]);
}

/** The element key segment of a keyed list element, defaults filled in. */
export function elementKeyOf(element: unknown, keys: readonly string[], defaults: Readonly<Record<string, unknown>> = {}): string {
  const e = (element ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const k of keys) values[k] = e[k] ?? defaults[k] ?? null;
  return elementKey(values);
}

function namesOf(path: readonly string[]): string[] {
  return path.filter((s) => !s.startsWith('k:{'));
}
