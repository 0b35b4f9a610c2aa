/**
 * The stable codes of every refusal cdk-capability makes.
 *
 * Each code is documented in `docs/errors.md` with a failing snippet, the exact
 * message and the fix.
 */
export enum ViolationCode {
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
}

/**
 * One refusal found by a check.
 *
 * A violation never throws by itself: checks return them, synth collects all of
 * them and reports them together in a `CompositionError`.
 */
export interface Violation {
  /** The stable code, for example `CAP002`. */
  readonly code: ViolationCode;
  /** What is wrong, where, and how to fix it. One line. */
  readonly message: string;
  /** The construct paths involved, sorted. */
  readonly paths: string[];
}

/**
 * Creates a violation with its paths sorted and de-duplicated.
 *
 * @param code the stable code
 * @param message what is wrong, where, and how to fix it
 * @param paths the construct paths involved
 */
export function violation(code: ViolationCode, message: string, paths: readonly string[]): Violation {
  return { code, message, paths: [...new Set(paths)].sort() };
}

/** Orders violations by code, then message, so reports are stable. */
export function compareViolations(a: Violation, b: Violation): number {
  return a.code.localeCompare(b.code) || a.message.localeCompare(b.message);
}

/**
 * Thrown by `CapabilityApp.synth()` when the composition is refused.
 *
 * Carries every violation found, sorted; its message lists each on its own
 * line with the code first. Nothing was written when it is thrown.
 */
export class CompositionError extends Error {
  /** Every violation found, sorted by code then message. */
  public readonly violations: Violation[];

  /** @param violations the violations found; at least one */
  constructor(violations: readonly Violation[]) {
    const sorted = [...violations].sort(compareViolations);
    super(formatViolations(sorted));
    this.name = 'CompositionError';
    this.violations = sorted;
    // The report is the whole story: a stack trace into synth internals helps
    // nobody, and an uncaught error under `cdk8s synth` prints just the report.
    this.stack = `${this.name}: ${this.message}`;
    Object.defineProperty(this, 'violations', { enumerable: false });
  }
}

/** Renders violations as the report `CompositionError` carries. */
export function formatViolations(violations: readonly Violation[]): string {
  const n = violations.length;
  const lines = violations.map((v) => `${v.code} ${v.message}`);
  return `The composition was refused with ${n} violation${n === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}
