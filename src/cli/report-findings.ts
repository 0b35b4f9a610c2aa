import * as path from 'path';
import { CODE_TITLES, Severity, ViolationCode } from '../check/finding';
import type { SourceLocation } from '../private/creation-site';
import type { SynthReport } from '../render/report-file';

/** A finding as the report formats print it: code, severity, message, construct paths, and where it was created. */
export interface ReportedFinding {
  /** The stable code, `CAP005`. */
  readonly code: ViolationCode;
  /** The code's title, `dangling reference`. */
  readonly title: string;
  /** `error` refuses the composition; `warning` does not. */
  readonly severity: Severity;
  /** The whole message, title first. */
  readonly message: string;
  /** The construct paths involved, sorted. */
  readonly paths: readonly string[];
  /** Where the first construct with a known creation site was created; the file relative to the root, with `/`. */
  readonly location?: SourceLocation;
}

/**
 * The findings of a report, errors then warnings (each sorted as the report
 * holds them), each with the creation site of its first construct whose site is
 * known, the file relative to `root` (the repository, where CI runs the plan).
 */
export function reportedFindings(report: SynthReport, root: string): ReportedFinding[] {
  const located = (paths: readonly string[]): SourceLocation | undefined => {
    for (const p of paths) {
      const site = report.locations?.[p];
      if (site) return { ...site, file: path.relative(root, site.file).split(path.sep).join('/') };
    }
    return undefined;
  };
  const of = (severity: Severity) => (v: SynthReport['violations'][number]): ReportedFinding => {
    const location = located(v.paths);
    const title = CODE_TITLES[v.code] ?? v.code;
    return { code: v.code, title, severity, message: v.message, paths: [...v.paths], ...(location ? { location } : {}) };
  };
  return [...report.violations.map(of('error')), ...report.warnings.map(of('warning'))];
}
