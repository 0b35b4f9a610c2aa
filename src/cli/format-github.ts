import type { ReportedFinding } from './report-findings';

/**
 * GitHub Actions workflow commands, one line per finding and place:
 * `::error file=<file>,line=<n>,col=<n>,title=<CODE title>::<message>`
 * (`::warning` for a warning), which the Actions runner turns into annotations
 * on the pull request's files. A finding that names several constructs with
 * known creation sites (the writers of a contested field) is annotated on each
 * of them, the newest first (the line a pull request added); one about the lock
 * file (`CAP014`) on the lock's line it names. Escaped as
 * @actions/core escapes them: `%`, CR and LF in the message; those and `:` and
 * `,` in properties.
 */
export function formatGithub(findings: readonly ReportedFinding[]): string {
  return findings.map(annotations).join('');
}

function annotations(f: ReportedFinding): string {
  const title = `title=${escapeProperty(`${f.code} ${f.title}`)}`;
  const paths = f.paths.length > 0 ? ` (constructs: ${f.paths.join(', ')})` : '';
  const line = (properties: string[], note: string) => `::${f.severity} ${[...properties, title].join(',')}::${escapeData(`${f.code} ${f.message}${paths}${note}`)}\n`;
  if (f.writers.length === 0) {
    // a finding about a file rather than a construct (a lock's CAP014) is annotated on that file
    const at = f.location;
    return line(at ? [`file=${escapeProperty(at.file)}`, `line=${at.line}`, `col=${at.column}`] : [], '');
  }
  return f.writers.map((w, i) => line(
    [`file=${escapeProperty(w.location.file)}`, `line=${w.location.line}`, `col=${w.location.column}`],
    f.writers.length > 1 ? ` [${i === 0 ? 'newest' : 'also'}: ${w.path}]` : '',
  )).join('');
}

/** The message of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value of a workflow command (ported from actions/toolkit packages/core/src/command.ts, escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
