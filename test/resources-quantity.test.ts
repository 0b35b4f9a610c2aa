import * as fc from 'fast-check';
import { compareQuantities, exactQuantity, ExactQuantity, quantityString } from '../src/private/quantity-canonical';

/*
 * Provenance: kubernetes/apimachinery `pkg/api/resource/quantity_test.go` at tag v0.30.14 (Kubernetes 1.30), the
 * functions named above each table. `decQuantity(v, s, f)` of the Go tests is the value v * 10^s printed as format f.
 */

function parse(text: string | number): ExactQuantity {
  const q = exactQuantity(text);
  if (!q) throw new Error(`no quantity: ${text}`);
  return q;
}

const str = (text: string | number) => quantityString(parse(text));
const value = (q: ExactQuantity) => ({ unscaled: q.unscaled, scale: q.scale });
const dec = (unscaled: bigint, scale: number) => ({ unscaled, scale });

describe('TestQuantityCmp', () => {
  test.each([
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
  ])('Cmp(%s, %s) is %d', (x, y, expected) => {
    expect(compareQuantities(parse(x), parse(y))).toBe(expected);
  });
});

describe('TestQuantityParse', () => {
  test('the empty string is no quantity', () => {
    expect(exactQuantity('')).toBeUndefined();
  });

  // the values compared with Cmp, so 50k equals decQuantity(5, 4)
  test.each([
    ['0', 0n, 0, 'DecimalSI'], ['0n', 0n, 0, 'DecimalSI'], ['0Ki', 0n, 0, 'BinarySI'], ['0Mi', 0n, 0, 'BinarySI'],
    ['1', 1n, 0, 'DecimalSI'],
    ['1Ki', 1024n, 0, 'BinarySI'], ['8Ki', 8n * 1024n, 0, 'BinarySI'], ['7Mi', 7n * 1024n ** 2n, 0, 'BinarySI'],
    ['6Gi', 6n * 1024n ** 3n, 0, 'BinarySI'], ['5Ti', 5n * 1024n ** 4n, 0, 'BinarySI'], ['4Pi', 4n * 1024n ** 5n, 0, 'BinarySI'],
    ['3Ei', 3n * 1024n ** 6n, 0, 'BinarySI'], ['10Ti', 10n * 1024n ** 4n, 0, 'BinarySI'], ['100Ti', 100n * 1024n ** 4n, 0, 'BinarySI'],
    ['5n', 5n, -9, 'DecimalSI'], ['4u', 4n, -6, 'DecimalSI'], ['3m', 3n, -3, 'DecimalSI'], ['9', 9n, 0, 'DecimalSI'],
    ['8k', 8n, 3, 'DecimalSI'], ['50k', 5n, 4, 'DecimalSI'], ['7M', 7n, 6, 'DecimalSI'], ['6G', 6n, 9, 'DecimalSI'],
    ['5T', 5n, 12, 'DecimalSI'], ['40T', 4n, 13, 'DecimalSI'], ['300T', 3n, 14, 'DecimalSI'], ['2P', 2n, 15, 'DecimalSI'], ['1E', 1n, 18, 'DecimalSI'],
    ['1E-3', 1n, -3, 'DecimalExponent'], ['1e3', 1n, 3, 'DecimalExponent'], ['1E6', 1n, 6, 'DecimalExponent'],
    ['1e9', 1n, 9, 'DecimalExponent'], ['1E12', 1n, 12, 'DecimalExponent'], ['1e15', 1n, 15, 'DecimalExponent'], ['1E18', 1n, 18, 'DecimalExponent'],
    ['1e14', 1n, 14, 'DecimalExponent'], ['1e13', 1n, 13, 'DecimalExponent'], ['100.035k', 100035n, 0, 'DecimalSI'],
    ['0.001', 1n, -3, 'DecimalSI'], ['0.0005k', 5n, -1, 'DecimalSI'], ['0.005', 5n, -3, 'DecimalSI'], ['0.05', 5n, -2, 'DecimalSI'],
    ['0.5', 5n, -1, 'DecimalSI'], ['0.00050k', 5n, -1, 'DecimalSI'], ['0.00500', 5n, -3, 'DecimalSI'], ['0.05000', 5n, -2, 'DecimalSI'],
    ['0.50000', 5n, -1, 'DecimalSI'], ['0.5e0', 5n, -1, 'DecimalExponent'], ['0.5e-1', 5n, -2, 'DecimalExponent'],
    ['0.5e-2', 5n, -3, 'DecimalExponent'], ['10.035M', 10035n, 3, 'DecimalSI'],
    ['1.2e3', 12n, 2, 'DecimalExponent'], ['1.3E+6', 13n, 5, 'DecimalExponent'], ['1.40e9', 14n, 8, 'DecimalExponent'],
    ['1.53E12', 153n, 10, 'DecimalExponent'], ['1.6e15', 16n, 14, 'DecimalExponent'], ['1.7E18', 17n, 17, 'DecimalExponent'],
    ['9.01', 901n, -2, 'DecimalSI'], ['8.1k', 81n, 2, 'DecimalSI'], ['7.123456M', 7123456n, 0, 'DecimalSI'],
    ['6.987654321G', 6987654321n, 0, 'DecimalSI'], ['5.444T', 5444n, 9, 'DecimalSI'], ['40.1T', 401n, 11, 'DecimalSI'],
    ['300.2T', 3002n, 11, 'DecimalSI'], ['2.5P', 25n, 14, 'DecimalSI'], ['1.01E', 101n, 16, 'DecimalSI'],
    // Things that saturate/round
    ['3.001n', 4n, -9, 'DecimalSI'], ['1.1E-9', 2n, -9, 'DecimalExponent'], ['0.0000000001', 1n, -9, 'DecimalSI'],
    ['0.0000000005', 1n, -9, 'DecimalSI'], ['0.00000000050', 1n, -9, 'DecimalSI'], ['0.5e-9', 1n, -9, 'DecimalExponent'],
    ['0.9n', 1n, -9, 'DecimalSI'], ['0.00000012345', 124n, -9, 'DecimalSI'], ['0.00000012354', 124n, -9, 'DecimalSI'],
    ['9Ei', 2n ** 63n - 1n, 0, 'BinarySI'], ['9223372036854775807Ki', 2n ** 63n - 1n, 0, 'BinarySI'], ['12E', 12n, 18, 'DecimalSI'],
    // We'll accept fractional binary stuff, too.
    ['100.035Ki', 10243584n, -2, 'BinarySI'], ['0.5Mi', 524288n, 0, 'BinarySI'], ['0.05Gi', 536870912n, -1, 'BinarySI'],
    ['0.025Ti', 274877906944n, -1, 'BinarySI'],
    // Things written by trolls
    ['0.000000000001Ki', 2n, -9, 'DecimalSI'], ['.001', 1n, -3, 'DecimalSI'], ['.0001k', 100n, -3, 'DecimalSI'],
    ['1.', 1n, 0, 'DecimalSI'], ['1.G', 1n, 9, 'DecimalSI'],
  ] as const)('%s is %d x 10^%d, %s', (input, unscaled, scale, format) => {
    const q = parse(input);
    expect(compareQuantities(q, { unscaled, scale, format })).toBe(0);
    expect(q.format).toBe(format);
  });
});

describe('TestQuantityString', () => {
  // [value, scale, format, expect, alternate]: String() of the value, the expected text kept when it is parsed,
  // and the alternate text, which parses to the same value and prints as expect
  test.each([
    [1024n ** 3n, 0, 'BinarySI', '1Gi', '1024Mi'], [300n * 1024n ** 2n, 0, 'BinarySI', '300Mi', '307200Ki'],
    [6n * 1024n, 0, 'BinarySI', '6Ki', ''], [1001n * 1024n ** 3n, 0, 'BinarySI', '1001Gi', '1025024Mi'],
    [1024n ** 4n, 0, 'BinarySI', '1Ti', '1024Gi'], [5n, 0, 'BinarySI', '5', '5000m'], [500n, -3, 'BinarySI', '500m', '0.5'],
    [1n, 9, 'DecimalSI', '1G', '1000M'], [1000n, 6, 'DecimalSI', '1G', '0.001T'], [1000000n, 3, 'DecimalSI', '1G', ''],
    [1000000000n, 0, 'DecimalSI', '1G', ''], [1n, -3, 'DecimalSI', '1m', '1000u'], [80n, -3, 'DecimalSI', '80m', ''],
    [1080n, -3, 'DecimalSI', '1080m', '1.08'], [108n, -2, 'DecimalSI', '1080m', '1080000000n'], [10800n, -4, 'DecimalSI', '1080m', ''],
    [300n, 6, 'DecimalSI', '300M', ''], [1n, 12, 'DecimalSI', '1T', ''], [1234567n, 6, 'DecimalSI', '1234567M', ''],
    [1234567n, -3, 'BinarySI', '1234567m', ''], [3n, 3, 'DecimalSI', '3k', ''], [1025n, 0, 'BinarySI', '1025', ''],
    [0n, 0, 'DecimalSI', '0', ''], [0n, 0, 'BinarySI', '0', ''], [1n, 9, 'DecimalExponent', '1e9', '.001e12'],
    [1n, -3, 'DecimalExponent', '1e-3', '0.001e0'], [1n, -9, 'DecimalExponent', '1e-9', '1000e-12'],
    [80n, -3, 'DecimalExponent', '80e-3', ''], [300n, 6, 'DecimalExponent', '300e6', ''], [1n, 12, 'DecimalExponent', '1e12', ''],
    [1n, 3, 'DecimalExponent', '1e3', ''], [3n, 3, 'DecimalExponent', '3e3', ''], [3n, 3, 'DecimalSI', '3k', ''],
    [0n, 0, 'DecimalExponent', '0', '00'], [1n, -9, 'DecimalSI', '1n', ''], [80n, -9, 'DecimalSI', '80n', ''],
    [1080n, -9, 'DecimalSI', '1080n', ''], [108n, -8, 'DecimalSI', '1080n', ''], [10800n, -10, 'DecimalSI', '1080n', ''],
    [1n, -6, 'DecimalSI', '1u', ''], [80n, -6, 'DecimalSI', '80u', ''], [1080n, -6, 'DecimalSI', '1080u', ''],
  ] as const)('%d x 10^%d as %s prints %s (and %s parses to it)', (unscaled, scale, format, expected, alternate) => {
    expect(quantityString({ unscaled, scale, format })).toBe(expected);
    // parsing the canonical text keeps it
    expect(parse(expected).text).toBe(expected);
    expect(str(expected)).toBe(expected);
    if (unscaled !== 0n) expect(quantityString({ unscaled: -unscaled, scale, format })).toBe(`-${expected}`);
    if (alternate) {
      expect(parse(alternate).text).toBeUndefined();
      expect(str(alternate)).toBe(expected);
    }
  });
});

describe('TestQuantityParseEmit', () => {
  test.each([
    ['1Ki', '1Ki'], ['1Mi', '1Mi'], ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1000M', '1G'], ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'],
  ])('%s prints %s, and its negation with a minus', (input, expected) => {
    expect(str(input)).toBe(expected);
    expect(str(`-${input}`)).toBe(`-${expected}`);
  });
});

describe('TestJSONWhitespace', () => {
  test.each([[' 1', '1'], ['1 ', '1'], [1, '1'], [10, '10'], [-1, '-1'], [' -1', '-1']] as const)('%j prints %s', (input, expected) => {
    expect(str(input)).toBe(expected);
  });
});

describe('the texts the API server prints in its resource messages', () => {
  test.each([
    ['1.5', '1500m'], ['0.5Gi', '512Mi'], ['2', '2'], ['500m', '500m'], ['1536Mi', '1536Mi'], ['2048Mi', '2Gi'],
    ['1000m', '1'], ['0.001', '1m'], [0.5, '500m'], ['1.5Ki', '1536'], ['+1', '+1'],
  ] as const)('%j prints %s', (input, expected) => {
    expect(str(input)).toBe(expected);
  });

  test('a text the API server cannot parse, and one of an exponent past 1e1000, are no quantity', () => {
    expect(exactQuantity('1Gb')).toBeUndefined();
    expect(exactQuantity('1e5000')).toBeUndefined();
    expect(exactQuantity(Number.NaN)).toBeUndefined();
    expect(exactQuantity(true)).toBeUndefined();
  });
});

describe('properties', () => {
  const digits = fc.stringMatching(/^[0-9]{1,12}$/);
  const suffix = fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'e3', 'e-2', 'E+1');
  const text = fc.tuple(fc.constantFrom('', '-', '+'), digits, fc.option(digits, { nil: undefined }), suffix)
    .map(([sign, whole, fraction, s]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${s}`);

  test('String() of any quantity parses back to the same value, and to the same text (as JSON round-trips it, TestJSON)', () => {
    fc.assert(fc.property(text, (t) => {
      const q = parse(t);
      const printed = quantityString(q);
      const again = parse(printed);
      expect(compareQuantities(again, q)).toBe(0);
      expect(quantityString(again)).toBe(printed);
    }));
  });

  test('Cmp is antisymmetric, and equal quantities print alike', () => {
    fc.assert(fc.property(text, text, (a, b) => {
      const x = parse(a);
      const y = parse(b);
      expect(compareQuantities(x, y) + compareQuantities(y, x)).toBe(0);
      if (compareQuantities(x, y) === 0 && x.format === y.format && x.text === undefined && y.text === undefined) {
        expect(quantityString(x)).toBe(quantityString(y));
      }
    }));
  });

  test('a quantity is its value to the nanounit, rounded up: n printed as nanos is n', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (n) => {
      expect(value(parse(`${n}n`))).toEqual(dec(n, -9));
      expect(compareQuantities(parse(quantityString(parse(`${n}n`))), parse(`${n}n`))).toBe(0);
    }));
  });
});
