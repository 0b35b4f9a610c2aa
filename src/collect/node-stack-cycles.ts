import { Stack, Stage } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StackCycle, StackDependencyHop } from './facts';
import { explicitEdge } from './graph/composition-graph';

/**
 * One `node.addDependency` between constructs of two stacks of a stage (or the
 * stacks themselves), which aws-cdk makes a dependency of one stack on the
 * other only at synth (`reifyConstructDependencies` in aws-cdk-lib's `core`).
 */
interface NodeStackDependency {
  /** The stack that comes to depend. */
  readonly dependent: Stack;
  /** The stack it comes to depend on. */
  readonly dependency: Stack;
  /** The construct whose `node.addDependency` was called. */
  readonly source: IConstruct;
  /** The construct it was given. */
  readonly target: IConstruct;
}

/** What the stack dependencies that `node.addDependency` calls imply do to a stage's stacks. */
export interface NodeStackCycles {
  /** True when one of them closes a cycle: aws-cdk would refuse the stage's synth. */
  readonly closesCycle: boolean;
  /**
   * The cycles they close through a stack dependency made before synth (a
   * tenant aggregate's on its shared base, an `addStackDependency`); a cycle of
   * `node.addDependency` calls alone is the composition graph's to name.
   */
  readonly cycles: StackCycle[];
}

/**
 * The cycles of stacks that `node.addDependency` calls close, found before
 * aws-cdk's synth would refuse them with its own words (`Adding this dependency
 * (<cdn/Base>.node.addDependency(<cdn/acme>)) would create a cyclic reference`).
 * The calls are taken in aws-cdk's order (the stage's constructs depth first,
 * each one's dependencies in the order added); each that closes a cycle
 * through the stack dependencies made so far and the calls before it is a
 * cycle, from its stack around (a shortest path back), and is left out of what
 * follows, as aws-cdk never adds it.
 *
 * @param stage the capability whose stacks are checked
 * @param stackHop how a stack dependency made before synth is named
 */
export function nodeStackCycles(stage: Stage, stackHop: (dependent: Stack, dependency: Stack) => StackDependencyHop): NodeStackCycles {
  const added = new Map<Stack, Array<{ readonly to: Stack; readonly hop: StackDependencyHop }>>();
  const seen = new Map<Stack, Set<Stack>>();
  const cycles: StackCycle[] = [];
  let closesCycle = false;
  for (const d of nodeStackDependencies(stage)) {
    const pairs = seen.get(d.dependent) ?? new Set<Stack>();
    seen.set(d.dependent, pairs);
    if (pairs.has(d.dependency)) continue;
    pairs.add(d.dependency);
    const hop: StackDependencyHop = { dependent: d.dependent.node.path, dependency: d.dependency.node.path, ...explicitEdge(d.source, d.target) };
    const back = pathBetween(d.dependency, d.dependent, (s) => [
      ...s.dependencies.map((to) => ({ to, hop: stackHop(s, to), byNode: false })),
      ...(added.get(s) ?? []).map((a) => ({ ...a, byNode: true })),
    ]);
    if (back === undefined) {
      added.set(d.dependent, [...(added.get(d.dependent) ?? []), { to: d.dependency, hop }]);
      continue;
    }
    closesCycle = true;
    if (back.some((h) => !h.byNode)) cycles.push({ capability: stage.node.path, hops: [hop, ...back.map((h) => h.hop)] });
  }
  return { closesCycle, cycles };
}

/** Every `node.addDependency` of the stage's constructs that aws-cdk makes a stack dependency at synth, in its order. */
function nodeStackDependencies(stage: Stage): NodeStackDependency[] {
  const found: NodeStackDependency[] = [];
  for (const source of stage.node.findAll()) {
    const targets = source.node.dependencies;
    // most constructs have none: their stack is not looked up
    if (targets.length === 0) continue;
    const dependent = outermostStack(source, stage);
    if (!dependent) continue;
    for (const target of targets) {
      const dependency = outermostStack(target, stage);
      if (dependency && dependency !== dependent) found.push({ dependent, dependency, source, target });
    }
  }
  return found;
}

/**
 * The stack directly in `stage` that holds `c` (or is `c`): what aws-cdk makes
 * depend, or be depended on; undefined when `c` is in no stack of `stage` (in
 * a nested stage, which synthesizes on its own, or in another capability).
 */
function outermostStack(c: IConstruct, stage: Stage): Stack | undefined {
  let outermost: Stack | undefined;
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
    if (s === stage) return outermost;
    if (Stage.isStage(s)) return undefined;
    if (Stack.isStack(s)) outermost = s;
  }
  return undefined;
}

/** A dependency on the way from one stack to another. */
interface Hop {
  readonly to: Stack;
  readonly hop: StackDependencyHop;
  /** True when a `node.addDependency` call makes it, not a stack dependency made before synth. */
  readonly byNode: boolean;
}

/** The dependencies from `from` to `to` (breadth first: a shortest path); undefined when there is none. */
function pathBetween(from: Stack, to: Stack, next: (s: Stack) => readonly Hop[]): Hop[] | undefined {
  const reached = new Map<Stack, { readonly before: Stack; readonly via: Hop } | undefined>([[from, undefined]]);
  const queue = [from];
  for (let head = 0; head < queue.length && !reached.has(to); head++) {
    for (const via of next(queue[head])) {
      if (reached.has(via.to)) continue;
      reached.set(via.to, { before: queue[head], via });
      queue.push(via.to);
    }
  }
  if (!reached.has(to)) return undefined;
  const path: Hop[] = [];
  for (let step = reached.get(to); step; step = reached.get(step.before)) path.unshift(step.via);
  return path;
}
