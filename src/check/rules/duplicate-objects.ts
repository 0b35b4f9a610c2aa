import type { ObjectFact } from '../../collect/facts';
import { DEFAULT_NAMESPACE, describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { contractSecretCollision } from './contract-secret-names';
import { generatedName } from './hook-generate-names';
import { joinAnd, quoted } from './text';

/** The fix of a duplicate object, as a capability app makes it. */
export const DUPLICATE_OBJECT_FIX = 'Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).';

/**
 * `CAP001`: two constructs declare one object identity as the API server
 * stores it (group, kind, namespace, name; the version is not part of it). A
 * namespaced object without a namespace is the one in `default`; a
 * cluster-scoped kind's objects have no namespace, whatever their manifests say.
 */
export const duplicateObjects = defineRule({
  code: ViolationCode.DUPLICATE_OBJECT,
  title: 'duplicate objects',
  explanation: 'Two constructs that declare the same object identity (group, kind, namespace, name) both land in the output, and whichever is applied last silently wins.',
  run({ facts }) {
    const declarations = new Map<number, ObjectFact[]>();
    facts.objects.forEach((o) => {
      // no name, but a generateName: each a distinct object, each refused by the rule of generated names
      if (o.duplicateOf === undefined || generatedName(o) !== undefined) return;
      const list = declarations.get(o.duplicateOf) ?? [facts.objects[o.duplicateOf]];
      list.push(o);
      declarations.set(o.duplicateOf, list);
    });
    return [...declarations].map(([first, objects]) => {
      const identity = facts.objects[first].identity;
      const paths = objects.map((o) => o.declarer);
      const note = why(objects);
      const shown = note.includes(DEFAULT_NAMESPACE) ? { ...identity, namespace: effectiveNamespace(identity) } : identity;
      return {
        message: contractSecretCollision(facts, objects) ?? `${describeIdentity(shown)} is declared by ${quoted(paths).join(' and ')}${note}. ${generatedNamesFix(objects) ?? routeFix(identity) ?? DUPLICATE_OBJECT_FIX}`,
        paths,
      };
    });
  },
});

/**
 * The fix when cdk8s generated every declaration's name (none set `metadata.name`) in different capabilities:
 * a capability's `generatedNames: 'plain'` names an object from its construct path below the capability, so
 * one construct path below two capabilities (two instances of a reusable construct) names two objects alike.
 * Undefined otherwise: the declarations are one object as written.
 */
function generatedNamesFix(objects: readonly ObjectFact[]): string | undefined {
  if (!objects.every((o) => o.nameFrom !== undefined)) return undefined;
  if (new Set(objects.map((o) => o.capability)).size < 2) return undefined;
  const capabilities = [...new Set(objects.flatMap((o) => (o.capability === undefined ? [] : [o.capability])))];
  const first = objects.find((o) => o.capability !== undefined)!;
  const below = first.nameFrom!.slice(first.capability!.length + 1);
  const named = capabilities.length === 1 ? `capability ${quoted(capabilities)[0]}` : `capabilities ${joinAnd(quoted(capabilities))}`;
  return `cdk8s generated the name from the construct path below the capability ('${below}'), which is the same in each: `
    + `set generatedNames: 'full-path' on ${named} (cdk8s then names their objects from the whole construct path, which tells them apart, `
    + 'and renames every object whose name it generates there), or give the objects a metadata.name of their own.';
}

/**
 * The fix for two Gateway API HTTPRoutes of one name (two capabilities' `addTenantRoute` of one tenant, say): a
 * Contribution to the other's route is no fix, since each route sends the tenant to its own backend. Undefined
 * for any other kind.
 */
function routeFix(identity: ObjectFact['identity']): string | undefined {
  if (identity.group !== 'gateway.networking.k8s.io' || identity.kind !== 'HTTPRoute') return undefined;
  return 'Route the tenant from one of them only; or, to send another path or host name of it elsewhere, give one route '
    + `a distinct 'name' with its own 'pathPrefix' or 'hostnames' (addTenantRoute's options), such as { name: '${identity.name}-2', pathPrefix: '/api' }: `
    + 'two routes with the same matches take its requests in an order Gateway API leaves to their age.';
}

/** Why declarations that read differently are one object: the default namespace, or a cluster-scoped kind. */
function why(objects: readonly ObjectFact[]): string {
  const given = objects.map((o) => o.manifest?.metadata?.namespace);
  if (objects[0].identity.namespace === undefined) {
    const namespaces = [...new Set(given.filter((n): n is string => typeof n === 'string' && n !== ''))];
    if (namespaces.length === 0 || (namespaces.length === 1 && given.every((n) => n === namespaces[0]))) return '';
    return ` (${objects[0].identity.kind} is cluster-scoped: the namespaces ${quoted(namespaces).join(' and ')} its manifests give do not tell its objects apart)`;
  }
  const missing = given.some((n) => n === undefined || n === '');
  return missing && given.some((n) => n === DEFAULT_NAMESPACE)
    ? ` (an object without metadata.namespace is applied to namespace '${DEFAULT_NAMESPACE}')`
    : '';
}
