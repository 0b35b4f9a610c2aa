import type { ValidateFunction } from 'ajv';
import { FieldPathSyntaxError, parseFieldPath } from '../private/field-path-syntax';
import { schemaProblems, shown } from '../private/json-schema';
import { lazily } from '../private/lazy';
import { majorOfVersion } from '../private/semver-version';

/** The most problems reported for one lock file; the rest are counted in the last one. */
export const MAX_LOCK_PROBLEMS = 20;

/**
 * The validator of the lock's JSON Schema (draft 2020-12, `docs/lock.schema.json`), compiled ahead of
 * time into `lock-validator.generated.ts` (`npx projen lock-validator`, with the options
 * `schemaValidator` compiles with): loading ajv and compiling the schema cost about 0.2 s of every
 * synth that reads a lock. Loaded on first use.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy: only a synth that reads a lock validates one
const validate = lazily(() => (require('./lock-validator.generated') as { validate: ValidateFunction }).validate);

/**
 * What is wrong with a parsed lock, one problem per violation of the lock's
 * JSON Schema (each naming its JSON pointer, the value found and what was
 * expected), then what the schema cannot say: an edge naming a node the graph
 * does not have, two units with one id, one contract major recorded twice, a runtime writer's field that is no
 * field path. At most `MAX_LOCK_PROBLEMS`, the last one counting the rest.
 *
 * @returns the problems; empty when the lock is one this version can read
 */
export function lockSchemaProblems(lock: unknown): string[] {
  return schemaProblems(validate(), lock, 'the lock format', MAX_LOCK_PROBLEMS, () => graphProblems(lock as LockShape));
}

interface LockShape {
  readonly interfaces: ReadonlyArray<{ readonly capability: string; readonly name: string; readonly version: string }>;
  readonly units: ReadonlyArray<{ readonly id: string }>;
  readonly barriers: readonly string[];
  readonly edges: ReadonlyArray<readonly [number, number, string]>;
  readonly runtimeWriters?: ReadonlyArray<{ readonly writer: string; readonly fields: readonly string[] }>;
}

/**
 * What the schema cannot say about a lock of the right shape: its edges name nodes it has, its unit ids
 * are unique, so is each contract major (a capability, a contract name and a major), which every
 * release check finds by that key, and each runtime writer's field is a field path (`runtimeWriterFieldProblems`).
 */
function graphProblems(lock: LockShape): string[] {
  const problems: string[] = [];
  const nodes = lock.units.length + lock.barriers.length;
  lock.edges.forEach((edge, e) => {
    for (const end of [0, 1] as const) {
      if (edge[end] >= nodes) problems.push(`/edges/${e}/${end} (${edge[end]}) must be the index of a unit or barrier, below ${nodes}`);
    }
  });
  const first = new Map<string, number>();
  lock.units.forEach((u, i) => {
    const seen = first.get(u.id);
    if (seen === undefined) first.set(u.id, i);
    else problems.push(`/units/${i}/id (${shown(u.id)}) must be unique, but /units/${seen}/id is the same`);
  });
  const firstMajor = new Map<string, number>();
  lock.interfaces.forEach((record, i) => {
    const major = majorOfVersion(record.version);
    if (major === undefined) return;
    const key = JSON.stringify([record.capability, record.name, major]);
    const seen = firstMajor.get(key);
    if (seen === undefined) {firstMajor.set(key, i);} else {
      const contract = `${record.capability}/${record.name}`;
      problems.push(`/interfaces/${i} (major ${major} of ${shown(contract)}, ${shown(record.version)}) must be the only record of its major, but /interfaces/${seen} (${shown(lock.interfaces[seen].version)}) records it too`);
    }
  });
  for (const p of runtimeWriterFieldProblems(lock)) problems.push(p);
  return problems;
}

/**
 * Each field of a runtime writer's record that is not a field path in the syntax a `RuntimeWriter` takes and
 * the ledger prints (`spec[name=`, an empty string): the plan compares runtime writers' fields and `audit`
 * reads them, so a lock holding one cannot be trusted. Read with the parser `RuntimeWriter` uses, so the
 * message says where the path stops making sense, as the construct's own does.
 */
function runtimeWriterFieldProblems(lock: LockShape): string[] {
  const problems: string[] = [];
  (lock.runtimeWriters ?? []).forEach((w, i) => {
    w.fields.forEach((field, f) => {
      try {
        parseFieldPath(field);
      } catch (e) {
        if (!(e instanceof FieldPathSyntaxError)) throw e;
        problems.push(`/runtimeWriters/${i}/fields/${f} (${shown(field)}) of the runtime writer '${w.writer}' must be a field path such as spec.replicas: expected ${e.expected} ${e.where}`);
      }
    });
  });
  return problems;
}
