import { StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { CapabilityStack, STACK_PROPS } from './capability-stack';
import { brand, hasBrand } from '../private/brand';
import { propsObject, refuseUnknownKeys } from '../private/invalid-input';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

/** Properties of a `DeploymentAggregate`. */
export interface DeploymentAggregateProps extends StackProps {
  /**
   * The tenant this aggregate deploys.
   *
   * @default - the construct id
   */
  readonly tenant?: string;
}

/** The props `DeploymentAggregate` takes: its own and aws-cdk's `StackProps` (the compiler holds the list to both). */
const AGGREGATE_PROPS = [...keysOf<Omit<DeploymentAggregateProps, keyof StackProps>>({ tenant: true }), ...STACK_PROPS];

/**
 * The deployment-time resources of one tenant (for a CDN, its certificate, DNS
 * record and alternate domain).
 *
 * An aws-cdk `Stack`, deployed after its capability's `SharedBase`: synth adds
 * that stack dependency to the cloud assembly, so `cdk deploy --all` honours it.
 *
 * @example
 * for (const tenant of ['acme', 'globex']) {
 *   new DeploymentAggregate(cdn, tenant);
 * }
 */
export class DeploymentAggregate extends CapabilityStack {
  /** True when `x` is a `DeploymentAggregate`, also across duplicate installs of this package. */
  public static isDeploymentAggregate(x: unknown): x is DeploymentAggregate {
    return hasBrand(x, 'DeploymentAggregate');
  }

  /** The tenant this aggregate deploys. */
  public readonly tenant: string;

  /**
   * @param scope the capability, or any construct inside one (checked at construction: `CAP015` otherwise)
   * @param id the construct id, by default also the tenant
   * @param props stack options and the tenant
   */
  constructor(scope: Construct, id: string, props: DeploymentAggregateProps = {}) {
    super(scope, id, props, 'DeploymentAggregate');
    // aws-cdk adds stack props across versions: one it does not know passes, unless it misspells one it knows
    refuseUnknownKeys(`DeploymentAggregate '${this.node.path}' props`, props, AGGREGATE_PROPS, this.node.path, true);
    brand(this, 'DeploymentAggregate');
    const tenant: unknown = propsObject(props).tenant;
    this.tenant = (tenant as string | undefined) ?? id;
    if (tenant !== undefined && (typeof tenant !== 'string' || tenant === '')) {
      this.node.addValidation(ownValidation({ validate: () => [`'tenant' (${valueText(tenant)}) must be the tenant's name, a string that is not empty`] }));
    }
  }
}
