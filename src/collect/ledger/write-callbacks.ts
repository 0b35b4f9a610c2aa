import { CfnResource, Tokenization } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { cloudFormationDocOf } from './cloudformation-doc';
import type { LeafOptions } from './leaves';
import { RenderChange, renderDelta } from './render-delta';
import { Contribution, writeCallbackOf } from '../../constructs/contribution';
import { errorMessage } from '../../private/errors';
import { renderWithoutPatches } from '../../private/upstream-state';
import { attributeTo } from '../../private/write-calls';

/**
 * One write callback that ran: where its target's renders just before and
 * just after it differ. The renders are a Kubernetes object's manifest without
 * its JSON patches, a CloudFormation resource's resolved properties with its
 * tags as a map (`cloudFormationDocOf`).
 */
export interface CallbackRun {
  /** The Contribution's construct path. */
  readonly writer: string;
  /** The object or resource written. */
  readonly target: ApiObject | CfnResource;
  /** Where the render after the callback differs from the one before (`deltaLeaves` reads its leaves). */
  readonly changes: readonly RenderChange[];
  /** The render before the callback, kept on the first run of each target only. */
  readonly before?: unknown;
  /** The render after the callback, kept on the last run of each target only. */
  readonly after?: unknown;
}

/** A write callback that could not be run or failed, for the rules (`CAP010`). */
export interface CallbackProblem {
  /** The Contribution's construct path. */
  readonly path: string;
  /** What went wrong. */
  readonly error: string;
}

const done = new WeakMap<Contribution, CallbackRun | CallbackProblem>();

/**
 * Runs the `write` callback of each Contribution that has one, once (a second
 * synth reuses the first run), in creation order: renders the target, runs the
 * callback with every escape hatch and Tag it calls attributed to the
 * contribution, and renders the target again. A callback that throws, or whose
 * target cannot be rendered before it runs, is a problem naming the
 * contribution; it writes nothing.
 *
 * @returns the runs, the problems, and whether any callback ran now (it may have created constructs)
 */
export function runWriteCallbacks(contributions: readonly Contribution[]): { runs: CallbackRun[]; problems: CallbackProblem[]; ranNow: boolean } {
  const runs: CallbackRun[] = [];
  const problems: CallbackProblem[] = [];
  const ran: Contribution[] = []; // the contribution of each run, by index
  const lastOf = new Map<ApiObject | CfnResource, number>(); // each target's last run so far
  let ranNow = false;
  let previous: Rendered | undefined; // the run just before, when it ran now: its render after is the next one's before on the same target
  for (const c of contributions) {
    let outcome = done.get(c);
    if (!outcome) {
      const callback = writeCallbackOf(c);
      const target = c.apiObject ?? c.cfnResource;
      if (!callback || !target) continue;
      const rendered = run(c.node.path, target, () => callback.write(callback.construct), previous?.target === target ? previous.after : undefined);
      previous = 'target' in rendered ? rendered : undefined;
      outcome = 'target' in rendered ? { writer: rendered.writer, target, changes: renderDelta(rendered.before, rendered.after, optionsFor(target)), before: rendered.before, after: rendered.after } : rendered;
      ranNow = true;
    } else {
      previous = undefined;
    }
    if (!('target' in outcome)) {
      done.set(c, outcome);
      problems.push(outcome);
      continue;
    }
    // keep a target's render before its first callback and after its last, the renders the ledger reads; let the others go
    const earlier = lastOf.get(outcome.target);
    if (earlier !== undefined) {
      const { after: _after, ...stripped } = runs[earlier];
      runs[earlier] = stripped;
      done.set(ran[earlier], stripped);
      const { before: _before, ...rest } = outcome;
      outcome = rest;
    }
    lastOf.set(outcome.target, runs.length);
    done.set(c, outcome);
    ran.push(c);
    runs.push(outcome);
  }
  return { runs, problems, ranNow };
}

/** A callback run with both renders of its target. */
interface Rendered {
  readonly writer: string;
  readonly target: ApiObject | CfnResource;
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * Runs one callback between two renders of its target. `renderedNow`, when
 * given, is the render of the target as it is now (the previous callback's
 * render after, with nothing run since): renders are the cost of a callback, so
 * consecutive callbacks on one target share them.
 */
function run(writer: string, target: ApiObject | CfnResource, write: () => void, renderedNow?: unknown): Rendered | CallbackProblem {
  const render = () => (ApiObject.isApiObject(target) ? renderWithoutPatches(target) : cloudFormationDocOf(target));
  let before: unknown;
  try {
    before = renderedNow !== undefined ? renderedNow : render();
  } catch (e) {
    return {
      path: writer,
      error:
        `its target '${target.node.path}' cannot be rendered before the write callback runs (${errorMessage(e)}), so what the callback writes cannot be told from what its declarer wrote. ` +
        'Give the declarer what the object needs to render (a cdk8s-plus workload its first container), then write into it.',
    };
  }
  try {
    attributeTo({ path: writer, kind: 'contribution-write' }, write);
  } catch (e) {
    return { path: writer, error: `its write callback threw: ${errorMessage(e)}. Fix the callback; it writes nothing until it runs through.` };
  }
  try {
    return { writer, target, before, after: render() };
  } catch (e) {
    return { path: writer, error: `its target '${target.node.path}' cannot be rendered after the write callback ran: ${errorMessage(e)}. Fix what the callback writes.` };
  }
}

/** Tokens are values, never walked into, in a CloudFormation resource's render. */
function optionsFor(target: ApiObject | CfnResource): LeafOptions {
  return ApiObject.isApiObject(target) ? {} : { isOpaque: (v) => Tokenization.isResolvable(v) };
}

