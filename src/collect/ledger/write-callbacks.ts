import { CfnResource, Tokenization } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { attributeName, cloudFormationDocOf, ResourceAttributes, resourceAttributesOf } from './cloudformation-doc';
import { LabelRecorder } from './label-recorder';
import type { LeafOptions } from './leaves';
import { RenderChange, renderDelta } from './render-delta';
import { StatementGrant, statementsAdded } from './statement-grants';
import { Contribution, writeCallbackOf } from '../../constructs/contribution';
import { appendAll } from '../../private/append';
import { errorMessage } from '../../private/errors';
import { policyDocumentOf, renderStatement, StatementAdditions } from '../../private/statement-additions';
import { renderWithoutPatches, watchCfnOptions } from '../../private/upstream-state';
import { attributeTo } from '../../private/write-calls';
import { statementsPathOf } from '../topology/cloudformation-topology';

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
 * as grants (`OutsideWrites`).
 *
 * @returns the runs, the problems, the statements callbacks added to policies that exist, and whether any
 *   callback ran now (it may have created constructs)
 */
export function runWriteCallbacks(
  contributions: readonly Contribution[],
  constructs: readonly IConstruct[] = [],
): { runs: CallbackRun[]; problems: CallbackProblem[]; grants: StatementGrant[]; ranNow: boolean } {
  const outside = OutsideWrites.watch(constructs, contributions);
  try {
    return runAll(contributions, outside);
  } finally {
    outside?.stop();
  }
}

function runAll(contributions: readonly Contribution[], outside: OutsideWrites | undefined): ReturnType<typeof runWriteCallbacks> {
  const runs: CallbackRun[] = [];
  const problems: CallbackProblem[] = [];
  const ran: Contribution[] = []; // the contribution of each run, by index
  const lastOf = new Map<ApiObject | CfnResource, number>(); // each target's last run so far
  let ranNow = false;
  let open: OpenRun | undefined; // the callbacks on one target running one after another now
  const setAfter = (index: number, after: unknown) => {
    runs[index] = { ...runs[index], after };
    done.set(ran[index], runs[index]);
  };
  // ends the open run: a recorded run's last callback gets its render after, checked against what was recorded
  const close = (verify: boolean) => {
    if (open?.recorder?.pending && open.last !== undefined) {
      if (verify) {
        const after = renderOf(open.target)();
        setAfter(open.last, after);
        const difference = open.recorder.differenceFrom(after);
        if (difference !== undefined) {
          const problem = unseenWrite(open.target, open.writers, difference);
          problems.push(problem);
          done.set(ran[open.last], problem); // a second synth reuses the run: it is refused again
        }
      } else {
        // a problem ended the run, so the target is not what the recorder kept: the kept render stands for its render after (the synth is refused: CAP010)
        setAfter(open.last, open.recorder.ordered());
      }
    }
    open = undefined;
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
      if ('path' in started) {
        outcome = started;
      } else {
        open = started;
        open.writers.push(writer);
        outcome = runOne(open, writer, () => attributeTo({ path: writer, kind: 'contribution-write' }, () => callback.write(callback.construct)));
      }
      outside?.ran(c);
      ranNow = true;
    } else {
      close(true);
    }
    if (!('target' in outcome)) {
      close(false);
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
    if (open?.target === outcome.target) open.last = runs.length;
    done.set(c, outcome);
    ran.push(c);
    runs.push(outcome);
  }
  close(true);
  const outcome = outside?.outcome();
  if (outcome?.problem) {
    problems.push(outcome.problem.problem);
    done.set(outcome.problem.first, outcome.problem.problem); // a second synth reuses the runs: it is refused again, once
  }
  if (outcome && outcome.grants.length > 0) {
    const byPath = new Map(contributions.map((c) => [c.node.path, c]));
    for (const g of outcome.grants) {
      const c = byPath.get(g.writer)!;
      granted.set(c, [...(granted.get(c) ?? []), g]);
    }
  }
  const grants = contributions.flatMap((c) => granted.get(c) ?? []);
  return { runs, problems, grants, ranNow };
}

/**
 * The CloudFormation resources that write callbacks must leave alone: every
 * resource that exists before they run and is no callback's target, rendered
 * once before the callbacks and once after them (not around each, which would
 * cost the resources times the callbacks). A resource a callback creates is
 * its own, not watched.
 *
 * One write into such a resource is a callback's own: a statement it adds to
 * a policy (`StatementAdditions` follows, by callback, what is added to the
 * documents of the policies watched). A policy whose only change is such
 * statements is no problem; the statements are the callbacks' grants.
 */
class OutsideWrites {
  /** Watches the resources among `constructs`; undefined, and free, when no callback is left to run or there is no such resource. */
  public static watch(constructs: readonly IConstruct[], contributions: readonly Contribution[]): OutsideWrites | undefined {
    const pending = contributions.filter((c) => !done.has(c));
    if (pending.length === 0) return undefined;
    const targets = new Set<unknown>(contributions.map((c) => c.apiObject ?? c.cfnResource));
    const before = new Map<CfnResource, string>();
    const documents = new Map<CfnResource, object>();
    for (const c of constructs) {
      if (!CfnResource.isCfnResource(c) || targets.has(c)) continue;
      const text = resourceText(c);
      if (text === undefined) continue;
      before.set(c, text);
      const document = statementsPathOf(c.cfnResourceType) ? policyDocumentOf(c) : undefined;
      if (document) documents.set(c, document);
    }
    if (before.size === 0) return undefined;
    return new OutsideWrites(before, documents, documents.size > 0 ? StatementAdditions.follow(documents.values()) : undefined);
  }

  private readonly ranNow: Contribution[] = [];

  private constructor(
    private readonly before: ReadonlyMap<CfnResource, string>,
    private readonly documents: ReadonlyMap<CfnResource, object>,
    private readonly additions: StatementAdditions | undefined,
  ) {}

  /** Notes a callback that ran now. */
  public ran(c: Contribution): void {
    this.ranNow.push(c);
  }

  /** Stops following what is added to policies. */
  public stop(): void {
    this.additions?.stop();
  }

  /**
   * What the callbacks that ran did to the resources watched: the statements
   * they added to policies, and the problem of the callbacks when a resource
   * renders otherwise after them in any other way (what was written there
   * cannot be attributed: the declarer would be taken to have written it).
   * The problem is named by the callback when one ran, else by all that ran.
   */
  public outcome(): { problem?: { problem: CallbackProblem; first: Contribution }; grants: StatementGrant[] } {
    const changed: string[] = [];
    const grants: StatementGrant[] = [];
    let policies = true;
    for (const [resource, text] of this.before) {
      const same = resourceText(resource) === text;
      const added = this.grantsInto(resource, text);
      if (added) {
        appendAll(grants, added);
        continue;
      }
      if (same) continue;
      changed.push(resource.node.path);
      policies &&= statementsPathOf(resource.cfnResourceType) !== undefined;
    }
    if (changed.length === 0 || this.ranNow.length === 0) return { grants };
    const fix = policies
      ? 'A callback may add statements to a policy that exists (a grant): each is its own write; it may not change or remove the statements already there, or the policy\'s other properties. '
        + 'Make only the grant in the callback, or write the policy where it is declared'
      : 'Write another resource with a Contribution whose target is that resource (a grant is fine: a resource a callback creates is its own, and so is a statement it adds to a policy that exists)';
    const [first, ...others] = this.ranNow.map((c) => c.node.path);
    const which = others.length === 0 ? 'its write callback' : `one of the write callbacks of it and ${others.map((w) => `'${w}'`).join(', ')}`;
    const resources = changed.map((p) => `'${p}'`).join(', ');
    return {
      grants,
      problem: {
        first: this.ranNow[0],
        problem: {
          path: first,
          ...(others.length > 0 ? { others } : {}),
          error:
            `${which} changed ${changed.length === 1 ? 'the resource' : 'the resources'} ${resources}, which ${changed.length === 1 ? 'is' : 'are'} not its target, ` +
            'so what it wrote there would be taken for its declarer\'s and could replace a value the declarer set without a conflict. ' + fix,
        },
      },
    };
  }

  /**
   * The statements callbacks added to a watched policy, when that is all they
   * did to it (`statementsAdded`); undefined when they added none, or did more.
   */
  private grantsInto(resource: CfnResource, text: string): StatementGrant[] | undefined {
    const document = this.documents.get(resource);
    const additions = document ? this.additions?.of(document) ?? [] : [];
    if (additions.length === 0) return undefined;
    const [properties, attributes] = JSON.parse(text) as [unknown, unknown];
    let declared: boolean[] | undefined;
    try {
      if (JSON.stringify(resourceAttributesOf(resource).doc) !== JSON.stringify(attributes)) return undefined;
      const rendered = additions.map((a) => renderStatement(a.statement, resource));
      declared = statementsAdded(properties, cloudFormationDocOf(resource), statementsPathOf(resource.cfnResourceType)!, rendered);
    } catch {
      return undefined; // it cannot be rendered now: a change, refused
    }
    return declared?.map((d, i) => ({ resource, writer: additions[i].writer, statement: additions[i].statement, declared: d }));
  }
}

/** A resource's properties and attributes as one text, to tell whether it changed; undefined when it cannot be rendered yet. */
function resourceText(resource: CfnResource): string | undefined {
  try {
    return JSON.stringify([cloudFormationDocOf(resource), resourceAttributesOf(resource).doc]);
  } catch {
    return undefined;
  }
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
    rendered = renderOf(target)();
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

/**
 * Runs one callback of the open run: recorded when the run has a recorder and
 * the callback writes only what it follows, else between the target's render
 * now and a render after it.
 */
function runOne(open: OpenRun, writer: string, write: () => void): CallbackRun | CallbackProblem {
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
  changes = renderDelta(open.recorder ? open.recorder.ordered() : open.rendered, after, optionsFor(target));
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

/** How a target renders: a Kubernetes object's manifest without its JSON patches, a CloudFormation resource's properties with its tags as a map. */
function renderOf(target: ApiObject | CfnResource): () => unknown {
  return () => (ApiObject.isApiObject(target) ? renderWithoutPatches(target) : cloudFormationDocOf(target));
}

/** Tokens are values, never walked into, in a CloudFormation resource's render. */
function optionsFor(target: ApiObject | CfnResource): LeafOptions {
  return ApiObject.isApiObject(target) ? {} : { isOpaque: (v) => Tokenization.isResolvable(v) };
}

