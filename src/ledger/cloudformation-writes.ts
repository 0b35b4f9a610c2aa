import { CfnResource, Stack, Tokenization } from 'aws-cdk-lib';
import { Contribution } from '../constructs/contribution';
import { CompositionModel } from '../model/composition-model';
import { declarerOf } from '../model/declarer';
import { FieldLedger } from './field-ledger';
import { FieldPath, pathKey } from './field-path';
import { leavesOf } from './leaves';
import { OwnershipRules } from './ownership-rules';

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/**
 * Records the writes to CloudFormation resource properties that can collide:
 * for every resource with property overrides or contributions, the declared
 * properties (by the L2 or L1 that declared it), each override (attributed as
 * `<path> (addPropertyOverride)`), and each contribution. Lists are atomic,
 * as CloudFormation replaces them whole.
 */
export function recordCloudFormationWrites(model: CompositionModel, ledger: FieldLedger): void {
  const contributions = new Map<CfnResource, Contribution[]>();
  for (const c of model.constructs) {
    if (Contribution.isContribution(c) && c.cfnResource) {
      contributions.set(c.cfnResource, [...(contributions.get(c.cfnResource) ?? []), c]);
    }
  }
  for (const c of model.constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const overrides = ((c as any).rawOverrides ?? {}).Properties;
    const mine = contributions.get(c) ?? [];
    if (overrides === undefined && mine.length === 0) continue;
    recordResource(c, overrides ?? {}, mine, ledger);
  }
}

function recordResource(resource: CfnResource, overrides: object, contributions: Contribution[], ledger: FieldLedger): void {
  const key = `cfn|${resource.node.path}`;
  const label = `${resource.cfnResourceType} ${resource.node.path}`;
  const record = (writer: string) => (path: FieldPath) => ledger.record(writer, key, label, path);

  const stack = Stack.of(resource);
  const declared = (resource as any).renderProperties(stack.resolve((resource as any).cfnProperties));
  leavesOf(declared, OwnershipRules.NONE, [], opaque).forEach(record(declarerOf(resource).node.path));

  const contributed = new Set<string>();
  for (const c of contributions) {
    const leaves = leavesOf(stack.resolve(c.fields), OwnershipRules.NONE, [], opaque);
    leaves.forEach((l) => contributed.add(pathKey(l)));
    leaves.forEach(record(c.node.path));
  }
  leavesOf(stack.resolve(overrides), OwnershipRules.NONE, [], opaque)
    .filter((l) => !contributed.has(pathKey(l)))
    .forEach(record(`${resource.node.path} (addPropertyOverride)`));
}
