import { App } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { brand, hasBrand } from './brand';
import { inspectedAsReport } from './errors';
import { valueText } from './value-text';

/** The code of a construct created outside a capability (`ViolationCode.MISPLACED_CONSTRUCT`). */
export const MISPLACED_CONSTRUCT = 'CAP015';

/**
 * Returns `scope` when a `Capability` is `scope` or one of its ancestors;
 * throws otherwise, before the construct is added, the refusal
 * `CompositionError` carries (`CompositionError.isCompositionError` is true
 * for it): `CAP015 misplaced construct: ...`.
 *
 * @param what the class being created, as the message names it (`SharedBase`)
 * @param takesStacks for a stack: whether the enclosing capability takes stacks (an aws-cdk Stage)
 */
export function requireCapability<T extends IConstruct>(scope: T, id: string, what: string, takesStacks?: (capability: IConstruct) => boolean): T {
  requireConstructScope(scope, id, what, `new ${what}(capability, '${id}')`);
  const capability = [...scope.node.scopes].reverse().find((s) => hasBrand(s, 'Capability'));
  if (capability && (!takesStacks || takesStacks(capability))) return scope;
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  const message = capability
    ? `misplaced construct: ${what} '${path}' is created in the runtime-only capability '${capability.node.path}', which holds no stacks. `
      + "Create that capability with the Capability of 'cdk-capability' (it takes stacks and charts), not of 'cdk-capability/runtime'."
    : `misplaced construct: ${what} '${path}' is created outside any Capability, but it belongs to one. `
      + `Create it with a Capability, or a construct inside one, as scope (new ${what}(capability, '${id}')); `
      + 'a chart or stack class that extends it keeps its own constructor.';
  return refused(message, path);
}

/** aws-cdk's mark of a `Stage` (an `App` is one), read without loading aws-cdk-lib (what `Stage.isStage` reads). */
const AWS_CDK_STAGE = Symbol.for('@aws-cdk/core.Stage');

/**
 * Returns `scope` when a capability created there is synthesized by a `CapabilityApp`: no capability and no aws-cdk
 * `Stage` (an aws-cdk `App` is one) is `scope` or one of its ancestors, and the root is a `CapabilityApp` or a bare
 * construct (a test's, whose program synthesizes the capability itself, so nothing is dropped unseen). Throws the
 * `CAP015` refusal otherwise, before the capability is added: under a plain cdk8s `App`, whose synth writes the charts'
 * YAML and drops the stacks, the checks and `plan.json` without a word; under an aws-cdk `App` or `Stage`, or in
 * another capability, where aws-cdk would throw its own uncoded error (`OutdirCannotBeSpecifiedForNestedStage`).
 *
 * @param takesStacks whether the capability takes stacks (the `Capability` of `cdk-capability`), as the message says what is dropped
 */
export function requireCapabilityPlace<T extends IConstruct>(scope: T, id: string, takesStacks: boolean): T {
  const scopes = [...scope.node.scopes].reverse();
  const root = scopes[scopes.length - 1];
  if (hasBrand(root, 'CapabilityApp') && !scopes.some((s) => hasBrand(s, 'Capability') || marked(s, AWS_CDK_STAGE))) return scope;
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  const outer = scopes.find((s) => hasBrand(s, 'Capability'));
  const stage = scopes.find((s) => marked(s, AWS_CDK_STAGE));
  const dropped = takesStacks ? 'its stacks (no cloud assembly is written), its checks and plan.json' : 'its checks, plan.json and the apply order';
  if (outer) {
    return refused(
      `misplaced construct: Capability '${path}' is created inside the capability '${outer.node.path}', but capabilities do not nest. `
        + `Create it beside that one, with the CapabilityApp as scope (new Capability(app, '${id}')).`,
      path,
    );
  }
  if (stage && hasBrand(root, 'CapabilityApp')) {
    return refused(
      `misplaced construct: Capability '${path}' is created in the aws-cdk Stage '${stage.node.path}', but a Capability is itself a Stage, created in the CapabilityApp. `
        + `Create it with the CapabilityApp as scope (new Capability(app, '${id}')), and the Stage's stacks under it.`,
      path,
    );
  }
  if (stage) {
    const where = stage === root ? 'an aws-cdk App' : `the aws-cdk Stage '${stage.node.path}'`;
    return refused(
      `misplaced construct: Capability '${path}' is created in ${where}, but a Capability is created in a CapabilityApp (cdk8s' App), whose synth writes each capability's cloud assembly beside its charts. `
        + "Create the app with new CapabilityApp() (cdk8s' App props), the capability under it, and the aws-cdk app's stacks under the capability (docs/adoption.md, section 5).",
      path,
    );
  }
  if (!isCdk8sApp(root)) return scope;
  return refused(
    `misplaced construct: Capability '${path}' is created in a plain cdk8s App, whose synth writes the charts' YAML alone: ${dropped} would be dropped without a word. `
      + "Create the app with new CapabilityApp() (cdk8s' App, with the same props).",
    path,
  );
}

/** True when `x` carries the global-symbol mark `mark`. */
function marked(x: unknown, mark: symbol): boolean {
  return x !== null && typeof x === 'object' && mark in x;
}

/** True when the root `x` is a cdk8s `App` (of this copy of cdk8s or another: its `yamlOutputType`). */
function isCdk8sApp(x: IConstruct): boolean {
  return x instanceof App || 'yamlOutputType' in x;
}

/**
 * Throws the `CAP015` refusal of a construct whose `scope` is not a construct (from JavaScript, anything: a
 * string, `undefined`, the props), before constructs or aws-cdk read it: their TypeError
 * (`Cannot read properties of undefined (reading 'node')`) names neither the class nor the scope given. A
 * construct of another copy of the constructs package passes (its brand is a global symbol).
 *
 * @param what the class being created, as the message names it (`RuntimeRouting`)
 * @param example how it is created, for the message (`new RuntimeRouting(capability, 'Routing')`), or what to pass
 */
export function requireConstructScope(scope: unknown, id: unknown, what: string, example: string): void {
  if (Construct.isConstruct(scope)) return;
  const name = typeof id === 'string' ? `'${id}'` : `of the id ${valueText(id)}`;
  refused(
    `misplaced construct: ${what} ${name} is given the scope ${valueText(scope)}, which is not a construct: the first argument is the construct it belongs to. `
      + `Pass that construct first (${example}).`,
    typeof id === 'string' ? id : String(id),
  );
}

/**
 * Returns `scope` when a `CapabilityApp` is `scope` or one of its ancestors; throws the `CAP015` refusal
 * otherwise: only its synth merges what `what` writes, which a plain cdk8s or aws-cdk app would drop unseen.
 *
 * @param what the class being created, as the message names it (`Contribution`)
 */
export function requireCapabilityApp<T extends IConstruct>(scope: T, id: string, what: string): T {
  requireConstructScope(scope, id, what, `new ${what}(routing, '${id}', ...)`);
  if ([...scope.node.scopes].some((s) => hasBrand(s, 'CapabilityApp'))) return scope;
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  return refused(
    `misplaced construct: ${what} '${path}' is created outside a CapabilityApp, whose synth alone merges its fields and runs its write callback: `
      + "a plain cdk8s or aws-cdk app would drop them without a word. Create the app with new CapabilityApp() (cdk8s' App, with the same props).",
    path,
  );
}

/**
 * The `CAP015` refusal of asking for the capability that encloses the construct at `path` (`Capability.of`)
 * where none does.
 *
 * @param runtimeOnly the runtime-only capability that encloses it, when one does and a `Capability` that takes
 * stacks was asked for
 */
export function outsideCapability(path: string, runtimeOnly?: IConstruct): Error {
  const message = runtimeOnly
    ? `misplaced construct: ${quotedPath(path)} is inside the runtime-only capability '${runtimeOnly.node.path}', which holds no stacks, not in a Capability that takes them. `
      + "Create that capability with the Capability of 'cdk-capability' (it takes stacks and charts), not of 'cdk-capability/runtime'."
    : `misplaced construct: ${quotedPath(path)} is not inside a Capability. Create it with a Capability, or a construct inside one, as scope.`;
  return constructionRefusal(MISPLACED_CONSTRUCT, message, path);
}

/** The `CAP015` refusal of asking for the `CapabilityApp` at the root of the construct at `path` (`CapabilityApp.of`) where the root is none. */
export function outsideCapabilityApp(path: string): Error {
  return constructionRefusal(
    MISPLACED_CONSTRUCT,
    `misplaced construct: ${quotedPath(path)} is not in a CapabilityApp. Create the root of its tree with new CapabilityApp() (cdk8s' App, with the same props).`,
    path,
  );
}

/** A construct path as a message quotes it; the root's, which is empty, by what it is. */
function quotedPath(path: string): string {
  return path === '' ? 'the root construct' : `'${path}'`;
}

/** Throws the `CAP015` refusal of the construct at `path`, as a `CompositionError` carries it. */
function refused(message: string, path: string): never {
  return thrown(constructionRefusal(MISPLACED_CONSTRUCT, message, path));
}

/**
 * The refusal of a construct as it is created, before synth can run: a `CompositionError` (its
 * `isCompositionError` is true) holding one violation of `code`, with `message` after the code.
 *
 * @param message the message after the code, starting with the code's title (`misplaced construct: ...`)
 * @param path the construct's path; none for what is not a construct's (the app's own props)
 */
export function constructionRefusal(code: string, message: string, path?: string): Error {
  const violation = { code, message, paths: path === undefined ? [] : [path] };
  const error = new Error(`The composition was refused with 1 violation:\n${code} ${message}`);
  error.name = 'CompositionError';
  error.stack = `${error.name}: ${error.message}`;
  inspectedAsReport(error);
  brand(error, 'CompositionError');
  Object.defineProperty(error, 'violations', { value: [violation], enumerable: false });
  return error;
}

function thrown(error: Error): never {
  throw error;
}
