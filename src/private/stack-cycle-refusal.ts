import type { Stack } from 'aws-cdk-lib';
import { awsCdk } from './aws-cdk';
import { explicitDependencyOrigin, nodeDependencyBetween, packageStackDependency, stackDependencyCall } from './dependency-calls';
import { constructionRefusal } from './misplaced';
import { referenceReaders } from './reference-readers';
import { stackDependencyPath } from './stack-dependency-path';

/** The code of a dependency cycle (`ViolationCode.DEPENDENCY_CYCLE`). */
export const DEPENDENCY_CYCLE = 'CAP004';

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
  const next = (i: number) => cycle[(i + 1) % cycle.length];
  const hops = cycle.map((from, i) => `${from.node.path} => ${next(i).node.path}: ${origin(from, next(i))}`);
  // a dependency this package made (a tenant aggregate's on its shared base) cannot be removed: the fix is the one being added
  const fix = cycle.some((from, i) => packageStackDependency(from, next(i)) !== undefined)
    ? referenceFix(stack, target)
    : 'Remove one of these dependencies (addDependency, or the reference that implies it).';
  return constructionRefusal(
    DEPENDENCY_CYCLE,
    `dependency cycle: ${[...cycle, stack].map((s) => s.node.path).join(' => ')} (${hops.join('; ')}). ${fix}`,
    stack.node.path,
  );
}

/**
 * How to remove the dependency of `stack` on `target` that closes a cycle
 * through this package's own order (a tenant aggregate after its shared base):
 * the elements of `stack` that read attributes of `target`'s resources, and
 * for a policy (what a `grant*` of a resource to a principal writes) how to
 * make the grant in the stack of the resource instead.
 */
function referenceFix(stack: Stack, target: Stack): string {
  const readers = referenceReaders(stack, target);
  if (readers.length === 0) return `Remove the dependency of '${stack.node.path}' on '${target.node.path}' (the reference or addDependency that implies it).`;
  const named = readers.map((r) => `'${r.reader.node.path}' reads ${r.reads}`).join(', ');
  const grant = readers.some((r) => (r.reader as { cfnResourceType?: string }).cfnResourceType === 'AWS::IAM::Policy');
  const how = grant
    ? `a grant wrote it (a grant* method of a resource of '${target.node.path}' to a principal of '${stack.node.path}' adds its statement to the principal's policy, in '${stack.node.path}'). `
      + `Grant to the principal as seen from '${target.node.path}' instead (iam.Role.fromRoleArn(<a construct of '${target.node.path}'>, id, role.roleArn)), so the policy and the reference are in '${target.node.path}'.`
    : `'${stack.node.path}' deploys before '${target.node.path}', so it cannot read its values: move the reader into '${target.node.path}', or have '${target.node.path}' read from '${stack.node.path}' instead.`;
  return `Remove the ${readers.length === 1 ? 'reference' : 'references'} of '${stack.node.path}' to '${target.node.path}' (${named}): ${how}`;
}

/**
 * How `from` came to depend on `to`: the program's call with its site, or the reason aws-cdk gave its own; a
 * dependency aws-cdk added at synth for a `node.addDependency` between constructs of the two stacks (which
 * calls no `addStackDependency`) by that call, with its site.
 */
function origin(from: Stack, to: Stack): string {
  const call = stackDependencyCall(from, to);
  const own = packageStackDependency(from, to);
  if (own) {
    // this package's order, by its rule; with the reference that makes it too, when there is one
    const rule = own.reason ?? 'stack dependency (cdk-capability)';
    return call?.byLibrary && call.reason !== undefined ? `${rule}, ${call.reason}` : rule;
  }
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
