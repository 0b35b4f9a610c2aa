import * as fs from 'fs';
import * as path from 'path';
import { readWorkflowCommand, sarifErrors, schemaErrors } from './cifail-cli';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { main } from '../src/cli/main';

// A usage error (an unknown option, a missing value, --teardown with --format sarif) and a --plan file plan cannot
// print (missing, truncated, another tool's JSON, a plan of another format version) used to print nothing on stdout
// in every format: a CI step that parses the JSON, uploads the SARIF log or reads the annotations got an empty file.
// Each is now a document in the format asked for, exit 1; a --format that names no format falls back to text, and
// says so.

afterAll(removeTempDirs);

/** Runs the command line in this process, in `cwd`. */
function run(argv: string[], cwd = process.cwd()): { code: number; stdout: string; stderr: string } {
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const r = capturingOutput(() => main(argv));
    return { code: r.result, stdout: r.stdout, stderr: r.stderr };
  } finally {
    process.chdir(here);
  }
}

const USAGE_SUMMARY = (problem: string) =>
  `cdk-capability plan ran nothing: ${problem}. This is a usage error (how plan was called), not a composition violation, so it has no code; cdk-capability plan --help lists the options.`;

describe('a usage error of plan, in the format asked for', () => {
  test('--format json with an unknown option: a document of docs/plan-output.schema.json whose failure is kind usage; stderr its one line and where the options are', () => {
    // WHEN an option is misspelt on a command line that asks for JSON
    const r = run(['plan', '--format', 'json', '--expect-locks']);

    // THEN exit 1, and stdout is one valid document of the usage error, uncoded
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    const problem = "Unknown option '--expect-locks' (did you mean '--expect-lock'?)";
    expect(doc).toEqual({ formatVersion: 1, accepted: false, findings: [], failure: { kind: 'usage', message: problem, summary: USAGE_SUMMARY(problem) } });
    expect(r.stderr).toBe(`cdk-capability plan: ${problem}\nRun 'cdk-capability plan --help' for the options.\n`);
  });

  test('--json --exit-zero with a missing value: the same document, exit 1 all the same', () => {
    const r = run(['plan', '--json', '--exit-zero', '--app']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    expect(doc.failure).toEqual({ kind: 'usage', message: "Option '--app <value>' argument missing", summary: USAGE_SUMMARY("Option '--app <value>' argument missing") });
  });

  test('--teardown --json with an unknown option: the document of docs/teardown-output.schema.json', () => {
    const r = run(['plan', '--teardown', '--json', '--bogus']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('teardown-output.schema.json', doc)).toEqual([]);
    expect(doc.failure.kind).toBe('usage');
  });

  test('--format=sarif --exit-zero with --teardown: a valid SARIF 2.1.0 log, no result, one failed invocation whose notification is the usage error', () => {
    const r = run(['plan', '--teardown', '--format=sarif', '--exit-zero']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].invocations).toEqual([{
      executionSuccessful: false,
      exitCode: 1,
      toolExecutionNotifications: [{
        level: 'error',
        message: { text: USAGE_SUMMARY('--teardown prints text or --json, not --format sarif') },
        properties: { kind: 'usage' },
      }],
    }]);
  });

  test('--format github with an unknown option: one ::error line the runner reads, titled a usage error, no file', () => {
    const r = run(['plan', '--format', 'github', '--formt', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(readWorkflowCommand(lines[0])).toEqual({
      command: 'error',
      properties: { title: 'cdk-capability plan: usage error (not a composition violation)' },
      message: USAGE_SUMMARY("Unknown option '--formt' (did you mean '--format'?)"),
    });
  });

  test('--format with a value that names no format: text alone on stderr, saying so; nothing on stdout', () => {
    const r = run(['plan', '--format', 'jsno']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      "cdk-capability plan: unknown --format 'jsno' (did you mean 'json'?) (one of text, json, sarif, github)",
      "This usage error is printed as text alone: --format 'jsno' names no format of cdk-capability plan (text, json, sarif, github).",
    ]);
  });

  test('another usage error beside a --format that names no format: text, and it says why', () => {
    const r = run(['plan', '--bogus', '--format=xml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      "cdk-capability plan: Unknown option '--bogus'",
      "This usage error is printed as text alone: --format 'xml' names no format of cdk-capability plan (text, json, sarif, github).",
    ]);
  });

  test('the value of --app is never read as the format: --app "--format json" with an unknown option is text', () => {
    const r = run(['plan', '--app', '--format=json', '--bogus']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });

  test('--json with --format sarif asks for two: text alone, the problem named', () => {
    const r = run(['plan', '--json', '--format', 'sarif']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'cdk-capability plan: --json is --format json: drop one of --json and --format sarif\n' });
  });
});

describe('a --plan file plan cannot print, in JSON', () => {
  /** Writes `text` to a plan file of a fresh folder; its path. */
  function planFile(text: string): string {
    const file = path.join(tempDir(), 'plan.json');
    fs.writeFileSync(file, text);
    return file;
  }

  test('a missing file: kind plan-file, uncoded, the file and how to give one', () => {
    const file = path.join(tempDir(), 'nope.json');
    const r = run(['plan', '--plan', file, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    const message = `no plan at '${file}': give the plan.json synth writes into its output folder (--plan dist/plan.json)`;
    expect(doc).toEqual({
      formatVersion: 1,
      accepted: false,
      findings: [],
      failure: { kind: 'plan-file', file, message, summary: `cdk-capability plan stopped on a plan file it cannot print: ${message}` },
    });
    expect(r.stderr).toBe(`cdk-capability plan: ${message}\n`);
  });

  test('a truncated file: CAP016, its line as stderr prints it', () => {
    const file = planFile('{"version":1,"capa');
    const r = run(['plan', '--plan', file, '--teardown', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('teardown-output.schema.json', doc)).toEqual([]);
    expect(doc.failure).toMatchObject({ kind: 'plan-file', code: 'CAP016', file });
    expect(doc.failure.message).toMatch(/^CAP016 plan file: '.*' is not a plan cdk-capability wrote: it is not valid JSON \(.*\)\. Run cdk8s synth again to rewrite it\. Nothing was printed\.$/);
    expect(`${doc.failure.message}\n`).toBe(r.stderr);
  });

  test("another tool's JSON: one CAP016 line naming what it holds, not one line per field a plan has", () => {
    const file = planFile('{"apiVersion":"v1","kind":"List","items":[]}');
    const r = run(['plan', '--plan', file, '--json']);
    expect(r.stderr).toBe(`CAP016 plan file: '${file}' is not a plan cdk-capability wrote: it is JSON but no plan: a plan has version, capabilities, changes and steps at its top, this has "apiVersion", "kind", "items". Run cdk8s synth again to rewrite it. Nothing was printed.\n`);
    expect(JSON.parse(r.stdout).failure.message).toBe(r.stderr.trimEnd());
  });

  test('a plan of another format version: CAP016 lines, the version first, in the document too', () => {
    const file = planFile('{"version":2,"capabilities":[],"changes":{},"steps":[]}');
    const r = run(['plan', '--plan', file, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`CAP016 plan file: '${file}' is not a plan cdk-capability wrote: /version (2) must be 1. Run cdk8s synth again to rewrite it. Nothing was printed.`);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    expect(doc.failure.message).toBe(r.stderr.trimEnd());
  });

  test('a JSON array: one CAP016 line', () => {
    const file = planFile('[]');
    const r = run(['plan', '--plan', file]);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `CAP016 plan file: '${file}' is not a plan cdk-capability wrote: it holds a JSON array, not a plan (an object with version, capabilities, changes and steps). Run cdk8s synth again to rewrite it. Nothing was printed.\n`,
    });
  });
});

describe('--timeout, read before the app runs', () => {
  test('a value that is no duration is a usage error, in the format asked for', () => {
    const r = run(['plan', '--json', '--timeout', '10 minutes', '--app', 'true']);
    expect(r.code).toBe(1);
    const problem = "--timeout '10 minutes' is not a duration such as 90s, 10m or 1h30m (leave it out to wait for the app as long as it takes)";
    expect(JSON.parse(r.stdout).failure).toEqual({ kind: 'usage', message: problem, summary: USAGE_SUMMARY(problem) });
  });

  test('with --plan, which runs no app, it is a usage error', () => {
    const r = run(['plan', '--plan', 'dist/plan.json', '--timeout', '5m']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'cdk-capability plan: --timeout limits how long the app may run, and --plan runs no app: drop one of them\n' });
  });
});
