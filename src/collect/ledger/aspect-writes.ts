import { Aspects, CfnResource, IAspect, Tokenization } from 'aws-cdk-lib';
import { changedLeaves } from './changed-leaves';
import type { ValueOfWrite } from './field-ledger';
import { FieldPath } from './field-path';
import { FieldIndex, FieldSet } from './field-set';
import type { OwnedLeaf } from './leaves';
import { callWriter, Writer } from './writer';
import { declaredPropertiesOf } from '../../private/upstream-state';
import { aspectCallOf, aspectRunsOf } from '../../private/write-calls';
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

/** What the program's aspects (Tags aside) wrote in one resource's properties. */
export interface AspectWrites {
  /** Each leaf each aspect set, changed or removed, in the order the aspects ran. */
  readonly writes: ReadonlyArray<[Writer, OwnedLeaf, ValueOfWrite]>;
  /** The leaves an aspect changed or removed where the declaration rendered a value: the declarer's write gives way. */
  readonly overrides: readonly AspectOverride[];
  /** Every leaf an aspect wrote: the declarer does not write them. */
  readonly written: FieldSet;
}

const writers = new WeakMap<IAspect, Writer>();

/**
 * The leaves of a resource's properties the program's aspects wrote, read off
 * its properties before and after each visit that changed them (recorded as
 * the aspects ran, `aspectRunsOf`): each aspect is a writer of its own,
 * named by the scope it was added to and its call. An aspect's value over one
 * the declaration rendered is the app's policy over its own resource, as a
 * plain `addPropertyOverride` is the declarer's escape hatch: the declarer
 * gives way and the plan shows the override. An aspect over another aspect's
 * value, or over what another writer wrote (`others`), writes it too, and the
 * ledger refuses the two writers. Undefined, and free, when no aspect changed it.
 *
 * @param others the leaves a writer other than the declarer wrote before the aspects ran (write callbacks)
 */
export function aspectWritesOf(c: CfnResource, others: FieldSet): AspectWrites | undefined {
  const runs = aspectRunsOf(c);
  if (runs.length === 0) return undefined;
  const writes: Array<[Writer, OwnedLeaf, ValueOfWrite]> = [];
  const overrides: AspectOverride[] = [];
  const written = new FieldSet();
  const owners = new FieldIndex<Writer>();
  for (const run of runs) {
    const writer = aspectWriterOf(run.aspect, c);
    const before = declaredPropertiesOf(c, { props: run.before, partial: true });
    const after = declaredPropertiesOf(c, { props: run.after, partial: true });
    for (const leaf of changedLeaves(before, after, DEDUCED, opaque)) {
      const value = valueAt(after, leaf.path, DEDUCED);
      writes.push([writer, leaf, () => (value === undefined ? { removes: true } : { value })]);
      written.insert(leaf.path);
      const earlier = owners.get(leaf.path);
      owners.set(leaf.path, writer);
      if (earlier || leaf.presence || others.intersects(leaf.path)) continue;
      const rendered = valueAt(before, leaf.path, DEDUCED);
      if (rendered !== undefined) overrides.push({ writer, path: leaf.path, rendered, ...(value !== undefined ? { patched: value } : {}) });
    }
  }
  return { writes, overrides, written };
}

/**
 * The writer of a program's aspect: the scope it was added to, numbered among
 * that scope's aspects in the order they were added, with its call
 * (`'cdn/Base' (Aspects.of().add at main.ts:12)`).
 */
export function aspectWriterOf(aspect: IAspect, resource: CfnResource): Writer {
  let writer = writers.get(aspect);
  if (writer) return writer;
  const added = aspectCallOf(aspect);
  const scope = added?.scope ?? [...resource.node.scopes].reverse().find((s) => Aspects.of(s).all.includes(aspect)) ?? resource;
  const own = Aspects.of(scope).all.filter((a) => aspectCallOf(a)?.scope === scope);
  writer = callWriter('aspect', scope.node.path, { call: own.indexOf(aspect) + 1, site: added?.call.site, method: added?.call.api ?? 'Aspects.of().add' });
  writers.set(aspect, writer);
  return writer;
}
