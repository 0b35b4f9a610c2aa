import { apiGroup, groupKind } from '../../collect/object-identity';
import { K8S_1_30 } from '../../collect/topology/k8s-1.30.generated';
import { nearMiss } from '../../private/near-miss';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010` (warning): a `RuntimeWriter` of every object of a kind that nothing
 * in reach knows: no object of the composition has it, no CRD of the
 * composition defines it, and it is no built-in kind of Kubernetes 1.30. Most
 * likely a typo (`kind: 'Nope'`), which would leave the controller's fields
 * unprotected without a word; the warning names the closest kind the
 * composition has. A kind defined outside the composition (a CRD another
 * release installs) is the rest of the cases, so it stays a warning.
 */
export const runtimeWriterKinds = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'runtime writer kinds',
  explanation: 'a runtime writer of every object of a kind protects that kind\'s objects; a kind that no object, CRD or built-in schema has is most likely misspelt, and protects nothing.',
  severity: 'warning',
  run({ facts }) {
    const known = new Map<string, string>(); // group/kind -> the kind as written
    for (const o of facts.objects) {
      known.set(groupKind(o.identity.group, o.identity.kind), o.identity.kind);
      const m = o.manifest as { kind?: unknown; apiVersion?: unknown; spec?: { group?: unknown; names?: { kind?: unknown } } } | undefined;
      if (m?.kind === 'CustomResourceDefinition' && apiGroup(String(m.apiVersion ?? '')) === 'apiextensions.k8s.io') {
        known.set(groupKind(String(m.spec?.group ?? ''), String(m.spec?.names?.kind ?? '')), String(m.spec?.names?.kind ?? ''));
      }
    }
    const found: RuleFinding[] = [];
    for (const w of facts.runtimeWriters) {
      if ('object' in w.target) continue;
      const { group, kind } = w.target;
      const key = groupKind(group, kind);
      if (known.has(key) || Object.hasOwn(K8S_1_30.kinds, key)) continue;
      const guess = nearMiss(kind, [...new Set(known.values())]);
      found.push({
        message: `'${w.path}' writes every ${group ? `${group}/` : ''}${kind}, a kind no object or CRD of the composition has and no built-in kind of Kubernetes: `
          + `it protects nothing here${guess ? ` (did you mean '${guess}'?)` : ''}. Check the target's apiVersion and kind; a kind defined outside the composition needs nothing.`,
        paths: [w.path],
      });
    }
    return found;
  },
});
