import { describeIdentity } from '../../collect/object-identity';
import { schemaPathProblem } from '../../collect/schema-fields';
import { parseFieldPath } from '../../private/field-path-syntax';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a `RuntimeWriter` field that the target kind's schema does not
 * have (Kubernetes 1.30's for a built-in kind, its CRD's for a custom resource
 * whose CRD is in the composition): a field the schema lacks, a path into a
 * scalar or an atomic value, an element by other keys than its list's, a key
 * or set value of another type than the schema gives it. A kind
 * with no schema in reach (a CRD outside the composition) takes any field.
 */
export const runtimeWriterFields = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'runtime writer fields',
  explanation: 'a runtime writer declares the leaves a controller writes in the cluster; a leaf its kind\'s schema lacks is a typo that the ownership map and its admission policy would protect in vain.',
  run({ facts }) {
    const manifests = facts.objects.map((o) => o.manifest);
    const found: RuleFinding[] = [];
    for (const w of facts.runtimeWriters) {
      const object = 'object' in w.target ? facts.objects[w.target.object] : undefined;
      const target = object ? object.identity : (w.target as { group: string; kind: string });
      const what = object ? describeIdentity(object.identity) : `every ${target.group ? `${target.group}/` : ''}${target.kind}`;
      for (const f of w.fields) {
        const wrong = schemaPathProblem(target.group, target.kind, parseFieldPath(f.text), manifests);
        if (!wrong) continue;
        found.push({
          message: `'${w.path}' writes ${JSON.stringify(f.text)} of ${what}, which ${wrong.schema} does not have: ${wrong.problem}. Write a field the schema has.`,
          paths: [w.path],
        });
      }
    }
    return found;
  },
});
