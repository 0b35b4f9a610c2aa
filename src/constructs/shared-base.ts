import { StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { CapabilityStack, STACK_PROPS } from './capability-stack';
import { brand, hasBrand } from '../private/brand';
import { refuseUnknownKeys } from '../private/invalid-input';

/** Properties of a `SharedBase`. */
export interface SharedBaseProps extends StackProps {}

/**
 * The deployment-time base of a capability: what every tenant shares (for a
 * CDN, the distribution, its cache policy and edge function).
 *
 * An aws-cdk `Stack`. Every `DeploymentAggregate` of the same capability is
 * deployed after it, and the capability's runtime after both. One per
 * capability.
 *
 * @example
 * const base = new SharedBase(cdn, 'Base');
 * new ssm.StringParameter(base, 'Origin', { stringValue: 'origin.example.com' });
 */
export class SharedBase extends CapabilityStack {
  /** True when `x` is a `SharedBase`, also across duplicate installs of this package. */
  public static isSharedBase(x: unknown): x is SharedBase {
    return hasBrand(x, 'SharedBase');
  }

  /**
   * @param scope the capability, or any construct inside one (checked at construction: `CAP015` otherwise)
   * @param id the construct id; the stack is named `<capability>-<id>` unless `stackName` is given
   * @param props stack options
   */
  constructor(scope: Construct, id: string, props: SharedBaseProps = {}) {
    super(scope, id, props, 'SharedBase');
    // aws-cdk adds stack props across versions: one it does not know passes, unless it misspells one it knows
    refuseUnknownKeys(`SharedBase '${this.node.path}' props`, props, STACK_PROPS, this.node.path, true);
    brand(this, 'SharedBase');
  }
}
