import { Environment, Stage, StageSynthesisOptions } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { Construct, IConstruct } from 'constructs';
import { enclosing, found, RuntimeCapability, RuntimeCapabilityProps, setUpCapability } from './runtime-capability';
import { isStage } from '../private/aws-cdk';
import { hasBrand } from '../private/brand';
import { requireCapabilityId } from '../private/capability-id';
import { recordStackDependencyCalls } from '../private/dependency-calls';
import { recordIncludedTemplates } from '../private/included-files';
import { withInheritedAspects } from '../private/inherited-aspects';
import { envProblems, propsObject, refuseUnknownKeys } from '../private/invalid-input';
import { requireCapabilityPlace } from '../private/misplaced';
import type { GeneratedNames } from '../private/names';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { assemblyDirFor } from '../private/scratch';
import { valueText } from '../private/value-text';
import { recordAwsCdkWriteCalls } from '../private/write-calls';

/** Properties of a `Capability`. */
export interface CapabilityProps extends RuntimeCapabilityProps {
  /**
   * The AWS environment of the capability's deployment-time stacks.
   *
   * @default - environment-agnostic stacks
   */
  readonly env?: Environment;

  /**
   * Whether the CloudFormation stack names of the capability start with its id
   * (`cdn-Base`), as aws-cdk names the stacks of a `Stage`. `false` names each
   * stack as under a plain aws-cdk `App` (`Base`), so a stack moved into a
   * capability keeps its deployed stack; two capabilities then must not hold
   * stacks of one name. A stack's own `stackName` always wins. Two stacks of
   * one name in one environment are `CAP001` at synth, whichever way they got
   * it (two capabilities of one id under different constructs name their
   * stacks alike).
   *
   * @default true
   */
  readonly prefixStackNames?: boolean;
}

/** The props `Capability` takes (the compiler holds the list to `CapabilityProps`); a prop that misspells one is refused, any other passes. */
const CAPABILITY_PROPS = keysOf<CapabilityProps>({ env: true, prefixStackNames: true, description: true, generatedNames: true });

/**
 * One capability: a composition of a shared base and per-tenant deployment
 * aggregates (AWS CDK, deployment time) and a runtime routing aggregate (cdk8s,
 * runtime), synthesized together by its `CapabilityApp`.
 *
 * A capability is an aws-cdk `Stage`, so the stacks under it synthesize into a
 * cloud assembly; an app may hold several capabilities.
 *
 * @example
 * const app = new CapabilityApp();
 * const cdn = new Capability(app, 'cdn');
 * new SharedBase(cdn, 'Base');
 * new DeploymentAggregate(cdn, 'acme');
 * new RuntimeRouting(cdn, 'Routing');
 * app.synth();
 */
export class Capability extends Stage {
  /**
   * True when `x` is a `Capability` (one that takes stacks), also across
   * duplicate installs of this package. A runtime-only capability of
   * `cdk-capability/runtime` is not one.
   */
  public static isCapability(x: unknown): x is Capability {
    return hasBrand(x, 'Capability') && isStage(x);
  }

  /**
   * The capability that encloses `construct`.
   *
   * @throws CompositionError `CAP015` when `construct` is not inside a capability that takes stacks
   */
  public static of(construct: IConstruct): Capability {
    return found(construct, Capability.tryOf(construct), RuntimeCapability.tryOf(construct));
  }

  /** The capability that encloses `construct`, or undefined. */
  public static tryOf(construct: IConstruct): Capability | undefined {
    return enclosing(construct, Capability.isCapability);
  }

  /** The description written to `plan.json`, if any. */
  public readonly description?: string;
  /** How cdk8s generates the names of the capability's objects (see `CapabilityProps.generatedNames`). */
  public readonly generatedNames: GeneratedNames;

  /**
   * @param scope the `CapabilityApp` (or any construct under it)
   * @param id the capability's name; letters, digits, `-`, `_` and `.`, starting with a letter
   * @param props options
   * @throws CompositionError `CAP010` when `id` is not a capability's name, naming it, the rule and an id that keeps to it
   * @throws CompositionError `CAP015` when `scope` is under a plain cdk8s `App` (which would drop the stacks), an aws-cdk `App` or `Stage`, or another capability
   */
  constructor(scope: Construct, id: string, props: CapabilityProps = {}) {
    super(requireCapabilityPlace(requireCapabilityId(scope, id), id, true), id, { env: propsObject(props).env, outdir: assemblyDirFor(scope), ...(propsObject(props).prefixStackNames === false ? { stageName: '' } : {}) });
    // a misspelt prop only: a capability class (docs/packaging.md) hands its own props, ours among them, to this constructor
    refuseUnknownKeys(`Capability '${this.node.path}' props`, props, CAPABILITY_PROPS, this.node.path, true);
    this.generatedNames = setUpCapability(this, props);
    // from JavaScript, anything: aws-cdk reads a region of a string as none, and the stacks become environment-agnostic
    const wrongEnv = envProblems(propsObject(props).env);
    if (wrongEnv.length > 0) {
      this.node.addValidation(ownValidation({ validate: () => wrongEnv }));
    }
    const prefix: unknown = propsObject(props).prefixStackNames;
    // from JavaScript, anything: 'no' would prefix the stack names as true does
    if (prefix !== undefined && typeof prefix !== 'boolean') {
      this.node.addValidation(ownValidation({ validate: () => [`'prefixStackNames' (${valueText(prefix)}) must be true or false`] }));
    }
    // Each escape hatch and Tag of its stacks is a writer of its own, named by its call site.
    recordAwsCdkWriteCalls();
    // A message names the template file a CfnInclude read each of its resources from.
    recordIncludedTemplates();
    // A cycle message names the program line of each stack's addStackDependency call, as it does an object's addDependency.
    recordStackDependencyCalls();
    // Construct stack traces in the assembly's metadata hold absolute paths of this
    // machine: they would make the output differ between checkouts.
    this.node.setContext('aws:cdk:disable-stack-trace', true);
    this.node.setContext('aws:cdk:disable-creation-stack-traces', true);
    this.description = propsObject(props).description;
  }

  /**
   * Synthesizes the capability's stacks into its cloud assembly, with the
   * aspects of the constructs above it applied as aws-cdk applies an `App`'s
   * aspects to its stacks (`Tags.of(app)`, `PermissionsBoundary.of(app)`,
   * `Aspects.of(app)`, with their priorities), though aws-cdk carries no
   * aspect into a `Stage` by itself. `CapabilityApp.synth()` calls it.
   *
   * @param options aws-cdk's stage synthesis options
   * @returns the cloud assembly
   */
  public override synth(options: StageSynthesisOptions = {}): CloudAssembly {
    return withInheritedAspects(this, () => super.synth(options));
  }
}
