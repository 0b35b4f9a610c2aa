import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { CommandFailure, commandFailureSummary } from './command-failure';
import { failureSentence, ProgramFailure, ProgramFrame, relativeSite } from './program-failure';
import { ReportedFinding, ReportedLocation, reportedRules } from './report-findings';
import { inWorkspace, runnerWorkspace } from './workspace-path';
import { CODE_TITLES } from '../check/finding';
import { packageRoot } from '../private/package-root';

/** The `cdk-capability` version, from its package.json (`--version`, and a SARIF log's tool driver). */
export function ownVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf-8')).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * A SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), as
 * GitHub code scanning takes it (`github/codeql-action/upload-sarif`): one run,
 * every rule with its id, explanation (`fullDescription`, `help`) and default
 * level, and one result per finding with its rule (`ruleId`), level, message,
 * the creation site of the newest construct it names as its location (a file
 * relative to the repository root, `SRCROOT`), every construct path as a
 * logical location, and every other construct it names with a known creation
 * site as a related location (SARIF §3.27.22), newest first. A finding that names no construct with a known
 * creation site is located on the lock file it is about, or else on the app's entry file, and its location's
 * `message` says which (SARIF §3.28.5). The run's one invocation says whether the app ran
 * (`executionSuccessful`, SARIF §3.20.14): a refusal is a successful run with results.
 *
 * An app that failed (a thrown error, an exit without a report) is a run without results whose invocation is
 * not successful, with one `toolExecutionNotifications` entry (§3.20.21, a notification, §3.58): the program's
 * own error, at the program's frame as its physical location when one is known, and the error's kind, message
 * and stack as its `exception`. A command line `plan` cannot run (a usage error) is such a run too, its
 * notification the usage error, with the failure's kind (and code, when coded) as its properties.
 *
 * @param root the folder the files are relative to, as a `file://` URI base
 * @param failure the app's failure, when it gave no report, or the command's own
 */
export function formatSarif(findings: readonly ReportedFinding[], root: string, failure?: ProgramFailure | CommandFailure): string {
  const rules = reportedRules();
  const ids = rules.map((r) => r.id);
  const physical = (l: ReportedLocation) => ({
    artifactLocation: { uri: encodeURI(l.file), uriBaseId: 'SRCROOT' },
    region: { startLine: l.line, startColumn: l.column },
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cdk-capability',
            version: ownVersion(),
            informationUri: 'https://github.com/cdk-capability/cdk-capability/blob/main/docs/errors.md',
            rules: rules.map((r) => ({
              id: r.id,
              name: ruleName(r.title),
              shortDescription: { text: `${r.code} ${CODE_TITLES[r.code]}: ${r.title}` },
              fullDescription: { text: r.explanation },
              help: {
                text: `${r.explanation} See docs/errors.md of cdk-capability, section "${r.code} ${CODE_TITLES[r.code]}".`,
                markdown: `${r.explanation}\n\nSee [${r.code} ${CODE_TITLES[r.code]}](docs/errors.md) in cdk-capability's docs/errors.md.`,
              },
              defaultConfiguration: { level: r.severity },
              properties: { code: r.code },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: directoryUri(root) } },
        invocations: [failure ? ('command' in failure ? commandFailureInvocation(failure) : failedInvocation(failure, root, physical)) : { executionSuccessful: true }],
        results: findings.map((f) => ({
          ruleId: f.rule,
          ...(ids.includes(f.rule) ? { ruleIndex: ids.indexOf(f.rule) } : {}),
          level: f.severity,
          message: { text: `${f.code} ${f.message}` },
          locations: [
            {
              ...(f.location ? { physicalLocation: physical(f.location) } : {}),
              ...(f.locatedAt ? { message: { text: LOCATED_AT[f.locatedAt] } } : {}),
              logicalLocations: f.paths.map((p) => ({ fullyQualifiedName: p, kind: 'object' })),
            },
          ],
          ...(f.writers.length > 1
            ? {
              relatedLocations: f.writers.slice(1).map((w, i) => ({
                id: i + 1,
                physicalLocation: physical(w.location),
                message: { text: `${w.path}, also named by this ${f.code} finding` },
              })),
            }
            : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, undefined, 2) + '\n';
}

/** What a result's location is, when it is no construct's creation site (the location's `message`). */
const LOCATED_AT: Readonly<Record<NonNullable<ReportedFinding['locatedAt']>, string>> = {
  'lock-file': 'the lock file this finding is about, at the line of the problem',
  'app-entry': "the app's entry file: the finding names no construct whose creation site is known",
};

/** The invocation of a run whose app failed: not successful, with the program's error as a notification. */
function failedInvocation(failure: ProgramFailure, root: string, physical: (l: ReportedLocation) => object): object {
  const site = failure.site ? relativeSite(failure.site, root) : undefined;
  const firstLine = failure.message.split('\n')[0];
  const kind = /^([\w$.]*(?:Error|Exception))(?::|$)/.exec(firstLine)?.[1];
  // a file under the root relative to SRCROOT; one outside it (a package installed elsewhere) as its file URI; Node's own as named
  const artifact = (f: ProgramFrame) => {
    if (!path.isAbsolute(f.file)) return { uri: encodeURI(f.file) };
    const relative = relativeSite(f, root).file;
    return relative.startsWith('../') ? { uri: pathToFileURL(f.file).href } : { uri: encodeURI(relative), uriBaseId: 'SRCROOT' };
  };
  const frame = (f: ProgramFrame) => ({
    location: {
      physicalLocation: {
        artifactLocation: artifact(f),
        region: { startLine: f.line, startColumn: f.column },
      },
      ...(f.function ? { logicalLocations: [{ fullyQualifiedName: f.function, kind: 'function' }] } : {}),
    },
  });
  return {
    executionSuccessful: false,
    exitCode: 1,
    toolExecutionNotifications: [
      {
        level: 'error',
        message: { text: `${failureSentence(failure)}${site ? ` (at ${site.file}:${site.line}:${site.column})` : ''}` },
        ...(site ? { locations: [{ physicalLocation: physical(site), message: { text: "the program's frame: where its error was thrown" } }] } : {}),
        ...(failure.message !== ''
          ? {
            exception: {
              ...(kind ? { kind } : {}),
              message: failure.message,
              ...(failure.frames.length > 0 ? { stack: { frames: failure.frames.map(frame) } } : {}),
            },
          }
          : {}),
        properties: {
          kind: failure.kind,
          app: failure.app,
          ...('code' in failure.exit ? { exitCode: failure.exit.code } : { signal: failure.exit.signal }),
          ...(failure.timeout !== undefined ? { timeout: failure.timeout } : {}),
        },
      },
    ],
  };
}

/**
 * The invocation of a run that did not run because the command failed on its input (a usage error, a lock or
 * live objects it cannot read): not successful, with the one notification SARIF has for it (§3.58), the
 * failure's sentence as its message, and its kind and code as properties.
 */
export function commandFailureInvocation(failure: CommandFailure): object {
  return {
    executionSuccessful: false,
    exitCode: 1,
    toolExecutionNotifications: [
      {
        level: 'error',
        message: { text: commandFailureSummary(failure) },
        properties: { kind: failure.kind, ...(failure.code ? { code: failure.code } : {}) },
      },
    ],
  };
}

/**
 * The folder a SARIF log's files are relative to (its `SRCROOT`): on a GitHub runner the workspace
 * (`GITHUB_WORKSPACE`), where code scanning resolves them, when the command runs inside it (an app's folder of a
 * monorepo); else the folder the command runs in.
 *
 * @param cwd the folder the command runs in
 * @param workspace the runner's workspace, `GITHUB_WORKSPACE` by default
 */
export function sarifRoot(cwd: string, workspace: string | undefined = runnerWorkspace()): string {
  return workspace === undefined || inWorkspace(cwd, workspace) === undefined ? cwd : path.resolve(workspace);
}

/** `dangling reference` -> `DanglingReference`, the rule's SARIF name. */
export function ruleName(title: string): string {
  return title.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** A folder as a `file://` URI ending in `/`, as SARIF wants a base URI. */
export function directoryUri(dir: string): string {
  const absolute = path.resolve(dir).split(path.sep).join('/');
  return `file://${encodeURI(absolute.startsWith('/') ? absolute : `/${absolute}`)}${absolute.endsWith('/') ? '' : '/'}`;
}
