import { capturingOutput } from './util';
import { APPLY_USAGE } from '../src/cli/apply';
import { AUDIT_USAGE } from '../src/cli/audit';
import { main } from '../src/cli/main';

// The help is where most command lines have it (-h, --help, help, help <command>, <command> -h), and a usage error
// is one line and where the options are listed, not the whole help of the command (a day-one user trial).

/** Exit code, stdout and stderr of one command line. */
function run(...argv: string[]): { code: number; stdout: string; stderr: string } {
  const r = capturingOutput(() => main(argv));
  return { code: r.result, stdout: r.stdout, stderr: r.stderr };
}

/** plan's help, as `plan --help` prints it. */
function planHelp(): string {
  return run('plan', '--help').stdout;
}

describe('the help', () => {
  test.each([['-h'], ['--help'], ['help']])('%s prints every command\'s help, then how to print the version and one command\'s help; exit 0', (flag) => {
    // WHEN the help is asked for without a command
    const r = run(flag);

    // THEN each command's help, and the command line's own usage last
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `${planHelp()}\n${APPLY_USAGE}\n\n${AUDIT_USAGE}\n\n`
        + 'Usage: cdk-capability --version\n'
        + "       cdk-capability help [<command>]   (also -h, --help; <command> -h for one command's help)\n",
    });
  });

  test.each([
    [['help', 'plan'], 'plan'],
    [['plan', '-h'], 'plan'],
    [['help', 'apply'], 'apply'],
    [['apply', '-h'], 'apply'],
    [['help', 'audit'], 'audit'],
    [['audit', '-h'], 'audit'],
  ])('%j prints the help of %s alone, as --help does; exit 0', (argv, command) => {
    expect(run(...argv)).toEqual({ code: 0, stderr: '', stdout: run(command, '--help').stdout });
  });

  test('help of a command that is not one is answered as an unknown command, with the guess', () => {
    const r = run('help', 'plna');
    expect([r.code, r.stdout, r.stderr.split('\n')[0]]).toEqual([1, '', "cdk-capability: unknown command 'plna' (did you mean 'plan'?). The commands:"]);
  });

  test("plan's help shows plan's usage lines only, not the command line's --version", () => {
    const usage = planHelp().split('\n\n')[0];
    expect(usage).toBe(
      'Usage: cdk-capability plan [--app "<command>"] [--plan <plan.json>] [--json] [--format text|json|sarif|github] [--expect-lock] [--timeout <duration>] [--exit-zero]\n'
      + '       cdk-capability plan --teardown [--app "<command>"] [--plan <plan.json>] [--json] [--expect-lock] [--timeout <duration>] [--exit-zero]',
    );
  });
});

describe('a usage error is its line and where the options are, not the whole help', () => {
  test.each([
    [['plan', '--formatt', 'json'], "cdk-capability plan: Unknown option '--formatt' (did you mean '--format'?)\nRun 'cdk-capability plan --help' for the options.\n"],
    [['plan', '--format', 'yaml'],
      "cdk-capability plan: unknown --format 'yaml' (one of text, json, sarif, github)\n"
      + "This usage error is printed as text alone: --format 'yaml' names no format of cdk-capability plan (text, json, sarif, github).\n"
      + "Run 'cdk-capability plan --help' for the options.\n"],
    [['apply', '--dryrun'], "cdk-capability apply: Unknown option '--dryrun' (did you mean '--dry-run'?)\nRun 'cdk-capability apply --help' for the options.\n"],
    [['apply', '--timeout', 'soon'], "cdk-capability apply: --timeout 'soon' is not a duration such as 90s, 5m or 1h30m\nRun 'cdk-capability apply --help' for the options.\n"],
    [['audit', '--format', 'sarfi'],
      "cdk-capability audit: unknown --format 'sarfi' (did you mean 'sarif'?) (one of text, json, sarif, github)\n"
      + "This usage error is printed as text alone: --format 'sarfi' names no format of cdk-capability audit (text, json, sarif, github).\n"
      + "Run 'cdk-capability audit --help' for the options.\n"],
  ])('%j', (argv, stderr) => {
    expect(run(...argv)).toEqual({ code: 1, stdout: '', stderr });
  });

  test('with --format json, the document of the usage error on stdout, and the same two lines on stderr', () => {
    const r = run('plan', '--format', 'json', '--formatt', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).failure).toMatchObject({ kind: 'usage', message: "Unknown option '--formatt' (did you mean '--format'?)" });
    expect(r.stderr).toBe("cdk-capability plan: Unknown option '--formatt' (did you mean '--format'?)\nRun 'cdk-capability plan --help' for the options.\n");
  });
});
