import { isIP } from 'net';
import * as fc from 'fast-check';
import { isCIDR, isIPv6String, nonSpecialIP, parseIP } from '../src/check/rules/ip-syntax';

/*
 * IP and CIDR syntax as the Kubernetes 1.30 API server reads it (k8s.io/utils `ParseIPSloppy`, `ParseCIDRSloppy`: Go
 * 1.16's `net.ParseIP` and `net.ParseCIDR`), against Node's `net.isIP` where the two agree by design: Node refuses
 * IPv4 parts with leading zeros and IPv6 groups of more than 4 digits, which Go reads, and takes a zone (`%eth0`),
 * which Go refuses.
 */

describe('parseIP', () => {
  test.each([
    ['10.0.0.1', true], ['010.000.000.001', true], ['255.255.255.255', true], ['::', true], ['::1', true],
    ['2001:db8::ffff', true], ['::ffff:10.0.0.1', true], ['1:2:3:4:5:6:1.2.3.4', true], ['1:2:3:4:5:6:7:8', true],
    ['256.0.0.1', false], ['10.0.0', false], ['10.0.0.1.', false], ['1::2::3', false], ['1:2:3:4:5:6:7:8:9', false],
    ['fe80::1%eth0', false], ['1:2:3:4:5:6:7:1.2.3.4', false], [':1', false], ['1:', false], ['', false], ['None', false],
  ])('%s: %s', (ip, ok) => {
    expect(parseIP(ip) !== undefined).toBe(ok);
  });

  test('families: an IPv4-mapped IPv6 address is IPv4, as Go\'s To4 reads it', () => {
    expect([isIPv6String('::ffff:10.0.0.1'), isIPv6String('10.0.0.1'), isIPv6String('2001:db8::1'), isIPv6String('bogus')]).toEqual([false, false, true, false]);
  });

  test('special addresses', () => {
    expect(nonSpecialIP('::')).toEqual(['may not be unspecified (::)']);
    expect(nonSpecialIP('::1')).toEqual(['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(nonSpecialIP('fe80::1')).toEqual(['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(nonSpecialIP('ff02::1')).toEqual(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(nonSpecialIP('224.0.0.251')).toEqual(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(nonSpecialIP('2001:db8::1')).toEqual([]);
  });

  test('every address fast-check makes is read, in the family Node gives it', () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
      const bytes = parseIP(ip);
      expect(bytes).toBeDefined();
      // Node says 6 for an IPv4-mapped IPv6 address, which Go reads as IPv4
      if (isIP(ip) === 4) expect(isIPv6String(ip)).toBe(false);
    }));
  });

  test('on strings of address characters, Go and Node agree but for leading zeros and long groups (oracle: net.isIP)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdef:.'), maxLength: 24 }), (s) => {
      const ours = parseIP(s) !== undefined;
      const node = isIP(s) !== 0;
      if (node) expect(ours).toBe(true);
      else if (ours) expect(/(^|[.:])0\d|[0-9a-f]{5}/.test(s)).toBe(true);
    }), { numRuns: 2000 });
  });
});

describe('isCIDR', () => {
  test.each([
    ['10.0.0.0/8', true], ['10.1.2.3/24', true], ['0.0.0.0/0', true], ['2001:db8::/64', true], ['::/128', true], ['10.0.0.0/08', true],
    ['10.0.0.0/33', false], ['::/129', false], ['10.0.0.0', false], ['10.0.0.0/', false], ['/8', false], ['10.0.0.0/8/8', false], ['10.0.0.0/+8', false],
  ])('%s: %s', (cidr, ok) => {
    expect(isCIDR(cidr)).toBe(ok);
  });

  test('an address and a prefix length within its family is a CIDR (oracle: net.isIP and the family\'s bits)', () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), fc.integer({ min: 0, max: 140 }), (ip, bits) => {
      // Go reads an IPv4-mapped IPv6 address in a CIDR as IPv6 (128 bits), by its text
      const max = ip.includes(':') ? 128 : 32;
      expect(isCIDR(`${ip}/${bits}`)).toBe(bits <= max);
    }));
  });
});
