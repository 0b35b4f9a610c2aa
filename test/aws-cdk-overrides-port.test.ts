import { CfnCondition, CfnResource, Fn, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, SharedBase } from '../src';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { contributes, declares } from './write-fixtures';

/**
 * aws-cdk-lib's own unit tests of resource overrides, ported: the same resource and the same override calls, in a
 * capability's shared base. Each test asserts what upstream asserts of the synthesized resource, and what the field
 * ledger makes of the calls: accepted when one writer makes them (the declarer and its plain calls on distinct
 * fields), CAP002 naming both when two writers write one field, and, where a case makes a good conflict, the same
 * writes from two Contributions.
 *
 * Upstream: aws/aws-cdk, packages/aws-cdk-lib/core/test/resource.test.ts, describe('overrides'), read at commit
 * 24e6d9ded08c0858b816bc79dec3c141302295ec (the older 123c1fb4561e lacks 'will respect empty trees' and
 * 'overrides allow cross-stack references'). The cases were written again here, not copied.
 */

afterAll(removeTempDirs);

/** A CapabilityApp with capability `shop` and its SharedBase, aws-cdk's template validator off. */
function fixture() {
  const app = new CapabilityApp({ outdir: tempDir(), builtinCloudFormationValidation: false });
  const base = new SharedBase(new Capability(app, 'shop'), 'Base');
  return { app, base };
}

/** Synthesizes in memory: the violations as `CODE message`, the resources of `shop/Base`, the plan's overrides (none: []). */
function synth(app: CapabilityApp) {
  const result = CapabilityTesting.synth(app);
  return {
    messages: result.violations.map((v) => `${v.code} ${v.message}`),
    resources: result.templates['shop/Base']?.Resources,
    overrides: result.plan?.ownership?.overrides ?? [],
  };
}

/** A Contribution of the shared base whose write callback makes override calls on `target`. */
function contribution(base: SharedBase, id: string, target: CfnResource, write: (r: CfnResource) => void): Contribution {
  return new Contribution(base, id, { target, write: (r) => write(r as CfnResource) });
}

/** CAP002's fix for two writers, with how each wrote the fields. */
const dropOne = (...ways: string[]) => `Give each field one owner: drop it from one of them (${ways.join('; ')}).`;
const keepOne = (path: string) =>
  `Give each field one owner: keep one of these calls on '${path}' (each replaces the value of the one before it), and write what another team needs with a Contribution.`;

/** The props of upstream's `Hello.World` cases. */
const helloWorld = () => ({ Hello: { World: { Value1: 'Hello', Value2: 129, Value3: ['foo', 'bar'] } } });

describe('overrides, ported from aws-cdk-lib', () => {
  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) allows assigning arbitrary values to synthesized resource definitions'
  test('overrides of Type, Metadata and a new attribute path, one call each, are accepted and rendered', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN three calls write three distinct attributes
    r.addOverride('Type', 'YouCanEvenOverrideTheType');
    r.addOverride('Metadata', { Key: 12 });
    r.addOverride('Use.Dot.Notation', 'To create subtrees');

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({
      Type: 'YouCanEvenOverrideTheType',
      Use: { Dot: { Notation: 'To create subtrees' } },
      Metadata: { Key: 12 },
    });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) allows assigning arbitrary values to synthesized resource definitions'
  test('two Contributions that override Metadata whole and one of its keys are CAP002 on the resource attributes', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    contribution(base, 'Docs', r, (c) => c.addOverride('Metadata', { Key: 12 }));
    contribution(base, 'Audit', r, (c) => c.addOverride('Metadata.Key', 13));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/Audit' and 'shop/Base/Docs' both write Metadata.Key of AWS::Resource::Type shop/Base/MyResource (resource attributes). ${dropOne(contributes('write callback', 'shop/Base/Audit', 'shop/Base/Docs'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addPropertyOverride() allows assigning an attribute of a different resource'
  test('a property override whose value is another resource\'s attribute is accepted and rendered as Fn::GetAtt', () => {
    // GIVEN
    const { app, base } = fixture();
    const r1 = new CfnResource(base, 'MyResource1', { type: 'AWS::Resource::Type' });
    const r2 = new CfnResource(base, 'MyResource2', { type: 'AWS::Resource::Type' });

    // WHEN
    r2.addPropertyOverride('A', { B: r1.getAtt('Arn') });

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources).toEqual({
      MyResource1: { Type: 'AWS::Resource::Type' },
      MyResource2: { Type: 'AWS::Resource::Type', Properties: { A: { B: { 'Fn::GetAtt': ['MyResource1', 'Arn'] } } } },
    });
    expect(overrides).toEqual([]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, null) will assign an "null" value'
  test('a plain override with null of a declared leaf is the declarer\'s escape hatch: rendered null, shown in the plan', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: helloWorld() });

    // WHEN
    const at = siteOfNextLine();
    r.addOverride('Properties.Hello.World.Value2', null);

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({
      Type: 'AWS::Resource::Type',
      Properties: { Hello: { World: { Value1: 'Hello', Value2: null, Value3: ['foo', 'bar'] } } },
    });
    expect(overrides).toEqual([
      { object: 'AWS::Resource::Type shop/Base/MyResource', field: 'Hello.World.Value2', by: `shop/Base/MyResource (addOverride at ${at})`, rendered: 129, patched: null },
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, null) will assign an "null" value'
  test('a Contribution that overrides a declared leaf with null is CAP002 naming the declarer and the Contribution', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: helloWorld() });

    // WHEN
    contribution(base, 'Team', r, (c) => c.addOverride('Properties.Hello.World.Value2', null));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/MyResource' and 'shop/Base/Team' both write Hello.World.Value2 of AWS::Resource::Type shop/Base/MyResource. ${dropOne(declares('shop/Base/MyResource'), contributes('write callback', 'shop/Base/Team'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, undefined) can be used to delete a value'
  test('a plain override with undefined deletes a declared leaf, shown in the plan as removed', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: { Value1: 'Hello', Value2: 129 } } } });

    // WHEN
    const at = siteOfNextLine();
    r.addOverride('Properties.Hello.World.Value2', undefined);

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Hello: { World: { Value1: 'Hello' } } } });
    expect(overrides).toEqual([
      { object: 'AWS::Resource::Type shop/Base/MyResource', field: 'Hello.World.Value2', by: `shop/Base/MyResource (addOverride at ${at})`, rendered: 129 },
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, undefined) can be used to delete a value'
  test('a Contribution that deletes a declared leaf is CAP002 naming the declarer and the Contribution', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: { Value1: 'Hello', Value2: 129 } } } });

    // WHEN
    contribution(base, 'Team', r, (c) => c.addOverride('Properties.Hello.World.Value2', undefined));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/MyResource' and 'shop/Base/Team' both write Hello.World.Value2 of AWS::Resource::Type shop/Base/MyResource. ${dropOne(declares('shop/Base/MyResource'), contributes('write callback', 'shop/Base/Team'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, undefined) will not create empty trees'
  test('a plain deletion of a path nobody wrote, beside another call\'s leaf, is accepted and creates no empty map', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    r.addPropertyOverride('Tree.Exists', 42);
    r.addPropertyOverride('Tree.Does.Not.Exist', undefined);

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Tree: { Exists: 42 } } });
    expect(overrides).toEqual([]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, undefined) will not create empty trees'
  test('the same two writes from two Contributions touch no common field and are accepted (no false CAP002)', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    contribution(base, 'Writer', r, (c) => c.addPropertyOverride('Tree.Exists', 42));
    contribution(base, 'Deleter', r, (c) => c.addPropertyOverride('Tree.Does.Not.Exist', undefined));

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Tree: { Exists: 42 } } });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, undefined) will respect empty trees'
  test('an override holding empty maps is accepted; aws-cdk-lib 2.276.0 drops the empty maps from its render', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    r.addPropertyOverride('Tree.Exists', 42);
    r.addPropertyOverride('Tree.Does.Exist', { Action: { Block: {} } });

    // THEN upstream (newer than our aws-cdk-lib 2.276.0) keeps `Does: { Exist: { Action: { Block: {} } } }`; the
    // aws-cdk-lib we build with renders the same as a plain aws-cdk App does, without it. An upgrade fails here.
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Tree: { Exists: 42 } } });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addDeletionOverride(p) and addPropertyDeletionOverride(pp) are sugar for `undefined`'
  test('addDeletionOverride and addPropertyDeletionOverride of two declared leaves are accepted, each a removal in the plan', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: helloWorld() });

    // WHEN
    const first = siteOfNextLine();
    r.addDeletionOverride('Properties.Hello.World.Value2');
    const second = siteOfNextLine();
    r.addPropertyDeletionOverride('Hello.World.Value3');

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Hello: { World: { Value1: 'Hello' } } } });
    expect(overrides).toEqual([
      { object: 'AWS::Resource::Type shop/Base/MyResource', field: 'Hello.World.Value2', by: `shop/Base/MyResource (addDeletionOverride at ${first})`, rendered: 129 },
      { object: 'AWS::Resource::Type shop/Base/MyResource', field: 'Hello.World.Value3', by: `shop/Base/MyResource (addPropertyDeletionOverride at ${second})`, rendered: ['foo', 'bar'] },
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will overwrite any non-objects along the path'
  test('a second call that writes below another call\'s list replaces it: CAP002 naming both calls', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: 42 } } });

    // WHEN upstream's three calls; aws-cdk renders `Override1: { Override2: ... }`, the first call's list lost
    const first = siteOfNextLine();
    r.addOverride('Properties.Override1', ['Hello', 123]);
    const second = siteOfNextLine();
    r.addOverride('Properties.Override1.Override2', { Heyy: [1] });
    r.addOverride('Properties.Hello.World.Foo.Bar', 42);

    // THEN the two writers of Override1 are refused; the override below the declared Hello.World is not
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/MyResource' (addOverride at ${first}) and 'shop/Base/MyResource' (addOverride at ${second}) both write ` +
        `Override1 of AWS::Resource::Type shop/Base/MyResource. ${keepOne('shop/Base/MyResource')}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will overwrite any non-objects along the path'
  test('a plain override below a declared number replaces it with a map and is accepted', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: 42 } } });

    // WHEN
    r.addOverride('Properties.Hello.World.Foo.Bar', 42);

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Hello: { World: { Foo: { Bar: 42 } } } } });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will overwrite any non-objects along the path'
  test('the list and the map below it from two Contributions are CAP002 naming both', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    contribution(base, 'Lists', r, (c) => c.addOverride('Properties.Override1', ['Hello', 123]));
    contribution(base, 'Maps', r, (c) => c.addOverride('Properties.Override1.Override2', { Heyy: [1] }));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/Lists' and 'shop/Base/Maps' both write Override1 of AWS::Resource::Type shop/Base/MyResource. ${dropOne(contributes('write callback', 'shop/Base/Lists', 'shop/Base/Maps'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will not split on escaped dots'
  test('override paths with escaped dots and backslashes are accepted and rendered as aws-cdk splits them', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    r.addOverride(String.raw`Properties.Hello\.World.Foo\.Bar\.Baz`, 42);
    r.addOverride(String.raw`Properties.Single\Back\Slashes`, 42);
    r.addOverride(String.raw`Properties.Escaped\\.Back\\.Slashes`, 42);
    r.addOverride(String.raw`Properties.DoublyEscaped\\\\Back\\\\Slashes`, 42);
    r.addOverride('Properties.EndWith\\', 42);

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({
      Type: 'AWS::Resource::Type',
      Properties: {
        'Hello.World': { 'Foo.Bar.Baz': 42 },
        'SingleBackSlashes': 42,
        'Escaped\\': { 'Back\\': { Slashes: 42 } },
        'DoublyEscaped\\\\Back\\\\Slashes': 42,
        'EndWith\\': 42,
      },
    });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will not split on escaped dots'
  test('an escaped dot is part of a key: two Contributions writing "Hello.World" by path and by map are CAP002', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN
    contribution(base, 'ByPath', r, (c) => c.addOverride(String.raw`Properties.Hello\.World.Foo\.Bar\.Baz`, 1));
    contribution(base, 'ByMap', r, (c) => c.addPropertyOverride(String.raw`Hello\.World`, { 'Foo.Bar.Baz': 2 }));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/ByMap' and 'shop/Base/ByPath' both write ["Hello.World"]["Foo.Bar.Baz"] of AWS::Resource::Type shop/Base/MyResource. ${dropOne(contributes('write callback', 'shop/Base/ByMap', 'shop/Base/ByPath'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will not split on escaped dots'
  test('a backslash escapes the letter after it: Single\\Back\\Slashes and SingleBackSlashes from two Contributions are CAP002', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN both write the key aws-cdk renders as SingleBackSlashes (the later one's value would win)
    contribution(base, 'Escaped', r, (c) => c.addOverride(String.raw`Properties.Single\Back\Slashes`, 1));
    contribution(base, 'Plain', r, (c) => c.addPropertyOverride('SingleBackSlashes', 2));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/Escaped' and 'shop/Base/Plain' both write SingleBackSlashes of AWS::Resource::Type shop/Base/MyResource. ${dropOne(contributes('write callback', 'shop/Base/Escaped', 'shop/Base/Plain'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addOverride(p, v) will not split on escaped dots'
  test('an escaped backslash before a dot does not escape the dot: Escaped\\\\.Back\\\\.Slashes from two Contributions is CAP002', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type' });

    // WHEN both write Escaped\ > Back\ > Slashes, one by path and one as a map
    contribution(base, 'ByPath', r, (c) => c.addOverride(String.raw`Properties.Escaped\\.Back\\.Slashes`, 1));
    contribution(base, 'ByMap', r, (c) => c.addPropertyOverride(String.raw`Escaped\\`, { 'Back\\': { Slashes: 2 } }));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/ByMap' and 'shop/Base/ByPath' both write ["Escaped\\\\"]["Back\\\\"].Slashes of AWS::Resource::Type shop/Base/MyResource. ${dropOne(contributes('write callback', 'shop/Base/ByMap', 'shop/Base/ByPath'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addPropertyOverride(pp, v) is a sugar for overriding properties'
  test('a plain property override that replaces a declared number with a map is accepted and rendered', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: 42 } } });

    // WHEN
    r.addPropertyOverride('Hello.World', { Hey: 'Jude' });

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'AWS::Resource::Type', Properties: { Hello: { World: { Hey: 'Jude' } } } });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'addPropertyOverride(pp, v) is a sugar for overriding properties'
  test('a Contribution that replaces a declared number with a map is CAP002 naming the declarer and the Contribution', () => {
    // GIVEN
    const { app, base } = fixture();
    const r = new CfnResource(base, 'MyResource', { type: 'AWS::Resource::Type', properties: { Hello: { World: 42 } } });

    // WHEN
    contribution(base, 'Team', r, (c) => c.addPropertyOverride('Hello.World', { Hey: 'Jude' }));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/MyResource' and 'shop/Base/Team' both write Hello.World of AWS::Resource::Type shop/Base/MyResource. ${dropOne(declares('shop/Base/MyResource'), contributes('write callback', 'shop/Base/Team'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides are applied after render'
  test('overrides beside what renderProperties renders are accepted and merged after it', () => {
    // GIVEN a resource whose renderProperties renders Fixed
    const { app, base } = fixture();
    const cfn = new FixedResource(base, 'rr', { type: 'AWS::Resource::Type' });

    // WHEN
    cfn.addPropertyOverride('Boom', 'Hi');
    cfn.addOverride('Properties.Foo.Bar', 'Bar');

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.rr).toEqual({ Type: 'AWS::Resource::Type', Properties: { Fixed: 123, Boom: 'Hi', Foo: { Bar: 'Bar' } } });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides are applied after render'
  test('a Contribution that overrides what renderProperties renders is CAP002 naming the declarer', () => {
    // GIVEN
    const { app, base } = fixture();
    const cfn = new FixedResource(base, 'rr', { type: 'AWS::Resource::Type' });

    // WHEN
    contribution(base, 'Team', cfn, (c) => c.addPropertyOverride('Fixed', 7));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/Team' and 'shop/Base/rr' both write Fixed of AWS::Resource::Type shop/Base/rr. ${dropOne(contributes('write callback', 'shop/Base/Team'), declares('shop/Base/rr'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides allow overriding one intrinsic with another'
  test('a plain override of a declared intrinsic with another is accepted; the plan shows the new value as known after deploy', () => {
    // GIVEN
    const { app, base } = fixture();
    const resource = new CfnResource(base, 'MyResource', { type: 'MyResourceType', properties: { prop1: Fn.ref('Param') } });

    // WHEN
    const at = siteOfNextLine();
    resource.addPropertyOverride('prop1', Fn.join('-', ['hello', Fn.ref('Param')]));

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({ Type: 'MyResourceType', Properties: { prop1: { 'Fn::Join': ['-', ['hello', { Ref: 'Param' }]] } } });
    expect(overrides).toEqual([
      { object: 'MyResourceType shop/Base/MyResource', field: 'prop1', by: `shop/Base/MyResource (addPropertyOverride at ${at})`, rendered: { Ref: 'Param' }, patched: '(known after deploy)' },
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides allow overriding one intrinsic with another'
  test('two Contributions that set one property to two intrinsics are CAP002 naming both', () => {
    // GIVEN
    const { app, base } = fixture();
    const resource = new CfnResource(base, 'MyResource', { type: 'MyResourceType' });

    // WHEN
    contribution(base, 'RefTeam', resource, (c) => c.addPropertyOverride('prop1', Fn.ref('Param')));
    contribution(base, 'JoinTeam', resource, (c) => c.addPropertyOverride('prop1', Fn.join('-', ['hello', Fn.ref('Param')])));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/JoinTeam' and 'shop/Base/RefTeam' both write prop1 of MyResourceType shop/Base/MyResource. ${dropOne(contributes('write callback', 'shop/Base/JoinTeam', 'shop/Base/RefTeam'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'Can override a an object with an intrinsic'
  test('a plain override of a declared map with an Fn::If is accepted and rendered', () => {
    // GIVEN
    const { app, base } = fixture();
    const condition = new CfnCondition(base, 'MyCondition', { expression: Fn.conditionEquals('us-east-1', 'us-east-1') });
    const resource = new CfnResource(base, 'MyResource', {
      type: 'MyResourceType',
      properties: { prop1: { subprop: { name: Fn.getAtt('resource', 'abc') } } },
    });
    const isEnabled = Fn.conditionIf(condition.logicalId, { Ref: 'AWS::NoValue' }, { name: Fn.getAtt('resource', 'abc') });

    // WHEN
    resource.addPropertyOverride('prop1.subprop', isEnabled);

    // THEN
    const { messages, resources } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({
      Type: 'MyResourceType',
      Properties: {
        prop1: { subprop: { 'Fn::If': ['MyCondition', { Ref: 'AWS::NoValue' }, { name: { 'Fn::GetAtt': ['resource', 'abc'] } }] } },
      },
    });
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'Can override a an object with an intrinsic'
  test('a Contribution that replaces a declared map with an Fn::If is CAP002 naming the declarer and the Contribution', () => {
    // GIVEN
    const { app, base } = fixture();
    const condition = new CfnCondition(base, 'MyCondition', { expression: Fn.conditionEquals('us-east-1', 'us-east-1') });
    const resource = new CfnResource(base, 'MyResource', {
      type: 'MyResourceType',
      properties: { prop1: { subprop: { name: Fn.getAtt('resource', 'abc') } } },
    });

    // WHEN
    contribution(base, 'Team', resource, (c) => c.addPropertyOverride('prop1.subprop', Fn.conditionIf(condition.logicalId, { Ref: 'AWS::NoValue' }, {})));

    // THEN
    expect(synth(app).messages).toEqual([
      `CAP002 field conflict: 'shop/Base/MyResource' and 'shop/Base/Team' both write prop1.subprop of MyResourceType shop/Base/MyResource. ${dropOne(declares('shop/Base/MyResource'), contributes('write callback', 'shop/Base/Team'))}`,
    ]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides allow overriding a nested intrinsic'
  test('a plain override of a declared nested intrinsic with another is accepted and rendered', () => {
    // GIVEN
    const { app, base } = fixture();
    const resource = new CfnResource(base, 'MyResource', { type: 'MyResourceType', properties: { prop1: Fn.importValue(Fn.sub('${Sub}', { Sub: 'Value' })) } });

    // WHEN
    const at = siteOfNextLine();
    resource.addPropertyOverride('prop1', Fn.importValue(Fn.join('-', ['abc', Fn.sub('${Sub}', { Sub: 'Value' })])));

    // THEN
    const { messages, resources, overrides } = synth(app);
    expect(messages).toEqual([]);
    expect(resources.MyResource).toEqual({
      Type: 'MyResourceType',
      Properties: { prop1: { 'Fn::ImportValue': { 'Fn::Join': ['-', ['abc', { 'Fn::Sub': ['${Sub}', { Sub: 'Value' }] }]] } } },
    });
    expect(overrides).toEqual([{
      object: 'MyResourceType shop/Base/MyResource',
      field: 'prop1',
      by: `shop/Base/MyResource (addPropertyOverride at ${at})`,
      rendered: { 'Fn::ImportValue': { 'Fn::Sub': ['${Sub}', { Sub: 'Value' }] } },
      patched: '(known after deploy)',
    }]);
  });

  // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'overrides allow cross-stack references'
  test('a property override that references a resource of another stack of the capability is accepted and imported', () => {
    // GIVEN a capability with unprefixed stack names, as upstream's stacks are named; one SharedBase per capability
    const app = new CapabilityApp({ outdir: tempDir(), builtinCloudFormationValidation: false });
    const capability = new Capability(app, 'shop', { prefixStackNames: false });
    const res1 = new CfnResource(new SharedBase(capability, 'Stack1'), 'SomeResource1', { type: 'Some::Resource1' });
    const res2 = new CfnResource(new Stack(capability, 'Stack2'), 'SomeResource2', { type: 'Some::Resource2' });

    // WHEN
    res2.addPropertyOverride('Key', res1.getAtt('Value'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.templates['shop/Stack2'].Resources).toEqual({
      SomeResource2: { Properties: { Key: { 'Fn::ImportValue': 'Stack1:ExportsOutputFnGetAttSomeResource1Value50DD3EF0' } }, Type: 'Some::Resource2' },
    });
  });

  describe('using mutable properties', () => {
    // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'using mutable properties' > 'can be used by derived classes to specify overrides before render()'
    test('a property set after construction is rendered with the declared one; no override, nothing to refuse', () => {
      // GIVEN
      const { app, base } = fixture();
      const r = new CustomizableResource(base, 'MyResource', { prop1: 'foo' });

      // WHEN
      r.prop2 = 'bar';

      // THEN
      const { messages, resources } = synth(app);
      expect(messages).toEqual([]);
      expect(resources.MyResource).toEqual({ Type: 'MyResourceType', Properties: { PROP1: 'foo', PROP2: 'bar' } });
    });

    // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'using mutable properties' > 'can be used by derived classes to specify overrides before render()'
    test('a Contribution that sets a mutable property the declarer left unset is accepted; one that sets a declared one is CAP002', () => {
      // GIVEN
      const { app: accepted, base } = fixture();
      const r = new CustomizableResource(base, 'MyResource', { prop1: 'foo' });
      const refused = fixture();
      const other = new CustomizableResource(refused.base, 'MyResource', { prop1: 'foo' });

      // WHEN
      new Contribution(base, 'Team', { target: r, write: (c) => { (c as CustomizableResource).prop2 = 'bar'; } });
      new Contribution(refused.base, 'Team', { target: other, write: (c) => { (c as CustomizableResource).prop1 = 'baz'; } });

      // THEN
      const { messages, resources } = synth(accepted);
      expect(messages).toEqual([]);
      expect(resources.MyResource).toEqual({ Type: 'MyResourceType', Properties: { PROP1: 'foo', PROP2: 'bar' } });
      expect(synth(refused.app).messages).toEqual([
        `CAP002 field conflict: 'shop/Base/MyResource' and 'shop/Base/Team' both write PROP1 of MyResourceType shop/Base/MyResource. ${dropOne(declares('shop/Base/MyResource'), contributes('write callback', 'shop/Base/Team'))}`,
      ]);
    });

    // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'using mutable properties' > '"properties" is undefined'
    test('a property set on a resource declared without properties is rendered', () => {
      // GIVEN
      const { app, base } = fixture();
      const r = new CustomizableResource(base, 'MyResource');

      // WHEN
      r.prop3 = 'zoo';

      // THEN
      const { messages, resources } = synth(app);
      expect(messages).toEqual([]);
      expect(resources.MyResource).toEqual({ Type: 'MyResourceType', Properties: { PROP3: 'zoo' } });
    });

    // Ported from aws/aws-cdk packages/aws-cdk-lib/core/test/resource.test.ts, 'overrides' > 'using mutable properties' > '"properties" is empty'
    test('properties set on a resource declared with empty properties are rendered', () => {
      // GIVEN
      const { app, base } = fixture();
      const r = new CustomizableResource(base, 'MyResource', {});

      // WHEN
      r.prop3 = 'zoo';
      r.prop2 = 'hey';

      // THEN
      const { messages, resources } = synth(app);
      expect(messages).toEqual([]);
      expect(resources.MyResource).toEqual({ Type: 'MyResourceType', Properties: { PROP2: 'hey', PROP3: 'zoo' } });
    });
  });
});

/** A resource whose renderProperties renders one fixed property, whatever it was given. */
class FixedResource extends CfnResource {
  protected renderProperties(): Record<string, unknown> {
    return { Fixed: 123 };
  }
}

/** Props of CustomizableResource. */
interface CustomizableProps {
  readonly prop1?: string;
  readonly prop2?: string;
  readonly prop3?: string;
}

/** A resource with mutable properties that it renders under upper-case keys, leaving out those unset. */
class CustomizableResource extends CfnResource {
  public prop1?: string;
  public prop2?: string;
  public prop3?: string;

  constructor(scope: Construct, id: string, props?: CustomizableProps) {
    super(scope, id, { type: 'MyResourceType', properties: props as Record<string, unknown> | undefined });
    this.prop1 = props?.prop1;
    this.prop2 = props?.prop2;
    this.prop3 = props?.prop3;
  }

  protected renderProperties(): Record<string, unknown> {
    const set = Object.entries({ prop1: this.prop1, prop2: this.prop2, prop3: this.prop3 }).filter(([, v]) => v !== undefined);
    return Object.fromEntries(set.map(([k, v]) => [k.toUpperCase(), v]));
  }
}
