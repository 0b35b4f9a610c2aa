import type { EnforceOptions } from './enforcement/enforce-options';
import { ENFORCEMENT_STEP, withEnforcement } from './enforcement/enforcement-step';
import { buildLock } from './lock-build';
import type { OutputWriter } from './output-writer';
import { planSteps, PlanStep, RuntimeFile } from './plan-steps';
import { GitOpsEngine, teardownOf, Teardown } from './teardown';
import { runtimeFieldManager } from '../cluster/field-manager';
import { leafWritersOf } from '../cluster/object-writers';
import { withHandBacks } from '../cluster/runtime-handback';
import type { Facts, ObjectFact } from '../collect/facts';
import { CrdTopologies } from '../collect/topology/crd-topology';
import { topologyOf } from '../collect/topology/field-topology';
import { toYaml } from '../private/yaml';
import { interfaceArtifact, InterfaceArtifact } from '../release/interface-record';
import type { Lock, LockedUnit } from '../release/lock';
import type { LockKey } from '../release/lock-key';
import { withPolicyUnits } from '../release/locked-policies';
import { diffReleases, Redigest, ReleaseDiff, UnitTopology } from '../release/release-diff';
import { runtimeWriterRecords } from '../release/runtime-writer-record';

/**
 * What every output writer reads: the facts, and what is computed from them
 * once for all writers (the steps in apply order, each object's YAML, the
 * interface artifact, this release's lock and its difference to the previous).
 */
export interface RenderContext {
  /** What collect found. */
  readonly facts: Facts;
  /**
   * The previous release, if any; with a unit for each field-ownership policy a lock written before they
   * were units records by kind and name only (`withPolicyUnits`).
   */
  readonly previous?: Lock;
  /** Every step of both lifecycles, in apply order. */
  readonly steps: readonly PlanStep[];
  /** The runtime files the steps name, in apply order. */
  readonly runtimeFiles: readonly RuntimeFile[];
  /** Each runtime object's YAML document, as written. */
  readonly yaml: ReadonlyMap<ObjectFact, string>;
  /** The content of `interface.json`. */
  readonly artifact: InterfaceArtifact;
  /** The lock of this release. */
  readonly lock: Lock;
  /** What this release changes against the previous one. */
  readonly changes: ReleaseDiff;
  /** How to delete what this release removes, in order. */
  readonly teardown: Teardown;
}

/** The file under the outdir that holds a stack's template. */
export function deployFile(facts: Facts, stack: number): string {
  return `deploy/${facts.stacks[stack].templateFile}`;
}

/**
 * Computes the render context of an accepted composition.
 *
 * @param lockKey the key of the lock's digests of sensitive values, when `CDK_CAPABILITY_LOCK_KEY` gives one
 * @param enforce with it, the admission policies that enforce the ownership map, as a runtime step of their own
 * @param gitops the GitOps engine the output is written for (`gitops/`), if any: the teardown records it
 * @param gitopsRecord what the lock records of that engine's output (`OutputWriter.gitopsRecord`)
 */
export function renderContext(
  facts: Facts,
  locked?: Lock,
  lockKey?: LockKey,
  enforce?: EnforceOptions,
  gitops?: GitOpsEngine,
  gitopsRecord?: OutputWriter['gitopsRecord'],
): RenderContext {
  const previous = locked && withPolicyUnits(locked);
  const plan = planSteps(facts, (stack) => deployFile(facts, stack));
  const { steps, runtimeFiles } = enforce ? withEnforcement(plan, facts, enforce, previous) : plan;
  const yaml = new Map<ObjectFact, string>();
  for (const { objects } of runtimeFiles) for (const o of objects) yaml.set(o, toYaml(o.manifest));
  const runtimeWriters = runtimeWriterRecords(facts.runtimeWriters, facts.objects, (w) => runtimeFieldManager(w.path, w.manager));
  const artifact = interfaceArtifact(facts.contracts, runtimeWriters);
  const policies = runtimeFiles.flatMap((f) => f.objects.filter((o) => o.path === ENFORCEMENT_STEP));
  // the controllers' managers that may still own fields handed back to the release, for audit (docs/cluster.md)
  const masked = new Map<string, ReadonlyMap<string, unknown>>();
  const lock = withHandBacks(buildLock(facts, artifact, yaml, lockKey, policies, masked, gitopsRecord?.(steps, runtimeFiles)), previous);
  // a lock of format 1 digested masked values under their index paths: digest this release's under those to compare
  const redigest: Redigest | undefined =
    lockKey && ((unit, name, as) => (masked.get(unit.id)?.has(name) ? lockKey.digest(unit.id, as, masked.get(unit.id)!.get(name)) : undefined));
  const changes = diffReleases(previous, lock, leafWritersOf, unitTopologies(facts), redigest);
  return { facts, previous, steps, runtimeFiles, yaml, artifact, lock, changes, teardown: teardownOf(previous, lock, gitops) };
}

/**
 * The topology of a locked object's kind, built-in or of a CRD of the composition (undefined for a stack):
 * how the plan names the elements of its lists, by their keys as the ledger does.
 */
function unitTopologies(facts: Facts): UnitTopology {
  let crds: CrdTopologies | undefined;
  return (unit: LockedUnit) => {
    if (unit.groupKind === undefined) return undefined;
    crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
    return topologyOf(String(unit.values?.apiVersion ?? ''), String(unit.values?.kind ?? ''), crds);
  };
}
