import { elementKeyOf } from './leaves';
import { OwnershipRules } from './ownership-rules';

/**
 * Merges `fields` into `target` as server-side apply merges two managers'
 * fields: maps per key, keyed lists per element key, everything else replaced.
 * Returns the merged value; `target` is not modified.
 */
export function mergeFields(target: unknown, fields: unknown, rules: OwnershipRules, names: string[] = []): unknown {
  if (Array.isArray(fields) && Array.isArray(target)) {
    const rule = names.length > 0 ? rules.ruleFor(names) : undefined;
    if (!rule?.keys || rule.atomic) return clone(fields);
    const keys = rule.keys;
    const merged = target.map(clone);
    const index = new Map(merged.map((e, i) => [elementKeyOf(e, keys, rule.keyDefaults), i]));
    for (const element of fields) {
      const at = index.get(elementKeyOf(element, keys, rule.keyDefaults));
      if (at === undefined) merged.push(clone(element));
      else merged[at] = mergeFields(merged[at], element, rules, names);
    }
    return merged;
  }
  if (isPlainObject(fields) && isPlainObject(target)) {
    const merged: Record<string, unknown> = { ...target };
    for (const [k, v] of Object.entries(fields)) {
      merged[k] = k in merged ? mergeFields(merged[k], v, rules, [...names, k]) : clone(v);
    }
    return merged;
  }
  return clone(fields);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function clone<T>(x: T): T {
  return x === undefined ? x : structuredClone(x);
}
