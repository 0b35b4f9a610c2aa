import { CfnResource, Tokenization } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { BetweenRuns, CallbackOnTarget } from './between-runs';
import { attributeName, cloudFormationDocOf, ResourceAttributes, resourceAttributesOf } from './cloudformation-doc';
import { LabelRecorder } from './label-recorder';
import type { LeafOptions } from './leaves';
import { OutsideWriteProblem, OutsideWrites } from './outside-writes';
import { RenderChange, renderDelta } from './render-delta';
import type { StatementGrant } from './statement-grants';
import { TargetPolicies } from './target-policies';
import { Contribution, writeCallbackOf } from '../../constructs/contribution';
import { errorMessage } from '../../private/errors';
import { StatementAdditions } from '../../private/statement-additions';
import { renderWithoutPatches, watchCfnOptions } from '../../private/upstream-state';
import { attributeTo } from '../../private/write-calls';

/**
 * One write callback that ran: where its target's renders just before and
 * just after it differ. The renders are a Kubernetes object's manifest without
 * its JSON patches, a CloudFormation resource's resolved properties with its
 * tags as a map (`cloudFormationDocOf`).
 *
 * Or what a callback wrote into another callback's target while none of that
 * target's callbacks ran (`BetweenRuns`): a run of the callback on that
 * target, where its renders before and after that interval differ.
 */
export interface CallbackRun {
  /** The Contribution's construct path. */
  readonly writer: string;
  /** The object or resource written. */
  readonly target: ApiObject | CfnResource;
  /** Where the render after the callback differs from the one before (`deltaLeaves` reads its leaves). */
  readonly changes: readonly RenderChange[];
  /** The render before the callback (before all callbacks, when another changed the target before its own), kept on the first run of each target only. */
  readonly before?: unknown;
  /** The render after the callback (after all callbacks, when others changed the target after its own), kept on the last run of each target only. */
  readonly after?: unknown;
  /** For a CloudFormation resource: what the callback did to its attributes outside its properties. */
  readonly attributes?: AttributesRun;
}

/** A write callback's run over a CloudFormation resource's attributes (`cfnOptions`: removal policy, metadata, condition, ...). */
export interface AttributesRun {
  /** The attributes just before the callback. */
  readonly before: ResourceAttributes;
  /** The attributes just after it. */
  readonly after: Record<string, unknown>;
  /** The attributes whose option it set or deleted (`applyRemovalPolicy`, `cfnOptions.deletionPolicy = ...`), even to the value it held. */
  readonly written: readonly string[];
}

/** A write callback that could not be run or failed, for the rules (`CAP010`). */
export interface CallbackProblem {
  /** The Contribution's construct path. */
  readonly path: string;
  /** The other Contributions whose callbacks it is one of, when the problem is theirs too. */
  readonly others?: readonly string[];
  /** What went wrong. */
  readonly error: string;
}

const done = new WeakMap<Contribution, CallbackRun | CallbackProblem>();
/** What another callback wrote into a Contribution's target before its run (`BetweenRuns`), kept for a second synth: the ledger reads it just before the run. */
const creditedBefore = new WeakMap<Contribution, CallbackRun>();
/** What other callbacks wrote into a Contribution's target after its run, the last on that target, kept for a second synth: read just after the run. */
const creditedAfter = new WeakMap<Contribution, CallbackRun>();
/** The statements each Contribution's write callback added to policies that existed before it ran, kept for a second synth. */
const granted = new WeakMap<Contribution, StatementGrant[]>();

/**
 * Runs the `write` callback of each Contribution that has one, once (a second
 * synth reuses the first run), in creation order: renders the target, runs the
 * callback with every escape hatch and Tag it calls attributed to the
 * contribution, and renders the target again. A callback that throws, or whose
 * target cannot be rendered before it runs, is a problem naming the
 * contribution; it writes nothing.
 *
 * Consecutive callbacks on one target share its renders, and on a plain cdk8s
 * object they are recorded instead (`LabelRecorder`): what each writes into the
 * metadata's labels and annotations is followed without rendering, a callback
 * that writes anything else is rendered after, and the target is rendered once
 * at the end of the run and checked against what was recorded: a difference
 * is a problem naming the run's contributions (a write outside the object's API).
 *
 * A callback may also add statements to a policy that exists (a grant into
 * the `DefaultPolicy` an earlier grant made): those are its writes, returned
 * as grants (`OutsideWrites`). So are the statements it adds to a policy it
 * targets, or another callback targets (`TargetPolicies`). What it changes in
 * another callback's target, between the runs of that target's callbacks, is
 * its write too, returned as a run of its own on that target (`BetweenRuns`).
 *
 * @returns the runs, the problems, the statements callbacks added to policies that exist, and whether any
 *   callback ran now (it may have created constructs)
 */
export function runWriteCallbacks(
  contributions: readonly Contribution[],
  constructs: readonly IConstruct[] = [],
): { runs: CallbackRun[]; problems: CallbackProblem[]; grants: StatementGrant[]; ranNow: boolean } {
  const pending = contributions.some((c) => !done.has(c));
  const outside = pending ? OutsideWrites.watch(constructs, contributions) : undefined;
  const targets = pending ? TargetPolicies.targetsOf(contributions) : new Map<CfnResource, object>();
  const between = pending ? watchBetween(contributions, targets) : undefined;
  const documents = [...(outside?.policyDocuments ?? []), ...targets.values()];
  const additions = documents.length > 0 ? StatementAdditions.follow(documents) : undefined;
  try {
    const policies = additions && targets.size > 0 ? TargetPolicies.watch(targets, additions) : undefined;
    return runAll(contributions, { outside, policies, additions, between });
  } finally {
    additions?.stop();
  }
}

/** What watches the resources the callbacks write besides their targets' renders, while they run. */
interface Watching {
  readonly outside?: OutsideWrites;
  readonly policies?: TargetPolicies;
  readonly additions?: StatementAdditions;
  readonly between?: BetweenRuns;
}

/** Watches the targets of the callbacks about to run between their runs; the policies `TargetPolicies` watches are its. */
function watchBetween(contributions: readonly Contribution[], policies: ReadonlyMap<CfnResource, object>): BetweenRuns | undefined {
  const order: CallbackOnTarget[] = [];
  for (const c of contributions) {
    const target = c.apiObject ?? c.cfnResource;
    if (done.has(c) || !target || !writeCallbackOf(c) || policies.has(target as CfnResource)) continue;
    order.push({ writer: c.node.path, target });
  }
  return BetweenRuns.watch(order, {
    render: (target) => renderOf(target)(),
    renderBefore: (target) => renderOf(target, true)(),
    options: optionsFor,
  });
}

function runAll(contributions: readonly Contribution[], { outside, policies, additions, between }: Watching): ReturnType<typeof runWriteCallbacks> {
  let runs: CallbackRun[] = [];
  const problems: CallbackProblem[] = [];
  const ran: Array<Contribution | undefined> = []; // the contribution of each run, by index; undefined for a run crediting another callback
  const lastOf = new Map<ApiObject | CfnResource, number>(); // each target's last run so far
  let ranNow = false;
  let open: OpenRun | undefined; // the callbacks on one target running one after another now
  let credit: CallbackRun | undefined; // what another callback wrote into the open run's target since its callbacks last ran
  const setAfter = (index: number, after: unknown) => {
    runs[index] = { ...runs[index], after };
    done.set(ran[index]!, runs[index]);
  };
  // ends the open run: a recorded run's last callback gets its render after, checked against what was recorded
  const close = (verify: boolean) => {
    let refused = !verify;
    if (open?.recorder?.pending && open.last !== undefined) {
      if (verify) {
        const after = renderOf(open.target)();
        setAfter(open.last, after);
        const difference = open.recorder.differenceFrom(after);
        if (difference !== undefined) {
          const problem = unseenWrite(open.target, open.writers, difference);
          problems.push(problem);
          done.set(ran[open.last]!, problem); // a second synth reuses the run: it is refused again
          refused = true;
        }
      } else {
        // a problem ended the run, so the target is not what the recorder kept: the kept render stands for its render after (the synth is refused: CAP010)
        setAfter(open.last, open.recorder.ordered());
      }
    }
    // where the target's callbacks leave off: its render after the last of them
    if (open && (refused || open.last === undefined)) between?.forget(open.target);
    else if (open) between?.left(open.target, runs[open.last!].after);
    open = undefined;
  };
  // adds a run, keeping a target's render before its first run and after its last, the renders the ledger reads; letting the others go
  const push = (run: CallbackRun, c: Contribution | undefined) => {
    const earlier = lastOf.get(run.target);
    if (earlier !== undefined) {
      const { after: _after, ...stripped } = runs[earlier];
      runs[earlier] = stripped;
      if (ran[earlier]) done.set(ran[earlier]!, stripped);
      const { before: _before, ...rest } = run;
      run = rest;
    }
    lastOf.set(run.target, runs.length);
    if (open?.target === run.target) open.last = runs.length;
    if (c) done.set(c, run);
    ran.push(c);
    runs.push(run);
  };
  for (const c of contributions) {
    let outcome = done.get(c);
    if (!outcome) {
      const callback = writeCallbackOf(c);
      const target = c.apiObject ?? c.cfnResource;
      if (!callback || !target) continue;
      if (open?.target !== target) close(true);
      const writer = c.node.path;
      const started = open ?? start(writer, target);
      if (started !== open && !('path' in started)) {
        // what other callbacks wrote into a policy since the last callback on it is theirs
        if (!ApiObject.isApiObject(target)) policies?.resume(target);
        // and into any other target
        credit = between?.resumed(target, started.rendered);
      }
      outside?.ran(c);
      policies?.ran(c);
      if ('path' in started) {
        outcome = started;
        between?.forget(target);
      } else {
        between?.ran(c);
        open = started;
        open.writers.push(writer);
        let returned: unknown;
        outcome = runOne(open, writer, () => {
          returned = attributeTo({ path: writer, kind: 'contribution-write' }, () => callback.write(callback.construct));
        }, policies);
        if (isThenable(returned)) outcome = asyncCallback(writer, returned);
      }
      ranNow = true;
    } else {
      close(true);
      if ('target' in outcome) credit = creditedBefore.get(c);
    }
    if (!('target' in outcome)) {
      close(false);
      credit = undefined;
      done.set(c, outcome);
      problems.push(outcome);
      continue;
    }
    if (credit) {
      creditedBefore.set(c, credit);
      push(credit, undefined);
      credit = undefined;
    }
    push(outcome, c);
    const after = creditedAfter.get(c);
    if (after) push(after, undefined);
  }
  close(true);
  if (between) runs = withCreditsAfter(runs, ran, lastOf, between);
  const outcome = outside?.outcome(additions);
  const inPolicies = policies?.outcome();
  const found = [...(outcome?.problem ? [outcome.problem] : []), ...(inPolicies?.problems ?? []), ...(between?.problems ?? [])];
  for (const problem of found) refuse(problems, problem);
  const byPath = new Map(contributions.map((c) => [c.node.path, c]));
  for (const g of [...(outcome?.grants ?? []), ...(inPolicies?.grants ?? [])]) {
    const c = byPath.get(g.writer)!;
    granted.set(c, [...(granted.get(c) ?? []), g]);
  }
  const grants = contributions.flatMap((c) => granted.get(c) ?? []);
  return { runs, problems, grants, ranNow };
}

/**
 * The runs with what other callbacks wrote into each target after the last
 * run on it (`BetweenRuns.end`) placed right after that run, which gives up
 * its render after to it; kept for a second synth, which reads them there.
 */
function withCreditsAfter(
  runs: readonly CallbackRun[],
  ran: ReadonlyArray<Contribution | undefined>,
  lastOf: ReadonlyMap<ApiObject | CfnResource, number>,
  between: BetweenRuns,
): CallbackRun[] {
  const credits = between.end();
  if (credits.length === 0) return [...runs];
  const after = new Map<number, CallbackRun>();
  const out = [...runs];
  for (const credit of credits) {
    const last = lastOf.get(credit.target)!;
    const { after: _after, ...stripped } = out[last];
    out[last] = stripped;
    done.set(ran[last]!, stripped);
    creditedAfter.set(ran[last]!, credit);
    after.set(last, credit);
  }
  return out.flatMap((run, i) => (after.has(i) ? [run, after.get(i)!] : [run]));
}

/** Adds the problem of callbacks that changed a resource they do not target; a second synth reuses the runs, so it is kept as the first one's outcome, refused again, once. */
function refuse(problems: CallbackProblem[], { problem, first }: OutsideWriteProblem): void {
  problems.push(problem);
  done.set(first, problem);
}

/** Consecutive callbacks on one target: its render now, or the recorder that follows it. */
interface OpenRun {
  readonly target: ApiObject | CfnResource;
  /** The target's render as it is now; stale while the recorder has recorded callbacks since it. */
  rendered: unknown;
  /** The target's render before the run, given to its first callback only. */
  before?: unknown;
  /** Follows the callbacks without rendering, while the target is a plain cdk8s object that bookkeeping can follow. */
  recorder?: LabelRecorder;
  /** The index of the run's last callback among the runs. */
  last?: number;
  /** The Contributions whose callbacks ran in it, in order. */
  readonly writers: string[];
}

/** Opens a run on `target` with its render now, or a problem naming `writer` when it cannot be rendered. */
function start(writer: string, target: ApiObject | CfnResource): OpenRun | CallbackProblem {
  let rendered: unknown;
  try {
    rendered = renderOf(target, true)();
  } catch (e) {
    return {
      path: writer,
      error:
        `its target '${target.node.path}' cannot be rendered before the write callback runs (${errorMessage(e)}), so what the callback writes cannot be told from what its declarer wrote. ` +
        'Give the declarer what the object needs to render (a cdk8s-plus workload its first container), then write into it.',
    };
  }
  const recorder = ApiObject.isApiObject(target) ? LabelRecorder.start(target, rendered) : undefined;
  return { target, rendered, before: rendered, recorder, writers: [] };
}

/**
 * The problem of a recorded run whose target renders otherwise than its
 * callbacks were seen to write: one of them wrote the object outside its API.
 * Named by the run's first callback, with the others.
 */
function unseenWrite(target: ApiObject | CfnResource, writers: readonly string[], difference: string): CallbackProblem {
  const [first, ...others] = writers;
  const one = others.length === 0;
  const whose = one ? 'its write callback' : `the write callbacks of it and ${others.map((w) => `'${w}'`).join(', ')}`;
  return {
    path: first,
    ...(others.length > 0 ? { others } : {}),
    error:
      `${whose} into '${target.node.path}' ${one ? 'is' : 'are'} followed by recording what ${one ? 'it writes' : 'they write'} into its labels and annotations, ` +
      `but the object renders otherwise than ${one ? 'it was' : 'they were'} seen to write, at ${difference}: a callback wrote the object outside its API ` +
      '(into its private state, through a reference kept from before it ran), so what it wrote cannot be attributed. ' +
      'Write through the object\'s API (metadata.addLabel, metadata.addAnnotation) or with `fields`; if no callback writes that way, report it to cdk-capability with these callbacks',
  };
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

/**
 * The refusal of a write callback that returned a promise (an `async` function): synth runs a callback once and
 * does not wait for it, so what it writes after its first `await` would be lost, or land after synth read the
 * target. What the promise ends in is taken, so that a rejection cannot end the process after the refusal.
 */
function asyncCallback(writer: string, returned: PromiseLike<unknown>): CallbackProblem {
  Promise.resolve(returned).catch(() => undefined);
  return {
    path: writer,
    error: "its write callback returned a promise (is it an async function?): synth runs it once and does not wait for it, so what it writes after its first 'await' would be lost. "
      + 'Write synchronously: compute what it awaits before the Contribution is created, and drop async.',
  };
}

/**
 * Runs one callback of the open run: recorded when the run has a recorder and
 * the callback writes only what it follows, else between the target's render
 * now and a render after it.
 */
function runOne(open: OpenRun, writer: string, write: () => void, policies?: TargetPolicies): CallbackRun | CallbackProblem {
  const { target } = open;
  const before = open.before;
  open.before = undefined;
  let changes: RenderChange[] | undefined;
  const watch = ApiObject.isApiObject(target) ? undefined : watchAttributes(target);
  try {
    if (open.recorder) changes = open.recorder.record(write);
    else write();
  } catch (e) {
    return { path: writer, error: `its write callback threw: ${errorMessage(e)}. Fix the callback; it writes nothing until it runs through.` };
  } finally {
    watch?.stop();
  }
  if (changes) return { writer, target, changes, ...(before !== undefined ? { before } : {}) };
  let after: unknown;
  try {
    after = renderOf(target)();
  } catch (e) {
    return { path: writer, error: `its target '${target.node.path}' cannot be rendered after the write callback ran: ${errorMessage(e)}. Fix what the callback writes.` };
  }
  // the recorder's kept render is the target's render before this callback, in a render's order
  const rendered = open.recorder ? open.recorder.ordered() : open.rendered;
  // statements added to a policy target are grants: its changes are the rest
  const withoutStatements = ApiObject.isApiObject(target) ? undefined : policies?.ranOn(target, rendered, after);
  changes = withoutStatements ?? renderDelta(rendered, after, optionsFor(target));
  if (open.recorder && !open.recorder.resync(after)) open.recorder = undefined;
  open.rendered = after;
  const attributes = watch ? { attributes: watch.run() } : {};
  return { writer, target, changes, ...(before !== undefined ? { before } : {}), after, ...attributes };
}

/**
 * Follows a callback's writes into a resource's attributes: its attributes
 * now, and the options it sets until `stop`; `run` reads them after.
 */
function watchAttributes(target: CfnResource): { stop: () => void; run: () => AttributesRun } {
  const before = resourceAttributesOf(target);
  const written = new Set<string>();
  const stop = watchCfnOptions(target, (option) => written.add(attributeName(option)));
  return { stop, run: () => ({ before, after: resourceAttributesOf(target).doc, written: [...written] }) };
}

/**
 * How a target renders: a Kubernetes object's manifest without its JSON patches, a CloudFormation resource's
 * properties with its tags as a map.
 *
 * @param before the render before a callback: a CloudFormation resource that lacks a required property renders
 *   without it (an `iam.Policy` declared empty, which the callbacks fill)
 */
function renderOf(target: ApiObject | CfnResource, before = false): () => unknown {
  return () => (ApiObject.isApiObject(target) ? renderWithoutPatches(target) : cloudFormationDocOf(target, undefined, before));
}

/** Tokens are values, never walked into, in a CloudFormation resource's render. */
function optionsFor(target: ApiObject | CfnResource): LeafOptions {
  return ApiObject.isApiObject(target) ? {} : { isOpaque: (v) => Tokenization.isResolvable(v) };
}

