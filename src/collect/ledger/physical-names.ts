import { CfnElement, CfnResource, Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { declarerOf } from '../declarer';
import type { PhysicalNameFact } from '../facts';
import { LogicalIds } from '../logical-ids';

/** Where a physical name must be unique. */
type Scope = 'global' | 'partition' | 'region';

/**
 * Resource types whose explicit name property must be unique in an account
 * and region (or wider): the one table to extend. Names unique only inside a
 * parent (an API Gateway stage, a Lambda alias, an ECS service) are not here.
 */
export const PHYSICAL_NAMES: Record<string, { readonly property: string; readonly scope: Scope }> = {
  'AWS::SSM::Parameter': { property: 'Name', scope: 'region' },
  'AWS::S3::Bucket': { property: 'BucketName', scope: 'global' },
  'AWS::IAM::Role': { property: 'RoleName', scope: 'partition' },
  'AWS::IAM::ManagedPolicy': { property: 'ManagedPolicyName', scope: 'partition' },
  'AWS::IAM::User': { property: 'UserName', scope: 'partition' },
  'AWS::IAM::Group': { property: 'GroupName', scope: 'partition' },
  'AWS::Lambda::Function': { property: 'FunctionName', scope: 'region' },
  'AWS::DynamoDB::Table': { property: 'TableName', scope: 'region' },
  'AWS::SQS::Queue': { property: 'QueueName', scope: 'region' },
  'AWS::SNS::Topic': { property: 'TopicName', scope: 'region' },
  'AWS::Logs::LogGroup': { property: 'LogGroupName', scope: 'region' },
  'AWS::ECR::Repository': { property: 'RepositoryName', scope: 'region' },
  'AWS::SecretsManager::Secret': { property: 'Name', scope: 'region' },
  'AWS::KMS::Alias': { property: 'AliasName', scope: 'region' },
  'AWS::StepFunctions::StateMachine': { property: 'StateMachineName', scope: 'region' },
  'AWS::ECS::Cluster': { property: 'ClusterName', scope: 'region' },
  'AWS::EKS::Cluster': { property: 'Name', scope: 'region' },
  'AWS::CloudWatch::Alarm': { property: 'AlarmName', scope: 'region' },
  'AWS::CloudFront::Function': { property: 'Name', scope: 'global' },
};

/**
 * Every resource's claim on a physical name: an SSM parameter name, a Route53
 * record (zone, name, type, set identifier), or the explicit name of a type in
 * `PHYSICAL_NAMES`; and every Output's claim on its export name, unique in an
 * account and region. Only names known at synth are claims; a zone given by
 * reference is compared within its stack.
 *
 * @param templates each stack's synthesized template
 * @param logicalIds where each resource's stack and logical id are read (collect's, which reads them again)
 */
export function collectPhysicalNames(
  constructs: readonly IConstruct[],
  templates: ReadonlyMap<Stack, any>,
  logicalIds: LogicalIds = new LogicalIds(),
): PhysicalNameFact[] {
  const claims: PhysicalNameFact[] = [];
  for (const c of constructs) {
    if (CfnElement.isCfnElement(c) && !CfnResource.isCfnResource(c)) {
      const exported = exportClaim(c, templates);
      if (exported) claims.push(exported);
      continue;
    }
    if (!CfnResource.isCfnResource(c)) continue;
    const { stack, logicalId } = logicalIds.of(c);
    const props = templates.get(stack)?.Resources?.[logicalId]?.Properties;
    const name = props && physicalName(c.cfnResourceType, props, stack);
    if (!name) continue;
    claims.push({ key: `${c.cfnResourceType}|${name.key}`, claim: `${c.cfnResourceType} ${name.describe}`, claimant: declarerOf(c).node.path });
  }
  return claims;
}

/** An Output's claim on its export name (`Export.Name` in its stack's template), when the name is known at synth. */
function exportClaim(output: CfnElement, templates: ReadonlyMap<Stack, any>): PhysicalNameFact | undefined {
  const stack = output.stack;
  const name = templates.get(stack)?.Outputs?.[stack.resolve(output.logicalId)]?.Export?.Name;
  if (typeof name !== 'string') return undefined;
  return { key: `Output|${stack.environment}|${name}`, claim: `Output Export.Name "${name}"`, claimant: declarerOf(output).node.path };
}

function physicalName(type: string, props: Record<string, unknown>, stack: Stack): { key: string; describe: string } | undefined {
  if (type === 'AWS::Route53::RecordSet') {
    const zone = props.HostedZoneId ?? props.HostedZoneName;
    if (zone === undefined || typeof props.Name !== 'string' || typeof props.Type !== 'string') return undefined;
    // A zone given by reference ({ Ref }) is only comparable inside its stack.
    const zoneKey = typeof zone === 'string' ? zone : `${stack.node.path}|${JSON.stringify(zone)}`;
    const zoneText = typeof zone === 'string' ? `"${zone}"` : JSON.stringify(zone);
    return { key: JSON.stringify([zoneKey, props.Name, props.Type, props.SetIdentifier ?? null]), describe: `${props.Type} record "${props.Name}" in zone ${zoneText}` };
  }
  const rule = PHYSICAL_NAMES[type];
  const value = rule && props[rule.property];
  if (typeof value !== 'string') return undefined;
  const where = rule.scope === 'global' ? 'global' : rule.scope === 'partition' ? `${stack.account}` : stack.environment;
  return { key: `${where}|${value}`, describe: `${rule.property} "${value}"` };
}
