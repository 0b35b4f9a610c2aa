import { IConstruct } from 'constructs';
import { boundaryLeaks } from '../checks/boundary-leaks';
import { Check, runChecks } from '../checks/check';
import { contractUsage } from '../checks/contract-usage';
import { danglingReferences } from '../checks/dangling-references';
import { dependencyCycles } from '../checks/dependency-cycles';
import { duplicateObjects, fieldConflicts, identityRewrites as identityRewriteCheck, physicalNameClaims, statusWrites } from '../checks/field-ownership';
import { objectValidity } from '../checks/object-validity';
import { possibleSecrets } from '../checks/possible-secrets';
import { deletionSafety, interfaceCompatibility } from '../checks/release-safety';
import { buildCompositionGraph } from '../graph/composition-graph';
import { recordCloudFormationWrites } from '../ledger/cloudformation-writes';
import { FieldLedger } from '../ledger/field-ledger';
import { findPhysicalNameClashes } from '../ledger/physical-names';
import { recordRuntimeWrites } from '../ledger/runtime-writes';
import { collectModel } from '../model/collect';
import { CompositionModel, RuntimeObject } from '../model/composition-model';
import { OutputTree } from '../output/atomic-output';
import { mergeAssemblies, synthesizeDeployment } from '../output/deploy-assembly';
import { GitOps, gitopsFiles } from '../output/gitops';
import { InterfaceArtifact, interfaceArtifact } from '../output/interface-artifact';
import { PlanStep, planSteps, RuntimeFile } from '../output/plan';
import { PhaseGuard } from '../private/guard';
import { toYaml } from '../private/yaml';
import { buildLock, Lock } from '../release/lock';
import { diffReleases, ReleaseDiff } from '../release/release-diff';
import { compareViolations, Violation } from '../violation';

/** The checks every synth runs, in report order. */
export const CHECKS: readonly Check[] = [
  duplicateObjects,
  fieldConflicts,
  identityRewriteCheck,
  physicalNameClaims,
  statusWrites,
  dependencyCycles,
  boundaryLeaks,
  contractUsage,
  objectValidity,
  danglingReferences,
  interfaceCompatibility,
  deletionSafety,
];

/** Checks whose findings are warnings (printed, never a refusal), in report order. */
export const WARNINGS: readonly Check[] = [possibleSecrets];

/** The plan written to `plan.json`. */
export interface Plan {
  /** Format version of this file. */
  readonly version: 1;
  /** The capabilities of the app. */
  readonly capabilities: Array<{
    /** The capability's construct path. */
    readonly name: string;
    /** Its description, if it has one. */
    readonly description?: string;
  }>;
  /** What this release changes against the lock. */
  readonly changes: ReleaseDiff;
  /** Every step of both lifecycles, in apply order. */
  readonly steps: PlanStep[];
}

/** Options of `synthesize`. */
export interface SynthesizeOptions {
  /** The previous release; absent for a first release. */
  readonly previous?: Lock;
  /** The GitOps engine to write `gitops/` for; absent writes none. */
  readonly gitops?: GitOps;
}

/** Everything a synth produces, before anything is written. */
export interface SynthesisResult {
  /** Every violation, sorted; empty when the composition is accepted. */
  readonly violations: Violation[];
  /** Findings that do not refuse the composition (`possible secret`), sorted. */
  readonly warnings: Violation[];
  /** The model collected from the construct tree. */
  readonly model: CompositionModel;
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

/**
 * Collects, checks and renders a composition without writing anything.
 *
 * @param root the app (or any root construct)
 */
export function synthesize(root: IConstruct, options: SynthesizeOptions = {}): SynthesisResult {
  const guard = new PhaseGuard(root);
  return guard.run(
    () => synthesizePhases(root, guard, options),
    (model, violations) => ({ violations: violations.sort(compareViolations), warnings: [], model }),
  );
}

/** The phases of `synthesize`; an exception escaping any of them becomes a violation naming the phase. */
function synthesizePhases(root: IConstruct, guard: PhaseGuard, options: SynthesizeOptions): SynthesisResult {
  const model = collectModel(root);
  guard.enter('ledger recording', model);
  const ledger = new FieldLedger();
  const { duplicates, identityRewrites } = recordRuntimeWrites(model, ledger);
  guard.enter('deploy synthesis');
  const deploy = synthesizeDeployment(model);
  guard.enter('ledger recording');
  recordCloudFormationWrites(model, ledger);
  const physicalNames = findPhysicalNameClashes(model, deploy.templates);
  const writes = { ledger, duplicates, identityRewrites, physicalNames, templates: deploy.templates };
  guard.enter('graph');
  const graph = buildCompositionGraph(model, deploy.stackDependencies);
  const sorted = graph.graph.sort();
  const checked = runChecks(CHECKS, { model, graph, sorted, writes, previous: options.previous });
  const warnings = runChecks(WARNINGS, { model, graph, sorted, writes }).sort(compareViolations);
  const violations = [...model.violations, ...deploy.violations, ...checked].sort(compareViolations);
  if (violations.length > 0) return { violations, warnings, model };
  guard.enter('plan and render');

  const { steps, runtimeFiles } = planSteps(graph.graph, sorted, (unit) => `deploy/${deploy.templateFiles.get(unit.stack.stack)}`);
  const artifact = interfaceArtifact(model.contracts);
  const yaml = new Map<RuntimeObject, string>();
  for (const { objects } of runtimeFiles) for (const o of objects) yaml.set(o, toYaml(o.manifest));
  const lock = buildLock(graph, deploy.templates, artifact, yaml);
  const plan: Plan = {
    version: 1,
    capabilities: model.capabilities.map((c) => ({ name: c.node.path, description: c.description })),
    changes: diffReleases(options.previous, lock),
    steps,
  };

  const files = new Map<string, string>();
  const copies = new Map<string, string>();
  files.set('plan.json', JSON.stringify(plan, undefined, 2) + '\n');
  files.set('interface.json', JSON.stringify(artifact, undefined, 2) + '\n');
  for (const { file, objects } of runtimeFiles) {
    files.set(file, objects.map((o) => yaml.get(o)).join('---\n'));
  }
  if (runtimeFiles.length > 0) files.set('runtime/kustomization.yaml', kustomization(runtimeFiles));
  const gitops = gitopsFiles(options.gitops, steps, runtimeFiles);
  if (gitops.violations.length > 0) return { violations: gitops.violations.sort(compareViolations), warnings, model };
  gitops.files.forEach((content, file) => files.set(file, content));
  if (deploy.assemblyDirs.length > 0) {
    const merged = mergeAssemblies(deploy.assemblyDirs);
    files.set('deploy/manifest.json', merged.manifest);
    for (const [source, name] of merged.files) copies.set(`deploy/${name}`, source);
  }
  return { violations, warnings, model, plan, interface: artifact, runtimeFiles, lock, output: { files, copies } };
}

/** A kustomization that applies the runtime files in order (`sortOptions: fifo` keeps it). */
function kustomization(runtimeFiles: readonly RuntimeFile[]): string {
  return toYaml({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources: runtimeFiles.map((f) => f.file.slice('runtime/'.length)),
  });
}
