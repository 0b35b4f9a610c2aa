import * as path from 'path';
import { clusterScopedCrdKinds, namespaceArgs, namespaceRuns } from '../cluster/apply-namespaces';
import { applySequence } from '../cluster/apply-sequence';
import { legacyFieldManager } from '../cluster/field-manager';
import { sequencedObjects } from '../cluster/object-writers';
import { toYaml } from '../private/yaml';
import { maskedManifest } from '../render/lock-build';
import type { PlanStep } from '../render/plan-steps';
import type { Plan } from '../render/writers/plan-json';

/** Why an apply's failure is not its step's: what the apply is, and why going on is right. */
export interface OptionalApply {
  /** What the apply is, as the warning names it (`a release before the merged apply`). */
  readonly what: string;
  /** Why the step goes on (`an object not there yet has nothing to release`). */
  readonly because: string;
}

/** A release of the previous release's managers finds an object not there yet: nothing to release. */
const RELEASE_FIRST: OptionalApply = { what: 'a release before the merged apply', because: 'an object not there yet has nothing to release' };

/** A hand-over to a runtime writer conflicts: its controller changed the field, so it owns it already. */
const HAND_OVER: OptionalApply = {
  what: "a hand-over to a runtime writer's field manager",
  because: 'a conflict means its controller changed the field and owns it already',
};

/** One `kubectl apply --server-side` of a runtime step. */
export interface KubectlApply {
  /** kubectl's arguments. */
  readonly args: readonly string[];
  /** The objects, as YAML documents, when they go on stdin (`-f -`); absent when the step's files are named. */
  readonly input?: string;
  /**
   * `input` as `apply --dry-run` prints it, masked as the lock masks values (`maskedManifest`); absent when
   * nothing in it is masked. Never sent: the command takes `input`.
   */
  readonly shown?: string;
  /**
   * Present when a failure is not the step's, saying why: a release that finds the object not there yet has
   * nothing to release, a hand-over that conflicts finds the controller owning the field already.
   */
  readonly optional?: OptionalApply;
}

/**
 * The `kubectl apply --server-side` commands of one runtime step, one per apply of `applySequence`: the
 * step's files whole under `cdk-capability` (`--force-conflicts`), then each writer's leaves under its own
 * field manager and the releases, on stdin. A plan without writers (from before they were recorded) gets the
 * files applied under the capability's one field manager, as before.
 *
 * Every apply puts a namespaced object whose manifest names no namespace in `default`, where the library's
 * identity, the lock and the waits have it, not in the namespace of kubectl's context: it takes `-n default`.
 * kubectl refuses that for an object naming another namespace, so an apply whose objects mix both is split in
 * runs (`namespaceRuns`), in order, each its own call; the files, which kubectl cannot split, then go on stdin.
 *
 * @param plan the plan, for its writers
 * @param step a runtime step
 * @param outdir the synth's output folder, as the commands name it
 * @param documents the objects of a file of the step (relative to the outdir), as `readRuntimeFiles` read them
 * @param clusterScoped group/kind keys of cluster-scoped kinds beyond the built-in ones
 *   (default: the cluster-scoped CRDs of the step)
 */
export function runtimeApplies(
  plan: Plan,
  step: PlanStep,
  outdir: string,
  documents: (file: string) => readonly unknown[],
  clusterScoped?: ReadonlySet<string>,
): KubectlApply[] {
  const files = step.files.flatMap((f) => ['-f', path.join(outdir, f)]);
  const manifests = step.files.flatMap((f) => documents(f));
  const scoped = clusterScoped ?? clusterScopedCrdKinds(manifests);
  /** The calls of one apply: the step's files whole when one run takes them all, else each run on stdin. */
  const calls = (args: readonly string[], objects: readonly unknown[], wholeFiles: boolean, extra: Pick<KubectlApply, 'optional'> = {}): KubectlApply[] => {
    const runs = namespaceRuns(objects, scoped);
    if (wholeFiles && runs.length <= 1) return [{ args: [...args, ...namespaceArgs(runs[0]), ...files] }];
    return runs.map((r) => {
      const input = r.objects.map(toYaml).join('---\n');
      const shown = r.objects.map((o) => toYaml(maskedManifest(o))).join('---\n');
      return { args: [...args, ...namespaceArgs(r), '-f', '-'], input, ...(shown === input ? {} : { shown }), ...extra };
    });
  };
  if (!plan.writers || plan.writers.length === 0) {
    return calls(['apply', '--server-side', `--field-manager=${legacyFieldManager(step.capability)}`], manifests, true);
  }
  return applySequence(sequencedObjects(manifests, plan.writers)).flatMap((a): KubectlApply[] => {
    const args = ['apply', '--server-side', ...(a.force ? ['--force-conflicts'] : []), `--field-manager=${a.manager}`];
    const optional = a.phase === 'release-first' ? RELEASE_FIRST : a.phase === 'hand-over' ? HAND_OVER : undefined;
    return calls(args, a.objects, a.phase === 'merged', optional ? { optional } : {});
  });
}
