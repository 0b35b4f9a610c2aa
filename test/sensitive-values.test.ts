import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { aws_iam as iam, aws_rds as rds, aws_secretsmanager as secretsmanager, CfnParameter, SecretValue } from 'aws-cdk-lib';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Capability, CapabilityApp, Plan, RuntimeRouting, SharedBase } from '../src';
import { appOf, coded, newSeries, releaseDir, removeReleaseDirs, ReleaseSeries, withLockKey, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { main } from '../src/cli/main';

afterAll(removeReleaseDirs);

/** A key of 64 hex digits, as `openssl rand -hex 32` prints one. */
const KEY = '3f1c9a7be20d4c6f8a5e1b0d9c7f2e4a6b8d0c2e4f6a8b0c1d3e5f7a9b1c3d5e';
const OTHER_KEY = 'a'.repeat(32);

/** One way a literal secret reaches a CloudFormation template, and the leaf of the template it lands in. */
interface SecretShape {
  readonly name: string;
  /** Declares the secret `value` in stack `shop/Base`. */
  readonly declare: (base: SharedBase, value: string) => void;
  /** The leaf of the lock's values (and of the plan's field changes) that holds it. */
  readonly leaf: RegExp;
  /** What CAP012 says the value is. */
  readonly what: string;
}

const SHAPES: readonly SecretShape[] = [
  {
    name: 'SecretValue.unsafePlainText into a Secrets Manager secret',
    declare: (base, value) => new secretsmanager.Secret(base, 'Token', { secretStringValue: SecretValue.unsafePlainText(value) }),
    leaf: /^Resources\.Token[0-9A-F]{8}\.Properties\.SecretString$/,
    what: 'property SecretString of AWS::SecretsManager::Secret',
  },
  {
    name: "an IAM user's password",
    declare: (base, value) => new iam.User(base, 'Operator', { password: SecretValue.unsafePlainText(value) }),
    leaf: /^Resources\.Operator[0-9A-F]{8}\.Properties\.LoginProfile\.Password$/,
    what: 'property LoginProfile.Password of AWS::IAM::User',
  },
  {
    name: 'an RDS MasterUserPassword',
    declare: (base, value) =>
      new rds.CfnDBInstance(base, 'Db', { engine: 'postgres', dbInstanceClass: 'db.t3.micro', allocatedStorage: '20', masterUsername: 'admin', masterUserPassword: value }),
    leaf: /^Resources\.Db\.Properties\.MasterUserPassword$/,
    what: 'property MasterUserPassword of AWS::RDS::DBInstance',
  },
  {
    name: 'the Default of a NoEcho parameter',
    declare: (base, value) => new CfnParameter(base, 'DbPassword', { noEcho: true, default: value }),
    leaf: /^Parameters\.DbPassword\.Default$/,
    what: "the Default of NoEcho parameter 'DbPassword'",
  },
];

const FIRST = 'hunter2-first';
const SECOND = 'hunter2-second';

/** Capability shop: a shared base holding the secret of `shape`, and a ConfigMap. */
function shop(app: CapabilityApp, { shape, value }: { shape: SecretShape; value: string }): void {
  const capability = new Capability(app, 'shop');
  shape.declare(new SharedBase(capability, 'Base'), value);
  const routing = new RuntimeRouting(capability, 'Routing');
  new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'live' } });
}

/** What a release wrote and printed: stderr (warnings), the lock file's text if any, plan.json's text. */
interface Written {
  readonly stderr: string;
  readonly lock: string;
  readonly planJson: string;
  readonly plan: Plan;
}

/** Synthesizes a release to disk as a user does, with the key given, accepting it into the lock when `accept`. */
function synth(series: ReleaseSeries, variant: { shape: SecretShape; value: string }, key: string | undefined, accept: boolean): Written {
  const app = appOf(series);
  shop(app, variant);
  const { stderr } = capturingOutput(() => withLockKey(key, () => withUpdateLock(accept ? '1' : undefined, () => app.synth())));
  const planJson = fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8');
  const lock = fs.existsSync(series.lockFile) ? fs.readFileSync(series.lockFile, 'utf-8') : '';
  return { stderr, lock, planJson, plan: JSON.parse(planJson) };
}

/** What `cdk-capability plan` prints for a written plan.json, as text and as --json. */
function printed(planJson: string): { text: string; json: string } {
  const file = path.join(releaseDir(), 'plan.json');
  fs.writeFileSync(file, planJson);
  const text = capturingOutput(() => main(['plan', '--plan', file])).stdout;
  const json = capturingOutput(() => main(['plan', '--plan', file, '--json'])).stdout;
  return { text, json };
}

describe.each(SHAPES.map((s) => [s.name, s] as const))('a literal secret in a template: %s', (_, shape) => {
  test('the lock, plan.json and the plan output never hold it, and the plan shows the change as (sensitive, changed)', () => {
    // GIVEN release 1 holding "hunter2-first", accepted into the lock with a key
    const series = newSeries();
    const first = synth(series, { shape, value: FIRST }, KEY, true);

    // WHEN release 2 holds "hunter2-second" and is accepted too
    const second = synth(series, { shape, value: SECOND }, KEY, true);
    const { text, json } = printed(second.planJson);

    // THEN neither value is in either lock, in plan.json, or in what plan prints
    for (const out of [first.lock, second.lock, first.planJson, second.planJson, text, json]) {
      expect(out).not.toContain('hunter2');
    }
    // AND the locks mask the leaf and keep a keyed digest of it
    const unit = (lock: string) => JSON.parse(lock).units.find((u: any) => u.label === 'stack shop/Base');
    const leaf = Object.keys(unit(second.lock).values).find((p) => shape.leaf.test(p))!;
    expect(leaf).toBeDefined();
    expect(unit(second.lock).values[leaf]).toBe('(sensitive)');
    expect(unit(first.lock).sensitive[leaf]).toMatch(/^[0-9a-f]{32}$/);
    expect(unit(second.lock).sensitive[leaf]).not.toBe(unit(first.lock).sensitive[leaf]);
    // AND the change is shown, in plan.json and as plan prints it
    expect(second.plan.changes.changed).toEqual(['stack shop/Base']);
    expect(second.plan.changes.fields).toEqual([{ unit: 'stack shop/Base', fields: [{ path: leaf, before: '(sensitive)', after: '(sensitive, changed)' }] }]);
    expect(text).toContain(`  ~ stack shop/Base\n      ~ ${leaf}: (sensitive) -> (sensitive, changed)\n`);
    expect(JSON.parse(json).plan.changes.fields[0].fields).toEqual([{ path: leaf, before: '(sensitive)', after: '(sensitive, changed)' }]);
  });

  test('CAP012 warns that the literal would be written to the cloud assembly in clear text', () => {
    // GIVEN a release holding the literal
    const series = newSeries();

    // WHEN it is synthesized
    const { stderr } = synth(series, { shape, value: FIRST }, undefined, false);

    // THEN one CAP012 names what holds it, without the value
    const warnings = stderr.split('\n').filter((l) => l.startsWith('CAP012'));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^CAP012 warning: possible secret: a literal secret \\(${escape(shape.what)}\\) in \\S+ of the template of stack 'shop/Base' \\(from 'shop/Base(/\\w+)?'\\) would be written to the output in clear text`))]);
    expect(stderr).not.toContain('hunter2');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const RDS = SHAPES[2];

describe('digests of sensitive values', () => {
  test('an unchanged secret shows no change, and its stack is not changed', () => {
    // GIVEN release 1 accepted with a key
    const series = newSeries();
    synth(series, { shape: RDS, value: FIRST }, KEY, true);

    // WHEN the same release is synthesized again with the key
    const { plan } = synth(series, { shape: RDS, value: FIRST }, KEY, false);

    // THEN nothing changes
    expect(plan.changes.changed).toEqual([]);
    expect(plan.changes.fields).toEqual([]);
    expect(plan.changes.sensitiveNotCompared).toBeUndefined();
  });

  test('without CDK_CAPABILITY_LOCK_KEY the lock keeps no digest, and the plan says which stacks it could not compare', () => {
    // GIVEN release 1 accepted without a key
    const series = newSeries();
    const first = synth(series, { shape: RDS, value: FIRST }, undefined, true);

    // WHEN release 2 changes the password, still without a key
    const second = synth(series, { shape: RDS, value: SECOND }, undefined, false);
    const { text } = printed(second.planJson);

    // THEN the lock holds the mask and nothing about the value, and the plan names what it could not compare
    const lock = JSON.parse(first.lock);
    expect(lock.sensitiveKeyId).toBeUndefined();
    expect(lock.units.find((u: any) => u.label === 'stack shop/Base').sensitive).toBeUndefined();
    expect(first.lock).not.toContain(createHash('sha256').update(FIRST).digest('hex').slice(0, 16));
    expect(second.plan.changes.changed).toEqual([]);
    expect(second.plan.changes.sensitiveNotCompared).toEqual({ reason: 'CDK_CAPABILITY_LOCK_KEY is not set', units: ['stack shop/Base'] });
    expect(text).toContain('  (sensitive values not compared, CDK_CAPABILITY_LOCK_KEY is not set: stack shop/Base)\n');
  });

  test('a lock digested with another key is not compared, and says so', () => {
    // GIVEN release 1 accepted with one key
    const series = newSeries();
    synth(series, { shape: RDS, value: FIRST }, KEY, true);

    // WHEN the same release is synthesized with another key
    const { plan } = synth(series, { shape: RDS, value: FIRST }, OTHER_KEY, false);

    // THEN no false change: the values are not compared, and the reason is given
    expect(plan.changes.fields).toEqual([]);
    expect(plan.changes.sensitiveNotCompared).toEqual({ reason: 'the lock was written with another CDK_CAPABILITY_LOCK_KEY', units: ['stack shop/Base'] });
  });

  test('two equal secrets in two places get different digests, so the lock does not show them equal', () => {
    // GIVEN two RDS instances with one password
    const series = newSeries();
    const app = appOf(series);
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    for (const id of ['A', 'B']) new rds.CfnDBInstance(base, id, { engine: 'postgres', dbInstanceClass: 'db.t3.micro', masterUsername: 'admin', masterUserPassword: FIRST });

    // WHEN accepted with a key
    capturingOutput(() => withLockKey(KEY, () => withUpdateLock('1', () => app.synth())));

    // THEN the two digests differ
    const digests = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')).units[0].sensitive;
    expect(Object.keys(digests)).toEqual(['Resources.A.Properties.MasterUserPassword', 'Resources.B.Properties.MasterUserPassword']);
    expect(digests['Resources.A.Properties.MasterUserPassword']).not.toBe(digests['Resources.B.Properties.MasterUserPassword']);
  });

  test('a Secret\'s data change shows as (sensitive, changed) with a key', () => {
    // GIVEN a Secret creds with password "hunter2-first", accepted with a key
    const series = newSeries();
    const secret = (app: CapabilityApp, value: string) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { password: value } });
    };
    const one = appOf(series);
    secret(one, FIRST);
    withLockKey(KEY, () => withUpdateLock('1', () => one.synth()));

    // WHEN the password changes
    const two = appOf(series);
    secret(two, SECOND);
    const { plan } = withLockKey(KEY, () => two.synthesize());

    // THEN the plan shows the leaf changed, masked
    expect(plan?.changes.fields).toEqual([{ unit: 'Secret creds', fields: [{ path: 'stringData.password', before: '(sensitive)', after: '(sensitive, changed)' }] }]);
  });

  test('a literal DB_PASSWORD environment variable and a URL password in a ConfigMap are masked in the lock and plan.json, and their change shows as (sensitive, changed)', () => {
    // GIVEN a Deployment with DB_PASSWORD "hunter2-first" and a ConfigMap with a database URL holding it, accepted with a key
    const series = newSeries();
    const release = (app: CapabilityApp, password: string) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      new ApiObject(routing, 'Db', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'db' }, data: { url: `postgres://app:${password}@db:5432/app`, host: 'db' } });
      new ApiObject(routing, 'Web', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'web:1', env: [{ name: 'DB_HOST', value: 'db' }, { name: 'DB_PASSWORD', value: password }] }] },
          },
        },
      });
    };
    const one = appOf(series);
    release(one, FIRST);
    capturingOutput(() => withLockKey(KEY, () => withUpdateLock('1', () => one.synth())));
    const lock = fs.readFileSync(series.lockFile, 'utf-8');

    // WHEN the password changes in both
    const two = appOf(series);
    release(two, SECOND);
    capturingOutput(() => withLockKey(KEY, () => two.synth()));
    const planJson = fs.readFileSync(path.join(two.outdir, 'plan.json'), 'utf-8');

    // THEN neither value is in the lock or plan.json; the other leaves are as written
    expect(lock).not.toContain('hunter2');
    expect(planJson).not.toContain('hunter2');
    const units = JSON.parse(lock).units;
    expect(units.find((u: any) => u.label === 'ConfigMap db').values).toMatchObject({ 'data.url': '(sensitive)', 'data.host': 'db' });
    expect(units.find((u: any) => u.label === 'apps/Deployment web').values).toMatchObject({
      'spec.template.spec.containers[name=web].env[name=DB_HOST].value': 'db',
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].name': 'DB_PASSWORD',
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value': '(sensitive)',
    });
    // AND the password's digest is under the name its value has in the lock
    expect(Object.keys(units.find((u: any) => u.label === 'apps/Deployment web').sensitive)).toEqual(['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']);
    // AND the plan shows both changed, masked
    expect(JSON.parse(planJson).changes.fields).toEqual([
      { unit: 'ConfigMap db', fields: [{ path: 'data.url', before: '(sensitive)', after: '(sensitive, changed)' }] },
      { unit: 'apps/Deployment web', fields: [{ path: 'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value', before: '(sensitive)', after: '(sensitive, changed)' }] },
    ]);
  });

  test('an escape hatch that rewrites a secret-named environment variable shows both values masked in the plan\'s overrides', () => {
    // GIVEN a Deployment whose DB_PASSWORD a JSON patch of its own declarer replaces
    const app = appOf(newSeries());
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1', env: [{ name: 'DB_PASSWORD', value: FIRST }] }] } },
      },
    });
    web.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/env/0/value', SECOND));

    // WHEN
    const { plan } = app.synthesize();

    // THEN
    expect(plan?.ownership?.overrides.map((o) => [o.field, o.rendered, o.patched])).toEqual([
      ['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value', '(sensitive)', '(sensitive)'],
    ]);
  });

  test('a lock of an earlier version holding the value in clear never has it printed: (sensitive, not compared)', () => {
    // GIVEN a lock whose RDS password leaf holds the value in clear (as written before it was masked)
    const series = newSeries();
    const first = synth(series, { shape: RDS, value: FIRST }, undefined, true);
    const lock = JSON.parse(first.lock);
    const base = lock.units.find((u: any) => u.label === 'stack shop/Base');
    base.values['Resources.Db.Properties.MasterUserPassword'] = FIRST;
    base.digest = 'changed';
    delete lock.contentDigest; // an edited lock, read as one an earlier version wrote: without the contentDigest an edit would no longer match
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN the next release is planned
    const { plan, planJson } = synth(series, { shape: RDS, value: SECOND }, undefined, false);

    // THEN the leaf shows no value at all
    expect(plan.changes.fields).toEqual([
      { unit: 'stack shop/Base', fields: [{ path: 'Resources.Db.Properties.MasterUserPassword', before: '(sensitive)', after: '(sensitive, not compared)' }] },
    ]);
    expect(planJson).not.toContain('hunter2');
  });

  test('a CDK_CAPABILITY_LOCK_KEY shorter than 32 characters is refused with CAP014 before anything is written', () => {
    // GIVEN a six-character key
    const series = newSeries();
    const app = appOf(series);
    shop(app, { shape: RDS, value: FIRST });

    // WHEN synthesized
    const { violations } = withLockKey('secret', () => app.synthesize());

    // THEN CAP014 says why and how to fix it
    expect(coded(violations)).toEqual([
      {
        code: 'CAP014',
        message:
          'lock file: CDK_CAPABILITY_LOCK_KEY is 6 characters long, shorter than 32: a short key can be guessed, and with it every sensitive value the lock digests. ' +
          'Set it to at least 32 random characters (for example the output of `openssl rand -hex 32`), kept as a CI secret, or unset it.',
        paths: [],
      },
    ]);
  });
});
