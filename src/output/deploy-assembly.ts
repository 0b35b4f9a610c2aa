import * as fs from 'fs';
import * as path from 'path';
import { Stack, Stage } from 'aws-cdk-lib';
import { Capability } from '../constructs/capability';
import { DeploymentAggregate } from '../constructs/deployment-aggregate';
import { SharedBase } from '../constructs/shared-base';
import { EdgeReason, StackDependency } from '../graph/composition-graph';
import { CompositionModel } from '../model/composition-model';
import { errorMessage } from '../private/errors';
import { violation, Violation, ViolationCode } from '../violation';

/** The deployment-time half of a synth: cloud assemblies and stack dependencies. */
export interface DeploySynthesis {
  /** Each capability's cloud assembly folder (scratch space, not the outdir). */
  readonly assemblyDirs: string[];
  /** Stack dependencies as the assemblies record them. */
  readonly stackDependencies: StackDependency[];
  /** Template file of each stack, relative to the assembly. */
  readonly templateFiles: Map<Stack, string>;
  /** The synthesized template of each stack. */
  readonly templates: Map<Stack, any>;
  /** Problems: stacks outside a capability, two shared bases, aws-cdk synthesis errors. */
  readonly violations: Violation[];
}

/**
 * Synthesizes every capability's stacks into a cloud assembly in scratch space.
 *
 * Before that it adds the implicit dependency of each `DeploymentAggregate` on
 * its capability's `SharedBase` to the stacks themselves, so the assembly (and
 * `cdk deploy --all`) honours it.
 */
export function synthesizeDeployment(model: CompositionModel): DeploySynthesis {
  const violations: Violation[] = [];
  for (const { stack, capability } of model.stacks) {
    if (!capability) {
      violations.push(
        violation(
          ViolationCode.INVALID_OBJECT,
          `invalid object: stack '${stack.node.path}' is not inside a Capability, so it belongs to no cloud assembly. Create it with a Capability as scope.`,
          [stack.node.path],
        ),
      );
    }
  }

  const stages = model.capabilities.filter((c) => model.stacks.some((s) => s.capability === c));
  for (const capability of stages) violations.push(...wireSharedBase(capability, model));

  const assemblyDirs: string[] = [];
  const stackDependencies: StackDependency[] = [];
  const templateFiles = new Map<Stack, string>();
  const templates = new Map<Stack, any>();
  if (violations.length > 0) return { assemblyDirs, stackDependencies, templateFiles, templates, violations };

  for (const capability of stages) {
    const byArtifact = new Map<string, Stack>();
    for (const s of model.stacks) if (s.capability === capability) byArtifact.set(s.stack.artifactId, s.stack);
    try {
      // Not forced: a second synth of an unchanged tree reuses the first assembly (forcing
      // would append metadata again), and aws-cdk refuses a tree changed since then.
      const assembly = (capability as Stage).synth();
      assemblyDirs.push(assembly.directory);
      for (const artifact of assembly.stacks) {
        const to = byArtifact.get(artifact.id);
        if (!to) continue;
        templateFiles.set(to, artifact.templateFile);
        templates.set(to, artifact.template);
        for (const dep of artifact.dependencies) {
          const from = byArtifact.get(dep.id);
          if (from) stackDependencies.push({ from, to, reason: reasonFor(from, to) });
        }
      }
    } catch (e) {
      violations.push(synthesisViolation(capability, errorMessage(e)));
    }
  }
  return { assemblyDirs, stackDependencies, templateFiles, templates, violations };
}

/** Turns an aws-cdk synthesis error into a violation, with our advice where we have some. */
function synthesisViolation(capability: Capability, message: string): Violation {
  const where = `the stacks of capability '${capability.node.path}' could not be synthesized`;
  if (/cycl/i.test(message)) {
    return violation(ViolationCode.DEPENDENCY_CYCLE, `dependency cycle: ${where}: ${message}`, [capability.node.path]);
  }
  if (/cross stage boundaries/.test(message)) {
    return violation(
      ViolationCode.INVALID_OBJECT,
      `invalid object: ${where}: ${message}. Each capability deploys on its own; share values between capabilities through an InterfaceContract, or put stacks that depend on each other in one capability.`,
      [capability.node.path],
    );
  }
  if (/modified after the first synthesis/.test(message)) {
    return violation(
      ViolationCode.INVALID_OBJECT,
      `invalid object: ${where}: constructs were added after a previous synth of this app. Build the whole composition before the first synth, or build a new app.`,
      [capability.node.path],
    );
  }
  return violation(ViolationCode.INVALID_OBJECT, `invalid object: ${where}: ${message}`, [capability.node.path]);
}

/** One shared base per capability; every tenant aggregate depends on it. */
function wireSharedBase(capability: Capability, model: CompositionModel): Violation[] {
  const mine = model.stacks.filter((s) => s.capability === capability).map((s) => s.stack);
  const bases = mine.filter((s) => SharedBase.isSharedBase(s));
  if (bases.length > 1) {
    const paths = bases.map((b) => b.node.path);
    return [
      violation(
        ViolationCode.DUPLICATE_OBJECT,
        `duplicate object: capability '${capability.node.path}' declares ${bases.length} shared bases (${paths.map((p) => `'${p}'`).join(', ')}). Keep one SharedBase per capability and put shared resources in it.`,
        paths,
      ),
    ];
  }
  const [base] = bases;
  if (!base) return [];
  const violations: Violation[] = [];
  for (const aggregate of mine.filter((s) => DeploymentAggregate.isDeploymentAggregate(s))) {
    try {
      aggregate.addStackDependency(base, EdgeReason.SHARED_BASE);
    } catch (e) {
      violations.push(
        violation(
          ViolationCode.DEPENDENCY_CYCLE,
          `dependency cycle: '${aggregate.node.path}' must deploy after its shared base '${base.node.path}', but ${errorMessage(e)}. Remove the dependency of the shared base on the tenant aggregate.`,
          [aggregate.node.path, base.node.path],
        ),
      );
    }
  }
  return violations;
}

function reasonFor(from: Stack, to: Stack): string {
  const sameCapability = Capability.tryOf(from) === Capability.tryOf(to);
  return sameCapability && SharedBase.isSharedBase(from) && DeploymentAggregate.isDeploymentAggregate(to) ? EdgeReason.SHARED_BASE : EdgeReason.STACK;
}

/**
 * Merges the capabilities' cloud assemblies into one manifest, so
 * `cdk deploy --app <outdir>/deploy --all` sees every stack.
 *
 * @returns the merged `manifest.json` and the files to copy, as [source, name]
 */
export function mergeAssemblies(dirs: readonly string[]): { manifest: string; files: Array<[string, string]> } {
  const merged: any = { version: undefined, artifacts: {} };
  const files: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf-8'));
    merged.version ??= manifest.version;
    Object.assign(merged.artifacts, manifest.artifacts ?? {});
    if (manifest.missing) merged.missing = [...(merged.missing ?? []), ...manifest.missing];
    for (const entry of fs.readdirSync(dir).sort()) {
      if (entry === 'manifest.json' || seen.has(entry)) continue;
      seen.add(entry);
      files.push([path.join(dir, entry), entry]);
    }
  }
  return { manifest: JSON.stringify(merged, undefined, 2) + '\n', files };
}
