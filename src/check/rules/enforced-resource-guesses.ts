import { ownedLeaves } from '../../collect/ledger/leaves';
import { groupKind } from '../../collect/object-identity';
import { crdResources, kindResource, resourceKey } from '../../collect/resource-names';
import { topologyOf } from '../../collect/topology/field-topology';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010` (warning), with `enforce`: a kind the field-ownership policies protect whose resource is a guess.
 * Its CRD is not in the composition, it is no built-in kind, and `enforce.resources` does not name its
 * resource, so its policy matches the resource Kubernetes would guess from the kind (`Redis`: `redises`). If
 * the CRD installed elsewhere names another plural, the policy matches no request and protects nothing, and
 * nothing says so; the warning names the kind, the guess and how to give the resource.
 */
export const enforcedResourceGuesses = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'enforced resource guesses',
  explanation: "an admission policy matches requests by resource name; a custom resource's name is its CRD's plural, and for a CRD outside the composition it is guessed from the kind, which protects nothing when the guess is wrong.",
  severity: 'warning',
  run({ facts, enforce }) {
    if (!enforce) return [];
    const crds = crdResources(facts.objects);
    const objectsWritten = new Set<number>();
    const kindsWritten = new Set<string>();
    for (const w of facts.runtimeWriters) {
      if (!w.fields.some((f) => f.path[0] !== 'status')) continue;
      if ('object' in w.target) objectsWritten.add(w.target.object);
      else kindsWritten.add(groupKind(w.target.group, w.target.kind));
    }
    const guessed = new Map<string, { group: string; kind: string; resource: string; declarers: string[] }>();
    facts.objects.forEach((o, i) => {
      if (o.duplicateOf !== undefined) return;
      const { group, kind } = o.identity;
      const key = groupKind(group, kind);
      const { resource, source } = kindResource(group, kind, crds, enforce.resources);
      if (source !== 'guessed') return;
      // a kind gets a policy only for objects with a leaf someone owns (status aside)
      const owned = objectsWritten.has(i) || kindsWritten.has(key)
        || ownedLeaves(o.manifest, topologyOf(String(o.manifest?.apiVersion ?? ''), kind)).some((l) => l.path[0] !== 'status');
      if (!owned) return;
      const entry = guessed.get(key) ?? { group, kind, resource, declarers: [] };
      entry.declarers.push(o.declarer);
      guessed.set(key, entry);
    });
    const found: RuleFinding[] = [];
    for (const { group, kind, resource, declarers } of guessed.values()) {
      const paths = [...new Set(declarers)];
      const others = paths.length > 1 ? ` and ${paths.length - 1} more` : '';
      found.push({
        message: `the field-ownership policy of ${group ? `${group}/` : ''}${kind} (declared by '${paths[0]}'${others}) matches the resource '${resource}', a guess from the kind: `
          + 'its CRD is not in the composition. If the CRD names another plural, the policy matches no request and protects nothing. '
          + `Give the CRD's spec.names.plural (kubectl api-resources --api-group=${group || '""'}) as CapabilityApp's enforce: { resources: { '${resourceKey(group, kind)}': '<plural>' } }.`,
        paths,
      });
    }
    return found;
  },
});
