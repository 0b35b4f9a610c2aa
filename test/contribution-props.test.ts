/**
 * Bad Contribution props (issue 26, item 5): each is a CAP010 naming the
 * contribution, what it received and what it expects; never CAP000, never a
 * throw at construction. The props are built as JavaScript would pass them.
 */
import { CfnResource } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { Capability, CapabilityTesting, CompositionError, Contribution, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { thrownBy } from './util';

function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'cdn' }, data: { level: 'info' } });
  return { app, cdn, routing, settings, team: new Construct(routing, 'Team') };
}

/** The messages of a synth of a contribution made with `props` (as untyped JavaScript passes them). */
function refusal(props: unknown, target: (f: ReturnType<typeof fixture>) => unknown = (f) => f.settings): string[] {
  const f = fixture();
  const given = props && typeof props === 'object' && !Array.isArray(props) ? { target: target(f), ...props } : props;
  new Contribution(f.team, 'Bad', given as any);
  return CapabilityTesting.synth(f.app).violations.map((v) => `${v.code} ${v.message}`);
}

const BAD = "CAP010 invalid object: Contribution 'cdn/Routing/Team/Bad': ";

describe('a Contribution with props it cannot use is CAP010 naming it, never CAP000', () => {
  test.each([
    ['nothing to write (a target alone)', {}, "it has nothing to write: give it 'fields', 'patches' or 'write'."],
    ['fields that are a string', { fields: 'spec.replicas=3' }, '\'fields\' ("spec.replicas=3") must be an object, such as { spec: { replicas: 3 } }.'],
    ['fields that are a list', { fields: [{ data: {} }] }, "'fields' (a list) must be an object, such as { spec: { replicas: 3 } }."],
    ['patches that are one patch, not a list', { patches: JsonPatch.add('/data/a', '1') }, "'patches' (a JsonPatch) must be a list of JsonPatch, such as [JsonPatch.add('/spec/replicas', 3)]."],
    ['patches that are plain RFC 6902 objects', { patches: [{ op: 'add', path: '/data/a', value: '1' }] },
      "'patches'[0] (an object) must be a JsonPatch, made with JsonPatch.add, replace, remove, move, copy or test."],
    ['write that is no function', { write: 'addLabel' }, '\'write\' ("addLabel") must be a function of the target.'],
    ['force that is a string', { fields: { data: { a: '1' } }, force: 'yes' }, '\'force\' ("yes") must be true or false.'],
    ['fields holding a function (a CAP000 before: a function cannot be cloned)', { fields: { data: { a: () => '1' } } },
      "'fields.data.a' is a function, which JSON and YAML have no form for. Give it as a string or a number."],
    ['a patch whose path is no JSON pointer (cdk8s applied it, changing nothing)', { patches: [JsonPatch.add('data/a', '1')] },
      '\'patches\'[0] (add) has the path "data/a", which is no JSON pointer, so the patch would change nothing: a pointer starts with \'/\', such as "/data/a".'],
    ['a move from a dotted path', { patches: [JsonPatch.move('data.level', '/data/b')] },
      '\'patches\'[0] (move) has the from "data.level", which is no JSON pointer, so the patch would change nothing: a pointer starts with \'/\', such as "/data/level".'],
    ['an async write callback (what it wrote after its first await was lost)', { write: async (t: ApiObject) => { await Promise.resolve(); t.metadata.addLabel('late', 'yes'); } },
      "its write callback returned a promise (is it an async function?): synth runs it once and does not wait for it, so what it writes after its first 'await' would be lost. "
        + 'Write synchronously: compute what it awaits before the Contribution is created, and drop async.'],
  ])('%s', (_, props, expected) => {
    expect(refusal(props)).toEqual([BAD + expected]);
  });

  test('a misspelt prop is CAP010 as the contribution is created, naming the prop meant (a misspelt force wrote without it, a misspelt fields had nothing to write)', () => {
    // GIVEN
    const f = fixture();
    const made = (props: object) => thrownBy(() => new Contribution(f.team, 'Bad', { target: f.settings, ...props } as any)) as CompositionError;

    // THEN
    const refusals = [made({ fields: { data: { level: 'debug' } }, forse: true }), made({ feilds: { data: { a: '1' } } })];
    expect(refusals.map((e) => CompositionError.isCompositionError(e) && e.violations.map((v) => [v.code, v.message, v.paths]))).toEqual([
      [['CAP010', "invalid object: Contribution 'cdn/Routing/Team/Bad' props: 'forse' is not an option (did you mean 'force'?); "
        + "the options are 'target', 'fields', 'patches', 'write', 'force'", ['cdn/Routing/Team/Bad']]],
      [['CAP010', "invalid object: Contribution 'cdn/Routing/Team/Bad' props: 'feilds' is not an option (did you mean 'fields'?); "
        + "the options are 'target', 'fields', 'patches', 'write', 'force'", ['cdn/Routing/Team/Bad']]],
    ]);
  });

  test('a target that is no construct is quoted', () => {
    expect(refusal({ fields: { data: { a: '1' } } }, () => 'settings')).toEqual([
      `${BAD}'target' ("settings") must be an ApiObject, a construct with one as its default child, or a CfnResource.`,
    ]);
    expect(refusal({ fields: { data: { a: '1' } } }, () => ({ kind: 'ConfigMap', name: 'settings' }))).toEqual([
      `${BAD}'target' ({"kind":"ConfigMap","name":"settings"}) must be an ApiObject, a construct with one as its default child, or a CfnResource.`,
    ]);
  });

  test('a target of another app is refused, not a contribution that writes nothing', () => {
    // GIVEN a ConfigMap of a plain cdk8s app, which the CapabilityApp's synth never renders
    const other = new ApiObject(new Chart(new App(), 'web'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });

    // THEN
    expect(refusal({ fields: { data: { a: '1' } } }, () => other)).toEqual([
      `${BAD}'target' ('web/Settings') is in another app than the contribution, whose synth never renders it, so nothing would be written. `
        + 'Target an object of this app, or create the contribution in the app of the target.',
    ]);
  });

  test("a contract field's handle as a field value is refused, naming the env entry to write instead", () => {
    // GIVEN the handle of a consumed field
    const f = fixture();
    const edge = new InterfaceContract(f.cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
    edge.publish(new SharedBase(f.cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
    const values = edge.consume(f.routing);
    new Contribution(f.team, 'Bad', { target: f.settings, fields: { data: { header: values.tenantHeader } } });

    // THEN
    expect(CapabilityTesting.synth(f.app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `${BAD}'fields.data.header' is the handle of field 'tenantHeader' of 'cdn/Edge', not a value: a consumed field reaches a pod only as a container env entry `
        + "that reads it from the Secret the contract binds. Write that entry into a container's env instead, such as values.tenantHeader.envVar().",
    ]);
  });

  test('a second Contribution of one id, or one of no id, is CAP010 naming its place, not the constructs error', () => {
    // GIVEN
    const f = fixture();
    new Contribution(f.team, 'Level', { target: f.settings, fields: { data: { a: '1' } } });

    // THEN
    const [twice, none] = [() => new Contribution(f.team, 'Level', { target: f.settings, fields: { data: { b: '1' } } }), () => new Contribution(f.team, '', { target: f.settings, fields: {} })]
      .map((make) => thrownBy(make) as CompositionError);
    expect([twice, none].map((e) => CompositionError.isCompositionError(e) && e.violations.map((v) => [v.code, v.message, v.paths]))).toEqual([
      [['CAP010', "invalid object: Contribution 'cdn/Routing/Team/Level': 'cdn/Routing/Team' already has a child of the id 'Level' (the Contribution 'cdn/Routing/Team/Level'), "
        + "and a construct's id is unique among its siblings. Give the Contribution an id of its own", ['cdn/Routing/Team/Level']]],
      [['CAP010', "invalid object: Contribution in 'cdn/Routing/Team': its id (\"\") must be a string that is not empty, such as 'Timeouts'", ['cdn/Routing/Team']]],
    ]);
  });

  test('no target at all', () => {
    expect(refusal({ fields: { data: { a: '1' } } }, () => undefined)).toEqual([`${BAD}'target' is missing: give it the object to write into.`]);
  });

  test('no props at all (JavaScript calling new Contribution(scope, id))', () => {
    expect(refusal(undefined)).toEqual([`${BAD}'target' is missing: give it the object to write into.`, `${BAD}it has nothing to write: give it 'fields', 'patches' or 'write'.`]);
  });

  test('JSON patches into a CloudFormation resource, which has none', () => {
    expect(refusal({ patches: [JsonPatch.add('/A', 1)] }, (f) => new s3.Bucket(new SharedBase(f.cdn, 'Base'), 'Bucket'))).toEqual([
      `${BAD}'patches' apply to Kubernetes objects only; write CloudFormation properties with 'fields' or 'write'.`,
    ]);
  });

  test("aws-cdk's prop names in 'fields' of an AWS:: resource are refused with the template's name, as the resource's L1 renders it (SSESpecification, not the capitalized key)", () => {
    // GIVEN a bucket named by its props, and a DynamoDB table, whose SSESpecification is not the capitalized sseSpecification
    const base = (f: ReturnType<typeof fixture>) => new SharedBase(f.cdn, 'Base');
    const bucket = (f: ReturnType<typeof fixture>) => new s3.Bucket(base(f), 'Bucket', { bucketName: 'assets' });

    // THEN each lower-case key is one refusal; a capitalized key beside them is taken
    expect(refusal({ fields: { bucketName: 'x', versioningConfiguration: { status: 'Enabled' }, Tags: [] } }, bucket)).toEqual([
      `${BAD}'fields.bucketName' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource'): 'fields' takes the template's property names, which start with a capital, not aws-cdk's prop names. Write 'BucketName'.`,
      `${BAD}'fields.versioningConfiguration' is not a CloudFormation property of AWS::S3::Bucket ('cdn/Base/Bucket/Resource'): 'fields' takes the template's property names, which start with a capital, not aws-cdk's prop names. Write 'VersioningConfiguration'.`,
    ]);
    const table = (f: ReturnType<typeof fixture>) => new dynamodb.Table(base(f), 'Table', {
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING }, encryption: dynamodb.TableEncryption.AWS_MANAGED,
    });
    expect(refusal({ fields: { sseSpecification: { sseEnabled: false } } }, table)).toEqual([
      `${BAD}'fields.sseSpecification' is not a CloudFormation property of AWS::DynamoDB::Table ('cdn/Base/Table/Resource'): 'fields' takes the template's property names, which start with a capital, not aws-cdk's prop names. Write 'SSESpecification'.`,
    ]);
  });

  test('a custom resource names its properties as it likes: lower-case keys are taken', () => {
    // GIVEN a CfnResource of a Custom:: type
    const custom = (f: ReturnType<typeof fixture>) => new CfnResource(new SharedBase(f.cdn, 'Base'), 'Seed', { type: 'Custom::Seed', properties: { ServiceToken: 'arn:aws:lambda:eu-west-1:111111111111:function:seed' } });

    // THEN no refusal
    expect(refusal({ fields: { rows: 3 } }, custom)).toEqual([]);
  });

  test('a write callback that throws writes nothing and names the error', () => {
    expect(refusal({ write: () => { throw new Error('no such container'); } })).toEqual([
      `${BAD}its write callback threw: no such container. Fix the callback; it writes nothing until it runs through.`,
    ]);
  });

  test('a write callback whose target cannot be rendered before it runs (a cdk8s-plus Deployment without a container) names the target', () => {
    // GIVEN a Deployment its declarer gave no container (cdk8s-plus refuses to render it)
    const messages = refusal({ write: (d: kplus.Deployment) => d.addContainer({ image: 'nginx' }) }, (f) => new kplus.Deployment(f.routing, 'Web'));

    // THEN the contribution's error, beside the one the object's own render gives
    expect(messages.filter((m) => m.startsWith(BAD))).toEqual([
      expect.stringMatching(/^CAP010 invalid object: Contribution 'cdn\/Routing\/Team\/Bad': its target 'cdn\/Routing\/Web\/Resource' cannot be rendered before the write callback runs \(.+\), so what the callback writes cannot be told from what its declarer wrote\. Give the declarer what the object needs to render/),
    ]);
  });

  test('any props at all, as JavaScript may pass them: a refusal as it is created, or a synth that accepts or refuses, each with coded errors, never a crash or CAP000', () => {
    const anything = fc.oneof(
      fc.anything(),
      fc.record({
        fields: fc.oneof(fc.anything(), fc.dictionary(fc.string(), fc.jsonValue())),
        patches: fc.oneof(fc.anything(), fc.array(fc.oneof(fc.anything(), fc.constant(JsonPatch.add('/data/x', 'y'))))),
        write: fc.oneof(fc.anything(), fc.constant(() => undefined), fc.constant(() => { throw new Error('boom'); })),
        force: fc.anything(),
      }, { requiredKeys: [] }),
    );
    fc.assert(fc.property(anything, (props) => {
      const f = fixture();
      const given = props && typeof props === 'object' && !Array.isArray(props) ? { target: f.settings, ...props } : props;
      // a prop it does not take is refused as it is created, with a coded error
      const refused = (() => {
        try {
          new Contribution(f.team, 'Any', given as any);
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      if (refused !== undefined) {
        expect(CompositionError.isCompositionError(refused)).toBe(true);
        expect((refused as CompositionError).violations.map((v) => v.code)).toEqual(['CAP010']);
        return;
      }
      const result = CapabilityTesting.synth(f.app);
      for (const v of [...result.violations, ...result.warnings]) {
        expect(v.code).not.toBe('CAP000');
        expect(v.code).toMatch(/^CAP0(0[1-9]|1[0-6])$/);
      }
    }), { numRuns: 150, seed: 20261204 });
  });
});
