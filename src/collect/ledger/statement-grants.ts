import type { CfnResource } from 'aws-cdk-lib';
import { FieldPath, setValueKey } from './field-path';
import { isMap } from '../../private/maps';

/**
 * A statement a write callback added to a policy that existed before the
 * callbacks ran (a grant into the `DefaultPolicy` an earlier grant made):
 * the callback's Contribution writes it, as one value of the policy's set of
 * statements (`policyTopologyOf`).
 */
export interface StatementGrant {
  /** The policy resource. */
  readonly resource: CfnResource;
  /** The construct path of the Contribution whose write callback added it. */
  readonly writer: string;
  /** The statement (an aws-cdk `PolicyStatement`), rendered again once the stacks are synthesized (`renderStatement`). */
  readonly statement: object;
  /** True when the policy held the same statement before the callbacks ran: its declarer writes it too. */
  readonly declared: boolean;
}

/**
 * Whether write callbacks did nothing to a policy's properties but add
 * statements to it, read off its properties just before and just after them,
 * and the statements they added rendered one by one (`renderStatement`).
 *
 * They did when every property outside the statements renders as before,
 * and the statements were only added to (`statementsOnlyAdded`).
 *
 * @param statements where the resource type keeps its statements (`statementsPathOf`)
 * @param held the properties whose statements are the declarer's (default: `before`)
 * @returns for each added statement, whether `held` holds it; undefined when the callbacks
 *   changed or removed a statement, changed another property, or added a statement none of `added` renders as
 */
export function statementsAdded(
  before: unknown, after: unknown, statements: FieldPath, added: readonly unknown[], held: unknown = before,
): boolean[] | undefined {
  if (JSON.stringify(withoutStatements(before, statements)) !== JSON.stringify(withoutStatements(after, statements))) return undefined;
  return statementsOnlyAdded(before, after, statements, added, held);
}

/**
 * Whether the statements of a policy, read off its properties before and
 * after some writes, were only added to, by the statements `added` (rendered
 * one by one); the policy's other properties are not compared.
 *
 * They were when every statement of before is still there, and every
 * statement there now that was not before is one of those added. Statements
 * are a set, as aws-cdk renders them (it drops a statement whose JSON repeats
 * another's): an added statement the policy held already writes nothing new,
 * and is the declarer's too.
 *
 * @param statements where the resource type keeps its statements (`statementsPathOf`)
 * @param held the properties whose statements are the declarer's (default: `before`): a statement added
 *   that is among them is the declarer's too
 * @returns for each added statement, whether `held` holds it; undefined when a statement was changed or
 *   removed, or one was added that none of `added` renders as
 */
export function statementsOnlyAdded(
  before: unknown, after: unknown, statements: FieldPath, added: readonly unknown[], held: unknown = before,
): boolean[] | undefined {
  const old = statementsAt(before, statements);
  const now = statementsAt(after, statements);
  const declarer = held === before ? old : statementsAt(held, statements);
  if (!old || !now || !declarer) return undefined;
  const oldKeys = new Set(old.map(setValueKey));
  const newKeys = new Set(now.map(setValueKey));
  const heldKeys = declarer === old ? oldKeys : new Set(declarer.map(setValueKey));
  for (const key of oldKeys) if (!newKeys.has(key)) return undefined;
  const claimed = new Set<string>();
  const declared: boolean[] = [];
  for (const rendered of added) {
    const found = findStatement(now, rendered);
    if (found === undefined) return undefined;
    const key = setValueKey(found);
    claimed.add(key);
    declared.push(heldKeys.has(key));
  }
  for (const key of newKeys) if (!oldKeys.has(key) && !claimed.has(key)) return undefined;
  return declared;
}

/**
 * A policy's properties without its statements (copied along the path, the
 * rest shared). A document left with nothing but its `Version` is left out
 * too: an `iam.PolicyDocument` renders its (constant) `Version` with its first
 * statement and nothing at all without one, so the `Version` comes and goes
 * with the statements.
 */
export function withoutStatements(doc: unknown, statements: FieldPath): unknown {
  const rest = without(doc, statements);
  if (statements.length < 2) return rest;
  const document = statements.slice(0, -1);
  const left = valueAtPath(rest, document);
  return isMap(left) && Object.keys(left).every((k) => k === 'Version') ? without(rest, document) : rest;
}

/**
 * The statement of a rendered policy document that a statement rendered on
 * its own became: the one with the same JSON, or, for a statement without a
 * `Sid` in a document that numbers its statements (`assignSids`, as
 * `sns.TopicPolicy`'s does), the one that differs from it only by a numbered
 * `Sid`. Undefined when there is none.
 */
export function findStatement(statements: readonly unknown[], rendered: unknown): unknown {
  const text = JSON.stringify(rendered);
  const same = statements.find((s) => JSON.stringify(s) === text);
  if (same !== undefined || !isMap(rendered) || rendered.Sid !== undefined) return same;
  return statements.find((s) => isMap(s) && typeof s.Sid === 'string' && /^\d+$/.test(s.Sid) && JSON.stringify(withoutSid(s)) === text);
}

/** The statements at `path` of a document: a list, empty when there are none; undefined when something else is there. */
function statementsAt(doc: unknown, path: FieldPath): unknown[] | undefined {
  const current = valueAtPath(doc, path);
  if (current === undefined) return [];
  return Array.isArray(current) ? current : undefined;
}

/** The value at a path of map keys; undefined when it is not there. */
function valueAtPath(doc: unknown, path: FieldPath): unknown {
  let current = doc;
  for (const key of path) current = isMap(current) ? current[key] : undefined;
  return current;
}

/** A document without the value at `path` (copied along the path, the rest shared). */
function without(doc: unknown, path: FieldPath): unknown {
  if (!isMap(doc) || path.length === 0) return doc;
  const [key, ...rest] = path;
  const copy: Record<string, unknown> = { ...doc };
  if (rest.length === 0) delete copy[key];
  else if (key in copy) copy[key] = without(copy[key], rest);
  return copy;
}

function withoutSid(statement: Record<string, unknown>): Record<string, unknown> {
  const { Sid: _sid, ...rest } = statement;
  return rest;
}
