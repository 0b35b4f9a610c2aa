import { isIP } from 'net';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { isSloppyIP } from '../src/check/rules/ip-syntax';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * A pod's DNS policy and DNS config, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (`validateDNSPolicy`,
 * `validatePodDNSConfig`, `MaxDNSNameservers`, `MaxDNSSearchPaths`, `MaxDNSSearchListChars`) at the commit
 * `pod-spec-errors.ts` names, k8s.io/apimachinery v0.30.14 `validation.IsValidIP` and k8s.io/utils `net.ParseIPSloppy`.
 * The texts are theirs; the cases are written here from them, not ported from validation_test.go.
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, { at: ['spec'], isPod: true }).map(apiServerText);
}

describe('validateDNSPolicy', () => {
  test('a policy of another spelling is refused', () => {
    expect(errorsOf({ dnsPolicy: 'clusterFirst' })).toEqual([
      'spec.dnsPolicy: Unsupported value: "clusterFirst": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
  });

  test('the four policies pass, and an empty one is defaulted to ClusterFirst', () => {
    for (const dnsPolicy of ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', '']) expect(errorsOf({ dnsPolicy })).toEqual([]);
    expect(errorsOf({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'] } })).toEqual([]);
  });
});

describe('validatePodDNSConfig', () => {
  test('more than 3 nameservers, the list printed as a Go slice', () => {
    expect(errorsOf({ dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', '2001:4860:4860::8888'] } })).toEqual([
      'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "8.8.8.8", "9.9.9.9", "2001:4860:4860::8888"}: must not have more than 3 nameservers',
    ]);
  });

  test('a nameserver that is no IP address (a name, a CIDR, a zone, a short IPv4)', () => {
    expect(errorsOf({ dnsConfig: { nameservers: ['dns.google', '10.0.0.0/8', 'fe80::1%eth0'] } })).toEqual([
      `spec.dnsConfig.nameservers[0]: Invalid value: "dns.google": ${IP}`,
      `spec.dnsConfig.nameservers[1]: Invalid value: "10.0.0.0/8": ${IP}`,
      `spec.dnsConfig.nameservers[2]: Invalid value: "fe80::1%eth0": ${IP}`,
    ]);
    expect(errorsOf({ dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0'] } })).toEqual([`spec.dnsConfig.nameservers[0]: Invalid value: "10.0.0": ${IP}`]);
  });

  test('ParseIPSloppy takes an IPv4 octet with leading zeros, IPv6 and IPv4-in-IPv6', () => {
    expect(errorsOf({ dnsConfig: { nameservers: ['010.000.000.001', '::ffff:10.0.0.1', '2001:db8::ffff'] } })).toEqual([]);
  });

  test('more than 32 search domains, and more than 2048 characters with the spaces', () => {
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.example`);
    expect(errorsOf({ dnsConfig: { searches: many } })).toEqual([
      `spec.dnsConfig.searches: Invalid value: []string{${many.map((s) => JSON.stringify(s)).join(', ')}}: must not have more than 32 search paths`,
    ]);
    const domain = (i: number, last: number) => `${String(i).repeat(60)}.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(last)}`;
    const long = Array.from({ length: 9 }, (_, i) => domain(i, i === 8 ? 20 : 40));
    expect(long.join(' ').length).toBe(2049);
    expect(errorsOf({ dnsConfig: { searches: long } })).toEqual([
      `spec.dnsConfig.searches: Invalid value: []string{${long.map((s) => JSON.stringify(s)).join(', ')}}: must not have more than 2048 characters (including spaces) in the search list`,
    ]);
    expect(errorsOf({ dnsConfig: { searches: [...long.slice(0, 8), domain(8, 19)] } })).toEqual([]);
  });

  test('a search domain that is no DNS subdomain once a trailing dot is cut', () => {
    expect(errorsOf({ dnsConfig: { searches: ['svc.cluster.local.', 'Corp.Example', 'a..b'] } })).toEqual([
      `spec.dnsConfig.searches[1]: Invalid value: "Corp.Example": ${SUBDOMAIN}`,
      `spec.dnsConfig.searches[2]: Invalid value: "a..b": ${SUBDOMAIN}`,
    ]);
  });

  test('an option without a name', () => {
    expect(errorsOf({ dnsConfig: { options: [{ name: 'ndots', value: '2' }, { value: '1' }, { name: '' }] } })).toEqual([
      'spec.dnsConfig.options[1]: Required value: must not be empty',
      'spec.dnsConfig.options[2]: Required value: must not be empty',
    ]);
  });

  test('dnsPolicy None without nameservers returns that error alone', () => {
    expect(errorsOf({ dnsPolicy: 'None', dnsConfig: { searches: ['Bad'], options: [{}] } })).toEqual([
      'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ]);
  });
});

describe('the published schema', () => {
  test('takes what the rule refuses in a dnsConfig', () => {
    expect(() => new Pod({ metadata: { name: 'p' }, spec: { containers: [CONTAINER], dnsConfig: { nameservers: ['a', 'b', 'c', 'd'], options: [{}] } } }).validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a nameserver written as a name is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { dnsPolicy: 'None', dnsConfig: { nameservers: ['dns.google'] }, containers: [CONTAINER] } } },
    });

    expect(podSpecFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.template.spec.dnsConfig.nameservers[0]' ("dns.google") of apps/Deployment shop/web declared by 'shop/Routing/Web' is no IP address; the API server refuses it: spec.template.spec.dnsConfig.nameservers[0]: Invalid value: "dns.google": ${IP}. Write the nameserver's IPv4 or IPv6 address, such as '10.0.0.10' (a name cannot be resolved before a nameserver is known).`,
    ]);
  });
});

describe('properties', () => {
  test('every IPv4 and IPv6 address fast-check makes is an IP address; with a /prefix it is not', () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
      expect(errorsOf({ dnsConfig: { nameservers: [ip] } })).toEqual([]);
      expect(errorsOf({ dnsConfig: { nameservers: [`${ip}/24`] } })).toEqual([`spec.dnsConfig.nameservers[0]: Invalid value: "${ip}/24": ${IP}`]);
    }), { numRuns: 300 });
  });

  test("ParseIPSloppy agrees with Node's isIP but for leading zeros in an IPv4 octet and an IPv6 zone", () => {
    const text = fc.stringMatching(/^[0-9a-f.:%]{1,20}$/);
    fc.assert(fc.property(text, (s) => {
      const node = isIP(s) !== 0 && !s.includes('%');
      const leadingZero = /(^|[.:])0[0-9]/.test(s);
      if (node) expect(isSloppyIP(s)).toBe(true);
      if (!leadingZero) expect(isSloppyIP(s)).toBe(node);
    }), { numRuns: 2000 });
  });
});
