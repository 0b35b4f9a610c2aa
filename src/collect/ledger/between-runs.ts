import type { CfnResource } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { ResourceAttributes, resourceAttributesOf } from './cloudformation-doc';
import type { LeafOptions } from './leaves';
import type { OutsideWriteProblem } from './outside-writes';
import { renderDelta } from './render-delta';
import type { CallbackRun } from './write-callbacks';
import type { Contribution } from '../../constructs/contribution';
import { errorMessage } from '../../private/errors';

/** What a write callback writes: a Kubernetes object or a CloudFormation resource. */
export type CallbackTarget = ApiObject | CfnResource;

/** A callback about to run: its Contribution's path and its target. */
export interface CallbackOnTarget {
  /** The Contribution's construct path. */
  readonly writer: string;
  /** What it writes. */
  readonly target: CallbackTarget;
}

/** How the targets render, as the runs of their callbacks render them. */
export interface TargetRenders {
  /** The target's render now; throws when it cannot be rendered. */
  render(target: CallbackTarget): unknown;
  /** The target's render before the callbacks, in the same shape: a CloudFormation resource that lacks a required property, without it; throws when it cannot be rendered. */
  renderBefore(target: CallbackTarget): unknown;
  /** How two renders of the target are compared (tokens are values). */
  options(target: CallbackTarget): LeafOptions;
}

/** Where a watched target was last seen: its render then, and how many callbacks had run by then. */
interface Seen {
  readonly render: unknown;
  /** A CloudFormation resource's attributes then. */
  readonly attributes?: ResourceAttributes;
  readonly ran: number;
  /** True for the render before any callback ran: a credit from it carries it as the target's render before its callbacks. */
  readonly initial: boolean;
}

interface Watched {
  /** Undefined until the target is seen: it could not be rendered before the callbacks ran, or its callbacks run first. */
  seen?: Seen;
  /** Why the target could not be rendered before the callbacks ran, when it could not. */
  unrendered?: string;
  /** The Contributions whose callbacks on it are about to run, in order. */
  readonly writers: string[];
}

/** Where, among the runs of a target's callbacks, an interval lies. */
type Interval = 'before' | 'between' | 'after';

/**
 * The targets of write callbacks, watched between the runs of their own
 * callbacks, so that what another callback writes into one is that
 * callback's, not its declarer's.
 *
 * A callback whose target is X may also change P, the target of other
 * callbacks. Its change lands between the runs of P's callbacks (or before
 * the first of them, or after the last), where the renders around those runs
 * do not see it: it would pass for the declarer's write. So each target is
 * seen where its callbacks leave off and take up again, reusing the renders
 * its runs make (the render that opens a run, the render after its last
 * callback), and rendered besides only before all callbacks (when another
 * callback runs before its first) and after all of them (when another runs
 * after its last). A target whose callbacks run first and last, or alone,
 * costs nothing more.
 *
 * Where a target changed in such an interval, the callbacks that ran in it
 * wrote it: one callback is credited with the changes, as a run of its own on
 * that target (`CallbackRun`), so the ledger records its writes there and a
 * value it sets over the declarer's is a conflict (`CAP002`); several cannot
 * be told apart, and are refused (`CAP010`), named with the target. Rendering
 * the target around each of them would tell them apart, but it costs every
 * target watched times every callback that runs while it is watched. What
 * changes once all callbacks ran (aspects, aws-cdk's synthesis) stays the
 * declarer's, as before.
 *
 * A target that cannot be rendered before the callbacks (a cdk8s-plus
 * workload with no container) but renders when its first callback's run
 * opens was changed by the callbacks that ran before: what they wrote cannot
 * be told from its declarer's, with no render to compare, and is refused
 * (`CAP010`), named by them and the target.
 *
 * The policies `TargetPolicies` watches are left to it: a statement another
 * callback adds there is a grant, one value of the set of statements.
 */
export class BetweenRuns {
  /**
   * Starts watching the targets of the callbacks about to run: each one is
   * rendered now unless its callbacks are the first to run (nothing can
   * change it before them); one that cannot be rendered yet is seen from its
   * first run on.
   *
   * @param order each callback about to run, by its Contribution's path, with its target, in the order they run
   * @returns undefined, and free, when there are no two targets
   */
  public static watch(order: readonly CallbackOnTarget[], renders: TargetRenders): BetweenRuns | undefined {
    const watched = new Map<CallbackTarget, Watched>();
    for (const { writer, target } of order) {
      let w = watched.get(target);
      if (!w) {
        w = { writers: [], ...(watched.size === 0 ? {} : initialSeen(target, renders)) };
        watched.set(target, w);
      }
      w.writers.push(writer);
    }
    return watched.size > 1 ? new BetweenRuns(watched, renders) : undefined;
  }

  private readonly ranNow: Contribution[] = [];
  private readonly found: OutsideWriteProblem[] = [];

  private constructor(private readonly watched: Map<CallbackTarget, Watched>, private readonly renders: TargetRenders) {}

  /** The problems of targets changed in an interval where several callbacks ran, or before their first callback when they could not be rendered before the callbacks. */
  public get problems(): readonly OutsideWriteProblem[] {
    return this.found;
  }

  /**
   * A run of callbacks on `target` opens, after others ran: what changed
   * there since the target was last seen is the callbacks' that ran since.
   *
   * @param rendered the target's render that opens the run
   * @returns the run crediting one callback with the changes (carrying the
   *   target's render before all callbacks when it changed before its
   *   first), to place before the run's; undefined when nothing changed,
   *   nothing ran since, several ran, or it could not be rendered before
   *   the callbacks (the last two a problem)
   */
  public resumed(target: CallbackTarget, rendered: unknown): CallbackRun | undefined {
    const w = this.watched.get(target);
    if (w?.unrendered !== undefined) {
      // it renders now, and did not before the callbacks: those that ran since changed it
      if (this.ranNow.length > 0) this.found.push(madeRenderable(this.ranNow, target, w.writers[0], w.unrendered));
      w.unrendered = undefined;
    }
    if (!w?.seen || w.seen.ran === this.ranNow.length) return undefined;
    return this.between(target, w, rendered, w.seen.initial ? 'before' : 'between');
  }

  /** Notes a callback about to run now. */
  public ran(c: Contribution): void {
    this.ranNow.push(c);
  }

  /** A run of callbacks on `target` ended, leaving it rendered as `after`. */
  public left(target: CallbackTarget, after: unknown): void {
    const w = this.watched.get(target);
    if (w) w.seen = { render: after, attributes: attributesOf(target), ran: this.ranNow.length, initial: false };
  }

  /** Stops watching `target`: a problem ended a run on it (the synth is refused). */
  public forget(target: CallbackTarget): void {
    this.watched.delete(target);
  }

  /**
   * Once every callback ran: what the callbacks that ran after the last run
   * on each target wrote there, each target rendered once more.
   *
   * @returns the runs crediting one callback each, carrying the target's
   *   render now (after all callbacks), to place after the target's last run
   */
  public end(): CallbackRun[] {
    const credits: CallbackRun[] = [];
    for (const [target, w] of this.watched) {
      // a target never left had no run (it could not be rendered when its callback came: refused)
      if (!w.seen || w.seen.initial || w.seen.ran === this.ranNow.length) continue;
      let now: unknown;
      try {
        now = this.renders.render(target);
      } catch {
        continue; // a callback broke its render: rendering it for the output fails, and is refused (CAP010)
      }
      const credit = this.between(target, w, now, 'after');
      if (credit) credits.push({ ...credit, after: now });
    }
    return credits;
  }

  /** What the callbacks that ran since `target` was last seen changed in it, now rendered as `now`: one's run, or a problem when several ran. */
  private between(target: CallbackTarget, w: Watched, now: unknown, interval: Interval): CallbackRun | undefined {
    const seen = w.seen!;
    const changes = renderDelta(seen.render, now, this.renders.options(target));
    const attributes = seen.attributes && { before: seen.attributes, after: resourceAttributesOf(target as CfnResource).doc, written: [] };
    const attributesChanged = attributes !== undefined && JSON.stringify(attributes.before.doc) !== JSON.stringify(attributes.after);
    if (changes.length === 0 && !attributesChanged) return undefined;
    const ran = this.ranNow.slice(seen.ran);
    if (ran.length > 1) {
      this.found.push(severalProblem(ran, target, w.writers, interval));
      return undefined;
    }
    return {
      writer: ran[0].node.path,
      target,
      changes,
      ...(seen.initial ? { before: seen.render } : {}),
      ...(attributes ? { attributes } : {}),
    };
  }
}

/** A target's render before any callback ran; or why it cannot be rendered yet. */
function initialSeen(target: CallbackTarget, renders: TargetRenders): { seen: Seen } | { unrendered: string } {
  try {
    return { seen: { render: renders.renderBefore(target), attributes: attributesOf(target), ran: 0, initial: true } };
  } catch (e) {
    return { unrendered: errorMessage(e) };
  }
}

/** A CloudFormation resource's attributes now; undefined for a Kubernetes object. */
function attributesOf(target: CallbackTarget): ResourceAttributes | undefined {
  return ApiObject.isApiObject(target) ? undefined : resourceAttributesOf(target);
}

/**
 * The problem of the callbacks `ran` (at least one) that changed `target`
 * before the first of its own callbacks (`writer`) ran, from a state it could
 * not be rendered in (`unrendered`, why) to one it renders in: named by the
 * first, with the others.
 */
function madeRenderable(ran: readonly Contribution[], target: CallbackTarget, writer: string, unrendered: string): OutsideWriteProblem {
  const [first, ...others] = ran.map((c) => c.node.path);
  const one = others.length === 0;
  const which = one ? 'its write callback' : `one of the write callbacks of it and ${others.map((w) => `'${w}'`).join(', ')}`;
  return {
    first: ran[0],
    problem: {
      path: first,
      ...(one ? {} : { others }),
      error:
        `${which} changed '${target.node.path}' before the write callback of '${writer}', whose target it is, ran; ` +
        `the object could not be rendered before the callbacks (${unrendered}), so what ${one ? 'the callback' : 'the callbacks'} wrote there cannot be told from what its declarer wrote, and would be taken for the declarer's. ` +
        'Give the declarer what the object needs to render (a cdk8s-plus workload its first container), then write into it with a Contribution whose target it is',
    },
  };
}

/**
 * The problem of the callbacks `ran` (at least two), one of which changed
 * `target` while none of its own callbacks (`writers`) ran: named by the
 * first, with the others.
 */
function severalProblem(ran: readonly Contribution[], target: CallbackTarget, writers: readonly string[], interval: Interval): OutsideWriteProblem {
  const [first, ...others] = ran.map((c) => c.node.path);
  const quoted = (paths: readonly string[]) => paths.map((p) => `'${p}'`).join(', ');
  const one = writers.length === 1;
  const when = interval === 'between' ? 'between them' : `${interval} ${one ? 'it' : 'them'}`;
  return {
    first: ran[0],
    problem: {
      path: first,
      others,
      error:
        `one of the write callbacks of it and ${quoted(others)} changed '${target.node.path}', the target of the write ${one ? 'callback' : 'callbacks'} of ${quoted(writers)}, ${when}, ` +
        'so what it wrote there would be taken for its declarer\'s; these callbacks ran one after another, and what each of them wrote cannot be told apart. ' +
        'Write it with a Contribution whose target it is',
    },
  };
}
