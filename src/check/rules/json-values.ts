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

/** One map or list being walked, with the way back to the root. */
interface Frame {
  readonly value: object;
  readonly key: string;
  readonly parent?: Frame;
}

/**
 * The first value (depth first, keys in order) that JSON cannot hold, with its path; undefined when there is
 * none. Walked with a stack of its own (a manifest nested too deep is the nesting-depth rule's, not a crash),
 * and the path is made only for what it finds: every manifest is walked, nearly all of them clean.
 */
export function firstNonJson(value: unknown): { path: string[]; kind: string } | undefined {
  const top = NON_JSON[typeof value];
  if (top) return { path: [], kind: top };
  if (value === null || typeof value !== 'object') return undefined;
  const open: Frame[] = [{ value, key: '' }];
  while (open.length > 0) {
    const frame = open.pop()!;
    const v = frame.value as Record<string, unknown>;
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    const n = keys ? keys.length : (v as unknown as unknown[]).length;
    const children: Frame[] = [];
    for (let i = 0; i < n; i++) {
      const key = keys ? keys[i] : String(i);
      const child = keys ? v[key] : (v as unknown as unknown[])[i];
      const kind = NON_JSON[typeof child];
      if (kind) return { path: pathOf({ value: v, key, parent: frame }), kind };
      if (child !== null && typeof child === 'object') children.push({ value: child, key, parent: frame });
    }
    // pushed in reverse, so the first key is walked first
    for (let i = children.length - 1; i >= 0; i--) open.push(children[i]);
  }
  return undefined;
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}
