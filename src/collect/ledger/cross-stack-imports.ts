import type { FieldPath } from './field-path';
import { isMap } from '../../private/maps';

/**
 * `before` with each reference to a resource of another stack replaced by the
 * import aws-cdk made of it, where `after` holds that import at the same place.
 *
 * Before synthesis, a reference to another stack's resource renders as it
 * would in its own stack (`{ Ref: 'Logs6819BB44' }`, `{ 'Fn::GetAtt':
 * ['Logs6819BB44', 'Arn'] }`); synthesis makes it an import of an export of
 * that stack (`{ 'Fn::ImportValue': 'shop-Base:ExportsOutputRefLogs6819BB44<hash>' }`).
 * That is one value written once, not a write after the write callbacks:
 * aligned, comparing a render taken before synthesis with the template finds
 * no change there. Anything else is left as it is.
 */
export function withImportsOf(before: unknown, after: unknown): unknown {
  if (isReference(before) && isMap(after) && importsReference(after, before)) return after;
  if (Array.isArray(before) && Array.isArray(after)) {
    let changed = false;
    const aligned = before.map((b, i) => {
      const a = withImportsOf(b, after[i]);
      changed ||= a !== b;
      return a;
    });
    return changed ? aligned : before;
  }
  if (isMap(before) && isMap(after)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(before)) {
      if (!(key in after)) continue;
      const aligned = withImportsOf(value, after[key]);
      if (aligned !== value) (copy ??= { ...before })[key] = aligned;
    }
    return copy ?? before;
  }
  return before;
}

/**
 * `before` with `withImportsOf` applied to the value at `path` (map keys)
 * only, against the value at the same path of `after`; the rest as it is.
 */
export function withImportsAt(before: unknown, after: unknown, path: FieldPath): unknown {
  if (path.length === 0) return withImportsOf(before, after);
  const [key, ...rest] = path;
  if (!isMap(before) || !isMap(after) || !(key in before) || !(key in after)) return before;
  const aligned = withImportsAt(before[key], after[key], rest);
  return aligned === before[key] ? before : { ...before, [key]: aligned };
}

/** `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attribute] }` (or `'id.attribute'`), and nothing else. */
function isReference(value: unknown): value is Record<string, unknown> {
  if (!isMap(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && ((keys[0] === 'Ref' && typeof value.Ref === 'string') || keys[0] === 'Fn::GetAtt');
}

/**
 * Whether `value` is `{ 'Fn::ImportValue': '<stack>:ExportsOutput...' }` of `reference`, as aws-cdk names the
 * export (`generateExportName`: `ExportsOutputRef<id>` or `ExportsOutputFnGetAtt<id><attribute>`, letters
 * and digits only, then an 8-character hash).
 */
function importsReference(value: Record<string, unknown>, reference: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  const name = value['Fn::ImportValue'];
  if (keys.length !== 1 || typeof name !== 'string') return false;
  const local = name.slice(name.indexOf(':') + 1);
  const expected = exportStem(reference);
  return expected !== undefined && local.length === expected.length + 8 && local.startsWith(expected) && /^[0-9A-F]{8}$/.test(local.slice(expected.length));
}

function exportStem(reference: Record<string, unknown>): string | undefined {
  const alnum = (s: string) => s.replace(/[^A-Za-z0-9]/g, '');
  if (typeof reference.Ref === 'string') return `ExportsOutputRef${alnum(reference.Ref)}`;
  const getAtt = reference['Fn::GetAtt'];
  const [id, attribute] = typeof getAtt === 'string' ? getAtt.split(/\.(.*)/s) : Array.isArray(getAtt) ? getAtt : [];
  return typeof id === 'string' && typeof attribute === 'string' ? `ExportsOutputFnGetAtt${alnum(id)}${alnum(attribute)}` : undefined;
}
