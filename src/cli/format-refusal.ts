import { packageText, ReportedFinding, ReportedWriter } from './report-findings';

/**
 * A refusal as `plan` prints it in text: the violations as synth words them (`The composition was refused with
 * N violations:` and one `CODE message` line each), each followed by where the program created the constructs it
 * names, the newest first, one `  '<construct path>' created at <file>:<line>:<column>` line each, the files
 * relative to the folder plan runs in, and `, inside the installed package <name>@<version>` when the code of a
 * package in `node_modules` (not a construct library) made the construct there. A finding about a field something
 * other than the object's declarer's props wrote names that write first, where it was made:
 * `  '<writer's path>' wrote '<field>' by addJsonPatch at <file>:<line>:1` (a Contribution: `by a Contribution (its
 * fields) at` its creation site; an aspect: `by an aspect (Aspects.of().add) at` the call). A finding whose constructs have
 * no known creation site (a lock's problem, which names its file) gets no such line.
 *
 * @param errors the refusal's findings, in the report's order (`reportedFindings`, errors only)
 */
export function formatRefusal(errors: readonly ReportedFinding[]): string {
  const n = errors.length;
  const lines = errors.flatMap((f) => [
    `${f.code} ${f.message}`,
    ...f.writers.map((w) => `  '${w.path}' ${w.wrote ? `wrote '${w.wrote.field}' by ${w.wrote.how}` : 'created'} at ${w.location.file}:${w.location.line}:${w.location.column}${insidePackage(w)}`),
  ]);
  return `The composition was refused with ${n} violation${n === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

/** `, inside the installed package @acme/queue-worker-capability@2.1.0` for a construct a package's code made; else nothing. */
function insidePackage(w: ReportedWriter): string {
  return w.package ? `, inside the installed package ${packageText(w.package)}` : '';
}
