import { semver } from './lazy';

/**
 * A semver 2.0 version exactly as written (semver.org's regular expression, the
 * lock schema's `$defs/semver` pattern, which `test/semver-version.test.ts` holds
 * it to): no leading `v` or `=`, no whitespace, no leading zeros.
 */
export const SEMVER_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/u;

/**
 * True when `version` is a semver version as the lock schema accepts it, and one
 * the semver package can compare. `semver.valid` alone is looser: it reads
 * `"v1.0.0"` and `" 1.0.0 "` as `1.0.0`, which a lock then refuses (`CAP014`).
 */
export function isSemverVersion(version: unknown): version is string {
  return typeof version === 'string' && SEMVER_PATTERN.test(version) && semver().valid(version) !== null;
}

/** The major of a version, or undefined when it is no semver version (`isSemverVersion`). */
export function majorOfVersion(version: unknown): number | undefined {
  return isSemverVersion(version) ? semver().major(version) : undefined;
}
