/**
 * The exit codes of every `cdk-capability` command, in one place, as
 * `terraform plan -detailed-exitcode` has them: 0 nothing to do, 2 something to
 * do, 1 refused or failed. Every `plan` format, `plan --teardown`, `apply` and
 * `audit` return what {@link exitCode} says; a usage error is 1, never 2.
 */
export const ExitCode = {
  /** Accepted, and nothing changes (nothing to delete, for a teardown). */
  NO_CHANGES: 0,
  /** Refused (coded violations), a usage error, or a failure. */
  ERROR: 1,
  /** Accepted, with changes to apply (a first release has some, unless the composition is empty), or something to delete. */
  CHANGES: 2,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What a command found, as its exit code depends on it. */
export type Outcome =
  /** Accepted; `changes` when there is something to apply or delete. */
  | { readonly kind: 'accepted'; readonly changes: boolean }
  /** The composition was refused with coded violations. */
  | { readonly kind: 'refused' }
  /** A usage error, a missing or unreadable input, an app that failed (its own error), a command that failed: always 1, also with `--exit-zero`. */
  | { readonly kind: 'failed' };

/** How a command was asked to report its outcome. */
export interface ExitOptions {
  /**
   * `--exit-zero`: exit 0 for changes and for a refusal too, for a CI step
   * that only reports (uploads SARIF, posts annotations); a usage error or a
   * failure still exits 1.
   *
   * @default false
   */
  readonly exitZero?: boolean;
}

/**
 * The exit code of an outcome: 0 accepted without changes, 2 accepted with
 * changes, 1 refused or failed; with `exitZero`, 0 unless it failed.
 */
export function exitCode(outcome: Outcome, options: ExitOptions = {}): ExitCode {
  if (outcome.kind === 'failed') return ExitCode.ERROR;
  if (options.exitZero) return ExitCode.NO_CHANGES;
  if (outcome.kind === 'refused') return ExitCode.ERROR;
  return outcome.changes ? ExitCode.CHANGES : ExitCode.NO_CHANGES;
}

/** The lines the usage of every command ends with. */
export const EXIT_CODES_USAGE = `Exit codes, as terraform plan -detailed-exitcode:
  0  accepted, nothing to change (or delete)
  2  accepted, with changes (a first release has some, unless the composition is empty), or something to delete
  1  refused (the coded violations are printed), the app failed (its own error, reported in the format asked for), or a usage or other error
  --exit-zero  exit 0 also for changes and refusals (a failed app, a usage or other error is still 1)`;
