import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { MAX_NESTING_DEPTH, walkManifest } from '../../private/manifest-walk';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

export { MAX_NESTING_DEPTH } from '../../private/manifest-walk';

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

/**
 * The path to the first map or list found below `limit` levels of nesting, or
 * undefined when `value` nests no deeper. Measured without recursion, so any
 * depth is measured (`walkManifest`).
 */
export function tooDeep(value: unknown, limit: number): string[] | undefined {
  return walkManifest(value, limit).tooDeep;
}
