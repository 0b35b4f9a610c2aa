/**
 * A semver 2.0 version exactly as written (semver.org's regular expression, the
 * lock schema's `$defs/semver` pattern, which `test/semver-version.test.ts` holds
 * it to): no leading `v` or `=`, no whitespace, no leading zeros.
 */
export const SEMVER_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/u;

/** The semver package's limits: a version of at most 256 characters, each of its three numbers at most 2^53 - 1. */
const MAX_LENGTH = 256;

/**
 * True when `version` is a semver version as the lock schema accepts it, and one
 * the semver package can compare. `semver.valid` alone is looser: it reads
 * `"v1.0.0"` and `" 1.0.0 "` as `1.0.0`, which a lock then refuses (`CAP014`).
 * Read without loading semver (14 modules, about 6 ms of a synth that only
 * declares a contract): a string of the pattern is one `semver.valid` takes
 * unless it is longer than 256 characters or one of its numbers is over 2^53 - 1,
 * as `test/semver-version.test.ts` holds it to semver's.
 */
export function isSemverVersion(version: unknown): version is string {
  return parts(version) !== undefined;
}

/** The major of a version, or undefined when it is no semver version (`isSemverVersion`): semver's `major`. */
export function majorOfVersion(version: unknown): number | undefined {
  return parts(version)?.[0];
}

/** A version's major, minor and patch, as semver reads them (`+digits`); undefined for no version. */
function parts(version: unknown): [number, number, number] | undefined {
  if (typeof version !== 'string' || version.length > MAX_LENGTH) return undefined;
  const m = SEMVER_PATTERN.exec(version);
  if (!m) return undefined;
  const numbers: [number, number, number] = [+m[1], +m[2], +m[3]];
  return numbers.every((n) => n <= Number.MAX_SAFE_INTEGER) ? numbers : undefined;
}
