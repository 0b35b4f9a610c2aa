import * as path from 'path';
import { CommandFailure, commandFailureSummary, commandFailureTitle } from './command-failure';
import { failureSentence, ProgramFailure, relativeSite } from './program-failure';
import { packageText, ReportedFinding, ReportedLocation, ReportedWriter } from './report-findings';
import { inWorkspace, runnerWorkspace } from './workspace-path';

/** Where the annotations' files are: the folder they are relative to, and the runner's workspace, if any. */
export interface GithubPlaces {
  /** The folder the findings' files are relative to (where `plan` runs). */
  readonly cwd: string;
  /** The checkout's root on a GitHub runner (`GITHUB_WORKSPACE`), where the runner resolves annotation files; undefined elsewhere. */
  readonly workspace?: string;
}

/**
 * GitHub Actions workflow commands, one line per finding and place:
 * `::error file=<file>,line=<n>,col=<n>,title=<CODE title>::<message>`
 * (`::warning` for a warning), which the Actions runner turns into annotations
 * on the pull request's files. A finding that names several constructs with
 * known creation sites (the writers of a contested field) is annotated on each
 * of them, the newest first (the line a pull request added), each marked
 * `[inside the installed package <name>@<version>]` when a package's code made it there; one about a field something
 * other than its object's declarer's props wrote (a JSON patch, an override, a Contribution, an aspect) on that
 * write alone, marked `[written by <how>: '<writer>' wrote '<field>']` (and `[inside the installed package ...]` for a
 * Contribution a package's code made); one about the lock
 * file (`CAP014`) on the lock's line it names. Escaped as
 * @actions/core escapes them: `%`, CR and LF in the message; those and `:` and
 * `,` in properties.
 *
 * The runner places an annotation by its file relative to the workspace
 * (`GITHUB_WORKSPACE`), not to the folder the step ran in: where `plan` runs in
 * a folder of the workspace (an app's folder in a monorepo), each file is given
 * relative to the workspace (`packages/cache/src/index.ts`, not
 * `../../packages/cache/src/index.ts`). Outside a runner, or for a file outside
 * the workspace, it stays as the finding has it.
 *
 * @param places where the files are relative to; by default the working folder and `GITHUB_WORKSPACE`
 */
export function formatGithub(
  findings: readonly ReportedFinding[],
  places: GithubPlaces = { cwd: process.cwd(), workspace: runnerWorkspace() },
): string {
  const file = workspaceFile(places);
  return findings.map((f) => annotations(f, file)).join('');
}

/** How a finding's file is named to the runner: relative to the workspace when it is inside it, else as it is. */
function workspaceFile({ cwd, workspace }: GithubPlaces): (location: ReportedLocation) => string {
  if (workspace === undefined) return (at) => at.file;
  return (at) => inWorkspace(path.resolve(cwd, at.file), workspace) || at.file;
}

function annotations(f: ReportedFinding, file: (location: ReportedLocation) => string): string {
  const paths = f.paths.length > 0 ? ` (constructs: ${f.paths.join(', ')})` : '';
  const line = (at: ReportedLocation | undefined, note: string) =>
    workflowCommand(f.severity, { ...placed(at, file), title: `${f.code} ${f.title}` }, `${f.code} ${f.message}${paths}${note}`);
  if (f.writers.length === 0) {
    // a finding about a file rather than a construct (a lock's CAP014) is annotated on that file; one that names
    // no construct, on the app's entry file
    return line(f.location, f.locatedAt === 'app-entry' ? " [on the app's entry file: the finding names no construct whose creation site is known]" : '');
  }
  const write = f.writers[0].wrote;
  if (write) {
    // a finding about a field another writer than the declarer wrote is annotated on that write alone, not where the object was declared
    return line(f.location, ` [written by ${write.how}: '${f.writers[0].path}' wrote '${write.field}']${insidePackage(f.writers[0])}`);
  }
  return f.writers.map((w, i) => line(w.location, (f.writers.length > 1 ? ` [${i === 0 ? 'newest' : 'also'}: ${w.path}]` : '') + insidePackage(w))).join('');
}

/** ` [inside the installed package @acme/queue-capability@1.0.0]` for a writer a package's code made; else nothing. */
function insidePackage(w: ReportedWriter): string {
  return w.package ? ` [inside the installed package ${packageText(w.package)}]` : '';
}

/** The `file`, `line` and `col` properties of an annotation at a place; none without one. */
function placed(at: ReportedLocation | undefined, file: (location: ReportedLocation) => string): Record<string, string | number> {
  return at ? { file: file(at), line: at.line, col: at.column } : {};
}

/**
 * The annotation of an app that failed (a thrown error, an exit without a report): one `::error` line at the
 * program's frame (`file=main.ts,line=12,col=11`; no file when the program named none), titled as the program's
 * error, whose message is the program's own, so a pull request shows it on the line that threw. A command that
 * failed on its input (a usage error) is one `::error` line without a file, titled by what failed.
 *
 * @param places where the files are relative to; by default the working folder and `GITHUB_WORKSPACE`
 */
export function formatGithubFailure(
  failure: ProgramFailure | CommandFailure,
  places: GithubPlaces = { cwd: process.cwd(), workspace: runnerWorkspace() },
): string {
  if ('command' in failure) return workflowCommand('error', { title: commandFailureTitle(failure) }, commandFailureSummary(failure));
  const site = failure.site ? relativeSite(failure.site, places.cwd) : undefined;
  return workflowCommand('error', { ...placed(site, workspaceFile(places)), title: PROGRAM_FAILED_TITLE }, failureSentence(failure));
}

/** The title of a failed app's annotation: its own error, not a coded finding. */
export const PROGRAM_FAILED_TITLE = "the app's program failed (not a cdk-capability violation)";

/**
 * One workflow command line, `::<command> <key>=<value>,...::<message>` and a newline, as @actions/core's
 * `issueCommand` writes it (ported from actions/toolkit packages/core/src/command.ts, `Command.toString`): the
 * properties in order, a property without a value left out, each value escaped by {@link escapeProperty} and the
 * message by {@link escapeData}.
 */
export function workflowCommand(command: string, properties: Readonly<Record<string, string | number | undefined>>, message: string): string {
  const props = Object.entries(properties).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${command}${props.length > 0 ? ` ${props.join(',')}` : ''}::${escapeData(message)}\n`;
}

/** The message of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
