import type { CfnElement, Stack } from 'aws-cdk-lib';
import { awsCdk } from '../private/aws-cdk';

/** A CloudFormation element's stack, and its logical id there, resolved. */
export interface ElementInStack {
  /** The stack the element is in (`Stack.of`). */
  readonly stack: Stack;
  /** Its logical id, resolved in `stack`. */
  readonly logicalId: string;
}

/**
 * The stack and the resolved logical id of CloudFormation elements, each
 * resolved once for one collect. A logical id is a token: resolving it in its
 * stack is most of what reading it costs, and the physical names and the
 * declarer of each resource both read every resource's. An element whose stack
 * or id cannot be read throws each time it is asked, as `Stack.of` and
 * `resolve` do; nothing is kept for it.
 */
export class LogicalIds {
  private readonly resolved = new Map<CfnElement, ElementInStack>();

  /** `element`'s stack and its logical id there. */
  public of(element: CfnElement): ElementInStack {
    let found = this.resolved.get(element);
    if (!found) {
      const stack = awsCdk().Stack.of(element);
      found = { stack, logicalId: stack.resolve(element.logicalId) };
      this.resolved.set(element, found);
    }
    return found;
  }
}
