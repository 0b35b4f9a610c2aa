import { Names } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { brand, hasBrand } from '../private/brand';
import { requireCapabilityId } from '../private/capability-id';
import { propsObject } from '../private/invalid-input';
import { outsideCapability, requireCapabilityPlace } from '../private/misplaced';
import { addressBelowCapabilities, GeneratedNames, nameBelowCapabilities } from '../private/names';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

/** Properties of a runtime-only capability (`Capability` of `cdk-capability/runtime`). */
export interface RuntimeCapabilityProps {
  /**
   * A one-line description, written to `plan.json`.
   *
   * @default - none
   */
  readonly description?: string;

  /**
   * How cdk8s generates the names of the capability's objects that set no
   * `metadata.name` (and the hashes and labels derived from construct paths,
   * cdk8s-plus' pod selectors among them). `'plain'`: from the path below the
   * capability, exactly what the same chart yields under a plain cdk8s `App`,
   * so a chart moved into a capability keeps its objects. `'full-path'`: from
   * the whole construct path, the capability's id first: the names earlier
   * releases of this library generated; set it to keep them.
   *
   * @default 'plain'
   */
  readonly generatedNames?: GeneratedNames;
}

/**
 * A capability that holds runtime charts only: what `cdk-capability/runtime`
 * exports as `Capability`. It builds no aws-cdk `Stage` and loads no aws-cdk
 * module, so a runtime-only program pays for cdk8s alone. Everything under it
 * (`RuntimeRouting`, `Contribution`, `Reference`, plain cdk8s charts) behaves
 * as under the `Capability` of `cdk-capability`, which also takes stacks.
 *
 * @example
 * import { Capability, CapabilityApp, RuntimeRouting } from 'cdk-capability/runtime';
 * const app = new CapabilityApp();
 * const web = new Capability(app, 'web');
 * new RuntimeRouting(web, 'Routing');
 * app.synth();
 */
export class RuntimeCapability extends Construct {
  /**
   * True when `x` is a capability: a runtime-only one, or a `Capability` of
   * `cdk-capability` (also across duplicate installs of this package).
   */
  public static isCapability(x: unknown): x is RuntimeCapability {
    return hasBrand(x, 'Capability');
  }

  /**
   * The capability that encloses `construct`, of either kind.
   *
   * @throws CompositionError `CAP015` when `construct` is not inside a capability
   */
  public static of(construct: IConstruct): RuntimeCapability {
    return found(construct, RuntimeCapability.tryOf(construct));
  }

  /** The capability that encloses `construct`, of either kind, or undefined. */
  public static tryOf(construct: IConstruct): RuntimeCapability | undefined {
    return enclosing(construct, RuntimeCapability.isCapability);
  }

  /** The description written to `plan.json`, if any. */
  public readonly description?: string;
  /** How cdk8s generates the names of the capability's objects (see `RuntimeCapabilityProps.generatedNames`). */
  public readonly generatedNames: GeneratedNames;

  /**
   * @param scope the `CapabilityApp` (or any construct under it)
   * @param id the capability's name; letters, digits, `-`, `_` and `.`, starting with a letter
   * @param props options
   * @throws CompositionError `CAP010` when `id` is not a capability's name, naming it, the rule and an id that keeps to it
   * @throws CompositionError `CAP015` when `scope` is under a plain cdk8s `App` (which would skip the checks and plan.json), an aws-cdk `App` or `Stage`, or another capability
   */
  constructor(scope: Construct, id: string, props: RuntimeCapabilityProps = {}) {
    super(requireCapabilityPlace(requireCapabilityId(scope, id), id, false), id);
    this.generatedNames = setUpCapability(this, props);
    this.description = propsObject(props).description;
  }
}

/**
 * What every capability does at construction, of either kind: its brand, and
 * cdk8s' names below it.
 *
 * @returns the capability's `generatedNames`
 */
export function setUpCapability(capability: IConstruct, props: RuntimeCapabilityProps): GeneratedNames {
  brand(capability, 'Capability');
  nameBelowCapabilities(Names);
  addressBelowCapabilities();
  // from JavaScript, anything: a description of another type would reach plan.json, which apply then refuses
  const problems = capabilityPropsProblems(props);
  if (problems.length > 0) capability.node.addValidation(ownValidation({ validate: () => problems }));
  return propsObject(props).generatedNames ?? 'plain';
}

/** Why a capability's props are refused (`CAP010` at synth, each naming the prop): empty when they are fine. */
function capabilityPropsProblems(props: RuntimeCapabilityProps): string[] {
  const problems: string[] = [];
  // from JavaScript, anything: a string or a list would be read as no props at all, and dropped without a word
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    return [`its props (${valueText(props)}) must be an object, such as { description: 'Tenant routing at the edge' }`];
  }
  const { description, generatedNames } = props as { description?: unknown; generatedNames?: unknown };
  if (description !== undefined && typeof description !== 'string') problems.push(`'description' (${valueText(description)}) must be a string, a one-line description`);
  if (generatedNames !== undefined && generatedNames !== 'plain' && generatedNames !== 'full-path') {
    problems.push(`'generatedNames' (${valueText(generatedNames)}) must be "plain" or "full-path"`);
  }
  return problems;
}

/** The nearest of `construct` and its scopes that `is` accepts. */
export function enclosing<T>(construct: IConstruct, is: (x: unknown) => x is T): T | undefined {
  return construct.node.scopes.reverse().find(is) as T | undefined;
}

/**
 * `capability`, the one enclosing `construct`.
 *
 * @param runtimeOnly the runtime-only capability enclosing `construct`, when a `Capability` that takes stacks was asked for
 * @throws CompositionError `CAP015` when there is none
 */
export function found<T>(construct: IConstruct, capability: T | undefined, runtimeOnly?: IConstruct): T {
  if (capability === undefined) throw outsideCapability(construct.node.path, runtimeOnly);
  return capability;
}
