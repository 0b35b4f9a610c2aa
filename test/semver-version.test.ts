import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import * as semver from 'semver';
import { isSemverVersion, majorOfVersion, SEMVER_PATTERN } from '../src/private/semver-version';

describe('isSemverVersion', () => {
  test("its pattern is the lock schema's $defs/semver pattern, so synth accepts no version a lock refuses", () => {
    // GIVEN the lock schema
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'lock.schema.json'), 'utf-8'));

    // THEN the same regular expression, compiled with ajv's unicode flag
    expect(SEMVER_PATTERN.source).toBe(schema.$defs.semver.pattern);
    expect(SEMVER_PATTERN.flags).toBe('u');
  });

  test.each(['v1.0.0', ' 1.0.0', '1.0.0 ', '1.0', '01.0.0', '=1.0.0', '1.0.0-01', ''])('%j is not a version', (text) => {
    expect(isSemverVersion(text)).toBe(false);
  });

  test('a value that is not a string is not a version', () => {
    expect(isSemverVersion(1)).toBe(false);
  });

  test('a version beyond what the semver package compares (a major over 2^53) is not a version', () => {
    expect(isSemverVersion('9007199254740993.0.0')).toBe(false);
  });

  test('the major of a version with prerelease and build metadata', () => {
    expect(majorOfVersion('2.1.0-rc.1+build.5')).toBe(2);
  });

  test('the major of "v2.0.0" is undefined: no version', () => {
    expect(majorOfVersion('v2.0.0')).toBeUndefined();
  });

  test('read without semver, it is what the pattern and semver itself say, and its major is semver\'s, for any version-like text', () => {
    // numbers around 2^53, leading zeros, long prerelease and build parts (a version over 256 characters)
    const number = fc.oneof(fc.nat({ max: 20 }).map(String), fc.constantFrom('0', '00', '01', '9007199254740991', '9007199254740992', '9007199254740993', '99999999999999999999'), fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String));
    const ident = fc.oneof(number, fc.stringMatching(/^[0-9A-Za-z-]{1,8}$/), fc.string({ maxLength: 4 }));
    const tail = (mark: string) => fc.oneof(fc.constant(''), fc.array(ident, { minLength: 1, maxLength: 4 }).map((ids) => `${mark}${ids.join('.')}`), fc.nat({ max: 300 }).map((n) => `${mark}${'a'.repeat(n)}`));
    const version = fc.oneof(
      fc.tuple(fc.constantFrom('', 'v', ' ', '='), number, number, number, tail('-'), tail('+'), fc.constantFrom('', ' ')).map(([a, x, y, z, pre, build, b]) => `${a}${x}.${y}.${z}${pre}${build}${b}`),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(version, (text) => {
        const expected = SEMVER_PATTERN.test(text) && semver.valid(text) !== null;
        expect(isSemverVersion(text)).toBe(expected);
        expect(majorOfVersion(text)).toBe(expected ? semver.major(text) : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});


describe('what loads semver', () => {
  /** Runs `fn` on fresh copies of this library's modules, and returns the semver modules it required. */
  function semverLoadedBy(fn: (modules: { versions: typeof import('../src/private/semver-version'); compatibility: typeof import('../src/release/interface-compatibility') }) => void): string[] {
    const loaded: string[] = [];
    jest.isolateModules(() => {
      for (const f of ['valid', 'major', 'minor', 'lt', 'gt', 'inc']) {
        jest.doMock(`semver/functions/${f}`, () => {
          loaded.push(f);
          return jest.requireActual(`semver/functions/${f}`);
        });
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- fresh copies, after the mocks
      fn({ versions: require('../src/private/semver-version'), compatibility: require('../src/release/interface-compatibility') });
    });
    return loaded;
  }

  const record = (version: string, fields: string[]) => ({
    capability: 'cdn',
    name: 'Edge',
    version,
    parameter: { store: 'aws-ssm-parameter-store' as const, name: '/cdn/edge/v1', type: 'String' as const, encoding: 'json' as const },
    schema: { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])), required: fields },
    fields: Object.fromEntries(fields.map((f) => [f, { producedBy: ['cdn/Base'], consumedBy: [] }])),
  });

  test('reading a version and its major loads no semver module', () => {
    expect(semverLoadedBy(({ versions }) => {
      expect(versions.isSemverVersion('1.2.3')).toBe(true);
      expect(versions.majorOfVersion('1.2.3')).toBe(1);
    })).toEqual([]);
  });

  test('comparing a contract with its lock, unchanged at the same version, loads no semver module', () => {
    expect(semverLoadedBy(({ compatibility }) => {
      expect(compatibility.compareInterfaces([record('1.0.0', ['a'])], [record('1.0.0', ['a'])])).toEqual({ changes: [], incompatible: [] });
    })).toEqual([]);
  });

  test('a contract changed without its version bump still compares with semver, and is refused', () => {
    let incompatible: unknown[] = [];
    const loaded = semverLoadedBy(({ compatibility }) => {
      incompatible = compatibility.compareInterfaces([record('1.0.0', ['a'])], [record('1.0.0', ['a', 'b'])]).incompatible;
    });
    expect(loaded).toEqual(expect.arrayContaining(['lt', 'inc']));
    expect(incompatible).toEqual([expect.objectContaining({ from: '1.0.0', to: '1.0.0', needs: 'minor', suggested: '1.1.0' })]);
  });
});
