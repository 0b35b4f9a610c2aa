/**
 * `mayHoldSensitiveLeaf`, which tells most units of a lock from their text that they hold no sensitive value, held
 * to `holdsSensitiveLeaf`, which walks every node: on any document where the walk finds one, the quick test must say
 * it may (a unit that holds one and were told it does not would have its digest taken of its clear text).
 */
import * as fc from 'fast-check';
import { toYaml } from '../src/private/yaml';
import { secretEnvValueAt } from '../src/release/sensitive-env';
import { templateSecretAt } from '../src/release/sensitive-properties';
import { holdsSensitiveLeaf, mayHoldSensitiveLeaf } from '../src/render/lock-values';

/** Each kind of nodes `mayHoldSensitiveLeaf` is told about, with the `isSensitive` the lock walks a document with. */
const NODES = {
  none: undefined,
  env: (doc: unknown) => (at: readonly string[]) => secretEnvValueAt(doc, at) !== undefined,
  template: (doc: unknown) => (at: readonly string[]) => templateSecretAt(doc, at) !== undefined,
} as const;

/** Strings of every kind, and ones that are, hold or resemble what the lock masks, in odd company. */
const MASKED = [
  'AKIAIOSFODNN7EXAMPLE',
  'ASIAIOSFODNN7EXAMPLE',
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----BEGIN PRIVATE KEY-----',
  `ghp_${'a'.repeat(36)}`,
  `xoxb-${'1'.repeat(12)}`,
  `sk_live_${'a'.repeat(24)}`,
  `AIza${'b'.repeat(35)}`,
  'postgres://app:hunter2@db:5432/app',
  '{{resolve:secretsmanager:db:SecretString:password}}',
  '{{resolve:ssm-secure:/db/password}}',
  '${Token[TOKEN.12]}',
];
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...MASKED, '', '$(DB_PASS)', '***', 'yes', '0123', 'a: b', '# c'),
  fc
    .tuple(fc.constantFrom('', 'x', '"', '\\', '\n', '\t', '\u0001', ' ', 'é', '\ud83d\ude00', "'", ': '), fc.constantFrom(...MASKED), fc.constantFrom('', '"', '\n', ' ', '\u2028'))
    .map(([a, b, c]) => a + b + c),
);
/** Keys, among them the ones the sensitive nodes are found by. */
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('containers', 'initContainers', 'env', 'name', 'value', 'valueFrom', 'data', 'spec', 'template', 'Parameters', 'Resources', 'Properties', 'Type', 'NoEcho', 'Default', 'Password', '0'),
);
const envName = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('DB_PASSWORD', 'githubToken', 'STRIPE_API_KEY', 'TOKEN_URL', 'PASSWORD_FILE', 'KEY', 'secret', 'apiKey', 'PASSWD'));
const envEntry = fc.record({ name: fc.oneof(envName, fc.integer()), value: fc.oneof(text, fc.constant(undefined), fc.integer()) }, { requiredKeys: ['name'] });
const envList = fc.oneof(fc.array(envEntry, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), envEntry, { maxKeys: 2 }));
const container = fc.record({ name: fc.string({ maxLength: 4 }), env: envList });
const containers = fc.oneof(fc.array(container, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), container, { maxKeys: 2 }));
const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const { node } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
    fc.record({ containers, initContainers: containers }, { requiredKeys: [] }),
  ),
}));
/** A manifest: a pod template's containers at the usual place, or anywhere. */
const manifest = fc.oneof(
  fc.record({ apiVersion: fc.constant('apps/v1'), kind: fc.constant('Deployment'), spec: fc.record({ template: fc.record({ spec: fc.record({ containers, initContainers: containers }, { requiredKeys: [] }) }) }) }),
  fc.dictionary(key, node, { maxKeys: 4 }),
);
/** A template: parameters that may be NoEcho, resources of types that take secrets or not. */
const SECRET_TYPES = ['AWS::RDS::DBInstance', 'AWS::DMS::Endpoint', 'AWS::AmazonMQ::Broker', 'AWS::SQS::Queue', 'AWS::SSM::Parameter', 'toString'];
const template = fc.record(
  {
    Parameters: fc.dictionary(
      fc.string({ maxLength: 4 }),
      fc.record({ Type: fc.constant('String'), NoEcho: fc.constantFrom(true, 'true', false, undefined), Default: node }, { requiredKeys: ['Type'] }),
      { maxKeys: 2 },
    ),
    Resources: fc.dictionary(fc.string({ maxLength: 4 }), fc.record({ Type: fc.constantFrom(...SECRET_TYPES), Properties: node, Metadata: node }, { requiredKeys: ['Type'] }), { maxKeys: 3 }),
    Outputs: node,
  },
  { requiredKeys: [] },
);

/** True when the walk finds a sensitive leaf, or false with the walk's own crash (what the lock did before too). */
function walked(doc: unknown, nodes: keyof typeof NODES): boolean | 'crash' {
  try {
    return holdsSensitiveLeaf(doc, NODES[nodes]?.(doc));
  } catch {
    return 'crash';
  }
}

describe('telling a unit holds no sensitive value from its text (mayHoldSensitiveLeaf)', () => {
  test.each([
    ['a manifest, as YAML', manifest, 'env', toYaml],
    ['a manifest, as JSON', manifest, 'env', JSON.stringify],
    ['any document without sensitive nodes, as YAML', node, 'none', toYaml],
    ['a template, as JSON', template, 'template', JSON.stringify],
  ] as const)('%s: whenever the walk finds a sensitive leaf, it may hold one', (_, documents, nodes, write) => {
    fc.assert(
      fc.property(documents as fc.Arbitrary<unknown>, (doc) => {
        const holds = walked(doc, nodes);
        const written = write(doc) ?? '';
        // a document the walk crashes on is walked (and crashes) as before
        if (holds !== false) expect(mayHoldSensitiveLeaf(doc, written, nodes)).toBe(true);
      }),
      { numRuns: 3_000, seed: 20261207 },
    );
  });

  test('the cases the quick test must not miss, each found by the walk', () => {
    // GIVEN a literal secret-named variable in a CronJob's init container, a secret shape in a block string, a
    // NoEcho parameter's default and a property that takes a secret
    const cronJob = { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: { initContainers: [{ name: 'i', env: [{ name: 'githubToken', value: 'x' }] }] } } } } } };
    const pem = { data: { key: 'a\n-----BEGIN EC PRIVATE KEY-----\nb' } };
    const noEcho = { Parameters: { Pw: { Type: 'String', NoEcho: 'true', Default: 'x' } } };
    const rds = { Resources: { Db: { Type: 'AWS::RDS::DBInstance', Properties: { MasterUserPassword: 'x' } } } };
    // THEN each holds a sensitive leaf, and the quick test says it may
    expect([walked(cronJob, 'env'), walked(pem, 'none'), walked(noEcho, 'template'), walked(rds, 'template')]).toEqual([true, true, true, true]);
    expect(mayHoldSensitiveLeaf(cronJob, toYaml(cronJob), 'env')).toBe(true);
    expect(mayHoldSensitiveLeaf(pem, toYaml(pem), 'none')).toBe(true);
    expect(mayHoldSensitiveLeaf(noEcho, JSON.stringify(noEcho), 'template')).toBe(true);
    expect(mayHoldSensitiveLeaf(rds, JSON.stringify(rds), 'template')).toBe(true);
  });

  test('a Deployment that reads its secrets from a Secret is told from its text, without a walk', () => {
    // GIVEN a Deployment whose only secret-named variable reads a Secret
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: { template: { spec: { automountServiceAccountToken: false, containers: [{ name: 'web', env: [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }] } } },
    };
    // THEN the quick test says it holds none, as the walk does
    expect(mayHoldSensitiveLeaf(deployment, toYaml(deployment), 'env')).toBe(false);
    expect(walked(deployment, 'env')).toBe(false);
  });
});
