import type { ReportedFinding } from './report-findings';

/**
 * GitHub Actions workflow commands, one line per finding:
 * `::error file=<file>,line=<n>,col=<n>,title=<CODE title>::<message>`
 * (`::warning` for a warning), which the Actions runner turns into annotations
 * on the pull request's files. Escaped as @actions/core escapes them: `%`, CR
 * and LF in the message; those and `:` and `,` in properties.
 */
export function formatGithub(findings: readonly ReportedFinding[]): string {
  return findings.map(annotation).join('');
}

function annotation(f: ReportedFinding): string {
  const properties: string[] = [];
  if (f.location) {
    properties.push(`file=${escapeProperty(f.location.file)}`, `line=${f.location.line}`, `col=${f.location.column}`);
  }
  properties.push(`title=${escapeProperty(`${f.code} ${f.title}`)}`);
  const paths = f.paths.length > 0 ? ` (constructs: ${f.paths.join(', ')})` : '';
  return `::${f.severity} ${properties.join(',')}::${escapeData(`${f.code} ${f.message}${paths}`)}\n`;
}

/** The message of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
