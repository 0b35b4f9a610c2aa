import { CfnResource, Stack } from 'aws-cdk-lib';
import { CompositionModel } from '../model/composition-model';
import { declarerOf } from '../model/declarer';

/** Two or more resources claiming one physical name. */
export interface PhysicalNameClash {
  /** What is claimed, for example `AWS::SSM::Parameter Name "/cdn/origin"`. */
  readonly claim: string;
  /** The claiming constructs' paths, in creation order. */
  readonly claimants: string[];
}

/**
 * Finds resources that claim one physical name: an SSM parameter name, a
 * Route53 record (zone, name, type, set identifier), or the explicit name
 * property of any type (`Name`, or `<Type>Name` such as `BucketName`). Only
 * literal names compare; names resolved at deploy time cannot be known here.
 * IAM names are global; all others are per account and region.
 *
 * @param templates each stack's synthesized template
 */
export function findPhysicalNameClashes(model: CompositionModel, templates: ReadonlyMap<Stack, any>): PhysicalNameClash[] {
  const claims = new Map<string, { claim: string; claimants: string[] }>();
  for (const c of model.constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const stack = Stack.of(c);
    const template = templates.get(stack);
    if (!template) continue;
    const logicalId = stack.resolve(c.logicalId);
    const props = template.Resources?.[logicalId]?.Properties;
    if (!props) continue;
    const name = physicalName(c.cfnResourceType, props);
    if (!name) continue;
    const scope = c.cfnResourceType.startsWith('AWS::IAM::') ? 'global' : stack.environment;
    const id = `${scope}|${c.cfnResourceType}|${name.key}`;
    const entry = claims.get(id) ?? { claim: `${c.cfnResourceType} ${name.describe}`, claimants: [] };
    entry.claimants.push(declarerOf(c).node.path);
    claims.set(id, entry);
  }
  return [...claims.values()].filter((c) => c.claimants.length > 1);
}

function physicalName(type: string, props: Record<string, unknown>): { key: string; describe: string } | undefined {
  if (type === 'AWS::Route53::RecordSet') {
    const parts = [props.HostedZoneId ?? props.HostedZoneName, props.Name, props.Type, props.SetIdentifier];
    if (!parts.slice(0, 3).every((p) => typeof p === 'string')) return undefined;
    const zone = String(parts[0]);
    return { key: JSON.stringify(parts), describe: `${props.Type} record "${props.Name}" in zone "${zone}"` };
  }
  const typeName = type.split('::')[2];
  for (const prop of [`${typeName}Name`, 'Name']) {
    const value = props[prop];
    if (typeof value === 'string') return { key: value, describe: `${prop} "${value}"` };
  }
  return undefined;
}
