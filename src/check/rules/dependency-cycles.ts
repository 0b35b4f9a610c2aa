import type { StackCycle, WiringError } from '../../collect/facts';
import { EdgeReason } from '../../collect/graph/composition-graph';
import type { GraphEdge } from '../../collect/graph/dependency-graph';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { withoutFinalPeriod } from './text';

/** How to break a cycle. */
const FIX_CYCLE = 'Remove one of these dependencies (addDependency, or the reference that implies it).';

/** How to break a cycle through a tenant aggregate's dependency on its shared base, which this package makes. */
const FIX_SHARED_BASE = 'Remove the dependency of the shared base on the tenant aggregate.';

/** How to break a cycle between stacks that aws-cdk reports in its own words. */
const FIX_STACK_CYCLE = 'Its stacks depend on each other in a cycle, so none can deploy first: remove one of the dependencies it names '
  + "(a stack's addDependency, or a reference from one stack to a value of the other, which makes one); "
  + 'pass such a value through an InterfaceContract, or an SSM parameter read by its name, to keep it without the dependency.';

/** aws-cdk's synthesis errors that are cycles between stacks. */
export const CYCLE_ERROR = /cycl/i;

/**
 * `CAP004`: every dependency cycle, with its full path by construct path
 * (`a => b => c => a`, read "a depends on b ..."); constructs that depend on
 * themselves; a shared base that depends on its own tenant aggregate; and the
 * cycles aws-cdk finds between stacks.
 */
export const dependencyCycles = defineRule({
  code: ViolationCode.DEPENDENCY_CYCLE,
  title: 'dependency cycles',
  explanation: 'Objects, charts and stacks that depend on each other in a cycle (or on themselves) have no apply order; cdk8s drops a self-dependent object silently.',
  run({ facts }) {
    const { graph, problems } = facts;
    const sorted = graph.sort();
    const found: RuleFinding[] = sorted.cycles.map((cycle, k) => {
      const labels = cycleLabels(cycle.slice(0, -1).map((node) => ({ label: graph.label(node), barrier: graph.isBarrier(node) })));
      const why = sorted.cycleEdges[k].map((e) => graph.edge(e)).filter((e) => e.reason).map((e) => `${graph.label(e.to)} => ${graph.label(e.from)}: ${edgeOrigin(e)}`);
      return {
        message: `${[...labels, labels[0]].join(' => ')} (${why.join('; ')}). ${FIX_CYCLE}`,
        paths: labels,
      };
    });
    for (const path of problems.selfDependencies) {
      found.push({ message: `'${path}' depends on itself. Remove the addDependency call that names the construct itself.`, paths: [path] });
    }
    for (const w of problems.wiringErrors) found.push(wiringCycle(w));
    for (const c of problems.stackCycles) found.push(stackCycle(c.hops));
    for (const s of problems.synthesisErrors.filter((e) => CYCLE_ERROR.test(e.error))) {
      // a cycle the library named as aws-cdk added a stack dependency (for a cross-stack reference): as it named it
      if (s.refused?.code === ViolationCode.DEPENDENCY_CYCLE) found.push({ message: s.refused.message, paths: s.refused.paths });
      else found.push({ message: `the stacks of capability '${s.capability}' could not be synthesized: aws-cdk says "${withoutFinalPeriod(s.error.trim())}". ${FIX_STACK_CYCLE}`, paths: [s.capability] });
    }
    return found;
  },
});

/**
 * A shared base that depends on its own tenant aggregate, which deploys after
 * it: the cycle, named as a graph cycle is, each stack dependency on the way
 * from the base to the tenant by its origin (the program's call, with its
 * file and line), then the tenant's on its base. aws-cdk's words when no path
 * was found.
 */
function wiringCycle(w: WiringError): RuleFinding {
  if (w.dependsOn.length === 0) {
    return { message: `'${w.tenant}' must deploy after its shared base '${w.base}', but ${withoutFinalPeriod(w.error)}. ${FIX_SHARED_BASE}`, paths: [w.tenant, w.base] };
  }
  return stackCycle([...w.dependsOn, { dependent: w.tenant, dependency: w.base, reason: EdgeReason.SHARED_BASE }]);
}

/**
 * A cycle of stacks, named as a graph cycle is: each stack once from the first
 * hop's (each hop's dependency is the next hop's dependent), then each dependency by its origin (the program's call with its file
 * and line). When a tenant aggregate's dependency on its shared base is on it,
 * the fix is the base's dependency on the tenant.
 */
function stackCycle(hops: StackCycle['hops']): RuleFinding {
  const stacks = hops.map((h) => h.dependent);
  const why = hops.map((h) => `${h.dependent} => ${h.dependency}: ${edgeOrigin(h)}`);
  const fix = hops.some((h) => h.reason === EdgeReason.SHARED_BASE) ? FIX_SHARED_BASE : FIX_CYCLE;
  return { message: `${[...stacks, stacks[0]].join(' => ')} (${why.join('; ')}). ${fix}`, paths: stacks };
}

/**
 * Where an edge comes from, for a cycle message: the `addDependency` call and
 * on which construct (`explicit 'a'.addDependency('b')`), or the reason and the
 * field that implies it (`CRD before custom resource, apiVersion example.com/v1, kind Widget`).
 */
export function edgeOrigin(e: Pick<GraphEdge, 'reason' | 'origin'>): string {
  if (e.reason === EdgeReason.EXPLICIT && e.origin) return `explicit ${e.origin}`;
  return e.origin ? `${e.reason}, ${e.origin}` : e.reason;
}

/**
 * How a cycle is named, as cdk8s and kapp name it: each construct once, in
 * "depends on" order. An object next to a barrier of a construct that holds it
 * (a chart that depends on another) is named by that construct; repeated
 * names collapse, also around the end of the cycle.
 *
 * @param cycle the nodes of the cycle, without the first repeated at the end
 * @returns the names, without the first repeated at the end
 */
export function cycleLabels(cycle: ReadonlyArray<{ readonly label: string; readonly barrier: boolean }>): string[] {
  const holds = (outer: string, inner: string) => inner.startsWith(`${outer}/`);
  const n = cycle.length;
  const kept = cycle.filter((c, i) => {
    if (c.barrier || n === 1) return true;
    const prev = cycle[(i + n - 1) % n];
    const next = cycle[(i + 1) % n];
    return !((prev.barrier && holds(prev.label, c.label)) || (next.barrier && holds(next.label, c.label)));
  });
  const collapsed = distinctRun(kept.map((c) => c.label));
  return collapsed.length > 1 ? collapsed : distinctRun(cycle.map((c) => c.label));
}

/** Labels with repeats collapsed (also around the end), cut at the first label seen twice. */
function distinctRun(all: readonly string[]): string[] {
  const labels: string[] = [];
  for (const label of all) if (labels[labels.length - 1] !== label) labels.push(label);
  while (labels.length > 1 && labels[0] === labels[labels.length - 1]) labels.pop();
  const seen = new Map<string, number>();
  for (let i = 0; i < labels.length; i++) {
    const before = seen.get(labels[i]);
    if (before !== undefined) return labels.slice(before, i);
    seen.set(labels[i], i);
  }
  return labels;
}
