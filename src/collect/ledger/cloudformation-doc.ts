import { CfnResource, Stack, TagManager } from 'aws-cdk-lib';
import { declaredPropertiesOf } from '../../private/upstream-state';
import { ATTRIBUTE_OPTIONS, AttributeOptions, removalDefaultOf } from '../../private/write-calls';

/**
 * The CloudFormation property that holds a resource's tags (`Tags` for most
 * types), or undefined when the resource has no tag manager.
 */
export function tagPropertyOf(resource: CfnResource): string | undefined {
  const manager = TagManager.of(resource);
  if (!manager) return undefined;
  const name = manager.tagPropertyName;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * A resource as the ledger reads it: its properties as its declaration
 * renders them, resolved, with its tags as a map of key to value (whatever
 * form the type renders them in), so that each tag key is a leaf of its own.
 *
 * @param tags the tags to show, by key; default: what the tag manager holds now
 * @param partial render a resource that lacks a required property, without it (`declaredPropertiesOf`): its
 *   render before the write callbacks that fill it
 */
export function cloudFormationDocOf(resource: CfnResource, tags?: Readonly<Record<string, string>>, partial = false): Record<string, unknown> {
  const props = { ...declaredPropertiesOf(resource, { partial }) };
  const tagProperty = tagPropertyOf(resource);
  if (tagProperty === undefined) return props;
  delete props[tagProperty];
  const values = tags ?? TagManager.of(resource)!.tagValues();
  if (Object.keys(values).length > 0) props[tagProperty] = { ...values };
  return props;
}

/** A resource's attributes outside its properties, as the ledger reads them. */
export interface ResourceAttributes {
  /** The attributes as `cfnOptions` renders them (`DeletionPolicy`, `Metadata`, `Condition`, ...), resolved. */
  readonly doc: Record<string, unknown>;
  /** The attributes in `doc` that hold aws-cdk's default removal policy, not a policy anyone chose. */
  readonly defaults: readonly string[];
}

/**
 * A resource's attributes as `_toCloudFormation` renders them from its
 * `cfnOptions` (capitalized as aws-cdk capitalizes them, `Condition` the
 * condition's logical id), resolved in its stack, overrides left out. The
 * removal policy aws-cdk applied by default (an L2 given no `removalPolicy`)
 * is named in `defaults`: no writer chose it.
 *
 * @param at the options as they were at an earlier moment (around an aspect's visit); default: as they are now
 */
export function resourceAttributesOf(resource: CfnResource, at?: AttributeOptions): ResourceAttributes {
  const options = (at?.options ?? resource.cfnOptions) as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const option of ATTRIBUTE_OPTIONS) {
    const value = options[option];
    if (value === undefined) continue;
    raw[attributeName(option)] = option === 'condition' ? (value as CfnResource).logicalId : value;
  }
  if (Object.keys(raw).length === 0) return { doc: raw, defaults: [] };
  const doc = Stack.of(resource).resolve(raw) as Record<string, unknown>;
  for (const name of ['CreationPolicy', 'UpdatePolicy']) if (doc[name] !== undefined) doc[name] = capitalized(doc[name]);
  const removal = at ? at.removalDefault : removalDefaultOf(resource);
  const defaults: string[] = [];
  if (removal?.deletionPolicy !== undefined && doc.DeletionPolicy === removal.deletionPolicy) defaults.push('DeletionPolicy');
  if (removal?.updateReplacePolicy !== undefined && doc.UpdateReplacePolicy === removal.updateReplacePolicy) defaults.push('UpdateReplacePolicy');
  return { doc, defaults };
}

/** The attribute a `cfnOptions` option renders as: `deletionPolicy` is `DeletionPolicy`. */
export function attributeName(option: string): string {
  return option.charAt(0).toUpperCase() + option.slice(1);
}

/** Keys capitalized at every depth, as aws-cdk renders `creationPolicy` and `updatePolicy`. */
function capitalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(capitalized);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [attributeName(k), capitalized(v)]));
}
