import { CfnResource, Stack, TagManager, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { aspectAttributeWritesOf, AspectWrites, aspectWritesOf, aspectWriterOf } from './aspect-writes';
import { changedLeaves } from './changed-leaves';
import { cloudFormationDocOf, ResourceAttributes, resourceAttributesOf, tagPropertyOf } from './cloudformation-doc';
import { withImportsAt, withImportsOf } from './cross-stack-imports';
import { EscapeHatchWrite, EscapeHatchWrites } from './escape-hatch-writes';
import { LedgerBuilder, LedgerObject, ValueOfWrite, WrittenValue } from './field-ledger';
import { FieldPath, setValueKey } from './field-path';
import { FieldSet } from './field-set';
import { leavesOf, OwnedLeaf, ownedLeaves } from './leaves';
import { deltaLeaves, deltaValue } from './render-delta';
import { ReplacedWrites } from './replaced-writes';
import { recordStackTagWrites } from './stack-tags';
import { findStatement, StatementGrant } from './statement-grants';
import { ResolvedTags, resolveTags, TagHandover } from './tag-writes';
import type { AttributesRun, CallbackRun } from './write-callbacks';
import { callWriter, contributionWriter, declarationWriter, Writer } from './writer';
import { appendTo } from '../../private/append';
import { holdsItself } from '../../private/loose-values';
import { isPlainMap } from '../../private/maps';
import { renderStatement } from '../../private/statement-additions';
import { HeldTag, heldTagsOf, rawOverridesOf } from '../../private/upstream-state';
import { anyTagCalls, aspectAttributesRunsOf, aspectRunsOf, OverrideCall, overrideCallsOf, tagEventsOf, tagsBeforeTagAspects } from '../../private/write-calls';
import { declarerOf } from '../declarer';
import type { HandoverFact, OverrideFact } from '../facts';
import { policyTopologyOf, statementsPathOf } from '../topology/cloudformation-topology';
import { DEDUCED, FieldTopology } from '../topology/field-topology';
import { valueAt } from '../topology/list-topology';

/** CloudFormation properties: maps per key, lists replaced whole (deduced, like a custom resource without a schema). */
const CFN_PROPERTIES = DEDUCED;

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/**
 * The tags each taggable resource's declarer set (its props, `setTag` by its
 * own code), and each stack's own tags (its `tags` prop, `addStackTag`),
 * before any Tag aspect ran.
 */
export type DeclaredTags = ReadonlyMap<CfnResource | Stack, ReadonlyMap<string, HeldTag>>;

const snapshots = new WeakMap<CfnResource | Stack, ReadonlyMap<string, HeldTag>>();

/**
 * The tags of every taggable resource and of every stack as its declarer set them: what its tag manager
 * holds before the synth's stacks are synthesized, or, when a Tag aspect already reached it (the stage was
 * synthesized before, by `Template.fromStack` or an earlier synth), what it held before that aspect; a later
 * synth reuses the first one's. Empty, and free, when no `Tags.of` call was made.
 */
export function declaredTags(constructs: readonly IConstruct[]): DeclaredTags {
  const tags = new Map<CfnResource | Stack, ReadonlyMap<string, HeldTag>>();
  if (!anyTagCalls()) return tags;
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c) && !Stack.isStack(c)) continue;
    const manager = TagManager.of(c);
    if (!manager) continue;
    let held = snapshots.get(c);
    if (!held) {
      // a stage synthesized before (Template.fromStack) ran the Tag aspects: what the manager held before them
      held = tagsBeforeTagAspects(manager) ?? heldTagsOf(manager);
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
 *   props, its own `setTag` calls, aspects an L2 adds to its own construct), each tag key a leaf;
 * - each aspect the program added (`Aspects.of(scope).add`, `PermissionsBoundary.of(scope).apply`) writes
 *   the leaves its visit changed, and those its override calls wrote (`aspectWritesOf`); over a value the
 *   declaration rendered, the app's policy over its own resource, recorded for the plan as an escape
 *   hatch is (the declarer's write gives way); over an aspect's of a lower priority, which aws-cdk runs
 *   first, a handover;
 * - each override call is its own writer (a Contribution's when made inside
 *   one, the declarer's when its L2 made it); a plain override of a leaf the
 *   declaration rendered is the declarer's escape hatch (recorded for the plan,
 *   the declarer's write of it gives way);
 * - each write callback writes the leaves its run changed (a run of its own
 *   here when this resource is another callback's target, `BetweenRuns`), and the statements
 *   it added to a policy that existed before it ran (`grants`, its target's
 *   or another's, which its run's changes leave out): the policy's
 *   statements are then a set (`policyTopologyOf`), each statement the
 *   declarer's or a callback's value of it, or both when both wrote it;
 * - each tag key is written by the Tag that set it (`resolveTags`): a Tag
 *   over a declared tag, or two Tags of one key from one scope, both write
 *   it; aws-cdk's own layering is a handover. A stack's own tags likewise
 *   (`recordStackTagWrites`).
 *
 * Lists are atomic, as CloudFormation replaces them whole. Run it after the
 * stacks are synthesized, so aspects have run.
 *
 * @param callbacks the write callbacks that ran, in the order they ran
 * @param tags the tags the declarers set, from `declaredTags` before synthesis
 * @param grants the statements write callbacks added to policies, their targets or not
 */
export function recordCloudFormationWrites(
  constructs: readonly IConstruct[],
  ledger: LedgerBuilder,
  callbacks: readonly CallbackRun[] = [],
  tags: DeclaredTags = new Map(),
  grants: readonly StatementGrant[] = [],
): void {
  const runsOf = new Map<CfnResource, CallbackRun[]>();
  for (const run of callbacks) if (CfnResource.isCfnResource(run.target)) appendTo(runsOf, run.target, run);
  const grantsOf = new Map<CfnResource, StatementGrant[]>();
  for (const g of grants) appendTo(grantsOf, g.resource, g);
  for (const c of constructs) {
    if (Stack.isStack(c)) {
      const declared = tags.get(c);
      if (declared) recordStackTagWrites(c, declared, ledger);
      continue;
    }
    if (!CfnResource.isCfnResource(c)) continue;
    const all = overrideCalls(c);
    recordAttributeWrites(c, all.filter(isAttributeCall), runsOf.get(c) ?? [], ledger);
    const calls = all.filter(isPropertyCall);
    const runs = runsOf.get(c) ?? [];
    const tagProperty = tagPropertyOf(c);
    const declared = tags.get(c);
    const tagWrites = tagProperty !== undefined && declared ? resolveTags(c, declared, tagEventsOf(TagManager.of(c)!)) : undefined;
    const granted = grantsOf.get(c) ?? [];
    if (calls.length === 0 && runs.length === 0 && granted.length === 0 && !tagWrites?.contested && aspectRunsOf(c).length === 0) {
      for (const h of tagWrites?.handovers ?? []) ledger.handover(tagHandover(c, tagProperty!, h));
      const tagged = (tagWrites?.writes ?? []).map((t) => ({ writer: t.writer, path: [tagProperty!, t.key] }));
      if (tagged.length > 0) ledger.tagged({ key: `cfn|${c.node.path}`, label: labelOf(c), kind: 'cfn' }, tagged);
      continue;
    }
    recordResource(c, { ledger, calls, runs, grants: granted, tagProperty, declared, tagWrites });
  }
}

interface ResourceWrites {
  readonly ledger: LedgerBuilder;
  readonly calls: readonly OverrideCall[];
  readonly runs: readonly CallbackRun[];
  readonly grants: readonly StatementGrant[];
  readonly tagProperty?: string;
  readonly declared?: ReadonlyMap<string, HeldTag>;
  readonly tagWrites?: ResolvedTags;
}

function recordResource(c: CfnResource, w: ResourceWrites): void {
  const object: LedgerObject = { key: `cfn|${c.node.path}`, label: labelOf(c), kind: 'cfn' };
  const record = (writer: Writer, { path, presence, replacing }: OwnedLeaf, value?: ValueOfWrite) =>
    w.ledger.record({ object, writer, path, presence, replacing, value });
  const declarer = declarationWriter(declarerOf(c).node.path);
  const declaredTagValues = w.declared ? Object.fromEntries([...w.declared].map(([k, t]) => [k, t.value])) : undefined;
  const doc = cloudFormationDocOf(c, declaredTagValues);
  const granted = grantedStatements(c, doc, w.grants);
  const topology = granted?.topology ?? CFN_PROPERTIES;
  let declaredLeaves = w.runs.length === 0
    ? ownedLeaves(doc, topology, [], opaque)
    // what changed after the last callback is the declarer's (aspects), but not a reference synthesis made an import
    : [
      // statements are values of a set, named by their JSON: named as the template has them (a reference to another stack's resource an import)
      ...ownedLeaves(granted ? withImportsAt(w.runs[0].before, doc, statementsPathOf(c.cfnResourceType)!) : w.runs[0].before, topology, [], opaque),
      ...changedLeaves(withImportsOf(w.runs[w.runs.length - 1].after, doc), doc, topology, opaque),
    ];
  if (granted) declaredLeaves = declaredLeaves.filter((leaf) => !granted.theirsOnly.has(leaf.path.join('\u0000')));
  const writes: CfnWrite[] = [];
  for (const [writer, leaf] of granted?.writes ?? []) writes.push([writer, leaf]);
  for (const run of w.runs) {
    const writer = contributionWriter(run.writer, 'contribution-write');
    for (const leaf of deltaLeaves(run.changes, CFN_PROPERTIES, opaque)) {
      writes.push([writer, leaf, undefined, () => deltaValue(run.changes, leaf.path, CFN_PROPERTIES)]);
    }
  }
  for (const t of w.tagWrites?.writes ?? []) writes.push([t.writer, { path: [w.tagProperty!, t.key] }]);
  // what aspects wrote is theirs, not the declarer's: over a declared value, an override the plan shows
  const aspects = aspectRunsOf(c).length === 0 ? undefined : aspectWritesOf(c, othersThanAspects(writes, w.calls, 1));
  if (aspects) declaredLeaves = recordAspectWrites(aspects, { ledger: w.ledger, object, declarer, writes, declaredLeaves });
  for (const h of w.tagWrites?.handovers ?? []) w.ledger.handover(tagHandover(c, w.tagProperty!, h));

  const hatches = new EscapeHatchWrites(declaredLeaves);
  recordOverrideCalls(w.calls, { ledger: w.ledger, object, resource: c, declarer, doc, hatches, writes, under: 1 });
  for (const leaf of declaredLeaves) if (!hatches.givesWay(leaf.path)) record(declarer, leaf);
  for (const [writer, leaf, hatch, value] of writes) if (!hatch?.removed) record(writer, leaf, value);
}

/**
 * The leaves writers other than the declarer and the aspects write in a resource's properties or attributes:
 * the write callbacks' and Tags' (`writes`), and those of the override calls made outside aspects and the
 * declarer's L2 (a Contribution's `fields`, a plain call). An aspect's write of one is no override and no handover.
 *
 * @param under how many segments of an override path lead to the object (1: `Properties`; 0: the attributes)
 */
function othersThanAspects(writes: readonly CfnWrite[], calls: readonly OverrideCall[], under: number): FieldSet {
  const others = FieldSet.of(writes.map(([, leaf]) => leaf.path));
  for (const { path, value, call } of calls) {
    if (call.aspect || call.byLibrary) continue;
    for (const leaf of value === undefined ? [path.slice(under)] : leavesOf(value, CFN_PROPERTIES, path.slice(under), opaque)) others.insert(leaf);
  }
  return others;
}

/** Where the aspects' writes of one ledger object go. */
interface AspectRecording {
  readonly ledger: LedgerBuilder;
  readonly object: LedgerObject;
  readonly declarer: Writer;
  /** The writes to record, added to. */
  readonly writes: CfnWrite[];
  readonly declaredLeaves: readonly OwnedLeaf[];
}

/**
 * Adds the aspects' writes of one ledger object to `writes` and records their overrides of declared values
 * and their handovers by priority.
 *
 * @returns the declared leaves, less those the aspects wrote
 */
function recordAspectWrites(aspects: AspectWrites, r: AspectRecording): OwnedLeaf[] {
  const { ledger, object, declarer } = r;
  for (const o of aspects.overrides) ledger.override({ object: object.label, kind: 'cfn', declarer, ...o });
  for (const [writer, leaf, value] of aspects.writes) r.writes.push([writer, leaf, undefined, value]);
  for (const h of aspects.handovers) ledger.handover({ object: object.label, kind: 'cfn', path: h.path, from: h.from, to: h.writer, reason: 'aspect-priority' });
  return r.declaredLeaves.filter((leaf) => !aspects.written.has(leaf.path));
}

/** A write to record: the writer, the leaf, the escape hatch it is when it is one, and the value it writes when known. */
type CfnWrite = [Writer, OwnedLeaf, EscapeHatchWrite?, ValueOfWrite?];

/**
 * The statements write callbacks added to a policy (`grants`), read again in
 * the synthesized stack (a reference to another stack's resource renders as
 * an import now): the topology that makes the policy's statements a set, each
 * callback's write of its statements' values, and the values only callbacks
 * wrote (the declarer's leaves leave them out). Undefined when none were added.
 */
function grantedStatements(c: CfnResource, doc: Record<string, unknown>, grants: readonly StatementGrant[]):
{ topology: FieldTopology; writes: Array<[Writer, OwnedLeaf]>; theirsOnly: ReadonlySet<string> } | undefined {
  const path = statementsPathOf(c.cfnResourceType);
  const topology = policyTopologyOf(c.cfnResourceType);
  if (grants.length === 0 || !path || !topology) return undefined;
  const statements = valueAt(doc, path, CFN_PROPERTIES);
  const list = Array.isArray(statements) ? statements : [];
  const writes: Array<[Writer, OwnedLeaf]> = [];
  const theirsOnly = new Set<string>();
  for (const g of grants) {
    const rendered = renderStatement(g.statement, c);
    const leaf = [...path, setValueKey(findStatement(list, rendered) ?? rendered)];
    writes.push([contributionWriter(g.writer, 'contribution-write'), { path: leaf, presence: true }]);
    if (!g.declared) theirsOnly.add(leaf.join('\u0000'));
  }
  return { topology, writes, theirsOnly };
}

/** Where the override calls of one ledger object go, and what they are weighed against. */
interface OverrideRecording {
  readonly ledger: LedgerBuilder;
  readonly object: LedgerObject;
  readonly resource: CfnResource;
  readonly declarer: Writer;
  /** The object as its declaration renders it (for the values an escape hatch replaces). */
  readonly doc: unknown;
  /** The declared leaves, against which a plain call is the declarer's escape hatch. */
  readonly hatches: EscapeHatchWrites;
  /** The writes to record, added to in call order. */
  readonly writes: CfnWrite[];
  /** How many segments of an override path lead to the object (1: `Properties`; 0: the resource attributes). */
  readonly under: number;
}

/**
 * The writes of a resource's override calls: each call is its writer's
 * (`overrideWriters`); a call that sets a value drops what other writers'
 * calls wrote below it (`ReplacedWrites`), so writes that too; a plain call
 * over a declared leaf is the declarer's escape hatch, recorded as an
 * override for the plan; a plain deletion removes what earlier plain calls set.
 */
function recordOverrideCalls(calls: readonly OverrideCall[], r: OverrideRecording): void {
  const { hatches, writes, declarer, doc } = r;
  const writerOf = overrideWriters(r.resource, declarer);
  const override = (fact: Omit<OverrideFact, 'object' | 'kind' | 'declarer'>) => r.ledger.override({ object: r.object.label, kind: 'cfn', declarer, ...fact });
  const replaced = new ReplacedWrites();
  for (const call of calls) {
    const writer = writerOf(call);
    // an aspect's override call, as a plain one, is the app's own over what the declaration rendered
    const plain = writer.kind === 'override' || writer.kind === 'aspect';
    const deletes = call.value === undefined;
    const at = call.path.slice(r.under);
    // a value that holds itself is one leaf at the call's path (aws-cdk refuses it at synth: CAP010), never walked
    const leaves = deletes || holdsItself(call.value) ? [at] : leavesOf(call.value, CFN_PROPERTIES, at, opaque);
    if (!deletes) {
      const dropped = replaced.by(writer, at, leaves, plain ? declarer : undefined);
      for (const path of dropped) writes.push([writer, { path, replacing: at }, undefined, () => ({ removes: true })]);
    }
    for (const path of leaves) {
      if (plain && deletes) {
        for (const earlier of hatches.removeUnder(writer, path)) {
          override({ path: earlier.path, writer, replaces: earlier.writer, rendered: earlier.value() });
        }
      }
      const value = () => valueAt(call.value, path.slice(at.length), CFN_PROPERTIES);
      const hatch: EscapeHatchWrite | undefined = plain && !deletes ? { writer, path, value } : undefined;
      if (hatch) hatches.note(hatch);
      writes.push([writer, { path }, hatch, () => (deletes ? { removes: true } : { value: value() })]);
      if (!plain) continue;
      // a value written below a declared scalar replaces it: the plan shows the scalar, from its value to the new one
      // (below a declared list, aws-cdk merges into the list's elements: the leaf written is the override)
      const above = deletes ? undefined : hatches.declaredAbove(path);
      const field = above && isScalar(valueAt(doc, above, CFN_PROPERTIES)) ? above : undefined;
      if (!hatches.overDeclared(field ?? path, deletes)) continue;
      const rendered = valueAt(doc, field ?? path, CFN_PROPERTIES);
      const patched = deletes ? undefined : field ? valueOver(field, at, call.value) : value();
      override({ path: field ?? path, writer, ...(rendered !== undefined ? { rendered } : {}), ...(patched !== undefined ? { patched } : {}) });
    }
  }
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/** The value a call of `value` at `at` leaves at `field`, a path above or below `at`. */
function valueOver(field: FieldPath, at: FieldPath, value: unknown): unknown {
  if (field.length >= at.length) return valueAt(value, field.slice(at.length), CFN_PROPERTIES);
  return at.slice(field.length).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/**
 * Who made each override call on a resource: the Contribution it was made in,
 * the program's aspect whose visit made it (`PermissionsBoundary.of(scope).apply`'s too),
 * the declarer when its own L2 made it, else the plain call (numbered in call
 * order). Overrides no call was recorded for are one writer.
 */
function overrideWriters(resource: CfnResource, declarer: Writer): (call: OverrideCall) => Writer {
  const resourcePath = resource.node.path;
  const plain = new Map<object, Writer>();
  return ({ call }) => {
    if (call.attribution) return contributionWriter(call.attribution.path, call.attribution.kind);
    if (call.aspect) return aspectWriterOf(call.aspect, resource);
    if (call.byLibrary) return declarer;
    if (call.api === '(unrecorded)') return callWriter('override', resourcePath);
    let writer = plain.get(call);
    if (!writer) {
      writer = callWriter('override', resourcePath, { call: plain.size + 1, site: call.site, package: call.package, method: call.api });
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
 * Records the writes to a resource's attributes outside `Properties`
 * (`DeletionPolicy`, `UpdateReplacePolicy`, `Metadata.*`, `Condition`, ...),
 * an object of their own in the ledger (an attribute and a property may share
 * a name: `Condition`), when more than the declarer may write them: a write
 * callback wrote them, a Contribution overrode one, two override calls
 * were made, or an aspect's visit changed them. Free otherwise.
 *
 * - the declarer writes what `cfnOptions` rendered before the first write
 *   callback (its L2's removal policy, its own setters and plain
 *   `applyRemovalPolicy` calls) and what changed after the last one,
 *   except a removal policy aws-cdk applied by default, which no one chose,
 *   and what the program's aspects changed;
 * - each aspect the program added (`RemovalPolicies.of(scope).destroy()`, `applyRemovalPolicy` or
 *   `addMetadata` in a visit) writes the attributes its visits changed (`aspectAttributeWritesOf`), as for
 *   properties: over a declared value an override the plan shows, over a lower priority's a handover;
 * - each write callback writes the attributes it changed and those whose
 *   option it set, even to the value they held (`applyRemovalPolicy`,
 *   `cfnOptions.deletionPolicy = ...`, `addMetadata`);
 * - each override call is its own writer as for properties, a plain one over
 *   a declared attribute the declarer's escape hatch.
 */
function recordAttributeWrites(c: CfnResource, calls: readonly OverrideCall[], runs: readonly CallbackRun[], ledger: LedgerBuilder): void {
  const written = runs.map((run) => (run.attributes ? attributeLeaves(run.attributes) : []));
  const visited = aspectAttributesRunsOf(c).length > 0;
  if (written.every((leaves) => leaves.length === 0) && calls.length < 2 && !calls.some((call) => call.call.attribution) && !visited) return;
  const object: LedgerObject = { key: `cfn-attributes|${c.node.path}`, label: `${labelOf(c)} (resource attributes)`, kind: 'cfn' };
  const declarer = declarationWriter(declarerOf(c).node.path);
  const now = resourceAttributesOf(c);
  const first = runs[0]?.attributes;
  const last = runs[runs.length - 1]?.attributes;
  let declaredLeaves = first && last
    ? [...chosenLeaves(first.before), ...changedLeaves(last.after, now.doc, CFN_PROPERTIES, opaque)]
    : chosenLeaves(now);
  const writes: CfnWrite[] = [];
  runs.forEach((run, i) => {
    const writer = contributionWriter(run.writer, 'contribution-write');
    for (const leaf of written[i]) writes.push([writer, leaf, undefined, () => writtenAttribute(run.attributes!, leaf.path)]);
  });
  // what aspects changed after the callbacks is theirs, as in the properties
  const aspects = visited ? aspectAttributeWritesOf(c, othersThanAspects(writes, calls, 0)) : undefined;
  if (aspects) declaredLeaves = recordAspectWrites(aspects, { ledger, object, declarer, writes, declaredLeaves });
  const hatches = new EscapeHatchWrites(declaredLeaves);
  recordOverrideCalls(calls, { ledger, object, resource: c, declarer, doc: now.doc, hatches, writes, under: 0 });
  const record = (writer: Writer, { path, presence, replacing }: OwnedLeaf, value?: ValueOfWrite) =>
    ledger.record({ object, writer, path, presence, replacing, value });
  for (const leaf of declaredLeaves) if (!hatches.givesWay(leaf.path)) record(declarer, leaf);
  for (const [writer, leaf, hatch, value] of writes) if (!hatch?.removed) record(writer, leaf, value);
}

/** What a write callback left at one attribute leaf: its value after the run, or a removal. */
function writtenAttribute(run: AttributesRun, path: FieldPath): WrittenValue {
  const value = valueAt(run.after, path, CFN_PROPERTIES);
  return value === undefined ? { removes: true } : { value };
}

/** The leaves of a resource's attributes that someone chose: all but aws-cdk's default removal policy. */
function chosenLeaves(attributes: ResourceAttributes): OwnedLeaf[] {
  const doc = { ...attributes.doc };
  for (const name of attributes.defaults) delete doc[name];
  return ownedLeaves(doc, CFN_PROPERTIES, [], opaque);
}

/** The attribute leaves a write callback wrote: those it changed, and all of each attribute whose option it set. */
function attributeLeaves(run: AttributesRun): OwnedLeaf[] {
  const leaves = changedLeaves(run.before.doc, run.after, CFN_PROPERTIES, opaque);
  const seen = FieldSet.of(leaves.map((l) => l.path));
  for (const name of run.written) {
    const value = run.after[name];
    for (const path of value === undefined ? [[name]] : leavesOf(value, CFN_PROPERTIES, [name], opaque)) {
      if (seen.has(path)) continue;
      seen.insert(path);
      leaves.push({ path });
    }
  }
  return leaves;
}

const UNRECORDED = { api: '(unrecorded)', byLibrary: false, site: undefined, package: undefined };

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

function tagHandover(c: CfnResource, tagProperty: string, h: TagHandover): HandoverFact {
  return { object: labelOf(c), kind: 'cfn', path: [tagProperty, h.key], from: h.from, to: h.writer, reason: h.reason };
}

function labelOf(c: CfnResource): string {
  return `${c.cfnResourceType} ${c.node.path}`;
}
