/*
 * IP addresses and CIDR values as the Kubernetes 1.30 API server parses them: k8s.io/utils `net.ParseIPSloppy` and
 * `net.ParseCIDRSloppy` (Go 1.16's `net.ParseIP` and `net.ParseCIDR`, kept so that IPv4 parts with leading zeros
 * such as "010.1.1.1" stay accepted, as decimal), and the messages of k8s.io/apimachinery v0.30.14
 * `pkg/util/validation` `IsValidIP`, `IsValidCIDR` and kubernetes `pkg/apis/core/validation` `ValidateNonSpecialIP`.
 * No zone (`fe80::1%eth0`) is accepted, unlike Node's `net.isIP`.
 */

/** `IsValidIP`'s detail. */
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
/** `IsValidCIDR`'s detail. */
export const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** An address as 16 bytes (an IPv4 address as IPv4-mapped IPv6, as Go holds it). */
export type IPBytes = readonly number[];

const BIG = 0xffffff;

/** Go's `dtoi`: leading decimal digits, their value and count; undefined when none or too big. */
function dtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= BIG) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

/** Go's `xtoi`: leading hexadecimal digits, their value and count; undefined when none or too big. */
function xtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && /[0-9a-fA-F]/.test(s[i]); i++) {
    n = n * 16 + parseInt(s[i], 16);
    if (n >= BIG) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

function v4InV6(a: number, b: number, c: number, d: number): number[] {
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d];
}

/** Go 1.16 `parseIPv4`: four decimal parts of at most 255, leading zeros allowed. */
function parseIPv4(text: string): number[] | undefined {
  let s = text;
  const p: number[] = [];
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return undefined;
    if (i > 0) {
      if (s[0] !== '.') return undefined;
      s = s.slice(1);
    }
    const r = dtoi(s);
    if (!r || r[0] > 0xff) return undefined;
    s = s.slice(r[1]);
    p.push(r[0]);
  }
  return s.length === 0 ? v4InV6(p[0], p[1], p[2], p[3]) : undefined;
}

/** Go 1.16 `parseIPv6`: hexadecimal groups, one `::`, an IPv4 tail; no zone. */
function parseIPv6(text: string): number[] | undefined {
  let s = text;
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const r = xtoi(s);
    if (!r || r[0] > 0xffff) return undefined;
    const [n, c] = r;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4(s);
      if (!v4) return undefined;
      ip.splice(i, 4, v4[12], v4[13], v4[14], v4[15]);
      s = '';
      i += 4;
      break;
    }
    ip[i] = Math.floor(n / 256);
    ip[i + 1] = n % 256;
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** `netutils.ParseIPSloppy`: the address's 16 bytes, or undefined when it is none. */
export function parseIP(s: string): IPBytes | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

/** `ParseIPSloppy(value) != nil`: `value` is an IP address to the 1.30 API server. */
export function isSloppyIP(value: string): boolean {
  return parseIP(value) !== undefined;
}

/** Go's `IP.To4() != nil`: an IPv4 address, or an IPv4-mapped IPv6 one (`::ffff:10.0.0.1`). */
export function isIPv4Bytes(ip: IPBytes): boolean {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

/** `netutils.IsIPv6String`: an address that is not IPv4 (nor IPv4-mapped). */
export function isIPv6String(s: string): boolean {
  const ip = parseIP(s);
  return ip !== undefined && !isIPv4Bytes(ip);
}

/** `validation.IsValidIP`'s messages. */
export function isValidIP(value: string): string[] {
  return parseIP(value) === undefined ? [INVALID_IP] : [];
}

/** `netutils.ParseCIDRSloppy`: true when `value` is an address, '/', and a prefix length within its family's bits. */
export function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const addr = value.slice(0, slash);
  const mask = value.slice(slash + 1);
  let bits = 32;
  let ip = parseIPv4(addr);
  if (!ip) {
    bits = 128;
    ip = parseIPv6(addr);
  }
  const r = dtoi(mask);
  return ip !== undefined && r !== undefined && r[1] === mask.length && r[0] <= bits;
}

/** `validation.IsValidCIDR`'s messages. */
export function isValidCIDR(value: string): string[] {
  return isCIDR(value) ? [] : [INVALID_CIDR];
}

/**
 * `ValidateNonSpecialIP`'s messages for an address that is valid: not unspecified, loopback, link-local unicast or
 * link-local multicast (Go's `IP.IsUnspecified`, `IsLoopback`, `IsLinkLocalUnicast`, `IsLinkLocalMulticast`).
 */
export function nonSpecialIP(value: string): string[] {
  const ip = parseIP(value);
  if (!ip) return ['must be a valid IP address'];
  const v4 = isIPv4Bytes(ip);
  const out: string[] = [];
  const zero = v4 ? ip.slice(12).every((b) => b === 0) : ip.every((b) => b === 0);
  if (zero) out.push(`may not be unspecified (${value})`);
  if (v4 ? ip[12] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1) out.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (v4 ? ip[12] === 169 && ip[13] === 254 : ip[0] === 0xfe && ip[1] >= 0x80 && ip[1] <= 0xbf) out.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (v4 ? ip[12] === 224 && ip[13] === 0 && ip[14] === 0 : ip[0] === 0xff && ip[1] % 16 === 2) out.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return out;
}
