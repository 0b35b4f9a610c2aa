import { namedSteps } from './locked-manifest';
import { parseFieldPath, PathStep } from '../private/field-path-syntax';

/**
 * A field path as the ledger printed it before a string key or set value that reads as another value was quoted
 * (`spec.releases[version=2]` for the string "2", `metadata.finalizers[=true]` for the string "true"), from the path
 * as it is printed now (`spec.releases[version="2"]`): how a lock written then (`LockedUnit.owners`, a runtime
 * writer's `fields`) names the field this release names so. The text then was ambiguous, the string "2" and the
 * number 2 both `[version=2]`, so a path of the lock matches both; every other path reads as it did.
 *
 * @param text a path as `formatPath` prints it now
 * @returns the path as it was printed then; `text` itself when it has nothing that was printed otherwise, or does not parse
 */
export function unquotedFieldText(text: string): string {
  if (!text.includes('"')) return text;
  let steps: PathStep[];
  try {
    steps = parseFieldPath(text);
  } catch {
    return text;
  }
  let out = '';
  for (const s of steps) {
    if ('field' in s) out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.field) ? (out ? `.${s.field}` : s.field) : `[${JSON.stringify(s.field)}]`;
    else if ('keys' in s) out += `[${Object.entries(s.keys).map(([k, v]) => `${k}=${unquotedScalar(v)}`).join(',')}]`;
    else out += `[=${unquotedScalar(s.value)}]`;
  }
  return out;
}

/**
 * A leaf's name in `LockedUnit.values` (and `LockedUnit.sensitive`) as a lock of format 2 wrote it before string keys
 * were quoted (`spec.template.spec.containers[name=2].image`), from its name now
 * (`spec.template.spec.containers[name="2"].image`); list indexes and map keys as they are.
 *
 * @returns the name then; `name` itself when it has nothing that was written otherwise, or is not of the lock's form
 */
export function unquotedLeafName(name: string): string {
  if (!name.includes('"')) return name;
  const steps = namedSteps(name);
  if (!steps) return name;
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (typeof step === 'string') out += /^[A-Za-z_$][\w$-]*$/.test(step) ? `${out === '' ? '' : '.'}${step}` : `[${JSON.stringify(step)}]`;
    else out += unquotedFieldText(`x${step.element}`).slice(1);
  }
  return out;
}

/**
 * The names a lock written before string keys were quoted gave what `names` names now, each with its name now; only
 * those that were written otherwise.
 *
 * @param names names of this release (paths, or leaves' names in `LockedUnit.values`)
 * @param unquoted how a name was written then (`unquotedFieldText`, `unquotedLeafName`)
 */
export function namesBeforeQuoting(names: Iterable<string>, unquoted: (name: string) => string): Map<string, string> {
  const then = new Map<string, string>();
  for (const name of names) {
    const old = unquoted(name);
    if (old !== name && !then.has(old)) then.set(old, name);
  }
  return then;
}

/** A key or set value as the ledger printed it before quoting: a string as itself, any other value as JSON. */
function unquotedScalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
}
