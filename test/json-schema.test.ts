import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';
import { schemaProblems, schemaValidator } from '../src/private/json-schema';

afterAll(removeTempDirs);

/**
 * A schema with one property per kind of refusal: descriptions written as documentation (a sentence) and
 * as what the value must be (a phrase), beside keywords without one.
 */
const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.com/test.schema.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    documentedVersion: { const: 1, description: 'Format version of this file.' },
    phrasedVersion: { const: 1, description: '1, the only format version' },
    moves: { enum: ['deploy-time-to-runtime', 'runtime-to-deploy-time'], description: 'When the leaf moves.' },
    lifecycle: { enum: ['deploy', 'runtime', 'teardown'] },
    manager: { type: 'string', maxLength: 128, description: 'Its field manager in the cluster.' },
    phrasedManager: { type: 'string', maxLength: 128, description: "a field manager's name: 1 to 128 bytes of printable characters" },
    name: { type: 'string', minLength: 1 },
    id: { type: 'string', pattern: '^object:', description: "The object's id in the lock." },
    count: { type: 'integer', minimum: 0, description: 'Stacks and objects to add.' },
    steps: { type: 'array' },
    note: { type: ['string', 'null'] },
    leaf: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', maxItems: 0 }], description: 'A leaf of a manifest.' },
    fields: { type: 'object', propertyNames: { pattern: '^f:' }, description: 'A set of field paths.' },
  },
};

let validate: ReturnType<typeof schemaValidator>;
beforeAll(() => {
  const file = path.join(tempDir(), 'test.schema.json');
  fs.writeFileSync(file, JSON.stringify(SCHEMA));
  validate = schemaValidator(file, { unionTypes: true });
});

const problems = (value: unknown) => schemaProblems(validate(), value, 'the test format', 20);

describe('schemaProblems: each refusal is one sentence, "<pointer> (<value>) must <what>"', () => {
  test('const: the value expected, whatever the description', () => {
    expect(problems({ version: 999, documentedVersion: 2, phrasedVersion: 3 })).toEqual([
      '/version (999) must be 1',
      '/documentedVersion (2) must be 1',
      '/phrasedVersion (3) must be 1, the only format version',
    ]);
  });

  test('enum: the values allowed, quoted', () => {
    expect(problems({ moves: 'sideways', lifecycle: 'build' })).toEqual([
      '/moves ("sideways") must be "deploy-time-to-runtime" or "runtime-to-deploy-time"',
      '/lifecycle ("build") must be one of "deploy", "runtime" or "teardown"',
    ]);
  });

  test('maxLength and minLength: a description written as documentation is not taken for what the value must be', () => {
    const long = 'x'.repeat(129);
    expect(problems({ manager: long, phrasedManager: long, name: '' })).toEqual([
      `/manager ("${'x'.repeat(56)}...) must be at most 128 characters long`,
      `/phrasedManager ("${'x'.repeat(56)}...) must be a field manager's name: 1 to 128 bytes of printable characters`,
      '/name ("") must not be empty',
    ]);
  });

  test('type: the type expected, with its article, and each of a union', () => {
    expect(problems({ steps: 'all', note: 3, version: '1' })).toEqual(['/version ("1") must be 1', '/steps ("all") must be a list', '/note (3) must be a string or null']);
  });

  test('pattern and minimum with a documentation description: the keyword says what is expected', () => {
    expect(problems({ id: 'stack:a', count: -1 })).toEqual(['/id ("stack:a") must match the pattern "^object:"', '/count (-1) must be 0 or more']);
  });

  test('anyOf: one problem for the value, not one per alternative it failed', () => {
    expect(problems({ leaf: [1] })).toEqual(['/leaf ([1]) must take one of the forms the schema allows there']);
  });

  test('propertyNames: the key that is refused, once', () => {
    expect(problems({ fields: { 'f:a': {}, 'zz': {} } })).toEqual(['/fields has the key "zz", which must match the pattern "^f:"']);
  });

  test('no problem reads "must be must" or ends in a period', () => {
    const all = problems({ version: 2, moves: 'x', manager: 'x'.repeat(200), id: 'y', count: -2, leaf: {}, fields: { a: {} }, steps: 1, extra: true });
    expect(all).toHaveLength(9);
    for (const p of all) expect(p).not.toMatch(/must be must|must \p{Lu}|\.$/u);
  });
});
