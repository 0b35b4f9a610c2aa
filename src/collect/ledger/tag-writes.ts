import { Aspects, IAspect } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { declarerOf } from '../declarer';
import type { HandoverReason } from '../facts';
import { callWriter, contributionWriter, declarationWriter, Writer } from './writer';
import type { HeldTag } from '../../private/upstream-state';
import { TagEvent, tagCallOf } from '../../private/write-calls';

/** A tag key of one resource and a writer of it. */
export interface TagWrite {
  /** The tag key. */
  readonly key: string;
  /** Who writes it. */
  readonly writer: Writer;
}

/** A tag key handed from one writer to another by aws-cdk's own layering. */
export interface TagHandover extends TagWrite {
  /** The writer whose value was replaced. */
  readonly from: Writer;
  /** A higher tag priority, or an equal one from a scope nearer the resource. */
  readonly reason: HandoverReason;
}

/** Who writes each tag key of one resource, as the Tag aspects applied them. */
export interface ResolvedTags {
  /** The writes of the Tags (the declarer's tags are its declaration's, not listed here). */
  readonly writes: readonly TagWrite[];
  /** Tag keys layered over another Tag's value (allowed). */
  readonly handovers: readonly TagHandover[];
  /** True when some key is written by two writers that may not share it: a Tag over a declared tag, or two Tags of one scope. */
  readonly contested: boolean;
}

const writers = new WeakMap<IAspect, Writer>();

/**
 * Replays, per tag key, what aws-cdk's tag manager did with a resource's
 * (or a stack's) tags: the declared tags first (its props, `setTag` by its own code), then
 * each Tag or RemoveTag aspect in the order aws-cdk applied it, each accepted
 * when its priority is at least the key's current one. Each accepted
 * replacement is judged: a Tag over a declared tag, or over a Tag added to the
 * same scope (by a plain call or in a Contribution), is a second writer of the key (`contested`); a Tag over another
 * scope's Tag (a nearer scope, a higher priority) is aws-cdk's own layering,
 * a handover. The last writer of a key writes it.
 *
 * @param declared the declared tags, from before any aspect ran
 * @param events the tags the aspects applied, in order
 */
export function resolveTags(resource: IConstruct, declared: ReadonlyMap<string, HeldTag>, events: readonly TagEvent[]): ResolvedTags {
  const writes: TagWrite[] = [];
  const handovers: TagHandover[] = [];
  let contested = false;
  if (events.length === 0) return { writes, handovers, contested };
  const declarer = declarationWriter(declarerOf(resource).node.path);
  const state = new Map<string, { writer: Writer; priority: number; scope?: string }>();
  for (const [key, held] of declared) state.set(key, { writer: declarer, priority: held.priority });
  for (const e of events) {
    const current = state.get(e.key);
    if (current && e.priority < current.priority) continue; // the tag manager keeps the current value
    const writer = writerOf(e.aspect, resource);
    const scope = scopeOf(e.aspect, writer);
    state.set(e.key, { writer, priority: e.priority, scope });
    if (!current || current.writer.id === writer.id) continue;
    // by the scope the Tag was added to, whoever added it: a Contribution's Tags.of(target) and a plain one share the target
    const sameScope = current.scope !== undefined && current.scope === scope;
    if (current.writer.kind === 'declaration' || sameScope) {
      contested = true;
      if (sameScope) writes.push({ key: e.key, writer: current.writer });
      writes.push({ key: e.key, writer });
    } else {
      handovers.push({ key: e.key, writer, from: current.writer, reason: e.priority > current.priority ? 'tag-priority' : 'nearer-scope' });
    }
  }
  for (const [key, { writer }] of state) {
    if (writer.kind !== 'declaration' && !writes.some((w) => w.key === key && w.writer.id === writer.id)) writes.push({ key, writer });
  }
  return { writes, handovers, contested };
}

/**
 * The writer of a Tag aspect: the Contribution it was added in, else the
 * scope it was added to, numbered among that scope's Tags (`Tags.of(scope)`
 * calls in order), with the call's site.
 */
function writerOf(aspect: IAspect, resource: IConstruct): Writer {
  let writer = writers.get(aspect);
  if (writer) return writer;
  const tagCall = tagCallOf(aspect);
  if (tagCall?.call.attribution) {
    writer = contributionWriter(tagCall.call.attribution.path, tagCall.call.attribution.kind);
  } else {
    const scope = tagCall?.scope ?? [...resource.node.scopes].reverse().find((s) => Aspects.of(s).all.includes(aspect)) ?? resource;
    const tags = Aspects.of(scope).all.filter((a) => !tagCallOf(a)?.call.attribution && isTagAspect(a));
    writer = callWriter('tag', scope.node.path, { call: tags.indexOf(aspect) + 1, site: tagCall?.call.site, package: tagCall?.call.package, method: tagCall?.call.api ?? 'Tags.of().add' });
  }
  writers.set(aspect, writer);
  return writer;
}

/** The path of the scope a Tag aspect was added to: its call's, else the plain Tag writer's path. */
function scopeOf(aspect: IAspect, writer: Writer): string | undefined {
  return tagCallOf(aspect)?.scope.node.path ?? (writer.kind === 'tag' ? writer.path : undefined);
}

function isTagAspect(a: IAspect): boolean {
  return typeof (a as { key?: unknown }).key === 'string' && typeof (a as { visit?: unknown }).visit === 'function';
}
