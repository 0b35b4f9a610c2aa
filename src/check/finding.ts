import type { Placement } from './placement';
import { compareText } from '../private/compare';

/**
 * The stable codes of every refusal cdk-capability makes.
 *
 * Each code is documented in `docs/errors.md` with a failing snippet, the exact
 * message and the fix.
 */
export enum ViolationCode {
  /** Internal error: a stage of synth crashed. A bug in cdk-capability, never in your composition: please report it. */
  INTERNAL_ERROR = 'CAP000',
  /** Two constructs declare the same object identity. */
  DUPLICATE_OBJECT = 'CAP001',
  /** Two constructs write the same field (or a field and its ancestor). */
  FIELD_CONFLICT = 'CAP002',
  /** A construct writes `status`, which belongs to runtime controllers. */
  STATUS_WRITE = 'CAP003',
  /** A dependency cycle, or a construct that depends on itself. */
  DEPENDENCY_CYCLE = 'CAP004',
  /** A reference by name that resolves to nothing in the composition. */
  DANGLING_REFERENCE = 'CAP005',
  /** A deployment-time value reaches a runtime manifest outside the interface contract. */
  BOUNDARY_LEAK = 'CAP006',
  /** A breaking interface change without the needed version bump. */
  BREAKING_CHANGE = 'CAP007',
  /** A release removes something a remaining object or consumer still needs. */
  UNSAFE_DELETION = 'CAP008',
  /** The interface contract is used wrongly. */
  CONTRACT_MISUSE = 'CAP009',
  /** A name, namespace, label or shape that Kubernetes or CloudFormation would reject. */
  INVALID_OBJECT = 'CAP010',
  /** The output could not be written safely (an outdir that is not ours, the working directory): nothing was changed. */
  OUTPUT_NOT_WRITTEN = 'CAP011',
  /** A warning: a value shaped like a secret would be written to the output in clear text. */
  POSSIBLE_SECRET = 'CAP012',
  /** A custom resource emitted before the CRD that defines its kind (the cdk8s validation plugin, on plain manifests). */
  CRD_ORDER = 'CAP013',
  /** The lock file exists but is not a lock this version can read (not JSON, or not of the shape of `docs/lock.schema.json`), or its key is unusable. */
  LOCK_FILE = 'CAP014',
  /** A capability construct (`SharedBase`, `DeploymentAggregate`, `RuntimeRouting`) created outside any `Capability`. */
  MISPLACED_CONSTRUCT = 'CAP015',
  /** `cdk-capability apply` was given a plan.json that is not one synth wrote (not JSON, not of the shape of its schema, or holding what a command line would misread). */
  PLAN_FILE = 'CAP016',
  /** `cdk-capability audit` was given input it cannot compare with the lock (unreadable, empty, not Kubernetes objects, or objects without readable `metadata.managedFields`). */
  LIVE_OBJECTS = 'CAP017',
  /** An aws-cdk error annotation (`Annotations.of(c).addError`, an Aspect's, cdk-nag's), as `cdk synth` refuses it; a warning annotation is a warning of this code. */
  CONSTRUCT_ERROR = 'CAP018',
}

/**
 * What each code's messages begin with: `CAP002 field conflict: ...`. Declared
 * once here, so a rule states only its code.
 */
export const CODE_TITLES: Readonly<Record<ViolationCode, string>> = {
  [ViolationCode.INTERNAL_ERROR]: 'internal error',
  [ViolationCode.DUPLICATE_OBJECT]: 'duplicate object',
  [ViolationCode.FIELD_CONFLICT]: 'field conflict',
  [ViolationCode.STATUS_WRITE]: 'status write',
  [ViolationCode.DEPENDENCY_CYCLE]: 'dependency cycle',
  [ViolationCode.DANGLING_REFERENCE]: 'dangling reference',
  [ViolationCode.BOUNDARY_LEAK]: 'boundary leak',
  [ViolationCode.BREAKING_CHANGE]: 'breaking interface change',
  [ViolationCode.UNSAFE_DELETION]: 'unsafe deletion',
  [ViolationCode.CONTRACT_MISUSE]: 'contract misuse',
  [ViolationCode.INVALID_OBJECT]: 'invalid object',
  [ViolationCode.OUTPUT_NOT_WRITTEN]: 'output not written',
  [ViolationCode.POSSIBLE_SECRET]: 'possible secret',
  [ViolationCode.CRD_ORDER]: 'custom resource before its CRD',
  [ViolationCode.LOCK_FILE]: 'lock file',
  [ViolationCode.MISPLACED_CONSTRUCT]: 'misplaced construct',
  [ViolationCode.PLAN_FILE]: 'plan file',
  [ViolationCode.LIVE_OBJECTS]: 'live objects',
  [ViolationCode.CONSTRUCT_ERROR]: 'construct error',
};

/** Whether a finding refuses the composition (`error`) or is only printed (`warning`). */
export type Severity = 'error' | 'warning';

/**
 * One refusal (or warning) of synth, as `CompositionError` and
 * `CapabilityTesting.synth` report it.
 */
export interface Violation {
  /** The stable code, for example `CAP002`. */
  readonly code: ViolationCode;
  /** What is wrong, where, and how to fix it, beginning with the code's title (`field conflict: ...`). One line. */
  readonly message: string;
  /** The construct paths involved, sorted. */
  readonly paths: string[];
}

/** What a check finds: a violation with its severity. Errors refuse the composition; warnings are printed. */
export interface Finding extends Violation {
  /** Whether it refuses the composition. */
  readonly severity: Severity;
  /** The id of the rule that found it (`CAP003/status-writes`); absent for findings of no rule (a crash, the output). */
  readonly rule?: string;
}

/** The rule of each violation check made, kept beside it so that `Violation`'s public shape stays as it is. */
const RULE_OF = new WeakMap<Violation, string>();

/** The id of the rule that found a violation, when a rule did. */
export function ruleOf(v: Violation): string | undefined {
  return RULE_OF.get(v);
}

/**
 * Where each finding about a field written by something other than its declarer's props is placed (`placeFinding`),
 * kept beside it as its rule is, so that `Violation`'s public shape stays as it is.
 */
const PLACED_AT = new WeakMap<Violation, Placement>();

/** Where a finding (or the violation it reports) is placed, when the field it is about was written by something other than its declarer's props. */
export function placementOf(v: Violation): Placement | undefined {
  return PLACED_AT.get(v);
}

/** Places a finding at the write of the field it is about. */
export function placeAt<T extends Violation>(v: T, placement: Placement): T {
  PLACED_AT.set(v, placement);
  return v;
}

/**
 * A finding with its paths sorted and de-duplicated and its message prefixed
 * with the code's title (or `title`).
 *
 * @param detail the message after the title: what, where, and the fix
 * @param title what the message begins with instead of the code's title
 */
export function finding(code: ViolationCode, detail: string, paths: readonly string[], severity: Severity = 'error', title = CODE_TITLES[code]): Finding {
  return { code, severity, message: `${title}: ${detail}`, paths: [...new Set(paths)].sort(compareText) };
}

/** The violation a finding reports, without its severity (which `violations` and `warnings` already tell apart). */
export function toViolation(f: Finding): Violation {
  const v = { code: f.code, message: f.message, paths: [...f.paths] };
  if (f.rule) RULE_OF.set(v, f.rule);
  const placement = PLACED_AT.get(f);
  if (placement) PLACED_AT.set(v, placement);
  return v;
}

/**
 * Orders findings by code, then message: the same on every machine (no
 * locale-dependent comparison), so reports and files are deterministic.
 */
export function compareFindings(a: Violation, b: Violation): number {
  return compareText(a.code, b.code) || compareText(a.message, b.message);
}
