import * as v8 from 'v8';
import { ApiObject } from 'cdk8s';
import { newApp, removeTempDirs } from './util';
import { Capability, RuntimeRouting } from '../src';
import { fieldManagerName } from '../src/cluster/field-manager';
import { describeIdentity, identityKey } from '../src/collect/object-identity';
import { blockYaml } from '../src/private/block-yaml';
import { flatString } from '../src/private/flat-string';
import { sha256Hex } from '../src/private/sha256';
import { objectUnitId } from '../src/release/lock';

afterAll(removeTempDirs);

/**
 * Whether V8 holds `text` as one flat string (sequential characters), not as a tree of the strings it was
 * made of. V8's own test of it, compiled with natives syntax on for this one function.
 */
const isFlat: (text: string) => boolean = (() => {
  v8.setFlagsFromString('--allow-natives-syntax');
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function('text', 'return %IsInPlaceInternalizableString(text)') as (text: string) => boolean;
  } finally {
    v8.setFlagsFromString('--no-allow-natives-syntax');
  }
})();

/** Strings as a synth gets them: made at run time, 13 characters and more (shorter ones V8 copies flat anyway). */
const namespace = ['ben', 'ch-namespace'].join('');
const name = ['cm-0', '-000001'].join('');

describe('strings a synth holds to its end are flat', () => {
  test('the check itself tells a string made with + from one made with join', () => {
    // GIVEN two strings of 14 characters
    const a = ['abcdefg'].join('');
    const b = ['hijklmn'].join('');
    // THEN a template literal is a tree of them, the join one string
    expect(isFlat(`${a}${b}`)).toBe(false);
    expect(isFlat(flatString(a, b))).toBe(true);
    expect(flatString(a, '|', b)).toBe('abcdefg|hijklmn');
  });

  test('identity key, description and lock id of an object are flat, with their exact text', () => {
    // GIVEN a ConfigMap's identity and one of a custom resource
    const configMap = { group: '', kind: 'ConfigMap', namespace, name };
    const widget = { group: 'apps.example.com', kind: 'Widget', namespace: undefined, name };
    // WHEN its key, description and lock id are made
    const made = [
      identityKey(configMap), describeIdentity(configMap), objectUnitId(identityKey(configMap)),
      identityKey(widget), describeIdentity(widget),
    ];
    // THEN each is the text it always was, as one flat string
    expect(made).toEqual([
      '|ConfigMap|bench-namespace|cm-0-000001',
      'ConfigMap bench-namespace/cm-0-000001',
      'object:|ConfigMap|bench-namespace|cm-0-000001',
      'apps.example.com|Widget||cm-0-000001',
      'apps.example.com/Widget cm-0-000001',
    ]);
    expect(made.map(isFlat)).toEqual([true, true, true, true, true]);
  });

  test('a digest prefix is a string of its own, not a view into the whole digest', () => {
    // WHEN the lock's 16-character digest of a text is made
    const digest = sha256Hex('apiVersion: v1\n', 16);
    // THEN it is the digest's first 16 characters, flat
    expect(digest).toBe(sha256Hex('apiVersion: v1\n').slice(0, 16));
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(isFlat(digest)).toBe(true);
    expect([1, 2, 13, 63].map((n) => sha256Hex('x', n))).toEqual([1, 2, 13, 63].map((n) => sha256Hex('x').slice(0, n)));
  });

  test("a writer's field manager is one flat string", () => {
    // WHEN the field manager of a construct path is named
    const manager = fieldManagerName(['bench/Routing0', '/Cm0'].join(''));
    // THEN it is the prefix and the path, flat
    expect(manager).toBe('cdk-capability:bench/Routing0/Cm0');
    expect(isFlat(manager)).toBe(true);
  });

  test("a manifest's YAML is one flat string", () => {
    // GIVEN a ConfigMap manifest with nested maps and a list
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { team: 'edge' } }, data: { chart: 'first' }, list: [{ a: 'b' }, 'c'] };
    // WHEN it is written as YAML
    const text = blockYaml(manifest, () => false)!;
    // THEN the text is exact and flat
    expect(text).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-0-000001\n  namespace: bench-namespace\n  labels:\n    team: edge\ndata:\n  chart: first\nlist:\n  - a: b\n  - c\n',
    );
    expect(isFlat(text)).toBe(true);
  });

  test('the lock units and object facts of a synth hold flat ids, labels and keys', () => {
    // GIVEN an app with one ConfigMap
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { a: 'b' } });
    // WHEN it is synthesized
    const result = app.synthesize();
    // THEN the object's key and its lock unit's id and label are exact and flat
    const unit = result.lock!.units.find((u) => u.id.startsWith('object:'))!;
    const strings = [result.facts!.objects[0].key, unit.id, unit.label];
    expect(strings).toEqual(['|ConfigMap|bench-namespace|cm-0-000001', 'object:|ConfigMap|bench-namespace|cm-0-000001', 'ConfigMap bench-namespace/cm-0-000001']);
    expect(strings.map(isFlat)).toEqual([true, true, true]);
  });
});
