/*
 * An IP address as the Kubernetes 1.30 API server reads one: k8s.io/apimachinery v0.30.14 `validation.IsValidIP`,
 * which parses with k8s.io/utils `net.ParseIPSloppy`, Go 1.16's `net.ParseIP` kept as it was: an IPv4 octet may have
 * leading zeros (`010.0.0.1` is 10.0.0.1), an IPv6 address has no zone (`fe80::1%eth0` is refused). Ported from that
 * parser's `parseIPv4`, `parseIPv6`, `dtoi` and `xtoi` (read, not copied).
 */

/** `IsValidIP`'s message. */
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** Go's `big`: a number of a field at or above it is no number. */
const BIG = 0xffffff;

/** `ParseIPSloppy(value) != nil`. */
export function isSloppyIP(value: string): boolean {
  for (const ch of value) {
    if (ch === '.') return parseIPv4(value);
    if (ch === ':') return parseIPv6(value);
  }
  return false;
}

/** The digits of `s` from its start in `base`: their value and count, or undefined when none or too many. */
function digits(s: string, base: 10 | 16): { n: number; count: number } | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const d = base === 10 ? (/[0-9]/.test(s[i]) ? Number(s[i]) : -1) : (/[0-9a-fA-F]/.test(s[i]) ? parseInt(s[i], 16) : -1);
    if (d < 0) break;
    n = n * base + d;
    if (n >= BIG) return undefined;
  }
  return i === 0 ? undefined : { n, count: i };
}

function parseIPv4(value: string): boolean {
  let s = value;
  for (let i = 0; i < 4; i++) {
    if (i > 0) {
      if (s[0] !== '.') return false;
      s = s.slice(1);
    }
    const d = digits(s, 10);
    if (!d || d.n > 0xff) return false;
    s = s.slice(d.count);
  }
  return s.length === 0;
}

function parseIPv6(value: string): boolean {
  let s = value;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return true;
  }
  let i = 0;
  while (i < 16) {
    const d = digits(s, 16);
    if (!d || d.n > 0xffff) return false;
    if (d.count < s.length && s[d.count] === '.') {
      // an IPv4 address at the end
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16 || !parseIPv4(s)) return false;
      i += 4;
      s = '';
      break;
    }
    i += 2;
    s = s.slice(d.count);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return false;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return false;
  return i < 16 ? ellipsis >= 0 : ellipsis < 0;
}
