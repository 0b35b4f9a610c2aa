import { createHmac } from 'crypto';

/** The variable that holds the key of the lock's digests of sensitive values. */
export const LOCK_KEY_ENV = 'CDK_CAPABILITY_LOCK_KEY';

/** The shortest key accepted, in characters: 32 hex digits are 128 bits. */
export const MIN_LOCK_KEY_LENGTH = 32;

/**
 * The key of the lock's digests of sensitive values (HMAC-SHA256), from
 * `CDK_CAPABILITY_LOCK_KEY`.
 *
 * Why a key, and not a plain or salted hash: the lock is committed, and a secret
 * worth masking is often short (`hunter2`). Anyone holding a plain digest, or a
 * salted one with its salt beside it in the lock, can confirm a guess by hashing
 * it: a dictionary finds a weak password in seconds. A keyed digest (an HMAC
 * whose key is kept out of the repository, as a CI secret) can be checked only
 * by whoever holds the key, which is also whoever can run the synth that knows
 * the value. Each digest covers the unit, the path and the value, so two equal
 * secrets in two places do not show as equal. The lock records only an id of
 * the key (itself an HMAC), so a plan can tell "changed" from "digested with
 * another key".
 *
 * Without a key the lock holds `(sensitive)` and no digest: nothing in the lock
 * says anything about the value, and the plan says which stacks and objects
 * hold sensitive values it could not compare.
 */
export class LockKey {
  /**
   * The key from the environment.
   *
   * @returns the key; undefined when the variable is unset or blank
   * @throws when it is set but shorter than 32 characters (a short key can be guessed, and with it every digest)
   */
  public static fromEnv(env: NodeJS.ProcessEnv = process.env): LockKey | undefined {
    const value = env[LOCK_KEY_ENV];
    if (value === undefined || value.trim() === '') return undefined;
    if (value.length < MIN_LOCK_KEY_LENGTH) {
      throw new Error(
        `${LOCK_KEY_ENV} is ${value.length} characters long, shorter than ${MIN_LOCK_KEY_LENGTH}: a short key can be guessed, and with it every sensitive value the lock digests. ` +
          `Set it to at least ${MIN_LOCK_KEY_LENGTH} random characters (for example the output of \`openssl rand -hex 32\`), kept as a CI secret, or unset it`,
      );
    }
    return new LockKey(value);
  }

  /** The key's id, as the lock records it: the first 16 hex digits of an HMAC of a fixed text, which says nothing about the key. */
  public readonly id: string;

  private constructor(private readonly key: string) {
    this.id = createHmac('sha256', key).update('cdk-capability lock key id').digest('hex').slice(0, 16);
  }

  /**
   * The keyed digest of one masked value: 32 hex digits of HMAC-SHA256 over the
   * unit's id, the leaf's path and the value as JSON.
   */
  public digest(unitId: string, path: string, value: unknown): string {
    return createHmac('sha256', this.key).update(`${unitId}\u0000${path}\u0000${JSON.stringify(value)}`).digest('hex').slice(0, 32);
  }
}
