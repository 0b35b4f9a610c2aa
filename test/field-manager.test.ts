import { createHash } from 'crypto';
import * as fc from 'fast-check';
import { FIELD_MANAGER_MAX_BYTES, fieldManagerName, fieldManagerOf, isOurFieldManager, runtimeFieldManager } from '../src/cluster/field-manager';
import { callWriter, contributionWriter, declarationWriter, runtimeWriter } from '../src/collect/ledger/writer';
import { isFieldManagerName } from '../src/private/field-manager-name';

/** Go's `unicode.IsPrint`, which the API server's `ValidateFieldManager` applies to every rune. */
const IS_PRINT = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;

describe('fieldManagerName', () => {
  test('a short construct path is the name itself, after the prefix', () => {
    expect(fieldManagerName('cdn/Routing/Timeouts')).toBe('cdk-capability:cdn/Routing/Timeouts');
  });

  test('a path of exactly 128 bytes with the prefix is kept; one byte more is shortened', () => {
    const fits = `cdn/${'a'.repeat(128 - 'cdk-capability:cdn/'.length)}`;
    expect(fieldManagerName(fits)).toBe(`cdk-capability:${fits}`);
    const long = `${fits}b`;
    expect(fieldManagerName(long)).toMatch(/^cdk-capability:cdn\/a{27}\/\/[0-9a-f]{16}\/\/a{61}b$/);
    expect(Buffer.byteLength(fieldManagerName(long))).toBe(128);
  });

  test('a shortened name keeps the start and the end of the path around the digest of the whole path', () => {
    const path = `cdn/Routing/${'Tenant'.repeat(30)}/Timeouts`;
    const name = fieldManagerName(path);
    expect(name.startsWith('cdk-capability:cdn/Routing/Tenant')).toBe(true);
    expect(name.endsWith('Tenant/Timeouts')).toBe(true);
    expect(name).toContain(`//${createHash('sha256').update(path).digest('hex').slice(0, 16)}//`);
  });

  test('bytes are counted in UTF-8, as the API server counts them, and never split a character', () => {
    const path = `cdn/${'é'.repeat(100)}`;
    const name = fieldManagerName(path);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(128);
    expect(name).not.toContain('\ufffd');
    expect(name).toMatch(/^cdk-capability:cdn\/é+\/\/[0-9a-f]{16}\/\/é+$/);
  });

  test('a character the API server refuses is replaced, and the digest of the path tells the names apart', () => {
    expect(fieldManagerName('cdn/R/line\nbreak')).toBe('cdk-capability:cdn/R/line?break//78287611ce544c72');
    expect(fieldManagerName('cdn/R/line\tbreak')).toBe('cdk-capability:cdn/R/line?break//f4bb418301c3963b');
  });

  test('a writer id holding "//" (never a construct path) gets the digest, so it cannot pose as a shortened name', () => {
    expect(fieldManagerName('a//b')).toBe('cdk-capability:a//b//7a9acf331a5dc1e0');
  });

  const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => !s.includes('/'));
  const constructPath = fc.array(segment, { minLength: 1, maxLength: 8 }).map((ids) => ids.join('/'));

  test('every name is printable, within 128 bytes, and stable (property)', () => {
    fc.assert(
      fc.property(constructPath, (path) => {
        const name = fieldManagerName(path);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(FIELD_MANAGER_MAX_BYTES);
        expect(IS_PRINT.test(name)).toBe(true);
        expect(fieldManagerName(path)).toBe(name);
        expect(isOurFieldManager(name)).toBe(true);
      }),
      { numRuns: 2000, seed: 1203 },
    );
  });

  test('distinct paths get distinct names, among long paths that share their start and end (property)', () => {
    const long = fc.tuple(fc.string({ maxLength: 30 }), fc.nat({ max: 1_000_000 })).map(([mid, n]) => `cdn/${'x'.repeat(60)}/${mid.replace(/\//g, '-')}${n}/${'y'.repeat(60)}`);
    fc.assert(
      fc.property(fc.uniqueArray(long, { minLength: 2, maxLength: 200 }), (paths) => {
        expect(new Set(paths.map(fieldManagerName)).size).toBe(paths.length);
      }),
      { numRuns: 50, seed: 1204 },
    );
  });

  test('names of other tools are not ours', () => {
    expect(isOurFieldManager('kubectl-edit')).toBe(false);
    expect(isOurFieldManager('kustomize-controller')).toBe(false);
    expect(isOurFieldManager('cdk-capability')).toBe(true);
  });
});

describe('fieldManagerOf', () => {
  test('a declaration and a Contribution are named after their construct paths', () => {
    expect(fieldManagerOf(declarationWriter('cdn/Routing/Web'))).toBe('cdk-capability:cdn/Routing/Web');
    expect(fieldManagerOf(contributionWriter('cdn/Routing/Timeouts', 'contribution-write'))).toBe('cdk-capability:cdn/Routing/Timeouts');
  });

  test('a plain call is named after its object and which call it is, not where it was made', () => {
    expect(fieldManagerOf(callWriter('json-patch', 'cdn/Routing/Web', { call: 2, site: 'main.ts:12' }))).toBe('cdk-capability:cdn/Routing/Web#json-patch-2');
    expect(fieldManagerOf(callWriter('json-patch', 'cdn/Routing/Web', { call: 2, site: 'main.ts:40', method: 'addJsonPatch' }))).toBe('cdk-capability:cdn/Routing/Web#json-patch-2');
    expect(fieldManagerOf(callWriter('tag', 'cdn/Base'))).toBe('cdk-capability:cdn/Base#tag');
  });
});

describe('runtimeFieldManager', () => {
  test('a runtime writer\'s declared manager is its field manager, as given', () => {
    expect(runtimeFieldManager('cdn/Routing/NetOp', 'network-operator')).toBe('network-operator');
  });

  test('without one, the manager derived from its path, with a prefix of its own that is not one of ours', () => {
    expect(runtimeFieldManager('cdn/Routing/NetOp')).toBe('cdk-capability-runtime:cdn/Routing/NetOp');
    expect(fieldManagerOf(runtimeWriter('cdn/Routing/NetOp'))).toBe('cdk-capability-runtime:cdn/Routing/NetOp');
    expect(isOurFieldManager(runtimeFieldManager('cdn/Routing/NetOp'))).toBe(false);
  });

  test('a long path is shortened around its digest to exactly 128 bytes, stable', () => {
    const long = `cdn/${'a'.repeat(200)}/NetOp`;
    const name = runtimeFieldManager(long);
    expect(name).toMatch(/^cdk-capability-runtime:cdn\/a{24}\/\/[0-9a-f]{16}\/\/a{51}\/NetOp$/);
    expect(Buffer.byteLength(name)).toBe(FIELD_MANAGER_MAX_BYTES);
    expect(runtimeFieldManager(long)).toBe(name);
    expect(name.split('//')[1]).toBe(createHash('sha256').update(long).digest('hex').slice(0, 16));
  });
});

describe('isFieldManagerName', () => {
  test('accepts 1 to 128 bytes of UTF-8, every character printable, as the API server does', () => {
    expect(['network-operator', 'opérateur-réseau', 'a'.repeat(128), 'é'.repeat(64), 'with space'].map(isFieldManagerName)).toEqual([true, true, true, true, true]);
  });

  test('refuses the empty name, one over 128 bytes, a control character, and what is not a string', () => {
    expect(['', 'a'.repeat(129), 'é'.repeat(65), 'bad\u0007manager', 'tab\there', 'line\nbreak', 7, undefined, null].map(isFieldManagerName)).toEqual(Array(9).fill(false));
  });
});
