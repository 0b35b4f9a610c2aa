import type { OrderChange } from '../release/order-changes';

/** A run of objects sharing one change, one end they wait for and one reason is one line from this many on. */
const GROUPED_FROM = 4;

/** How many objects of a grouped line are named before `and N more`. */
const NAMED = 3;

/**
 * The plan's `Order` lines (`cdk-capability plan`): one per dependency that this release adds or drops, except that
 * the objects gaining (or losing) one dependency on the same end for the same reason share one line, the count
 * first and the first objects named (`+ 9 objects now wait for everything under shop/C (published) (interface
 * publication before its consumers): ConfigMap shop/a, ConfigMap shop/b, Service shop/c and 6 more`). A contract
 * added under a runtime aggregate makes each of its objects wait for the publication, which otherwise prints a line
 * per object. Stacks and construct-level ends (`stack cdn/Tenant`, `everything under cdn/B`) keep a line each, and
 * so does a run shorter than four. `plan --format json` lists every change (`order`).
 *
 * @param changes the release's order changes (`orderChanges`): added first, each sorted by what waits
 */
export function orderLines(changes: readonly OrderChange[]): string[] {
  const runs = new Map<string, OrderChange[]>();
  for (const c of changes) {
    const key = isObject(c.unit) ? `${c.change}\0${c.waitsFor}\0${c.reason}` : `${c.change}\0${c.unit}\0${c.waitsFor}\0${c.reason}`;
    const run = runs.get(key);
    if (run) run.push(c);
    else runs.set(key, [c]);
  }
  const lines: string[] = [];
  for (const run of runs.values()) {
    if (run.length < GROUPED_FROM) {
      for (const c of run) lines.push(`${sign(c)} ${c.unit} ${verb(c, false)} ${c.waitsFor} (${c.reason})`);
      continue;
    }
    const first = run[0];
    const named = run.slice(0, NAMED).map((c) => c.unit).join(', ');
    lines.push(`${sign(first)} ${run.length} objects ${verb(first, true)} ${first.waitsFor} (${first.reason}): ${named} and ${run.length - NAMED} more`);
  }
  return lines;
}

/** True for a Kubernetes object's name as the plan gives it (`ConfigMap edge/y`), not a stack's or a construct's. */
function isObject(unit: string): boolean {
  return !unit.startsWith('stack ') && !unit.startsWith('everything under ');
}

function sign(c: OrderChange): string {
  return c.change === 'added' ? '+' : '-';
}

function verb(c: OrderChange, plural: boolean): string {
  if (c.change === 'added') return plural ? 'now wait for' : 'now waits for';
  return plural ? 'no longer wait for' : 'no longer waits for';
}
