import * as fs from 'fs';
import * as path from 'path';
import { appFolder, cli, CliRun, cliInProcess, readWorkflowCommand, ROOT, RUN_TS, sarifErrors, schemaErrors } from './cifail-cli';
import { replayIdenticalAppRuns } from './support/app-run-replay';
import { HANG_GUARD_MS, removeTempDirs } from './util';

// When the user's program fails before synth (cdk8s-plus's `Port 8080 is not exposed by any container`, any
// `throw` in main.ts, a syntax error, a module not found, an exit code without a message), `cdk-capability plan
// --format json|sarif|github` used to print nothing on stdout and exit 1: a CI that parses the JSON, uploads the
// SARIF log or reads the annotations saw an empty file, not the failure. Each format now prints a valid document
// of the program's own error, at the program's frame; the text says it is the program's error, not a violation.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);
// each app below is read in several formats: `plan` in this process starts it once and replays it for the others
// (the spawned SARIF run of the first app is a real `plan` that runs the app itself)
replayIdenticalAppRuns();

/** ts-node's own command line, started by node without `npx` resolving it first. */
const TS_NODE = [process.execPath, path.join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js')].map((a) => JSON.stringify(a)).join(' ');

const APP = `${RUN_TS} main.ts`;
const BEFORE = (exit: string, message: string) =>
  `the app '${APP}' failed before synth (${exit}): the program's own error, not a cdk-capability violation; its error: ${message}`;

/**
 * Runs `plan` on the app in every format CI reads, and `plan --teardown` as text and JSON. The SARIF run is the real
 * command line, spawned (its exit code and stdout are the process's); the others run its `main` in this process.
 */
function everyFormat(dir: string): Record<'text' | 'json' | 'sarif' | 'github' | 'teardownText' | 'teardownJson', CliRun> {
  return {
    text: cliInProcess(dir, ['plan', '--app', APP]),
    json: cliInProcess(dir, ['plan', '--app', APP, '--format', 'json']),
    sarif: cli(dir, ['plan', '--app', APP, '--format', 'sarif', '--exit-zero']),
    github: cliInProcess(dir, ['plan', '--app', APP, '--format', 'github']),
    teardownText: cliInProcess(dir, ['plan', '--teardown', '--app', APP]),
    teardownJson: cliInProcess(dir, ['plan', '--teardown', '--json', '--app', APP]),
  };
}

describe('a cdk8s-plus error thrown by the program before synth (Port 8080 is not exposed by any container)', () => {
  const MAIN = [
    "import { Chart } from 'cdk8s';",
    "import * as kplus from 'cdk8s-plus-30';",
    "import { CapabilityApp } from 'cdk-capability';",
    '',
    'const app = new CapabilityApp();',
    "const chart = new Chart(app, 'web');",
    "const deployment = new kplus.Deployment(chart, 'Web', { containers: [{ image: 'nginx', portNumber: 80 }] });",
    'deployment.exposeViaService({ ports: [{ port: 8080 }] });',
    'app.synth();',
    '',
  ].join('\n');
  // V8 places a method call's frame at the method's name: line 8, the column of `exposeViaService`
  const SITE = { file: 'main.ts', line: 8, column: MAIN.split('\n')[7].indexOf('exposeViaService') + 1 };
  const ERROR = 'Error: Unable to expose deployment web-c8be0d4f via a service: Port 8080 is not exposed by any container';
  let runs: ReturnType<typeof everyFormat>;

  beforeAll(() => {
    runs = everyFormat(appFolder({ 'main.ts': MAIN }));
  });

  test('--format json is a document of docs/plan-output.schema.json with the failure: not accepted, no findings, the program frame', () => {
    expect(runs.json.code).toBe(1);
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document).toEqual({
      formatVersion: 1,
      accepted: false,
      findings: [],
      failure: { kind: 'before-synth', app: APP, exitCode: 1, message: ERROR, summary: BEFORE('exit code 1', ERROR), location: SITE },
    });
  });

  test('--teardown --json prints the same document, valid against docs/teardown-output.schema.json', () => {
    expect(runs.teardownJson.code).toBe(1);
    const document = JSON.parse(runs.teardownJson.stdout);
    expect(schemaErrors('teardown-output.schema.json', document)).toEqual([]);
    expect(document).toEqual(JSON.parse(runs.json.stdout));
  });

  test('--format sarif is a valid SARIF 2.1.0 log: no result, a failed invocation whose notification is the error at the program frame', () => {
    // exit 1 also with --exit-zero: a failure is never a refusal
    expect(runs.sarif.code).toBe(1);
    const log = JSON.parse(runs.sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    const run = log.runs[0];
    expect(run.results).toEqual([]);
    expect(run.invocations).toHaveLength(1);
    const [invocation] = run.invocations;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toHaveLength(1);
    const [notification] = invocation.toolExecutionNotifications;
    expect(notification.level).toBe('error');
    expect(notification.message).toEqual({ text: `${BEFORE('exit code 1', ERROR)} (at main.ts:8:${SITE.column})` });
    expect(notification.locations).toEqual([{
      physicalLocation: { artifactLocation: { uri: 'main.ts', uriBaseId: 'SRCROOT' }, region: { startLine: 8, startColumn: SITE.column } },
      message: { text: "the program's frame: where its error was thrown" },
    }]);
    expect(notification.exception.kind).toBe('Error');
    expect(notification.exception.message).toBe(ERROR);
    // the stack as Node printed it: cdk8s-plus's frame first (outside the app, as a file URI), then the program's
    const frames = notification.exception.stack.frames.map((f: any) => f.location);
    expect(frames[0].physicalLocation.artifactLocation.uri).toMatch(/^file:\/\/\/.*\/node_modules\/cdk8s-plus-30\/src\/deployment\.ts$/);
    expect(frames[0].logicalLocations).toEqual([{ fullyQualifiedName: 'Deployment.exposeViaService', kind: 'function' }]);
    expect(frames[1]).toEqual({
      physicalLocation: { artifactLocation: { uri: 'main.ts', uriBaseId: 'SRCROOT' }, region: { startLine: 8, startColumn: SITE.column } },
      logicalLocations: [{ fullyQualifiedName: 'Object.<anonymous>', kind: 'function' }],
    });
    expect(notification.properties).toEqual({ kind: 'before-synth', app: APP, exitCode: 1 });
  });

  test('--format github is one ::error annotation at the program frame, in the workflow-command syntax', () => {
    expect(runs.github.code).toBe(1);
    const lines = runs.github.stdout.split('\n');
    expect(lines).toEqual([
      `::error file=main.ts,line=8,col=${SITE.column},title=the app's program failed (not a cdk-capability violation)::${BEFORE('exit code 1', ERROR)}`,
      '',
    ]);
    expect(readWorkflowCommand(lines[0])).toEqual({
      command: 'error',
      properties: { file: 'main.ts', line: '8', col: String(SITE.column), title: "the app's program failed (not a cdk-capability violation)" },
      message: BEFORE('exit code 1', ERROR),
    });
  });

  test('the text keeps the program\'s message and stack frame, and says the error is the program\'s, not a violation', () => {
    for (const run of [runs.text, runs.teardownText]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`\n${ERROR}\n`);
      expect(run.stderr).toContain(`    at Object.<anonymous> (${'/'}`);
      expect(run.stderr).toMatch(new RegExp(`\\(.*/main\\.ts:8:${SITE.column}\\)\n`));
      expect(run.stderr.split('\n').slice(-2)).toEqual([
        `cdk-capability plan: the app '${APP}' failed before synth (exit code 1) at main.ts:8:${SITE.column}: the error above is the program's own, not a cdk-capability violation. No plan is printed for an app that fails.`,
        '',
      ]);
    }
  });
});

/** One app of one file, and what each machine format should say of it. */
interface Case {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly app?: string;
  readonly kind: 'before-synth' | 'after-synth';
  readonly exit: { readonly exitCode: number } | { readonly signal: string };
  readonly message: string;
  readonly location?: { readonly file: string; readonly line: number; readonly column: number };
}

const CASES: readonly Case[] = [
  {
    name: 'a thrown string (not an Error): located at the line Node prints above it',
    files: { 'main.ts': "const url = process.env.CIFAIL_UNSET;\nif (!url) throw 'DATABASE_URL is not set';\n" },
    kind: 'before-synth',
    exit: { exitCode: 1 },
    message: 'DATABASE_URL is not set',
    // Node's header: the line, and the caret under the throw statement
    location: { file: 'main.ts', line: 2, column: 'if (!url) '.length + 1 },
  },
  {
    name: 'a thrown object',
    files: { 'main.ts': "\n\nthrow { code: 42, reason: 'no config' };\n" },
    kind: 'before-synth',
    exit: { exitCode: 1 },
    message: "{ code: 42, reason: 'no config' }",
    location: { file: 'main.ts', line: 3, column: 1 },
  },
  {
    name: 'a syntax error in the app entry, run by node',
    files: { 'main.js': 'const chart = 1;\nconst web = ;\n' },
    app: 'node main.js',
    kind: 'before-synth',
    exit: { exitCode: 1 },
    message: "SyntaxError: Unexpected token ';'",
    location: { file: 'main.js', line: 2, column: 'const web = '.length + 1 },
  },
  {
    name: 'a type error in the app entry, run by ts-node: located at the diagnostic',
    files: { 'main.ts': "const replicas: number = 'three';\nconsole.log(replicas);\n", 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' },
    app: `${TS_NODE} main.ts`,
    kind: 'before-synth',
    exit: { exitCode: 1 },
    message: "TSError: ⨯ Unable to compile TypeScript:\nmain.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    location: { file: 'main.ts', line: 1, column: 7 },
  },
  {
    name: 'a module not found',
    files: { 'main.ts': "import 'cdk8s-plus-99';\n" },
    kind: 'before-synth',
    exit: { exitCode: 1 },
    message: 'Error: Cannot find module \'cdk8s-plus-99\'\nRequire stack:\n- <dir>/main.ts',
    // the require esbuild compiles the import to, mapped back to the import's module name
    location: { file: 'main.ts', line: 1, column: "import '".length },
  },
  {
    name: 'an exit code without a message: no location, an empty message',
    files: { 'main.ts': 'process.exit(3);\n' },
    kind: 'before-synth',
    exit: { exitCode: 3 },
    message: '',
  },
  {
    name: 'a signal that ends the program',
    files: { 'main.ts': "process.kill(process.pid, 'SIGKILL');\n" },
    // exec: the shell plan runs the app with is replaced by it, so the signal is the app's (a shell left in between
    // would print its own 'Killed' and exit 137)
    app: `exec ${APP}`,
    kind: 'before-synth',
    exit: { signal: 'SIGKILL' },
    message: '',
  },
  {
    name: 'an error thrown after synth',
    files: {
      'main.ts': [
        "import { CapabilityApp } from 'cdk-capability';",
        'const app = new CapabilityApp();',
        'app.synth();',
        "throw new Error('uploading the manifests failed');",
        '',
      ].join('\n'),
    },
    kind: 'after-synth',
    exit: { exitCode: 1 },
    message: 'Error: uploading the manifests failed',
    location: { file: 'main.ts', line: 4, column: 7 },
  },
];

describe.each(CASES)('$name', (c) => {
  const app = c.app ?? APP;
  let dir: string;
  let runs: Record<'json' | 'sarif' | 'github' | 'text', CliRun>;
  let message: string;
  let summary: string;

  beforeAll(() => {
    dir = appFolder(c.files);
    runs = {
      json: cliInProcess(dir, ['plan', '--app', app, '--format', 'json']),
      sarif: cliInProcess(dir, ['plan', '--app', app, '--format', 'sarif']),
      github: cliInProcess(dir, ['plan', '--app', app, '--format', 'github']),
      text: cliInProcess(dir, ['plan', '--app', app]),
    };
    message = c.message.replace('<dir>', fs.realpathSync(dir));
    const exit = 'exitCode' in c.exit ? `exit code ${c.exit.exitCode}` : `signal ${c.exit.signal}`;
    const own = message === '' ? "the program's own failure, not a cdk-capability violation; it printed no error" : `the program's own error, not a cdk-capability violation; its error: ${message}`;
    summary = `the app '${app}' ${c.kind === 'before-synth' ? 'failed before synth' : 'synthesized, then failed'} (${exit}): ${own}`;
  });

  test('--format json: the failure, valid against the schema, exit 1', () => {
    expect(runs.json.code).toBe(1);
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document).toEqual({
      formatVersion: 1,
      accepted: false,
      findings: [],
      failure: { kind: c.kind, app, ...c.exit, message, summary, ...(c.location ? { location: c.location } : {}) },
    });
  });

  test('--format sarif: a valid log with a failed invocation and the error as its notification', () => {
    expect(runs.sarif.code).toBe(1);
    const log = JSON.parse(runs.sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    const [invocation] = log.runs[0].invocations;
    expect(log.runs[0].results).toEqual([]);
    expect(invocation.executionSuccessful).toBe(false);
    const [notification] = invocation.toolExecutionNotifications;
    const at = c.location ? ` (at ${c.location.file}:${c.location.line}:${c.location.column})` : '';
    expect(notification.message).toEqual({ text: `${summary}${at}` });
    expect(notification.locations).toEqual(c.location
      ? [{
        physicalLocation: { artifactLocation: { uri: c.location.file, uriBaseId: 'SRCROOT' }, region: { startLine: c.location.line, startColumn: c.location.column } },
        message: { text: "the program's frame: where its error was thrown" },
      }]
      : undefined);
    if (message === '') expect(notification.exception).toBeUndefined();
    else expect(notification.exception.message).toBe(message);
  });

  test('--format github: one ::error line, at the program frame when known', () => {
    expect(runs.github.code).toBe(1);
    const place = c.location ? `file=${c.location.file},line=${c.location.line},col=${c.location.column},` : '';
    const escaped = summary.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    expect(runs.github.stdout).toBe(`::error ${place}title=the app's program failed (not a cdk-capability violation)::${escaped}\n`);
    expect(readWorkflowCommand(runs.github.stdout.trimEnd())?.message).toBe(summary);
  });

  test('the text says it is the program\'s error, not a violation, after what the program printed', () => {
    expect(runs.text.code).toBe(1);
    const last = runs.text.stderr.trimEnd().split('\n').pop();
    const at = c.location ? ` at ${c.location.file}:${c.location.line}:${c.location.column}` : '';
    const exit = 'exitCode' in c.exit ? `exit code ${c.exit.exitCode}` : `signal ${c.exit.signal}`;
    const what = c.kind === 'before-synth' ? `failed before synth (${exit})` : `synthesized, then ended with ${exit}`;
    const whose = message === '' ? " and printed no error: the program's own failure" : `${at}: the error above is the program's own`;
    expect(last).toBe(`cdk-capability plan: the app '${app}' ${what}${whose}, not a cdk-capability violation. No plan is printed for an app that fails.`);
    if (message !== '') expect(runs.text.stderr).toContain(message.split('\n')[0]);
  });
});

describe('an app that ends well without synthesizing a CapabilityApp (no report)', () => {
  const app = `${RUN_TS} main.ts`;
  let runs: Record<'json' | 'github', CliRun>;

  beforeAll(() => {
    const dir = appFolder({ 'main.ts': "import { App } from 'cdk8s';\nnew App().synth();\n" });
    runs = { json: cliInProcess(dir, ['plan', '--app', app, '--format', 'json']), github: cliInProcess(dir, ['plan', '--app', app, '--format', 'github']) };
  });

  const SUMMARY = `the app '${app}' ended (exit code 0) without synthesizing a CapabilityApp, so there is no plan: its root is not a CapabilityApp, or it never calls app.synth()`;

  test('--format json: failure of kind no-report, exit 1', () => {
    expect(runs.json.code).toBe(1);
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document).toEqual({ formatVersion: 1, accepted: false, findings: [], failure: { kind: 'no-report', app, exitCode: 0, message: '', summary: SUMMARY } });
  });

  test('--format github: one ::error line that says so', () => {
    expect(runs.github.code).toBe(1);
    expect(runs.github.stdout).toBe(`::error title=the app's program failed (not a cdk-capability violation)::${SUMMARY}\n`);
  });
});
