import { joinAnd, quoted } from './text';
import type { Facts, ObjectFact } from '../../collect/facts';

/**
 * The `CAP001` message when the declarations of one object are the bindings (`ExternalSecret`s) of two or more
 * contracts whose ids, with their capabilities', sanitize to one Secret name (`'cdn-edge'`'s `'Api'` and `'cdn'`'s
 * `'edge-api'`, both `cdn-edge-api-interface`), consumed in one namespace: naming the contracts, the Secret and
 * the fix, a contract id that tells the names apart (declaring the object once with a `Contribution` is no fix
 * there). Undefined when any declaration is no contract's binding, or one contract's.
 */
export function contractSecretCollision(facts: Facts, objects: readonly ObjectFact[]): string | undefined {
  const contractOf = new Map<ObjectFact, string>();
  for (const contract of facts.contracts) {
    for (const consumer of contract.consumers) {
      if (consumer.binding !== undefined) contractOf.set(facts.objects[consumer.binding], contract.path);
    }
  }
  const contracts = objects.map((o) => contractOf.get(o));
  if (contracts.some((c) => c === undefined)) return undefined;
  const distinct = [...new Set(contracts as string[])];
  if (distinct.length < 2) return undefined;
  const secretName = String(objects[0].identity.name);
  return `the contracts ${joinAnd(quoted(distinct))} bind one Secret, '${secretName}' in one namespace (the ExternalSecrets ${joinAnd(quoted(objects.map((o) => o.declarer)))}): `
    + "a contract's Secret is named '<capability id>-<contract id>-interface', lowercased, with each run of characters other than a-z, 0-9, '.' and '-' made one '-'. "
    + "Rename one contract's id so that the names differ.";
}
