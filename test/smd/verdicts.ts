/**
 * structured-merge-diff's verdicts for a suite of cases: live from the Go oracle when Go is here, else from the
 * vectors recorded in test/smd/vectors/, so `npm test` needs Node alone.
 *
 * Every test that needs SMD calls {@link smdVerdicts} with a suite name and its cases (never `runSmd`):
 *
 * - Go and SMD present (CI, `.ci/run`): the cases run live, and the call throws when a case has no recorded
 *   vector or when live and recorded differ, naming the case.
 * - Go absent: the recorded verdicts are returned; a case with no vector (or one changed since it was recorded)
 *   throws with the command that records it. The run ends with one line saying so (test/smd/reporter.js).
 * - `SMD_REQUIRE_LIVE=1` (`.ci/run` sets it): Go absent is an error, never a fallback to the vectors.
 * - `SMD_RECORD=1` (`npx projen smd:record` sets it): the cases run live and the suite's vector file is rewritten.
 *
 * A vector file holds, per case, its name, a digest of its input and everything the oracle answered (each
 * write's conflicts, each manager's owned set in SMD's own `fieldsV1` serialization, the merged object, the
 * error), one case per line, sorted by name. What the result repeats of the input (each write's manager,
 * operation and force) and what it derives from the sets (the `fields` and `leaves` path lists) is left out and
 * rebuilt on reading, which halves the files; the live comparison checks the rebuilt result whole.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { DEFAULT_BASE_SCHEMA, runSmd, SmdCase, SmdConflict, SmdManagedFields, SmdResult, SmdUnavailableError, smdUnavailableReason } from './smd';

/** A case of a suite: its name is its key in the vector file. */
export interface NamedSmdCase extends SmdCase {
  readonly name: string;
}

/** The folder of the committed vector files, one per suite. */
export const VECTORS_DIR = path.join(__dirname, 'vectors');

/** The command that records every suite's vectors (needs Go: `bash test/smd/install.sh`). */
export const RECORD_COMMAND = 'npx projen smd:record';

/** The environment variable that makes {@link smdVerdicts} record instead of compare. */
export const RECORD_ENV = 'SMD_RECORD';

/** The environment variable that refuses the recorded vectors: `.ci/run` sets it, so CI always compares live. */
export const REQUIRE_LIVE_ENV = 'SMD_REQUIRE_LIVE';

/** Where the reporter collects which suites ran and how (set by test/smd/reporter.js). */
export const RUN_DIR_ENV = 'CDK_CAPABILITY_SMD_RUN_DIR';

/** Where the record task collects which suites were recorded, to remove the vector files of suites gone. */
export const RECORDED_DIR_ENV = 'CDK_CAPABILITY_SMD_RECORDED_DIR';

/** What the oracle answered for one case, without what the input or the sets already say. */
export interface SmdVerdict {
  /** Per write run, in order, the conflicts that refused it (`[]`: accepted). */
  readonly conflicts: readonly (readonly SmdConflict[])[];
  /** Each manager's set at the end: API version, operation and `fieldsV1`. */
  readonly managers: Readonly<Record<string, Omit<SmdManagedFields, 'fields' | 'leaves'>>>;
  readonly object?: unknown;
  readonly error?: string;
}

/** One recorded case. */
export interface SmdVector {
  readonly name: string;
  /** `sha256:` of the case's canonical JSON. */
  readonly input: string;
  readonly verdict: SmdVerdict;
}

/** A suite's vector file. */
export interface SmdVectorFile {
  readonly suite: string;
  /** `sha256:` of the base schema the cases ran against. */
  readonly baseSchema: string;
  readonly vectors: readonly SmdVector[];
}

/** How a suite's verdicts were obtained, for the one line at the end of the run. */
export interface SmdSuiteRun {
  readonly suite: string;
  readonly cases: number;
  readonly mode: 'live' | 'recorded';
  /** Why the comparison was not live. */
  readonly reason?: string;
}

/** JSON with object keys sorted at every level, so equal values serialize to equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

function digest(text: string | Buffer): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The digest a case's vector is recorded under. */
export function inputDigest(c: SmdCase): string {
  return digest(canonicalJson(c));
}

/** The file of a suite's vectors. */
export function vectorFileOf(suite: string): string {
  return path.join(VECTORS_DIR, `${suite}.json`);
}

/** Writes a vector file: a header line, then one vector per line, sorted by name. */
export function formatVectorFile(file: SmdVectorFile): string {
  const vectors = [...file.vectors].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = vectors.map((v) => canonicalJson({ name: v.name, input: v.input, verdict: v.verdict }));
  return `{"suite":${JSON.stringify(file.suite)},"baseSchema":${JSON.stringify(file.baseSchema)},"vectors":[\n${lines.join(',\n')}\n]}\n`;
}

function readVectorFile(suite: string): SmdVectorFile | undefined {
  const file = vectorFileOf(suite);
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf-8')) as SmdVectorFile;
}

/** The verdict a result records. */
export function verdictOf(result: SmdResult): SmdVerdict {
  return JSON.parse(canonicalJson({
    conflicts: result.applies.map((a) => a.conflicts),
    managers: Object.fromEntries(Object.entries(result.managers).map(([m, set]) => {
      const { fields: _fields, leaves: _leaves, ...kept } = set;
      return [m, kept];
    })),
    object: result.object,
    error: result.error,
  })) as SmdVerdict;
}

/** Go's `%v` of an SMD value, as `fieldpath.PathElement.String()` prints key and set values. */
function goValueString(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value); // Go's %q, for the printable text of our cases
  if (Array.isArray(value)) return `[${value.map(goValueString).join(',')}]`;
  if (typeof value === 'object') return Object.keys(value).sort().map((k) => `${k}=${goValueString((value as Record<string, unknown>)[k])}`).join('');
  return String(value);
}

/** SMD's `PathElement.String()` of one `fieldsV1` key: `f:spec` -> `.spec`, `k:{"name":"web"}` -> `[name="web"]`. */
function pathElementString(key: string): string {
  const rest = key.slice(2);
  switch (key.slice(0, 2)) {
    case 'f:': return `.${rest}`;
    case 'i:': return `[${rest}]`;
    case 'v:': return `[=${goValueString(JSON.parse(rest))}]`;
    case 'k:': {
      const fields = JSON.parse(rest) as Record<string, unknown>;
      return `[${Object.keys(fields).sort().map((k) => `${k}=${goValueString(fields[k])}`).join(',')}]`;
    }
    default: throw new Error(`unknown fieldsV1 key ${JSON.stringify(key)}`);
  }
}

/** A set's members and its leaves (members with no children), as SMD's `Set.Iterate` and `Set.Leaves` give them. */
function pathsOf(fieldsV1: Record<string, unknown>): { fields: string[]; leaves: string[] } {
  const fields: string[] = [];
  const leaves: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, child] of Object.entries(node)) {
      if (key === '.') continue;
      const p = prefix + pathElementString(key);
      const keys = Object.keys(child as object);
      const hasChildren = keys.some((k) => k !== '.');
      if (keys.length === 0 || keys.includes('.')) {
        fields.push(p);
        if (!hasChildren) leaves.push(p);
      }
      if (hasChildren) walk(child as Record<string, unknown>, p);
    }
  };
  walk(fieldsV1, '');
  const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { fields: fields.sort(byBytes), leaves: leaves.sort(byBytes) };
}

/** The oracle's whole result for a case, rebuilt from its input and its verdict. */
export function resultOf(c: NamedSmdCase, verdict: SmdVerdict): SmdResult {
  return JSON.parse(canonicalJson({
    name: c.name,
    applies: verdict.conflicts.map((conflicts, i) => ({
      manager: c.applies[i].manager,
      operation: c.applies[i].operation ?? 'apply',
      force: c.applies[i].force ?? false,
      conflicts,
    })),
    managers: Object.fromEntries(Object.entries(verdict.managers).map(([m, set]) => [m, { ...set, ...pathsOf(set.fieldsV1) }])),
    object: verdict.object,
    error: verdict.error,
  })) as SmdResult;
}

/** The first place two JSON values differ, as a path and both values, for a failure message. */
function firstDifference(recorded: unknown, live: unknown, at = ''): string {
  if (isDeepStrictEqual(recorded, live)) return '';
  if (recorded !== null && live !== null && typeof recorded === 'object' && typeof live === 'object' && Array.isArray(recorded) === Array.isArray(live)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(live)])].sort();
    for (const key of keys) {
      const d = firstDifference((recorded as any)[key], (live as any)[key], Array.isArray(recorded) ? `${at}[${key}]` : `${at}.${key}`);
      if (d) return d;
    }
  }
  return `${at || '(the result)'}: recorded ${JSON.stringify(recorded)}, live ${JSON.stringify(live)}`;
}

function problemList(problems: readonly string[]): string {
  const shown = problems.slice(0, 10).map((p) => `  - ${p}`);
  if (problems.length > shown.length) shown.push(`  - and ${problems.length - shown.length} more`);
  return shown.join('\n');
}

function baseSchemaDigest(): string {
  const file = process.env.SMD_BASE_SCHEMA ?? DEFAULT_BASE_SCHEMA;
  return digest(fs.readFileSync(file));
}

/** Leaves a note for the reporter's one line, when it runs (jest with test/smd/reporter.js). */
function noteRun(run: SmdSuiteRun): void {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir || !fs.existsSync(dir)) return;
  fs.writeFileSync(path.join(dir, `${run.suite}.json`), JSON.stringify(run));
}

/**
 * Where live results differ from the recorded ones: one line per differing case, naming it and the first
 * place it differs.
 */
export function liveDifferences(cases: readonly NamedSmdCase[], vectors: readonly SmdVector[], live: readonly SmdResult[]): string[] {
  return live.flatMap((result, i) => {
    const d = firstDifference(resultOf(cases[i], vectors[i].verdict), JSON.parse(canonicalJson(result)));
    return d ? [`case '${cases[i].name}' ${d}`] : [];
  });
}

/** Records a suite: runs it live and rewrites its vector file. */
function record(suite: string, cases: readonly NamedSmdCase[]): SmdResult[] {
  const results = runSmd(cases);
  const file: SmdVectorFile = {
    suite,
    baseSchema: baseSchemaDigest(),
    vectors: cases.map((c, i) => ({ name: c.name, input: inputDigest(c), verdict: verdictOf(results[i]) })),
  };
  const recordedDir = process.env[RECORDED_DIR_ENV];
  if (recordedDir) {
    const marker = path.join(recordedDir, suite);
    if (fs.existsSync(marker)) throw new Error(`the structured-merge-diff suite '${suite}' was recorded twice in one run: give each suite its own name`);
    fs.writeFileSync(marker, `${cases.length}\n`);
  }
  fs.mkdirSync(VECTORS_DIR, { recursive: true });
  fs.writeFileSync(vectorFileOf(suite), formatVectorFile(file));
  return results;
}

/**
 * structured-merge-diff's answer for each case of a suite, live or recorded (see the module comment).
 *
 * @param suite the suite's name, unique across the tests: its vectors are `test/smd/vectors/<suite>.json`
 * @param cases the cases, each with a name unique in the suite
 * @returns one result per case, in order, as {@link runSmd} returns them
 * @throws when a case has no recorded vector, or (live) when live and recorded differ
 */
export function smdVerdicts(suite: string, cases: readonly NamedSmdCase[]): SmdResult[] {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(suite)) throw new Error(`suite name '${suite}' must be lowercase letters, digits and dashes`);
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`suite '${suite}' has two cases named '${c.name}'`);
    names.add(c.name);
  }
  const reason = smdUnavailableReason();
  if (reason && process.env[REQUIRE_LIVE_ENV]) throw new SmdUnavailableError(`${reason} (${REQUIRE_LIVE_ENV} is set: .ci/run compares live)`);
  if (process.env[RECORD_ENV]) {
    if (reason) throw new SmdUnavailableError(reason);
    return record(suite, cases);
  }

  const fix = `record them with \`${RECORD_COMMAND}\` (needs Go: \`bash test/smd/install.sh\`) and commit test/smd/vectors/${suite}.json`;
  const recorded = readVectorFile(suite);
  if (recorded === undefined) {
    throw new Error(`structured-merge-diff suite '${suite}' has no recorded vectors (${path.relative(process.cwd(), vectorFileOf(suite))}): ${fix}`);
  }
  const problems: string[] = [];
  if (recorded.baseSchema !== baseSchemaDigest()) problems.push('the base schema changed since the vectors were recorded');
  const byName = new Map(recorded.vectors.map((v) => [v.name, v]));
  const vectors = cases.map((c) => {
    const v = byName.get(c.name);
    if (v === undefined) problems.push(`case '${c.name}' has no recorded vector`);
    else if (v.input !== inputDigest(c)) problems.push(`case '${c.name}' changed since its vector was recorded`);
    return v;
  });
  if (problems.length > 0) throw new Error(`structured-merge-diff suite '${suite}': ${fix}\n${problemList(problems)}`);

  if (reason) {
    noteRun({ suite, cases: cases.length, mode: 'recorded', reason });
    return cases.map((c, i) => resultOf(c, vectors[i]!.verdict));
  }
  const live = runSmd(cases);
  const differences = liveDifferences(cases, vectors as SmdVector[], live);
  if (differences.length > 0) {
    throw new Error(`structured-merge-diff suite '${suite}': the live oracle differs from the recorded vectors; if the change is intended, ${fix}\n${problemList(differences)}`);
  }
  noteRun({ suite, cases: cases.length, mode: 'live' });
  return live;
}
