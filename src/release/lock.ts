import * as fs from 'fs';
import type { InterfaceRecord } from './interface-record';

/**
 * One stack or object of a release, as the lock records it: a digest, and the
 * leaves for the plan's field diff with secrets and tokens masked.
 */
export interface LockedUnit {
  /** `stack:<construct path>` or `object:<group>|<kind>|<namespace>|<name>`. */
  readonly id: string;
  /** How messages name it. */
  readonly label: string;
  /** The declaring construct path. */
  readonly path: string;
  /** A digest of its template or manifest, to tell changed from unchanged. */
  readonly digest: string;
  /** For a stack: its CloudFormation stack name (what a teardown deletes). */
  readonly stackName?: string;
  /** For a CRD: the `group/Kind` it defines. */
  readonly defines?: string;
  /** For an object: its `group/Kind`. */
  readonly groupKind?: string;
  /** For a namespaced object: its namespace; for a Namespace: its own name under `namespaceName`. */
  readonly namespace?: string;
  /** For a Namespace object: the namespace it creates. */
  readonly namespaceName?: string;
  /**
   * For the `ExternalSecret` that binds a contract major into a Secret: that
   * major's parameter name. The binding is the contract's, so its removal is
   * judged by the readers of the major (`interfaces[].fields[].readBy`), not by
   * the locked graph's edges to the objects that read it.
   */
  readonly binds?: string;
  /**
   * Its leaves by path (`spec.replicas`), masked: every value of a Secret's
   * `data` and `stringData`, and any value shaped like a secret, is
   * `(sensitive)`; an aws-cdk token is `(known after deploy)`. Absent in locks
   * written before values were recorded.
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /**
   * For an object: the leaves another construct than its declarer writes (a
   * `Contribution`), by path, with that writer's construct path; every other
   * leaf is the declarer's.
   */
  readonly owners?: Readonly<Record<string, string>>;
}

/**
 * The previous release, as the user commits it (`capability.lock.json`): the
 * interface artifact and the inventory of stacks and objects with the
 * dependency graph between them, and each one's field values with secrets
 * and tokens masked, so it holds no secret.
 */
export interface Lock {
  /** Format version of this file. */
  readonly formatVersion: 1;
  /** The interface artifact of the release. */
  readonly interfaces: InterfaceRecord[];
  /** Stacks and objects. */
  readonly units: LockedUnit[];
  /** Barrier nodes of the graph (construct-level dependencies), by label. */
  readonly barriers: string[];
  /**
   * Edges `[from, to, reason]`: indexes into `units` (0..n-1) then `barriers`
   * (n..); `to` depends on `from`.
   */
  readonly edges: Array<[number, number, string]>;
}

/** The default lock file name, in the working directory. */
export const DEFAULT_LOCK_FILE = 'capability.lock.json';

/** The lock's id of a stack: `stack:<construct path>`. */
export function stackUnitId(constructPath: string): string {
  return `stack:${constructPath}`;
}

/** The lock's id of an object: `object:<identity key>`. */
export function objectUnitId(identityKey: string): string {
  return `object:${identityKey}`;
}

/**
 * Reads a lock file.
 *
 * @returns the lock, undefined when there is none (a first release)
 * @throws when the file exists but is not a lock
 */
export function readLock(file: string): Lock | undefined {
  if (!fs.existsSync(file)) return undefined;
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf-8'));
  } catch (e) {
    throw new Error(`the lock file '${file}' is not valid JSON (${(e as Error).message}); restore it from version control or delete it to start a first release`);
  }
  const problem = shapeProblem(parsed);
  if (problem) {
    throw new Error(`the lock file '${file}' is not a cdk-capability lock (${problem}); restore it from version control or delete it to start a first release`);
  }
  return parsed as Lock;
}

/** What is wrong with the shape of a parsed lock, or undefined. */
function shapeProblem(lock: any): string | undefined {
  if (lock === null || typeof lock !== 'object') return 'not an object';
  if (lock.formatVersion !== 1) return `formatVersion is ${JSON.stringify(lock.formatVersion)}, expected 1`;
  for (const list of ['units', 'barriers', 'edges', 'interfaces']) {
    if (!Array.isArray(lock[list])) return `'${list}' is not a list`;
  }
  const isText = (x: unknown) => typeof x === 'string';
  const badUnit = lock.units.findIndex((u: any) => !u || typeof u !== 'object' || ![u.id, u.label, u.path, u.digest].every(isText));
  if (badUnit >= 0) return `units[${badUnit}] is not a unit with id, label, path and digest`;
  if (!lock.barriers.every(isText)) return 'barriers are not all labels';
  const nodes = lock.units.length + lock.barriers.length;
  const isNode = (x: unknown) => Number.isInteger(x) && (x as number) >= 0 && (x as number) < nodes;
  const badEdge = lock.edges.findIndex((e: any) => !Array.isArray(e) || !isNode(e[0]) || !isNode(e[1]) || !isText(e[2]));
  if (badEdge >= 0) return `edges[${badEdge}] is not [from, to, reason] within the graph`;
  const badInterface = lock.interfaces.findIndex(
    (i: any) => !i || typeof i !== 'object' || ![i.capability, i.name, i.version].every(isText) || typeof i.schema !== 'object' || typeof i.fields !== 'object',
  );
  if (badInterface >= 0) return `interfaces[${badInterface}] is not an interface record`;
  return undefined;
}

/** Writes a lock file atomically (a sibling temporary file renamed over it). */
export function writeLock(file: string, lock: Lock): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, serializeLock(lock));
  fs.renameSync(temporary, file);
}

/** The lock file's content: the lock as JSON, two-space indented, with a final newline. */
export function serializeLock(lock: Lock): string {
  return JSON.stringify(lock, undefined, 2) + '\n';
}
