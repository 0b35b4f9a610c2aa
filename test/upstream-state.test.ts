/**
 * The seam to the private state of cdk8s and aws-cdk (src/private/upstream-state.ts), run against the
 * versions package.json pins. An upgrade that changes a private shape fails here, in the test named after
 * the accessor, and the accessor itself throws an error naming it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { inspect } from 'util';
import { App, Aspects, IAspect, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, App as Cdk8sApp, Chart, JsonPatch, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import {
  aspectApplicationList, aspectsScopeOf, cfnPropertiesOf, declaredPropertiesOf, elementTemplateOf, jsonPatchesOf, labelMapsOf, patchOperation,
  plainRenderOf, rawOverridesOf, recordableRenderOf, renderWithoutPatches, setLabelMaps, UpstreamShapeError, validationsOf, watchCfnOptions,
} from '../src/private/upstream-state';

const PACKAGE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8'));

function installed(name: string): string {
  return JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf-8')).version;
}

function cdk8sObject() {
  const chart = new Chart(new Cdk8sApp(), 'Chart');
  return new ApiObject(chart, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config' }, data: { a: '1' } });
}

function bucket() {
  const stack = new Stack(new App(), 'Stack');
  return new s3.Bucket(stack, 'Bucket', { bucketName: 'assets', versioned: true }).node.defaultChild as s3.CfnBucket;
}

describe('the seam is checked against the pinned versions', () => {
  test.each(['cdk8s', 'aws-cdk-lib'])('%s is installed at exactly the version package.json pins', (name) => {
    // GIVEN / WHEN / THEN
    expect(installed(name)).toBe(PACKAGE.devDependencies[name]);
  });
});

describe('cdk8s', () => {
  test('jsonPatchesOf: each addJsonPatch operation, in the order added', () => {
    // GIVEN
    const o = cdk8sObject();

    // WHEN
    o.addJsonPatch(JsonPatch.add('/data/b', '2'), JsonPatch.remove('/data/a'));
    o.addJsonPatch(JsonPatch.replace('/metadata/name', 'other'));

    // THEN
    expect(jsonPatchesOf(o).map(patchOperation)).toEqual([
      { op: 'add', path: '/data/b', value: '2' },
      { op: 'remove', path: '/data/a' },
      { op: 'replace', path: '/metadata/name', value: 'other' },
    ]);
  });

  test('renderWithoutPatches: the declaration alone, and the patches are kept for the real render', () => {
    // GIVEN
    const o = cdk8sObject();
    o.addJsonPatch(JsonPatch.add('/data/b', '2'));

    // WHEN
    const declared = renderWithoutPatches(o);

    // THEN
    expect(declared.data).toEqual({ a: '1' });
    expect(o.toJson().data).toEqual({ a: '1', b: '2' });
    expect(jsonPatchesOf(o)).toHaveLength(1);
  });

  test('jsonPatchesOf names itself when the private shape is gone', () => {
    // GIVEN an object whose patches are not where the seam reads them
    const o = cdk8sObject();
    (o as any).patches = undefined;

    // WHEN / THEN
    expect(() => jsonPatchesOf(o)).toThrow(new UpstreamShapeError('jsonPatchesOf', 'cdk8s ApiObject.patches to be an array'));
    expect(() => jsonPatchesOf(o)).toThrow(/^the upstream seam 'jsonPatchesOf' \(src\/private\/upstream-state\.ts\) expected/);
  });

  test('recordableRenderOf: a plain object\'s own label and annotation maps, which addLabel writes and toJson renders, and the rest as text', () => {
    // GIVEN a plain object with a label from its props
    const chart = new Chart(new Cdk8sApp(), 'Chart');
    const declared = { team: 'a' };
    const o = new ApiObject(chart, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', labels: declared }, data: { a: '1' } });

    // WHEN
    const state = recordableRenderOf(o)!;
    o.metadata.addLabel('tier', 'web');
    o.metadata.addAnnotation('note', 'x');

    // THEN the maps are the metadata's own copies, written by addLabel, rendered by toJson
    expect(state.labels).not.toBe(declared);
    expect(state.labels).toEqual({ team: 'a', tier: 'web' });
    expect(state.annotations).toEqual({ note: 'x' });
    expect(labelMapsOf(o.metadata)).toEqual({ labels: state.labels, annotations: state.annotations });
    expect(o.toJson().metadata).toEqual({ name: 'config', labels: { team: 'a', tier: 'web' }, annotations: { note: 'x' } });
    expect(state.rest).toBe('{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"}}\n{"name":"config","namespace":undefined,"finalizers":[],"ownerReferences":[]}');
    expect(recordableRenderOf(o, state)).toEqual(state);
  });

  test('recordableRenderOf: nothing for a generated class, a token in the props or a label, or maps set by hand', () => {
    // GIVEN
    const chart = new Chart(new Cdk8sApp(), 'Chart');
    const lazyProps = new ApiObject(chart, 'Lazy', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: Lazy.any({ produce: () => '1' }) } });
    const lazyLabel = cdk8sObject();
    lazyLabel.metadata.addLabel('team', Lazy.any({ produce: () => 'a' }) as any);
    const replaced = cdk8sObject();
    const known = recordableRenderOf(replaced)!;
    setLabelMaps(replaced.metadata, { labels: {}, annotations: {} });

    // WHEN / THEN
    expect(recordableRenderOf(new kplus.k8s.KubeConfigMap(chart, 'Kube', { data: { a: '1' } }))).toBeUndefined();
    expect(recordableRenderOf(lazyProps)).toBeUndefined();
    expect(recordableRenderOf(lazyLabel)).toBeUndefined();
    expect(recordableRenderOf(replaced, known)).toBeUndefined();
  });

  test('recordableRenderOf names itself when a private field is gone', () => {
    // GIVEN metadata without its private label map
    const o = cdk8sObject();
    delete (o.metadata as any).labels;

    // WHEN / THEN
    expect(() => recordableRenderOf(o)).toThrow(/^the upstream seam 'recordableRenderOf' \(src\/private\/upstream-state\.ts\) expected cdk8s ApiObjectMetadataDefinition to have the fields labels/);
  });

  describe('plainRenderOf', () => {
    /** Keys of a map: any text but the two that cdk8s' resolvers do not copy as keys (`plainRenderOf` leaves those to cdk8s). */
    const key = fc.string({ maxLength: 6 }).filter((k) => k !== 'constructor' && k !== '__proto__');
    /** Plain data as props hold it: scalars, null and undefined, lists and maps (of the Object prototype, as a program writes them), nested. */
    const { data } = fc.letrec((tie) => ({
      data: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined),
        fc.array(tie('data'), { maxLength: 3 }),
        fc.dictionary(key, tie('data'), { maxKeys: 4 }).map((d) => ({ ...d })),
      ),
    }));
    const stringMap = fc.dictionary(key, fc.string({ maxLength: 4 }), { maxKeys: 3 }).map((d) => ({ ...d }));
    /** Props of an object: apiVersion and kind (cdk8s requires them), metadata maybe, with its own fields and others, and the rest. */
    const props = fc.record(
      {
        apiVersion: fc.constantFrom('v1', 'apps/v1', 'example.com/v1alpha1'),
        kind: fc.constantFrom('ConfigMap', 'Deployment', 'Widget'),
        metadata: fc.record(
          {
            name: fc.string({ maxLength: 6 }),
            namespace: fc.string({ maxLength: 6 }),
            labels: stringMap,
            annotations: stringMap,
            finalizers: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
            extra: data,
          },
          { requiredKeys: [] },
        ),
        spec: data,
        data: data,
        rest: fc.dictionary(key, data, { maxKeys: 3 }).map((d) => ({ ...d })),
      },
      { requiredKeys: ['apiVersion', 'kind'] },
    );
    /** Data as a test compares it: keys in their order, undefined values and list elements shown. */
    const shown = (x: unknown) => inspect(x, { depth: null, sorted: false, getters: false });

    test('renders what toJson() renders, key order and undefined list elements included, for generated plain objects', () => {
      fc.assert(
        fc.property(props, stringMap, (p, added) => {
          // GIVEN a plain object of the props, with labels and annotations added after
          const { rest, metadata, ...top } = p as Record<string, any>;
          const chart = new Chart(new Cdk8sApp(), 'Chart');
          const { extra, ...ownMetadata } = metadata ?? {};
          const o = new ApiObject(chart, 'Object', { ...rest, ...top, metadata: { ...ownMetadata, ...(extra === undefined ? {} : { extra }) } } as any);
          for (const [k, v] of Object.entries(added)) o.metadata.addLabel(k, v);

          // WHEN
          const fast = plainRenderOf(o);

          // THEN
          expect(fast).toBeDefined();
          expect(shown(fast)).toBe(shown(o.toJson()));
        }),
        { numRuns: 300 },
      );
    });

    test('nothing for what cdk8s resolves or refuses: a Lazy, a class instance, a JSON patch, a generated class, a key its resolvers treat apart, a getter that throws', () => {
      // GIVEN
      const chart = new Chart(new Cdk8sApp(), 'Chart');
      const object = (id: string, extra: Record<string, unknown>) => new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', ...extra } as any);
      const patched = object('Patched', { data: { a: '1' } });
      patched.addJsonPatch(JsonPatch.add('/data/b', '2'));
      const lazyLabel = object('LazyLabel', {});
      lazyLabel.metadata.addLabel('team', Lazy.any({ produce: () => 'a' }) as any);
      const withValue = Object.assign(['x'], { value: 'y' });

      // WHEN / THEN
      expect(plainRenderOf(object('Lazy', { data: { a: Lazy.any({ produce: () => '1' }) } }))).toBeUndefined();
      expect(plainRenderOf(object('Date', { data: { a: new Date(0) } }))).toBeUndefined();
      expect(plainRenderOf(object('Function', { data: { a: () => 1 } }))).toBeUndefined();
      expect(plainRenderOf(patched)).toBeUndefined();
      expect(plainRenderOf(lazyLabel)).toBeUndefined();
      expect(plainRenderOf(new kplus.k8s.KubeConfigMap(chart, 'Kube', { data: { a: '1' } }))).toBeUndefined();
      expect(plainRenderOf(object('Constructor', { spec: { constructor: 'x', value: 1 } }))).toBeUndefined();
      expect(plainRenderOf(object('Proto', { spec: JSON.parse('{"__proto__": {"a": 1}}') }))).toBeUndefined();
      expect(plainRenderOf(object('Value', { spec: { list: withValue } }))).toBeUndefined();
      // eslint-disable-next-line no-sparse-arrays
      expect(plainRenderOf(object('Holes', { spec: { list: [1, , 3] } }))).toBeUndefined();
      expect(plainRenderOf(object('Getter', { data: { get broken(): string { throw new Error('no value'); } } }))).toBeUndefined();
    });

    test('nothing with CDK8S_DISABLE_SORT set, and a render deeper than it follows left to cdk8s', () => {
      // GIVEN
      const deep: Record<string, unknown> = {};
      let at = deep;
      for (let i = 0; i < 100; i++) at = (at.a = {}) as Record<string, unknown>;
      const o = cdk8sObject();
      const saved = process.env.CDK8S_DISABLE_SORT;

      // WHEN / THEN
      try {
        process.env.CDK8S_DISABLE_SORT = '1';
        expect(plainRenderOf(o)).toBeUndefined();
      } finally {
        if (saved === undefined) delete process.env.CDK8S_DISABLE_SORT;
        else process.env.CDK8S_DISABLE_SORT = saved;
      }
      expect(plainRenderOf(o)).toEqual(o.toJson());
      const chart = new Chart(new Cdk8sApp(), 'Chart');
      expect(plainRenderOf(new ApiObject(chart, 'Deep', { apiVersion: 'v1', kind: 'ConfigMap', spec: deep } as any))).toBeUndefined();
    });

    test('names itself when a private field is gone', () => {
      // GIVEN metadata without its private finalizer list
      const o = cdk8sObject();
      delete (o.metadata as any).finalizers;

      // WHEN / THEN
      expect(() => plainRenderOf(o)).toThrow(/^the upstream seam 'plainRenderOf' \(src\/private\/upstream-state\.ts\) expected cdk8s ApiObjectMetadataDefinition to have the fields labels/);
    });
  });

  test('patchOperation names itself when a patch has no operation', () => {
    // GIVEN / WHEN / THEN
    expect(() => patchOperation({} as JsonPatch)).toThrow(/upstream seam 'patchOperation'/);
  });
});

describe('aws-cdk', () => {
  test('rawOverridesOf: the override tree addOverride builds, deletions as undefined', () => {
    // GIVEN
    const r = bucket();

    // WHEN
    r.addPropertyOverride('VersioningConfiguration.Status', 'Suspended');
    r.addPropertyDeletionOverride('BucketName');

    // THEN
    expect(rawOverridesOf(r)).toEqual({ Properties: { VersioningConfiguration: { Status: 'Suspended' }, BucketName: undefined } });
  });

  test('declaredPropertiesOf: the properties as the declaration renders them, overrides left out', () => {
    // GIVEN
    const r = bucket();

    // WHEN
    r.addPropertyOverride('BucketName', 'overridden');

    // THEN
    expect(declaredPropertiesOf(r)).toEqual({ BucketName: 'assets', VersioningConfiguration: { Status: 'Enabled' } });
  });

  test('declaredPropertiesOf partial: a resource aws-cdk refuses for a required property it lacks renders without it, in the same names', () => {
    // GIVEN an iam.Policy declared empty: its CfnPolicy has no policyDocument, which aws-cdk's validator requires
    const stack = new Stack(new App(), 'Stack');
    const r = new iam.Policy(stack, 'Empty', { policyName: 'p' }).node.defaultChild as iam.CfnPolicy;

    // THEN the strict render throws, the partial one leaves the document out; a wrong value still throws
    expect(() => declaredPropertiesOf(r)).toThrow(/policyDocument: required but missing/);
    expect(declaredPropertiesOf(r, { partial: true })).toEqual({ PolicyName: 'p' });
    r.policyName = 42 as unknown as string;
    expect(() => declaredPropertiesOf(r, { partial: true })).toThrow(/policyDocument: required but missing/);
  });

  test('elementTemplateOf: the template fragment of an element, tokens unresolved', () => {
    // GIVEN a bucket that names another's name
    const r = bucket();
    const other = new s3.Bucket(Stack.of(r), 'Other');
    r.addPropertyOverride('Tags', [{ Key: 'other', Value: other.bucketName }]);

    // WHEN
    const fragment = elementTemplateOf(r);

    // THEN unresolved, it resolves to the resource by its logical id, the other's name a reference
    expect(Token.isUnresolved(JSON.stringify(fragment))).toBe(true);
    expect(Stack.of(r).resolve(fragment)).toEqual({
      Resources: {
        Bucket83908E77: expect.objectContaining({
          Type: 'AWS::S3::Bucket',
          Properties: expect.objectContaining({ Tags: [{ Key: 'other', Value: { Ref: Stack.of(r).getLogicalId(other.node.defaultChild as s3.CfnBucket) } }] }),
        }),
      },
    });
  });

  test('elementTemplateOf names itself when the private shape is gone', () => {
    // GIVEN
    const r = bucket();
    Object.defineProperty(r, '_toCloudFormation', { value: undefined });

    // WHEN / THEN
    expect(() => elementTemplateOf(r)).toThrow(/upstream seam 'elementTemplateOf'/);
  });

  test('aspectApplicationList: the list Aspects.add appends to and applied reads, changed in place', () => {
    // GIVEN a stack with an aspect
    const stack = new Stack(new App(), 'Stack');
    const first: IAspect = { visit: () => {} };
    const second: IAspect = { visit: () => {} };
    Aspects.of(stack).add(first, { priority: 100 });

    // WHEN another application is put first in the list
    const list = aspectApplicationList(stack);
    list.unshift({ aspect: second, priority: 300 });

    // THEN the list held both, and aws-cdk reads the change
    expect(list.map((a) => [a.aspect, a.priority])).toEqual([[second, 300], [first, 100]]);
    expect(Aspects.of(stack).applied.map((a) => a.aspect)).toEqual([second, first]);
  });

  test('aspectApplicationList names itself when the private shape is gone', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Stack');
    Object.defineProperty(Aspects.of(stack), '_appliedAspects', { value: undefined });

    // WHEN / THEN
    expect(() => aspectApplicationList(stack)).toThrow(/upstream seam 'aspectApplicationList'/);
  });

  test('aspectsScopeOf and cfnPropertiesOf: the scope Aspects.of was given, and the L1 properties as set', () => {
    // GIVEN a stack and a bucket with a name
    const stack = new Stack(new App(), 'Stack');
    const r = new s3.CfnBucket(stack, 'Bucket', { bucketName: 'assets' });

    // WHEN / THEN
    expect(aspectsScopeOf(Aspects.of(stack))).toBe(stack);
    expect(cfnPropertiesOf(r).bucketName).toBe('assets');
  });

  test('aspectsScopeOf and cfnPropertiesOf name themselves when the private shape is gone', () => {
    // GIVEN
    const stack = new Stack(new App(), 'Stack');
    const r = new s3.CfnBucket(stack, 'Bucket');
    Object.defineProperty(Aspects.of(stack), '_scope', { value: undefined });
    Object.defineProperty(r, 'cfnProperties', { value: undefined });

    // WHEN / THEN
    expect(() => aspectsScopeOf(Aspects.of(stack))).toThrow(/upstream seam 'aspectsScopeOf'/);
    expect(() => cfnPropertiesOf(r)).toThrow(/upstream seam 'cfnPropertiesOf'/);
  });

  test('rawOverridesOf and declaredPropertiesOf name themselves when the private shape is gone', () => {
    // GIVEN
    const r = bucket();
    Object.defineProperty(r, 'rawOverrides', { value: 'gone' });
    Object.defineProperty(r, 'renderProperties', { value: undefined });

    // WHEN / THEN
    expect(() => rawOverridesOf(r)).toThrow(/upstream seam 'rawOverridesOf'/);
    expect(() => declaredPropertiesOf(r)).toThrow(/upstream seam 'declaredPropertiesOf'/);
  });

  test('watchCfnOptions: every option applyRemovalPolicy and a setter write, even to the value it held, until put back', () => {
    // GIVEN a bucket whose L2 set DeletionPolicy Retain
    const r = bucket();
    const options = r.cfnOptions;
    const written: string[] = [];

    // WHEN
    const stop = watchCfnOptions(r, (option) => written.push(option));
    r.applyRemovalPolicy(RemovalPolicy.RETAIN);
    r.cfnOptions.metadata = { a: 1 };
    stop();
    r.cfnOptions.description = 'after';

    // THEN
    expect(written).toEqual(['deletionPolicy', 'updateReplacePolicy', 'metadata']);
    expect(r.cfnOptions).toBe(options);
    expect(options).toMatchObject({ deletionPolicy: 'Retain', metadata: { a: 1 }, description: 'after' });
  });

  test('watchCfnOptions names itself when cfnOptions is no longer an own object property', () => {
    const r = bucket();
    Object.defineProperty(r, 'cfnOptions', { get: () => ({}) });
    expect(() => watchCfnOptions(r, () => undefined)).toThrow(/upstream seam 'watchCfnOptions'/);
  });
});

describe('constructs', () => {
  test("validationsOf: each addValidation's validation, in the order added; none before the first", () => {
    // GIVEN a construct without validations, and one with two
    const app = new App();
    const plain = new Stack(app, 'Plain');
    const checked = new Stack(app, 'Checked');
    const first = { validate: () => ['first'] };
    const second = { validate: () => [] };
    checked.node.addValidation(first);
    checked.node.addValidation(second);

    // WHEN / THEN
    expect(validationsOf(plain)).toEqual([]);
    expect(validationsOf(checked)).toEqual([...(validationsOf(plain) ?? []), first, second]);
    expect(validationsOf(checked)![0]).toBe(first);
  });

  test('validationsOf gives undefined when the private field is gone, so that the caller uses node.validate()', () => {
    const stack = new Stack(new App(), 'S');
    delete (stack.node as any)._validations;
    expect(validationsOf(stack)).toBeUndefined();
  });
});
