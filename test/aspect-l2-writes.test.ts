/**
 * An aspect that visits an L2 construct or a stack and writes the CloudFormation resources under it (the common
 * idiom `if (node instanceof s3.Bucket) (node.node.defaultChild as s3.CfnBucket).x = ...`) is the writer of what it
 * changed, exactly as one that visits the resource itself: not the resource's declarer, whose props say nothing of it.
 * A visit of a stack or a stage is not watched (README, "Who writes this field"): each of its resources is visited itself.
 */
import { Aspects, CfnResource, IAspect, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, IConstruct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, contributes } from './write-fixtures';
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

/** The idiom: checks for the L2 and writes its L1 through a setter. */
class AccelerateBuckets implements IAspect {
  constructor(private readonly status: string) {}
  public visit(node: IConstruct): void {
    if (node instanceof s3.Bucket) (node.node.defaultChild as s3.CfnBucket).accelerateConfiguration = { accelerationStatus: this.status };
  }
}

const conflict = (a: string, b: string, field: string, object: string, ...ways: string[]) =>
  `field conflict: ${a} and ${b} both write ${field} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}), `
  + 'or keep the aspect off the resource (its visit skips it, or it is added to a scope that does not hold it).';
const messages = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

/** Each write of the resource labelled `label` in the ledger: its writer's name and its field. */
function writesOf(app: CapabilityApp, label: string): string[][] {
  const object = app.synthesize().facts!.ledger.objects.find((o) => o.label === label);
  return (object?.writes ?? []).map((w) => [writerName(w.writer), formatPath(w.path)]).sort((a, b) => a.join().localeCompare(b.join()));
}

describe('an aspect that visits an L2 and writes its defaultChild through an L1 setter', () => {
  test('and a Contribution that writes the same property conflict, the aspect named by its call, not the bucket', () => {
    // GIVEN a bucket whose props say nothing of acceleration, and a Contribution that suspends it
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    new Contribution(ops, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });

    // WHEN an aspect enables it on every s3.Bucket
    const at = siteOfNextLine();
    Aspects.of(base).add(new AccelerateBuckets('Enabled'));

    // THEN the conflict names the aspect and its call, and the fix for an aspect
    expect(messages(app)).toEqual([
      `CAP002 ${conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Accelerate'", 'AccelerateConfiguration.AccelerationStatus', BUCKET, calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('fields', 'cdn/Base/Ops/Accelerate'))}`,
    ]);
  });

  test('is the writer in the ledger; the declarer writes only what its props set', () => {
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });
    const at = siteOfNextLine();
    Aspects.of(base).add(new AccelerateBuckets('Enabled'));
    expect(writesOf(app, BUCKET)).toEqual([
      [`cdn/Base (Aspects.of().add at ${at})`, 'AccelerateConfiguration.AccelerationStatus'],
      ['cdn/Base/Bucket', 'BucketName'],
    ]);
  });

  test("over the value the bucket's own props set is the app's override, shown in the plan", () => {
    const { app, base } = fixture();
    new s3.Bucket(base, 'Bucket', { versioned: true });
    const at = siteOfNextLine();
    Aspects.of(base).add({
      visit: (node: IConstruct) => {
        if (node instanceof s3.Bucket) (node.node.defaultChild as s3.CfnBucket).versioningConfiguration = { status: 'Suspended' };
      },
    });
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan?.ownership?.overrides).toEqual([{
      object: BUCKET,
      field: 'VersioningConfiguration.Status',
      by: `cdn/Base (Aspects.of().add at ${at})`,
      rendered: 'Enabled',
      patched: 'Suspended',
    }]);
  });

  test("the L2's applyRemovalPolicy from a visit and a Contribution's conflict, the aspect named", () => {
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    new Contribution(ops, 'Backup', { target: bucket, write: (b) => b.applyRemovalPolicy(RemovalPolicy.RETAIN) });
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (node: IConstruct) => { if (node instanceof s3.Bucket) node.applyRemovalPolicy(RemovalPolicy.DESTROY); } });
    expect(messages(app)).toEqual([
      `CAP002 ${conflict(`'cdn/Base' (Aspects.of().add at ${at})`, "'cdn/Base/Ops/Backup'", 'DeletionPolicy, UpdateReplacePolicy', `${BUCKET} (resource attributes)`, calls('cdn/Base', `Aspects.of().add at ${at}`), contributes('write callback', 'cdn/Base/Ops/Backup'))}`,
    ]);
  });
});

describe('an aspect that visits a construct grouping resources and writes the resources under it', () => {
  test('is the writer of each property it set, in each resource', () => {
    // GIVEN two buckets under one plain construct of the base
    const { app, base, ops } = fixture();
    new s3.Bucket(ops, 'Bucket');
    new s3.Bucket(ops, 'Logs');

    // WHEN an aspect visiting that construct sets a property of every bucket under it
    const at = siteOfNextLine();
    Aspects.of(base).add({
      visit: (node: IConstruct) => {
        if (node !== ops) return;
        for (const c of node.node.findAll()) if (c instanceof s3.CfnBucket) c.objectLockEnabled = true;
      },
    });

    // THEN each bucket's property is the aspect's, once
    const writer = `cdn/Base (Aspects.of().add at ${at})`;
    expect(writesOf(app, 'AWS::S3::Bucket cdn/Base/Ops/Bucket/Resource')).toEqual([[writer, 'ObjectLockEnabled']]);
    expect(writesOf(app, 'AWS::S3::Bucket cdn/Base/Ops/Logs/Resource')).toEqual([[writer, 'ObjectLockEnabled']]);
  });

  test('that changes nothing writes nothing, and the declarer keeps what it declared', () => {
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });
    new Contribution(base, 'Versioning', { target: bucket, fields: { VersioningConfiguration: { Status: 'Enabled' } } });
    Aspects.of(base).add({
      visit: (node: IConstruct) => { for (const c of node.node.findAll()) if (CfnResource.isCfnResource(c)) void c.logicalId; },
    });
    expect(writesOf(app, BUCKET)).toEqual([['cdn/Base/Bucket', 'BucketName'], ['cdn/Base/Versioning', 'VersioningConfiguration.Status']]);
    expect(messages(app)).toEqual([]);
  });
});
