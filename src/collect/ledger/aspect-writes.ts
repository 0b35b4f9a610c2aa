import { AspectPriority, Aspects, CfnResource, IAspect, Tokenization } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { changedLeaves } from './changed-leaves';
import { resourceAttributesOf } from './cloudformation-doc';
import type { ValueOfWrite } from './field-ledger';
import { FieldPath } from './field-path';
import { FieldIndex, FieldSet } from './field-set';
import type { OwnedLeaf } from './leaves';
import { callWriter, Writer } from './writer';
import { declaredPropertiesOf } from '../../private/upstream-state';
import { aspectAttributesRunsOf, aspectCallOf, aspectRunsOf } from '../../private/write-calls';
import { DEDUCED } from '../topology/field-topology';
import { valueAt } from '../topology/list-topology';

const opaque = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/** An aspect's write over a value the resource's declaration rendered: the declarer's policy, shown in the plan as an override. */
export interface AspectOverride {
  /** The aspect. */
  readonly writer: Writer;
  /** The leaf. */
  readonly path: FieldPath;
  /** The declaration's value. */
  readonly rendered: unknown;
  /** The aspect's value; absent when it removed the leaf. */
  readonly patched?: unknown;
}

/** A leaf an aspect took from another that aws-cdk ran before it, at a lower priority. */
export interface AspectHandover {
  /** The aspect that runs later, whose value the output has. */
  readonly writer: Writer;
  /** The aspect whose value it replaced. */
  readonly from: Writer;
  /** The leaf the earlier aspect wrote. */
  readonly path: FieldPath;
}

/** What the program's aspects (Tags aside) wrote in one resource's properties, or in its attributes. */
export interface AspectWrites {
  /** Each leaf each aspect set, changed or removed, in the order the aspects ran; a leaf a later aspect took is left out. */
  readonly writes: ReadonlyArray<[Writer, OwnedLeaf, ValueOfWrite]>;
  /** The leaves an aspect changed or removed where the declaration rendered a value: the declarer's write gives way. */
  readonly overrides: readonly AspectOverride[];
  /** The leaves an aspect of a higher priority took from one of a lower priority. */
  readonly handovers: readonly AspectHandover[];
  /** Every leaf an aspect wrote: the declarer does not write them. */
  readonly written: FieldSet;
}

/** An aspect as the ledger knows it: its writer, and the priority aws-cdk runs it at. */
interface ProgramAspect {
  readonly writer: Writer;
  readonly priority: number;
}

/** An aspect's write of a leaf, by its index among the writes. */
interface AspectWrite extends ProgramAspect {
  readonly path: FieldPath;
  readonly index: number;
}

const aspects = new WeakMap<IAspect, ProgramAspect>();

/**
 * The leaves of a resource's properties the program's aspects wrote, read off
 * its properties before and after each visit that changed them (recorded as
 * the aspects ran, `aspectRunsOf`): each aspect is a writer of its own,
 * named by the scope it was added to and its call. An aspect's value over one
 * the declaration rendered is the app's policy over its own resource, as a
 * plain `addPropertyOverride` is the declarer's escape hatch: the declarer
 * gives way and the plan shows the override. aws-cdk runs aspects in the order
 * of their priorities (`Aspects.of(scope).add(aspect, { priority })`), so an
 * aspect over a value an aspect of a lower priority wrote takes the leaf, a
 * handover the plan shows. An aspect over another aspect's value at the same
 * priority (whose order aws-cdk leaves open), or over what another writer
 * wrote (`others`), writes it too, and the ledger refuses the two writers.
 * Undefined, and free, when no aspect changed it.
 *
 * @param others the leaves a writer other than the declarer wrote before the aspects ran (write callbacks)
 */
export function aspectWritesOf(c: CfnResource, others: FieldSet): AspectWrites | undefined {
  const runs = aspectRunsOf(c);
  if (runs.length === 0) return undefined;
  return writesOfVisits(c, others, runs.map((run) => ({
    aspect: run.aspect,
    before: declaredPropertiesOf(c, { props: run.before, partial: true }),
    after: declaredPropertiesOf(c, { props: run.after, partial: true }),
  })));
}

/**
 * The leaves of a resource's attributes outside its properties (`DeletionPolicy`, `UpdateReplacePolicy`,
 * `Metadata.*`, `Condition`, ...) the program's aspects changed (`RemovalPolicies.of(scope).destroy()`,
 * `applyRemovalPolicy` or `addMetadata` in a visit), read off its `cfnOptions` before and after each visit:
 * each aspect is their writer, as for properties (`aspectWritesOf`). An aspect over the removal policy
 * aws-cdk applied by default, which no one chose, is no override. Undefined, and free, when no aspect
 * changed them.
 *
 * @param others the attribute leaves a writer other than the declarer wrote (write callbacks, override calls)
 */
export function aspectAttributeWritesOf(c: CfnResource, others: FieldSet): AspectWrites | undefined {
  const runs = aspectAttributesRunsOf(c);
  if (runs.length === 0) return undefined;
  return writesOfVisits(c, others, runs.map((run) => {
    const before = resourceAttributesOf(c, run.before);
    return { aspect: run.aspect, before: before.doc, after: resourceAttributesOf(c, run.after).doc, defaults: before.defaults };
  }));
}

/** One aspect's visit of a resource, read as the ledger reads the object: before and after it. */
interface Visit {
  readonly aspect: IAspect;
  readonly before: Record<string, unknown>;
  readonly after: Record<string, unknown>;
  /** The top-level fields of `before` that hold aws-cdk's default, which no one chose: no override. */
  readonly defaults?: readonly string[];
}

/** The writes, overrides and handovers of aspects' visits of one object, in the order they ran. */
function writesOfVisits(c: CfnResource, others: FieldSet, visits: readonly Visit[]): AspectWrites {
  const writes: Array<[Writer, OwnedLeaf, ValueOfWrite]> = [];
  const overrides: AspectOverride[] = [];
  const handovers: AspectHandover[] = [];
  const written = new FieldSet();
  const owners = new FieldIndex<AspectWrite[]>();
  const taken = new Set<number>();
  for (const { aspect: visited, before, after, defaults } of visits) {
    const aspect = programAspectOf(visited, c);
    const { writer } = aspect;
    for (const leaf of changedLeaves(before, after, DEDUCED, opaque)) {
      const value = valueAt(after, leaf.path, DEDUCED);
      const earlier = owners.get(leaf.path);
      if (!leaf.presence && !others.intersects(leaf.path)) {
        for (const w of lowerWrites(owners, leaf.path, aspect)) {
          if (taken.has(w.index)) continue;
          taken.add(w.index);
          handovers.push({ writer, from: w.writer, path: w.path });
        }
      }
      writes.push([writer, leaf, () => (value === undefined ? { removes: true } : { value })]);
      owners.upsert(leaf.path, () => []).push({ ...aspect, path: leaf.path, index: writes.length - 1 });
      written.insert(leaf.path);
      if (earlier || leaf.presence || others.intersects(leaf.path) || defaults?.includes(leaf.path[0])) continue;
      const rendered = valueAt(before, leaf.path, DEDUCED);
      if (rendered !== undefined) overrides.push({ writer, path: leaf.path, rendered, ...(value !== undefined ? { patched: value } : {}) });
    }
  }
  return { writes: taken.size === 0 ? writes : writes.filter((_, i) => !taken.has(i)), overrides, handovers, written };
}

/** The earlier aspects' writes at `path`, above it or below it, at a priority lower than `aspect`'s. */
function lowerWrites(owners: FieldIndex<AspectWrite[]>, path: FieldPath, aspect: ProgramAspect): AspectWrite[] {
  const found: AspectWrite[] = [];
  const add = (list: AspectWrite[]) => { for (const w of list) if (w.priority < aspect.priority && w.writer.id !== aspect.writer.id) found.push(w); };
  owners.forEachPrefix(path, add);
  owners.forEachBelow(path, add);
  return found;
}

/**
 * The writer of a program's aspect: the scope it was added to, numbered among
 * that scope's aspects in the order they were added, with its call
 * (`'cdn/Base' (Aspects.of().add at main.ts:12)`).
 */
export function aspectWriterOf(aspect: IAspect, resource: CfnResource): Writer {
  return programAspectOf(aspect, resource).writer;
}

/** A program's aspect's writer, and the priority it was added at (`AspectPriority.DEFAULT` when none was given). */
function programAspectOf(aspect: IAspect, resource: CfnResource): ProgramAspect {
  let known = aspects.get(aspect);
  if (known) return known;
  const added = aspectCallOf(aspect);
  const scope: IConstruct = added?.scope ?? [...resource.node.scopes].reverse().find((s) => Aspects.of(s).all.includes(aspect)) ?? resource;
  const own = Aspects.of(scope).all.filter((a) => aspectCallOf(a)?.scope === scope);
  const writer = callWriter('aspect', scope.node.path, { call: own.indexOf(aspect) + 1, site: added?.call.site, package: added?.call.package, method: added?.call.api ?? 'Aspects.of().add' });
  const priority = Aspects.of(scope).applied.find((a) => a.aspect === aspect)?.priority ?? AspectPriority.DEFAULT;
  known = { writer, priority };
  aspects.set(aspect, known);
  return known;
}
