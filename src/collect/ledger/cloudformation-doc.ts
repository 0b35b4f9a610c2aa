import { CfnResource, TagManager } from 'aws-cdk-lib';
import { declaredPropertiesOf } from '../../private/upstream-state';

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
 */
export function cloudFormationDocOf(resource: CfnResource, tags?: Readonly<Record<string, string>>): Record<string, unknown> {
  const props = { ...declaredPropertiesOf(resource) };
  const tagProperty = tagPropertyOf(resource);
  if (tagProperty === undefined) return props;
  delete props[tagProperty];
  const values = tags ?? TagManager.of(resource)!.tagValues();
  if (Object.keys(values).length > 0) props[tagProperty] = { ...values };
  return props;
}
