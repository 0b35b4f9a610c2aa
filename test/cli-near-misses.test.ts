import { capturingOutput } from './util';
import { main } from '../src/cli/main';

// A misspelt command, option or format value is named with the one it most likely misspells, as git ("The most
// similar command is") and npm ("Did you mean this?") do; nothing close, no guess.

/** The first line of stderr and the exit code of one command line. */
function run(...argv: string[]): { code: number; first: string } {
  const r = capturingOutput(() => main(argv));
  return { code: r.result, first: r.stderr.split('\n')[0] };
}

test.each([
  [['plna'], "cdk-capability: unknown command 'plna' (did you mean 'plan'?). The commands:"],
  [['aply'], "cdk-capability: unknown command 'aply' (did you mean 'apply'?). The commands:"],
  [['Audit'], "cdk-capability: unknown command 'Audit' (did you mean 'audit'?). The commands:"],
  [['deploy'], "cdk-capability: unknown command 'deploy'. The commands:"],
  [['plan', '--formt', 'json'], "cdk-capability plan: Unknown option '--formt' (did you mean '--format'?)"],
  [['plan', '--expect-locks'], "cdk-capability plan: Unknown option '--expect-locks' (did you mean '--expect-lock'?)"],
  [['plan', '--exit-zer0'], "cdk-capability plan: Unknown option '--exit-zer0' (did you mean '--exit-zero'?)"],
  [['plan', '--bogus'], "cdk-capability plan: Unknown option '--bogus'"],
  [['plan', '-x'], "cdk-capability plan: Unknown option '-x'"],
  [['plan', '--format', 'jsno'], "cdk-capability plan: unknown --format 'jsno' (did you mean 'json'?) (one of text, json, sarif, github)"],
  [['plan', '--format', 'xml'], "cdk-capability plan: unknown --format 'xml' (one of text, json, sarif, github)"],
  [['apply', '--dryrun'], "cdk-capability apply: Unknown option '--dryrun' (did you mean '--dry-run'?)"],
  [['apply', '--from-stpe', '2'], "cdk-capability apply: Unknown option '--from-stpe' (did you mean '--from-step'?)"],
  [['audit', '--lokc', 'x'], "cdk-capability audit: Unknown option '--lokc' (did you mean '--lock'?). An input file whose name starts with '-' goes after '--': cdk-capability audit -- --lokc"],
  [['audit', '--format', 'sarfi'], "cdk-capability audit: unknown --format 'sarfi' (did you mean 'sarif'?) (one of text, json, sarif, github)"],
])('%j: %s', (argv, expected) => {
  // WHEN the command line is run
  const { code, first } = run(...argv);

  // THEN a usage error, exit 1, whose first line names the guess when one is close
  expect(first).toBe(expected);
  expect(code).toBe(1);
});
