import { CfnResource, TagManager, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { changedLeaves } from './changed-leaves';
import { cloudFormationDocOf, tagPropertyOf } from './cloudformation-doc';
import { EscapeHatchWrite, EscapeHatchWrites } from './escape-hatch-writes';
import { LedgerBuilder, LedgerObject } from './field-ledger';
import { FieldPath } from './field-path';
import { leavesOf, OwnedLeaf, ownedLeaves } from './leaves';
import { deltaLeaves } from './render-delta';
import { ReplacedWrites } from './replaced-writes';
import { ResolvedTags, resolveTags, TagHandover } from './tag-writes';
import type { CallbackRun } from './write-callbacks';
import { callWriter, contributionWriter, declarationWriter, Writer } from './writer';
import { appendTo } from '../../private/append';
import { HeldTag, heldTagsOf, rawOverridesOf } from '../../private/upstream-state';
import { anyTagCalls, OverrideCall, overrideCallsOf, tagEventsOf } from '../../private/write-calls';
import { declarerOf } from '../declarer';
import type { HandoverFact, OverrideFact } from '../facts';
import { DEDUCED } from '../topology/field-topology';
import { valueAt } from '../topology/list-topology';

/** CloudFormation properties: maps per key, lists replaced whole (deduced, like a custom resource without a schema). */
const CFN_PROPERTIES = DEDUCED;

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/** The tags each taggable resource's declarer set (its props, `setTag` by its own code), before any Tag aspect ran. */
export type DeclaredTags = ReadonlyMap<CfnResource, ReadonlyMap<string, HeldTag>>;

const snapshots = new WeakMap<CfnResource, ReadonlyMap<string, HeldTag>>();

/**
 * The tags of every taggable resource as its declarer set them. Call it
 * before the stacks are synthesized, when no Tag aspect has run; a later
 * synth reuses the first one's. Empty, and free, when no `Tags.of` call was made.
 */
export function declaredTags(constructs: readonly IConstruct[]): DeclaredTags {
  const tags = new Map<CfnResource, ReadonlyMap<string, HeldTag>>();
  if (!anyTagCalls()) return tags;
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const manager = TagManager.of(c);
    if (!manager) continue;
    let held = snapshots.get(c);
    if (!held) {
      held = heldTagsOf(manager);
      snapshots.set(c, held);
    }
    tags.set(c, held);
  }
  return tags;
}

/**
 * Records the writes to CloudFormation resource properties that can collide.
 * For every resource with an override, a Contribution, a write callback or
 * tags from more than one writer:
 *
 * - the declarer writes the properties its declaration renders (L2 and L1
 *   props, its own `setTag` calls, aspects other than Tags), each tag key a leaf;
 * - each override call is its own writer (a Contribution's when made inside
 *   one, the declarer's when its L2 made it); a plain override of a leaf the
 *   declaration rendered is the declarer's escape hatch (recorded for the plan,
 *   the declarer's write of it gives way);
 * - each write callback writes the leaves its run changed;
 * - each tag key is written by the Tag that set it (`resolveTags`): a Tag
 *   over a declared tag, or two Tags of one key from one scope, both write
 *   it; aws-cdk's own layering is a handover.
 *
 * Lists are atomic, as CloudFormation replaces them whole. Run it after the
 * stacks are synthesized, so aspects have run.
 *
 * @param callbacks the write callbacks that ran, in the order they ran
 * @param tags the tags the declarers set, from `declaredTags` before synthesis
 */
export function recordCloudFormationWrites(
  constructs: readonly IConstruct[],
  ledger: LedgerBuilder,
  callbacks: readonly CallbackRun[] = [],
  tags: DeclaredTags = new Map(),
): void {
  const runsOf = new Map<CfnResource, CallbackRun[]>();
  for (const run of callbacks) if (CfnResource.isCfnResource(run.target)) appendTo(runsOf, run.target, run);
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    const all = overrideCalls(c);
    recordAttributeWrites(c, all.filter(isAttributeCall), ledger);
    const calls = all.filter(isPropertyCall);
    const runs = runsOf.get(c) ?? [];
    const tagProperty = tagPropertyOf(c);
    const declared = tags.get(c);
    const tagWrites = tagProperty !== undefined && declared ? resolveTags(c, declared, tagEventsOf(TagManager.of(c)!)) : undefined;
    if (calls.length === 0 && runs.length === 0 && !tagWrites?.contested) {
      for (const h of tagWrites?.handovers ?? []) ledger.handover(tagHandover(c, tagProperty!, h));
      continue;
    }
    recordResource(c, { ledger, calls, runs, tagProperty, declared, tagWrites });
  }
}

interface ResourceWrites {
  readonly ledger: LedgerBuilder;
  readonly calls: readonly OverrideCall[];
  readonly runs: readonly CallbackRun[];
  readonly tagProperty?: string;
  readonly declared?: ReadonlyMap<string, HeldTag>;
  readonly tagWrites?: ResolvedTags;
}

function recordResource(c: CfnResource, w: ResourceWrites): void {
  const object: LedgerObject = { key: `cfn|${c.node.path}`, label: labelOf(c), kind: 'cfn' };
  const record = (writer: Writer, leaf: OwnedLeaf) => w.ledger.record({ object, writer, path: leaf.path, presence: leaf.presence });
  const declarer = declarationWriter(declarerOf(c).node.path);
  const declaredTagValues = w.declared ? Object.fromEntries([...w.declared].map(([k, t]) => [k, t.value])) : undefined;
  const doc = cloudFormationDocOf(c, declaredTagValues);
  const declaredLeaves = w.runs.length === 0
    ? ownedLeaves(doc, CFN_PROPERTIES, [], opaque)
    : [...ownedLeaves(w.runs[0].before, CFN_PROPERTIES, [], opaque), ...changedLeaves(w.runs[w.runs.length - 1].after, doc, CFN_PROPERTIES, opaque)];
  const writes: Array<[Writer, OwnedLeaf, EscapeHatchWrite?]> = [];
  for (const run of w.runs) {
    const writer = contributionWriter(run.writer, 'contribution-write');
    for (const leaf of deltaLeaves(run.changes, CFN_PROPERTIES, opaque)) writes.push([writer, leaf]);
  }
  for (const t of w.tagWrites?.writes ?? []) writes.push([t.writer, { path: [w.tagProperty!, t.key] }]);
  for (const h of w.tagWrites?.handovers ?? []) w.ledger.handover(tagHandover(c, w.tagProperty!, h));

  const hatches = new EscapeHatchWrites(declaredLeaves);
  const writerOf = overrideWriters(c.node.path, declarer);
  const override = (fact: Omit<OverrideFact, 'object' | 'kind' | 'declarer'>) => w.ledger.override({ object: object.label, kind: 'cfn', declarer, ...fact });
  const replaced = new ReplacedWrites();
  for (const call of w.calls) {
    const writer = writerOf(call);
    const plain = writer.kind === 'override';
    const deletes = call.value === undefined;
    const at = call.path.slice(1);
    const leaves = callLeaves(call);
    if (!deletes) for (const path of replaced.by(writer, at, leaves, plain ? declarer : undefined)) writes.push([writer, { path }]);
    for (const path of leaves) {
      if (plain && deletes) {
        for (const earlier of hatches.removeUnder(writer, path)) {
          override({ path: earlier.path, writer, replaces: earlier.writer, rendered: earlier.value() });
        }
      }
      const value = () => valueAt(call.value, path.slice(at.length), CFN_PROPERTIES);
      const hatch: EscapeHatchWrite | undefined = plain && !deletes ? { writer, path, value } : undefined;
      if (hatch) hatches.note(hatch);
      writes.push([writer, { path }, hatch]);
      if (!plain || !hatches.overDeclared(path, deletes)) continue;
      const rendered = valueAt(doc, path, CFN_PROPERTIES);
      const patched = deletes ? undefined : value();
      override({ path, writer, ...(rendered !== undefined ? { rendered } : {}), ...(patched !== undefined ? { patched } : {}) });
    }
  }
  for (const leaf of declaredLeaves) if (!hatches.givesWay(leaf.path)) record(declarer, leaf);
  for (const [writer, leaf, hatch] of writes) if (!hatch?.removed) record(writer, leaf);
}

/**
 * Who made each override call on a resource: the Contribution it was made in,
 * the declarer when its own L2 made it, else the plain call (numbered in call
 * order). Overrides no call was recorded for are one writer.
 */
function overrideWriters(resourcePath: string, declarer: Writer): (call: OverrideCall) => Writer {
  const plain = new Map<object, Writer>();
  return ({ call }) => {
    if (call.attribution) return contributionWriter(call.attribution.path, call.attribution.kind);
    if (call.byLibrary) return declarer;
    if (call.api === '(unrecorded)') return callWriter('override', resourcePath);
    let writer = plain.get(call);
    if (!writer) {
      writer = callWriter('override', resourcePath, { call: plain.size + 1, site: call.site, method: call.api });
      plain.set(call, writer);
    }
    return writer;
  };
}

/** The override calls of a resource, as recorded, or read off its raw overrides when none were recorded. */
function overrideCalls(c: CfnResource): readonly OverrideCall[] {
  return overrideCallsOf(c) ?? existingOverrides(rawOverridesOf(c)).map((o) => ({ ...o, call: UNRECORDED }));
}

/** An override of the resource's properties: below `Properties`, or `Properties` given whole (its deletion writes no leaf). */
function isPropertyCall(call: OverrideCall): boolean {
  return call.path[0] === 'Properties' && (call.path.length > 1 || call.value !== undefined);
}

/** An override of a resource attribute (`DeletionPolicy`, `Metadata.*`, `Condition`, `DependsOn`, ...) by the program, not by the declarer's L2. */
function isAttributeCall(call: OverrideCall): boolean {
  return call.path[0] !== 'Properties' && !call.call.byLibrary;
}

/**
 * Records the overrides of a resource's attributes outside `Properties`
 * (`addOverride('DeletionPolicy', ...)`, `addOverride('Metadata.Owner', ...)`)
 * when more than one call makes them, as writes to the resource's attributes,
 * an object of their own in the ledger (an attribute and a property may share
 * a name: `Condition`). Each call is a writer as for properties; what the
 * declarer's L2 sets (its removal policy) is the declarer's, not recorded, so
 * a plain override of it stays an escape hatch. Two calls of one leaf, or a
 * call that replaces what another call wrote below it, are then `CAP002`.
 */
function recordAttributeWrites(c: CfnResource, calls: readonly OverrideCall[], ledger: LedgerBuilder): void {
  if (calls.length < 2) return;
  const object: LedgerObject = { key: `cfn-attributes|${c.node.path}`, label: `${labelOf(c)} (resource attributes)`, kind: 'cfn' };
  const declarer = declarationWriter(declarerOf(c).node.path);
  const writerOf = overrideWriters(c.node.path, declarer);
  const replaced = new ReplacedWrites();
  for (const call of calls) {
    const writer = writerOf(call);
    const leaves = call.value === undefined ? [call.path] : leavesOf(call.value, CFN_PROPERTIES, call.path, opaque);
    const mayReplace = writer.kind === 'override' ? declarer : undefined;
    if (call.value !== undefined) for (const path of replaced.by(writer, call.path, leaves, mayReplace)) ledger.record({ object, writer, path });
    for (const path of leaves) ledger.record({ object, writer, path });
  }
}

const UNRECORDED = { api: '(unrecorded)', byLibrary: false, site: undefined };

/**
 * The overrides already in `raw`, as calls: one per leaf, deletions
 * (undefined) included, in the order of the keys. Walked with a stack of its
 * own, so no size or depth of overrides can overflow the call stack.
 */
export function existingOverrides(raw: Record<string, unknown>): Array<{ path: string[]; value: unknown }> {
  const calls: Array<{ path: string[]; value: unknown }> = [];
  const path: string[] = [];
  const open: Array<{ readonly entries: Array<[string, unknown]>; next: number }> = [{ entries: Object.entries(raw), next: 0 }];
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.entries.length) {
      open.pop();
      path.pop();
      continue;
    }
    const [k, v] = top.entries[top.next++];
    if (isPlainMap(v)) {
      path.push(k);
      open.push({ entries: Object.entries(v), next: 0 });
    } else {
      calls.push({ path: [...path, k], value: v });
    }
  }
  return calls;
}

/** A map as aws-cdk builds overrides: a plain or null-prototype object (not a token, not a list). */
function isPlainMap(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

/** The property leaves one override writes; a deletion writes its path. */
function callLeaves(call: { path: string[]; value: unknown }): FieldPath[] {
  const at = call.path.slice(1);
  return call.value === undefined ? [at] : leavesOf(call.value, CFN_PROPERTIES, at, opaque);
}

function tagHandover(c: CfnResource, tagProperty: string, h: TagHandover): HandoverFact {
  return { object: labelOf(c), kind: 'cfn', path: [tagProperty, h.key], from: h.from, to: h.writer, reason: h.reason };
}

function labelOf(c: CfnResource): string {
  return `${c.cfnResourceType} ${c.node.path}`;
}
