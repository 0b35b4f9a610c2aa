import { unsafeDeletions } from '../src/check/rules/unsafe-deletions';
import type { Facts } from '../src/collect/facts';
import { Lock, LockedUnit, objectUnitId, stackUnitId } from '../src/release/lock';

/** A release of one stack and one ConfigMap that depends on it, locked; `edges` as given. */
function lockOf(edges: () => Lock['edges']): Lock {
  const units: LockedUnit[] = [
    { id: stackUnitId('app/Tenant'), label: "stack 'app/Tenant'", path: 'app/Tenant' } as LockedUnit,
    { id: objectUnitId('|ConfigMap|shop|config'), label: 'ConfigMap shop/config', path: 'app/Routing/Config' } as LockedUnit,
  ];
  const lock = { formatVersion: 2, interfaces: [], units, barriers: [] } as unknown as Lock;
  return Object.defineProperty(lock, 'edges', { get: edges });
}

/** The facts of the release: the stacks and objects named, nothing else. */
function factsOf(stacks: string[], objects: string[]): Facts {
  return {
    stacks: stacks.map((path) => ({ path })),
    objects: objects.map((key) => ({ key, declarer: 'app/Routing/Config', identity: { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'config' } })),
    contracts: [],
    charts: [],
    references: [],
  } as unknown as Facts;
}

describe('deletion safety of a release that removes nothing', () => {
  test('keeping every locked unit reads none of the locked edges: no removed unit, nothing to walk from', () => {
    // GIVEN a lock whose edges may not be read
    const lock = lockOf(() => {
      throw new Error('the locked edges were read');
    });

    // WHEN the release keeps the stack and the ConfigMap
    const found = unsafeDeletions.run({ facts: factsOf(['app/Tenant'], ['|ConfigMap|shop|config']), previous: lock, claims: [] });

    // THEN
    expect(found).toEqual([]);
  });

  test('removing the stack the kept ConfigMap depended on still walks the edges and refuses it', () => {
    const lock = lockOf(() => [[0, 1, 'reference']] as unknown as Lock['edges']);
    const found = unsafeDeletions.run({ facts: factsOf([], ['|ConfigMap|shop|config']), previous: lock, claims: [] });
    expect(found.map((f) => [f.code, f.paths])).toEqual([['CAP008', ['app/Routing/Config', 'app/Tenant']]]);
    expect(found[0].message).toMatch(/^unsafe deletion: this release removes stack 'app\/Tenant', but ConfigMap shop\/config remains and it depends on it in the locked release\. /);
  });
});
