import { Stack } from 'aws-cdk-lib';
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * The construct that declares a Kubernetes object or CloudFormation resource:
 * an L2 construct (cdk8s-plus, aws-cdk L2) keeps its object as the child
 * `Resource`, and is the declarer; otherwise the object itself.
 */
export function declarerOf(resource: IConstruct): IConstruct {
  const scope = resource.node.scope;
  const isContainer = scope && (Chart.isChart(scope) || Stack.isStack(scope));
  return resource.node.id === 'Resource' && scope && !isContainer ? scope : resource;
}
