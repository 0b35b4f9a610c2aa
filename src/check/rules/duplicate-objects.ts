import type { ObjectFact } from '../../collect/facts';
import { DEFAULT_NAMESPACE, describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { quoted } from './text';

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
      if (o.duplicateOf === undefined) return;
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
        message: `${describeIdentity(shown)} is declared by ${quoted(paths).join(' and ')}${note}. ${DUPLICATE_OBJECT_FIX}`,
        paths,
      };
    });
  },
});

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
