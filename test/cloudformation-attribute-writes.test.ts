import * as path from 'path';
import { RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { Capability, CapabilityApp, Contribution, SharedBase } from '../src';

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
const DROP_ONE = 'Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride).';

describe('overrides of resource attributes outside Properties are writes', () => {
  test('two Contributions that set DeletionPolicy are CAP002 naming both', () => {
    // GIVEN (a user trial: the last one silently won)
    const { app, base, cfn } = bucket();
    new Contribution(base, 'Backup', { target: cfn, write: (r) => r.addOverride('DeletionPolicy', 'Retain') });
    new Contribution(base, 'Cleanup', { target: cfn, write: (r) => r.addOverride('DeletionPolicy', 'Delete') });

    // THEN
    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'shop/Base/Backup' and 'shop/Base/Cleanup' both write DeletionPolicy of AWS::S3::Bucket shop/Base/Bucket/Resource (resource attributes). ${DROP_ONE}`,
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
      `CAP002 field conflict: 'shop/Base/Bucket/Resource' (addOverride at ${at}) and 'shop/Base/Team' both write VersioningConfiguration.Status of AWS::S3::Bucket shop/Base/Bucket/Resource. ${DROP_ONE}`,
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
