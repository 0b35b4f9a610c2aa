import * as crypto from 'crypto';

type OneShot = (algorithm: string, data: string, outputEncoding: 'buffer') => Buffer;

/**
 * Node's one-shot digest, `crypto.hash` (Node 20.12 and later): no `Hash`
 * object per call. On the short texts the lock digests (one per object) it is
 * several times faster than `createHash(...).update(...).digest(...)`; older
 * Node 20 releases use that instead.
 */
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/**
 * The SHA-256 digest of a text (as UTF-8), in lowercase hex, or its first
 * `length` characters. A prefix is a string of its own, not a slice that keeps
 * the whole digest alive (a lock keeps one per object).
 *
 * @param length how many hex characters, 1 to 64
 */
export function sha256Hex(text: string, length = 64): string {
  const digest = oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
  const hex = digest.toString('hex', 0, Math.ceil(length / 2));
  return length % 2 === 0 ? hex : hex.slice(0, length);
}
