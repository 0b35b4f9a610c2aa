import { IConstruct } from 'constructs';
import { check } from '../check/check';
import { Finding, toViolation, Violation } from '../check/finding';
import { internalError } from '../check/internal-error';
import { collect } from '../collect/collect';
import type { Facts } from '../collect/facts';
import { constructPathOf } from '../private/guard';
import { pulse } from '../private/heartbeat';
import type { InterfaceArtifact } from '../release/interface-record';
import type { Lock } from '../release/lock';
import type { LockKey } from '../release/lock-key';
import { followStackRenames } from '../release/stack-renames';
import type { EnforceOptions } from '../render/enforcement/enforce-options';
import type { OutputTree } from '../render/output-tree';
import type { OutputWriter } from '../render/output-writer';
import type { RuntimeFile } from '../render/plan-steps';
import { render } from '../render/render';
import { planOf, Plan } from '../render/writers/plan-json';

/** What the pipeline is given besides the construct tree. */
export interface PipelineOptions {
  /** The previous release; absent for a first release. */
  readonly previous?: Lock;
  /** Why the lock file could not be read (one problem each, naming its JSON pointer), when it could not. */
  readonly lockProblems?: readonly string[];
  /** The key of the lock's digests of sensitive values (`CDK_CAPABILITY_LOCK_KEY`), if any. */
  readonly lockKey?: LockKey;
  /** The output formats. */
  readonly writers: readonly OutputWriter[];
  /** With it, the output holds the admission policies that enforce the ownership map. */
  readonly enforce?: EnforceOptions;
  /** `root.node.findAll()`, when the caller walked the tree just before and nothing has changed it since: collect walks it itself without. */
  readonly constructs?: readonly IConstruct[];
}

/** Everything a synth produces, before anything is written. */
export interface SynthesisResult {
  /** Every refusal, sorted; empty when the composition is accepted. */
  readonly violations: Violation[];
  /** Findings that do not refuse the composition (`possible secret`), sorted. */
  readonly warnings: Violation[];
  /** What collect found; absent when collect itself crashed. */
  readonly facts?: Facts;
  /** The plan (absent when refused). */
  readonly plan?: Plan;
  /** The content of `interface.json` (absent when refused). */
  readonly interface?: InterfaceArtifact;
  /** The runtime files in apply order (absent when refused). */
  readonly runtimeFiles?: RuntimeFile[];
  /** The lock of this release, to commit when it is accepted (absent when refused). */
  readonly lock?: Lock;
  /** The files to write under the outdir (absent when refused). */
  readonly output?: OutputTree;
}

/** A stage of the pipeline. */
type Stage = 'collect' | 'check' | 'render';

/**
 * The pipeline: `collect(root) -> Facts`, `check(facts, previous) -> Finding[]`,
 * `render(facts) -> OutputTree`, data flowing one way. Writes nothing. An
 * exception escaping a stage becomes the one `CAP000` finding of the result,
 * naming the stage and, when known, the construct.
 *
 * @param root the app (or any root construct)
 */
export function synthesize(root: IConstruct, options: PipelineOptions): SynthesisResult {
  const facts = guarded('collect', root, undefined, () => collect(root, options.constructs));
  if (isCrash(facts)) return refused([facts]);
  pulse();

  const claims = options.writers.flatMap((w) => w.claims ?? []);
  const gitops = options.writers.find((w) => w.gitopsEngine !== undefined)?.gitopsEngine;
  // a stack construct renamed with its stackName kept is the same CloudFormation stack: the lock names it as this release does
  const previous = options.previous && followStackRenames(options.previous, facts.stacks);
  const findings = guarded('check', root, facts, () => check({ facts, previous, lockProblems: options.lockProblems, claims, gitops, enforce: options.enforce }));
  if (isCrash(findings)) return refused([findings], facts);
  pulse();
  const errors = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning').map(toViolation);
  if (errors.length > 0) return { ...refused(errors, facts), warnings };

  const rendered = guarded('render', root, facts, () => render(facts, previous, options.writers, options.lockKey, options.enforce));
  if (isCrash(rendered)) return { ...refused([rendered], facts), warnings };
  pulse();
  const { context, output } = rendered;
  return {
    violations: [],
    warnings,
    facts,
    plan: planOf(context),
    interface: context.artifact,
    runtimeFiles: [...context.runtimeFiles],
    lock: context.lock,
    output,
  };
}

/** Runs one stage; an exception becomes its `CAP000` finding. */
function guarded<T>(stage: Stage, root: IConstruct, facts: Facts | undefined, run: () => T): T | Crash {
  try {
    return run();
  } catch (e) {
    return { crash: internalError(`the '${stage}' stage`, e, constructPathOf(e, knownPaths(root, facts))) };
  }
}

interface Crash {
  readonly crash: Finding;
}

function isCrash(x: unknown): x is Crash {
  return x !== null && typeof x === 'object' && 'crash' in x;
}

function refused(findings: ReadonlyArray<Finding | Crash>, facts?: Facts): SynthesisResult {
  const violations = findings.map((f) => toViolation(isCrash(f) ? f.crash : f));
  return { violations, warnings: [], facts };
}

/** The construct paths a crash message may quote. */
function* knownPaths(root: IConstruct, facts: Facts | undefined): Iterable<string> {
  if (facts) {
    for (const o of facts.objects) yield o.path;
    for (const s of facts.stacks) yield s.path;
    for (const c of facts.charts) yield c.path;
    return;
  }
  try {
    for (const c of root.node.findAll()) yield c.node.path;
  } catch {
    // the tree itself is broken; report the crash without a path
  }
}
