import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, RuntimeRouting, SharedBase } from '../src';
import { newApp, removeTempDirs } from './util';
import { SECRET_SHAPES } from '../src/check/rules/possible-secrets';

afterAll(removeTempDirs);
afterEach(() => jest.restoreAllMocks());

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE'; // AWS's documented example key id
const FIX =
  'would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.';

/** GIVEN-side helper: an app with capability `cdn` and its routing chart. */
function routing(): { app: CapabilityApp; cdn: Capability; chart: RuntimeRouting } {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  return { app, cdn, chart: new RuntimeRouting(cdn, 'Routing') };
}

describe('possible secrets: warnings, not refusals', () => {
  test('an AWS access key id in a ConfigMap is a CAP012 warning that shows only its ends', () => {
    // GIVEN
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'creds' }, data: { key: `id=${AWS_KEY}` } } as any);

    // WHEN
    const result = app.synthesize();

    // THEN a warning, no violation, and the output is still produced
    expect(result.violations).toEqual([]);
    expect(result.output).toBeDefined();
    expect(result.warnings).toEqual([
      { code: 'CAP012', message: `possible secret: an AWS access key id ("AKIA...MPLE") in data.key of ConfigMap creds declared by 'cdn/Routing/Creds' ${FIX}`, paths: ['cdn/Routing/Creds'] },
    ]);
    expect(result.warnings[0].message).not.toContain(AWS_KEY);
  });

  test('a PEM private key in a manifest is a warning naming the key type', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Tls', {
      apiVersion: 'example.com/v1',
      kind: 'Certificate',
      metadata: { name: 'tls' },
      spec: { key: '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n' },
    } as any);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a PEM private key ("-----BEGIN EC PRIVATE KEY-----") in spec.key of example.com/Certificate tls declared by 'cdn/Routing/Tls' ${FIX}`,
    ]);
  });

  test('a PEM key base64-encoded in a Secret\'s data is found', () => {
    const { app, chart } = routing();
    const pem = Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n').toString('base64');
    new ApiObject(chart, 'Key', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'key', namespace: 'edge' }, data: { 'tls.key': pem } } as any);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a PEM private key ("-----BEGIN PRIVATE KEY-----") in data["tls.key"] of Secret edge/key declared by 'cdn/Routing/Key' ${FIX}`,
    ]);
  });

  test('a public certificate and a lowercase look-alike are not warned about', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Ca', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ca' },
      data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', 'note': 'akiaiosfodnn7example', 'longer': `X${AWS_KEY}9` },
    } as any);

    expect(app.synthesize().warnings).toEqual([]);
  });

  test('an AWS access key id in a CloudFormation template is a warning naming the stack and the declaring construct', () => {
    // GIVEN a parameter whose value is a key id
    const { app, cdn } = routing();
    new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'Creds', { stringValue: AWS_KEY });

    // WHEN
    const { warnings } = app.synthesize();

    // THEN
    expect(warnings).toEqual([
      {
        code: 'CAP012',
        message: expect.stringMatching(
          /^possible secret: an AWS access key id \("AKIA\.\.\.MPLE"\) in Resources\.Creds[0-9A-F]{8}\.Properties\.Value of the template of stack 'cdn\/Base' \(from 'cdn\/Base\/Creds'\) would be written/,
        ),
        paths: ['cdn/Base/Creds'],
      },
    ]);
  });

  test('app.synth() prints warnings to stderr, code first, and still writes the output', () => {
    // GIVEN
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'creds' }, data: { key: AWS_KEY } } as any);
    const printed: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => printed.push(String(chunk)) > 0);

    // WHEN
    app.synth();

    // THEN
    expect(printed).toEqual([`CAP012 warning: possible secret: an AWS access key id ("AKIA...MPLE") in data.key of ConfigMap creds declared by 'cdn/Routing/Creds' ${FIX}\n`]);
  });

  test('a refused synth still prints its warnings before throwing', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' }, data: { key: AWS_KEY } } as any);
    const printed: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => printed.push(String(chunk)) > 0);

    expect(() => app.synth()).toThrow(/CAP010 invalid object: 'metadata\.name' \("Bad_Name"\)/);
    expect(printed).toEqual([expect.stringMatching(/^CAP012 warning: possible secret: /)]);
  });
});

/** A token of `length` characters from `alphabet`, fixed so tests are repeatable. */
function fixed(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(i * 7 + 3) % alphabet.length];
  return out;
}

const GITHUB_TOKEN = `ghp_${fixed(36)}`;
const ENV_FIX =
  'would be written to the output in clear text. Keep secrets out of the composition: put the value in a Secret (from AWS Secrets Manager or SSM SecureString through an ExternalSecret) and reference it with valueFrom.secretKeyRef, or rename the variable if it is not a secret.';

/** GIVEN-side helper: a Deployment `web` in namespace `shop` whose container `web` has the environment `env`. */
function deployment(chart: RuntimeRouting, env: unknown[], initEnv?: unknown[]): void {
  new ApiObject(chart, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          ...(initEnv ? { initContainers: [{ name: 'migrate', image: 'migrate:1', env: initEnv }] } : {}),
          containers: [{ name: 'web', image: 'web:1', env }],
        },
      },
    },
  } as any);
}

describe('possible secrets: more shapes, and environment variables named like secrets', () => {
  test('a literal DB_PASSWORD environment variable of a container is a CAP012 warning that shows none of the value', () => {
    // GIVEN
    const { app, chart } = routing();
    deployment(chart, [{ name: 'DB_HOST', value: 'db' }, { name: 'DB_PASSWORD', value: 'hunter2' }]);

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([
      {
        code: 'CAP012',
        message: `possible secret: a literal value of the secret-named environment variable DB_PASSWORD ("****") in spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value of apps/Deployment shop/web declared by 'cdn/Routing/Web' ${ENV_FIX}`,
        paths: ['cdn/Routing/Web'],
      },
    ]);
    expect(result.warnings[0].message).not.toContain('hunter2');
  });

  test('an init container\'s GITHUB_TOKEN holding a GitHub token is one warning, for the shape', () => {
    const { app, chart } = routing();
    deployment(chart, [], [{ name: 'GITHUB_TOKEN', value: GITHUB_TOKEN }]);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a GitHub token ("ghp_...PW3a") in spec.template.spec.initContainers[name=migrate].env[name=GITHUB_TOKEN].value of apps/Deployment shop/web declared by 'cdn/Routing/Web' ${FIX}`,
    ]);
  });

  test('valueFrom, placeholders, empty values and names that only point at a secret are not warned about', () => {
    const { app, chart } = routing();
    deployment(chart, [
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'API_TOKEN', value: '$(TOKEN_FROM_SECRET)' },
      { name: 'CLIENT_SECRET', value: '${CLIENT_SECRET}' },
      { name: 'ADMIN_PASSWORD', value: '********' },
      { name: 'EMPTY_TOKEN', value: '' },
      { name: 'TOKEN_URL', value: 'https://auth.example.com/token' },
      { name: 'POSTGRES_PASSWORD_FILE', value: '/run/secrets/db' },
      { name: 'SECRET_NAME', value: 'db-credentials' },
      { name: 'PASSWORDLESS', value: 'true' },
    ]);

    expect(app.synthesize().warnings).toEqual([]);
  });

  test('a password in the userinfo of a URL in a ConfigMap is a warning that shows the URL without it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Db', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'db' }, data: { url: 'postgres://app:hunter2@db:5432/app' } } as any);

    const { warnings } = app.synthesize();

    expect(warnings.map((w) => w.message)).toEqual([
      `possible secret: a URL with a password ("postgres://app:****@db:5432") in data.url of ConfigMap db declared by 'cdn/Routing/Db' ${FIX}`,
    ]);
    expect(warnings[0].message).not.toContain('hunter2');
  });

  test('URLs whose password is a placeholder or absent are not warned about', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Db', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'db' },
      data: {
        a: 'postgres://app:$(DB_PASS)@db:5432/app',
        b: 'postgres://app:${DB_PASS}@db:5432/app',
        c: 'redis://:****@cache:6379',
        d: 'https://user@example.com/x',
        e: 'https://example.com:8443/path?q=a:b@c',
        f: 'postgres://app:@db/app',
      },
    } as any);

    expect(app.synthesize().warnings).toEqual([]);
  });

  test('a GitHub token in a ConfigMap is a warning naming it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Ci', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ci' }, data: { token: GITHUB_TOKEN } } as any);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a GitHub token ("ghp_...PW3a") in data.token of ConfigMap ci declared by 'cdn/Routing/Ci' ${FIX}`,
    ]);
  });
});

/** Strings of `length` (or `min`..`max`) characters of `alphabet`. */
function chars(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Each shape CAP012 knows, as a generator of its tokens, and what the warning calls it. */
const TOKENS: ReadonlyArray<readonly [string, fc.Arbitrary<string>]> = [
  ['an AWS access key id', fc.tuple(fc.constantFrom('AKIA', 'ASIA'), chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16)).map(([p, b]) => p + b)],
  ['a GitHub token', fc.oneof(
    fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36)).map(([p, b]) => p + b),
    chars(`${ALNUM}_`, 82).map((b) => `github_pat_${b}`),
  )],
  ['a Slack token', fc.tuple(fc.constantFrom(...'abposr'), chars(`${ALNUM}-`, 10, 60)).map(([t, b]) => `xox${t}-${b}`)],
  ['a Stripe live secret key', chars(ALNUM, 24, 99).map((b) => `sk_live_${b}`)],
  ['a Google API key', chars(`${ALNUM}_-`, 35).map((b) => `AIza${b}`)],
  ['a URL with a password', fc.tuple(fc.constantFrom('postgres', 'mysql', 'redis', 'amqp', 'https'), chars(ALNUM, 0, 8), chars(ALNUM, 1, 20), fc.domain())
    .map(([scheme, user, password, host]) => `${scheme}://${user}:${password}@${host}/app`)],
];

/** Ordinary configuration values: nothing in them is a secret. */
const ORDINARY = fc.oneof(
  fc.domain(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.ipV4(),
  fc.uuid(),
  fc.tuple(fc.domain(), fc.integer({ min: 1, max: 65535 })).map(([h, p]) => `${h}:${p}`),
  fc.constantFrom('true', 'false', 'info', 'debug', '30s', '512Mi', 'en_US.UTF-8', '/var/lib/data', '-----BEGIN CERTIFICATE-----'),
);

/** Names of ordinary environment variables, some with a secret word that is not their last part. */
const ORDINARY_NAME = fc.constantFrom('DB_HOST', 'LOG_LEVEL', 'PORT', 'TOKEN_URL', 'PASSWORD_FILE', 'SECRET_NAME', 'API_KEY_HEADER', 'TOKEN_TTL', 'KEY', 'PASSWORDLESS');
/** Names of environment variables that hold a secret. */
const SECRET_NAME = fc.oneof(
  fc.tuple(fc.constantFrom('', 'DB_', 'GITHUB_', 'app-', 'stripe.'), fc.constantFrom('PASSWORD', 'passwd', 'Secret', 'TOKEN', 'API_KEY', 'apiKey', 'PRIVATE_KEY', 'SECRET_KEY'))
    .map(([prefix, word]) => prefix + word),
  fc.constantFrom('clientSecret', 'githubToken', 'dbPassword', 'stripeApiKey'),
);

/** The CAP012 warnings of a ConfigMap with `data`, and of a Deployment with `env`. */
function warningsOf(data: Record<string, string>, env: unknown[] = []): string[] {
  const { app, chart } = routing();
  new ApiObject(chart, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data } as any);
  if (env.length > 0) deployment(chart, env);
  return app.synthesize().warnings.map((w) => w.message);
}

describe('possible secrets: properties', () => {
  test('ordinary configuration values (hostnames, URLs without a password, numbers) and ordinary environment variables are never warned about', () => {
    const vars = fc.array(fc.tuple(ORDINARY_NAME, ORDINARY), { maxLength: 3 });
    fc.assert(fc.property(fc.array(ORDINARY, { minLength: 1, maxLength: 5 }), vars, (values, env) => {
      const data = Object.fromEntries(values.map((v, i) => [`k${i}`, v]));
      expect(warningsOf(data, env.map(([name, value]) => ({ name, value })))).toEqual([]);
    }), { numRuns: 60 });
  });

  test('every shape CAP012 knows has a generator below, so the quick filter in front of the shapes is tested against each', () => {
    // the PEM private key has its own tests above (its match is a fixed header)
    expect(SECRET_SHAPES.map((s) => s.what).filter((w) => w !== 'a PEM private key')).toEqual(TOKENS.map(([what]) => what));
  });

  test.each(TOKENS.map(([what, token]) => [what, token] as const))('%s in a ConfigMap value is exactly one warning, which does not show it', (what, token) => {
    fc.assert(fc.property(token, fc.constantFrom('', 'token=', 'Bearer '), fc.constantFrom('', '\n', ' # rotated'), (t, before, after) => {
      const warnings = warningsOf({ value: `${before}${t}${after}` });
      expect(warnings).toEqual([expect.stringMatching(new RegExp(`^possible secret: ${what} \\(".+"\\) in data\\.value of ConfigMap settings declared by 'cdn/Routing/Settings' would be written`))]);
      expect(warnings[0]).not.toContain(t);
    }), { numRuns: 25 });
  });

  test('a literal value of an environment variable named like a secret is exactly one warning, which does not show it', () => {
    fc.assert(fc.property(SECRET_NAME, chars(ALNUM, 1, 30), (name, value) => {
      const warnings = warningsOf({}, [{ name, value }]);
      expect(warnings).toEqual([`possible secret: a literal value of the secret-named environment variable ${name} (${value.length < 16 ? '"****"' : `"${value.slice(0, 4)}...${value.slice(-4)}"`}) in spec.template.spec.containers[name=web].env[name=${name}].value of apps/Deployment shop/web declared by 'cdn/Routing/Web' ${ENV_FIX}`]);
      if (value.length >= 16) expect(warnings[0]).not.toContain(value);
    }), { numRuns: 40 });
  });
});
