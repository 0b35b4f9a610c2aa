import * as fs from 'fs';
import { Stack, StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Capability } from './capability';
import { isStage } from '../private/aws-cdk';
import { envProblems, invalidInput, propsObject, requireChildId } from '../private/invalid-input';
import { requireCapability } from '../private/misplaced';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { recordSelfDependency } from '../private/self-dependency';
import { stackCycleRefusal } from '../private/stack-cycle-refusal';
import { stackNameRefusal } from '../private/stack-name-refusal';
import { valueText } from '../private/value-text';

/**
 * The props of aws-cdk's `StackProps` (the compiler holds the list to them). aws-cdk adds props across versions,
 * so a prop not in it is refused only when it misspells one (`refuseUnknownKeys`' `open`).
 */
export const STACK_PROPS = keysOf<StackProps>({
  env: true,
  stackName: true,
  description: true,
  tags: true,
  synthesizer: true,
  terminationProtection: true,
  analyticsReporting: true,
  crossRegionReferences: true,
  permissionsBoundary: true,
  suppressTemplateIndentation: true,
  notificationArns: true,
  propertyInjectors: true,
});

/**
 * What `SharedBase` and `DeploymentAggregate` share: an aws-cdk `Stack` inside
 * a capability that refuses to depend on itself (aws-cdk silently drops
 * `stack.addStackDependency(stack)`; synth reports it as `CAP004`).
 */
export abstract class CapabilityStack extends Stack {
  /** The capability this stack belongs to. */
  public readonly capability: Capability;

  /**
   * @param scope the capability, or any construct inside one (checked: `CAP015` otherwise)
   * @param id the construct id; the stack is named `<capability>-<id>` unless `stackName` is given
   * (or the capability's `prefixStackNames` is false)
   * @param props stack options
   * @param what the class name a misplaced-construct refusal names
   */
  protected constructor(scope: Construct, id: string, props: StackProps, what: string) {
    const parent = requireChildId(requireCapability(scope, id, what, isStage), id, what, what === 'SharedBase' ? 'Base' : 'acme');
    try {
      super(parent, id, propsObject(props));
    } catch (e) {
      // aws-cdk's refusal of the derived stack name, coded and saying which id to change
      throw stackNameRefusal(e, { what, scope: parent, id, stackName: propsObject(props).stackName }) ?? e;
    }
    this.capability = Capability.of(this);
    // from JavaScript, anything: refused at synth (CAP010), naming what was given
    const problems = stackPropsProblems(props);
    if (problems.length > 0) this.node.addValidation(ownValidation({ validate: () => problems }));
  }

  /**
   * Makes this stack deploy after `target`. A dependency on itself is recorded
   * and refused at synth with `CAP004`, never dropped; one that closes a cycle
   * of stacks is refused as it is made, with `CAP004` naming each call on it.
   */
  public addStackDependency(target: Stack, reason?: string): void {
    if (target === this) {
      recordSelfDependency(this);
      return;
    }
    if (typeof Stack.prototype.addStackDependency !== 'function') throw tooOldAwsCdkLib(this.node.path);
    try {
      super.addStackDependency(target, reason);
    } catch (e) {
      // aws-cdk's refusal of a dependency that closes a cycle, coded and naming each call on it
      throw stackCycleRefusal(e, this, target) ?? e;
    }
  }

  /**
   * @deprecated Use `addStackDependency`.
   */
  public addDependency(target: Stack, reason?: string): void {
    this.addStackDependency(target, reason);
  }
}

/** The first aws-cdk-lib with `Stack.addStackDependency`: the floor of the peer range (package.json). */
export const AWS_CDK_LIB_FLOOR = '2.262.0';

/**
 * The refusal of a stack dependency under an aws-cdk-lib older than the peer range's floor, installed despite it
 * (`--legacy-peer-deps`, `--force`): it has no `Stack.addStackDependency`, which a tenant aggregate's dependency on
 * its shared base calls, and the call would fail with a bare TypeError.
 */
function tooOldAwsCdkLib(path: string): Error {
  let installed = 'an older version';
  try {
    installed = `${(JSON.parse(fs.readFileSync(require.resolve('aws-cdk-lib/package.json'), 'utf-8')) as { version: string }).version}`;
  } catch {
    // aws-cdk-lib's exports may hide its package.json: the message names no version
  }
  return invalidInput(
    `'${path}' needs aws-cdk-lib ${AWS_CDK_LIB_FLOOR} or later (cdk-capability's peer range, ^${AWS_CDK_LIB_FLOOR}), and ${installed} is installed: `
      + `it has no Stack.addStackDependency, which orders a stack after another. Install a version in range: npm i aws-cdk-lib@^${AWS_CDK_LIB_FLOOR}.`,
    path,
  );
}

/**
 * What is wrong with a stack's props that the types forbid and JavaScript lets through: props that are no
 * object, which aws-cdk drops or crashes reading, and an `env` that is no object, which aws-cdk reads as
 * no account and region, so the stack silently becomes environment-agnostic.
 */
function stackPropsProblems(props: unknown): string[] {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    return [`its props (${valueText(props)}) must be an object, such as { stackName: 'cdn-base', env: { account: '123456789012', region: 'us-east-1' } }`];
  }
  return envProblems((props as StackProps).env);
}
