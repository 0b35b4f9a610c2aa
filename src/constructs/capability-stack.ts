import { Stack, StackProps } from 'aws-cdk-lib';
import { Capability } from './capability';
import { recordSelfDependency } from '../private/self-dependency';

/**
 * What `SharedBase` and `DeploymentAggregate` share: an aws-cdk `Stack` inside
 * a capability that refuses to depend on itself (aws-cdk silently drops
 * `stack.addStackDependency(stack)`; synth reports it as `CAP004`).
 */
export abstract class CapabilityStack extends Stack {
  /** The capability this stack belongs to. */
  public readonly capability: Capability;

  /**
   * @param scope the capability
   * @param id the construct id; the stack is named `<capability>-<id>` unless `stackName` is given
   * @param props stack options
   */
  protected constructor(scope: Capability, id: string, props: StackProps) {
    super(scope, id, props);
    this.capability = Capability.of(this);
  }

  /**
   * Makes this stack deploy after `target`. A dependency on itself is recorded
   * and refused at synth with `CAP004`, never dropped.
   */
  public addStackDependency(target: Stack, reason?: string): void {
    if (target === this) recordSelfDependency(this);
    else super.addStackDependency(target, reason);
  }

  /**
   * @deprecated Use `addStackDependency`.
   */
  public addDependency(target: Stack, reason?: string): void {
    this.addStackDependency(target, reason);
  }
}
