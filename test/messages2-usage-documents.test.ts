import { readWorkflowCommand, sarifErrors, schemaErrors } from './cifail-cli';
import { capturingOutput } from './util';
import { main } from '../src/cli/main';

// `cdk-capability --format json <unknown command>`, and an unknown command with --json or --format sarif|github,
// answered in plain text only: a CI step that parses stdout got an empty file. A command line the tool cannot run
// is now the document asked for, as plan's and audit's own usage errors are; stderr is unchanged, exit 1.

/** Runs one command line in this process. */
function run(...argv: string[]): { code: number; stdout: string; stderr: string } {
  const r = capturingOutput(() => main(argv));
  return { code: r.result, stdout: r.stdout, stderr: r.stderr };
}

const SUMMARY = (problem: string) =>
  `cdk-capability ran nothing: ${problem}. This is a usage error (how cdk-capability was called), not a composition violation, so it has no code; cdk-capability --help lists the commands.`;

describe('a command line with no command it knows, in the format asked for', () => {
  test('an unknown command with --format json: a plan-output document whose failure is a usage error, uncoded; stderr as before', () => {
    // WHEN the command is misspelt on a command line that asks for JSON
    const r = run('plna', '--format', 'json');

    // THEN exit 1, one valid document of the usage error on stdout, and the commands on stderr
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    const problem = "unknown command 'plna' (did you mean 'plan'?)";
    expect(doc).toEqual({ formatVersion: 1, accepted: false, findings: [], failure: { kind: 'usage', message: problem, summary: SUMMARY(problem) } });
    expect(r.stderr.split('\n')[0]).toBe(`cdk-capability: ${problem}. The commands:`);
  });

  test('--format json before an unknown command: the option named as given before any command, in the document', () => {
    const r = run('--format', 'json', 'bogus');
    expect(r.code).toBe(1);
    const problem = "no command given before '--format': the command comes first, then its options";
    expect(JSON.parse(r.stdout).failure).toEqual({ kind: 'usage', message: problem, summary: SUMMARY(problem) });
    expect(r.stderr.split('\n')[0]).toBe(`cdk-capability: ${problem}. The commands:`);
  });

  test('--json before plan: the command line reordered as it must be written', () => {
    const r = run('--json', 'plan', '--exit-zero');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).failure.message).toBe("no command given before '--json': the command comes first, then its options: cdk-capability plan --json --exit-zero");
  });

  test('an unknown command with --format=sarif: a valid SARIF 2.1.0 log, no result, a failed invocation naming the usage error', () => {
    const r = run('deploy', '--format=sarif');
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].invocations).toEqual([{
      executionSuccessful: false,
      exitCode: 1,
      toolExecutionNotifications: [{ level: 'error', message: { text: SUMMARY("unknown command 'deploy'") }, properties: { kind: 'usage' } }],
    }]);
  });

  test('an unknown command with --format github: one ::error line titled a usage error of cdk-capability', () => {
    const r = run('aply', '--format', 'github');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(readWorkflowCommand(lines[0])).toEqual({
      command: 'error',
      properties: { title: 'cdk-capability: usage error (not a composition violation)' },
      message: SUMMARY("unknown command 'aply' (did you mean 'apply'?)"),
    });
  });

  test('no --format, or one that names no format: stderr alone, as before', () => {
    expect(run('bogus').stdout).toBe('');
    expect(run('bogus', '--format', 'xml').stdout).toBe('');
  });
});

describe('apply, which prints no document', () => {
  test('apply --format json: the unknown option says apply has no document, and where the documents are', () => {
    const r = run('apply', '--format', 'json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe("cdk-capability apply: Unknown option '--format': apply prints what it runs as text, and has no --format or --json; "
      + 'cdk-capability plan --format json|sarif|github gives the plan\'s document, before apply');
  });
});
