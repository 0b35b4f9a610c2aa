import * as path from 'path';
import { CommandFailure, commandFailureObject } from './command-failure';
import { escapeData, escapeProperty } from './format-github';
import { commandFailureInvocation, directoryUri, ownVersion, ruleName } from './format-sarif';
import { inWorkspace, runnerWorkspace } from './workspace-path';
import type { AuditFinding } from '../cluster/audit';
import { AUDIT_RULES, auditRule } from '../cluster/audit-rules';
import type { AuditApplier } from '../cluster/previous-applier';
import { formatPath } from '../collect/ledger/field-path';

/** What `cdk-capability audit` compared, for every format. */
export interface AuditReport {
  /** The lock file, as given. */
  readonly lockFile: string;
  /** Its text, to point at the line of each object. */
  readonly lockText: string;
  /** Objects of the lock compared (those with writers recorded). */
  readonly compared: number;
  /** Live objects read. */
  readonly live: number;
  /** The differences. */
  readonly findings: readonly AuditFinding[];
  /**
   * The applier audit compared with, when it says something of it: taken from the lock's GitOps engine, or given with
   * `--applied-by` although the lock names another engine (`auditApplier`).
   */
  readonly applier?: AuditApplier;
}

/** The line of the lock that starts an object's unit (1 when not found: the file itself). */
export function lockLine(lockText: string, unitId: string | undefined): number {
  if (!unitId) return 1;
  const at = lockText.indexOf(`"id": ${JSON.stringify(unitId)}`);
  return at < 0 ? 1 : lockText.slice(0, at).split('\n').length;
}

/** The readable report: one paragraph per finding, then a summary line. */
export function formatAuditText(report: AuditReport): string {
  const lines: string[] = [];
  for (const f of report.findings) lines.push(`${f.kind}: ${f.message}`, '');
  const n = report.findings.length;
  lines.push(
    n === 0
      ? `cdk-capability audit: the cluster matches ${report.lockFile} (${report.compared} object${report.compared === 1 ? '' : 's'} compared).`
      : `cdk-capability audit: ${n} difference${n === 1 ? '' : 's'} between the cluster and ${report.lockFile} (${report.compared} object${report.compared === 1 ? '' : 's'} compared).`,
  );
  const note = emptyInputNote(report);
  if (note) lines.push(note);
  if (report.applier?.note) lines.push(report.applier.note);
  return `${lines.join('\n')}\n`;
}

/**
 * What every format says of an input that holds no object while the lock has some (an empty List): every object of
 * the lock is missing, which is more likely a read of the wrong cluster or context than a cluster emptied.
 */
export function emptyInputNote(report: AuditReport): string | undefined {
  if (report.live > 0 || report.compared === 0) return undefined;
  return 'The input holds no object at all: check that it was read from the cluster the release is applied to (the kubectl context), with the documented command (docs/cluster.md).';
}

/** The applier a report says something of, as the JSON report's `applier` holds it. */
function applierJson(a: AuditApplier): { manager?: string; source: string; note?: string } {
  return { ...(a.manager ? { manager: a.manager } : {}), source: a.source, note: a.note };
}

/**
 * The applier note as a SARIF notification (§3.58) of the run's invocation, in `toolExecutionNotifications`
 * (§3.20.21, "runtime conditions detected by the tool during the analysis", where the note of an input with no object
 * is too, and where GitHub code scanning reads a tool's notifications): level `note`, as the GitHub format's
 * `::notice`, the note as its message, and the applier as the JSON report's `applier` holds it in its `properties`
 * (§3.8), for a reader that wants the manager and where it came from (`lock` or `flag`) without parsing the text.
 */
function applierNotification(a: AuditApplier): object {
  const { note, ...applier } = applierJson(a);
  return { level: 'note', message: { text: note }, properties: { applier } };
}

/** The JSON report (docs/audit-output.schema.json). */
export function formatAuditJson(report: AuditReport): string {
  const findings = report.findings.map((f) => ({
    kind: f.kind,
    level: auditRule(f.kind).level,
    object: f.object,
    ...(f.unitId ? { unitId: f.unitId } : {}),
    fields: f.fields.map(formatPath),
    fieldPaths: f.fields,
    ...(f.manager ? { manager: f.manager, operation: f.operation } : {}),
    ...(f.writer ? { writer: f.writer } : {}),
    ...(f.writerManager ? { writerManager: f.writerManager } : {}),
    message: f.message,
  }));
  const note = emptyInputNote(report);
  const doc = {
    formatVersion: 1,
    lockFile: report.lockFile,
    matches: findings.length === 0,
    compared: report.compared,
    live: report.live,
    findings,
    ...(note ? { note } : {}),
    ...(report.applier?.note ? { applier: applierJson(report.applier) } : {}),
  };
  return `${JSON.stringify(doc, undefined, 2)}\n`;
}

/**
 * GitHub Actions workflow commands, one per finding, on the line of the lock that holds its object; the lock
 * named relative to the runner's workspace when it is inside it (an app's folder of a monorepo), as the runner
 * places annotations, else as given.
 *
 * @param workspace the runner's workspace, `GITHUB_WORKSPACE` by default
 */
export function formatAuditGithub(report: AuditReport, workspace: string | undefined = runnerWorkspace()): string {
  // on a runner, the lock relative to the workspace, where the runner places annotations, wherever audit runs
  const file = inWorkspace(report.lockFile, workspace) || report.lockFile.split(path.sep).join('/');
  const note = emptyInputNote(report);
  const annotations = report.findings
    .map((f) => {
      const rule = auditRule(f.kind);
      const properties = [`file=${escapeProperty(file)}`, `line=${lockLine(report.lockText, f.unitId)}`, `title=${escapeProperty(`cdk-capability audit: ${rule.title}`)}`];
      return `::${rule.level} ${properties.join(',')}::${escapeData(`${f.kind}: ${f.message}`)}\n`;
    })
    .join('');
  // after the findings, as the text prints it under its summary
  const applier = report.applier?.note ? `::notice title=${escapeProperty('cdk-capability audit: the applier')}::${escapeData(report.applier.note)}\n` : '';
  return note ? `${annotations}::warning title=${escapeProperty('cdk-capability audit: no object read')}::${escapeData(note)}\n${applier}` : `${annotations}${applier}`;
}

/**
 * The JSON document of an audit that failed on its input (docs/audit-output.schema.json): nothing matched, no
 * findings, and `failure` with its kind (`usage`, `lock`, `input`), code when coded, the lock when about it, the
 * message as stderr says it and the sentence the other formats print.
 */
export function formatAuditFailureJson(f: CommandFailure): string {
  const doc = {
    formatVersion: 1,
    matches: false,
    findings: [],
    failure: commandFailureObject(f),
  };
  return `${JSON.stringify(doc, undefined, 2)}\n`;
}

/**
 * The SARIF 2.1.0 log of an audit that failed on its input: its rules, no result, and one invocation that is not
 * successful, whose notification is the failure (code scanning takes it as an unsuccessful execution, not as a
 * cluster that matches).
 */
export function formatAuditFailureSarif(f: CommandFailure, root: string): string {
  const log = JSON.parse(formatAuditSarif({ lockFile: '', lockText: '', compared: 0, live: 0, findings: [] }, root));
  log.runs[0].invocations = [commandFailureInvocation(f)];
  return `${JSON.stringify(log, undefined, 2)}\n`;
}

/** A SARIF 2.1.0 log: every kind of finding a rule with its explanation, each finding a result on the lock's line. */
export function formatAuditSarif(report: AuditReport, root: string): string {
  const ids = AUDIT_RULES.map((r) => r.id);
  const uri = path.relative(root, path.resolve(report.lockFile)).split(path.sep).join('/');
  const note = emptyInputNote(report);
  // what the other formats say beside the findings: an input with no object, and where the applier came from
  const notifications = [
    ...(note ? [{ level: 'warning', message: { text: note } }] : []),
    ...(report.applier?.note ? [applierNotification(report.applier)] : []),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cdk-capability audit',
            version: ownVersion(),
            rules: AUDIT_RULES.map((r) => ({
              id: r.id,
              name: ruleName(r.title),
              shortDescription: { text: r.title },
              fullDescription: { text: r.explanation },
              help: { text: `${r.explanation} See docs/cluster.md of cdk-capability.` },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: directoryUri(root) } },
        ...(notifications.length > 0 ? { invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }] } : {}),
        results: report.findings.map((f) => ({
          ruleId: f.kind,
          ruleIndex: ids.indexOf(f.kind),
          level: auditRule(f.kind).level,
          message: { text: f.message },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: encodeURI(uri), uriBaseId: 'SRCROOT' }, region: { startLine: lockLine(report.lockText, f.unitId) } },
              logicalLocations: [{ fullyQualifiedName: f.object, kind: 'object' }, ...(f.writer ? [{ fullyQualifiedName: f.writer, kind: 'member' }] : [])],
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, undefined, 2)}\n`;
}
