import * as fs from 'fs';
import * as path from 'path';
import { appFolder, cli, readWorkflowCommand, RUN_TS, sarifErrors, schemaErrors } from './cifail-cli';
import { capturingOutput, HANG_GUARD_MS, removeTempDirs } from './util';
import { main } from '../src/cli/main';

// `plan` waited for the app as long as it ran: an app that never ends (a promise that never settles, a server or
// timer left open after synth) hung the CI job until the runner's own limit, with no document of why. `--timeout`
// stops the app and every process it started at the limit, and reports a failure of kind timeout in the format
// asked for, exit 1. Without it, plan waits as before.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);

/** An app that prints a line, starts a child process that writes its pid to `child.pid`, and never ends. */
const HANG = [
  "const fs = require('fs');",
  "console.error('connecting to the inventory service');",
  "const child = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });",
  "fs.writeFileSync('child.pid', String(child.pid));",
  'setInterval(() => {}, 1000);',
  '',
].join('\n');

/**
 * True while a process of that pid runs: it exists and, where /proc tells, is no zombie (a killed process whose
 * parent is gone waits there for an init that reaps it, which a container's may never do).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf-8'));
  } catch {
    return true;
  }
}

/** Runs the command line in this process, in `cwd`. */
function run(argv: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const r = capturingOutput(() => main(argv));
    return { code: r.result, stdout: r.stdout, stderr: r.stderr };
  } finally {
    process.chdir(here);
  }
}

const NOT_SYNTHESIZED = 'it had not synthesized yet: find what it waits for (a network call, a prompt on stdin, a promise that never settles), or raise --timeout if it needs longer';

test('--timeout 2s --format json: the app and every process it started are stopped; a document of kind timeout with the app, the limit and its output', () => {
  // GIVEN an app that never ends, and has started a process of its own
  const dir = appFolder({ 'hang.js': HANG });

  // WHEN plan runs it with a time limit
  const r = run(['plan', '--app', 'node hang.js', '--timeout', '2s', '--format', 'json'], dir);

  // THEN exit 1, the document says what happened, and no process of the app is left
  expect(r.code).toBe(1);
  const doc = JSON.parse(r.stdout);
  expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
  const summary = `the app 'node hang.js' was still running after --timeout 2s, so plan stopped it and every process it started (SIGKILL): ${NOT_SYNTHESIZED}; its last error output: connecting to the inventory service`;
  expect(doc).toEqual({
    formatVersion: 1,
    accepted: false,
    findings: [],
    failure: { kind: 'timeout', app: 'node hang.js', signal: 'SIGKILL', timeout: '2s', message: 'connecting to the inventory service', summary },
  });
  // the app's own stderr first, then the sentence, as for any failed app
  expect(r.stderr).toBe(`connecting to the inventory service\ncdk-capability plan: ${summary}.\n`);
  expect(alive(Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf-8')))).toBe(false);
});

test('an app that synthesized and then kept running: the document says so, and what keeps Node running', () => {
  // GIVEN a CapabilityApp that synthesizes, then leaves a timer running
  const dir = appFolder({
    'main.ts': [
      "import { CapabilityApp } from 'cdk-capability';",
      'const app = new CapabilityApp();',
      'app.synth();',
      'setInterval(() => {}, 1000);',
      '',
    ].join('\n'),
  });
  const app = `${RUN_TS} main.ts`;

  // WHEN plan runs it with a limit it synthesizes well within: the test waits the whole limit, so it is no longer
  // than it must be; this app synthesizes in under 4 s even on a machine loaded seven-fold (2 cores, load 14)
  const r = run(['plan', '--app', app, '--timeout', '20s', '--json'], dir);

  // THEN a timeout that names the open handle as the likely cause
  expect(r.code).toBe(1);
  const doc = JSON.parse(r.stdout);
  expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
  expect(doc.failure).toEqual({
    kind: 'timeout',
    app,
    signal: 'SIGKILL',
    timeout: '20s',
    message: '',
    summary: `the app '${app}' was still running after --timeout 20s, so plan stopped it and every process it started (SIGKILL): it had synthesized, then kept running: something of the program keeps Node running after synth (an open server, socket, child process or timer); end it, or call process.exit() after app.synth(); it printed no error`,
  });
});

describe('the real command line, end to end (spawned)', () => {
  test('--format sarif --exit-zero --timeout 2s on an app that never ends: a valid SARIF log of a failed run on stdout, exit 1', () => {
    const dir = appFolder({ 'hang.js': HANG });
    const r = cli(dir, ['plan', '--app', 'node hang.js', '--timeout', '2s', '--format', 'sarif', '--exit-zero']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(sarifErrors(log)).toEqual([]);
    const [invocation] = log.runs[0].invocations;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications[0].properties).toEqual({ kind: 'timeout', app: 'node hang.js', signal: 'SIGKILL', timeout: '2s' });
    expect(alive(Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf-8')))).toBe(false);
  });

  test('--format github with an unknown option: one ::error line on stdout, exit 1', () => {
    const r = cli(appFolder({}), ['plan', '--format', 'github', '--exit-zero', '--expect-locks']);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n').map(readWorkflowCommand)).toEqual([{
      command: 'error',
      properties: { title: 'cdk-capability plan: usage error (not a composition violation)' },
      message: "cdk-capability plan ran nothing: Unknown option '--expect-locks' (did you mean '--expect-lock'?). This is a usage error (how plan was called), not a composition violation, so it has no code; cdk-capability plan --help lists the options.",
    }]);
  });
});
