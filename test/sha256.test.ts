import { createHash } from 'crypto';
import { sha256Hex } from '../src/private/sha256';

// The digests the lock, field manager names and admission policy names use (src/private/sha256.ts).

test('SHA-256 of "abc" and of "" is the FIPS 180-2 / NIST test vector', () => {
  expect(sha256Hex('abc')).toEqual('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(sha256Hex('')).toEqual('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('every text is digested as its UTF-8 bytes, as createHash digests it', () => {
  const texts = ['apiVersion: v1\nkind: ConfigMap\n', 'ünïcödé ✓ 🚀', 'lone \ud800 surrogate', 'x'.repeat(100_000)];

  expect(texts.map((t) => sha256Hex(t))).toEqual(texts.map((t) => createHash('sha256').update(t, 'utf-8').digest('hex')));
});

test('a prefix is the digest\'s first characters, even or odd in number', () => {
  expect(sha256Hex('abc', 16)).toEqual('ba7816bf8f01cfea');
  expect(sha256Hex('abc', 10)).toEqual('ba7816bf8f');
  expect(sha256Hex('abc', 7)).toEqual('ba7816b');
  expect(sha256Hex('abc', 1)).toEqual('b');
  expect(sha256Hex('abc', 64)).toEqual(sha256Hex('abc'));
});

test('on a Node without crypto.hash (before 20.12) the digest is the same, from createHash', () => {
  // GIVEN crypto without its one-shot hash
  let fallback: typeof sha256Hex | undefined;
  jest.isolateModules(() => {
    jest.doMock('crypto', () => ({ ...jest.requireActual('crypto'), hash: undefined }));
    fallback = (jest.requireActual('../src/private/sha256') as typeof import('../src/private/sha256')).sha256Hex;
  });
  jest.dontMock('crypto');

  // THEN it digests as before
  expect(fallback!('abc')).toEqual('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(fallback!('ünïcödé ✓')).toEqual(sha256Hex('ünïcödé ✓'));
  expect(fallback!('abc', 16)).toEqual('ba7816bf8f01cfea');
  expect(fallback!('abc', 7)).toEqual('ba7816b');
});
