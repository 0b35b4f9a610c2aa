import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * How deep a manifest may nest maps and lists. The YAML writer and cdk8s
 * recurse once per level (cdk8s overflows the stack near 4,000 levels, the
 * YAML writer near 2,500); real manifests nest a few dozen.
 */
export const MAX_NESTING_DEPTH = 1000;

/**
 * `CAP010`: an object whose manifest nests maps and lists more than
 * `MAX_NESTING_DEPTH` levels deep. Refused at check, so no writer ever
 * recurses into it.
 */
export const nestingDepth = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'nesting depth',
  explanation: 'The YAML writer and cdk8s recurse once per level of maps and lists; an object nested thousands of levels deep would overflow the stack while it is written, so synth refuses it before any writer runs.',
  run: ({ facts }) => facts.objects.flatMap((o) => (o.duplicateOf === undefined ? depthProblem(o) : [])),
});

function depthProblem(object: ObjectFact): RuleFinding[] {
  const deep = tooDeep(object.manifest, MAX_NESTING_DEPTH);
  if (!deep) return [];
  const shown = deep.length > 6 ? `${deep.slice(0, 6).join('.')}...` : deep.join('.');
  const what = describeIdentity({ ...object.identity, kind: object.identity.kind || '(no kind)', name: object.identity.name || '(no name)' });
  return [{
    message: `${what} declared by '${object.declarer}' nests maps and lists more than ${MAX_NESTING_DEPTH} levels deep (at '${shown}'); synth writes objects at most ${MAX_NESTING_DEPTH} levels deep. Flatten the structure, for example into a JSON string.`,
    paths: [object.declarer],
  }];
}

/** One map or list being walked, with the way back to the root. */
interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string;
  readonly parent?: Frame;
}

/**
 * The path to the first map or list found below `limit` levels of nesting, or
 * undefined when `value` nests no deeper. Walked with a stack of its own, so
 * any depth is measured without recursion.
 */
export function tooDeep(value: unknown, limit: number): string[] | undefined {
  const open: Frame[] = [{ value, depth: 0, key: '' }];
  while (open.length > 0) {
    const frame = open.pop()!;
    const v = frame.value;
    if (v === null || typeof v !== 'object') continue;
    if (frame.depth === limit) return pathOf(frame);
    const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') open.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}
