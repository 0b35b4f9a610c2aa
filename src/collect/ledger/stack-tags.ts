import type { Stack } from 'aws-cdk-lib';
import type { LedgerBuilder, LedgerObject } from './field-ledger';
import { resolveTags } from './tag-writes';
import { declarationWriter, Writer } from './writer';
import type { HeldTag } from '../../private/upstream-state';
import { tagEventsOf } from '../../private/write-calls';

/** The field a stack's own tags are under, as CloudFormation's `CreateStack` names it. */
const STACK_TAGS = 'Tags';

/**
 * Records who writes a stack's own tags: the tags aws-cdk writes into the
 * cloud assembly for the CloudFormation stack (its `tags` prop and
 * `addStackTag` calls, then every Tag aspect that reaches the stack), which
 * CloudFormation applies to the stack and propagates to its resources.
 *
 * The stack's declarer writes the tags it declared; a Tag over one of them,
 * or two Tags of one key from one scope, both write the key (a conflict, as
 * for a resource's tags); a Tag over another scope's Tag is aws-cdk's own
 * layering, recorded as a handover. Free when no Tag reached the stack.
 *
 * @param declared the tags the stack held before any aspect ran (`declaredTags`)
 */
export function recordStackTagWrites(stack: Stack, declared: ReadonlyMap<string, HeldTag>, ledger: LedgerBuilder): void {
  const resolved = resolveTags(stack, declared, tagEventsOf(stack.tags));
  const label = `stack ${stack.node.path}`;
  for (const h of resolved.handovers) {
    ledger.handover({ object: label, kind: 'cfn', path: [STACK_TAGS, h.key], from: h.from, to: h.writer, reason: h.reason });
  }
  if (!resolved.contested) return;
  const object: LedgerObject = { key: `stack-tags|${stack.node.path}`, label, kind: 'cfn' };
  // named apart from a Tag added to the stack itself, whose path is the same
  const declarer: Writer = { ...declarationWriter(stack.node.path), method: 'stack tags' };
  for (const key of declared.keys()) ledger.record({ object, writer: declarer, path: [STACK_TAGS, key] });
  for (const t of resolved.writes) ledger.record({ object, writer: t.writer, path: [STACK_TAGS, t.key] });
}
