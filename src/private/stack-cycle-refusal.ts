import type { Stack } from 'aws-cdk-lib';
import { awsCdk } from './aws-cdk';
import { explicitDependencyOrigin, nodeDependencyBetween, stackDependencyCall } from './dependency-calls';
import { constructionRefusal } from './misplaced';
import { stackDependencyPath } from './stack-dependency-path';

/** The code of a dependency cycle (`ViolationCode.DEPENDENCY_CYCLE`). */
const DEPENDENCY_CYCLE = 'CAP004';

/**
 * The coded refusal (`CAP004`, a `CompositionError`) of `stack.addStackDependency(target)` that aws-cdk
 * refused as it was made (`DependencyCycle`: `target` depends on `stack` already), named as synth names a
 * cycle of objects: each stack on the cycle, and each dependency on it by the call that made it, with the
 * program's file and line; undefined for any other error, which stays as it is.
 */
export function stackCycleRefusal(error: unknown, stack: Stack, target: Stack): Error | undefined {
  if (!(error instanceof Error) || !/would create a cyclic reference/.test(error.message)) return undefined;
  const back = stackDependencyPath(target, stack);
  if (back === undefined) return undefined;
  const cycle = [stack, ...back.slice(0, -1)]; // back runs from target to stack
  const hops = cycle.map((from, i) => `${from.node.path} => ${cycle[(i + 1) % cycle.length].node.path}: ${origin(from, cycle[(i + 1) % cycle.length])}`);
  return constructionRefusal(
    DEPENDENCY_CYCLE,
    `dependency cycle: ${[...cycle, stack].map((s) => s.node.path).join(' => ')} (${hops.join('; ')}). Remove one of these dependencies (addDependency, or the reference that implies it).`,
    stack.node.path,
  );
}

/**
 * How `from` came to depend on `to`: the program's call with its site, or the reason aws-cdk gave its own; a
 * dependency aws-cdk added at synth for a `node.addDependency` between constructs of the two stacks (which
 * calls no `addStackDependency`) by that call, with its site.
 */
function origin(from: Stack, to: Stack): string {
  const call = stackDependencyCall(from, to);
  const made = `'${from.node.path}'.addDependency('${to.node.path}')`;
  if (!call) {
    const byNode = nodeDependencyBetween(from, to);
    return byNode ? `explicit ${explicitDependencyOrigin(byNode.source, byNode.target)}` : 'stack dependency';
  }
  if (call.byLibrary) return call.reason ?? 'stack dependency (aws-cdk)';
  return `explicit ${made}${call.site ? ` at ${call.site}` : ''}`;
}

/**
 * Runs `fn` (a stage's synth) with every stack's `addStackDependency` refusing a dependency that closes a cycle
 * as `stackCycleRefusal` names it: the ones aws-cdk adds during synth for a cross-stack reference go through it,
 * on a plain aws-cdk `Stack` of the capability too, whose own calls outside synth keep aws-cdk's error. So a
 * cycle a reference closes through a stack dependency that a `node.addDependency` made is one `CAP004` naming
 * the call by its file and line, not aws-cdk's words.
 */
export function refusingStackCycles<T>(fn: () => T): T {
  const proto = awsCdk().Stack.prototype as unknown as { addStackDependency: (this: Stack, target: Stack, reason?: string) => void };
  const original = proto.addStackDependency;
  proto.addStackDependency = function addStackDependency(this: Stack, target: Stack, reason?: string) {
    try {
      return original.call(this, target, reason);
    } catch (e) {
      throw stackCycleRefusal(e, this, target) ?? e;
    }
  };
  try {
    return fn();
  } finally {
    proto.addStackDependency = original;
  }
}
