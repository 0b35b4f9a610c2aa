import { Tags } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { coded } from './release-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, SharedBase } from '../src';

/**
 * A stack's and a resource's declared tags are what they held before any Tag aspect ran. A test that
 * asserts with `Template.fromStack` first synthesizes the stage, which runs the aspects; the synth after it
 * must attribute the tags as a synth alone does.
 */

/** shop/Base with bucket Data, tagged by `Tags.of(base)`: the composition of adoption.md's unit test. */
function taggedBase(): { app: CapabilityApp; base: SharedBase } {
  const app = CapabilityTesting.app();
  const base = new SharedBase(new Capability(app, 'shop'), 'Base');
  new s3.Bucket(base, 'Data');
  Tags.of(base).add('cost-center', 'storage');
  return { app, base };
}

describe('a synth after Template.fromStack attributes the tags as a synth alone does', () => {
  test('Template.fromStack, then CapabilityTesting.synth: the Tag is accepted on the stack and the bucket', () => {
    // GIVEN the composition, asserted on with Template.fromStack first
    const { app, base } = taggedBase();
    const template = Template.fromStack(base);
    template.resourceCountIs('AWS::S3::Bucket', 1);
    template.hasResourceProperties('AWS::S3::Bucket', { Tags: [{ Key: 'cost-center', Value: 'storage' }] });

    // WHEN the checks run on it
    const result = CapabilityTesting.synth(app);

    // THEN no violation, and the template the synth wrote carries the tag
    expect(result.violations).toEqual([]);
    expect(Template.fromJSON(result.templates['shop/Base']).findResources('AWS::S3::Bucket')).toEqual({
      Data666C94C7: expect.objectContaining({ Properties: { Tags: [{ Key: 'cost-center', Value: 'storage' }] } }),
    });
  });

  test('CapabilityTesting.synth twice: no violation either time', () => {
    // GIVEN the composition
    const { app } = taggedBase();

    // WHEN synthesized twice
    const first = CapabilityTesting.synth(app);
    const second = CapabilityTesting.synth(app);

    // THEN both accept it
    expect(first.violations).toEqual([]);
    expect(second.violations).toEqual([]);
  });

  test('app.synth() twice: no violation, so neither throws', () => {
    // GIVEN the composition
    const { app } = taggedBase();

    // WHEN synthesized twice, THEN neither is refused
    expect(() => app.synth()).not.toThrow();
    expect(() => app.synth()).not.toThrow();
  });

  test('a Tag of the stack over its capability\'s Tag is the same handover after Template.fromStack as without', () => {
    // GIVEN team tagged on shop and on shop/Base, synthesized alone and after Template.fromStack
    const layered = (assertFirst: boolean) => {
      const app = CapabilityTesting.app();
      const shop = new Capability(app, 'shop');
      const base = new SharedBase(shop, 'Base');
      new s3.Bucket(base, 'Data');
      Tags.of(shop).add('team', 'shop');
      Tags.of(base).add('team', 'base-team');
      if (assertFirst) Template.fromStack(base).hasResourceProperties('AWS::S3::Bucket', { Tags: [{ Key: 'team', Value: 'base-team' }] });
      const result = CapabilityTesting.synth(app);
      expect(result.violations).toEqual([]);
      return result.plan?.ownership?.handovers.map((h) => `${h.object} ${h.field}: ${h.from} -> ${h.to} (${h.reason})`);
    };

    // WHEN synthesized both ways
    const alone = layered(false);
    const after = layered(true);

    // THEN the nearer scope takes team over, on the stack and on the bucket, once each, both ways
    expect(alone).toEqual([
      expect.stringMatching(/^AWS::S3::Bucket shop\/Base\/Data\/Resource Tags\.team: shop \(Tags\.of\(\)\.add at test\/declared-tags\.test\.ts:\d+\) -> shop\/Base \(Tags\.of\(\)\.add at test\/declared-tags\.test\.ts:\d+\) \(nearer-scope\)$/),
      expect.stringMatching(/^stack shop\/Base Tags\.team: shop \(Tags\.of\(\)\.add at test\/declared-tags\.test\.ts:\d+\) -> shop\/Base \(Tags\.of\(\)\.add at test\/declared-tags\.test\.ts:\d+\) \(nearer-scope\)$/),
    ]);
    expect(after).toEqual(alone);
  });

  test('a Tag over a tag the stack declares is still CAP002 after Template.fromStack, with the same message as without', () => {
    // GIVEN shop/Base declaring cost-center in its tags prop, and a Tag of it, synthesized alone and after Template.fromStack
    const declared = (assertFirst: boolean) => {
      const app = CapabilityTesting.app();
      const base = new SharedBase(new Capability(app, 'shop'), 'Base', { tags: { 'cost-center': 'platform' } });
      Tags.of(base).add('cost-center', 'storage');
      if (assertFirst) Template.fromStack(base).templateMatches({});
      return coded(CapabilityTesting.synth(app).violations);
    };

    // WHEN checked both ways
    const alone = declared(false);
    const after = declared(true);

    // THEN one CAP002 naming the stack's tags and the Tag, the same both ways
    expect(alone).toEqual([
      {
        code: 'CAP002',
        message: expect.stringMatching(/^field conflict: 'shop\/Base' \(Tags\.of\(\)\.add at test\/declared-tags\.test\.ts:\d+\) and 'shop\/Base' \(stack tags\) both write Tags\["cost-center"\] of stack shop\/Base/),
        paths: ['shop/Base'],
      },
    ]);
    expect(after).toEqual(alone);
  });
});
