import type { ViolationCode } from '../check/finding';

/** The formats `plan` and `audit` print their reports in: `text`, the readable one, and the documents CI reads. */
export const REPORT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;

/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Why a command did no work of its own input's making, not the composition's: `usage`, a command line it cannot
 * run (an unknown option, a missing value, a wrong `--format`; uncoded, as no composition is judged); `plan-file`,
 * a `--plan` file it cannot print (missing, a folder, or `CAP016`: not a plan synth wrote); `lock`, a lock `audit`
 * cannot compare with (missing, or `CAP014`); `input`, live objects `audit` cannot compare (`CAP017`).
 */
export type CommandFailureKind = 'usage' | 'plan-file' | 'lock' | 'input';

/** A command that failed on its own input, as every format reports it (a program's failure is a `ProgramFailure`). */
export interface CommandFailure {
  /** The command: `plan` or `audit`; undefined for the command line itself (no command, or one that is none). */
  readonly command: 'plan' | 'audit' | undefined;
  /** What failed. */
  readonly kind: CommandFailureKind;
  /** The problem as stderr says it, one line per problem, without the `cdk-capability <command>: ` prefix and the line saying where the options are. */
  readonly message: string;
  /** The code of a coded refusal (`CAP016` plan file, `CAP014` lock, `CAP017` live objects); none for a usage error. */
  readonly code?: ViolationCode;
  /** The file it is about (the `--plan` file, the lock), as given. */
  readonly file?: string;
}

/** What each kind of failure is, in the sentence the documents give and as a GitHub annotation's title. */
const WHAT: Readonly<Record<CommandFailureKind, string>> = {
  'usage': 'usage error (not a composition violation)',
  'plan-file': 'plan file it cannot print',
  'lock': 'lock it cannot compare with',
  'input': 'live objects it cannot compare',
};

/** The title of a failure's annotation: `cdk-capability plan: usage error (not a composition violation)`. */
export function commandFailureTitle(f: CommandFailure): string {
  return `${commandName(f)}: ${WHAT[f.kind]}`;
}

/** `cdk-capability plan`, or `cdk-capability` for the command line itself. */
function commandName(f: CommandFailure): string {
  return f.command === undefined ? 'cdk-capability' : `cdk-capability ${f.command}`;
}

/**
 * The one sentence the documents say of a command that failed on its input: what failed, the problem, and, for a
 * usage error, that it is no composition violation and where the options are.
 */
export function commandFailureSummary(f: CommandFailure): string {
  const problem = f.message.split('\n').filter((l) => l.trim() !== '').join(' ');
  if (f.kind === 'usage' && f.command === undefined) {
    return `cdk-capability ran nothing: ${problem}. This is a usage error (how cdk-capability was called), not a composition violation, so it has no code; cdk-capability --help lists the commands.`;
  }
  if (f.kind === 'usage') {
    return `cdk-capability ${f.command} ran nothing: ${problem}. This is a usage error (how ${f.command} was called), not a composition violation, so it has no code; cdk-capability ${f.command} --help lists the options.`;
  }
  return `${commandName(f)} stopped on ${f.kind === 'input' ? '' : 'a '}${WHAT[f.kind]}: ${problem}`;
}

/** A format asked for, or the value of a `--format` that names none. */
export type AskedFormat = { readonly format: ReportFormat } | { readonly unknown: string };

/**
 * The report format a command line asks for, read leniently so that a command line `parseArgs` refuses is still
 * answered in it: the last `--format <f>` or `--format=<f>`, `json` for `--json` alone; text when none is asked,
 * and when `--json` and another `--format` ask for two. Stops at `--`, and skips the value of each option in
 * `valueOptions` (`--app "<command>"`), so a value is never read as an option.
 *
 * @param argv the arguments after the command
 * @param valueOptions the command's options that take a value, without their dashes (`format` aside)
 */
export function askedFormat(argv: readonly string[], valueOptions: readonly string[]): AskedFormat {
  let format: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--json') json = true;
    else if (a === '--format') format = argv[++i];
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('--') && !a.includes('=') && valueOptions.includes(a.slice(2))) i++;
  }
  if (format === undefined) return { format: json ? 'json' : 'text' };
  if (json && format !== 'json') return { format: 'text' };
  return (REPORT_FORMATS as readonly string[]).includes(format) ? { format: format as ReportFormat } : { unknown: format };
}

/** What a usage error adds when `--format` names no format: that it is printed as text, and why. */
export function printedAsText(asked: AskedFormat): string {
  return 'unknown' in asked ? ` (printed as text: --format '${asked.unknown}' is not one of ${REPORT_FORMATS.join(', ')})` : '';
}

/**
 * The document of `plan --json` (and `plan --teardown --json`) for a command that failed on its input: not accepted,
 * no findings, and `failure` with its kind (`usage`, `plan-file`), code when coded, file when about one, message and
 * summary (docs/plan-output.schema.json).
 */
export function formatCommandFailureJson(f: CommandFailure): string {
  const output = {
    formatVersion: 1,
    accepted: false,
    findings: [],
    failure: commandFailureObject(f),
  };
  return JSON.stringify(output, undefined, 2) + '\n';
}

/**
 * The `failure` object of a command's JSON document (plan's and audit's): its kind, code when coded, file when
 * about one, the message as stderr says it and the sentence the other formats print.
 */
export function commandFailureObject(f: CommandFailure): Record<string, unknown> {
  return {
    kind: f.kind,
    ...(f.code ? { code: f.code } : {}),
    ...(f.file !== undefined ? { file: f.file } : {}),
    message: f.message,
    summary: commandFailureSummary(f),
  };
}
