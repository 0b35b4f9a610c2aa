import { parseQuantity } from './quantity';

/*
 * The value of a Kubernetes quantity and the text the API server prints for it, ported from k8s.io/apimachinery
 * v0.30.14 (Kubernetes 1.30) `pkg/api/resource`: `ParseQuantity` (what a text stands for, rounded up to 1n and a
 * binary quantity capped at 2^63-1), `Quantity.Cmp`, and `Quantity.String` (`CanonicalizeBytes`: `1.5` prints
 * `1500m`, `0.5Gi` `512Mi`, `1024Mi` `1Gi`), including the text `ParseQuantity` keeps when it is already canonical
 * (so `+1` prints `+1`, as Go prints it). The API server quotes `String()` in its messages (`must be less than or
 * equal to cpu limit of 1500m`).
 */

/** How a quantity prints: the kind of suffix it was written with. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A quantity's exact value, `unscaled * 10^scale`, as `ParseQuantity` leaves it. */
export interface ExactQuantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  /** The text `ParseQuantity` keeps as the quantity's `String()` (the input, when it is canonical). */
  readonly text?: string;
  /**
   * True when `ParseQuantity` holds the value as an `int64Amount` (`i`: its fast path, `unscaled` and `scale` as they
   * are there), false when as an `inf.Dec` (`d`: a value of more than 18 digits, or a binary one with a fraction).
   */
  readonly int64?: boolean;
}

const INT64_MAX = 2n ** 63n - 1n;
/** Exponents past this are left unjudged: their values are out of reach of any real quantity. */
const EXPONENT_LIMIT = 1000;
const DECIMAL_SUFFIX: Readonly<Record<number, string>> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX: Readonly<Record<number, string>> = { 10: 'Ki', 20: 'Mi', 30: 'Gi', 40: 'Ti', 50: 'Pi', 60: 'Ei' };

/**
 * The quantity a manifest value stands for as `Quantity.UnmarshalJSON` reads it (a string, or a JSON number by its
 * text), or undefined when the API server cannot parse it (the quantity-formats rule's) or its exponent is beyond
 * `1e±1000` (left unjudged).
 */
export function exactQuantity(value: unknown): ExactQuantity | undefined {
  const raw = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  if (raw === undefined) return undefined;
  // a program writes few distinct quantities, many times each
  if (PARSED.has(raw)) return PARSED.get(raw);
  if (PARSED.size >= PARSED_LIMIT) PARSED.clear();
  const q = parseExact(raw);
  PARSED.set(raw, q);
  return q;
}

/** The quantities read so far, by text (an `ExactQuantity` is immutable). */
const PARSED = new Map<string, ExactQuantity | undefined>();
const PARSED_LIMIT = 4096;

function parseExact(raw: string): ExactQuantity | undefined {
  const str = raw.trim();
  const parsed = parseQuantity(str);
  if (!parsed) return undefined;
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', text: '0', int64: true };
  const suffix = str.slice(/^[+-]?[0-9]*(?:\.[0-9]*)?/.exec(str)![0].length);
  const format: QuantityFormat = parsed.exp2 > 0 ? 'BinarySI' : /^[eE]./.test(suffix) ? 'DecimalExponent' : 'DecimalSI';
  // interpret's int32(exponent): an exponent past int32 wraps
  const exponent = format === 'DecimalExponent' ? Number(BigInt.asIntN(32, BigInt(suffix.slice(1)))) : format === 'BinarySI' ? parsed.exp2 : parsed.exp10;
  if (Math.abs(exponent) > EXPONENT_LIMIT) return undefined;
  const num = parsed.whole;
  const denom = parsed.fraction;
  const digits = BigInt(num + denom);
  const sign = parsed.negative ? -1n : 1n;
  let unscaled = format === 'BinarySI' ? digits * 2n ** BigInt(exponent) : digits;
  let scale = (format === 'BinarySI' ? 0 : exponent) - denom.length;
  let outFormat = format;
  // "rounds non-zero values up to the minimum representable value" (1n), away from zero
  if (unscaled !== 0n && scale < -9) {
    const divisor = 10n ** BigInt(-9 - scale);
    unscaled = (unscaled + divisor - 1n) / divisor;
    scale = -9;
  }
  if (format === 'BinarySI') {
    if (compareMagnitude(unscaled, scale, INT64_MAX, 0) > 0) {
      unscaled = INT64_MAX;
      scale = 0;
    }
    if (unscaled !== 0n && compareMagnitude(unscaled, scale, 1n, 0) < 0) outFormat = 'DecimalSI';
  }
  const text = keptText(str, format, exponent, num, denom);
  return { unscaled: sign * unscaled, scale, format: outFormat, text, int64: fastPath(format, exponent, num, denom) };
}

/** Whether `ParseQuantity`'s int64 fast path holds the value (its precision estimate, a scale of at least 1n, no overflow). */
function fastPath(format: QuantityFormat, exponent: number, num: string, denom: string): boolean {
  if (format === 'BinarySI') {
    if (denom.length > 0 || 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 < 0) return false;
    return BigInt(num) * 2n ** BigInt(exponent) <= INT64_MAX;
  }
  return 18 - (num.length + denom.length) >= 0 && exponent - denom.length >= -9;
}

/** The text `ParseQuantity`'s int64 fast path keeps when the input is already canonical, or undefined. */
function keptText(str: string, format: QuantityFormat, exponent: number, num: string, denom: string): string | undefined {
  if (format === 'BinarySI') {
    // mantissa << exponent with its precision estimate (15 digits less ~0.3 per power of two)
    if (denom.length > 0 || 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 < 0) return undefined;
    const value = BigInt(num);
    if (value * 2n ** BigInt(exponent) > INT64_MAX) return undefined;
    // Go's `value&0x07 != 0`
    return value % 8n !== 0n ? str : undefined;
  }
  const scale = exponent - denom.length;
  if (18 - (num.length + denom.length) < 0 || scale < -9) return undefined;
  const shifted = num + denom;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0' ? str : undefined;
}

/** `Quantity.Cmp`: -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: ExactQuantity, b: ExactQuantity): number {
  const s = Math.min(a.scale, b.scale);
  const x = a.unscaled * 10n ** BigInt(a.scale - s);
  const y = b.unscaled * 10n ** BigInt(b.scale - s);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareMagnitude(unscaled: bigint, scale: number, other: bigint, otherScale: number): number {
  const abs = unscaled < 0n ? -unscaled : unscaled;
  return compareQuantities({ unscaled: abs, scale, format: 'DecimalSI' }, { unscaled: other, scale: otherScale, format: 'DecimalSI' });
}

/** `Quantity.String()`: the kept text, else the canonical form (`CanonicalizeBytes`). */
export function quantityString(q: ExactQuantity): string {
  if (q.text !== undefined) return q.text;
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    // -1024 < q < 1024, or a fraction: printed as DecimalSI ("don't lose precision")
    if (compareMagnitude(q.unscaled, q.scale, 1024n, 0) < 0 || (q.scale < 0 && q.unscaled % 10n ** BigInt(-q.scale) !== 0n)) {
      format = 'DecimalSI';
    } else {
      let n = q.scale >= 0 ? q.unscaled * 10n ** BigInt(q.scale) : q.unscaled / 10n ** BigInt(-q.scale);
      let times = 0;
      while (n % 1024n === 0n) {
        n /= 1024n;
        times++;
      }
      return `${n}${BINARY_SUFFIX[times * 10] ?? ''}`;
    }
  }
  let mantissa = q.unscaled;
  let exponent = q.scale;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  const suffix = format === 'DecimalExponent' ? (exponent === 0 ? '' : `e${exponent}`) : DECIMAL_SUFFIX[exponent] ?? '';
  return `${mantissa}${suffix}`;
}

/**
 * The quantity the API server validates in a resource list: `SetDefaults_ResourceList` (pkg/apis/core/v1/defaults.go)
 * rounds each value up, away from zero, to the milli scale before validation (`Quantity.RoundUp(-3)`, which drops the
 * kept text when it rounds), so `1.0001` is `1001m` there.
 */
export function defaultedResourceQuantity(value: unknown): ExactQuantity | undefined {
  const q = exactQuantity(value);
  if (!q || q.scale >= -3) return q;
  const divisor = 10n ** BigInt(-3 - q.scale);
  const magnitude = q.unscaled < 0n ? -q.unscaled : q.unscaled;
  const rounded = (magnitude + divisor - 1n) / divisor;
  return { unscaled: q.unscaled < 0n ? -rounded : rounded, scale: -3, format: q.format, int64: q.int64 };
}

/**
 * `Quantity.MilliValue()` of a quantity whose scale is at least -3 (a defaulted one), or undefined when it does not
 * fit an int64 (left unjudged: Go's overflow gives no meaningful value).
 */
export function milliValue(q: ExactQuantity): bigint | undefined {
  if (q.scale < -3) return undefined;
  const milli = q.unscaled * 10n ** BigInt(q.scale + 3);
  return milli > INT64_MAX || milli < -INT64_MAX - 1n ? undefined : milli;
}

/**
 * `Quantity.Value()`: the value rounded up, away from zero, to an integer; undefined when it does not fit an int64.
 */
export function integerValue(q: ExactQuantity): bigint | undefined {
  let value: bigint;
  if (q.scale >= 0) {
    value = q.unscaled * 10n ** BigInt(q.scale);
  } else {
    const divisor = 10n ** BigInt(-q.scale);
    const magnitude = q.unscaled < 0n ? -q.unscaled : q.unscaled;
    const rounded = (magnitude + divisor - 1n) / divisor;
    value = q.unscaled < 0n ? -rounded : rounded;
  }
  return value > INT64_MAX || value < -INT64_MAX - 1n ? undefined : value;
}

/**
 * A quantity as Go's `%#v` prints a `resource.Quantity` value (a `field.Invalid` given the quantity itself, not its
 * `String()`: `Quantity.String` has a pointer receiver, so the value is no `fmt.Stringer`), such as
 * `resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}`.
 * A value held as an `inf.Dec` prints its pointer, an address known only in the API server: written `0xc000000000` here.
 */
export function goQuantityValue(q: ExactQuantity): string {
  const i = q.int64 === false ? 'value:0, scale:0' : `value:${q.unscaled}, scale:${q.scale}`;
  const d = q.int64 === false ? '(*inf.Dec)(0xc000000000)' : '(*inf.Dec)(nil)';
  return `resource.Quantity{i:resource.int64Amount{${i}}, d:resource.infDecAmount{Dec:${d}}, s:${JSON.stringify(q.text ?? '')}, Format:${JSON.stringify(q.format)}}`;
}
