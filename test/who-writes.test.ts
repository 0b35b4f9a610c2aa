/**
 * The README's table "Who writes this field", row by row: each row's write path makes a write that another
 * writer contests, and the ledger names the writer the row says. The rows are read from README.md, so a row
 * without a case (or a case without a row) fails.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Aspects, Lazy as CdkLazy, Tags } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, JsonPatch, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct, IConstruct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, RuntimeRouting, SharedBase } from '../src';

/** The first cell of each row of the README's table "Who writes this field". */
function tableRows(): string[] {
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf-8');
  const section = readme.split(/^#{2,4} /m).find((s) => s.startsWith('Who writes this field'));
  if (!section) throw new Error("README.md has no section 'Who writes this field'");
  return section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Write path') && !l.startsWith('| ---')).map((l) => l.split(' | ')[0].slice(2).trim());
}

/** An app with a capability `cdn`, its runtime chart with a team, and its shared base with a team. */
function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const base = new SharedBase(cdn, 'Base');
  return { app, routing, base, team: new Construct(routing, 'Team'), ops: new Construct(base, 'Ops') };
}

const conflict = (a: string, b: string, field: string, object: string, ...ways: string[]) =>
  `field conflict: ${a} and ${b} both write ${field} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;
const SETTINGS = 'ConfigMap cdn/settings';
const settings = (scope: Construct, data: Record<string, unknown> = { level: 'info' }) =>
  new ApiObject(scope, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'cdn' }, data });
const messages = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => v.message);

/** What a row's case says: what the ledger said and what the row promises. */
interface CaseResult {
  readonly actual: unknown;
  readonly expected: unknown;
}

function contributionFields(): CaseResult {
  const { app, routing, team } = fixture();
  new Contribution(team, 'Level', { target: settings(routing), fields: { data: { level: 'debug' } } });
  return { actual: messages(app), expected: [conflict("'cdn/Routing/Settings'", "'cdn/Routing/Team/Level'", 'data.level', SETTINGS, declares('cdn/Routing/Settings'), contributes('fields', 'cdn/Routing/Team/Level'))] };
}

function contributionPatches(): CaseResult {
  const { app, routing, team } = fixture();
  new Contribution(team, 'Level', { target: settings(routing), patches: [JsonPatch.replace('/data/level', 'debug')] });
  return { actual: messages(app), expected: [conflict("'cdn/Routing/Settings'", "'cdn/Routing/Team/Level'", 'data.level', SETTINGS, declares('cdn/Routing/Settings'), contributes('patches', 'cdn/Routing/Team/Level'))] };
}

function contributionWrite(): CaseResult {
  const { app, routing, team } = fixture();
  const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'cdn', labels: { team: 'payments' } }, containers: [{ image: 'nginx' }] });
  new Contribution(team, 'Relabel', { target: web, write: (d) => d.metadata.addLabel('team', 'obs') });
  return { actual: messages(app), expected: [conflict("'cdn/Routing/Team/Relabel'", "'cdn/Routing/Web'", 'metadata.labels.team', 'apps/Deployment cdn/web', contributes('write callback', 'cdn/Routing/Team/Relabel'), declares('cdn/Routing/Web'))] };
}

function grantIntoPolicy(): CaseResult {
  // a role whose DefaultPolicy an earlier grant made, and a callback that grants into it
  const { app, base, ops } = fixture();
  const role = new iam.Role(base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  new s3.Bucket(base, 'Logs').grantWrite(role);
  new Contribution(ops, 'DataAccess', { target: new s3.Bucket(base, 'Data'), write: (b) => { b.grantRead(role); } });
  const accepted = messages(app);
  // the same, with the statements overridden whole
  const overridden = fixture();
  const other = new iam.Role(overridden.base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  new s3.Bucket(overridden.base, 'Logs').grantWrite(other);
  new Contribution(overridden.ops, 'DataAccess', { target: new s3.Bucket(overridden.base, 'Data'), write: (b) => { b.grantRead(other); } });
  const policy = other.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
  const at = siteOfNextLine();
  policy.addPropertyOverride('PolicyDocument.Statement', []);
  return {
    actual: [accepted, messages(overridden.app)],
    expected: [
      [],
      [
        `field conflict: 'cdn/Base/Ops/DataAccess', 'cdn/Base/Role/DefaultPolicy' and 'cdn/Base/Role/DefaultPolicy/Resource' (addPropertyOverride at ${at}) all write ` +
          'PolicyDocument.Statement of AWS::IAM::Policy cdn/Base/Role/DefaultPolicy/Resource. ' +
          `Give each field one owner: drop it from all of them but one (${contributes('write callback', 'cdn/Base/Ops/DataAccess')}; ${declares('cdn/Base/Role/DefaultPolicy')}; `
          + `${calls('cdn/Base/Role/DefaultPolicy/Resource', `addPropertyOverride at ${at}`)}).`,
      ],
    ],
  };
}

function statementsIntoTargetPolicy(): CaseResult {
  // a callback on a role's DefaultPolicy adds a statement, another callback grants into it
  const { app, base, ops } = fixture();
  const role = new iam.Role(base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  new s3.Bucket(base, 'Logs').grantWrite(role);
  const policy = role.node.findChild('DefaultPolicy') as iam.Policy;
  new Contribution(ops, 'Queues', {
    target: policy.node.defaultChild as iam.CfnPolicy,
    write: () => { policy.addStatements(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['*'] })); },
  });
  new Contribution(ops, 'DataAccess', { target: new s3.Bucket(base, 'Data'), write: (b) => { b.grantRead(role); } });
  const accepted = messages(app);
  const writers = app.synthesize().facts!.ledger.objects.find((o) => o.label === 'AWS::IAM::Policy cdn/Base/Role/DefaultPolicy/Resource')!
    .writes.filter((w) => w.path[1] === 'Statement').map((w) => w.writer.path);
  // the same, with a callback on the policy that writes its document whole
  const replaced = fixture();
  const other = new iam.Role(replaced.base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  new s3.Bucket(replaced.base, 'Logs').grantWrite(other);
  new Contribution(replaced.ops, 'Queues', {
    target: other.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy,
    write: (p) => { p.policyDocument = { Version: '2012-10-17', Statement: [{ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: '*' }] }; },
  });
  return {
    actual: [accepted, writers, messages(replaced.app)],
    expected: [
      [],
      ['cdn/Base/Role/DefaultPolicy', 'cdn/Base/Ops/Queues', 'cdn/Base/Ops/DataAccess'],
      [conflict("'cdn/Base/Ops/Queues'", "'cdn/Base/Role/DefaultPolicy'", 'PolicyDocument.Statement', 'AWS::IAM::Policy cdn/Base/Role/DefaultPolicy/Resource', contributes('write callback', 'cdn/Base/Ops/Queues'), declares('cdn/Base/Role/DefaultPolicy'))],
    ],
  };
}

function forcedContribution(): CaseResult {
  const { app, routing, team } = fixture();
  new Contribution(team, 'Level', { target: settings(routing), fields: { data: { level: 'debug' } }, force: true });
  const result = CapabilityTesting.synth(app);
  return {
    actual: [result.violations, result.runtimeObjects.find((o) => o.kind === 'ConfigMap')?.data, result.plan?.ownership?.handovers],
    expected: [[], { level: 'debug' }, [{ object: SETTINGS, field: 'data.level', from: 'cdn/Routing/Settings', to: 'cdn/Routing/Team/Level', reason: 'force' }]],
  };
}

function plainJsonPatch(): CaseResult {
  // over a Contribution's field: a writer of its own
  const { app, routing, team } = fixture();
  const target = settings(routing, { level: 'info' });
  new Contribution(team, 'Mode', { target, fields: { data: { mode: 'maintenance' } } });
  const other = siteOfNextLine();
  target.addJsonPatch(JsonPatch.add('/data/mode', 'off'));
  // over what its own declaration rendered: the declarer's override, in the plan
  const own = fixture();
  const at = siteOfNextLine();
  settings(own.routing).addJsonPatch(JsonPatch.replace('/data/level', 'debug'));
  const result = CapabilityTesting.synth(own.app);
  // a remove of what an earlier plain patch of the object added: the object's own override too
  const layered = fixture();
  const layeredSettings = settings(layered.routing);
  const adds = siteOfNextLine();
  layeredSettings.addJsonPatch(JsonPatch.add('/data/extra', 'x'));
  const removes = siteOfNextLine();
  layeredSettings.addJsonPatch(JsonPatch.remove('/data/extra'));
  const removal = CapabilityTesting.synth(layered.app);
  return {
    actual: [
      messages(app),
      result.violations,
      result.plan?.ownership?.overrides.map((o) => [o.field, o.by]),
      removal.violations,
      removal.plan?.ownership?.overrides.map((o) => [o.field, o.by, o.over]),
    ],
    expected: [
      [conflict(`'cdn/Routing/Settings' (addJsonPatch at ${other})`, "'cdn/Routing/Team/Mode'", 'data.mode', SETTINGS, calls('cdn/Routing/Settings', `addJsonPatch at ${other}`), contributes('fields', 'cdn/Routing/Team/Mode'))],
      [],
      [['data.level', `cdn/Routing/Settings (addJsonPatch at ${at})`]],
      [],
      [['data.extra', `cdn/Routing/Settings (addJsonPatch at ${removes})`, `cdn/Routing/Settings (addJsonPatch at ${adds})`]],
    ],
  };
}

function plainOverride(): CaseResult {
  const { app, base, ops } = fixture();
  const bucket = new s3.Bucket(base, 'Bucket');
  new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } } });
  const at = siteOfNextLine();
  (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('AccelerateConfiguration.AccelerationStatus', 'Suspended');
  // a deletion of what an earlier plain override of the resource set: the resource's own override
  const layered = fixture();
  const cfn = new s3.Bucket(layered.base, 'Cors').node.defaultChild as s3.CfnBucket;
  const sets = siteOfNextLine();
  cfn.addOverride('Properties.CorsConfiguration', { Custom: 123, Bar: ['A', 'B'] });
  const deletes = siteOfNextLine();
  cfn.addPropertyDeletionOverride('CorsConfiguration.Bar');
  const removal = CapabilityTesting.synth(layered.app);
  return {
    actual: [messages(app), removal.violations, removal.plan?.ownership?.overrides],
    expected: [
      [conflict(`'cdn/Base/Bucket/Resource' (addPropertyOverride at ${at})`, "'cdn/Base/Ops/Accelerate'", 'AccelerateConfiguration.AccelerationStatus', 'AWS::S3::Bucket cdn/Base/Bucket/Resource', calls('cdn/Base/Bucket/Resource', `addPropertyOverride at ${at}`), contributes('fields', 'cdn/Base/Ops/Accelerate'))],
      [],
      [{
        object: 'AWS::S3::Bucket cdn/Base/Cors/Resource',
        field: 'CorsConfiguration.Bar',
        by: `cdn/Base/Cors/Resource (addPropertyDeletionOverride at ${deletes})`,
        over: `cdn/Base/Cors/Resource (addOverride at ${sets})`,
        rendered: ['A', 'B'],
      }],
    ],
  };
}

function tags(): CaseResult {
  const { app, base, ops } = fixture();
  new s3.CfnBucket(ops, 'Bucket', { tags: [{ key: 'team', value: 'payments' }] });
  const at = siteOfNextLine();
  Tags.of(base).add('team', 'obs');
  return { actual: messages(app), expected: [conflict(`'cdn/Base' (Tags.of().add at ${at})`, "'cdn/Base/Ops/Bucket'", 'Tags.team', 'AWS::S3::Bucket cdn/Base/Ops/Bucket', calls('cdn/Base', `Tags.of().add at ${at}`), declares('cdn/Base/Ops/Bucket'))] };
}

function mutatorsOutside(): CaseResult {
  const { app, routing, team } = fixture();
  const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'cdn' }, containers: [{ name: 'main', image: 'nginx' }] });
  web.metadata.addLabel('tier', 'web'); // another team's code, outside any Contribution
  web.containers[0].env.addVariable('MODE', kplus.EnvValue.fromValue('live'));
  new Contribution(team, 'Tier', { target: web, fields: { metadata: { labels: { tier: 'edge' } } } });
  return { actual: messages(app), expected: [conflict("'cdn/Routing/Team/Tier'", "'cdn/Routing/Web'", 'metadata.labels.tier', 'apps/Deployment cdn/web', contributes('fields', 'cdn/Routing/Team/Tier'), declares('cdn/Routing/Web'))] };
}

function aspects(): CaseResult {
  const { app, base, ops } = fixture();
  const role = new iam.Role(base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const boundary = siteOfNextLine();
  iam.PermissionsBoundary.of(base).apply(iam.ManagedPolicy.fromManagedPolicyArn(base, 'Boundary', 'arn:aws:iam::aws:policy/PowerUserAccess'));
  const bucket = new s3.Bucket(base, 'Bucket');
  const accelerate = siteOfNextLine();
  Aspects.of(base).add({
    visit: (c: IConstruct) => {
      if (c instanceof s3.CfnBucket) c.accelerateConfiguration = { accelerationStatus: 'Enabled' };
    },
  });
  new Contribution(ops, 'Boundary', { target: role, fields: { PermissionsBoundary: 'arn:aws:iam::aws:policy/ReadOnlyAccess' } });
  new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });
  const offResource = ', or keep the aspect off the resource (its visit skips it, or it is added to a scope that does not hold it).';
  return {
    actual: messages(app),
    expected: [
      conflict(`'cdn/Base' (Aspects.of().add at ${accelerate})`, "'cdn/Base/Ops/Accelerate'", 'AccelerateConfiguration.AccelerationStatus', 'AWS::S3::Bucket cdn/Base/Bucket/Resource', calls('cdn/Base', `Aspects.of().add at ${accelerate}`), contributes('fields', 'cdn/Base/Ops/Accelerate'))
        .replace(/\.$/, offResource),
      conflict(`'cdn/Base' (PermissionsBoundary.of().apply at ${boundary})`, "'cdn/Base/Ops/Boundary'", 'PermissionsBoundary', 'AWS::IAM::Role cdn/Base/Role/Resource', calls('cdn/Base', `PermissionsBoundary.of().apply at ${boundary}`), contributes('fields', 'cdn/Base/Ops/Boundary'))
        .replace(/\.$/, offResource),
    ],
  };
}

function lazyValues(): CaseResult {
  const { app, base, routing, team, ops } = fixture();
  new Contribution(team, 'Level', { target: settings(routing, { level: Lazy.any({ produce: () => 'info' }) }), fields: { data: { level: 'debug' } } });
  const bucket = new s3.CfnBucket(base, 'Bucket', { bucketName: CdkLazy.string({ produce: () => 'assets' }) });
  new Contribution(ops, 'Name', { target: bucket, fields: { BucketName: 'other' } });
  return {
    actual: messages(app),
    expected: [
      conflict("'cdn/Base/Bucket'", "'cdn/Base/Ops/Name'", 'BucketName', 'AWS::S3::Bucket cdn/Base/Bucket', declares('cdn/Base/Bucket'), contributes('fields', 'cdn/Base/Ops/Name')),
      conflict("'cdn/Routing/Settings'", "'cdn/Routing/Team/Level'", 'data.level', SETTINGS, declares('cdn/Routing/Settings'), contributes('fields', 'cdn/Routing/Team/Level')),
    ],
  };
}

function anotherCallbacksTarget(): CaseResult {
  // Owner labels Settings; Tier, whose target is Limits, relabels Settings' tier after it
  const { app, routing, team } = fixture();
  const target = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'cdn', labels: { tier: 'web' } } });
  const limits = new ApiObject(routing, 'Limits', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'cdn' } });
  new Contribution(team, 'Owner', { target, write: (t) => t.metadata.addLabel('owner', 'team') });
  new Contribution(team, 'Tier', { target: limits, write: () => target.metadata.addLabel('tier', 'batch') });
  return { actual: messages(app), expected: [conflict("'cdn/Routing/Settings'", "'cdn/Routing/Team/Tier'", 'metadata.labels.tier', SETTINGS, declares('cdn/Routing/Settings'), contributes('write callback', 'cdn/Routing/Team/Tier'))] };
}

/** Per row, its case (named functions: a call site inside one is `file:line` in the stack). */
const CASES: Record<string, () => CaseResult> = {
  '`new Contribution(scope, id, { target, fields })`': contributionFields,
  '`new Contribution(scope, id, { target, patches: [JsonPatch...] })`': contributionPatches,
  '`new Contribution(scope, id, { target, write: (t) => ... })`': contributionWrite,
  'a `grant*` in a write callback into a policy that exists (`data.grantRead(fn)` where `fn`\'s role has its `DefaultPolicy` already)': grantIntoPolicy,
  'statements a write callback adds to the policy it targets (`target: policy.node.defaultChild`, `write: () => policy.addStatements(...)`), or another callback grants into it':
    statementsIntoTargetPolicy,
  'a write callback\'s change to another callback\'s target (`write: () => other.metadata.addLabel(...)`, where `other` is another Contribution\'s target)':
    anotherCallbacksTarget,
  '`force: true` on a Contribution': forcedContribution,
  'plain `addJsonPatch`': plainJsonPatch,
  'plain `addOverride` / `addPropertyOverride`': plainOverride,
  '`Tags.of(scope).add(key, value)`': tags,
  'cdk8s-plus mutators outside a callback (`metadata.addLabel`, `env.addVariable`, `addContainer`)': mutatorsOutside,
  'aspects (`Aspects.of(scope).add`, aws-cdk\'s `PermissionsBoundary.of(scope).apply`)': aspects,
  '`Lazy` values': lazyValues,
};

describe("the README's table 'Who writes this field'", () => {
  test('has a case here for every row, and a row for every case', () => {
    expect(tableRows()).toEqual(Object.keys(CASES));
  });

  test.each(tableRows())('%s: the ledger names the writer the row says', (row) => {
    const run = CASES[row]; // called without a receiver, so a stack frame names the function, not the row
    const { actual, expected } = run();
    expect(actual).toEqual(expected);
  });
});
