import { groupKind } from '../../collect/object-identity';
import { builtInResource, crdResources, isBuiltInKind } from '../../collect/resource-names';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`, with `enforce`: a resource `enforce.resources` gives a kind that its CRD in the composition, or
 * Kubernetes for a built-in kind, names otherwise. The API server serves the kind under that name only, so one
 * of the two is wrong; the policy would follow the CRD, and the entry would say what is not so.
 */
export const enforcedResourceNames = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'enforced resource names',
  explanation: "enforce.resources names the resource of a kind whose CRD is outside the composition; for a kind whose CRD is in it, or a built-in kind, the API server's name is known, and an entry that differs is a mistake.",
  run({ facts, enforce }) {
    const given = enforce?.resources;
    if (!given) return [];
    const crds = crdResources(facts.objects);
    const found: RuleFinding[] = [];
    for (const [entry, resource] of Object.entries(given)) {
      const dot = entry.indexOf('.');
      const [kind, group] = dot === -1 ? [entry, ''] : [entry.slice(0, dot), entry.slice(dot + 1)];
      const crd = crds.get(groupKind(group, kind));
      if (!crd && !isBuiltInKind(group, kind)) continue;
      const actual = crd ? crd.plural : builtInResource(group, kind);
      if (resource === actual) continue;
      const who = crd ? `its CustomResourceDefinition declared by '${crd.declarer}' names its plural '${actual}'` : `Kubernetes serves the built-in kind as '${actual}'`;
      found.push({
        message: `CapabilityApp's enforce.resources gives ${group ? `${group}/` : ''}${kind} the resource '${resource}', but ${who}, and the API server matches policies by that name. `
          + `Remove the entry '${entry}': a kind whose CRD is in the composition, or a built-in kind, needs none.`,
        paths: crd ? [crd.declarer] : [],
      });
    }
    return found;
  },
});
