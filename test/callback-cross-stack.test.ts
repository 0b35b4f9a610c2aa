import { Aspects, IAspect } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { IConstruct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, DeploymentAggregate, SharedBase } from '../src';
import { withImportsAt, withImportsOf } from '../src/collect/ledger/cross-stack-imports';

/** A shared base with a log bucket, and a tenant bucket whose logging a Contribution's write callback sets to that bucket. */
function crossStackCallback() {
  const app = new CapabilityApp({ builtinCloudFormationValidation: false });
  const shop = new Capability(app, 'shop');
  const logs = new s3.Bucket(new SharedBase(shop, 'Base'), 'Logs');
  const acme = new DeploymentAggregate(shop, 'acme');
  const data = new s3.CfnBucket(acme, 'Data', { bucketName: 'acme-data' });
  new Contribution(acme, 'Logging', {
    target: data,
    write: (b: s3.CfnBucket) => {
      b.loggingConfiguration = { destinationBucketName: logs.bucketName, logFilePrefix: logs.bucketArn };
    },
  });
  return { app, data };
}

describe('a write callback that writes a reference to a resource of another stack', () => {
  test('is accepted: the template imports the value, and the ledger credits it to the Contribution, the rest to the declarer', () => {
    // GIVEN
    const { app } = crossStackCallback();

    // WHEN
    const result = CapabilityTesting.synth(app);
    const ledger = app.synthesize().facts!.ledger.objects.find((o) => o.label === 'AWS::S3::Bucket shop/acme/Data')!;

    // THEN no false conflict with the declarer (synthesis turned the reference into an import after the callback ran)
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['shop/acme']).hasResourceProperties('AWS::S3::Bucket', {
      BucketName: 'acme-data',
      LoggingConfiguration: {
        DestinationBucketName: { 'Fn::ImportValue': 'shop-Base:ExportsOutputRefLogs6819BB446A932AEA' },
        LogFilePrefix: { 'Fn::ImportValue': 'shop-Base:ExportsOutputFnGetAttLogs6819BB44Arn28BC796A' },
      },
    });
    expect(ledger.writes.map((w) => [w.writer.path, w.path.join('.')])).toEqual([
      ['shop/acme/Data', 'BucketName'],
      ['shop/acme/Logging', 'LoggingConfiguration.DestinationBucketName.Ref'],
      ['shop/acme/Logging', 'LoggingConfiguration.LogFilePrefix.Fn::GetAtt'],
    ]);
  });

  test('an aspect that writes the same field after the callback is still CAP002 (an aspect writes as the declarer)', () => {
    // GIVEN an aspect that points the logging elsewhere
    const { app, data } = crossStackCallback();
    const elsewhere: IAspect = {
      visit(node: IConstruct) {
        if (node === data) (node as s3.CfnBucket).addPropertyOverride('LoggingConfiguration.DestinationBucketName', 'audit-logs');
      },
    };
    Aspects.of(app.node.findChild('shop')).add(elsewhere);

    // WHEN
    const codes = CapabilityTesting.synth(app).violations.map((v) => v.code);

    // THEN
    expect(codes).toEqual(['CAP002']);
  });
});

describe('withImportsOf', () => {
  const ref = { Ref: 'Logs6819BB44' };
  const getAtt = { 'Fn::GetAtt': ['Logs6819BB44', 'Arn'] };
  const importOf = (local: string) => ({ 'Fn::ImportValue': `shop-Base:${local}` });

  test('takes the import aws-cdk names after the reference (Ref, Fn::GetAtt as a list or dotted), at any depth', () => {
    const before = { A: ref, B: [getAtt], C: { 'Fn::GetAtt': 'Logs6819BB44.Arn' }, D: 'x' };
    const after = {
      A: importOf('ExportsOutputRefLogs6819BB446A932AEA'),
      B: [importOf('ExportsOutputFnGetAttLogs6819BB44Arn28BC796A')],
      C: importOf('ExportsOutputFnGetAttLogs6819BB44Arn28BC796A'),
      D: 'y',
    };
    expect(withImportsOf(before, after)).toEqual({ ...after, D: 'x' });
  });

  test('leaves a reference whose place holds another import, or another value, as it is (and the same object when nothing changes)', () => {
    const before = { A: ref, B: getAtt, C: ref };
    const after = {
      A: importOf('ExportsOutputRefOther12345678ABCDEF01'),
      B: importOf('ExportsOutputFnGetAttLogs6819BB44DomainName28BC796A'),
      C: { Ref: 'Other' },
    };
    expect(withImportsOf(before, after)).toBe(before);
    expect(withImportsOf(before, { A: importOf('ExportsOutputRefLogs6819BB44') })).toBe(before); // no hash: not aws-cdk's name
  });
});

describe('withImportsAt', () => {
  const ref = { Ref: 'Logs6819BB44' };
  const imported = { 'Fn::ImportValue': 'shop-Base:ExportsOutputRefLogs6819BB446A932AEA' };

  test('takes the imports at the path only, and leaves references elsewhere as they are', () => {
    const before = { PolicyDocument: { Statement: [{ Resource: ref }] }, Bucket: ref };
    const after = { PolicyDocument: { Statement: [{ Resource: imported }, { Resource: '*' }] }, Bucket: imported };
    expect(withImportsAt(before, after, ['PolicyDocument', 'Statement'])).toEqual({ PolicyDocument: { Statement: [{ Resource: imported }] }, Bucket: ref });
  });

  test('is the same object when the path is not on both sides', () => {
    const before = { PolicyDocument: { Statement: [{ Resource: ref }] } };
    expect(withImportsAt(before, { PolicyDocument: {} }, ['PolicyDocument', 'Statement'])).toBe(before);
  });
});
