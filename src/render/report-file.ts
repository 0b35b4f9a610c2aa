import * as fs from 'fs';
import * as path from 'path';
import { placementOf, ruleOf, Violation } from '../check/finding';
import type { Placement } from '../check/placement';
import type { SourceLocation } from '../private/creation-site';
import type { Plan } from './writers/plan-json';

/**
 * The environment variable that asks a synth for a machine-readable report:
 * its value is the file to write. `cdk-capability plan` sets it, so it can
 * print or convert the findings (and the plan) of the app it ran, refused or not.
 */
export { REPORT_ENV } from '../private/errors';

/**
 * A violation as a report holds it: with the id of the rule that found it, when a rule did, and where it is placed
 * when the field it is about was written by something other than its declarer's props.
 */
export type ReportedViolation = Violation & { readonly rule?: string; readonly placed?: ReportedPlacement };

/** Where a report places a finding about a field another writer than the declarer wrote: that write, its call site absolute. */
export type ReportedPlacement = Omit<Placement, 'site'> & {
  /** Where the program made the call (an absolute file, column 1); absent for a write that is no call (a Contribution's). */
  readonly site?: SourceLocation;
};

/** A violation with the rule that found it and its placement, for a report. */
export function withRule(v: Violation): ReportedViolation {
  const rule = ruleOf(v);
  const placement = placementOf(v);
  if (!rule && !placement) return v;
  return { ...v, ...(rule ? { rule } : {}), ...(placement ? { placed: reportedPlacement(placement) } : {}) };
}

/** A placement with its call site (`main.ts:42`, relative to the working directory) made absolute, as report locations are. */
function reportedPlacement({ site, package: inside, ...placement }: Placement): ReportedPlacement {
  const at = site === undefined ? null : /^(.+):(\d+)$/.exec(site);
  // a call an installed package's code made: its site is the program's line that reached it, inside that package
  const made = inside ? { package: inside } : {};
  return at ? { ...placement, site: { file: path.resolve(at[1]), line: Number(at[2]), column: 1, ...made } } : placement;
}

/** What a synth reports to the file `CDK_CAPABILITY_REPORT` names. */
export interface SynthReport {
  /** Format version of this file. */
  readonly formatVersion: 1;
  /** True when the composition was accepted and the output written. */
  readonly accepted: boolean;
  /** Every refusal, sorted, each with the id of the rule that found it when a rule did; empty when accepted. */
  readonly violations: readonly ReportedViolation[];
  /** Every warning, sorted. */
  readonly warnings: readonly ReportedViolation[];
  /** The plan, when accepted. */
  readonly plan?: Plan;
  /** Where each construct path the findings name was created (the program's file and line), when that is known. */
  readonly locations?: Readonly<Record<string, SourceLocation>>;
  /** The lock file the synth compared against (absolute), and whether it existed. */
  readonly lock?: { readonly file: string; readonly found: boolean };
}

/** Writes a report atomically (a sibling temporary file renamed over it), creating its folder. */
export function writeReport(file: string, report: SynthReport): void {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(report, undefined, 2) + '\n');
  fs.renameSync(temporary, target);
}

/** Reads a report a synth wrote; undefined when there is none (the app never got to synth). */
export function readReport(file: string): SynthReport | undefined {
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf-8')) as SynthReport;
}
