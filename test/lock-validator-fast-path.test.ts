import * as fs from 'fs';
import * as path from 'path';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import * as fc from 'fast-check';
import { renderLockValidator, SCHEMA } from '../scripts/generate-lock-validator';
import { validate as generatedValidator } from '../src/release/lock-validator.generated';

/** The fast path: the validator as generated and committed, as `lock-schema.ts` takes it. */
const generated = generatedValidator as unknown as ValidateFunction;

const ROOT = path.join(__dirname, '..');
const SCHEMA_TEXT = fs.readFileSync(path.join(ROOT, SCHEMA), 'utf-8');

/** The general path: the schema compiled by ajv at run time, with the options the generator compiles it with. */
const general = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: false }).compile(JSON.parse(SCHEMA_TEXT));

/** Keys a fieldsV1 set may have, and keys close to them that it may not. */
const KEY = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('f:metadata', 'f:spec', 'k:{"name":"web"}', 'v:"a"', 'i:0', '.', 'f:', 'k:') },
  { weight: 1, arbitrary: fc.constantFrom('', 'f', 'x:spec', 'F:spec', '.a', '..', ' f:x', 'f :x', 'f:x\n', '.\n', 'ф:x', '__proto__', 'constructor') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('f:', 'k:', 'v:', 'i:', 'q:', ''), fc.string({ maxLength: 6 })).map(([p, s]) => p + s) },
);

/** A fieldsV1 tree, mostly well formed, sometimes not: a wrong key, a leaf that is no object. */
const FIELDS: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { maxDepth: 4 },
    { weight: 1, arbitrary: fc.constant({}) }, // first: what the tree ends with at its deepest
    { weight: 10, arbitrary: fc.dictionary(KEY, tie('node'), { maxKeys: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, [], [{}], 'f:x', 0, true) }, // rarer than a set: most trees are valid
  ),
})).node;

/** A lock that is valid but for the fieldsV1 sets given, which are where each writer (and a hand-back) keeps one. */
function lockWith(fields: unknown, presence: unknown, handedBack: unknown): unknown {
  return {
    formatVersion: 2,
    interfaces: [],
    units: [
      {
        id: 'object:|ConfigMap|team|settings',
        label: 'ConfigMap team/settings',
        path: 'App/Settings',
        digest: '0123456789abcdef',
        writers: [{ writer: 'App/Settings', kind: 'declaration', manager: 'cdk-capability:App/Settings', fields, presence }],
        handedBack: [{ writer: 'App/NetOp', manager: 'netop', fields: handedBack }],
      },
    ],
    barriers: [],
    edges: [],
  };
}

describe('the lock validator with its fieldsV1 fast path', () => {
  test('says what ajv compiling the schema at run time says of any fieldsV1 sets, valid or not, errors and all', () => {
    fc.assert(
      fc.property(FIELDS, FIELDS, FIELDS, (fields, presence, handedBack) => {
        // GIVEN a lock whose fieldsV1 sets are random
        const lock = lockWith(fields, presence, handedBack);

        // WHEN both validators check it
        const fast = generated(lock);
        const fastErrors = generated.errors;
        const slow = general(lock);

        // THEN they agree on whether it is valid and on every error
        expect(fast).toBe(slow);
        expect(fastErrors ?? null).toEqual(general.errors ?? null);
      }),
      { numRuns: 1_000 },
    );
  });

  test('accepts a well-formed set and reports a key that is no fieldsV1 key where ajv does', () => {
    // GIVEN a valid set, and one with a wrong key two levels down
    const good = { 'f:data': { 'f:a': {}, '.': {} }, 'k:{"name":"web"}': { 'i:0': {} } };
    const bad = { 'f:data': { 'x:a': {} } };

    // WHEN / THEN
    expect(generated(lockWith(good, {}, {}))).toBe(true);
    expect(generated.errors).toBeNull();
    expect(generated(lockWith(bad, {}, {}))).toBe(false);
    expect(generated.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([
      '/units/0/writers/0/fields/f:data pattern',
      '/units/0/writers/0/fields/f:data propertyNames',
    ]);
  });

  test('is not generated when the fieldsV1 definition says more than the fast path checks', () => {
    // GIVEN the schema with one more constraint on a fieldsV1 set
    const schema = JSON.parse(SCHEMA_TEXT);
    schema.$defs.fieldsV1.maxProperties = 100;

    // WHEN / THEN the generator refuses rather than skip the constraint on valid-looking sets
    expect(() => renderLockValidator(JSON.stringify(schema))).toThrow(/#\/\$defs\/fieldsV1 is no longer .* update withFieldsV1FastPath/);
  });
});

/** An item of `edges`, mostly well formed, sometimes not: a wrong type, a negative or fractional index, one item too many or few. */
const EDGE_END = fc.oneof(
  { weight: 10, arbitrary: fc.nat({ max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, -0, 0.5, 1e21, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, '0', null, true, [], {}) },
);
const EDGE: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(EDGE_END, EDGE_END, fc.constantFrom('', 'explicit dependency (addDependency)')) },
  { weight: 1, arbitrary: fc.tuple(EDGE_END, EDGE_END, fc.constantFrom(0, null, ['x'])) },
  { weight: 1, arbitrary: fc.array(EDGE_END, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, 0, 'x', { 0: 0, 1: 1, 2: '', length: 3 }) },
);

/** A lock that is valid but for its edges: four units to point at. */
function lockWithEdges(edges: unknown): unknown {
  const unit = (name: string) => ({ id: `object:|ConfigMap|team|${name}`, label: `ConfigMap team/${name}`, path: `App/${name}`, digest: '0123456789abcdef' });
  return { formatVersion: 2, interfaces: [], units: ['a', 'b', 'c', 'd'].map(unit), barriers: [], edges };
}

describe('the lock validator with its edge fast path', () => {
  test('says what ajv compiling the schema at run time says of any edges, valid or not, errors and all', () => {
    fc.assert(
      fc.property(fc.array(EDGE, { maxLength: 5 }), (edges) => {
        // GIVEN a lock whose edges are random
        const lock = lockWithEdges(edges);

        // WHEN both validators check it
        const fast = generated(lock);
        const fastErrors = generated.errors;
        const slow = general(lock);

        // THEN they agree on whether it is valid and on every error
        expect(fast).toBe(slow);
        expect(fastErrors ?? null).toEqual(general.errors ?? null);
      }),
      { numRuns: 1_000 },
    );
  });

  test('accepts well-formed edges and reports a wrong one where ajv does', () => {
    // GIVEN valid edges, and a third one whose second end is negative
    const good = [[0, 1, ''], [2, 3, 'explicit dependency (addDependency)']];

    // WHEN / THEN
    expect(generated(lockWithEdges(good))).toBe(true);
    expect(generated.errors).toBeNull();
    expect(generated(lockWithEdges([...good, [1, -1, '']]))).toBe(false);
    expect(generated.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/edges/2/1 minimum']);
  });

  test('is not generated when the edge definitions say more than the fast path checks', () => {
    // GIVEN the schema with one more constraint on an edge's end
    const schema = JSON.parse(SCHEMA_TEXT);
    schema.$defs.node.maximum = 100_000;

    // WHEN / THEN the generator refuses rather than skip the constraint on valid-looking edges
    expect(() => renderLockValidator(JSON.stringify(schema))).toThrow(/edges are no longer .* update withEdgeFastPath/);
  });
});
