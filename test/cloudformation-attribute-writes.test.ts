import * as path from 'path';
import { Aspects, CfnCondition, CfnDeletionPolicy, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, SharedBase } from '../src';

afterAll(removeTempDirs);

/** A bucket in the shared base of capability `shop`, and its CfnBucket. */
function bucket(props: s3.BucketProps = {}) {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const base = new SharedBase(new Capability(app, 'shop'), 'Base');
  const l2 = new s3.Bucket(base, 'Bucket', props);
  return { app, base, cfn: l2.node.defaultChild as s3.CfnBucket };
}

const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
const KEEP_ONE = "Give each field one owner: keep one of these calls on 'shop/Base/Bucket/Resource' (each replaces the value of the one before it), and write what another team needs with a Contribution.";
/** CAP002's fix for two writers, with how each wrote the fields. */
const dropOne = (...ways: string[]) => `Give each field one owner: drop it from one of them (${ways.join('; ')}).`;

describe('overrides of resource attributes outside Properties are writes', () => {
  test('two Contributions that set DeletionPolicy are CAP002 naming both', () => {
    // GIVEN (a user trial: the last one silently won)
    const { app, base, cfn } = bucket();
    new Contribution(base, 'Backup', { target: cfn, write: (r) => r.addOverride('DeletionPolicy', 'Retain') });
    new Contribution(base, 'Cleanup', { target: cfn, write: (r) => r.addOverride('DeletionPolicy', 'Delete') });

    // THEN
    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'shop/Base/Backup' and 'shop/Base/Cleanup' both write DeletionPolicy of AWS::S3::Bucket shop/Base/Bucket/Resource (resource attributes). ${dropOne(contributes('write callback', 'shop/Base/Backup', 'shop/Base/Cleanup'))}`,
    ]);
  });

  test('two plain calls of one Metadata key are CAP002 naming both calls', () => {
    const { app, cfn } = bucket();
    const first = siteOfNextLine();
    cfn.addOverride('Metadata.Owner', 'team-a');
    const second = siteOfNextLine();
    cfn.addOverride('Metadata.Owner', 'team-b');

    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'shop/Base/Bucket/Resource' (addOverride at ${first}) and 'shop/Base/Bucket/Resource' (addOverride at ${second}) both write ` +
        `Metadata.Owner of AWS::S3::Bucket shop/Base/Bucket/Resource (resource attributes). ${KEEP_ONE}`,
    ]);
  });

  test('attributes that no two calls share, and a plain override of the removal policy the L2 set, are accepted', () => {
    // GIVEN
    const { app, base, cfn } = bucket({ removalPolicy: RemovalPolicy.RETAIN });
    cfn.addOverride('DeletionPolicy', 'Delete');
    cfn.addOverride('Metadata.Owner', 'team-a');
    new Contribution(base, 'Docs', { target: cfn, write: (r) => r.addOverride('Metadata.Runbook', 'https://runbooks.example.com/bucket') });

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations).toEqual([]);
  });
});

describe('an override that replaces what another writer overrode below it', () => {
  test('addOverride(\'Properties\', ...) after a Contribution\'s field is CAP002 naming both, not a lost field', () => {
    // GIVEN (a user trial: the Contribution's VersioningConfiguration was silently dropped)
    const { app, base, cfn } = bucket();
    new Contribution(base, 'Team', { target: cfn, fields: { VersioningConfiguration: { Status: 'Enabled' } } });
    const at = siteOfNextLine();
    cfn.addOverride('Properties', { BucketName: 'abc' });

    // THEN
    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'shop/Base/Bucket/Resource' (addOverride at ${at}) replaces the whole Properties of AWS::S3::Bucket shop/Base/Bucket/Resource, which drops VersioningConfiguration.Status, written by 'shop/Base/Team'. ` +
        'Give each field one owner: override each property by its own path (addPropertyOverride) instead of the whole Properties, or leave them to one writer ' +
        `('shop/Base/Team' writes VersioningConfiguration.Status as a Contribution, in its fields; 'shop/Base/Bucket/Resource' sets the whole Properties through addOverride at ${at}).`,
    ]);
  });

  test('the same two writes in the other order keep both fields and are accepted', () => {
    const { app, base, cfn } = bucket();
    cfn.addOverride('Properties', { BucketName: 'abc' });
    new Contribution(base, 'Team', { target: cfn, fields: { VersioningConfiguration: { Status: 'Enabled' } } });
    expect(messages(app)).toEqual([]);
  });

  test('an override of a map after another call wrote below it is CAP002 on the dropped leaf', () => {
    const { app, cfn } = bucket();
    const first = siteOfNextLine();
    cfn.addPropertyOverride('AccelerateConfiguration.AccelerationStatus', 'Enabled');
    const second = siteOfNextLine();
    cfn.addPropertyOverride('AccelerateConfiguration', {});

    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'shop/Base/Bucket/Resource' (addPropertyOverride at ${first}) and 'shop/Base/Bucket/Resource' (addPropertyOverride at ${second}) both write ` +
        `AccelerateConfiguration, AccelerateConfiguration.AccelerationStatus of AWS::S3::Bucket shop/Base/Bucket/Resource. ${KEEP_ONE}`,
    ]);
  });
});

describe('resource attributes written through aws-cdk\'s API (applyRemovalPolicy, cfnOptions) are writes', () => {
  /** A shared base of capability `shop` in a test app. */
  function shop() {
    const app = CapabilityTesting.app();
    return { app, base: new SharedBase(new Capability(app, 'shop'), 'Base') };
  }
  const conflict = (writers: string, fields: string, resource: string, ...ways: string[]) =>
    `CAP002 field conflict: ${writers} both write ${fields} of AWS::S3::Bucket ${resource} (resource attributes). ${dropOne(...ways)}`;
  const violationsOf = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

  test('a Contribution\'s applyRemovalPolicy over the removal policy its declarer set is CAP002, not a lost RETAIN', () => {
    // GIVEN (a user trial: the declarer's RETAIN was silently replaced by DESTROY)
    const { app, base } = shop();
    const logs = new s3.Bucket(base, 'Logs', { removalPolicy: RemovalPolicy.RETAIN });

    // WHEN
    new Contribution(base, 'Cleanup', { target: logs, write: (b) => b.applyRemovalPolicy(RemovalPolicy.DESTROY) });

    // THEN
    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/Cleanup' and 'shop/Base/Logs'", 'DeletionPolicy, UpdateReplacePolicy', 'shop/Base/Logs/Resource', contributes('write callback', 'shop/Base/Cleanup'), declares('shop/Base/Logs')),
    ]);
  });

  test('two Contributions\' applyRemovalPolicy on a bucket with aws-cdk\'s default policy are CAP002 naming both', () => {
    const { app, base } = shop();
    const data = new s3.Bucket(base, 'Data');
    new Contribution(base, 'Backup', { target: data, write: (b) => b.applyRemovalPolicy(RemovalPolicy.RETAIN) });
    new Contribution(base, 'Scrub', { target: data, write: (b) => b.applyRemovalPolicy(RemovalPolicy.DESTROY) });

    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/Backup' and 'shop/Base/Scrub'", 'DeletionPolicy, UpdateReplacePolicy', 'shop/Base/Data/Resource', contributes('write callback', 'shop/Base/Backup', 'shop/Base/Scrub')),
    ]);
  });

  test('two Contributions that set cfnOptions.deletionPolicy are CAP002, even when one sets the value it had', () => {
    const { app, base } = shop();
    const tmp = new s3.Bucket(base, 'Tmp').node.defaultChild as s3.CfnBucket;
    new Contribution(base, 'KeepTmp', { target: tmp, write: (r) => { r.cfnOptions.deletionPolicy = CfnDeletionPolicy.RETAIN; } });
    new Contribution(base, 'DropTmp', { target: tmp, write: (r) => { r.cfnOptions.deletionPolicy = CfnDeletionPolicy.DELETE; } });

    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/DropTmp' and 'shop/Base/KeepTmp'", 'DeletionPolicy', 'shop/Base/Tmp/Resource', contributes('write callback', 'shop/Base/DropTmp', 'shop/Base/KeepTmp')),
    ]);
  });

  test('a Contribution\'s applyRemovalPolicy against the declarer\'s own later plain applyRemovalPolicy is CAP002', () => {
    const { app, base } = shop();
    const data = new s3.Bucket(base, 'Data');
    new Contribution(base, 'Backup', { target: data, write: (b) => b.applyRemovalPolicy(RemovalPolicy.RETAIN) });
    data.applyRemovalPolicy(RemovalPolicy.DESTROY);

    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/Backup' and 'shop/Base/Data'", 'DeletionPolicy, UpdateReplacePolicy', 'shop/Base/Data/Resource', contributes('write callback', 'shop/Base/Backup'), declares('shop/Base/Data')),
    ]);
  });

  test('a Contribution\'s addOverride of DeletionPolicy against a plain applyRemovalPolicy is CAP002', () => {
    const { app, base } = shop();
    const data = new s3.Bucket(base, 'Data');
    data.applyRemovalPolicy(RemovalPolicy.DESTROY);
    new Contribution(base, 'Backup', { target: data, write: (b) => (b.node.defaultChild as s3.CfnBucket).addOverride('DeletionPolicy', 'Retain') });

    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/Backup' and 'shop/Base/Data'", 'DeletionPolicy', 'shop/Base/Data/Resource', contributes('write callback', 'shop/Base/Backup'), declares('shop/Base/Data')),
    ]);
  });

  test('an Aspect\'s applyRemovalPolicy against a Contribution\'s is CAP002 naming the aspect by its call', () => {
    const { app, base } = shop();
    const data = new s3.Bucket(base, 'Data');
    new Contribution(base, 'Backup', { target: data, write: (b) => b.applyRemovalPolicy(RemovalPolicy.RETAIN) });
    const at = siteOfNextLine();
    Aspects.of(base).add({ visit: (c) => { if (c instanceof s3.CfnBucket) c.applyRemovalPolicy(RemovalPolicy.DESTROY); } });

    expect(violationsOf(app)).toEqual([
      `CAP002 field conflict: 'shop/Base' (Aspects.of().add at ${at}) and 'shop/Base/Backup' both write DeletionPolicy, UpdateReplacePolicy of AWS::S3::Bucket shop/Base/Data/Resource (resource attributes). `
      + `Give each field one owner: drop it from one of them (${calls('shop/Base', `Aspects.of().add at ${at}`)}; ${contributes('write callback', 'shop/Base/Backup')}), `
      + 'or keep the aspect off the resource (its visit skips it, or it is added to a scope that does not hold it).',
    ]);
  });

  test('a Contribution\'s cfnOptions.metadata against a plain addOverride of a key in it is CAP002', () => {
    const { app, base } = shop();
    const cfn = new s3.Bucket(base, 'Data').node.defaultChild as s3.CfnBucket;
    new Contribution(base, 'Docs', { target: cfn, write: (r) => { r.cfnOptions.metadata = { a: 1 }; } });
    const at = siteOfNextLine();
    cfn.addOverride('Metadata.a', 2);

    expect(violationsOf(app)).toEqual([
      conflict(`'shop/Base/Data/Resource' (addOverride at ${at}) and 'shop/Base/Docs'`, 'Metadata.a', 'shop/Base/Data/Resource', calls('shop/Base/Data/Resource', `addOverride at ${at}`), contributes('write callback', 'shop/Base/Docs')),
    ]);
  });

  test('a Contribution\'s cfnOptions.condition against the condition set outside it is CAP002', () => {
    const { app, base } = shop();
    const stack = Stack.of(base);
    const cfn = new s3.Bucket(base, 'Data').node.defaultChild as s3.CfnBucket;
    cfn.cfnOptions.condition = new CfnCondition(stack, 'Prod', { expression: Fn.conditionEquals('a', 'a') });
    const staging = new CfnCondition(stack, 'Staging', { expression: Fn.conditionEquals('a', 'b') });
    new Contribution(base, 'Env', { target: cfn, write: (r) => { r.cfnOptions.condition = staging; } });

    expect(violationsOf(app)).toEqual([
      conflict("'shop/Base/Data' and 'shop/Base/Env'", 'Condition', 'shop/Base/Data/Resource', declares('shop/Base/Data'), contributes('write callback', 'shop/Base/Env')),
    ]);
  });

  test('a Contribution that sets an attribute no one else writes is accepted and rendered', () => {
    const { app, base } = shop();
    const data = new s3.Bucket(base, 'Data');
    new Contribution(base, 'Docs', { target: data, write: (b) => (b.node.defaultChild as s3.CfnBucket).addMetadata('runbook', 'https://runbooks.example.com') });

    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['shop/Base']).hasResource('AWS::S3::Bucket', { Metadata: { runbook: 'https://runbooks.example.com' } });
  });
});
