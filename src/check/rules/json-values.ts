import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a manifest holding a value that JSON and YAML have no form for: a
 * `BigInt`, a `Symbol` or a function (cdk8s renders such props as they are).
 * Refused at check, so no writer meets it; the first one of each object is
 * named, with its path.
 */
export const jsonValues = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'JSON values',
  explanation: 'A manifest is written as YAML and sent to the API server as JSON; a BigInt, a Symbol or a function has no form in either, so synth refuses the object instead of failing while it writes it.',
  run: ({ facts }) => facts.objects.flatMap((o) => (o.duplicateOf === undefined ? valueProblem(o) : [])),
});

function valueProblem(object: ObjectFact): RuleFinding[] {
  const found = firstNonJson(object.manifest);
  if (!found) return [];
  const what = describeIdentity({ ...object.identity, kind: object.identity.kind || '(no kind)', name: object.identity.name || '(no name)' });
  const at = found.path.length > 0 ? found.path.join('.') : '(the whole object)';
  return [{
    message: `'${at}' of ${what} declared by '${object.declarer}' is ${found.kind}, which JSON and YAML have no form for. Give it as a string or a number.`,
    paths: [object.declarer],
  }];
}

/** What JSON cannot hold, as messages name it. */
const NON_JSON: Readonly<Record<string, string>> = { bigint: 'a BigInt', symbol: 'a Symbol', function: 'a function' };

/**
 * The first value (depth first, keys in order) that JSON cannot hold, with its path; undefined when there is
 * none. Walked with a stack of its own: a manifest nested too deep is the nesting-depth rule's, not a crash.
 */
export function firstNonJson(value: unknown): { path: string[]; kind: string } | undefined {
  const open: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  while (open.length > 0) {
    const { value: v, path } = open.pop()!;
    const kind = NON_JSON[typeof v];
    if (kind) return { path, kind };
    if (v === null || typeof v !== 'object') continue;
    const keys = Array.isArray(v) ? v.map((_, i) => String(i)) : Object.keys(v);
    // pushed in reverse, so the first key is walked first
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (v as Record<string, unknown>)[keys[i]];
      if (child !== null && (typeof child === 'object' || typeof child in NON_JSON)) open.push({ value: child, path: [...path, keys[i]] });
    }
  }
  return undefined;
}
