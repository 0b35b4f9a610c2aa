import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';

/**
 * The `ApiObject` a target names: the target itself, or the first along its
 * chain of default children (a cdk8s-plus `Deployment`'s `Resource`);
 * undefined when it is not a construct or has none.
 */
export function apiObjectOf(target: unknown): ApiObject | undefined {
  if (!Construct.isConstruct(target)) return undefined;
  for (let c: IConstruct | undefined = target; c; c = c.node.defaultChild) {
    if (ApiObject.isApiObject(c)) return c;
  }
  return undefined;
}
