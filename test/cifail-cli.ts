import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { capturingOutput, NODE_TS, NODE_TS_COMMAND, tempDir } from './util';
import { main } from '../src/cli/main';

// What the test/cifail-* files share: the real command line, spawned in a temporary folder holding a small app, and
// the validators of what CI reads from it (the OASIS SARIF 2.1.0 schema, our published JSON schemas, GitHub's
// workflow-command syntax).

export const ROOT = path.resolve(__dirname, '..');

/** The command that runs a TypeScript entry as `ts-node --transpile-only` does: `${RUN_TS} main.ts` (test/util.ts). */
export const RUN_TS = NODE_TS_COMMAND;

/** What the command line printed, and its exit code. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A temporary folder holding the app's files (`main.ts` importing cdk-capability from this repository's `src/`,
 * written as `import ... from 'cdk-capability'` in the text given) and a link to this repository's node_modules.
 */
export function appFolder(files: Readonly<Record<string, string>>, prefix = 'cdk-capability-cifail-'): string {
  const dir = tempDir(prefix);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text.replace(/from 'cdk-capability'/g, `from ${JSON.stringify(path.join(ROOT, 'src'))}`));
  }
  return dir;
}

/** The environment of the command line: this one, off a GitHub runner, without the template validator, with `env`. */
function cliEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, CDK_VALIDATION: 'false', ...env };
  for (const name of ['CDK8S_OUTDIR', 'CDK_OUTDIR', 'CDK_CAPABILITY_UPDATE_LOCK', 'GITHUB_WORKSPACE', 'CDK8S_RECORD_CONSTRUCT_METADATA']) {
    if (!(name in env)) delete childEnv[name];
  }
  return childEnv;
}

/**
 * Spawns `cdk-capability <args>` (src/cli/main.ts) in `cwd`, off a GitHub runner, without the template validator.
 * A spawn costs a Node start and a load of src/ (seconds on a loaded CI machine): keep one a file, to prove the
 * wiring (the exit code, the output of the real process), and run the other cases through `cliInProcess`.
 */
export function cli(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): CliRun {
  const run = spawnSync(process.execPath, [...NODE_TS, path.join(ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd, env: cliEnv(env), encoding: 'utf-8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Runs `cdk-capability <args>` as `cli` does, but in this process: the entry's `main` (what src/cli/main.ts calls
 * with `process.argv` when run), in `cwd`, with the environment `cli` gives its process, capturing what it writes.
 * The app it runs is still a process of its own.
 */
export function cliInProcess(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): CliRun {
  const before = { ...process.env };
  const here = process.cwd();
  replaceEnv(cliEnv(env));
  process.chdir(cwd);
  try {
    const run = capturingOutput(() => main([...args]));
    return { code: run.result, stdout: run.stdout, stderr: run.stderr };
  } finally {
    process.chdir(here);
    replaceEnv(before);
  }
}

/** Makes `process.env` hold exactly `env`. */
function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
}

/** The errors of a SARIF log against the OASIS SARIF 2.1.0 JSON Schema (vendor/sarif, draft-04); none when valid. */
export function sarifErrors(log: unknown): unknown[] {
  if (!compiled.sarif) {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8'));
    const ajv = new AjvDraft04({ allErrors: true, strict: false });
    addFormats(ajv);
    compiled.sarif = ajv.compile(schema);
  }
  const validate = compiled.sarif;
  return validate(log) ? [] : [...(validate.errors ?? [])];
}

/** Each validator, compiled once a test file. */
const compiled: { sarif?: ValidateFunction; [schema: string]: ValidateFunction | undefined } = {};

/** The errors of a document against one of our published schemas (docs/<name>); none when valid. */
export function schemaErrors(name: 'plan-output.schema.json' | 'teardown-output.schema.json', document: unknown): unknown[] {
  const validate = compiled[name] ??= new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', name), 'utf-8')));
  return validate(document) ? [] : [...(validate.errors ?? [])];
}

/** A workflow command as the Actions runner reads it: the command, its properties and message, unescaped. */
export interface WorkflowCommand {
  readonly command: string;
  readonly properties: Record<string, string>;
  readonly message: string;
}

/**
 * Reads one line of stdout as the Actions runner reads a workflow command (docs.github.com, "Workflow commands for
 * GitHub Actions": `::command parameter1={data},parameter2={data}::{command value}`; the runner's
 * ActionCommand.TryParseV2 unescapes `%25`, `%0D`, `%0A` and, in properties, `%3A` and `%2C`); undefined when the
 * line is no such command, or a property or the message holds a character it would have to escape.
 */
export function readWorkflowCommand(line: string): WorkflowCommand | undefined {
  const m = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m || /[\r\n]/.test(m[3])) return undefined;
  const properties: Record<string, string> = {};
  for (const pair of m[2] === undefined ? [] : m[2].split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return undefined;
    properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1), true);
  }
  return { command: m[1], properties, message: unescape(m[3], false) };
}

function unescape(s: string, property: boolean): string {
  const codes: Record<string, string> = { '%0D': '\r', '%0A': '\n', ...(property ? { '%3A': ':', '%2C': ',' } : {}), '%25': '%' };
  return s.replace(/%(?:0D|0A|3A|2C|25)/g, (c) => codes[c] ?? c);
}
