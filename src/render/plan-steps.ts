import type { Facts, ObjectFact } from '../collect/facts';
import { EdgeReason } from '../collect/graph/composition-graph';
import { describeIdentity } from '../collect/object-identity';
import { compareText } from '../private/compare';
import { slug } from '../private/names';

/** The lifecycle a step belongs to. */
export type Lifecycle = 'deploy' | 'runtime';

/** One edge of the plan: a step this one waits for, and why. */
export interface PlanDependency {
  /** The id of the step that comes first. */
  readonly step: string;
  /** Why, for example "CRD before custom resource"; sorted. */
  readonly reasons: string[];
}

/** One step of the plan: a stack to deploy, or a file of manifests to apply. */
export interface PlanStep {
  /** Stable id: the stack's construct path, or the chart's path with `#n` when it takes several steps. */
  readonly id: string;
  /** `deploy` (aws-cdk stack) or `runtime` (Kubernetes manifests). */
  readonly lifecycle: 'deploy' | 'runtime';
  /** The capability the step belongs to, if any. */
  readonly capability?: string;
  /** The CloudFormation stack name (deploy steps). */
  readonly stackName?: string;
  /** The objects applied (runtime steps), as `Kind namespace/name`. */
  readonly objects?: string[];
  /** Files of the step, relative to the outdir. */
  readonly files: string[];
  /** Steps that come first. */
  readonly dependsOn: PlanDependency[];
  /**
   * Runtime steps: the edges between two objects of the step (references),
   * which the step's file keeps in order; absent when there are none.
   */
  readonly orderInStep?: InStepOrder[];
}

/** An edge inside one step: `before` is earlier in the step's file than `after`, for `reasons`. */
export interface InStepOrder {
  /** The object first, as `Kind namespace/name`. */
  readonly before: string;
  /** The object after it. */
  readonly after: string;
  /** Why, sorted. */
  readonly reasons: string[];
}

/** An inferred ordering edge the plan does not keep, because it would close a cycle with the edges kept. */
export interface DroppedOrder {
  /** What the edge would have put first: an object as `Kind namespace/name`, a stack as `stack <path>`, or a construct path. */
  readonly before: string;
  /** What it would have put after it. */
  readonly after: string;
  /** Why the edge was inferred: `reference (spec.storageClassName)`. */
  readonly reason: string;
  /** The edges kept that lead from `after` back to `before`, each as `X => Y: origin` (X depends on Y). */
  readonly closes: string[];
}

/** A runtime file: its path relative to the outdir and its manifests in apply order. */
export interface RuntimeFile {
  /** Path relative to the outdir, `runtime/0001-<chart>.yaml`. */
  readonly file: string;
  /** The objects, in apply order. */
  readonly objects: ObjectFact[];
}

/** The ordered steps of both lifecycles and the runtime files they name. */
export interface StepPlan {
  /** Steps in apply order. */
  readonly steps: PlanStep[];
  /** Runtime files in apply order. */
  readonly runtimeFiles: RuntimeFile[];
}

interface DraftStep {
  readonly key: string;
  readonly lifecycle: Lifecycle;
  readonly level: number;
  readonly first: number;
  readonly nodes: number[];
  readonly chart?: string;
  id: string;
  files: string[];
}

/**
 * Groups the sorted composition graph into steps: one per stack; per chart,
 * one per level, so no step holds an object and something it depends on.
 *
 * @param deployFile the template file of a stack (by index), relative to the outdir
 */
export function planSteps(facts: Facts, deployFile: (stack: number) => string): StepPlan {
  const graph = facts.graph;
  const sorted = graph.sort();
  const drafts = new Map<string, DraftStep>();
  const stepOfNode = new Int32Array(graph.size).fill(-1);
  const ordered: DraftStep[] = [];
  for (const node of sorted.order) {
    const unit = graph.value(node);
    if (!unit) continue;
    const level = sorted.levels[node];
    const chart = unit.kind === 'object' ? facts.objects[unit.index].chart : undefined;
    const key = unit.kind === 'stack' ? `s|${node}` : `o|${chart}|${level}`;
    let draft = drafts.get(key);
    if (!draft) {
      draft = {
        key,
        lifecycle: unit.kind === 'stack' ? 'deploy' : 'runtime',
        level,
        first: node,
        nodes: [],
        chart,
        id: unit.kind === 'stack' ? facts.stacks[unit.index].path : '',
        files: unit.kind === 'stack' ? [deployFile(unit.index)] : [],
      };
      drafts.set(key, draft);
      ordered.push(draft);
    }
    draft.nodes.push(node);
  }
  ordered.sort((a, b) => a.level - b.level || a.first - b.first);
  ordered.forEach((d, i) => d.nodes.forEach((n) => (stepOfNode[n] = i)));

  const runtimeFiles = nameRuntimeSteps(ordered, facts);
  const dependsOn = stepDependencies(facts, stepOfNode, ordered.length);
  const inStep = inStepOrders(facts, stepOfNode);
  const steps = ordered.map((d, i): PlanStep => {
    const first = graph.value(d.first)!;
    const capability = first.kind === 'stack' ? facts.stacks[first.index].capability : facts.objects[first.index].capability;
    return {
      id: d.id,
      lifecycle: d.lifecycle,
      capability,
      stackName: first.kind === 'stack' ? facts.stacks[first.index].stackName : undefined,
      objects: d.lifecycle === 'runtime' ? d.nodes.map((n) => describe(facts, n)) : undefined,
      files: d.files,
      dependsOn: [...dependsOn[i]]
        .sort(([a], [b]) => a - b)
        .map(([s, reasons]) => ({ step: ordered[s].id, reasons: [...reasons].sort(compareText) })),
      ...(inStep.has(i) ? { orderInStep: inStep.get(i) } : {}),
    };
  });
  return { steps, runtimeFiles };
}

/** Numbers runtime files in apply order and names each step by its chart. */
function nameRuntimeSteps(ordered: DraftStep[], facts: Facts): RuntimeFile[] {
  const perChart = new Map<string, DraftStep[]>();
  for (const d of ordered) {
    if (!d.chart) continue;
    const list = perChart.get(d.chart) ?? [];
    list.push(d);
    perChart.set(d.chart, list);
  }
  for (const [chart, list] of perChart) {
    list.forEach((d, k) => (d.id = list.length === 1 ? chart : `${chart}#${k + 1}`));
  }
  const files: RuntimeFile[] = [];
  const width = Math.max(4, String(ordered.length).length);
  for (const d of ordered) {
    if (!d.chart) continue;
    const seq = String(files.length + 1).padStart(width, '0');
    const suffix = d.id.includes('#') ? `-${d.id.slice(d.id.lastIndexOf('#') + 1)}` : '';
    const file = `runtime/${seq}-${slug(d.chart)}${suffix}.yaml`;
    d.files = [file];
    files.push({ file, objects: d.nodes.map((n) => facts.objects[facts.graph.value(n)!.index]) });
  }
  return files;
}

/**
 * The steps each step waits for, with reasons, found by carrying step sets
 * through barrier nodes in topological order. A barrier's set is merged into a
 * step once per barrier and reason, however many of the step's objects wait
 * for it (every runtime object of a capability waits for its deployment-time
 * barrier, which gathers every stack): linear in edges plus steps times the
 * steps a barrier gathers, not objects times those.
 */
function stepDependencies(facts: Facts, stepOfNode: Int32Array, stepCount: number): Array<Map<number, Set<string>>> {
  const graph = facts.graph;
  const sorted = graph.sort();
  const incoming: Array<Array<{ from: number; reason: string }>> = Array.from({ length: graph.size }, () => []);
  for (const e of graph.edges()) incoming[e.to].push({ from: e.from, reason: stepReason(e) });

  const carried = new Map<number, Map<number, Set<string>>>();
  const result: Array<Map<number, Set<string>>> = Array.from({ length: stepCount }, () => new Map());
  // per step: the barriers (with the edge's reason) already merged into it
  const merged: Array<Set<string>> = Array.from({ length: stepCount }, () => new Set());
  for (const node of sorted.topological) {
    if (graph.isBarrier(node)) {
      const into = new Map<number, Set<string>>();
      for (const { from, reason } of incoming[node]) {
        if (graph.isBarrier(from)) for (const [step, reasons] of carried.get(from) ?? []) addReasons(into, step, reasons, reason);
        else addReasons(into, stepOfNode[from], NO_REASONS, reason);
      }
      carried.set(node, into);
      continue;
    }
    const own = stepOfNode[node];
    for (const { from, reason } of incoming[node]) {
      if (graph.isBarrier(from)) {
        const once = `${from}\u0000${reason}`;
        if (merged[own].has(once)) continue;
        merged[own].add(once);
        for (const [step, reasons] of carried.get(from) ?? []) if (step !== own) addReasons(result[own], step, reasons, reason);
      } else if (stepOfNode[from] !== own) {
        addReasons(result[own], stepOfNode[from], NO_REASONS, reason);
      }
    }
  }
  return result;
}

const NO_REASONS: ReadonlySet<string> = new Set();

/** The reasons a stack dependency keeps with the cross-stack reference behind it (aws-cdk's own `origin` of the edge). */
const NAMED_BY_REFERENCE: ReadonlySet<string> = new Set([EdgeReason.STACK, EdgeReason.SHARED_BASE]);

/**
 * Why a step waits, as `dependsOn` says it: the edge's reason; for a stack dependency that a cross-stack
 * reference makes, with that reference (`stack dependency (cloud assembly), shop/globex -> shop/acme/Queue/Resource.Arn`:
 * the consuming stack, then the producing resource and attribute), as CAP004 names it.
 */
function stepReason(e: { readonly reason: string; readonly origin?: string }): string {
  return e.origin !== undefined && NAMED_BY_REFERENCE.has(e.reason) ? `${e.reason}, ${e.origin}` : e.reason;
}

/** Per step index: the edges between two of its objects, in edge order, reasons merged per pair. */
function inStepOrders(facts: Facts, stepOfNode: Int32Array): Map<number, InStepOrder[]> {
  const graph = facts.graph;
  const perStep = new Map<number, Map<string, { before: string; after: string; reasons: Set<string> }>>();
  for (const e of graph.edges()) {
    const step = stepOfNode[e.from];
    if (!e.reason || step === -1 || step !== stepOfNode[e.to]) continue;
    const pairs = perStep.get(step) ?? new Map();
    perStep.set(step, pairs);
    const key = `${e.from}>${e.to}`;
    const pair = pairs.get(key) ?? { before: describe(facts, e.from), after: describe(facts, e.to), reasons: new Set<string>() };
    pairs.set(key, pair);
    pair.reasons.add(e.reason);
  }
  const result = new Map<number, InStepOrder[]>();
  for (const [step, pairs] of perStep) {
    result.set(step, [...pairs.values()].map((p) => ({ before: p.before, after: p.after, reasons: [...p.reasons].sort(compareText) })));
  }
  return result;
}

function addReasons(target: Map<number, Set<string>>, step: number, reasons: ReadonlySet<string>, extra: string): void {
  let set = target.get(step);
  if (!set) {
    set = new Set();
    target.set(step, set);
  }
  for (const r of reasons) set.add(r);
  if (extra) set.add(extra);
}

/**
 * The inferred ordering edges dropped because they would close a cycle with an
 * explicit dependency or another edge kept, each with that cycle's edges.
 */
export function droppedOrders(facts: Facts): DroppedOrder[] {
  const graph = facts.graph;
  const name = (node: number) => describe(facts, node) || (graph.value(node)?.kind === 'stack' ? `stack ${graph.label(node)}` : graph.label(node));
  return graph.sort().dropped.map((d) => {
    const e = graph.edge(d.edge);
    return {
      before: name(e.from),
      after: name(e.to),
      reason: e.reason,
      closes: d.closes.map((k) => graph.edge(k)).filter((c) => c.reason).reverse().map((c) => `${name(c.to)} => ${name(c.from)}: ${c.origin ? `${c.reason}, ${c.origin}` : c.reason}`),
    };
  });
}

function describe(facts: Facts, node: number): string {
  const unit = facts.graph.value(node);
  return unit?.kind === 'object' ? describeIdentity(facts.objects[unit.index].identity) : '';
}
