import type { ReportedFinding } from './report-findings';

/**
 * A refusal as `plan` prints it in text: the violations as synth words them (`The composition was refused with
 * N violations:` and one `CODE message` line each), each followed by where the program created the constructs it
 * names, the newest first, one `  '<construct path>' created at <file>:<line>:<column>` line each, the files
 * relative to the folder plan runs in. A finding whose constructs have no known creation site (a lock's problem,
 * which names its file) gets no such line.
 *
 * @param errors the refusal's findings, in the report's order (`reportedFindings`, errors only)
 */
export function formatRefusal(errors: readonly ReportedFinding[]): string {
  const n = errors.length;
  const lines = errors.flatMap((f) => [
    `${f.code} ${f.message}`,
    ...f.writers.map((w) => `  '${w.path}' created at ${w.location.file}:${w.location.line}:${w.location.column}`),
  ]);
  return `The composition was refused with ${n} violation${n === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}
