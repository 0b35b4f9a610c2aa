import { compareFindings, Violation } from './finding';
import { brand, hasBrand } from '../private/brand';
import { inspectedAsReport } from '../private/errors';

/**
 * Thrown by `CapabilityApp.synth()` when the composition is refused or its
 * output cannot be written.
 *
 * Carries every violation found, sorted; its message lists each on its own
 * line with the code first. Nothing was written when it is thrown.
 */
export class CompositionError extends Error {
  /** True when `x` is a `CompositionError`, also across duplicate installs of this package. */
  public static isCompositionError(x: unknown): x is CompositionError {
    return hasBrand(x, 'CompositionError');
  }

  /**
   * `x instanceof CompositionError`, as `isCompositionError`: also for the refusal a construct throws when it is
   * created (`CAP015`, thrown by a layer below this class's), and for one of a duplicate install.
   */
  public static [Symbol.hasInstance](x: unknown): boolean {
    return hasBrand(x, 'CompositionError');
  }

  /** Every violation found, sorted by code then message. */
  public readonly violations: readonly Violation[];

  /** @param violations the violations found; at least one */
  constructor(violations: readonly Violation[]) {
    const sorted = [...violations].sort(compareFindings);
    super(formatFindings(sorted));
    brand(this, 'CompositionError');
    this.name = 'CompositionError';
    this.violations = sorted;
    // The report is the whole story: a stack trace into synth internals helps
    // nobody, and an uncaught error under `cdk8s synth` prints just the report.
    this.stack = `${this.name}: ${this.message}`;
    inspectedAsReport(this);
    Object.defineProperty(this, 'violations', { enumerable: false });
  }
}

/** Renders findings as the report `CompositionError` carries: a header line, then `CODE message` per line. */
export function formatFindings(findings: readonly Violation[]): string {
  const n = findings.length;
  const lines = findings.map((v) => `${v.code} ${v.message}`);
  return `The composition was refused with ${n} violation${n === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}
