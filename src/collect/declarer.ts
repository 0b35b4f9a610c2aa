import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { isStack } from '../private/aws-cdk';

/**
 * The construct that declares a Kubernetes object or CloudFormation resource:
 * an L2 construct (cdk8s-plus, aws-cdk L2) keeps its object as the child
 * `Resource`, and is the declarer; otherwise the object itself.
 */
export function declarerOf(resource: IConstruct): IConstruct {
  const scope = resource.node.scope;
  const isContainer = scope && (Chart.isChart(scope) || isStack(scope));
  return resource.node.id === 'Resource' && scope && !isContainer ? scope : resource;
}
