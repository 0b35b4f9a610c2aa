import { IConstruct } from 'constructs';

const selfDependent = new WeakSet<IConstruct>();

/**
 * Records that a construct was made to depend on itself. aws-cdk silently
 * drops `stack.addStackDependency(stack)`; our stacks record it here so synth
 * refuses it with `CAP004` instead.
 */
export function recordSelfDependency(construct: IConstruct): void {
  selfDependent.add(construct);
}

/** True when `construct` was made to depend on itself. */
export function isSelfDependent(construct: IConstruct): boolean {
  return selfDependent.has(construct);
}
