import * as path from 'path';
import { CapabilityApp } from '../../src';
import { formatRefusal } from '../../src/cli/format-refusal';
import { reportedFindings } from '../../src/cli/report-findings';
import { REPORT_ENV } from '../../src/private/errors';
import { readReport } from '../../src/render/report-file';
import { tempDir, thrownBy } from '../util';

/** The repository's root: the folder report locations are relative to, as where CI runs the plan. */
const ROOT = path.join(__dirname, '..', '..');

/**
 * Runs `build` as `cdk-capability plan` runs a program (a report requested): the refusal as plan prints it, and its
 * findings, with files relative to the repository's root.
 */
export function refusalAsPlanPrintsIt(build: (app: CapabilityApp) => void): { text: string; findings: ReturnType<typeof reportedFindings> } {
  const file = path.join(tempDir(), 'report.json');
  const saved = process.env[REPORT_ENV];
  process.env[REPORT_ENV] = file;
  try {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), lockFile: path.join(tempDir(), 'capability.lock.json') });
    build(app);
    thrownBy(() => app.synth());
  } finally {
    if (saved === undefined) delete process.env[REPORT_ENV];
    else process.env[REPORT_ENV] = saved;
  }
  const findings = reportedFindings(readReport(file)!, ROOT);
  return { text: formatRefusal(findings.filter((f) => f.severity === 'error')), findings };
}
