import { CfnResource } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { cloudFormationDocOf } from './cloudformation-doc';
import { Contribution, writeCallbackOf } from '../../constructs/contribution';
import { errorMessage } from '../../private/errors';
import { renderWithoutPatches } from '../../private/upstream-state';
import { attributeTo } from '../../private/write-calls';

/** One write callback that ran: its target rendered just before and just after it. */
export interface CallbackRun {
  /** The Contribution's construct path. */
  readonly writer: string;
  /** The object or resource written. */
  readonly target: ApiObject | CfnResource;
  /**
   * The target before the callback: a Kubernetes object's manifest without its
   * JSON patches, a CloudFormation resource's resolved properties with its
   * tags as a map (`cloudFormationDocOf`).
   */
  readonly before: unknown;
  /** The target after the callback, rendered the same way. */
  readonly after: unknown;
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
  let ranNow = false;
  for (const c of contributions) {
    let outcome = done.get(c);
    if (!outcome) {
      const callback = writeCallbackOf(c);
      const target = c.apiObject ?? c.cfnResource;
      if (!callback || !target) continue;
      outcome = run(c.node.path, target, () => callback.write(callback.construct));
      done.set(c, outcome);
      ranNow = true;
    }
    if ('target' in outcome) runs.push(outcome);
    else problems.push(outcome);
  }
  return { runs, problems, ranNow };
}

function run(writer: string, target: ApiObject | CfnResource, write: () => void): CallbackRun | CallbackProblem {
  const render = () => (ApiObject.isApiObject(target) ? renderWithoutPatches(target) : cloudFormationDocOf(target));
  let before: unknown;
  try {
    before = render();
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
