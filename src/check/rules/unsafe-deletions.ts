import type { Facts, ObjectFact } from '../../collect/facts';
import { EdgeReason } from '../../collect/graph/composition-graph';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { interfaceRecord, InterfaceRecord } from '../../release/interface-record';
import { Lock, objectUnitId, stackUnitId } from '../../release/lock';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * Edges that only order two lifecycles: a runtime object does not need every
 * stack of its capability, so removing a tenant stack does not break it.
 */
const ORDER_ONLY: ReadonlySet<string> = new Set([EdgeReason.DEPLOY_BEFORE_RUNTIME, EdgeReason.INTERFACE]);

/** A removal that leaves something behind that still needs what was removed. */
interface UnsafeDeletion {
  /** What was removed, for example `CustomResourceDefinition widgets.example.com`. */
  readonly removed: string;
  /** What still needs it. */
  readonly neededBy: string;
  /** Why, for example `custom resource of its kind`. */
  readonly why: string;
  /** Construct paths involved (the remaining dependents, the removed declarer). */
  readonly paths: string[];
}

/**
 * `CAP008`: a removal against the locked release that breaks what remains: a
 * CRD while custom resources of its kind remain, a Namespace while objects in it
 * remain, a stack or object that a remaining one depends on (through the locked
 * graph), and an interface field that a remaining consumer still reads.
 * Removing the dependents in the same release passes.
 */
export const unsafeDeletions = defineRule({
  code: ViolationCode.UNSAFE_DELETION,
  title: 'deletion safety',
  run({ facts, previous }) {
    if (!previous) return [];
    return findUnsafeDeletions(previous, facts, facts.contracts.map(interfaceRecord)).map((d) => ({
      message: `this release removes ${d.removed}, but ${d.neededBy} remains and ${d.why}. Remove or move the dependent in the same release, or keep what it needs.`,
      paths: d.paths,
    }));
  },
});

function findUnsafeDeletions(lock: Lock, facts: Facts, current: readonly InterfaceRecord[]): UnsafeDeletion[] {
  const found: UnsafeDeletion[] = [];
  const present = new Set<string>([...facts.stacks.map((s) => stackUnitId(s.path)), ...facts.objects.map((o) => objectUnitId(o.key))]);
  const removed = lock.units.map((u, i) => ({ u, i })).filter(({ u }) => !present.has(u.id));
  const reported = new Set<string>();
  const report = (d: UnsafeDeletion) => {
    const key = `${d.removed}\u0000${d.neededBy}`;
    if (!reported.has(key)) {
      reported.add(key);
      found.push(d);
    }
  };

  for (const { u } of removed) {
    if (u.defines) {
      for (const o of facts.objects) {
        if (groupKind(o.identity.group, o.identity.kind) === u.defines) {
          report({ removed: u.label, neededBy: describe(o), why: 'it is a custom resource of the kind the CRD defines', paths: [o.declarer, u.path] });
        }
      }
    }
    if (u.namespaceName) {
      for (const o of facts.objects) {
        if (o.identity.namespace === u.namespaceName) {
          report({ removed: u.label, neededBy: describe(o), why: 'it lives in that namespace', paths: [o.declarer, u.path] });
        }
      }
    }
  }

  // Walk the locked graph from every removed unit, through barriers, to the units that depended on it.
  const n = lock.units.length;
  const out: number[][] = Array.from({ length: n + lock.barriers.length }, () => []);
  for (const [from, to, reason] of lock.edges) if (!ORDER_ONLY.has(reason)) out[from]?.push(to);
  const source = new Int32Array(out.length).fill(-1);
  const queue: number[] = [];
  for (const { i } of removed) {
    source[i] = i;
    queue.push(i);
  }
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    for (const w of out[v]) {
      if (w >= n) {
        if (source[w] === -1) {
          source[w] = source[v];
          queue.push(w);
        }
      } else if (present.has(lock.units[w].id)) {
        const gone = lock.units[source[v]];
        const stays = lock.units[w];
        report({ removed: gone.label, neededBy: stays.label, why: 'it depends on it in the locked release', paths: [stays.path, gone.path] });
      }
    }
  }

  const contracts = new Map(current.map((r) => [`${r.capability}/${r.name}`, r]));
  const charts = new Set(facts.charts.map((c) => c.path));
  for (const old of lock.interfaces) {
    const now = contracts.get(`${old.capability}/${old.name}`);
    for (const [field, record] of Object.entries(old.fields)) {
      if (now && field in now.fields) continue;
      for (const consumer of record.consumedBy.filter((c) => charts.has(c))) {
        report({
          removed: `interface field '${field}' of '${old.capability}/${old.name}'`,
          neededBy: `'${consumer}'`,
          why: 'it still consumes the field',
          paths: [consumer],
        });
      }
    }
  }
  return found;
}

function describe(o: ObjectFact): string {
  return describeIdentity(o.identity);
}
