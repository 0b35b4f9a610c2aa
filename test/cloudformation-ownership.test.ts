import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CfnOutput, Duration, Tags } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { siteOfNextLine } from './util';
import { contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, DeploymentAggregate, SharedBase } from '../src';

let outdir: string;
beforeAll(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfn-ownership-test-'));
});
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** An app with a capability `cdn`, its shared base `cdn/Base`, a tenant `cdn/acme` and a writer `cdn/Base/Ops`. */
function fixture() {
  const app = new CapabilityApp({ outdir: path.join(outdir, String(Math.random()).slice(2)) });
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const acme = new DeploymentAggregate(cdn, 'acme');
  const ops = new Construct(base, 'Ops');
  return { app, cdn, base, acme, ops };
}

/** The exact CAP002 message for two writers of one property. */
const conflict = (a: string, b: string, fields: string, object: string, ...ways: string[]) =>
  `field conflict: '${a}' and '${b}' both write ${fields} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;

/** The exact CAP002 message for two claims of one physical name. */
const claim = (a: string, b: string, what: string) =>
  `field conflict: '${a}' and '${b}' both claim the physical name ${what}. Give each resource its own name, or declare the resource once and share it.`;

/** Synthesizes to disk and reads the template of a stack back, by its step in plan.json. */
function writtenTemplate(app: CapabilityApp, stackPath: string): Template {
  app.synth();
  const plan = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
  const step = plan.steps.find((s: any) => s.id === stackPath);
  return Template.fromJSON(JSON.parse(fs.readFileSync(path.join(app.outdir, step.files[0]), 'utf-8')));
}

const codesAndPaths = (app: CapabilityApp) => app.synthesize().violations.map((v) => [v.code, v.paths]);

describe('property overrides are writes', () => {
  test('an override of a property the declarer sets is the declarer\'s escape hatch: accepted, in the template and the plan', () => {
    // GIVEN a bucket declared with a name
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });

    // WHEN
    const at = siteOfNextLine();
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('BucketName', 'x');

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::S3::Bucket', { BucketName: 'x' });
    expect(result.plan!.ownership!.overrides).toEqual([
      { object: 'AWS::S3::Bucket cdn/Base/Bucket/Resource', field: 'BucketName', by: `cdn/Base/Bucket/Resource (addPropertyOverride at ${at})`, rendered: 'assets', patched: 'x' },
    ]);
  });

  test('an override below a property object the declarer sets is an override of that leaf', () => {
    // GIVEN a versioned bucket (VersioningConfiguration.Status is declared)
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { versioned: true });

    // WHEN
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('VersioningConfiguration.Status', 'Suspended');

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan!.ownership!.overrides.map((o) => [o.field, o.rendered, o.patched])).toEqual([['VersioningConfiguration.Status', 'Enabled', 'Suspended']]);
  });

  test('an override that replaces a declared value with an intrinsic is one override of that value, shown whole in the plan', () => {
    // GIVEN a queue declared with a retention period and a visibility timeout (numbers)
    const { app, base } = fixture();
    const queue = new sqs.Queue(base, 'Jobs', { retentionPeriod: Duration.days(4), visibilityTimeout: Duration.seconds(30) });
    const cfn = queue.node.defaultChild as sqs.CfnQueue;

    // WHEN one number is replaced with a { Ref } given whole, the other with a { Ref } written by its path
    cfn.addPropertyOverride('MessageRetentionPeriod', { Ref: 'Retention' });
    cfn.addPropertyOverride('VisibilityTimeout.Ref', 'Timeout');

    // THEN each override names the declared field, from its value to the new one (was: MessageRetentionPeriod.Ref, from nothing)
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: { Ref: 'Retention' }, VisibilityTimeout: { Ref: 'Timeout' } });
    expect(result.plan!.ownership!.overrides.map((o) => [o.field, o.rendered, o.patched])).toEqual([
      ['MessageRetentionPeriod', 345600, { Ref: 'Retention' }],
      ['VisibilityTimeout', 30, { Ref: 'Timeout' }],
    ]);
  });

  test('an override of a property nobody sets is accepted and lands in the template', () => {
    // GIVEN a bucket declared with a name
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });

    // WHEN
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('ObjectLockEnabled', true);

    // THEN
    writtenTemplate(app, 'cdn/Base').hasResourceProperties('AWS::S3::Bucket', { BucketName: 'assets', ObjectLockEnabled: true });
  });

  test('a deletion override of a property the declarer sets is an override that removes it', () => {
    // GIVEN a bucket declared with a name
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });

    // WHEN an escape hatch deletes the name
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyDeletionOverride('BucketName');

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan!.ownership!.overrides.map((o) => [o.field, o.by.replace(/ at .*/, ''), o.rendered, 'patched' in o])).toEqual([
      ['BucketName', 'cdn/Base/Bucket/Resource (addPropertyDeletionOverride', 'assets', false],
    ]);
  });

  describe('a field the L2 writes, as examples/cdn removes IPV6Enabled from its distribution', () => {
    function distribution() {
      const { app, base, ops } = fixture();
      const d = new cloudfront.Distribution(base, 'Distribution', { defaultBehavior: { origin: new origins.HttpOrigin('origin.example.com') } });
      return { app, ops, d, cfn: d.node.defaultChild as cloudfront.CfnDistribution };
    }

    test('a plain addPropertyDeletionOverride of it is the declarer\'s escape hatch: accepted, an override in the plan, gone from the template', () => {
      // GIVEN
      const { app, cfn } = distribution();

      // WHEN
      const at = siteOfNextLine();
      cfn.addPropertyDeletionOverride('DistributionConfig.IPV6Enabled');

      // THEN
      const result = CapabilityTesting.synth(app);
      expect(result.violations).toEqual([]);
      expect(result.plan!.ownership!.overrides).toEqual([{
        object: 'AWS::CloudFront::Distribution cdn/Base/Distribution/Resource',
        field: 'DistributionConfig.IPV6Enabled',
        by: `cdn/Base/Distribution/Resource (addPropertyDeletionOverride at ${at})`,
        rendered: true,
      }]);
      Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({ IPV6Enabled: Match.absent() }),
      });
    });

    test('a Contribution that writes it is a second writer: CAP002', () => {
      // GIVEN
      const { app, ops, d } = distribution();

      // WHEN
      new Contribution(ops, 'NoIpv6', { target: d, fields: { DistributionConfig: { IPV6Enabled: false } } });

      // THEN
      expect(codesAndPaths(app)).toEqual([['CAP002', ['cdn/Base/Distribution', 'cdn/Base/Ops/NoIpv6']]]);
    });
  });

  test('two plain overrides of one property are CAP002 naming both calls', () => {
    // GIVEN a bucket
    const { app, base } = fixture();
    const cfn = new s3.Bucket(base, 'Bucket').node.defaultChild as s3.CfnBucket;

    // WHEN two calls override one property
    const first = siteOfNextLine();
    cfn.addPropertyOverride('AccelerateConfiguration.AccelerationStatus', 'Enabled');
    const second = siteOfNextLine();
    cfn.addOverride('Properties.AccelerateConfiguration.AccelerationStatus', 'Suspended');

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message:
          `field conflict: 'cdn/Base/Bucket/Resource' (addOverride at ${second}) and 'cdn/Base/Bucket/Resource' (addPropertyOverride at ${first}) both write ` +
          'AccelerateConfiguration.AccelerationStatus of AWS::S3::Bucket cdn/Base/Bucket/Resource. Give each field one owner: keep one of these calls on \'cdn/Base/Bucket/Resource\' (each replaces the value of the one before it), and write what another team needs with a Contribution.',
        paths: ['cdn/Base/Bucket/Resource'],
      },
    ]);
  });

  test('an aspect of aws-cdk that overrides a property (PermissionsBoundary) writes for the scope it was applied to', () => {
    // GIVEN a role under a permissions boundary, and a Contribution of the same property
    const { app, base, ops } = fixture();
    const role = new iam.Role(base, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    iam.PermissionsBoundary.of(base).apply(iam.ManagedPolicy.fromManagedPolicyArn(base, 'Boundary', 'arn:aws:iam::aws:policy/PowerUserAccess'));
    new Contribution(ops, 'Boundary', { target: role, fields: { PermissionsBoundary: 'arn:aws:iam::aws:policy/ReadOnlyAccess' } });

    // WHEN / THEN the boundary aspect's override is the aspect's, and the contribution conflicts with it
    expect(codesAndPaths(app)).toEqual([['CAP002', ['cdn/Base', 'cdn/Base/Ops/Boundary']]]);
  });
});

describe('contributions to CloudFormation resources', () => {
  test('a contribution of properties nobody else writes is applied to the template', () => {
    // GIVEN a bucket declared with a name
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });

    // WHEN
    new Contribution(ops, 'Lock', { target: bucket, fields: { ObjectLockEnabled: true, AccelerateConfiguration: { AccelerationStatus: 'Enabled' } } });

    // THEN
    writtenTemplate(app, 'cdn/Base').hasResourceProperties('AWS::S3::Bucket', {
      BucketName: 'assets',
      ObjectLockEnabled: true,
      AccelerateConfiguration: { AccelerationStatus: 'Enabled' },
    });
  });

  test('a contribution of a property the declarer sets conflicts with the declarer', () => {
    // GIVEN a bucket declared with a name
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket', { bucketName: 'assets' });

    // WHEN
    new Contribution(ops, 'Name', { target: bucket, fields: { BucketName: 'other' } });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: conflict('cdn/Base/Bucket', 'cdn/Base/Ops/Name', 'BucketName', 'AWS::S3::Bucket cdn/Base/Bucket/Resource', declares('cdn/Base/Bucket'), contributes('fields', 'cdn/Base/Ops/Name')),
        paths: ['cdn/Base/Bucket', 'cdn/Base/Ops/Name'],
      },
    ]);
  });

  test('two contributions of one property conflict', () => {
    // GIVEN a bucket
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');

    // WHEN
    new Contribution(ops, 'A', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } } });
    new Contribution(ops, 'B', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Suspended' } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Base/Ops/A', 'cdn/Base/Ops/B', 'AccelerateConfiguration.AccelerationStatus', 'AWS::S3::Bucket cdn/Base/Bucket/Resource', contributes('fields', 'cdn/Base/Ops/A', 'cdn/Base/Ops/B')),
    ]);
  });

  test('a contribution to an L1 resource is attributed to the contribution, the resource to itself', () => {
    // GIVEN an L1 parameter
    const { app, base, ops } = fixture();
    const param = new ssm.CfnParameter(base, 'Param', { type: 'String', value: 'v' });

    // WHEN
    new Contribution(ops, 'Value', { target: param, fields: { Value: 'w' } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Base/Ops/Value', 'cdn/Base/Param', 'Value', 'AWS::SSM::Parameter cdn/Base/Param', contributes('fields', 'cdn/Base/Ops/Value'), declares('cdn/Base/Param')),
    ]);
  });

  test('a contribution and an escape-hatch override of one property conflict', () => {
    // GIVEN a contribution that enables versioning
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    new Contribution(ops, 'Versioning', { target: bucket, fields: { VersioningConfiguration: { Status: 'Enabled' } } });

    // WHEN an escape hatch overrides the same property
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('VersioningConfiguration.Status', 'Suspended');

    // THEN the escape hatch is a writer of its own against the contribution
    expect(codesAndPaths(app)).toEqual([['CAP002', ['cdn/Base/Bucket/Resource', 'cdn/Base/Ops/Versioning']]]);
  });

  test('a contribution of Tags conflicts with tags added by Tags.of on the first synth', () => {
    // GIVEN a bucket tagged through the Tags aspect
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const at = siteOfNextLine();
    Tags.of(bucket).add('team', 'edge');

    // WHEN a contribution writes Tags (an atomic list)
    new Contribution(ops, 'Tags', { target: bucket, fields: { Tags: [{ Key: 'cost', Value: 'cdn' }] } });

    // THEN the message says the list is written whole, and how to write one tag
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Base/Bucket' (Tags.of().add at ${at}) and 'cdn/Base/Ops/Tags' both write Tags of AWS::S3::Bucket cdn/Base/Bucket/Resource. ` +
        "'cdn/Base/Ops/Tags' writes Tags whole, as one list, over every tag another writer adds by key. " +
        'Write each tag by its key instead: write: (t) => Tags.of(t).add(key, value) for each tag, in place of fields: { Tags: [...] }.',
    ]);
  });

  test('a contribution of Tags as a list conflicts with a tag the app adds, and the message says it writes the list whole', () => {
    // GIVEN (a user trial: the documented example of fields, { Tags: [...] }) a tag on the whole app
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const at = siteOfNextLine();
    Tags.of(app).add('cost-center', '42');

    // WHEN a contribution writes Tags as fields
    new Contribution(ops, 'Owner', { target: bucket, fields: { Tags: [{ Key: 'owner', Value: 'b' }, { Key: 'team', Value: 'c' }] } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Base/Ops/Owner' and the app (Tags.of().add at ${at}) both write Tags of AWS::S3::Bucket cdn/Base/Bucket/Resource. ` +
        "'cdn/Base/Ops/Owner' writes Tags whole, as one list, over every tag another writer adds by key. " +
        'Write each tag by its key instead: write: (t) => Tags.of(t).add(key, value) for each tag, in place of fields: { Tags: [...] }.',
    ]);
  });

  test('an escape-hatch override of the whole Tags list beside a tag the app adds says it writes the list whole', () => {
    // GIVEN a tag on the whole app
    const { app, base } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    const tagged = siteOfNextLine();
    Tags.of(app).add('cost-center', '42');

    // WHEN the bucket's Tags are overridden as a list
    const overridden = siteOfNextLine();
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('Tags', [{ Key: 'owner', Value: 'b' }]);

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Base/Bucket/Resource' (addPropertyOverride at ${overridden}) and the app (Tags.of().add at ${tagged}) both write Tags of AWS::S3::Bucket cdn/Base/Bucket/Resource. ` +
        "'cdn/Base/Bucket/Resource' (addPropertyOverride at " + overridden + ') writes Tags whole, as one list, over every tag another writer adds by key. ' +
        "Write each tag by its key instead: Tags.of(<the resource>).add(key, value) for each tag, in place of addPropertyOverride('Tags', [...]).",
    ]);
  });

  test('a contribution that adds its tag with Tags.of in a write callback is accepted beside a tag the app adds', () => {
    // GIVEN a tag on the whole app
    const { app, base, ops } = fixture();
    const bucket = new s3.Bucket(base, 'Bucket');
    Tags.of(app).add('cost-center', '42');

    // WHEN a contribution adds its tag as the CAP002 message says
    new Contribution(ops, 'Owner', { target: bucket, write: (t) => Tags.of(t).add('owner', 'b') });

    // THEN accepted, both tags in the template
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    const template = Template.fromStack(base);
    template.hasResourceProperties('AWS::S3::Bucket', { Tags: [{ Key: 'cost-center', Value: '42' }, { Key: 'owner', Value: 'b' }] });
  });
});

describe('physical names', () => {
  test('two SSM parameters of one name in the shared base and a tenant aggregate conflict', () => {
    // GIVEN / WHEN
    const { app, base, acme } = fixture();
    new ssm.StringParameter(base, 'Origin', { parameterName: '/x/y', stringValue: 'a' });
    new ssm.StringParameter(acme, 'Origin', { parameterName: '/x/y', stringValue: 'b' });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: claim('cdn/Base/Origin', 'cdn/acme/Origin', 'AWS::SSM::Parameter Name "/x/y"'),
        paths: ['cdn/Base/Origin', 'cdn/acme/Origin'],
      },
    ]);
  });

  test('two SSM parameters of different names are accepted', () => {
    // GIVEN / WHEN
    const { app, base, acme } = fixture();
    new ssm.StringParameter(base, 'Origin', { parameterName: '/x/y', stringValue: 'a' });
    new ssm.StringParameter(acme, 'Origin', { parameterName: '/x/z', stringValue: 'b' });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
  });

  test('two A records of one name in one zone conflict', () => {
    // GIVEN a zone known by id in both stacks
    const { app, base, acme } = fixture();
    const zoneIn = (scope: Construct) => route53.HostedZone.fromHostedZoneAttributes(scope, 'Zone', { hostedZoneId: 'Z123', zoneName: 'example.org' });

    // WHEN
    new route53.ARecord(base, 'Www', { zone: zoneIn(base), recordName: 'www', target: route53.RecordTarget.fromIpAddresses('192.0.2.1') });
    new route53.ARecord(acme, 'Www', { zone: zoneIn(acme), recordName: 'www', target: route53.RecordTarget.fromIpAddresses('192.0.2.2') });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: claim('cdn/Base/Www', 'cdn/acme/Www', 'AWS::Route53::RecordSet A record "www.example.org." in zone "Z123"'),
        paths: ['cdn/Base/Www', 'cdn/acme/Www'],
      },
    ]);
  });

  test('two CfnRecordSets of one name and type in one zone conflict', () => {
    // GIVEN / WHEN
    const { app, base, acme } = fixture();
    const props = { hostedZoneName: 'example.org.', name: 'api.example.org.', type: 'CNAME', ttl: '300' };
    new route53.CfnRecordSet(base, 'Api', { ...props, resourceRecords: ['a.example.net'] });
    new route53.CfnRecordSet(acme, 'Api', { ...props, resourceRecords: ['b.example.net'] });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      claim('cdn/Base/Api', 'cdn/acme/Api', 'AWS::Route53::RecordSet CNAME record "api.example.org." in zone "example.org."'),
    ]);
  });

  test('records of one name and different types in one zone are accepted', () => {
    // GIVEN a zone known by id
    const { app, acme } = fixture();
    const zone = route53.HostedZone.fromHostedZoneAttributes(acme, 'Zone', { hostedZoneId: 'Z123', zoneName: 'example.org' });

    // WHEN
    new route53.ARecord(acme, 'V4', { zone, recordName: 'www', target: route53.RecordTarget.fromIpAddresses('192.0.2.1') });
    new route53.AaaaRecord(acme, 'V6', { zone, recordName: 'www', target: route53.RecordTarget.fromIpAddresses('2001:db8::1') });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
  });

  test('two A records of one name in a zone declared in the same stack conflict', () => {
    // GIVEN a hosted zone declared in the shared base
    const { app, base } = fixture();
    const zone = new route53.PublicHostedZone(base, 'Zone', { zoneName: 'example.org' });

    // WHEN two records of one name and type go into it
    new route53.ARecord(base, 'Www1', { zone, recordName: 'www', target: route53.RecordTarget.fromIpAddresses('192.0.2.1') });
    new route53.ARecord(base, 'Www2', { zone, recordName: 'www', target: route53.RecordTarget.fromIpAddresses('192.0.2.2') });

    // THEN
    expect(codesAndPaths(app)).toEqual([['CAP002', ['cdn/Base/Www1', 'cdn/Base/Www2']]]);
  });

  test("two tenants' Outputs exporting one name conflict, as the second deploy would fail", () => {
    // GIVEN a capability with two tenants
    const { app, cdn } = fixture();
    const globex = new DeploymentAggregate(cdn, 'globex');

    // WHEN each exports its queue's URL under one name
    for (const tenant of [cdn.node.findChild('acme') as DeploymentAggregate, globex]) {
      const queue = new sqs.Queue(tenant, 'Jobs');
      new CfnOutput(tenant, 'JobsUrl', { value: queue.queueUrl, exportName: 'shop-jobs-url' });
    }

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: claim('cdn/acme/JobsUrl', 'cdn/globex/JobsUrl', 'Output Export.Name "shop-jobs-url"'),
        paths: ['cdn/acme/JobsUrl', 'cdn/globex/JobsUrl'],
      },
    ]);
  });

  test('Outputs exporting one name in stacks of two regions, or two names in one, are accepted', () => {
    // GIVEN two capabilities in two regions, and a third stack in the first
    const app = CapabilityTesting.app();
    const east = new SharedBase(new Capability(app, 'east', { env: { account: '111111111111', region: 'us-east-1' } }), 'Base');
    const west = new SharedBase(new Capability(app, 'west', { env: { account: '111111111111', region: 'us-west-2' } }), 'Base');

    // WHEN
    new CfnOutput(east, 'Url', { value: 'a', exportName: 'jobs-url' });
    new CfnOutput(west, 'Url', { value: 'b', exportName: 'jobs-url' });
    new CfnOutput(east, 'Other', { value: 'c', exportName: 'other-url' });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
  });

  test('Outputs exporting one name in stacks of one account and region in two capabilities conflict', () => {
    // GIVEN two capabilities in one region
    const app = CapabilityTesting.app();
    const env = { account: '111111111111', region: 'us-east-1' };
    const shop = new SharedBase(new Capability(app, 'shop', { env }), 'Base');
    const dns = new SharedBase(new Capability(app, 'dns', { env }), 'Base');

    // WHEN
    new CfnOutput(shop, 'Url', { value: 'a', exportName: 'jobs-url' });
    new CfnOutput(dns, 'Url', { value: 'b', exportName: 'jobs-url' });

    // THEN
    expect(codesAndPaths(app)).toEqual([['CAP002', ['dns/Base/Url', 'shop/Base/Url']]]);
  });

  test('API Gateway stages of one name in two different REST APIs are accepted', () => {
    // GIVEN / WHEN each tenant API has a stage called prod (stage names are unique per API, not per account)
    const { app, base, acme } = fixture();
    new apigateway.CfnStage(base, 'Stage', { restApiId: 'api-base', stageName: 'prod' });
    new apigateway.CfnStage(acme, 'Stage', { restApiId: 'api-acme', stageName: 'prod' });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
  });
});
