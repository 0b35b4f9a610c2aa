/**
 * Values a TypeScript program can put in a manifest that JSON and YAML have no form for, or that are not plain
 * data (a BigInt, a Symbol, a function, NaN, a Date, a Map, a class instance, a sparse array, a cycle...), at the
 * places the ledger reads closely: a keyed list's merge key, a set's value, a label, a field a Contribution also
 * writes. Whatever the value and wherever it sits, synth either accepts the object or refuses it with a user-facing
 * code: an internal error (CAP000, a crashed stage) fails the case. Found by hand first: a BigInt as a container
 * port crashed collect.
 */
import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm, CfnResource } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, Contribution, RuntimeRouting, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';
import { holdsItself } from '../src/private/loose-values';

afterAll(removeTempDirs);

class Money {
  constructor(public readonly cents = 5) {}
}

const cyclic = (): unknown => {
  const o: Record<string, unknown> = { name: 'loop' };
  o.self = o;
  return o;
};

/** One value that is not plain JSON data, or a plain one for contrast. */
const hostile: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.bigInt().map((b) => () => b),
  fc.constantFrom<() => unknown>(
    () => Symbol('s'),
  () => () => 'fn',
  () => NaN,
  () => Infinity,
  () => -Infinity,
  () => -0,
  () => new Date(0),
  () => new Map([['a', 1]]),
  () => new Set(['a']),
  () => new Money(),
  () => Object.create(null),
  // eslint-disable-next-line no-sparse-arrays
  () => [, 'b'],
  () => /x/,
  () => Buffer.from('x'),
  () => undefined,
  () => null,
  cyclic,
  ),
  fc.oneof(fc.double(), fc.string({ maxLength: 8 }), fc.boolean()).map((v) => () => v),
);

/** Where the value goes: a Deployment with the value at one place, as a plain ApiObject. */
const PLACES: Record<string, (v: unknown) => Record<string, unknown>> = {
  'a port (merge key containerPort)': (v) => container({ ports: [{ containerPort: v }] }),
  'a container name (merge key)': (v) => ({ containers: [{ name: v, image: 'nginx' }] }),
  'an env entry name (merge key)': (v) => container({ env: [{ name: v, value: 'x' }] }),
  'an env value': (v) => container({ env: [{ name: 'A', value: v }] }),
  'a whole env entry': (v) => container({ env: [v] }),
  'a whole list': (v) => container({ args: v }),
  'replicas': () => ({ containers: [{ name: 'w', image: 'nginx' }] }),
};

function container(fields: Record<string, unknown>): Record<string, unknown> {
  return { containers: [{ name: 'w', image: 'nginx', ...fields }] };
}

/** The codes of synthesizing a Deployment with `value` at `place` (plus a label, a finalizer, a contributed field). */
function codesOf(place: string, value: unknown, at: 'spec' | 'label' | 'finalizer' | 'contribution'): string[] {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
  const podSpec = at === 'spec' ? PLACES[place](value) : PLACES.replicas(undefined);
  const target = new ApiObject(routing, 'Worker', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'worker',
      ...(at === 'label' ? { labels: { team: value } } : {}),
      ...(at === 'finalizer' ? { finalizers: ['example.com/keep', value] } : {}),
    },
    spec: {
      ...(at === 'spec' && place === 'replicas' ? { replicas: value } : {}),
      selector: { matchLabels: { app: 'worker' } },
      template: { metadata: { labels: { app: 'worker' } }, spec: podSpec },
    },
  } as any);
  if (at === 'contribution') new Contribution(routing, 'Scale', { target, fields: { spec: { replicas: value, template: { spec: { containers: [{ name: 'w', ports: [{ containerPort: value }] }] } } } } as any });
  return app.synthesize().violations.map((v) => v.code);
}

describe('a value that is not plain data is accepted or refused with a user-facing code, never a crash', () => {
  test('property: any such value at a merge key, a set, a label, a list, or a contributed field', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom(...Object.keys(PLACES)), fc.constantFrom('spec' as const, 'label' as const, 'finalizer' as const, 'contribution' as const), (make, place, at) => {
        const codes = codesOf(place, make(), at);
        // CAP000 is a crashed stage: a bug, never an accepted refusal
        expect(codes.filter((c) => !/^CAP0(0[1-9]|1[0-7])$/.test(c))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test('a Symbol as a list element\'s key is named by the element\'s index (JSON cannot spell the key), not a crash', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const pod = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
    new ApiObject(routing, 'Name', { ...pod({ containers: [{ name: Symbol('web'), image: 'nginx' }] }), metadata: { name: 'name' } } as any);
    new ApiObject(routing, 'Entry', { ...pod({ containers: [{ name: 'web', image: 'nginx', env: [Symbol('A')] }] }), metadata: { name: 'entry' } } as any);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'spec.containers[0].name' of Pod name declared by 'cdn/Routing/Name' is a Symbol, which JSON and YAML have no form for. Give it as a string or a number.",
      "CAP010 invalid object: 'spec.containers[name=web].env[0]' of Pod entry declared by 'cdn/Routing/Entry' is a Symbol, which JSON and YAML have no form for. Give it as a string or a number.",
    ]);
  });

  test('a Contribution whose fields hold themselves is refused with the field and the map it repeats, not a synth that never ends', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const target = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: 'b' } });
    const loop: Record<string, unknown> = { mode: 'fast' };
    loop.again = loop;
    new Contribution(routing, 'Loop', { target, fields: { metadata: { annotations: loop } } } as any);
    // a list holding itself, and a sparse list (its hole is null in JSON) in another
    const list: unknown[] = ['x'];
    list.push(list);
    new Contribution(routing, 'List', { target, fields: { metadata: { labels: { tier: 'web' } }, data: { l: list } } } as any);
    // eslint-disable-next-line no-sparse-arrays
    new Contribution(routing, 'Sparse', { target, fields: { metadata: { finalizers: [, 'example.com/keep'] } } } as any);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: Contribution 'cdn/Routing/List': 'fields.data.l.1' is 'fields.data.l' itself, which holds it: a value that holds itself has no form in JSON or YAML, and no walk of it ends. Give a copy of the value there, or leave that field out.",
      "CAP010 invalid object: Contribution 'cdn/Routing/Loop': 'fields.metadata.annotations.again' is 'fields.metadata.annotations' itself, which holds it: a value that holds itself has no form in JSON or YAML, and no walk of it ends. Give a copy of the value there, or leave that field out.",
    ]);
  });

  test('an addPropertyOverride value that holds itself is refused as aws-cdk refuses it (CAP010), not a RangeError thrown out of the call', () => {
    // GIVEN an override whose value holds itself
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    const parameter = new ssm.CfnParameter(base, 'Origin', { type: 'String', value: 'origin.example.com' });
    const loop: Record<string, unknown> = { mode: 'fast' };
    loop.again = loop;

    // WHEN the program makes the call, THEN it returns as aws-cdk's own does
    expect(() => parameter.addPropertyOverride('Value', loop)).not.toThrow();

    // THEN synth refuses it with aws-cdk's own words, coded, and no stage crashes
    const violations = app.synthesize().violations;
    expect(violations.map((v) => v.code)).toEqual(['CAP010']);
    expect(violations[0].message).toMatch(/^invalid object: the stacks of capability 'cdn' could not be synthesized: aws-cdk says "Resolution error: Unable to resolve object tree with circular reference\. Path: \/Resources\/<resource 'cdn\/Base\/Origin'>\/Properties\/Value\/again \(repeated \d+ times\)"\. A value in the template holds itself/);
  });

  test('an override that gives a BigInt or a Symbol, which aws-cdk would leave out of the template without a word, is refused (CAP010) naming the call', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    const parameter = new ssm.CfnParameter(base, 'Origin', { type: 'String', value: 'origin.example.com' });
    parameter.addPropertyOverride('Value', 5n);
    parameter.addPropertyOverride('Tags', { team: Symbol('edge') });

    // the line of each call in this file, as the message names it
    const lines = fs.readFileSync(__filename, 'utf-8').split('\n');
    const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const message = (call: string, field: string, kind: string) =>
      `CAP010 invalid object: 'cdn/Base/Origin' failed its own validation: addPropertyOverride at test/hostile-values.test.ts:${lineOf(call)} gives '${field}' ${kind}, `
      + 'which JSON has no form for: aws-cdk would leave it out of the template or fail to render it. Give it as a string or a number.';
    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      message("addPropertyOverride('Value', 5n)", 'Value', 'a BigInt'),
      message("addPropertyOverride('Tags', { team: Symbol('edge') })", 'Tags.team', 'a Symbol'),
    ]);
  });

  test('property: any such value in a CloudFormation resource\'s props, an override or a Contribution to it is accepted or refused with a user-facing code', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom('props' as const, 'override' as const, 'contribution' as const), (make, how) => {
        const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
        const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
        const value = make();
        const parameter = new CfnResource(base, 'Origin', { type: 'AWS::SSM::Parameter', properties: { Type: 'String', Value: how === 'props' ? value : 'origin.example.com' } });
        if (how === 'override') parameter.addPropertyOverride('Description', value);
        if (how === 'contribution') new Contribution(base, 'Describe', { target: parameter, fields: { Description: value } } as any);
        const codes = app.synthesize().violations.map((v) => v.code);
        // CAP000 is a crashed stage: a bug, never an accepted refusal
        expect(codes.filter((c) => !/^CAP0(0[1-9]|1[0-7])$/.test(c))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  test('a value holds itself only through its own maps and lists: a token inside it (which holds its construct, whose tree has cycles) is the resolver\'s', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    const parameter = new ssm.CfnParameter(base, 'Origin', { type: 'String', value: 'origin.example.com' });
    const loop: Record<string, unknown> = { mode: 'fast' };
    loop.again = [loop];

    expect(holdsItself({ Tags: [{ Key: 'arn', Value: parameter.getAtt('Value') }] })).toBe(false);
    expect(holdsItself({ Tags: [{ Key: 'loop', Value: loop }] })).toBe(true);
  });
});
