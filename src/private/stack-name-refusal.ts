import type { IConstruct } from 'constructs';
import { hasBrand } from './brand';
import { INVALID_OBJECT } from './invalid-input';
import { constructionRefusal } from './misplaced';

/** What aws-cdk's `Stack` requires of a stack name, as CloudFormation does. */
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;
const MAX_LENGTH = 128;

/** What a stack's creation was given, to say which part of its name to change. */
export interface StackNameInput {
  /** The class being created, as the message names it (`SharedBase`). */
  readonly what: string;
  /** The scope it was created in. */
  readonly scope: IConstruct;
  /** Its construct id. */
  readonly id: string;
  /** Its `stackName` prop, if given. */
  readonly stackName?: string;
}

/**
 * The coded refusal (`CAP010`, a `CompositionError`) of a stack whose CloudFormation stack name aws-cdk
 * refused as the stack was created (`StackNameInvalidFormat`, `StackNameTooLong`), saying which of the id,
 * the capability's id or the `stackName` prop to change; undefined for any other error, which stays as it is.
 * A stack of a capability is named `<capability id>-<id>`, so a tenant id such as `acme.corp` or a capability
 * id such as `cdn.v2` (which aws-cdk accepts for a `Stage`) makes a name CloudFormation refuses.
 */
export function stackNameRefusal(error: unknown, input: StackNameInput): Error | undefined {
  const text = error instanceof Error ? error.message : '';
  const named = /^Stack name must match the regular expression: .*, got '(.*)'$/s.exec(text) ?? /^Stack name must be <= 128 characters\. Stack name: '(.*)'$/s.exec(text);
  if (!named) return undefined;
  const name = named[1];
  const { what, scope, id, stackName } = input;
  const own = id.replace(/\//g, '--'); // as constructs stores an id
  const path = scope.node.path ? `${scope.node.path}/${own}` : own;
  const capability = [...scope.node.scopes].reverse().find((s) => hasBrand(s, 'Capability'));
  const rule = `a stack name is letters, digits and '-', starting with a letter, at most ${MAX_LENGTH} characters`;
  let fix: string;
  if (stackName !== undefined) {
    fix = `Pass a stackName that is one (its stackName is ${JSON.stringify(stackName)}).`;
  } else if (name.length > MAX_LENGTH) {
    fix = `Give it a shorter id (${id.length} characters), or pass it a stackName that is one.`;
  } else if (!STACK_NAME.test(id)) {
    fix = `Give it an id of letters, digits and '-'${example(own)}, or pass it a stackName that is one.`;
  } else if (capability && !STACK_NAME.test(capability.node.id)) {
    fix = `The name starts with the id of the capability '${capability.node.path}': give the capability an id of letters, digits and '-'`
      + `${example(capability.node.id)}, or pass each of its stacks a stackName.`;
  } else {
    fix = 'Pass it a stackName that is one.';
  }
  return constructionRefusal(
    INVALID_OBJECT,
    `invalid object: ${what} '${path}' would deploy as the CloudFormation stack '${name}', a name CloudFormation refuses: ${rule}. ${fix}`,
    path,
  );
}

/** ` ("acme-corp")`: `id` as a stack name would take it, each run of other characters one '-', from its first letter; empty when it has no letter. */
function example(id: string): string {
  const dashed = id.replace(/[^A-Za-z0-9]+/g, '-').replace(/^[^A-Za-z]+/, '').replace(/-$/, '');
  return dashed === '' ? '' : ` (${JSON.stringify(dashed)})`;
}
