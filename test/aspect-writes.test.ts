/**
 * What a program's aspect writes in a CloudFormation resource is the aspect's, named by the scope it was added to
 * and its call, not the resource's declarer's: over the declarer's own value it is the app's override, shown in the
 * plan; with another writer of the same leaf (a Contribution, another aspect) it is a field conflict naming both.
 */
import { AspectPriority, Aspects, CfnResource, IAspect, RemovalPolicies, RemovalPolicy, Tags } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, IConstruct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, SharedBase } from '../src';
import { formatPath } from '../src/collect/ledger/field-path';
import { writerName } from '../src/collect/ledger/writer';

const BUCKET = 'AWS::S3::Bucket cdn/Base/Bucket/Resource';

function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  return { app, base, ops: new Construct(base, 'Ops') };
}

/** Sets `accelerateConfiguration` on every `CfnBucket` it visits. */
class Accelerate implements IAspect {
  constructor(private readonly status: string) {}
  public visit(node: IConstruct): void {
    if (node instanceof s3.CfnBucket) node.accelerateConfiguration = { accelerationStatus: this.status };
  }
}

const conflict = (a: string, b: string, field: string, object: string, ways: string[], fix = ', or keep the aspect off the resource (its visit skips it, or it is added to a scope that does not hold it)') =>
  `field conflict: ${a} and ${b} both write ${field} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')})${fix}.`;
const messages = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => v.message);

/** Each write of the resource labelled `label` in the ledger: its writer's name and its field. */
function writesOf(app: CapabilityApp, label: string): string[][] {
  const object = app.synthesize().facts!.ledger.objects.find((o) => o.label === label);
  return (object?.writes ?? []).map((w) => [writerName(w.writer), formatPath(w.path)]).sort((a, b) => a.join().localeCompare(b.join()));
}

describe('an aspect that sets a property', () => {
  test('and a Contribution that writes it conflict, the aspect named by its scope and call', () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const at = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'));
    new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Accelerate'", 'AccelerateConfiguration.AccelerationStatus', BUCKET, [calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('fields', 'cdn/Base/Ops/Accelerate')]),
    ]);
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.code, v.paths])).toEqual([['CAP002', ['cdn/Base', 'cdn/Base/Ops/Accelerate']]]);
  });

  test('is its writer in the ledger, and the declarer writes only what it declared', () => {
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });
    const at = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'));
    new Contribution(base, 'Versioning', { target: bucket, fields: { VersioningConfiguration: { Status: 'Enabled' } } });
    expect(writesOf(app, BUCKET)).toEqual([
      [`cdn/Base (Aspects.of().add at ${at})`, 'AccelerateConfiguration.AccelerationStatus'],
      ['cdn/Base/Bucket', 'BucketName'],
      ['cdn/Base/Versioning', 'VersioningConfiguration.Status'],
    ]);
    expect(messages(app)).toEqual([]);
  });

  test("over the declarer's own value is the app's override, shown in the plan, not a conflict", () => {
    const { app, base } = fixture();
    new s3.CfnBucket(base, 'Bucket', { accelerateConfiguration: { accelerationStatus: 'Suspended' } });
    const at = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'));
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides).toEqual([{
      object: 'AWS::S3::Bucket cdn/Base/Bucket',
      field: 'AccelerateConfiguration.AccelerationStatus',
      by: `cdn/Base (Aspects.of().add at ${at})`,
      rendered: 'Suspended',
      patched: 'Enabled',
    }]);
  });

  test('and another aspect that sets it to another value conflict, each named by its call', () => {
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket');
    const first = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'));
    const second = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Suspended'));
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${first})`, `'cdn/Base' (Aspects.of().add at ${second})`, 'AccelerateConfiguration.AccelerationStatus', BUCKET,
        [calls('cdn/Base', `Aspects.of().add at ${first}`), calls('cdn/Base', `Aspects.of().add at ${second}`)],
        ', or keep all aspects but one off the resource (their visit skips it, or they are added to a scope that does not hold it)'),
    ]);
  });

  test("that removes the declarer's value is an override too, and one that sets nothing new writes nothing", () => {
    const { app, base } = fixture();
    new s3.CfnBucket(base, 'Bucket', { bucketName: 'assets', accelerateConfiguration: { accelerationStatus: 'Enabled' } });
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (c: IConstruct) => { if (c instanceof s3.CfnBucket) c.bucketName = undefined; } });
    Aspects.of(base).add(new Accelerate('Enabled'));
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides).toEqual([{ object: 'AWS::S3::Bucket cdn/Base/Bucket', field: 'BucketName', by: `cdn/Base (Aspects.of().add at ${at})`, rendered: 'assets' }]);
  });
});

describe('two aspects that set one property at different priorities', () => {
  test('are a handover to the one aws-cdk runs later (the higher priority), shown in the plan, not a conflict', () => {
    // GIVEN a bucket, and an aspect at MUTATING priority (200) that enables acceleration
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket');
    const first = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'), { priority: AspectPriority.MUTATING });

    // WHEN an aspect at the default priority (500), which aws-cdk runs after it, suspends it
    const second = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Suspended'));
    const result = CapabilityTesting.synth(app);

    // THEN the template has the later value, the plan hands the leaf over, and only that aspect writes it
    expect(result.violations).toEqual([]);
    const bucket = Object.values<any>(result.templates['cdn/Base'].Resources).find((r) => r.Type === 'AWS::S3::Bucket');
    expect(bucket.Properties.AccelerateConfiguration).toEqual({ AccelerationStatus: 'Suspended' });
    expect(result.plan?.ownership?.handovers).toEqual([{
      object: BUCKET,
      field: 'AccelerateConfiguration.AccelerationStatus',
      from: `cdn/Base (Aspects.of().add at ${first})`,
      to: `cdn/Base (Aspects.of().add at ${second})`,
      reason: 'aspect-priority',
    }]);
    expect(writesOf(app, BUCKET)).toEqual([[`cdn/Base (Aspects.of().add at ${second})`, 'AccelerateConfiguration.AccelerationStatus']]);
  });

  test("over the declarer's value are its override by the first and a handover to the second", () => {
    // GIVEN a bucket that suspends acceleration in its own props
    const { app, base } = fixture();
    new s3.CfnBucket(base, 'Bucket', { accelerateConfiguration: { accelerationStatus: 'Suspended' } });

    // WHEN the app's aspect at priority 700 removes it after one at the default priority enabled it, added nearer the bucket
    const removes = siteOfNextLine();
    Aspects.of(app).add({ visit: (c: IConstruct) => { if (c instanceof s3.CfnBucket) c.accelerateConfiguration = undefined; } }, { priority: 700 });
    const enables = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'));
    const result = CapabilityTesting.synth(app);

    // THEN the plan shows the override of the declared value and the handover of it to the later aspect, which removes it
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides).toEqual([{
      object: 'AWS::S3::Bucket cdn/Base/Bucket',
      field: 'AccelerateConfiguration.AccelerationStatus',
      by: `cdn/Base (Aspects.of().add at ${enables})`,
      rendered: 'Suspended',
      patched: 'Enabled',
    }]);
    expect(result.plan?.ownership?.handovers).toEqual([{
      object: 'AWS::S3::Bucket cdn/Base/Bucket',
      field: 'AccelerateConfiguration.AccelerationStatus',
      from: `cdn/Base (Aspects.of().add at ${enables})`,
      to: `the app (Aspects.of().add at ${removes})`,
      reason: 'aspect-priority',
    }]);
  });

  test('at one explicit priority still conflict, each named by its call', () => {
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket');
    const first = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'), { priority: AspectPriority.MUTATING });
    const second = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Suspended'), { priority: AspectPriority.MUTATING });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${first})`, `'cdn/Base' (Aspects.of().add at ${second})`, 'AccelerateConfiguration.AccelerationStatus', BUCKET,
        [calls('cdn/Base', `Aspects.of().add at ${first}`), calls('cdn/Base', `Aspects.of().add at ${second}`)],
        ', or keep all aspects but one off the resource (their visit skips it, or they are added to a scope that does not hold it)'),
    ]);
  });

  test('and a Contribution that writes it all conflict, whatever their priorities', () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const first = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Enabled'), { priority: AspectPriority.MUTATING });
    const second = siteOfNextLine();
    Aspects.of(base).add(new Accelerate('Suspended'), { priority: AspectPriority.READONLY });
    new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${first})`, `'cdn/Base' (Aspects.of().add at ${second})`, 'AccelerateConfiguration.AccelerationStatus', BUCKET,
        [calls('cdn/Base', `Aspects.of().add at ${first}`), calls('cdn/Base', `Aspects.of().add at ${second}`), contributes('fields', 'cdn/Base/Ops/Accelerate')],
        ', or keep all aspects but one off the resource (their visit skips it, or they are added to a scope that does not hold it)')
        .replace(' and ', ', ').replace(' both write', " and 'cdn/Base/Ops/Accelerate' all write").replace('from one of them', 'from all of them but one'),
    ]);
  });
});

describe("an aspect that changes a resource's attributes (removal policy, metadata)", () => {
  const ATTRIBUTES = `${BUCKET} (resource attributes)`;

  test("over the removal policy the bucket's props set is the app's override, shown in the plan", () => {
    // GIVEN a bucket its declarer retains
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket', { removalPolicy: RemovalPolicy.RETAIN });

    // WHEN the app's policy destroys every resource of the base
    const at = siteOfNextLine();
    RemovalPolicies.of(base).destroy();
    const result = CapabilityTesting.synth(app);

    // THEN the plan shows each removal attribute taken by the policy, from Retain to Delete
    expect(result.violations).toEqual([]);
    const by = `cdn/Base (RemovalPolicies.of().apply at ${at})`;
    expect(result.plan?.ownership?.overrides).toEqual([
      { object: ATTRIBUTES, field: 'DeletionPolicy', by, rendered: 'Retain', patched: 'Delete' },
      { object: ATTRIBUTES, field: 'UpdateReplacePolicy', by, rendered: 'Retain', patched: 'Delete' },
    ]);
  });

  test("over aws-cdk's default removal policy writes it, no override, and the declarer writes nothing there", () => {
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket');
    const at = siteOfNextLine();
    RemovalPolicies.of(base).destroy();
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides ?? []).toEqual([]);
    expect(writesOf(app, ATTRIBUTES)).toEqual([
      [`cdn/Base (RemovalPolicies.of().apply at ${at})`, 'DeletionPolicy'],
      [`cdn/Base (RemovalPolicies.of().apply at ${at})`, 'UpdateReplacePolicy'],
    ]);
  });

  test("and a Contribution's applyRemovalPolicy conflict, the aspect named by its call", () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    new Contribution(ops, 'Backup', { target: bucket, write: (b) => b.applyRemovalPolicy(RemovalPolicy.RETAIN) });
    const at = siteOfNextLine();
    RemovalPolicies.of(base).destroy();
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (RemovalPolicies.of().apply at ${at})`, "'cdn/Base/Ops/Backup'", 'DeletionPolicy, UpdateReplacePolicy', ATTRIBUTES, [calls('cdn/Base', `RemovalPolicies.of().apply at ${at}`), contributes('write callback', 'cdn/Base/Ops/Backup')]),
    ]);
  });

  test("and a Contribution's metadata key conflict on that key alone", () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    new Contribution(ops, 'Docs', { target: bucket, write: (b) => (b.node.defaultChild as s3.CfnBucket).addMetadata('Owner', 'storage') });
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (c: IConstruct) => { if (CfnResource.isCfnResource(c)) c.addMetadata('Owner', 'platform'); } });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Docs'", 'Metadata.Owner', ATTRIBUTES, [calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('write callback', 'cdn/Base/Ops/Docs')]),
    ]);
  });

  test('at a higher priority than another removal policy takes it, a handover shown in the plan', () => {
    // GIVEN a bucket aws-cdk retains by default; WHEN a policy at MUTATING destroys it and one at the default priority retains it
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket');
    const first = siteOfNextLine();
    RemovalPolicies.of(base).destroy({ priority: AspectPriority.MUTATING });
    const second = siteOfNextLine();
    RemovalPolicies.of(base).retain();
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const from = `cdn/Base (RemovalPolicies.of().apply at ${first})`;
    const to = `cdn/Base (RemovalPolicies.of().apply at ${second})`;
    expect(result.plan?.ownership?.handovers).toEqual([
      { object: ATTRIBUTES, field: 'DeletionPolicy', from, to, reason: 'aspect-priority' },
      { object: ATTRIBUTES, field: 'UpdateReplacePolicy', from, to, reason: 'aspect-priority' },
    ]);
  });
});

describe("an aspect's override call", () => {
  test('and a Contribution that writes the leaf conflict, the aspect named by its scope and call', () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (c: IConstruct) => { if (CfnResource.isCfnResource(c)) c.addPropertyOverride('AccelerateConfiguration.AccelerationStatus', 'Enabled'); } });
    new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Accelerate'", 'AccelerateConfiguration.AccelerationStatus', BUCKET, [calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('fields', 'cdn/Base/Ops/Accelerate')]),
    ]);
  });
});

describe('an aspect that writes a resource other than the one it visits', () => {
  test("through an override call is that resource's writer: with a Contribution there, CAP002 naming the aspect", () => {
    // GIVEN a bucket with a policy, which a Contribution gives a PolicyDocument version
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    bucket.addToResourcePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('*')], principals: [new iam.AnyPrincipal()] }));
    new Contribution(ops, 'Version', { target: bucket.policy!.node.defaultChild as CfnResource, fields: { PolicyDocument: { Version: '2008-10-17' } } });

    // WHEN an aspect, visiting the bucket, overrides its policy's version
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (c: IConstruct) => { if (c instanceof s3.Bucket) (c.policy!.node.defaultChild as CfnResource).addPropertyOverride('PolicyDocument.Version', '2012-10-17'); } });

    // THEN the policy's version has two writers, the aspect named by its call
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Version'", 'PolicyDocument.Version', 'AWS::S3::BucketPolicy cdn/Base/Bucket/Policy/Resource', [calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('fields', 'cdn/Base/Ops/Version')]),
    ]);
  });
});

describe("aws-cdk's PermissionsBoundary", () => {
  test('and a Contribution that writes PermissionsBoundary conflict, naming the apply call', () => {
    const { app, base, ops } = fixture();
    const role = new iam.Role(base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const at = siteOfNextLine();
    iam.PermissionsBoundary.of(base).apply(iam.ManagedPolicy.fromManagedPolicyArn(base, 'Boundary', 'arn:aws:iam::aws:policy/PowerUserAccess'));
    new Contribution(ops, 'Boundary', { target: role, fields: { PermissionsBoundary: 'arn:aws:iam::aws:policy/ReadOnlyAccess' } });
    expect(messages(app)).toEqual([
      conflict(`'cdn/Base' (PermissionsBoundary.of().apply at ${at})`, "'cdn/Base/Ops/Boundary'", 'PermissionsBoundary', 'AWS::IAM::Role cdn/Base/Role/Resource', [calls('cdn/Base', `PermissionsBoundary.of().apply at ${at}`), contributes('fields', 'cdn/Base/Ops/Boundary')]),
    ]);
  });

  test("over the role's own boundary is the app's override, shown in the plan", () => {
    const { app, base } = fixture();
    new iam.Role(base, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      permissionsBoundary: iam.ManagedPolicy.fromManagedPolicyArn(base, 'Own', 'arn:aws:iam::aws:policy/ReadOnlyAccess'),
    });
    const at = siteOfNextLine();
    iam.PermissionsBoundary.of(base).apply(iam.ManagedPolicy.fromManagedPolicyArn(base, 'Boundary', 'arn:aws:iam::aws:policy/PowerUserAccess'));
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides).toEqual([{
      object: 'AWS::IAM::Role cdn/Base/Role/Resource',
      field: 'PermissionsBoundary',
      by: `cdn/Base (PermissionsBoundary.of().apply at ${at})`,
      rendered: 'arn:aws:iam::aws:policy/ReadOnlyAccess',
      patched: 'arn:aws:iam::aws:policy/PowerUserAccess',
    }]);
  });
});

test('Tags stay the writers of their keys, as tag-writes names them', () => {
  const { app, base } = fixture();
  new s3.CfnBucket(base, 'Bucket', { tags: [{ key: 'team', value: 'payments' }] });
  const at = siteOfNextLine();
  Tags.of(base).add('team', 'obs');
  expect(messages(app)).toEqual([
    `field conflict: 'cdn/Base' (Tags.of().add at ${at}) and 'cdn/Base/Bucket' both write Tags.team of AWS::S3::Bucket cdn/Base/Bucket. `
    + `Give each field one owner: drop it from one of them (${calls('cdn/Base', `Tags.of().add at ${at}`)}; ${declares('cdn/Base/Bucket')}).`,
  ]);
});

test("an aspect of the app above the capability is the app's, named so, with no empty construct path", () => {
  // GIVEN a bucket in the shared base
  const { app, base, ops } = fixture();
  const bucket = new s3.Bucket(base, 'Bucket');

  // WHEN an aspect of the app and a Contribution write its acceleration status
  const at = siteOfNextLine();
  Aspects.of(app).add(new Accelerate('Enabled'));
  new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });

  // THEN CAP002 names the app's aspect by its call; the violation's paths hold the Contribution's alone (the app has no path)
  const { violations } = CapabilityTesting.synth(app);
  expect(violations.map((v) => [v.message, v.paths])).toEqual([[
    conflict("'cdn/Base/Ops/Accelerate'", `the app (Aspects.of().add at ${at})`, 'AccelerateConfiguration.AccelerationStatus', BUCKET, [contributes('fields', 'cdn/Base/Ops/Accelerate'), calls('', `Aspects.of().add at ${at}`)]),
    ['cdn/Base/Ops/Accelerate'],
  ]]);
});

test('an aspect that changes nothing writes nothing', () => {
  const { app, base } = fixture();
  new s3.CfnBucket(base, 'Bucket', { bucketName: 'assets' });
  Aspects.of(base).add({ visit: () => undefined });
  expect(writesOf(app, 'AWS::S3::Bucket cdn/Base/Bucket')).toEqual([]);
  expect(messages(app)).toEqual([]);
});
