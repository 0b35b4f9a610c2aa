import { CfnResource } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { brand, hasBrand } from '../private/brand';
import { asContribution } from '../private/override-tracking';

/** Properties of a `Contribution`. */
export interface ContributionProps {
  /**
   * The object to write into: a cdk8s `ApiObject`, a construct that owns one as
   * its default child (a cdk8s-plus construct), or an aws-cdk `CfnResource`
   * (or an L2 construct whose default child is one).
   */
  readonly target: IConstruct;

  /**
   * The fields to write, as a partial manifest (Kubernetes: `{ spec: { timers: ... } }`)
   * or partial CloudFormation properties (`{ Tags: [...] }`).
   *
   * Keyed lists merge by key (containers and env by `name`, ...), maps per key.
   */
  readonly fields: Record<string, unknown>;
}

/**
 * Writes fields into an object declared by another construct, with the writer
 * recorded in the field ledger: the synth-time analogue of a server-side apply
 * field manager.
 *
 * Contributions of disjoint fields merge into the one emitted object; two
 * writers of one field (the declarer included) are refused with `CAP002`.
 *
 * @example
 * // the network team declares the object ...
 * const deployment = new ApiObject(chart, 'App', { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment',
 *   metadata: { name: 'app1' }, spec: { applicationId: 'app1' } });
 * // ... and the deployment team contributes its own fields
 * new Contribution(deploymentTeam, 'Timers', { target: deployment, fields: { spec: { timers: { rollout: '5m' } } } });
 */
export class Contribution extends Construct {
  /** True when `x` is a `Contribution`, also across duplicate installs of this package. */
  public static isContribution(x: unknown): x is Contribution {
    return hasBrand(x, 'Contribution');
  }

  /** The Kubernetes object written to, when the target is one. */
  public readonly apiObject?: ApiObject;

  /** The CloudFormation resource written to, when the target is one. */
  public readonly cfnResource?: CfnResource;

  /** The fields written. */
  public readonly fields: Record<string, unknown>;

  /**
   * @param scope the writer: the contribution's path names it in the ledger
   * @param id the construct id
   * @param props the target and the fields
   * @throws when the target is neither a Kubernetes object nor a CloudFormation resource
   */
  constructor(scope: Construct, id: string, props: ContributionProps) {
    super(scope, id);
    brand(this, 'Contribution');
    this.fields = props.fields;
    const target = resolveTarget(props.target);
    if (!target) {
      throw new Error(
        `Contribution '${this.node.path}': 'target' ('${props.target.node.path}') must be an ApiObject, a construct with one as its default child, or a CfnResource`,
      );
    }
    if (ApiObject.isApiObject(target)) {
      this.apiObject = target;
    } else {
      this.cfnResource = target;
      asContribution(target, this.node.path, () => {
        for (const [key, value] of Object.entries(props.fields)) target.addPropertyOverride(key, value);
      });
    }
  }
}

function resolveTarget(target: IConstruct): ApiObject | CfnResource | undefined {
  for (let c: IConstruct | undefined = target; c; c = c.node.defaultChild) {
    if (ApiObject.isApiObject(c) || CfnResource.isCfnResource(c)) return c;
  }
  return undefined;
}
