import type { ValidateFunction } from 'ajv';
import { schemaProblems, shown } from '../private/json-schema';
import { lazily } from '../private/lazy';

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
 * does not have, two units with one id. At most `MAX_LOCK_PROBLEMS`, the last
 * one counting the rest.
 *
 * @returns the problems; empty when the lock is one this version can read
 */
export function lockSchemaProblems(lock: unknown): string[] {
  return schemaProblems(validate(), lock, 'the lock format', MAX_LOCK_PROBLEMS, () => graphProblems(lock as LockShape));
}

interface LockShape {
  readonly units: ReadonlyArray<{ readonly id: string }>;
  readonly barriers: readonly string[];
  readonly edges: ReadonlyArray<readonly [number, number, string]>;
}

/** What the schema cannot say about a lock of the right shape: its edges name nodes it has, its unit ids are unique. */
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
  return problems;
}
