import type * as AwsCdk from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * aws-cdk-lib without loading it: the marks it puts on its own constructs
 * (`Symbol.for('@aws-cdk/core.Stack')` and the like, what its `Stack.isStack`
 * reads), and the module itself, loaded on first use. A composition with no
 * stack never loads it (about 45 ms with the stage it used to build), and its
 * program need not install it.
 */

const STACK = Symbol.for('@aws-cdk/core.Stack');
const NESTED_STACK = Symbol.for('@aws-cdk/core.NestedStack');
const STAGE = Symbol.for('@aws-cdk/core.Stage');

/** True when `x` is an aws-cdk `Stack` (what `Stack.isStack` says), without loading aws-cdk-lib. */
export function isStack(x: unknown): x is AwsCdk.Stack {
  return marked(x, STACK);
}

/** True when `x` is an aws-cdk `NestedStack` (what `NestedStack.isNestedStack` says). */
export function isNestedStack(x: unknown): x is AwsCdk.NestedStack {
  return marked(x, NESTED_STACK);
}

/** True when `x` is an aws-cdk `Stage` (what `Stage.isStage` says). */
export function isStage(x: unknown): x is AwsCdk.Stage {
  return marked(x, STAGE);
}

/** True when `x` is an aws-cdk `CfnResource` (what `CfnResource.isCfnResource` says). */
export function isCfnResource(x: unknown): x is AwsCdk.CfnResource {
  return x !== null && typeof x === 'object' && (x as { cfnResourceType?: unknown }).cfnResourceType !== undefined;
}

let loaded: typeof AwsCdk | undefined;

/** aws-cdk-lib, loaded on the first call. */
export function awsCdk(): typeof AwsCdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy: a composition without stacks never pays for it
  return (loaded ??= require('aws-cdk-lib') as typeof AwsCdk);
}

/**
 * True when aws-cdk-lib is loaded in this process (the program, or a stack of
 * ours, required it): only then can an aws-cdk token be among the values.
 */
export function awsCdkLoaded(): boolean {
  if (loaded) return true;
  // no module of any aws-cdk-lib loaded: not this one either, known without resolving it (a runtime-only program's case)
  if (!anyAwsCdkModuleLoaded()) return false;
  const main = awsCdkMain();
  return main !== undefined && require.cache[main] !== undefined;
}

/**
 * True when a file of a folder named `aws-cdk-lib` is among the loaded modules: a look at the module cache's keys,
 * where resolving `aws-cdk-lib` (what `awsCdkMain` does, once) reads folders and its package.json (about 1 ms).
 */
function anyAwsCdkModuleLoaded(): boolean {
  for (const file in require.cache) {
    if (file.includes('aws-cdk-lib')) return true;
  }
  return false;
}

let mainFile: string | null | undefined;

/** The file `require('aws-cdk-lib')` loads, resolved once; undefined when it is not installed (a runtime-only program need not install it). */
function awsCdkMain(): string | undefined {
  if (mainFile === undefined) {
    try {
      mainFile = require.resolve('aws-cdk-lib');
    } catch {
      mainFile = null;
    }
  }
  return mainFile ?? undefined;
}

/**
 * True when the deploy side has anything to read: aws-cdk-lib is loaded, or a
 * construct of the tree is an aws-cdk stack or stage (of another copy of it).
 */
export function awsCdkInUse(constructs: readonly IConstruct[]): boolean {
  return awsCdkLoaded() || constructs.some((c) => isStack(c) || isStage(c));
}

/** True when `value` is an unresolved aws-cdk token; false without loading aws-cdk-lib when it is not loaded (no token can exist then). */
export function isUnresolvedToken(value: unknown): boolean {
  return awsCdkLoaded() && awsCdk().Token.isUnresolved(value);
}

function marked(x: unknown, mark: symbol): boolean {
  return x !== null && typeof x === 'object' && mark in x;
}
