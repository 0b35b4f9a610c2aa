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
