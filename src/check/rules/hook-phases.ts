import { HELM_HOOK, hookAnnotations, ORDERED_PHASES, Placement, placement, SyncPhase } from '../../cluster/argo-cd-hooks';
import type { Facts } from '../../collect/facts';
import type { GraphEdge } from '../../collect/graph/dependency-graph';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { edgeOrigin } from './dependency-cycles';

/** Whether Argo CD applies `dependent` after `dependency` in every sync, phase by phase: each phase of one after each of the other. */
function ordered(dependent: Placement, dependency: Placement): boolean {
  if (dependent.phases.length === 0 || dependency.phases.length === 0) return false;
  const syncFail = (p: Placement) => p.phases.includes('SyncFail');
  if (syncFail(dependent) || syncFail(dependency)) return dependent.phases.every((p) => p === 'SyncFail') && dependency.phases.every((p) => p === 'SyncFail');
  const rank = (p: SyncPhase) => ORDERED_PHASES.indexOf(p as (typeof ORDERED_PHASES)[number]);
  return Math.min(...dependent.phases.map(rank)) >= Math.max(...dependency.phases.map(rank));
}

/** Where Argo CD applies an object, as a message says it: `in the PreSync phase (argocd.argoproj.io/hook "PreSync")`. */
function where(p: Placement): string {
  if (!p.hook) return 'in the Sync phase';
  const annotation = `${p.hook.key} ${JSON.stringify(p.hook.value)}`;
  if (p.phases.length === 0) {
    const why = p.hook.key === HELM_HOOK ? 'a Helm hook Argo CD ignores' : 'which no sync applies';
    return `in no phase of a sync (${annotation}, ${why})`;
  }
  const phases = `${p.phases.join(' and ')} phase${p.phases.length > 1 ? 's' : ''}`;
  const mapped = p.hook.key === HELM_HOOK ? `, which Argo CD runs as ${p.phases.join(' and ')}` : '';
  const onFailure = p.phases.includes('SyncFail') ? ', which runs only when a sync fails' : '';
  return `in the ${phases}${onFailure} (${annotation}${mapped})`;
}

/**
 * `CAP004`, with `GitOps.argoCd()`: an Argo CD hook (an `argocd.argoproj.io/hook`, or a `helm.sh/hook` Argo CD
 * maps to one) that depends on, or is depended on by, another object of the composition in a way Argo CD's phases
 * cannot keep. Argo CD runs the PreSync phase, then the Sync phase, then PostSync, and orders by sync wave only
 * inside a phase: a PreSync hook that depends on an object of the Sync phase runs before it exists, whatever the
 * waves `GitOps.argoCd()` writes. Every edge the order honours counts (an `addDependency`, a reference, a
 * Namespace before its contents, a chart's dependency); one that Argo CD keeps (an object of the Sync phase after
 * a PreSync hook) is accepted.
 */
export const hookPhases = defineRule({
  code: ViolationCode.DEPENDENCY_CYCLE,
  title: 'hook phases',
  explanation: 'Argo CD runs a hook in its phase (PreSync before the Sync phase, PostSync after it) whatever its sync wave; a dependency between a hook and an object of another phase that runs the other way cannot hold, and nothing at apply time would say so.',
  run: ({ facts, gitops }) => (gitops === 'argocd' ? phaseConflicts(facts) : []),
});

/** Every pair of objects joined by a dependency that Argo CD's phases do not keep, one finding each. */
function phaseConflicts(facts: Facts): RuleFinding[] {
  const hooks = new Map<number, Placement>();
  facts.objects.forEach((o, i) => {
    if (o.duplicateOf === undefined && hookAnnotations(o.manifest).length > 0) hooks.set(i, placement(o.manifest));
  });
  if (hooks.size === 0) return [];

  const { graph } = facts;
  const objectOf = (node: number): number | undefined => {
    const unit = graph.value(node);
    return unit?.kind === 'object' ? unit.index : undefined;
  };
  const outgoing = new Map<number, GraphEdge[]>();
  const incoming = new Map<number, GraphEdge[]>();
  const nodeOf = new Map<number, number>();
  for (let n = 0; n < graph.size; n++) {
    const o = objectOf(n);
    if (o !== undefined) nodeOf.set(o, n);
  }
  for (const e of graph.edges()) {
    (outgoing.get(e.from) ?? outgoing.set(e.from, []).get(e.from)!).push(e);
    (incoming.get(e.to) ?? incoming.set(e.to, []).get(e.to)!).push(e);
  }

  /** The objects that depend on `node` (forward) or that it depends on, through barriers only, each with the edges of one path. */
  const neighbours = (node: number, forward: boolean): Map<number, GraphEdge[]> => {
    const found = new Map<number, GraphEdge[]>();
    const seen = new Set<number>([node]);
    const queue: Array<{ node: number; path: GraphEdge[] }> = [{ node, path: [] }];
    while (queue.length > 0) {
      const { node: at, path } = queue.shift()!;
      for (const e of (forward ? outgoing : incoming).get(at) ?? []) {
        const next = forward ? e.to : e.from;
        const edges = [...path, e];
        const object = objectOf(next);
        if (object !== undefined) {
          if (next !== node) found.set(object, [...(found.get(object) ?? []), ...edges]);
        } else if (graph.isBarrier(next) && !seen.has(next)) {
          seen.add(next);
          queue.push({ node: next, path: edges });
        }
      }
    }
    return found;
  };

  const pairs = new Map<string, { dependent: number; dependency: number; edges: GraphEdge[] }>();
  const add = (dependent: number, dependency: number, edges: GraphEdge[]) => {
    const key = `${dependent}<${dependency}`;
    if (!pairs.has(key)) pairs.set(key, { dependent, dependency, edges });
  };
  for (const hook of hooks.keys()) {
    const node = nodeOf.get(hook);
    if (node === undefined) continue;
    for (const [dependency, edges] of neighbours(node, false)) add(hook, dependency, edges);
    for (const [dependent, edges] of neighbours(node, true)) add(dependent, hook, edges);
  }

  const placed = (i: number) => hooks.get(i) ?? placement(facts.objects[i].manifest);
  const found: RuleFinding[] = [];
  for (const { dependent, dependency, edges } of pairs.values()) {
    const a = placed(dependent);
    const d = placed(dependency);
    if (ordered(a, d)) continue;
    const objA = facts.objects[dependent];
    const objD = facts.objects[dependency];
    const nameA = describeIdentity(objA.identity);
    const nameD = describeIdentity(objD.identity);
    const origins = [...new Set(edges.filter((e) => e.reason).map(edgeOrigin))];
    const hooked = [a.hook ? nameA : undefined, d.hook ? nameD : undefined].filter((n): n is string => n !== undefined);
    const fix = `Remove the hook annotation from ${hooked.join(' and ')} and let the dependency order ${hooked.length > 1 ? 'them' : 'it'}, or remove the dependency.`;
    found.push({
      message: `${nameA} declared by '${objA.declarer}' depends on ${nameD} declared by '${objD.declarer}' (${origins.join('; ')}), `
        + `but with GitOps.argoCd() Argo CD applies ${nameA} ${where(a)} and ${nameD} ${where(d)}; it runs PreSync, Sync and PostSync one after the other, whatever the sync waves, `
        + `so ${nameA} would not come after ${nameD}. ${fix}`,
      paths: [objA.declarer, objD.declarer],
    });
  }
  return found;
}
