import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { summary } from './contract-fixtures';
import { newApp, removeTempDirs } from './util';
import { dataKeyProblem } from '../src/private/data-key';

afterAll(removeTempDirs);

function fixture(): { app: CapabilityApp; routing: RuntimeRouting } {
  const app = newApp();
  return { app, routing: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

const MIB = 1024 * 1024;

describe('CAP010: shapes the API server refuses', () => {
  test('a 2 MiB ConfigMap is refused, naming the 1 MiB limit of the API server', () => {
    // GIVEN ConfigMap big with 2 MiB of data
    const { app, routing } = fixture();
    new ApiObject(routing, 'Big', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { blob: 'x'.repeat(2 * MIB) } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010 with the size and the limit
    expect(summary(violations)).toEqual([
      {
        code: 'CAP010',
        message: `invalid object: the data of ConfigMap big declared by 'shop/Routing/Big' is ${2 * MIB} bytes, more than the ${MIB} bytes (1 MiB) the API server allows a ConfigMap. Split it across several ConfigMaps, or keep large files out of the cluster (an image, a volume, object storage).`,
        paths: ['shop/Routing/Big'],
      },
    ]);
  });

  test("a Secret's data counts its decoded bytes: 1 MiB of base64 (768 KiB decoded) is accepted, 1.5 MiB decoded is refused", () => {
    // GIVEN two Secrets with base64 data of 768 KiB and 1.5 MiB
    const { app, routing } = fixture();
    new ApiObject(routing, 'Ok', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ok' }, data: { blob: Buffer.alloc(768 * 1024, 1).toString('base64') } });
    new ApiObject(routing, 'Big', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'big' }, data: { blob: Buffer.alloc(1.5 * MIB, 1).toString('base64') } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN only the big one is refused, by its decoded size
    expect(violations.map((v) => v.message)).toEqual([
      `invalid object: the data of Secret big declared by 'shop/Routing/Big' is ${1.5 * MIB} bytes, more than the ${MIB} bytes (1 MiB) the API server allows a Secret. Split it across several Secrets, or keep large files out of the cluster (an image, a volume, object storage).`,
    ]);
  });

  test("any object over etcd's 1.5 MiB request limit serialized is refused, naming the limit; 1.2 MiB is accepted", () => {
    // GIVEN custom resources holding 1.2 MiB and 1.6 MiB of spec
    const { app, routing } = fixture();
    const widget = (name: string, size: number) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { blob: 'x'.repeat(size) } });
    new ApiObject(routing, 'Large', widget('large', 1.2 * MIB));
    new ApiObject(routing, 'Huge', widget('huge', 1.6 * MIB));
    const bytes = Buffer.byteLength(JSON.stringify(widget('huge', 1.6 * MIB)));

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN only the huge one is refused, with its serialized size
    expect(violations.map((v) => v.message)).toEqual([
      `invalid object: example.com/Widget huge declared by 'shop/Routing/Huge' is ${bytes} bytes serialized, more than the ${1.5 * MIB} bytes (1.5 MiB) etcd accepts in the request that stores an object (its default --max-request-bytes). Split it into several objects.`,
    ]);
  });

  test('the data limit counts UTF-8 bytes: 400,000 euro signs are 1,200,000 bytes and refused, though 400,000 characters', () => {
    // GIVEN a ConfigMap of 3-byte characters, fewer than 1 MiB of them
    const { app, routing } = fixture();
    new ApiObject(routing, 'Euros', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'euros' }, data: { a: '\u20ac'.repeat(200_000), b: '\u20ac'.repeat(200_000) } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused by its bytes
    expect(violations.map((v) => v.message)).toEqual([
      `invalid object: the data of ConfigMap euros declared by 'shop/Routing/Euros' is 1200000 bytes, more than the ${MIB} bytes (1 MiB) the API server allows a ConfigMap. Split it across several ConfigMaps, or keep large files out of the cluster (an image, a volume, object storage).`,
    ]);
  });

  test('the limit is of the serialized text: 300,000 control characters, 1.8 MB escaped, are refused; a 1.4 MiB string that may be escaped is not', () => {
    // GIVEN one widget whose string is short but serializes to six bytes a character, and one whose may-be-escaped string stays under
    const { app, routing } = fixture();
    const widget = (name: string, blob: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { blob } });
    new ApiObject(routing, 'Escaped', widget('escaped', '\u0001'.repeat(300_000)));
    new ApiObject(routing, 'Plain', widget('plain', 'x'.repeat(1.4 * MIB)));
    const bytes = Buffer.byteLength(JSON.stringify(widget('escaped', '\u0001'.repeat(300_000))));

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the escaped one is refused with its serialized size (not its length)
    expect(bytes).toBe(1_800_000 + 96);
    expect(violations.map((v) => v.message)).toEqual([
      `invalid object: example.com/Widget escaped declared by 'shop/Routing/Escaped' is ${bytes} bytes serialized, more than the ${1.5 * MIB} bytes (1.5 MiB) etcd accepts in the request that stores an object (its default --max-request-bytes). Split it into several objects.`,
    ]);
  });

  // Ported from kubernetes/apimachinery pkg/util/validation/validation_test.go (TestIsConfigMapKey).
  test.each(['a', 'good', 'good-good', 'still.good', 'this.is.also.good', '.so.is.this', 'THIS_IS_GOOD', 'so_is_this_17'])('IsConfigMapKey accepts %j', (key) => {
    expect(dataKeyProblem(key)).toBeUndefined();
  });
  test.each(['.', '..', '..bad', 'b*d', 'bad!&bad', '', 'x'.repeat(254)])('IsConfigMapKey refuses %j', (key) => {
    expect(dataKeyProblem(key)).toEqual(expect.any(String));
  });

  test('a Secret key that is not a valid data key is refused, with a valid one suggested', () => {
    // GIVEN Secret creds with the key "db password" in stringData
    const { app, routing } = fixture();
    new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { 'db password': 'x' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010 with the character and a suggestion
    expect(violations.map((v) => v.message)).toEqual([
      'invalid object: key "db password" of \'stringData\' of Secret creds declared by \'shop/Routing/Creds\' must be a valid data key (at most 253 letters, digits, \'-\', \'_\' and \'.\'), but it contains " ". Rename the key such as "db_password".',
    ]);
  });

  test('a ConfigMap key in both data and binaryData is refused', () => {
    // GIVEN key "logo" in both
    const { app, routing } = fixture();
    new ApiObject(routing, 'Assets', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'assets' }, data: { logo: 'x' }, binaryData: { logo: 'eA==' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused
    expect(violations.map((v) => v.message)).toEqual([
      "invalid object: key \"logo\" of ConfigMap assets declared by 'shop/Routing/Assets' is in both 'data' and 'binaryData'; the API server refuses a key in both. Keep it in one.",
    ]);
  });

  test('apiVersion core/v1 is refused: the core group has no name', () => {
    // GIVEN a ConfigMap with apiVersion core/v1
    const { app, routing } = fixture();
    new ApiObject(routing, 'Cfg', { apiVersion: 'core/v1', kind: 'ConfigMap', metadata: { name: 'cfg' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010 saying to use v1
    expect(summary(violations)).toEqual([
      {
        code: 'CAP010',
        message: 'invalid object: \'apiVersion\' ("core/v1") of core/ConfigMap cfg declared by \'shop/Routing/Cfg\' names the core group, which has no name in an apiVersion. Use "v1".',
        paths: ['shop/Routing/Cfg'],
      },
    ]);
  });

  test('a group without a dot that is no built-in group is refused, with the kind\'s group suggested', () => {
    // GIVEN a Deployment with apiVersion app/v1
    const { app, routing } = fixture();
    new ApiObject(routing, 'Web', { apiVersion: 'app/v1', kind: 'Deployment', metadata: { name: 'web' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused, suggesting apps/v1
    expect(violations.map((v) => v.message)).toEqual([
      'invalid object: \'apiVersion\' ("app/v1") of app/Deployment web declared by \'shop/Routing/Web\' names the group "app", which is no built-in group, and a CustomResourceDefinition\'s group must contain a dot (example.com). Use the kind\'s group and version such as "apps/v1".',
    ]);
  });

  test.each([
    ['configmap', 'ConfigMap'],
    ['Config Map', 'ConfigMap'],
    ['config-map', 'ConfigMap'],
  ])('kind %j is refused: kinds are UpperCamelCase (suggesting %s)', (kind, suggested) => {
    // GIVEN an object of apiVersion v1 and that kind
    const { app, routing } = fixture();
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind, metadata: { name: 'cfg' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010 suggesting the built-in kind
    expect(violations.map((v) => v.message)).toEqual([
      `invalid object: 'kind' (${JSON.stringify(kind)}) of ${kind} cfg declared by 'shop/Routing/Cfg' must be UpperCamelCase, letters and digits only, as the API names kinds such as "${suggested}". Fix the kind.`,
    ]);
  });

  test('a kind of the core group written with the wrong case (Configmap) is refused with the right case', () => {
    // GIVEN kind Configmap in v1
    const { app, routing } = fixture();
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'Configmap', metadata: { name: 'cfg' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused, naming ConfigMap
    expect(violations.map((v) => v.message)).toEqual([
      'invalid object: \'kind\' ("Configmap") of Configmap cfg declared by \'shop/Routing/Cfg\' is not a kind of the core group (apiVersion "v1"): the API names it "ConfigMap". Fix the case.',
    ]);
  });

  test('a built-in kind under the wrong group (v1 Deployment) is refused, naming its group', () => {
    // GIVEN kind Deployment in v1
    const { app, routing } = fixture();
    new ApiObject(routing, 'Web', { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'web' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused, pointing to apps/v1
    expect(violations.map((v) => v.message)).toEqual([
      'invalid object: \'kind\' ("Deployment") of Deployment web declared by \'shop/Routing/Web\' is not a kind of the core group (apiVersion "v1"); Deployment is in the group "apps". Set apiVersion to "apps/v1" or the version you mean.',
    ]);
  });

  test('built-in and custom kinds with valid shapes are accepted', () => {
    // GIVEN a v1 ConfigMap, an apps/v1 Deployment and a custom example.com/v1alpha1 Widget
    const { app, routing } = fixture();
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'app.properties': 'a=b', '.hidden': 'x' } });
    new ApiObject(routing, 'Web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
    new ApiObject(routing, 'W', { apiVersion: 'example.com/v1alpha1', kind: 'Widget', metadata: { name: 'w' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });
});

describe('CAP010: contracts the runtime side cannot receive', () => {
  test('a field name that is not a valid Secret key is refused (it becomes a key of the bound Secret)', () => {
    // GIVEN a contract with the field "origin host"
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { 'origin host': Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { 'origin host': 'origin.example.com' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010 naming the field and a valid key
    expect(summary(violations)).toEqual([
      {
        code: 'CAP010',
        message: 'invalid object: field "origin host" of \'cdn/Edge\' becomes a key of the Secret its consumers read, so it must be a valid Secret key (at most 253 letters, digits, \'-\', \'_\' and \'.\'), but it contains " ". Rename the field such as "origin_host".',
        paths: ['cdn/Edge'],
      },
    ]);
  });

  test.each([[NaN, 'NaN', 'NaN'], [Infinity, 'Infinity', 'Infinity'], [-Infinity, '-Infinity', 'Infinity']])('a required number published as %s is refused: JSON writes it as null', (value, shown, name) => {
    // GIVEN the required number field replicas published as a non-finite number
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const limits = new InterfaceContract(cdn, 'Limits', { version: '1.0.0', fields: { replicas: Field.number() } });
    limits.publish(new SharedBase(cdn, 'Base'), { replicas: value });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP010; JSON.stringify is the oracle that it would be null
    expect(JSON.stringify({ replicas: value })).toBe('{"replicas":null}');
    expect(summary(violations)).toEqual([
      {
        code: 'CAP010',
        message: `invalid object: 'cdn/Base' publishes ${shown} as the required number 'replicas' of 'cdn/Limits'; JSON has no ${name}, so the parameter would hold null. Publish a finite number.`,
        paths: ['cdn/Base', 'cdn/Limits'],
      },
    ]);
  });
});
