import * as path from 'path';
import { lockProblemLine } from './lock-locations';
import { CODE_TITLES, Severity, ViolationCode } from '../check/finding';
import { ruleId } from '../check/rule';
import { RULES } from '../check/rules';
import { packageText } from '../private/creation-site';
import type { InstalledPackage, SourceLocation } from '../private/creation-site';
import { displayPath } from '../release/update-lock';
import type { SynthReport } from '../render/report-file';

/** A place in the program: the file relative to the root, with `/`, and the 1-based line and column. */
export interface ReportedLocation {
  /** The file, relative to the root (the repository, where CI runs the plan). */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** A construct a finding names, and where the program created it. */
export interface ReportedWriter {
  /** The construct path. */
  readonly path: string;
  /** Where it was created. */
  readonly location: ReportedLocation;
  /**
   * The installed package whose code, called from `location`, created it (a capability package from npm), when
   * it is no construct library: what the finding asks to change may be in that package's code, not the program's.
   */
  readonly package?: InstalledPackage;
  /**
   * Set when `location` is no creation site but the write of the field the finding is about, by something other
   * than the declarer's props: the call site of a JSON patch, override, aspect or Tag, a Contribution's creation site.
   */
  readonly wrote?: ReportedWrite;
}

/** The write of the field a finding is about, when something other than the object's declarer's props made it. */
export interface ReportedWrite {
  /** The field, as messages print it: `spec.template.spec.dnsPolicy`. */
  readonly field: string;
  /** How it was written, after "by": `addJsonPatch`, `addPropertyOverride`, `a Contribution (its fields)`, `an aspect (Aspects.of().add)`. */
  readonly how: string;
}

/** A package as the formats name it: `@acme/queue-worker-capability@2.1.0` (its name alone when its version is unknown). */
export { packageText };

/** A finding as the report formats print it: code, rule, severity, message, construct paths, and where they were created. */
export interface ReportedFinding {
  /** The stable code, `CAP005`. */
  readonly code: ViolationCode;
  /** The id of the rule that found it, `CAP005/dangling-references` (SARIF `ruleId`). */
  readonly rule: string;
  /** The code's title, `dangling reference`. */
  readonly title: string;
  /** `error` refuses the composition; `warning` does not. */
  readonly severity: Severity;
  /** The whole message, title first. */
  readonly message: string;
  /** The construct paths involved, sorted. */
  readonly paths: readonly string[];
  /**
   * Where the newest construct with a known creation site was created (the first of `writers`), or, for a finding
   * about a field something other than the declarer's props wrote, where that write was made (the first of
   * `writers`, with its `wrote`); for a `CAP014`
   * about the lock file, the lock file and the line the problem is on (1 when it has none, or the file is missing);
   * for another finding that names no construct with a known creation site, the app's entry file, line 1, when
   * `plan` knows it (`locatedAt` says which of the last two).
   */
  readonly location?: ReportedLocation;
  /**
   * What `location` is when it is no construct's creation site: `lock-file`, the lock the finding is about;
   * `app-entry`, the entry file of the app, the best place known for a finding that names no construct (an output
   * folder that cannot be written, a crash of a stage). Absent for a creation site.
   */
  readonly locatedAt?: 'lock-file' | 'app-entry';
  /**
   * Every construct the finding names whose creation site is known, the
   * newest first (created last: the line a pull request added, when it added
   * the second writer of a field); first of all, for a finding about a field something other than the declarer's
   * props wrote, the writer of that field at the write (`wrote`).
   */
  readonly writers: readonly ReportedWriter[];
}

/** What a report explains about a rule: its id, code, title and why it exists. */
export interface ReportedRule {
  /** `CAP005/dangling-references`. */
  readonly id: string;
  /** `CAP005`. */
  readonly code: ViolationCode;
  /** `dangling references`. */
  readonly title: string;
  /** What it guards against and why. */
  readonly explanation: string;
  /** The severity of its findings. */
  readonly severity: Severity;
}

/** Findings that no rule of `RULES` makes: a crash, the output and the lock switch, the plugin's CRD order, a misplaced construct, apply's plan file, audit's input. */
const OTHER_SOURCES: readonly ReportedRule[] = [
  errorSource(ViolationCode.INTERNAL_ERROR, 'A stage of synth, or a rule, crashed: a bug in cdk-capability, never in the composition. Please report it with the message.'),
  errorSource(ViolationCode.OUTPUT_NOT_WRITTEN, 'Synth replaces its output folder as a whole and may rewrite the lock, so it refuses, before writing anything, an outdir that holds files it did not write, a write that failed, and a CDK_CAPABILITY_UPDATE_LOCK it cannot read.'),
  errorSource(ViolationCode.CRD_ORDER, 'kubectl apply -f <folder> takes files by name, then documents; a custom resource before the CRD that defines its kind is refused by the API server.'),
  errorSource(ViolationCode.MISPLACED_CONSTRUCT, 'RuntimeRouting, SharedBase and DeploymentAggregate belong to a Capability: created outside one, they are refused at construction.'),
  errorSource(ViolationCode.PLAN_FILE, 'cdk-capability apply runs cdk and kubectl with what plan.json says, so it carries out only a plan of the shape synth writes, checked against its schema, and runs nothing otherwise.'),
  errorSource(ViolationCode.LIVE_OBJECTS, 'cdk-capability audit compares who owns each field of the live objects with the lock, so it reads only objects as kubectl get -o json --show-managed-fields prints them, and reports nothing from input it cannot read.'),
];

/** A source of error findings of one code, named by the code's title. */
function errorSource(code: ViolationCode, explanation: string): ReportedRule {
  return { id: ruleId(code, CODE_TITLES[code]), code, title: CODE_TITLES[code], explanation, severity: 'error' };
}

/** Every rule a report can name, in code order: the rules synth runs and the other sources of findings. */
export function reportedRules(): ReportedRule[] {
  const rules: ReportedRule[] = RULES.map((r) => ({ id: r.id, code: r.code, title: r.title, explanation: r.explanation, severity: r.severity }));
  return [...rules, ...OTHER_SOURCES].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The findings of a report, errors then warnings (each sorted as the report
 * holds them), each with the creation sites of the constructs it names, the
 * newest first, files relative to `root` (the repository, where CI runs the plan).
 * A finding that names no construct with a known creation site is located on the lock file when it is about the
 * lock, else on the app's entry file (line 1), when `entry` is given.
 *
 * @param entry the app's entry file (absolute), when the command that runs it names one
 */
export function reportedFindings(report: SynthReport, root: string, entry?: string): ReportedFinding[] {
  const relative = (site: SourceLocation): ReportedLocation => ({
    file: path.relative(root, site.file).split(path.sep).join('/'),
    line: site.line,
    column: site.column,
  });
  const writersOf = (paths: readonly string[]): ReportedWriter[] => paths
    .map((p, i) => ({ p, i, site: report.locations?.[p] }))
    .filter((w): w is { p: string; i: number; site: SourceLocation } => w.site !== undefined)
    .sort((a, b) => (b.site.order ?? -1) - (a.site.order ?? -1) || a.i - b.i)
    .map((w) => ({ path: w.p, location: relative(w.site), ...(w.site.package ? { package: w.site.package } : {}) }));
  const lockFile = report.lock?.file;
  // a lock's CAP014 is about the lock file, not a construct: it is annotated there, on the line it names
  const lockSite = (v: SynthReport['violations'][number]): ReportedLocation | undefined =>
    lockFile !== undefined && v.code === ViolationCode.LOCK_FILE && v.paths.length === 0 && [lockFile, displayPath(lockFile)].some((f) => v.message.includes(`'${f}'`))
      ? relative({ file: lockFile, line: lockProblemLine(lockFile, v.message), column: 1 })
      : undefined;
  // a finding about a field another writer than the declarer wrote: first, that write (a call's site, else the writer's creation site)
  const writeOf = (v: SynthReport['violations'][number]): ReportedWriter | undefined => {
    const site = v.placed && (v.placed.site ?? report.locations?.[v.placed.path]);
    // a Contribution's creation site: inside a package when the package's code made it, as a creation site says
    const made = site && 'package' in site && site.package ? { package: site.package } : {};
    return site && { path: v.placed!.path, location: relative(site), ...made, wrote: { field: v.placed!.field, how: v.placed!.how } };
  };
  const of = (severity: Severity) => (v: SynthReport['violations'][number]): ReportedFinding => {
    const write = writeOf(v);
    const writers = write ? [write, ...writersOf(v.paths).filter((w) => w.path !== write.path)] : writersOf(v.paths);
    const lock = writers.length === 0 ? lockSite(v) : undefined;
    const location = writers[0]?.location ?? lock ?? (entry !== undefined ? relative({ file: entry, line: 1, column: 1 }) : undefined);
    const locatedAt = writers.length > 0 || location === undefined ? undefined : lock ? 'lock-file' : 'app-entry';
    const title = CODE_TITLES[v.code] ?? v.code;
    return {
      code: v.code,
      rule: v.rule ?? ruleId(v.code, title),
      title,
      severity,
      message: v.message,
      paths: [...v.paths],
      ...(location ? { location } : {}),
      ...(locatedAt ? { locatedAt } : {}),
      writers,
    };
  };
  return [...report.violations.map(of('error')), ...report.warnings.map(of('warning'))];
}
