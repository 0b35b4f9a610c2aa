import * as fs from 'fs';
import { CloudFormationValidatePlugin, Stack, Stage } from 'aws-cdk-lib';
import { DeploySynthesis, noDeployment } from './deploy-result';
import type { ConstructAnnotation, StackDependencyHop, TemplateFinding, WiringError } from './facts';
import { Capability } from '../constructs/capability';
import { DeploymentAggregate } from '../constructs/deployment-aggregate';
import { SharedBase } from '../constructs/shared-base';
import { EdgeReason, stackEdge } from './graph/composition-graph';
import { nodeStackCycles } from './node-stack-cycles';
import { secondLibraryCopy } from './render-error';
import { appendAll } from '../private/append';
import { hasBrand } from '../private/brand';
import { asPackageStackDependencies } from '../private/dependency-calls';
import { errorMessage } from '../private/errors';
import { INVALID_OBJECT } from '../private/invalid-input';
import { RunFolder } from '../private/run-folder';
import { DEPENDENCY_CYCLE, refusingStackCycles } from '../private/stack-cycle-refusal';
import { stackDependencyPath } from '../private/stack-dependency-path';
import { keepingUniqueIds } from '../private/unique-ids';

export type { DeploySynthesis } from './deploy-result';

/** A stack of the composition and its capability. */
export interface StackInCapability {
  /** The stack. */
  readonly stack: Stack;
  /** Its capability, if any. */
  readonly capability?: Capability;
}

/**
 * Synthesizes every capability's stacks into a cloud assembly in the run folder.
 *
 * Before that it makes each `DeploymentAggregate` depend on its capability's
 * `SharedBase`, so the assembly (and `cdk deploy --all`) honours it. Nothing is
 * synthesized while a stack lies outside every capability or a capability has
 * two shared bases: the rules of the check stage refuse those.
 */
export function synthesizeDeployment(capabilities: readonly Capability[], stacks: readonly StackInCapability[], validate = false): DeploySynthesis {
  const result = noDeployment();
  const stages = capabilities.filter((c) => stacks.some((s) => s.capability === c));
  const bases = (c: Capability) => stacks.filter((s) => s.capability === c && SharedBase.isSharedBase(s.stack));
  if (stacks.some((s) => !s.capability) || stages.some((c) => bases(c).length > 1)) return result;

  // a Capability of a second copy of cdk-capability: its stacks are the other copy's to synthesize, which no one does
  for (const capability of stages) {
    const copies = secondLibraryCopy(capability, Capability);
    if (copies === undefined) continue;
    const paths = [capability.node.path];
    result.synthesisErrors.push({ capability: capability.node.path, error: copies, refused: { code: INVALID_OBJECT, message: copies, paths } });
  }
  if (result.synthesisErrors.length > 0) return result;
  for (const capability of stages) appendAll(result.wiringErrors, wireSharedBase(capability, stacks, result.synthesisErrors));
  if (result.wiringErrors.length > 0 || result.synthesisErrors.length > 0) return result;
  // A node.addDependency between stacks becomes a stack dependency only in synth, which
  // refuses one that closes a cycle in aws-cdk's words: named here as the graph names one.
  const closed = stages.map((c) => nodeStackCycles(c, stackHop));
  for (const c of closed) appendAll(result.stackCycles, c.cycles);
  if (closed.some((c) => c.closesCycle)) return result;

  const toValidate: TemplateToValidate[] = [];
  for (const capability of stages) {
    const byArtifact = new Map<string, Stack>();
    for (const s of stacks) if (s.capability === capability) byArtifact.set(s.stack.artifactId, s.stack);
    try {
      // Not forced: a second synth of an unchanged tree reuses the first assembly (forcing
      // would append metadata again), and aws-cdk refuses a tree changed since then.
      const assembly = refusingStackCycles(() => synthesizeStage(capability));
      result.assemblyDirs.push(assembly.directory);
      for (const artifact of assembly.stacks) {
        const stack = byArtifact.get(artifact.id);
        if (validate && stack) toValidate.push({ capability, stack, artifact });
      }
      for (const artifact of assembly.stacks) appendAll(result.annotations, annotationsOf(artifact.messages));
      for (const artifact of assembly.stacks) {
        const to = byArtifact.get(artifact.id);
        if (!to) continue;
        result.templateFiles.set(to, artifact.templateFile);
        result.templates.set(to, artifact.template);
        for (const dep of artifact.dependencies) {
          const from = byArtifact.get(dep.id);
          if (from) result.stackDependencies.push({ from, to, reason: reasonFor(from, to) });
        }
      }
    } catch (e) {
      const refused = refusalOf(e);
      result.synthesisErrors.push({ capability: capability.node.path, error: errorMessage(e), ...(refused ? { refused } : {}) });
    }
  }
  if (toValidate.length > 0) result.templateFindings = validateTemplates(toValidate);
  return result;
}

/**
 * The error and warning annotations (`Annotations.of(c).addError/addWarning`) a stack's artifact records, as `cdk synth`
 * reads them: an acknowledged warning is not recorded. The construct path without the leading `/` of the metadata's.
 */
function annotationsOf(
  messages: ReadonlyArray<{ readonly level: string; readonly id: string; readonly entry: { readonly data?: unknown } }>,
): ConstructAnnotation[] {
  const found: ConstructAnnotation[] = [];
  for (const { level, id, entry } of messages) {
    if (level !== 'error' && level !== 'warning') continue;
    found.push({ path: id.replace(/^\//, ''), level, message: String(entry.data) });
  }
  return found;
}

/**
 * The one violation of a refusal this library threw while aws-cdk synthesized (a `CompositionError` of one
 * construct, such as `stackCycleRefusal`'s), its message without the code's title; undefined for any other error.
 */
function refusalOf(e: unknown): { code: string; message: string; paths: readonly string[] } | undefined {
  if (!hasBrand(e, 'CompositionError')) return undefined;
  const violations = (e as { violations?: ReadonlyArray<{ code: string; message: string; paths: readonly string[] }> }).violations;
  if (violations?.length !== 1) return undefined;
  const [{ code, message, paths }] = violations;
  return { code, message: message.slice(message.indexOf(': ') + 2), paths };
}

/**
 * Every tenant aggregate of the capability after its shared base: the cycles it closes, and any other error of it
 * (this library's refusal of an aws-cdk-lib older than the peer range, `CAP010`) as the capability's synthesis error.
 */
function wireSharedBase(capability: Capability, stacks: readonly StackInCapability[], synthesisErrors: DeploySynthesis['synthesisErrors']): DeploySynthesis['wiringErrors'] {
  const mine = stacks.filter((s) => s.capability === capability).map((s) => s.stack);
  const base = mine.find((s) => SharedBase.isSharedBase(s));
  if (!base) return [];
  const errors: DeploySynthesis['wiringErrors'] = [];
  // each call computes the base's unique id (an MD5 of its path) twice: once for all
  keepingUniqueIds(() => {
    for (const aggregate of mine.filter((s) => DeploymentAggregate.isDeploymentAggregate(s))) {
      try {
        asPackageStackDependencies(() => aggregate.addStackDependency(base, EdgeReason.SHARED_BASE));
      } catch (e) {
        if (!closesCycle(e)) {
          const refused = refusalOf(e);
          synthesisErrors.push({ capability: capability.node.path, error: errorMessage(e), ...(refused ? { refused } : {}) });
          return;
        }
        errors.push({ tenant: aggregate.node.path, base: base.node.path, error: errorMessage(e), dependsOn: dependencyPath(base, aggregate) });
      }
    }
  });
  return errors;
}

/**
 * True when a stack dependency was refused for closing a cycle: this library's refusal of it (`CAP004`), or
 * aws-cdk's own words for it ("... would create a cyclic reference").
 */
function closesCycle(e: unknown): boolean {
  const refused = refusalOf(e);
  return refused ? refused.code === DEPENDENCY_CYCLE : /cycl/i.test(errorMessage(e));
}

/**
 * How `from` depends on `to` through the stack dependencies made so far
 * (`stackDependencyPath`), each hop named as a graph edge names it; empty
 * when it does not.
 */
function dependencyPath(from: Stack, to: Stack): WiringError['dependsOn'] {
  const path = stackDependencyPath(from, to) ?? [];
  return path.slice(1).map((dependency, i) => stackHop(path[i], dependency));
}

/** A stack dependency of `dependent` on `dependency` made before synth, named as a graph edge names it. */
function stackHop(dependent: Stack, dependency: Stack): StackDependencyHop {
  const { reason, origin } = stackEdge({ from: dependency, to: dependent, reason: reasonFor(dependency, dependent) });
  return { dependent: dependent.node.path, dependency: dependency.node.path, reason, ...(origin !== undefined ? { origin } : {}) };
}

function reasonFor(from: Stack, to: Stack): string {
  const sameCapability = Capability.tryOf(from) === Capability.tryOf(to);
  return sameCapability && SharedBase.isSharedBase(from) && DeploymentAggregate.isDeploymentAggregate(to) ? EdgeReason.SHARED_BASE : EdgeReason.STACK;
}

/** A synthesized stack template to validate, with its stack and capability. */
interface TemplateToValidate {
  readonly capability: Capability;
  readonly stack: Stack;
  readonly artifact: {
    readonly id: string;
    readonly templateFullPath: string;
    readonly environment: { readonly account: string; readonly region: string };
  };
}

/**
 * The validator every synth of this process uses. Its engine (WebAssembly, several
 * seconds and hundreds of MiB to start) is built on first use and rebuilt only for
 * resource types it has not seen, as aws-cdk's App keeps one for the process; one
 * engine per stack would cost that start per stack and never free its memory.
 */
let sharedValidator: CloudFormationValidatePlugin | undefined;

/**
 * aws-cdk's built-in CloudFormation validator over every stack of the synth, in one
 * call as an aws-cdk App makes it, with aws-cdk's severity rules (aws-cdk-lib
 * `core/lib/private/synthesis-validation`): its errors are warnings unless
 * `@aws-cdk/core:validateAgainstDefaultRules` is true, and in construct-library
 * strict mode (`@aws-cdk/core:strictCfnValidateErrors`) warnings fail too. Both
 * flags are read at the stack's capability. A finding names each stack it was found
 * in once (the validator merges one finding of several templates).
 */
function validateTemplates(templates: readonly TemplateToValidate[]): TemplateFinding[] {
  const known = (x: string) => (x.startsWith('unknown-') ? undefined : x);
  const byTemplate = new Map(templates.map((t) => [t.artifact.templateFullPath, t]));
  const report = (sharedValidator ??= new CloudFormationValidatePlugin()).validate({
    templatePaths: templates.map((t) => t.artifact.templateFullPath),
    stackTemplates: templates.map((t) => ({
      stackConstructPath: t.stack.node.path,
      templatePath: t.artifact.templateFullPath,
      accountId: known(t.artifact.environment.account),
      region: known(t.artifact.environment.region),
    })),
    appConstruct: templates[0].capability.node.root,
  });
  const found: TemplateFinding[] = [];
  for (const v of report.violations) {
    if (v.severity !== 'error' && v.severity !== 'fatal' && v.severity !== 'warning') continue;
    for (const { capability, stack } of templates) {
      const mine = v.violatingResources.filter((r) => r.templatePath !== undefined && byTemplate.get(r.templatePath)?.stack === stack);
      if (mine.length === 0) continue;
      const error = v.severity !== 'warning' && contextFlag(capability, '@aws-cdk/core:validateAgainstDefaultRules');
      found.push({
        stack: stack.node.path,
        rule: v.ruleName,
        description: v.description,
        resources: mine.flatMap((r) => (r.resourceLogicalId ? [resourceOf(stack, r.resourceLogicalId)] : [])),
        severity: error || contextFlag(capability, '@aws-cdk/core:strictCfnValidateErrors') ? 'error' : 'warning',
      });
    }
  }
  return found;
}

function contextFlag(scope: Stage, key: string): boolean {
  const value: unknown = scope.node.tryGetContext(key);
  return value === true || value === 'true';
}

function resourceOf(stack: Stack, logicalId: string): { logicalId: string; path?: string } {
  return { logicalId, path: constructPathOf(stack, logicalId) };
}

/** The construct path of the resource with `logicalId` in `stack`, if one has it. */
function constructPathOf(stack: Stack, logicalId: string): string | undefined {
  for (const c of stack.node.findAll()) {
    if ((c as { cfnResourceType?: unknown }).cfnResourceType === undefined || Stack.of(c) !== stack) continue;
    if (stack.resolve((c as unknown as { logicalId: string }).logicalId) === logicalId) return c.node.path;
  }
  return undefined;
}

/**
 * The stage's cloud assembly. A second synth of an unchanged tree reuses the
 * first assembly; if its folder is gone (a completed `synth()` removes its run
 * folder), the stage is synthesized again into a recreated folder.
 */
function synthesizeStage(stage: Stage) {
  const assembly = stage.synth();
  if (fs.existsSync(assembly.directory)) return assembly;
  RunFolder.recreate(assembly.directory);
  return stage.synth({ force: true });
}
