import { CfnResource, Stack, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { LedgerBuilder } from './field-ledger';
import { FieldPath } from './field-path';
import { leavesOf } from './leaves';
import { existingOverrides, OverrideCall, overrideRecord } from '../../private/override-tracking';
import { declarerOf } from '../declarer';
import { DEDUCED } from '../topology/field-topology';

/** CloudFormation properties: maps per key, lists replaced whole (deduced, like a custom resource without a schema). */
const CFN_PROPERTIES = DEDUCED;

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/**
 * Records the writes to CloudFormation resource properties that can collide:
 * for every resource with property overrides, the declared properties (by the
 * L2 or L1 that declared it, aspects such as `Tags.of` applied), each escape
 * hatch override (attributed as `<path> (addPropertyOverride)`, deletions
 * included), and each contribution. Lists are atomic, as CloudFormation
 * replaces them whole. Run it after the stacks are synthesized, so aspects
 * have run.
 */
export function recordCloudFormationWrites(constructs: readonly IConstruct[], ledger: LedgerBuilder): void {
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const tracked = overrideRecord(c);
    const user = (tracked?.user ?? existingOverrides((c as any).rawOverrides ?? {})).filter(isProperty);
    const contributions = [...(tracked?.contributions ?? [])].map(([writer, calls]) => [writer, calls.filter(isProperty)] as const);
    if (user.length === 0 && contributions.every(([, calls]) => calls.length === 0)) continue;

    const key = `cfn|${c.node.path}`;
    const label = `${c.cfnResourceType} ${c.node.path}`;
    const record = (writer: string) => (path: FieldPath) => ledger.record(writer, key, label, 'cfn', path);
    const declared = (c as any).renderProperties(Stack.of(c).resolve((c as any).cfnProperties));
    leavesOf(declared, CFN_PROPERTIES, [], opaque).forEach(record(declarerOf(c).node.path));
    user.flatMap(callLeaves).forEach(record(`${c.node.path} (addPropertyOverride)`));
    for (const [writer, calls] of contributions) calls.flatMap(callLeaves).forEach(record(writer));
  }
}

function isProperty(call: OverrideCall): boolean {
  return call.path[0] === 'Properties' && call.path.length > 1;
}

/** The property leaves one override writes; a deletion writes its path. */
function callLeaves(call: OverrideCall): FieldPath[] {
  const at = call.path.slice(1);
  return call.value === undefined ? [at] : leavesOf(call.value, CFN_PROPERTIES, at, opaque);
}
