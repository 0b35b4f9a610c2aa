import type { IConstruct } from 'constructs';
import { nearMiss } from './near-miss';
import { cfnPropertiesOf, declaredPropertiesOf } from './upstream-state';

/** The CloudFormation property names a generated aws-cdk L1 class renders, and the class that says so. */
export interface CloudFormationPropertyNames {
  /** The generated L1 class (`CfnBucket`), to name in messages. */
  readonly l1: string;
  /** Every property name the L1 renders into the template (`BucketName`, `SSESpecification`, ...). */
  readonly names: ReadonlySet<string>;
}

/**
 * Types whose generated L1 names only some of the properties the type takes: a custom resource of
 * `AWS::CloudFormation::CustomResource` passes any property to its provider.
 */
const OPEN_TYPES: ReadonlySet<string> = new Set(['AWS::CloudFormation::CustomResource']);

/** The names per L1 class (the resource's own class: a subclass may render more), found once each. */
const known = new WeakMap<object, CloudFormationPropertyNames>();

/**
 * Every CloudFormation property name that a CloudFormation resource's generated aws-cdk L1 (`CfnBucket`) renders,
 * as aws-cdk-lib itself knows them: undefined for a resource of no generated L1 (a plain `CfnResource`, whose
 * type may be anything, `Custom::` types among them), for a type that takes properties its L1 does not name
 * (`AWS::CloudFormation::CustomResource`), and when the L1 does not render as generated L1s do.
 *
 * A generated L1's `cfnProperties` holds a key for each prop it knows, set or not, and its `renderProperties`
 * maps them to the template's names with an object literal that holds every name, whatever the values. Each
 * prop is given one CloudFormation intrinsic (a `Ref`), which every generated validator and mapper passes through
 * unchanged, so the rendering neither refuses a value (a required prop left out, a wrong type) nor leaves a
 * nested property's name out. Found once per L1 class.
 */
export function cloudFormationPropertyNames(resource: IConstruct & { readonly cfnResourceType: string }): CloudFormationPropertyNames | undefined {
  const type = resource.cfnResourceType;
  const l1 = generatedL1Of(resource);
  if (!l1 || OPEN_TYPES.has(type)) return undefined;
  const cached = known.get(resource.constructor);
  if (cached) return cached;
  let names: ReadonlySet<string>;
  try {
    const standIn = { Ref: 'cdk-capability:property-name' };
    const props = Object.fromEntries(Object.keys(cfnPropertiesOf(resource)).map((k) => [k, standIn]));
    names = new Set(Object.keys(declaredPropertiesOf(resource, { props })));
  } catch {
    return undefined; // an L1 that does not render as the generated ones do: its names are not known here, nothing is judged
  }
  const found = { l1: l1.name, names };
  known.set(resource.constructor, found);
  return found;
}

/**
 * The generated L1 class of `resource`: the class in its prototype chain that declares, as its own static
 * `CFN_RESOURCE_TYPE_NAME` (the public constant every generated L1 has), the resource's type.
 */
function generatedL1Of(resource: IConstruct & { readonly cfnResourceType: string }): { readonly name: string } | undefined {
  for (let c: unknown = resource.constructor; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, 'CFN_RESOURCE_TYPE_NAME')) {
      return (c as { CFN_RESOURCE_TYPE_NAME?: unknown }).CFN_RESOURCE_TYPE_NAME === resource.cfnResourceType ? c : undefined;
    }
  }
  return undefined;
}

/**
 * The property of `names` that `name` most likely misspells: one a few edits away (`nearMiss`: `BucketNme`,
 * `Bucketname`), else the one name it is the start of, as a shortened name is (`VersioningConfig` for
 * `VersioningConfiguration`); letter case is free. Undefined when none or several are that close.
 *
 * @example
 * closestPropertyName('VersioningConfig', ['BucketName', 'VersioningConfiguration']); // 'VersioningConfiguration'
 */
export function closestPropertyName(name: string, names: Iterable<string>): string | undefined {
  const all = [...names];
  const near = nearMiss(name, all);
  if (near !== undefined) return near;
  const lower = name.toLowerCase();
  const extended = name.length >= 3 ? all.filter((n) => n.toLowerCase().startsWith(lower)) : [];
  return extended.length === 1 ? extended[0] : undefined;
}
