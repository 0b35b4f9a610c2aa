import { IConstruct } from 'constructs';
import { constructionRefusal, requireConstructScope } from './misplaced';
import { misspeltKeyProblems, unknownKeyProblems } from './near-miss';
import { valueText } from './value-text';

/** The code of an object, or of what a construct was given, that would be refused where it goes (`ViolationCode.INVALID_OBJECT`). */
export const INVALID_OBJECT = 'CAP010';

/**
 * The `CAP010` refusal of what a construct was given, as it is created: a `CompositionError` (its
 * `isCompositionError` is true) whose one violation reads `CAP010 invalid object: <message>`.
 *
 * @param message what was given, where, the rule it breaks and how to fix it
 * @param path the construct path it names; none for the app's own props
 */
export function invalidInput(message: string, path?: string): Error {
  return constructionRefusal(INVALID_OBJECT, `invalid object: ${message}`, path);
}

/**
 * Refuses, with one `CAP010` naming them all, each key of an options object that its API does not take, with
 * the key it most likely misspells: a misspelt option would otherwise be dropped without a word. Anything but
 * an object passes (its own check names it).
 *
 * @param api what takes the options, as the message names it (`addBackend 'App/shop/Routing/Web'`)
 * @param known every key the options take (`keysOf`), including those of a parent interface
 * @param path the construct path the refusal names
 * @param open true when `known` may miss keys another package adds across versions (cdk8s' `ChartProps`):
 *   then only a key that misspells a known one is refused, as `CapabilityApp` does its props
 * @throws CompositionError `CAP010`
 */
export function refuseUnknownKeys(api: string, given: unknown, known: readonly string[], path?: string, open = false): void {
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return;
  const problems = open ? misspeltKeyProblems(given, known) : unknownKeyProblems(given, known, '');
  if (problems.length > 0) throw invalidInput(`${api}: ${problems.join('; ')}`, path);
}

/**
 * `props` when it is an object, else an empty one: what a construct reads its props from when JavaScript gave
 * it `null` or a string (its own check names what was given), so that reading a prop cannot crash.
 */
export function propsObject<T extends object>(props: T | null | undefined): Partial<T> {
  return props !== null && typeof props === 'object' ? props : {};
}

/**
 * `text` as a DNS-1123 label would take it, for a message to suggest: lowercase, each run of other characters
 * one '-', no '-' at either end, at most 63 characters; empty when nothing of it is left.
 *
 * @example
 * dnsLabelLike('Acme Corp'); // 'acme-corp'
 */
export function dnsLabelLike(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '').slice(0, 63).replace(/-+$/, '');
}

/**
 * `scope`, when a new child of it can take `id`; else, before the child is added, the `CAP010` refusal naming
 * `what` and its place: a scope that is no construct (`CAP015`), an id that is no string or is empty (constructs' TypeError `id.replace is not a function`,
 * or `Only root constructs may have an empty ID`), or the id of a child `scope` has already (constructs'
 * `There is already a Construct with name ...`, which names neither path).
 *
 * @param what the class being created, as the message names it (`Contribution`)
 * @param example an id of its kind, for the message
 */
export function requireChildId<T extends IConstruct>(scope: T, id: unknown, what: string, example: string): T {
  requireConstructScope(scope, id, what, `then the id, such as '${example}'`);
  const where = scope.node.path ? `'${scope.node.path}'` : 'the app';
  if (typeof id !== 'string' || id === '') {
    throw invalidInput(`${what} in ${where}: its id (${valueText(id)}) must be a string that is not empty, such as '${example}'`, scope.node.path);
  }
  return requireUnusedId(scope, id, what, example);
}

/**
 * Returns `scope` when no child of it has `id` and constructs can hold the id; throws the `CAP010` refusal
 * otherwise, naming both paths: a child of the id exists (constructs' `There is already a Construct with
 * name ...` names neither path), or the id is a member every object has (`toString`, `__proto__`), which
 * constructs 10 reads as taken.
 *
 * @param what the class being created, as the message names it (`Contribution`)
 * @param example an id of its kind, for the message
 */
export function requireUnusedId<T extends IConstruct>(scope: T, id: string, what: string, example: string): T {
  const where = scope.node.path ? `'${scope.node.path}'` : 'the app';
  // constructs takes '/' in an id as '--'
  const own = id.replace(/\//g, '--');
  if (own in Object.prototype) {
    // constructs 10 keeps children in a plain object: 'toString' finds Object.prototype's member, and constructs refuses
    // the id as taken, naming no path, though the scope has no such child
    throw invalidInput(`${what} in ${where}: its id '${id}' is a name constructs cannot hold (it keeps a construct's children in a plain object, where '${id}' is a member every object has, so it reads the id as taken). Give the ${what} another id, such as '${example}'`, scope.node.path);
  }
  const existing = scope.node.tryFindChild(own);
  if (existing === undefined) return scope;
  const path = scope.node.path ? `${scope.node.path}/${existing.node.id}` : existing.node.id;
  throw invalidInput(`${what} '${path}': ${where} already has a child of the id '${existing.node.id}' (${valueText(existing)}), and a construct's id is unique among its siblings. Give the ${what} an id of its own`, path);
}

/**
 * What is wrong with an aws-cdk `env` that the types forbid and JavaScript lets through: one that is no object
 * (a string, a list, `null`), which aws-cdk reads as no account and region, so the stacks silently become
 * environment-agnostic. None for `undefined` (no env) or an object.
 */
export function envProblems(env: unknown): string[] {
  if (env === undefined || (env !== null && typeof env === 'object' && !Array.isArray(env))) {
    return [];
  }
  return [`'env' (${valueText(env)}) must be an object such as { account: '123456789012', region: 'us-east-1' }`];
}
