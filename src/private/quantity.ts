/**
 * Kubernetes resource quantities (`500m`, `1.5Gi`, `1e3`), read as the API server reads them:
 * `resource.ParseQuantity` of k8s.io/apimachinery (`pkg/api/resource/quantity.go`, `parseQuantityString` and
 * the suffixer's `interpret`), after `Quantity.UnmarshalJSON` has trimmed the text's surrounding white space.
 *
 * ```
 * <quantity>        ::= <signedNumber><suffix>
 * <signedNumber>    ::= <number> | <sign><number>
 * <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 * <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 * <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 * <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
 * <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
 * ```
 *
 * Ported as the Go code reads, corners included: a sign alone (`-`) and a dot alone (`.`) are zero, `1.G` is
 * accepted, an exponent is an integer that fits 64 bits.
 */

/** A quantity as the API server parses it: the exponent forms of its suffix. */
export interface Quantity {
  /** The sign. */
  readonly negative: boolean;
  /** The digits before and after the dot, leading zeros dropped from the first (`"0"` when none are left). */
  readonly whole: string;
  readonly fraction: string;
  /** The power of ten the suffix stands for (`m` -3, `k` 3, `e6` 6); 0 for a binary suffix. */
  readonly exp10: number;
  /** The power of two a binary suffix stands for (`Ki` 10, `Gi` 30); else 0. */
  readonly exp2: number;
}

const DECIMAL_SI: Readonly<Record<string, number>> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const BINARY_SI: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
/** The characters `parseQuantityString` takes into a suffix before its exponent's sign and digits. */
const SUFFIX_CHARS = 'eEinumkKMGTP';
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The quantity `text` stands for as the API server reads it in JSON (white space around it trimmed), or
 * undefined when it refuses it (`quantities must match the regular expression
 * '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`, or `unable to parse quantity's suffix`).
 */
export function parseQuantity(text: string): Quantity | undefined {
  const str = text.trim();
  if (str.length === 0) return undefined;
  const end = str.length;
  let pos = 0;
  let negative = false;
  if (str[0] === '-' || str[0] === '+') {
    negative = str[0] === '-';
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  const digitsFrom = (from: number) => {
    let i = from;
    while (i < end && str[i] >= '0' && str[i] <= '9') i++;
    return i;
  };
  const numEnd = digitsFrom(pos);
  const whole = str.slice(pos, numEnd) || '0';
  pos = numEnd;
  let fraction = '';
  if (pos < end && str[pos] === '.') {
    const denomEnd = digitsFrom(pos + 1);
    fraction = str.slice(pos + 1, denomEnd);
    pos = denomEnd;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  pos = digitsFrom(pos);
  // a character after the exponent's digits: "we encountered a non decimal in the Suffix loop"
  if (pos < end) return undefined;
  const suffix = str.slice(suffixStart);
  const scale = interpret(suffix);
  return scale && { negative, whole, fraction, ...scale };
}

/** What a suffix stands for (`interpret` of the suffixer): a decimal or binary SI suffix, or `e`/`E` and an int64. */
function interpret(suffix: string): { exp10: number; exp2: number } | undefined {
  if (Object.hasOwn(DECIMAL_SI, suffix)) return { exp10: DECIMAL_SI[suffix], exp2: 0 };
  if (Object.hasOwn(BINARY_SI, suffix)) return { exp10: 0, exp2: BINARY_SI[suffix] };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    // strconv.ParseInt(s, 10, 64): an optional sign, then digits only, within int64
    const exponent = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(exponent)) return undefined;
    const n = BigInt(exponent);
    if (n > INT64_MAX || n < -INT64_MAX - 1n) return undefined;
    return { exp10: Number(n), exp2: 0 };
  }
  return undefined;
}
