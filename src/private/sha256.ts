import * as crypto from 'crypto';

type OneShot = (algorithm: string, data: string, outputEncoding: 'hex') => string;

/**
 * Node's one-shot digest, `crypto.hash` (Node 20.12 and later): no `Hash`
 * object per call. On the short texts the lock digests (one per object) it is
 * several times faster than `createHash(...).update(...).digest(...)`; older
 * Node 20 releases use that instead.
 */
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** The SHA-256 digest of a text (as UTF-8), in lowercase hex: 64 characters. */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}
