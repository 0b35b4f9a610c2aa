/**
 * The structured-merge-diff oracle: server-side apply cases run through the real SMD library, offline.
 *
 * The Go program in `test/smd/oracle/` calls `merge.Updater.Apply` (and `Update`) of SMD 4.1.2, the code the
 * API server's field manager runs for server-side apply, on one case per JSON line. This module builds it once
 * per version of its sources into a cache folder and runs all cases of a call in one process.
 *
 * Needs Go and SMD's sources from Debian: `bash test/smd/install.sh` (`.ci/run` runs it). Tests never call
 * {@link runSmd} themselves: they call `smdVerdicts` (./verdicts.ts), which runs it live when Go is here and
 * otherwise answers from the vectors it recorded, so `npm test` passes with Node alone.
 */
import { execFileSync, spawnSync } from 'child_process';
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Where Debian's `golang-*-dev` packages put Go sources (GOPATH layout). */
export const SMD_GOCODE = '/usr/share/gocode';

/** SMD's sources in {@link SMD_GOCODE}; Debian ships them without the `/v4` major-version folder. */
const SMD_SOURCES = path.join(SMD_GOCODE, 'src', 'sigs.k8s.io', 'structured-merge-diff');

/** The oracle's Go sources. */
const ORACLE_DIR = path.join(__dirname, 'oracle');

/**
 * The Kubernetes 1.30 SMD schema every case can use, vendored in vendor/k8s-schema.
 *
 * Override with `SMD_BASE_SCHEMA`.
 */
export const DEFAULT_BASE_SCHEMA = path.resolve(__dirname, '..', '..', 'vendor', 'k8s-schema', 'k8s-1.30.smd-schema.yaml');

/** How to get the oracle's toolchain, repeated in every "unavailable" error. */
export const SMD_INSTALL_HINT =
  'install it with `bash test/smd/install.sh` (as root or with sudo; it installs the Debian packages golang-go and golang-k8s-sigs-structured-merge-diff-dev)';

/** One write to the object: a server-side apply, or a plain update (PUT/PATCH, as a controller does). */
export interface SmdOperation {
  /** The field manager's name, as in `kubectl apply --server-side --field-manager=NAME`. */
  readonly manager: string;
  /**
   * For an apply, the applied configuration; for an update, the whole new object.
   *
   * Plain JSON: integers are read as int64, other numbers as float64, like the API server's decoder.
   * @default - null, the empty configuration
   */
  readonly object?: unknown;
  /**
   * Take over conflicting fields instead of failing (`--force-conflicts`); ignored by updates.
   * @default false
   */
  readonly force?: boolean;
  /**
   * The API version the manager writes with. Every version maps to the same type: only manager bookkeeping
   * sees it.
   * @default - the case's apiVersion
   */
  readonly apiVersion?: string;
  /** @default "apply" */
  readonly operation?: 'apply' | 'update';
}

/** A sequence of writes by named managers to one object, starting from no object. */
export interface SmdCase {
  /** Carried to the result, to tell cases apart in messages. @default - none */
  readonly name?: string;
  /**
   * SMD schema YAML (`types: [...]`) added to the base schema; its types replace base types of the same name.
   * The per-use `{namedType, elementRelationship}` form is accepted here too.
   * @default - the base schema only
   */
  readonly schema?: string;
  /** The object's type in the schema, e.g. `io.k8s.api.apps.v1.Deployment`. */
  readonly typeName: string;
  /** @default "v1" */
  readonly apiVersion?: string;
  /** The writes, in order. */
  readonly applies: readonly SmdOperation[];
}

/** A field that an apply would take from another manager. */
export interface SmdConflict {
  /** The manager that owns the field. */
  readonly manager: string;
  /** SMD's `fieldpath.Path.String()`, e.g. `.spec.template.spec.containers[name="web"].image`. */
  readonly path: string;
}

/** What one write did. */
export interface SmdOperationResult {
  readonly manager: string;
  readonly operation: 'apply' | 'update';
  readonly force: boolean;
  /**
   * The conflicts that refused this apply, sorted by manager then path; empty when it succeeded. A refused
   * apply changes nothing, as on the API server.
   */
  readonly conflicts: readonly SmdConflict[];
}

/** The fields one manager owns at the end, as the API server would record them in `managedFields`. */
export interface SmdManagedFields {
  /** The API version of the manager's last write. */
  readonly apiVersion: string;
  /** Whether the manager's last write was an apply or an update. */
  readonly operation: 'apply' | 'update';
  /** Every member of the set (leaves, list items and map entries), as sorted path strings. */
  readonly fields: readonly string[];
  /** The members that have no owned descendants, as sorted path strings. */
  readonly leaves: readonly string[];
  /** The set in the `managedFields[].fieldsV1` form (`f:spec`, `k:{"name":"web"}`, `v:"a"`, `.`). */
  readonly fieldsV1: Record<string, unknown>;
}

/** The outcome of one {@link SmdCase}. */
export interface SmdResult {
  /** The case's name, when it had one. */
  readonly name?: string;
  /** One entry per write run, in order; on an error, the writes before it. */
  readonly applies: readonly SmdOperationResult[];
  /** Each manager that owns at least one field at the end. */
  readonly managers: Readonly<Record<string, SmdManagedFields>>;
  /** The object at the end; absent on an error. */
  readonly object?: unknown;
  /**
   * Why the case could not run: its schema does not parse, its object does not match the schema, an
   * associative list has duplicate keys... The case stops at the first one.
   */
  readonly error?: string;
}

/** Options of {@link runSmd}. */
export interface RunSmdOptions {
  /** @default - `SMD_BASE_SCHEMA`, else {@link DEFAULT_BASE_SCHEMA} */
  readonly baseSchema?: string;
}

/** Thrown when Go or SMD's sources are missing, with {@link SMD_INSTALL_HINT}. */
export class SmdUnavailableError extends Error {
  constructor(reason: string) {
    super(`structured-merge-diff oracle unavailable: ${reason}; ${SMD_INSTALL_HINT}`);
    this.name = 'SmdUnavailableError';
  }
}

/** The `go` executable, or undefined. */
function findGo(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/lib/go/bin']) {
    const candidate = path.join(dir, 'go');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why the oracle cannot run here, or undefined when it can. */
export function smdUnavailableReason(): string | undefined {
  if (findGo() === undefined) return '`go` is not on PATH';
  if (!fs.existsSync(path.join(SMD_SOURCES, 'merge', 'update.go'))) return `structured-merge-diff's sources are not in ${SMD_SOURCES}`;
  return undefined;
}

/** Whether Go and SMD's sources are installed, so {@link runSmd} can run. */
export function smdAvailable(): boolean {
  return smdUnavailableReason() === undefined;
}

/** The environment that builds against Debian's SMD in GOPATH mode. */
function goEnv(cacheDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: `${path.join(cacheDir, 'gopath')}${path.delimiter}${SMD_GOCODE}`,
    GOCACHE: path.join(cacheDir, 'go-build'),
    GOFLAGS: '',
    CGO_ENABLED: '0',
  };
}

/**
 * SMD 4.1.2's `merge.ConflictsFromManagers` keeps each path that `fieldpath.Set.Iterate` hands it, but Iterate
 * builds paths with `append(prefix, pe)` and reuses their backing array: with two or more conflicts of one
 * manager under one prefix, later paths overwrite earlier ones (a reported `.spec.template.spec.containers`
 * where the conflicts were `...containers[name="sidecar"].args` and `.spec.template.spec.serviceAccountName`).
 * Newer SMD copies the path (`p.Copy()`); the oracle builds against a copy of the sources patched the same way.
 */
const CONFLICT_PATH_PATCH = { from: '\t\t\t\tPath:    p,\n', to: '\t\t\t\tPath:    p.Copy(),\n' };

let builtBinary: string | undefined;

/**
 * Builds the oracle unless the cache already holds the build of these sources, and returns its path.
 *
 * The cache folder is named by a hash of the Go sources and the Go version. Concurrent builders (jest workers)
 * each build to a private name and rename it into place, so a reader never sees a half-written binary.
 */
function oracleBinary(): string {
  if (builtBinary && fs.existsSync(builtBinary)) return builtBinary;
  const reason = smdUnavailableReason();
  if (reason) throw new SmdUnavailableError(reason);
  const go = findGo()!;

  const hash = createHash('sha256');
  hash.update(execFileSync(go, ['version'], { encoding: 'utf-8' }));
  hash.update(`\0patch\0${CONFLICT_PATH_PATCH.to}`);
  for (const file of fs.readdirSync(ORACLE_DIR).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).sort()) {
    hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(ORACLE_DIR, file)));
  }
  const cacheDir = path.join(os.tmpdir(), 'cdk-capability-smd', hash.digest('hex').slice(0, 16));
  const binary = path.join(cacheDir, 'oracle');
  if (!fs.existsSync(binary)) {
    // SMD's packages import themselves as sigs.k8s.io/structured-merge-diff/v4/...; Debian ships them without /v4.
    // A patched copy, not a link: see CONFLICT_PATH_PATCH.
    const sources = path.join(cacheDir, 'gopath', 'src', 'sigs.k8s.io', 'structured-merge-diff', 'v4');
    if (!fs.existsSync(sources)) {
      const partialSources = `${sources}.${process.pid}.${randomBytes(4).toString('hex')}`;
      fs.mkdirSync(path.dirname(sources), { recursive: true });
      fs.cpSync(SMD_SOURCES, partialSources, { recursive: true, dereference: true });
      const conflictGo = path.join(partialSources, 'merge', 'conflict.go');
      const text = fs.readFileSync(conflictGo, 'utf-8');
      if (!text.includes(CONFLICT_PATH_PATCH.to)) {
        if (!text.includes(CONFLICT_PATH_PATCH.from)) throw new Error(`cannot patch ${conflictGo}: ${JSON.stringify(CONFLICT_PATH_PATCH.from)} not found`);
        fs.writeFileSync(conflictGo, text.replace(CONFLICT_PATH_PATCH.from, CONFLICT_PATH_PATCH.to));
      }
      try {
        fs.renameSync(partialSources, sources);
      } catch (e) {
        fs.rmSync(partialSources, { recursive: true, force: true }); // another worker was first
        if (!fs.existsSync(sources)) throw e;
      }
    }
    const partial = `${binary}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const build = spawnSync(go, ['build', '-o', partial, '.'], { cwd: ORACLE_DIR, env: goEnv(cacheDir), encoding: 'utf-8' });
    if (build.status !== 0) {
      fs.rmSync(partial, { force: true });
      throw new Error(`building the structured-merge-diff oracle failed (go build in ${ORACLE_DIR}):\n${build.stderr || build.error}`);
    }
    fs.renameSync(partial, binary);
  }
  builtBinary = binary;
  return binary;
}

/**
 * Runs server-side apply cases through structured-merge-diff, all in one process.
 *
 * @param cases the cases, each starting from no object
 * @param options where the base schema is
 * @returns one result per case, in order; a bad case gets an `error` and the others still run
 * @throws SmdUnavailableError when Go or SMD is not installed
 * @example
 * const [result] = runSmd([{
 *   typeName: 'io.k8s.api.apps.v1.Deployment',
 *   apiVersion: 'apps/v1',
 *   applies: [
 *     { manager: 'team-a', object: { spec: { replicas: 2 } } },
 *     { manager: 'team-b', object: { spec: { replicas: 3 } } },
 *   ],
 * }]);
 * // result.applies[1].conflicts: [{ manager: 'team-a', path: '.spec.replicas' }]
 */
export function runSmd(cases: readonly SmdCase[], options: RunSmdOptions = {}): SmdResult[] {
  const binary = oracleBinary();
  if (cases.length === 0) return [];
  const baseSchema = options.baseSchema ?? process.env.SMD_BASE_SCHEMA ?? DEFAULT_BASE_SCHEMA;
  if (!fs.existsSync(baseSchema)) {
    throw new Error(`the base SMD schema ${baseSchema} does not exist (set SMD_BASE_SCHEMA or pass baseSchema)`);
  }
  const input = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  const run = spawnSync(binary, ['-base', baseSchema], { input, encoding: 'utf-8', maxBuffer: 1024 * 1024 * 1024 });
  if (run.status !== 0) {
    throw new Error(`the structured-merge-diff oracle exited with ${run.status ?? run.signal}:\n${run.stderr || run.error}`);
  }
  const lines = run.stdout.split('\n').filter((l) => l.length > 0);
  if (lines.length !== cases.length) {
    throw new Error(`the structured-merge-diff oracle answered ${lines.length} results for ${cases.length} cases:\n${run.stderr}`);
  }
  return lines.map((l) => JSON.parse(l) as SmdResult);
}
