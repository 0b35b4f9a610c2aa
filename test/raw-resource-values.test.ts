/**
 * A raw `CfnResource` (`new CfnResource(scope, id, { type, properties })`, and the one a `CustomResource`
 * declares) renders its properties as it is given them: aws-cdk resolves a BigInt or a Symbol to `{}` and writes
 * that into the template without a word (found by test/hostile-values.test.ts's deploy-side property, whose oracle
 * accepted it). Synth refuses such a value (`CAP010`) naming the resource and the property; generated L1s are left
 * to their own validators, and tokens to aws-cdk's resolver.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, aws_s3 as s3, aws_ssm as ssm, CfnResource, CustomResource, Fn, Lazy, Stack } from 'aws-cdk-lib';
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

describe('values aws-cdk loses without a word, in a raw resource\'s properties and in an override', () => {
  const dropped = 'aws-cdk would leave it out of the template without a word';
  const empty = 'aws-cdk would render it as {} in the template without a word';
  const cases: Array<[string, () => unknown, string, string]> = [
    ['a Map', () => new Map([['a', 1]]), 'a Map', 'Give it as a plain object, such as Object.fromEntries(map).'],
    ['a Set', () => new Set(['a']), 'a Set', 'Give it as a list, such as [...set].'],
    ['a RegExp', () => /x/, 'a RegExp', 'Give it as a string, such as its source.'],
  ];

  test('the premise, in a bare aws-cdk app (its own process: this library records overrides in any app of its process): a Map is rendered as {} from properties and left out from an override, NaN written as null', () => {
    const script = [
      "const { App, Stack, CfnResource, aws_ssm: ssm } = require('aws-cdk-lib');",
      "const { Template } = require('aws-cdk-lib/assertions');",
      "const stack = new Stack(new App(), 'Bare');",
      "new CfnResource(stack, 'Raw', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: new Map([['a', 1]]), Description: NaN } });",
      "const l1 = new ssm.CfnParameter(stack, 'L1', { type: 'String', value: 'x' });",
      "l1.addPropertyOverride('Description', new Map([['a', 1]]));",
      'const r = Template.fromStack(stack).toJSON().Resources;',
      'process.stdout.write(JSON.stringify([r.Raw.Properties, r.L1.Properties]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['-e', script], { cwd: path.join(__dirname, '..'), encoding: 'utf-8', env: { ...process.env, CDK_VALIDATION: 'false' } });

    expect(JSON.parse(out)).toEqual([{ Type: 'String', Value: {}, Description: null }, { Type: 'String', Value: 'x' }]);
  });

  test('a plain aws-cdk App in the same process keeps aws-cdk\'s behaviour: the library judges only its own apps', () => {
    shop(); // this library's recording of overrides is installed for the process
    const stack = new Stack(new App(), 'Bare');
    const l1 = new ssm.CfnParameter(stack, 'L1', { type: 'String', value: 'x' });
    l1.addPropertyOverride('Description', 5n);

    expect(Template.fromStack(stack).toJSON().Resources.L1.Properties).toEqual({ Type: 'String', Value: 'x' });
  });

  test.each(cases)('%s: rendered as {} from properties, left out from an override; refused in both, naming the property and the plain form', (_, make, kind, fix) => {
    const { app, base } = shop();
    new CfnResource(base, 'Raw', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: { nested: [make()] } } });
    const l1 = new ssm.CfnParameter(base, 'L1', { type: 'String', value: 'x' });
    l1.addPropertyOverride('Description', make());

    const line = lineOf("l1.addPropertyOverride('Description', make());");
    expect(messages(app)).toEqual([
      `CAP010 invalid object: 'shop/Base/L1' failed its own validation: addPropertyOverride at test/raw-resource-values.test.ts:${line} gives 'Description' ${kind}: ${dropped}. ${fix}`,
      `CAP010 invalid object: 'shop/Base/Raw' failed its own validation: its properties give 'Value.nested.0' ${kind}: ${empty}. ${fix}`,
    ]);
  });

  test('NaN and the infinities, which aws-cdk writes as null, are refused in properties and overrides', () => {
    const { app, base } = shop();
    new CfnResource(base, 'Raw', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: NaN } });
    const l1 = new ssm.CfnParameter(base, 'L1', { type: 'String', value: 'x' });
    l1.addPropertyOverride('Tags.ratio', -Infinity);

    const tail = 'which JSON has no form for: aws-cdk would write null in the template. Give it as a finite number, or as a string.';
    expect(messages(app)).toEqual([
      `CAP010 invalid object: 'shop/Base/L1' failed its own validation: addPropertyOverride at test/raw-resource-values.test.ts:${lineOf("l1.addPropertyOverride('Tags.ratio', -Infinity);")} gives 'Tags.ratio' -Infinity, ${tail}`,
      `CAP010 invalid object: 'shop/Base/Raw' failed its own validation: its properties give 'Value' NaN, ${tail}`,
    ]);
  });

  test('a Buffer is written as a map of its bytes by index: refused; a Date is written as its ISO text from properties (accepted) but left out from an override (refused)', () => {
    const { app, base } = shop();
    new CfnResource(base, 'Bytes', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: Buffer.from('x') } });
    new CfnResource(base, 'When', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: new Date(0) } });
    const l1 = new ssm.CfnParameter(base, 'L1', { type: 'String', value: 'x' });
    l1.addPropertyOverride('Description', new Date(0));

    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'shop/Base/Bytes' failed its own validation: its properties give 'Value' a Buffer: aws-cdk would write a map of its bytes by index in the template. Give it as a string, such as buffer.toString('base64'), or a list of numbers.",
      `CAP010 invalid object: 'shop/Base/L1' failed its own validation: addPropertyOverride at test/raw-resource-values.test.ts:${lineOf("l1.addPropertyOverride('Description', new Date(0));")} gives 'Description' a Date: ${dropped}. Give it as a string, such as date.toISOString().`,
    ]);
  });

  test('a token in an override, given whole (getAtt, whose reference holds a Map of its own) or in a map, is aws-cdk\'s to resolve: accepted, and the plan shows it masked (it crashed the plan\'s masking before)', () => {
    const { app, base } = shop();
    const origin = new ssm.CfnParameter(base, 'Origin', { type: 'String', value: 'x' });
    const copy = new ssm.CfnParameter(base, 'Copy', { type: 'String', value: 'x' });
    copy.addPropertyOverride('Value', origin.getAtt('Value'));
    copy.addPropertyOverride('Description', { from: origin.getAtt('Type') });

    expect(messages(app)).toEqual([]);
    Template.fromStack(Stack.of(base)).hasResourceProperties('AWS::SSM::Parameter', { Value: { 'Fn::GetAtt': [Stack.of(base).getLogicalId(origin), 'Value'] } });
  });

  test('a Date in properties and an instance of the program\'s own class are accepted, rendered as aws-cdk renders them', () => {
    class Limits {
      constructor(public readonly max = 5) {}
    }
    const { app, base } = shop();
    new CfnResource(base, 'When', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: new Date(0), Tags: new Limits() } });

    expect(messages(app)).toEqual([]);
    Template.fromStack(Stack.of(base)).hasResourceProperties('AWS::SSM::Parameter', { Value: '1970-01-01T00:00:00.000Z', Tags: { max: 5 } });
  });
});

/** The line of this file that holds `text`, as a message names a call's site. */
function lineOf(text: string): number {
  return fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.includes(text)) + 1;
}

function expectLogicalId(bucket: s3.Bucket): string {
  return Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnResource);
}
