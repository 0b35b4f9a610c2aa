import { CfnResource, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { LedgerBuilder, LedgerObject } from './field-ledger';
import { FieldPath } from './field-path';
import { leavesOf } from './leaves';
import { callWriter, contributionWriter, declarationWriter, Writer } from './writer';
import { existingOverrides, OverrideCall, overrideRecord } from '../../private/override-tracking';
import { declaredPropertiesOf, rawOverridesOf } from '../../private/upstream-state';
import { declarerOf } from '../declarer';
import { DEDUCED } from '../topology/field-topology';

/** CloudFormation properties: maps per key, lists replaced whole (deduced, like a custom resource without a schema). */
const CFN_PROPERTIES = DEDUCED;

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/**
 * Records the writes to CloudFormation resource properties that can collide:
 * for every resource with property overrides, the declared properties (by the
 * L2 or L1 that declared it, aspects such as `Tags.of` applied), each escape
 * hatch override (one writer per resource, named after it, deletions
 * included), and each contribution. Lists are atomic, as CloudFormation
 * replaces them whole. Run it after the stacks are synthesized, so aspects
 * have run.
 */
export function recordCloudFormationWrites(constructs: readonly IConstruct[], ledger: LedgerBuilder): void {
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const tracked = overrideRecord(c);
    const user = (tracked?.user ?? existingOverrides(rawOverridesOf(c))).filter(isProperty);
    const contributions = [...(tracked?.contributions ?? [])].map(([writer, calls]) => [writer, calls.filter(isProperty)] as const);
    if (user.length === 0 && contributions.every(([, calls]) => calls.length === 0)) continue;

    const object: LedgerObject = { key: `cfn|${c.node.path}`, label: `${c.cfnResourceType} ${c.node.path}`, kind: 'cfn' };
    const record = (writer: Writer) => (path: FieldPath) => ledger.record({ object, writer, path });
    leavesOf(declaredPropertiesOf(c), CFN_PROPERTIES, [], opaque).forEach(record(declarationWriter(declarerOf(c).node.path)));
    user.flatMap(callLeaves).forEach(record(callWriter('override', c.node.path)));
    for (const [writer, calls] of contributions) calls.flatMap(callLeaves).forEach(record(contributionWriter(writer)));
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
