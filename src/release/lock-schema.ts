import * as fs from 'fs';
import * as path from 'path';
import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The lock's JSON Schema (draft 2020-12), shipped in the package as
 * `docs/lock.schema.json` (beside `lib/` as beside `src/`).
 */
export const LOCK_SCHEMA_FILE = path.join(__dirname, '..', '..', 'docs', 'lock.schema.json');

/** The most problems reported for one lock file; the rest are counted in the last one. */
export const MAX_LOCK_PROBLEMS = 20;

let validator: ValidateFunction | undefined;

/** The compiled schema, loaded on first use (ajv and its compilation cost a synth with no lock nothing). */
function validate(): ValidateFunction {
  if (!validator) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
    const Ajv2020 = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true });
    validator = ajv.compile(JSON.parse(fs.readFileSync(LOCK_SCHEMA_FILE, 'utf-8')));
  }
  return validator;
}

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
  const check = validate();
  const problems = check(lock) ? graphProblems(lock as LockShape) : (check.errors ?? []).map(describe);
  if (problems.length <= MAX_LOCK_PROBLEMS) return problems;
  const more = problems.length - MAX_LOCK_PROBLEMS + 1;
  return [...problems.slice(0, MAX_LOCK_PROBLEMS - 1), `and ${more} more problems like these`];
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

const ARTICLE: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** One violation, as a problem: the JSON pointer, the value found, and what the schema expects there. */
function describe(error: ErrorObject): string {
  const at = error.instancePath || '(the whole file)';
  const found = `${at} (${shown(error.data)})`;
  const expected = (error.parentSchema as { description?: string } | undefined)?.description;
  switch (error.keyword) {
    case 'required':
      return `${error.instancePath}/${pointerToken(error.params.missingProperty)} is missing`;
    case 'additionalProperties':
      return `${error.instancePath}/${pointerToken(error.params.additionalProperty)} is not part of the lock format`;
    case 'type':
      return `${found} must be ${ARTICLE[String(error.params.type)] ?? error.params.type}`;
    default:
      return `${found} must be ${expected ?? error.message}`;
  }
}

/** A key as a JSON pointer spells it (RFC 6901: `~` as `~0`, `/` as `~1`). */
function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A value as a problem quotes it: JSON, cut at 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
