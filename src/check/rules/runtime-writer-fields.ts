import { formatPath } from '../../collect/ledger/field-path';
import { describeIdentity } from '../../collect/object-identity';
import { schemaPathProblem, SchemaPathProblem } from '../../collect/schema-fields';
import { parseFieldPath, PathStep } from '../../private/field-path-syntax';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a `RuntimeWriter` field that the target kind's schema does not
 * have (Kubernetes 1.30's for a built-in kind, its CRD's for a custom resource
 * whose CRD is in the composition): a field the schema lacks, a path into a
 * scalar or an atomic value, an element by other keys than its list's, a key
 * or set value of another type than the schema gives it. A kind
 * with no schema in reach (a CRD outside the composition, the usual case for a
 * third-party controller's custom resource) takes any field but `metadata`,
 * which is ObjectMeta on every kind and is checked as such. Where a path goes
 * into a map value that is a scalar and the same text is a map key holding
 * dots (`data.tls.crt`, `metadata.annotations.karpenter.sh`), the message
 * gives the key in brackets (`data["tls.crt"]`). A `status` field is left to
 * the construct's own refusal.
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
        if (f.path[0] === 'status') continue; // the RuntimeWriter refuses it itself, with why
        const steps = parseFieldPath(f.text);
        const wrong = pathProblem(target, steps, manifests);
        if (!wrong) continue;
        const key = bracketedKey(target, steps, manifests);
        found.push({
          message: `'${w.path}' writes ${JSON.stringify(f.text)} of ${what}, which ${wrong.schema} does not have: ${wrong.problem}. `
            + (key ? `A map key that holds dots is written in brackets: did you mean '${key}'?` : 'Write a field the schema has.'),
          paths: [w.path],
        });
      }
    }
    return found;
  },
});

type Target = { readonly group: string; readonly kind: string };

/** What is wrong with a path of the target kind: its schema's answer, else, under `metadata`, ObjectMeta's. */
function pathProblem(target: Target, steps: readonly PathStep[], manifests: readonly any[]): SchemaPathProblem | undefined {
  const wrong = schemaPathProblem(target.group, target.kind, steps, manifests);
  if (wrong || !isField(steps[0], 'metadata')) return wrong;
  // every kind's metadata is ObjectMeta: read it from a built-in kind's schema when the kind's own is not in reach
  const meta = schemaPathProblem('', 'ConfigMap', steps, []);
  return meta ? { problem: meta.problem, schema: 'ObjectMeta (the metadata of every kind, Kubernetes 1.30)' } : undefined;
}

/**
 * The path with the rest of it, from some field on, joined by dots into one map key, as `formatPath` prints it,
 * when the schema has that path (the shortest such); undefined when there is none.
 */
function bracketedKey(target: Target, steps: readonly PathStep[], manifests: readonly any[]): string | undefined {
  for (let i = 1; i < steps.length - 1; i++) {
    const rest = steps.slice(i);
    if (!rest.every((s) => 'field' in s)) return undefined;
    const fields = steps.slice(0, i);
    if (!fields.every((s) => 'field' in s)) continue;
    const candidate = [...fields.map((s) => (s as { field: string }).field), rest.map((s) => (s as { field: string }).field).join('.')];
    const text = formatPath(candidate);
    if (!pathProblem(target, parseFieldPath(text), manifests)) return text;
  }
  return undefined;
}

function isField(step: PathStep | undefined, name: string): boolean {
  return step !== undefined && 'field' in step && step.field === name;
}
