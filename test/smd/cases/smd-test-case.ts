import type { SmdCase, SmdConflict } from '../smd';

/** The tag and commit of structured-merge-diff that Debian's golang-k8s-sigs-structured-merge-diff-dev 4.1.2 ships. */
export const SMD_UPSTREAM = 'kubernetes-sigs/structured-merge-diff@v4.1.2 (87c6f2e7efba6350467ed69b5fe2268c225e18b3)';

/**
 * Names the upstream test a case was ported from.
 *
 * @param file the test file in the repository, e.g. `merge/leaf_test.go`
 * @param test the Go test and its table entry, e.g. `TestUpdateLeaf/apply_twice`
 */
export function upstream(file: string, test: string): string {
  return `${SMD_UPSTREAM} ${file} ${test}`;
}

/** What a case must produce, exactly; an absent key is not checked. */
export interface SmdExpectation {
  /** For each write in order, the conflicts that refused it (`[]`: it succeeded). */
  readonly conflicts?: readonly (readonly SmdConflict[])[];
  /** Each manager's whole owned set at the end, sorted; exactly these managers own fields. */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  /** Each manager's owned leaves at the end, sorted; exactly these managers own fields. */
  readonly leaves?: Readonly<Record<string, readonly string[]>>;
  /** Each manager's API version at the end (upstream tests check it with the sets). */
  readonly apiVersions?: Readonly<Record<string, string>>;
  /** The object at the end. */
  readonly object?: unknown;
  /** The case fails with an error matching this. */
  readonly error?: RegExp;
}

/** A harness case with where it comes from and what it must produce. */
export interface SmdTestCase extends SmdCase {
  readonly name: string;
  /** `upstream(file, test)` for a ported case; `own: <what it pins>` for ours. */
  readonly provenance: string;
  readonly expected: SmdExpectation;
}
