/**
 * The CloudFormation property names a Contribution's `fields` may write into a resource: those its generated
 * aws-cdk L1 renders. A misspelt one (`BucketNme`) would be written into the template as it is and refused by
 * CloudFormation only at deploy; it is CAP010 at synth, naming the name it most likely misspells.
 */
import { CfnCustomResource, CfnResource, CfnWaitConditionHandle, Stack, Tags } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct, IConstruct } from 'constructs';
import * as fc from 'fast-check';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, SharedBase } from '../src';
import { contributionProblems } from '../src/constructs/contribution';
import { closestPropertyName, cloudFormationPropertyNames } from '../src/private/cloudformation-property-names';

function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  return { app, base, team: new Construct(new RuntimeRouting(cdn, 'Routing'), 'Team') };
}

/** The messages of a synth of a Contribution of `fields` into the resource `target` makes in the shared base. */
function refusal(fields: Record<string, unknown>, target: (base: SharedBase) => IConstruct = (b) => new s3.Bucket(b, 'Bucket')): string[] {
  const f = fixture();
  new Contribution(f.team, 'Bad', { target: target(f.base), fields });
  return CapabilityTesting.synth(f.app).violations.map((v) => `${v.code} ${v.message}`);
}

const BAD = "CAP010 invalid object: Contribution 'cdn/Routing/Team/Bad': ";
const FIX = "aws-cdk-lib's CfnBucket renders no property of that name, and CloudFormation would refuse the template at deploy. "
  + "Write the property as the template names it; for a property newer than the installed aws-cdk-lib, upgrade it, or write the property with addPropertyOverride in a 'write' callback.";

describe('a name in fields that the L1 of the resource does not render is CAP010, naming the name it most likely misspells', () => {
  test.each([
    ['a letter dropped', 'BucketNme', 'BucketName'],
    ['a capital written small', 'Bucketname', 'BucketName'],
    ['a name cut short', 'VersioningConfig', 'VersioningConfiguration'],
    ['two neighbours swapped', 'BucketEncrpytion', 'BucketEncryption'],
  ])('%s (%s)', (_, name, meant) => {
    expect(refusal({ [name]: 'x' })).toEqual([
      `${BAD}'fields.${name}' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource') (did you mean '${meant}'?): ${FIX}`,
    ]);
  });

  test('a nested path is judged by its first segment, the property it writes into', () => {
    // GIVEN a path into a misspelt property, and a path into a property of a misspelt nested name
    const given = { 'VersioningConfig.Status': 'Enabled', 'VersioningConfiguration.Statuss': 'Enabled', 'LoggingConfiguration': { DestinationBuckettName: 'x' } };

    // THEN only the first is refused: what a property holds is CloudFormation's to judge
    expect(refusal(given)).toEqual([
      `${BAD}'fields.VersioningConfig.Status' writes into 'VersioningConfig', which is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource') `
        + `(did you mean 'VersioningConfiguration'?): ${FIX}`,
    ]);
  });

  test('a name close to none names every property of the type instead of a guess', () => {
    expect(refusal({ Label: 'x' }, (b) => new ssm.StringParameter(b, 'Param', { stringValue: 'v' }))).toEqual([
      `${BAD}'fields.Label' is not a CloudFormation property of AWS::SSM::Parameter ('cdn/Base/Param/Resource') (its properties are 'AllowedPattern', 'DataType', `
        + "'Description', 'Name', 'Policies', 'Tags', 'Tier', 'Type', 'Value'): aws-cdk-lib's CfnParameter renders no property of that name, and CloudFormation "
        + "would refuse the template at deploy. Write the property as the template names it; for a property newer than the installed aws-cdk-lib, upgrade it, or write the property with addPropertyOverride in a 'write' callback.",
    ]);
    expect(refusal({ Handle: 'x' }, (b) => new CfnWaitConditionHandle(b, 'Wait'))).toEqual([
      `${BAD}'fields.Handle' is not a CloudFormation property of AWS::CloudFormation::WaitConditionHandle ('cdn/Base/Wait') (the type has no properties): `
        + "aws-cdk-lib's CfnWaitConditionHandle renders no property of that name, and CloudFormation would refuse the template at deploy. "
        + "Write the property as the template names it; for a property newer than the installed aws-cdk-lib, upgrade it, or write the property with addPropertyOverride in a 'write' callback.",
    ]);
  });

  test("aws-cdk's prop name that misspells a property is named as a misspelling, not capitalized into another wrong name", () => {
    expect(refusal({ bucketNme: 'x' })).toEqual([
      `${BAD}'fields.bucketNme' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource') (did you mean 'BucketName'?): ${FIX}`,
    ]);
  });

  test('every problem of one contribution is named, in the order of its fields, beside the names it writes well', () => {
    expect(refusal({ BucketName: 'assets', BucketNme: 'x', bucketName: 'y' })).toEqual([
      `${BAD}'fields.BucketNme' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource') (did you mean 'BucketName'?): ${FIX}`,
      `${BAD}'fields.bucketName' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource'): 'fields' takes the template's property names, `
        + "which start with a capital, not aws-cdk's prop names. Write 'BucketName'.",
    ]);
  });
});

describe('what has no generated L1 to say which names it takes is not judged', () => {
  test("a plain CfnResource of an AWS:: type takes any name with a capital first; aws-cdk's prop names are refused with the name it renders, else the capitalized key", () => {
    const raw = (b: SharedBase) => new CfnResource(b, 'Raw', { type: 'AWS::S3::Bucket', properties: { BucketName: 'assets' } });
    expect(refusal({ BucketNme: 'x' }, raw)).toEqual([]);
    expect(refusal({ bucketname: 'x', versioningConfiguration: { Status: 'Enabled' } }, raw)).toEqual([
      `${BAD}'fields.bucketname' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Raw'): 'fields' takes the template's property names, `
        + "which start with a capital, not aws-cdk's prop names. Write 'BucketName'.",
      `${BAD}'fields.versioningConfiguration' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Raw'): 'fields' takes the template's property names, `
        + "which start with a capital, not aws-cdk's prop names. Write 'VersioningConfiguration'.",
    ]);
  });

  test('a Custom:: resource, and an AWS::CloudFormation::CustomResource, whose provider takes any property, take any name', () => {
    const token = 'arn:aws:lambda:eu-west-1:111111111111:function:seed';
    expect(refusal({ rows: 3, Rowz: 3 }, (b) => new CfnResource(b, 'Seed', { type: 'Custom::Seed', properties: { ServiceToken: token } }))).toEqual([]);
    expect(refusal({ rows: 3, Rowz: 3 }, (b) => new CfnCustomResource(b, 'Seed', { serviceToken: token }))).toEqual([]);
    expect(refusal({ rows: 3, Rowz: 3 }, (b) => new CfnResource(b, 'Seed', { type: 'AWS::CloudFormation::CustomResource', properties: { ServiceToken: token } }))).toEqual([]);
  });
});

test("addPropertyOverride on the resource itself, by its declarer or in a write callback, is aws-cdk's escape hatch and is written as given", () => {
  // GIVEN a name the installed aws-cdk-lib does not know, written by the declarer and by a write callback
  const f = fixture();
  const bucket = new s3.Bucket(f.base, 'Bucket');
  (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('NewerProperty', 'declared');
  new Contribution(f.team, 'Newer', { target: bucket, write: (b) => (b.node.defaultChild as s3.CfnBucket).addPropertyOverride('NewestProperty', 'contributed') });

  // WHEN
  const result = CapabilityTesting.synth(f.app);

  // THEN nothing is refused, and the template holds both as written
  expect(result.violations).toEqual([]);
  const written = Object.values(result.templates).flatMap((t) => Object.values(t.Resources as Record<string, { Type: string; Properties: object }>));
  expect(written.filter((r) => r.Type === 'AWS::S3::Bucket').map((r) => r.Properties)).toEqual([{ NewerProperty: 'declared', NewestProperty: 'contributed' }]);
});

/** Real L2s of five services, each with its generated L1 as the default child. */
const TYPES: ReadonlyArray<readonly [string, (scope: Construct) => IConstruct]> = [
  ['AWS::S3::Bucket', (s) => new s3.Bucket(s, 'Bucket', { versioned: true, encryption: s3.BucketEncryption.KMS_MANAGED })],
  ['AWS::SQS::Queue', (s) => new sqs.Queue(s, 'Queue', { fifo: true })],
  ['AWS::IAM::Role', (s) => new iam.Role(s, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: 'r' })],
  ['AWS::Lambda::Function', (s) => new lambda.Function(s, 'Fn', {
    runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=async()=>1'), environment: { A: '1' },
  })],
  ['AWS::DynamoDB::Table', (s) => new dynamodb.Table(s, 'Table', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING }, encryption: dynamodb.TableEncryption.AWS_MANAGED })],
];

/** The L1 of each of `TYPES`, in one shared base, and the names aws-cdk's L1 maps its props to (its own `cfnPropertyNames`, all of them). */
function resources() {
  const f = fixture();
  return {
    ...f,
    l1s: TYPES.map(([type, make]) => {
      const l1 = make(f.base).node.defaultChild as CfnResource;
      const mapped = (l1 as unknown as { cfnPropertyNames: Record<string, string> }).cfnPropertyNames;
      return { type, l1, mapped };
    }),
  };
}

describe('the names aws-cdk renders are every name it knows for the type, and each is taken', () => {
  test('the names found are exactly those the L1 maps its props to, one for each prop cfnProperties holds', () => {
    for (const { type, l1, mapped } of resources().l1s) {
      // THEN aws-cdk-lib's own map holds a name for each prop the L1 holds (all of them, set or not) ...
      expect([type, Object.keys((l1 as unknown as { cfnProperties: object }).cfnProperties).sort()]).toEqual([type, Object.keys(mapped).sort()]);
      // ... and the names found are the names it maps them to
      expect([type, [...cloudFormationPropertyNames(l1)!.names].sort()]).toEqual([type, Object.values(mapped).sort()]);
    }
  });

  test('every property the synthesized templates hold is a name found', () => {
    // GIVEN the five resources, synthesized by aws-cdk with the props their L2s set
    const stack = new Stack();
    const found = TYPES.map(([type, make]) => {
      const l1 = make(stack).node.defaultChild as CfnResource;
      return { type, names: cloudFormationPropertyNames(l1)!.names };
    });
    const template = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties?: object }> };

    // THEN each property written is known for its type
    for (const { Type, Properties } of Object.values(template.Resources)) {
      const names = found.find((t) => t.type === Type)?.names;
      if (!names) continue; // a resource an L2 adds (the function's role, its policy)
      expect([Type, Object.keys(Properties ?? {}).filter((n) => !names.has(n))]).toEqual([Type, []]);
    }
  });

  test('a Contribution of any of those names, of any type, is taken; one of any name one letter off, that none is, is refused', () => {
    // GIVEN one resource of each type (contributions are judged as they are made: no synth runs)
    const { team, l1s } = resources();
    let n = 0;
    const problemsOf = (l1: CfnResource, fields: Record<string, unknown>) => contributionProblems(new Contribution(team, `C${n++}`, { target: l1, fields }));

    fc.assert(fc.property(
      fc.nat(l1s.length - 1).chain((i) => fc.tuple(fc.constant(l1s[i]), fc.subarray(Object.values(l1s[i].mapped), { minLength: 1 }))),
      ([{ l1 }, names]) => {
        // THEN every name it renders is taken, at the top and as a path's first segment
        expect(problemsOf(l1, Object.fromEntries(names.map((name, i) => [i % 2 === 0 ? name : `${name}.Nested`, 'x'])))).toEqual([]);
      },
    ), { numRuns: 60, seed: 20261206 });

    fc.assert(fc.property(
      fc.nat(l1s.length - 1).chain((i) => fc.tuple(fc.constant(l1s[i]), fc.constantFrom(...Object.values(l1s[i].mapped)), fc.nat(), fc.constantFrom(...'QXZqxz'))),
      ([{ l1, mapped }, name, at, letter]) => {
        // WHEN a letter of a name is replaced, and the result is no name of the type in any letter case
        const i = at % name.length;
        const wrong = `${name.slice(0, i)}${letter}${name.slice(i + 1)}`;
        fc.pre(!Object.values(mapped).some((known) => known.toLowerCase() === wrong.toLowerCase()));

        // THEN it is refused, naming it, its resource, and the name it misspells unless another is as close
        const [problem, ...more] = problemsOf(l1, { [wrong]: 'x' });
        expect(more).toEqual([]);
        expect(problem).toContain(`'fields.${wrong}' is not a CloudFormation property of ${l1.cfnResourceType} ('${l1.node.path}') (`);
        const meant = closestPropertyName(wrong, Object.values(mapped));
        expect(problem).toContain(meant === undefined ? '(its properties are ' : `(did you mean '${meant}'?)`);
        if (meant !== undefined) expect(meant).toBe(name);
      },
    ), { numRuns: 100, seed: 20261206 });
  });
});

test('the names are rendered once per L1 class, and not for a Contribution that writes no CloudFormation fields', () => {
  // GIVEN a type no other test here renders, its rendering counted
  const f = fixture();
  const render = jest.spyOn(sns.CfnTopic.prototype as unknown as { renderProperties: (p: unknown) => unknown }, 'renderProperties');
  try {
    // WHEN contributions without fields, and then with fields into three topics, are made
    const topics = ['A', 'B', 'C'].map((id) => new sns.Topic(f.base, id));
    new Contribution(f.team, 'Tag', { target: topics[0], write: (t) => Tags.of(t).add('team', 'ops') });
    new Contribution(f.team, 'Empty', { target: topics[0], fields: {} });
    const before = render.mock.calls.length;
    const problems = topics.map((t) => contributionProblems(new Contribution(f.team, `Name${t.node.id}`, { target: t, fields: { DisplayNam: t.node.id } })));

    // THEN the names were rendered once, for the first, and each is judged
    expect([before, render.mock.calls.length]).toEqual([0, 1]);
    expect(problems.map((p) => p.map((m) => m.slice(0, m.indexOf('?)') + 2))))
      .toEqual(['A', 'B', 'C'].map((id) => [`'fields.DisplayNam' is not a CloudFormation property of AWS::SNS::Topic ('cdn/Base/${id}/Resource') (did you mean 'DisplayName'?)`]));
  } finally {
    render.mockRestore();
  }
});

describe('closestPropertyName', () => {
  test.each([
    ['BucketNme', 'BucketName'],
    ['bucketname', 'BucketName'],
    ['VersioningConfig', 'VersioningConfiguration'],
    ['Versioning', 'VersioningConfiguration'],
    ['Bucket', undefined], // the start of BucketName and of BucketEncryption
    ['Tag', 'Tags'],
    ['Region', undefined],
  ])('%s: %s', (name, meant) => {
    expect(closestPropertyName(name, ['BucketName', 'BucketEncryption', 'Tags', 'VersioningConfiguration'])).toEqual(meant);
  });
});
