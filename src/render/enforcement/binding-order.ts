import { boundObjectKey } from '../../release/locked-policies';

/**
 * The field-ownership step's documents in the order one `kubectl apply` sends them (it applies the documents
 * of a file one request after another, in file order): as rendered, each policy followed by its bindings,
 * except that a binding that gains an object another binding of the previous release selected goes before
 * that binding, its policy with it.
 *
 * A binding selects objects, and the policy it names judges them; a binding whose policy does not exist
 * judges nothing. So:
 * - A policy goes before its bindings: a new binding is bound from its first request to a policy that
 *   exists, with this release's leaves. Updating a policy unbinds nothing; until its binding is updated too,
 *   the objects the binding selected in the previous release are judged by the updated policy, which
 *   protects the leaves of its own objects (the next request, or the few before the binding's turn).
 * - A binding that gains an object goes before the binding of the previous release that lets it go: from the
 *   gaining binding's request the object is bound to its new policy, and only then does the old binding let
 *   it go. Bindings the release removes are deleted after the step (`after-field-ownership`), so they let go
 *   of nothing inside it.
 * - Where bindings exchange objects (each gains one the other lets go of, or around a longer cycle), no
 *   order keeps all bound: the first of them in the rendered order goes after the others, and what they let
 *   go of to it is unbound until its request.
 *
 * Documents no move constrains keep the rendered order, so a release whose bindings move no object is
 * written as before.
 *
 * @param manifests the step's policies and bindings, each policy followed by its bindings
 * @param previous the objects each binding of the previous release selected, by binding name (`lockedBindingObjects`)
 * @returns the same manifests, reordered
 */
export function applyOrder(manifests: readonly any[], previous: ReadonlyMap<string, ReadonlySet<string>>): any[] {
  const isBinding = (m: any) => m.kind === 'ValidatingAdmissionPolicyBinding';
  const bindingAt = new Map(manifests.flatMap((m, i) => (isBinding(m) ? [[m.metadata.name as string, i] as const] : [])));
  const policyAt = new Map(manifests.flatMap((m, i) => (isBinding(m) ? [] : [[m.metadata.name as string, i] as const])));
  const wasIn = new Map<string, string>();
  for (const [binding, objects] of previous) for (const key of objects) wasIn.set(key, binding);

  // before[i]: the documents that go before document i
  const before = manifests.map(() => new Set<number>());
  manifests.forEach((m, i) => {
    if (!isBinding(m)) return;
    const policy = policyAt.get(m.spec.policyName);
    if (policy !== undefined) before[i].add(policy);
    for (const key of objectsOf(m)) {
      const from = wasIn.get(key);
      const losing = from === undefined ? undefined : bindingAt.get(from);
      if (losing !== undefined && losing !== i) before[losing].add(i);
    }
  });

  const done = new Set<number>();
  const order: any[] = [];
  const visit = (i: number, path: Set<number>): void => {
    if (done.has(i) || path.has(i)) return;
    path.add(i);
    // what goes before it, in rendered order; a document already on the path is an exchange, left after it
    for (const j of [...before[i]].sort((a, b) => a - b)) visit(j, path);
    path.delete(i);
    if (done.has(i)) return;
    done.add(i);
    order.push(manifests[i]);
  };
  manifests.forEach((_, i) => visit(i, new Set()));
  return order;
}

/** The keys of the objects a binding rendered by `admissionPolicies` selects. */
function objectsOf(binding: any): string[] {
  const match = binding.spec.matchResources;
  const rule = match.resourceRules[0];
  const namespaces: string[] = match.namespaceSelector?.matchExpressions?.[0]?.values ?? [''];
  return namespaces.flatMap((ns) => (rule.resourceNames as string[]).map((name) => boundObjectKey(rule.apiGroups[0], rule.resources[0], ns, name)));
}
