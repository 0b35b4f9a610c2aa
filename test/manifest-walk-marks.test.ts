import { Lazy, Token } from 'aws-cdk-lib';
import * as fc from 'fast-check';
import { MAX_NESTING_DEPTH, MAY_HOLD_A_SHAPE, MAYBE_DEPLOY_TIME, TextMarks, walkManifest } from '../src/private/manifest-walk';
import { forEachScalar } from '../src/private/walk';

/**
 * The marks of a manifest as the two scans it stands in for see them, scalar by scalar (the walk of
 * `forEachScalar` both scans made before): a string with a secret's quick filter, a string with a
 * deployment-time value's quick filter or a number aws-cdk reads as a token, and a string where
 * `secretEnvValueAt` looks for a secret-named variable's value.
 */
function scannedMarks(manifest: unknown): TextMarks {
  const marks = { secretShape: false, deployTime: false, envValue: false };
  forEachScalar(manifest, (scalar, at, isKey) => {
    if (typeof scalar === 'number') {
      if (Token.isUnresolved(scalar)) marks.deployTime = true;
      return;
    }
    if (MAY_HOLD_A_SHAPE.test(scalar)) marks.secretShape = true;
    if (MAYBE_DEPLOY_TIME.test(scalar)) marks.deployTime = true;
    const n = at.length;
    if (!isKey && n >= 5 && at[n - 1] === 'value' && at[n - 3] === 'env' && ['containers', 'initContainers'].includes(at[n - 5])) marks.envValue = true;
  });
  return marks;
}

const NUMBER_TOKEN = Token.asNumber(Lazy.number({ produce: () => 1 }));

/** Texts the scans look for, and texts they pass over. */
const TEXTS = [
  'web', 'value', 'env', 'containers', 'initContainers', 'name', 'DB_PASSWORD', '0', '1',
  'AKIAIOSFODNN7EXAMPLE', 'a PRIVATE KEY', 'ghp_x', 'xoxb-1', 'sk_live_', 'AIza', 'postgres://app:pw@db', 'https://example.com',
  '${Token[TOKEN.12]}', '#{Token[TOKEN.3]}', '{{resolve:ssm:/p}}', '-1.8881545897087626e+289', '2E-5', 'e+5', 'akia', '{', '}',
];

const scalar = fc.oneof(
  fc.constantFrom(...TEXTS),
  fc.string(),
  fc.double(),
  fc.constantFrom(NUMBER_TOKEN, -1e288, -1.7976931348623157e308, 1e300, Number.NaN),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(fc.constantFrom(...TEXTS), fc.string());
const { manifest } = fc.letrec((tie) => ({
  manifest: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('manifest'), fc.array(tie('node'), { maxLength: 4 })),
}));

describe('walkManifest: the marks the scans of secrets and deployment-time values pass over a manifest by', () => {
  test('are what a scan of every scalar sees, or more: a number as large as a token is marked, token or not (property)', () => {
    fc.assert(fc.property(manifest, (m) => {
      const walked = walkManifest(m, MAX_NESTING_DEPTH + 1).marks!;
      const scanned = scannedMarks(m);
      // the texts are marked exactly; nothing a scan sees is unmarked
      expect({ ...walked, deployTime: false }).toEqual({ ...scanned, deployTime: false });
      if (scanned.deployTime) expect(walked.deployTime).toBe(true);
    }), { numRuns: 2000 });
  });

  test('are what a scan sees for keys and values made of the pieces of every filter, several to a manifest (property)', () => {
    // each alternative of MAY_HOLD_A_SHAPE and MAYBE_DEPLOY_TIME, cut and mixed with what sits next to them
    const piece = fc.constantFrom(
      'AKIA', 'ASIA', 'AKI', 'PRIVATE KEY', 'PRIVATE', ' KEY', 'private key', 'gh', 'p_', 'ghp_', 'gho_', 'ghq_', 'github_pat_', 'github_', 'xox',
      'xoxb-', 'xoxz-', 'sk_live_', 'sk_', 'AIza', 'aiza', '://', ':/', '/', '{', '}', '1', '9', 'e', 'E', '+', '-', '1e+5', '2E-5', 'e5', 'x', ' ',
    );
    const text = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));
    const flat = fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 })), { maxKeys: 5 });
    fc.assert(fc.property(flat, (m) => {
      const walked = walkManifest(m, MAX_NESTING_DEPTH + 1).marks!;
      const scanned = scannedMarks(m);
      expect(walked).toEqual(scanned);
    }), { numRuns: 3000 });
  });

  test.each([
    ['a key with a secret shape', { data: { AKIAIOSFODNN7EXAMPLE: 'x' } }, 'secretShape'],
    ['a token in a list', { spec: { args: ['${Token[TOKEN.12]}'] } }, 'deployTime'],
    ['a number token', { spec: { replicas: NUMBER_TOKEN } }, 'deployTime'],
    ['a number as text', { data: { n: '-1.8881545897087626e+289' } }, 'deployTime'],
    ['a URL with a password', { data: { url: 'postgres://app:pw@db' } }, 'secretShape'],
    ['a literal env value', { spec: { template: { spec: { initContainers: [{ env: [{ name: 'A', value: 'b' }] }] } } } }, 'envValue'],
    ['an env value from a Secret', { spec: { containers: [{ env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] } }, undefined],
    ['plain configuration', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b', port: '8080' } }, undefined],
  ])('%s', (_, m, marked) => {
    expect(walkManifest(m).marks).toEqual({ secretShape: marked === 'secretShape', deployTime: marked === 'deployTime', envValue: marked === 'envValue' });
  });

  test('are absent when the walk stops too deep, so a scan reads the whole manifest', () => {
    let deep: unknown = { value: 'AKIAIOSFODNN7EXAMPLE' };
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) deep = { a: deep };
    expect(walkManifest(deep).marks).toBeUndefined();
    expect(walkManifest(deep).tooDeep).toBeDefined();
  });
});
