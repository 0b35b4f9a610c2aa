import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { argsProblem, didYouMean, helpHint } from './args-problem';
import { AskedFormat, askedFormat, CommandFailure, REPORT_FORMATS } from './command-failure';
import { exitCode } from './exit-codes';
import { AuditReport, formatAuditFailureJson, formatAuditFailureSarif, formatAuditGithub, formatAuditJson, formatAuditSarif, formatAuditText } from './format-audit';
import { formatGithub, formatGithubFailure } from './format-github';
import { formatSarif, sarifRoot } from './format-sarif';
import { lockProblemLine } from './lock-locations';
import type { ReportedFinding } from './report-findings';
import { CODE_TITLES, ViolationCode } from '../check/finding';
import { ruleId } from '../check/rule';
import { auditCluster } from '../cluster/audit';
import { APPLIER_FIELD_MANAGER } from '../cluster/field-manager';
import { readLiveObjects } from '../cluster/live-objects';
import { expectedObjects } from '../cluster/object-writers';
import { auditApplier } from '../cluster/previous-applier';
import { shellWord } from '../private/shell-word';
import { DEFAULT_LOCK_FILE, loadLock } from '../release/lock';

export const AUDIT_USAGE = `Usage: cdk-capability audit [<file> | -] [--lock <file>] [--json] [--format text|json|sarif|github] [--exit-zero]
                            [--applied-by <manager>] [--label <key>=<value>]... [--ignore-manager <name>]...

Compares who owns each field of the live objects (metadata.managedFields) with
the writers the lock records, and prints every difference: a field owned by a
manager the composition does not declare, a field of a writer taken over, or
overwritten by an update (kubectl edit, a controller's full-object Update()),
or gone (stripped), an object of the lock missing, an object of ours the lock
does not know. Reads the objects as kubectl prints them (a List, or one object
per YAML or JSON document) from <file>, or from stdin when it is - or absent:

  kubectl get -f dist/audit/objects.list --ignore-not-found -o json --show-managed-fields \\
    | npx cdk-capability audit

dist/audit/objects.list, written by synth, names every runtime object with its
namespace: pass no -n.

  --lock            the lock of the release applied (default: ${DEFAULT_LOCK_FILE})
  --format          text (default); json (docs/audit-output.schema.json); sarif
                    (SARIF 2.1.0, for code scanning); github (workflow annotations)
  --json            the same as --format json
  --applied-by      the one field manager that applied the release, when a GitOps
                    engine applied it (kustomize-controller, argocd-controller);
                    cdk-capability for cdk-capability apply (default: the manager of
                    the engine the lock's gitops record names, else cdk-capability
                    apply; a flag naming another engine wins, and audit says so)
  --label           a label that marks an object as ours: one that carries every
                    --label and that the lock does not know is reported
  --ignore-manager  a field manager to leave out (a controller you accept)
  --exit-zero       exit 0 also on differences (a step that only reports)

Exit codes, as plan has them: 0 the cluster matches the lock; 2 differences
(printed); 1 an error (input it cannot read, CAP017: an object of the input
without metadata.managedFields among them, or objects none of which is the
lock's; a lock it cannot read, CAP014; a lock that records no writers; a usage
error), also with --exit-zero. With --format json, sarif or github, an error
is a document in that format too (docs/ci.md).`;

/** What to do about a lock audit cannot read: it compares the cluster with that lock, so it needs the file. */
const auditRecover = (lockFile: string) =>
  `Restore the lock of the release that was applied from version control (git checkout -- ${lockFile}), or correct it (docs/lock.md): audit compares the cluster with that lock, and cannot run without it.`;

const FORMATS = REPORT_FORMATS;

/** The options of `cdk-capability audit`, as `parseArgs` takes them. */
const AUDIT_OPTIONS = {
  'lock': { type: 'string' },
  'json': { type: 'boolean' },
  'format': { type: 'string' },
  'exit-zero': { type: 'boolean' },
  'applied-by': { type: 'string' },
  'label': { type: 'string', multiple: true },
  'ignore-manager': { type: 'string', multiple: true },
  'help': { type: 'boolean', short: 'h' },
} as const;
type Format = (typeof FORMATS)[number];

/**
 * Runs `cdk-capability audit`; returns the exit code.
 *
 * @param argv the arguments after `audit`
 * @param readStdin reads all of stdin (for tests)
 */
export function audit(argv: string[], readStdin: () => string = () => fs.readFileSync(0, 'utf-8')): number {
  let values: {
    'lock'?: string;
    'json'?: boolean;
    'format'?: string;
    'exit-zero'?: boolean;
    'applied-by'?: string;
    'label'?: string[];
    'ignore-manager'?: string[];
    'help'?: boolean;
  };
  let positionals: string[];
  // the format asked for, read before the strict parse, so that every failure below is answered in it
  let asked = askedFormat(argv, Object.entries(AUDIT_OPTIONS).filter(([, o]) => o.type === 'string').map(([name]) => name));
  const usageError = (message: string) => auditUsageError(message, asked);
  const failure = (f: Omit<CommandFailure, 'command'>, stderr: string) => failed({ command: 'audit', ...f }, asked, stderr);
  const inputRefused = (message: string) => failure(
    { kind: 'input', code: ViolationCode.LIVE_OBJECTS, message: `${ViolationCode.LIVE_OBJECTS} ${CODE_TITLES[ViolationCode.LIVE_OBJECTS]}: ${message}` },
    `${ViolationCode.LIVE_OBJECTS} ${CODE_TITLES[ViolationCode.LIVE_OBJECTS]}: ${message}\n`,
  );
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: AUDIT_OPTIONS,
    }));
  } catch (e) {
    return usageError(auditArgsProblem(e as Error));
  }
  if (values.help) {
    process.stdout.write(`${AUDIT_USAGE}\n`);
    return exitCode({ kind: 'accepted', changes: false });
  }
  if (positionals.length > 1) return usageError(`one input at most, got ${positionals.length} (${positionals.join(' ')})`);
  const format = (values.json ? 'json' : values.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) return usageError(`unknown --format '${values.format}'${didYouMean(String(values.format), FORMATS)} (one of ${FORMATS.join(', ')})`);
  asked = { format };
  if (values['applied-by'] === '') return usageError("--applied-by '' must name the field manager that applied the release, such as kustomize-controller");
  if (values['ignore-manager']?.includes('')) return usageError("--ignore-manager '' must name a field manager to leave out, such as kube-controller-manager");
  const labels: Record<string, string> = {};
  for (const l of values.label ?? []) {
    const eq = l.indexOf('=');
    if (eq <= 0) return usageError(`--label '${l}' is not <key>=<value>`);
    labels[l.slice(0, eq)] = l.slice(eq + 1);
  }

  const lockFile = values.lock ?? DEFAULT_LOCK_FILE;
  // a lock audit cannot read is CAP014, as a synth's; but deleting it starts no first release here: audit needs it
  const { lock, problems } = loadLock(lockFile, auditRecover(lockFile));
  if (problems.length > 0) {
    const root = sarifRoot(process.cwd());
    // as plan: in the GitHub format, annotations on the lock's line each problem is on, instead of the text lines;
    // SARIF too: a CI step that uploads the log gets one with the lock's problem on its line, not an empty file
    if (format === 'github') process.stdout.write(formatGithub(problems.map((p) => lockFinding(lockFile, p))));
    else if (format === 'sarif') process.stdout.write(formatSarif(problems.map((p) => lockFinding(lockFile, p, root)), root));
    if (format === 'github' || format === 'sarif') return exitCode({ kind: 'failed' });
    // JSON: the document of the failure; text: the lines alone
    const lines = problems.map((p) => `${ViolationCode.LOCK_FILE} ${CODE_TITLES[ViolationCode.LOCK_FILE]}: ${p}`).join('\n');
    return failure({ kind: 'lock', code: ViolationCode.LOCK_FILE, file: lockFile, message: lines }, `${lines}\n`);
  }
  if (!lock) {
    const message = `no lock at '${lockFile}': audit compares the cluster with the lock of the release applied. Give it with --lock <file>, or run audit in the folder that holds ${DEFAULT_LOCK_FILE} (the lock committed with the release)`;
    return failure({ kind: 'lock', file: lockFile, message }, `cdk-capability audit: ${message}\n`);
  }
  const lockText = fs.readFileSync(lockFile, 'utf-8');
  const expected = expectedObjects(lock);
  // a release with no runtime object (an empty composition) expects nothing; a lock whose objects have no writers is older
  if (expected.every((e) => e.whole) && lock.units.some((u) => u.id.startsWith('object:'))) {
    const message = `the lock '${lockFile}' records no writers of runtime objects: it was written before they were recorded. Synthesize with CDK_CAPABILITY_UPDATE_LOCK=1 to record them.`;
    return failure({ kind: 'lock', file: lockFile, message }, `cdk-capability audit: ${message}\n`);
  }

  const input = positionals[0] ?? '-';
  let text: string;
  try {
    text = input === '-' ? readStdin() : fs.readFileSync(input, 'utf-8');
  } catch (e) {
    return inputRefused(`cannot read ${input === '-' ? 'stdin' : `'${input}'`}: ${(e as Error).message}`);
  }
  let live;
  try {
    live = readLiveObjects(text, input === '-' ? 'stdin' : input);
  } catch (e) {
    return inputRefused((e as Error).message);
  }
  const bare = live.filter((o) => o.managedFields.length === 0);
  if (bare.length > 0 && bare.length === live.length) {
    return inputRefused('no object of the input has metadata.managedFields: run kubectl get with --show-managed-fields');
  }
  if (bare.length > 0) {
    const named = bare.slice(0, 3).map((o) => o.label).join(', ') + (bare.length > 3 ? ` and ${bare.length - 3} more` : '');
    return inputRefused(`${bare.length} of the ${live.length} objects of the input ${bare.length === 1 ? 'has' : 'have'} no metadata.managedFields (${named}): audit cannot tell who owns their fields. Read every object with kubectl get --show-managed-fields`);
  }

  // the engine the lock records applies the release unless --applied-by names another applier (which wins, with a note)
  const applier = auditApplier(values['applied-by'], lock.gitops?.engine, APPLIER_FIELD_MANAGER);
  const findings = auditCluster(expected, live, {
    ...(applier.manager ? { appliedBy: applier.manager } : {}),
    labels,
    ignoreManagers: values['ignore-manager'] ?? [],
  });
  // objects read, none of them the lock's: a list of another capability or release, not a cluster that lost them all
  const missing = findings.filter((f) => f.kind === 'missing-object').length;
  if (live.length > 0 && expected.length > 0 && missing === expected.length) {
    const shownLive = live.slice(0, 3).map((o) => o.label).join(', ') + (live.length > 3 ? ` and ${live.length - 3} more` : '');
    return inputRefused(
      `none of the ${live.length} object${live.length === 1 ? '' : 's'} of the input (${shownLive}) is one of the ${expected.length} of the lock '${lockFile}': `
      + 'they were read with the objects.list of another capability or release, or the lock is not the one of the release applied. '
      + 'Read the objects with the list synth wrote beside this lock (kubectl get -f dist/audit/objects.list --ignore-not-found -o json --show-managed-fields), or give that release\'s lock with --lock',
    );
  }
  const report: AuditReport = { lockFile, lockText, compared: expected.length, live: live.length, findings, ...(applier.note ? { applier } : {}) };
  const out = format === 'json' ? formatAuditJson(report) : format === 'sarif' ? formatAuditSarif(report, sarifRoot(process.cwd())) : format === 'github' ? formatAuditGithub(report) : formatAuditText(report);
  process.stdout.write(out);
  // differences are what `plan` calls changes: something to do (apply again, or declare a writer)
  return exitCode({ kind: 'accepted', changes: findings.length > 0 }, { exitZero: values['exit-zero'] });
}

/**
 * A lock's CAP014 as a report names it: about the lock file, on the line the problem is on (`lockProblemLine`).
 *
 * @param root the folder the file is named relative to
 */
function lockFinding(lockFile: string, problem: string, root = process.cwd()): ReportedFinding {
  const title = CODE_TITLES[ViolationCode.LOCK_FILE];
  return {
    code: ViolationCode.LOCK_FILE,
    rule: ruleId(ViolationCode.LOCK_FILE, title),
    title,
    severity: 'error',
    message: `${title}: ${problem}`,
    paths: [],
    location: { file: path.relative(root, path.resolve(lockFile)).split(path.sep).join('/'), line: lockProblemLine(lockFile, problem), column: 1 },
    writers: [],
  };
}

/**
 * What is wrong with the arguments, from `parseArgs`' error (`argsProblem`). Its message for an unknown option,
 * which ends in an unbalanced quote when positionals are allowed (`as in '-- "--formt"`), is said again: the
 * option, the one it likely misspells, and how to name an input file that starts with `-`.
 */
function auditArgsProblem(e: Error): string {
  const problem = argsProblem(e, Object.keys(AUDIT_OPTIONS));
  const unknown = /^Unknown option '([^']*)'/.exec(problem);
  if ((e as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown) return problem;
  return `${problem}. An input file whose name starts with '-' goes after '--': cdk-capability audit -- ${shellWord(unknown[1])}`;
}

/**
 * A usage error: the problem and where the options are listed on stderr, and, when the command line asks for a document, that document
 * of it on stdout; a `--format` naming no format prints text alone, and says so. Exit code 1.
 */
function auditUsageError(message: string, asked: AskedFormat): number {
  const asText = 'unknown' in asked
    ? `\nThis usage error is printed as text alone: --format '${asked.unknown}' names no format of cdk-capability audit (${FORMATS.join(', ')}).`
    : '';
  return failed({ command: 'audit', kind: 'usage', message }, asked, `cdk-capability audit: ${message}${asText}\n${helpHint('audit')}\n`);
}

/**
 * A failure of audit on its input (its command line, the lock, the live objects): its document on stdout in the
 * format asked for (none for text), then its lines on stderr, as every format prints them. Exit code 1, also with
 * `--exit-zero`.
 */
function failed(f: CommandFailure, asked: AskedFormat, stderr: string): number {
  const format = 'format' in asked ? asked.format : 'text';
  if (format === 'json') process.stdout.write(formatAuditFailureJson(f));
  else if (format === 'sarif') process.stdout.write(formatAuditFailureSarif(f, sarifRoot(process.cwd())));
  else if (format === 'github') process.stdout.write(formatGithubFailure(f));
  process.stderr.write(stderr);
  return exitCode({ kind: 'failed' });
}
