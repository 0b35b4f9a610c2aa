import { LedgerBuilder } from '../../src/collect/ledger/field-ledger';
import { contributionWriter, declarationWriter } from '../../src/collect/ledger/writer';

/** Writes per object in the `ledger` scenario. */
export const WRITES_PER_OBJECT = 10;

/**
 * Fills a ledger with `writes` writes over `writes / WRITES_PER_OBJECT`
 * objects, shaped like real manifests: two writers per object (a declarer and
 * a contributor) on disjoint leaves 2 to 5 segments deep, and on every
 * hundredth object one contested leaf, so `conflicts()` has real work to report.
 *
 * @returns the filled ledger and the number of conflicts it must find
 */
export function fillLedger(writes: number): { ledger: LedgerBuilder; expectedConflicts: number } {
  const ledger = new LedgerBuilder();
  const objects = Math.ceil(writes / WRITES_PER_OBJECT);
  let expectedConflicts = 0;
  let written = 0;
  for (let o = 0; o < objects && written < writes; o++) {
    const object = { key: `apps|Deployment|bench|app-${o}`, label: `Deployment bench/app-${o}`, kind: 'k8s' as const };
    const declarer = declarationWriter(`bench/Routing/App${o}`);
    const contributor = contributionWriter(`bench/Team/Timers${o}`);
    const contested = o % 100 === 0;
    for (let w = 0; w < WRITES_PER_OBJECT && written < writes; w++, written++) {
      const writer = w < WRITES_PER_OBJECT / 2 ? declarer : contributor;
      // the contributor's last write takes a leaf the declarer already owns
      ledger.record({ object, writer, path: leafPath(contested && w === WRITES_PER_OBJECT - 1 ? 1 : w) });
    }
    if (contested) expectedConflicts++;
  }
  return { ledger, expectedConflicts };
}

const DEEP = ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}'];

/** The `w`th leaf of an object: 3 to 6 segments deep, distinct for distinct `w`. */
function leafPath(w: number): string[] {
  return [...DEEP.slice(0, 2 + (w % 4)), `leaf${w}`];
}
