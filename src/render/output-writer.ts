import type { OutputTree } from './output-tree';
import type { PlanStep, RuntimeFile } from './plan-steps';
import type { RenderContext } from './render-context';
import type { GitOpsEngine } from './teardown';
import type { AnnotationClaim } from '../check/rule';
import type { LockedGitOps } from '../release/lock';

/**
 * One output format: a pure function from the render context to files under
 * the outdir. A new format is one writer file and one line in `writers.ts`
 * (or, for a GitOps engine, one `GitOps` factory).
 */
export interface OutputWriter {
  /** What it writes, for example `plan.json`. */
  readonly name: string;
  /** Annotations it writes on every runtime object, which no construct may write (checked before rendering). */
  readonly claims?: readonly AnnotationClaim[];
  /** For the writer of a GitOps engine's output (`gitops/`): the engine, `flux` or `argocd`, which the teardown records. */
  readonly gitopsEngine?: GitOpsEngine;
  /** For the writer of a GitOps engine's output: what the lock records of it (`Lock.gitops`), from the plan's steps. */
  readonly gitopsRecord?: (steps: readonly PlanStep[], runtimeFiles: readonly RuntimeFile[]) => LockedGitOps;
  /** Adds its files to `out`. */
  write(context: RenderContext, out: OutputTree): void;
}
