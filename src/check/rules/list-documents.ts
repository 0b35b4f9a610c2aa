import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: an object of the composition that is a list of objects (`kind: List`, what `kubectl get -o yaml`
 * writes, or a typed list such as `ConfigMapList`, holding `items`), most often a document of a YAML file read
 * by cdk8s' `Include`. `kubectl apply -f` never sends such a document to the API server: its resource builder
 * expands it into its items and applies each (k8s.io/cli-runtime `pkg/resource`, `FlattenListVisitor`, which
 * `kubectl apply` turns on with `Flatten()`). The API server has no such kind to apply, and here it would be one
 * object whose items no check reads (field ownership, references, validity, the lock): refused, with the fix,
 * rather than expanded behind cdk8s' `Include`, whose objects the program addresses (`included.apiObjects`).
 */
export const listDocuments = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'list documents',
  explanation: 'kubectl apply -f expands a List document into its items; a List declared here would be one object that no check reads and that the API server cannot apply.',
  run: ({ facts }) => {
    const found: RuleFinding[] = [];
    for (const o of facts.objects) {
      const kind = o.identity.kind;
      const items: unknown = o.manifest?.items;
      if (!kind.endsWith('List') || !Array.isArray(items) || o.duplicateOf !== undefined) continue;
      const included = facts.includedFrom?.[o.path];
      const where = included ? ` in the file '${included.file}' (read by an Include)` : '';
      const count = `${items.length} item${items.length === 1 ? '' : 's'}`;
      const fix = included
        ? `write each item as a document of its own in '${included.file}', separated by '---' (yq '.items[] | split_doc' turns a List into them)`
        : 'declare each item as an object of its own';
      found.push({
        message: `'${o.path}' is a ${kind} of ${count}${where}: kubectl apply -f expands a ${kind} into its items, but here it is one object, `
          + `whose items no check reads and which the API server cannot apply. Fix: ${fix}.`,
        paths: [o.path],
      });
    }
    return found;
  },
});
