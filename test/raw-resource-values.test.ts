/**
 * A raw `CfnResource` (`new CfnResource(scope, id, { type, properties })`, and the one a `CustomResource`
 * declares) renders its properties as it is given them: aws-cdk resolves a BigInt or a Symbol to `{}` and writes
 * that into the template without a word (found by test/hostile-values.test.ts's deploy-side property, whose oracle
 * accepted it). Synth refuses such a value (`CAP010`) naming the resource and the property; generated L1s are left
 * to their own validators, and tokens to aws-cdk's resolver.
 */
import * as path from 'path';
import { aws_s3 as s3, aws_ssm as ssm, CfnResource, CustomResource, Fn, Lazy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

function shop(): { app: CapabilityApp; base: SharedBase } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  return { app, base: new SharedBase(new Capability(app, 'shop'), 'Base') };
}

const refused = (construct: string, property: string, kind: string, effect = 'aws-cdk would render it as {} in the template without a word') =>
  `CAP010 invalid object: '${construct}' failed its own validation: its properties give '${property}' ${kind}, which JSON has no form for: ${effect}. Give it as a string or a number.`;

const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);

describe('a value JSON has no form for in a raw resource\'s properties', () => {
  test('a BigInt, a Symbol, one inside a map and one inside a list are each refused naming the property', () => {
    // GIVEN raw resources whose properties hold values aws-cdk would render as {}
    const { app, base } = shop();
    new CfnResource(base, 'Big', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: 5n } });
    new CfnResource(base, 'Sym', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: Symbol('edge') } });
    new CfnResource(base, 'InMap', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: 'x', Tags: { team: 7n } } });
    new CfnResource(base, 'InList', { type: 'AWS::SNS::Topic', properties: { Subscription: [{ Endpoint: 'a@example.com', Protocol: 'email' }, Symbol('x')] } });

    // THEN each is refused once, by its construct and property, in path order
    expect(messages(app)).toEqual([
      refused('shop/Base/Big', 'Value', 'a BigInt'),
      refused('shop/Base/InList', 'Subscription.1', 'a Symbol'),
      refused('shop/Base/InMap', 'Tags.team', 'a BigInt'),
      refused('shop/Base/Sym', 'Value', 'a Symbol'),
    ]);
  });

  test('a function is refused once, by its property: aws-cdk\'s resolution error of the same value is not a second finding', () => {
    const { app, base } = shop();
    new CfnResource(base, 'Fn', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: () => 'x' } });

    expect(messages(app)).toEqual([refused('shop/Base/Fn', 'Value', 'a function', 'aws-cdk fails to resolve it')]);
  });

  test('a CustomResource\'s properties are its raw resource\'s: a BigInt there is refused at its Default resource', () => {
    const { app, base } = shop();
    new CustomResource(base, 'Seed', { serviceToken: 'arn:aws:lambda:eu-west-1:111111111111:function:seed', properties: { Count: 3n } });

    expect(messages(app)).toEqual([refused('shop/Base/Seed/Default', 'Count', 'a BigInt')]);
  });

  test('a generated L1 is left to its own validator: one finding, in aws-cdk\'s words', () => {
    const { app, base } = shop();
    new ssm.CfnParameter(base, 'Origin', { type: 'String', value: 5n as unknown as string });

    const found = messages(app);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^CAP010 invalid object: the stacks of capability 'shop' could not be synthesized: .*CfnParameterProps.*\n\s*value: .* should be a string/s);
  });

  test('tokens, lazies and intrinsics in a raw resource or a CustomResource are aws-cdk\'s to resolve: accepted, rendered as aws-cdk renders them', () => {
    // GIVEN raw and custom resources whose properties hold tokens of every sort
    const { app, base } = shop();
    const bucket = new s3.Bucket(base, 'Assets');
    new CfnResource(base, 'Raw', {
      type: 'AWS::SSM::Parameter',
      properties: {
        Type: 'String',
        Value: bucket.bucketArn,
        Description: Lazy.string({ produce: () => 'made late' }),
        Tags: { arn: Fn.getAtt(expectLogicalId(bucket), 'Arn') },
        AllowedPattern: Lazy.any({ produce: () => ['a', 1, true] }),
      },
    });
    new CustomResource(base, 'Seed', { serviceToken: 'arn:aws:lambda:eu-west-1:111111111111:function:seed', properties: { Bucket: bucket.bucketName, Count: 3, Nested: { list: [bucket.bucketArn] } } });

    // WHEN it is synthesized
    expect(messages(app)).toEqual([]);

    // THEN the template holds the values aws-cdk resolved (checked with aws-cdk's own assertions)
    const template = Template.fromStack(Stack.of(base));
    template.hasResourceProperties('AWS::SSM::Parameter', { Value: { 'Fn::GetAtt': [expectLogicalId(bucket), 'Arn'] }, Description: 'made late', Tags: { arn: { 'Fn::GetAtt': [expectLogicalId(bucket), 'Arn'] } }, AllowedPattern: ['a', 1, true] });
    template.hasResourceProperties('AWS::CloudFormation::CustomResource', { Bucket: { Ref: expectLogicalId(bucket) }, Count: 3, Nested: { list: [{ 'Fn::GetAtt': [expectLogicalId(bucket), 'Arn'] }] } });
  });

  test('property: a BigInt, a Symbol or a function anywhere in a raw resource\'s properties never reaches the template; it is refused (CAP010) naming its path', () => {
    const nonJson = fc.constantFrom<[() => unknown, string]>([() => 1n, 'a BigInt'], [() => Symbol('s'), 'a Symbol'], [() => () => 1, 'a function']);
    const key = fc.constantFrom('Value', 'Tags', 'a', 'b');
    // a path of map keys and list indices from the properties to the value
    const steps = fc.array(fc.oneof(key, fc.nat({ max: 2 })), { minLength: 1, maxLength: 4 }).filter((s) => typeof s[0] === 'string');
    fc.assert(
      fc.property(nonJson, steps, ([make, kind], at) => {
        const { app, base } = shop();
        const properties: Record<string, unknown> = { Type: 'String' };
        let holder: any = properties;
        at.forEach((step, i) => {
          const last = i === at.length - 1;
          const next = typeof at[i + 1] === 'number' ? [] : {};
          if (last) holder[step] = make();
          else holder = holder[step] ??= next;
        });
        new CfnResource(base, 'Raw', { type: 'AWS::SSM::Parameter', properties });
        const effect = kind === 'a function' ? 'aws-cdk fails to resolve it' : 'aws-cdk would render it as {} in the template without a word';
        // a list written at index 2 holds holes at 0 and 1: aws-cdk renders a hole as null, which is JSON
        expect(messages(app)).toEqual([refused('shop/Base/Raw', at.join('.'), kind, effect)]);
      }),
      { numRuns: 120 },
    );
  });
});

function expectLogicalId(bucket: s3.Bucket): string {
  return Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnResource);
}
