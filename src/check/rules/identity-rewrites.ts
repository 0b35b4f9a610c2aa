import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

const IDENTITY_FIELDS: ReadonlyArray<readonly [string, string?]> = [['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace']];

/**
 * `CAP002`: a contribution that would rename or move its target: identity
 * fields belong to the declarer (collect keeps the declarer's values).
 */
export const identityRewrites = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'identity rewrites',
  explanation: "A write that changes an object's identity (apiVersion, kind, name, namespace) makes it another object than the one declared, so the declarer's other writers write to nothing.",
  run: ({ facts }) =>
    facts.contributions.flatMap((c) => {
      const target = facts.objects[c.target];
      const fields = c.fields as any;
      return IDENTITY_FIELDS.flatMap(([head, tail]) => {
        const container = tail ? fields[head] : fields;
        const name = tail ?? head;
        if (!container || typeof container !== 'object' || !(name in container)) return [];
        const current = tail ? target.manifest[head]?.[tail] : target.manifest[head];
        if (container[name] === current) return [];
        const field = tail ? `${head}.${tail}` : head;
        return [
          {
            message: `'${c.writer}' writes ${field} of ${describeIdentity(target.identity)} as ${JSON.stringify(container[name])}, but identity fields belong to its declarer '${target.declarer}'. Remove ${field} from the contribution; to make another object, declare it.`,
            paths: [c.writer, target.declarer],
          },
        ];
      });
    }),
});
