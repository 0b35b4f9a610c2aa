/**
 * Values in a manifest's props that cdk8s cannot render as they are, named where they are with what to write
 * instead: NaN and the infinities (cdk8s writes YAML's .nan and .inf, which the JSON kubectl, Argo CD and Flux
 * send the API server cannot hold), and values that are no plain data (a Map, a Date, a Buffer, an instance of the
 * program's own class, a map without a prototype), which cdk8s refuses with its type's name only, or crashes on.
 */
import * as path from 'path';
import { ApiObject, Yaml } from 'cdk8s';
import * as YAML from 'yaml';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

class Money {
  constructor(public readonly cents = 5) {}
}

function routing(): { app: CapabilityApp; routing: RuntimeRouting } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  return { app, routing: new RuntimeRouting(new Capability(app, 'cdn'), 'Routing') };
}

const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);

function deployment(scope: RuntimeRouting, replicas: unknown, cpu: unknown = '250m'): ApiObject {
  return new ApiObject(scope, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', resources: { limits: { cpu } } }] } },
    },
  });
}

describe('NaN and the infinities in a manifest', () => {
  test('the premise: cdk8s writes NaN and Infinity as YAML\'s .nan and .inf, which read back as numbers JSON writes as null', () => {
    const text = Yaml.stringify({ replicas: NaN, cpu: Infinity, low: -Infinity });
    expect(text).toBe('replicas: .nan\ncpu: .inf\nlow: -.inf\n');
    expect(JSON.stringify(YAML.parse(text))).toBe('{"replicas":null,"cpu":null,"low":null}');
  });

  test.each([
    [NaN, 'NaN', '.nan'],
    [Infinity, 'Infinity', '.inf'],
    [-Infinity, '-Infinity', '-.inf'],
  ])('%s as spec.replicas is refused (CAP010), once, naming the field and what cdk8s would write', (value, kind, yaml) => {
    const { app, routing: r } = routing();
    deployment(r, value);

    expect(messages(app)).toEqual([
      `CAP010 invalid object: 'spec.replicas' of apps/Deployment web declared by 'cdn/Routing/Web' is ${kind}, which JSON has no form for: cdk8s writes it as ${yaml}, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string.`,
    ]);
  });

  test('in a keyed list it is named by the element\'s key; in a string field (an annotation, a ConfigMap\'s data) no type rule names it a second time', () => {
    const { app, routing: r } = routing();
    deployment(r, 2, NaN);
    new ApiObject(r, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', annotations: { ratio: Infinity as unknown as string } }, data: { ratio: NaN as unknown as string } });

    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'metadata.annotations.ratio' of ConfigMap settings declared by 'cdn/Routing/Settings' is Infinity, which JSON has no form for: cdk8s writes it as .inf, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string.",
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.limits.cpu' of apps/Deployment web declared by 'cdn/Routing/Web' is NaN, which JSON has no form for: cdk8s writes it as .nan, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string.",
    ]);
  });

  test('finite numbers, -0 among them, are accepted', () => {
    const { app, routing: r } = routing();
    deployment(r, -0, 0.5);
    expect(messages(app)).toEqual([]);
  });
});

describe('a value cdk8s cannot render, named where the props hold it', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['a Map', () => new Map([['a', '1']]), 'a Map, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a plain object, such as Object.fromEntries(map).'],
    ['a Set', () => new Set(['a']), 'a Set, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a list, such as [...set].'],
    ['a Date', () => new Date(0), 'a Date, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a string, such as date.toISOString().'],
    ['a RegExp', () => /x/, 'a RegExp, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a string, such as its source.'],
    ['a Buffer', () => Buffer.from('x'), "a Buffer, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a string, such as buffer.toString('base64')."],
    ['a Uint8Array', () => new Uint8Array([1]), 'a Uint8Array, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a list of numbers, such as Array.from(bytes).'],
    ['an instance of the program\'s class', () => new Money(), 'a Money, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as a plain object of its fields, such as { ...value }, or a string.'],
    ['a map without a prototype', () => Object.assign(Object.create(null), { a: '1' }), 'a map without a prototype (Object.create(null)), which cdk8s cannot render. Give it as a plain object, such as { ...value }.'],
  ];

  test.each(cases)('%s inside a list inside a map is named by its path, with the plain form to write', (_, make, what) => {
    const { app, routing: r } = routing();
    new ApiObject(r, 'Job', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'job' }, data: { a: 'b' }, spec: { steps: [{ name: 'one' }, { name: 'two', with: make() }] } });

    expect(messages(app)).toEqual([`CAP010 invalid object: 'cdn/Routing/Job' could not be rendered: its props give 'spec.steps[1].with' ${what}`]);
  });
});
