import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * The names a pod goes by, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `ValidatePodSpec` (`hostname`,
 * `subdomain` through `ValidateDNS1123Label`, `priorityClassName` through `ValidatePriorityClassName`) and
 * `ValidateHostAliases` at the commit `pod-spec-errors.ts` names, with k8s.io/apimachinery v0.30.14's messages. The
 * cases are written here from them, not ported from validation_test.go.
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, { at: ['spec'], isPod: true }).map(apiServerText);
}

describe('hostname and subdomain: DNS-1123 labels', () => {
  test.each([
    ['a dot in the hostname', { hostname: 'web.0' }, ['spec.hostname: Invalid value: "web.0": must not contain dots']],
    ['capitals in the subdomain', { subdomain: 'Web' }, [`spec.subdomain: Invalid value: "Web": ${LABEL}`]],
    ['a 64-character hostname', { hostname: 'a'.repeat(64) }, [`spec.hostname: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
  ])('%s', (_name, spec, expected) => {
    expect(errorsOf(spec)).toEqual(expected);
  });

  test('labels pass, and an empty one is left out', () => {
    expect(errorsOf({ hostname: 'web-0', subdomain: 'web' })).toEqual([]);
    expect(errorsOf({ hostname: '', subdomain: '' })).toEqual([]);
  });
});

describe('ValidateHostAliases', () => {
  test('an IP that is none, one left out, and a hostname that is no DNS subdomain', () => {
    expect(errorsOf({ hostAliases: [{ ip: '10.1.2', hostnames: ['db.internal', 'DB'] }, { hostnames: ['cache'] }] })).toEqual([
      `spec.hostAliases[0].ip: Invalid value: "10.1.2": ${IP}`,
      `spec.hostAliases[0].hostnames[1]: Invalid value: "DB": ${SUBDOMAIN}`,
      `spec.hostAliases[1].ip: Invalid value: "": ${IP}`,
    ]);
  });

  test('an IPv4 or IPv6 address and DNS subdomains pass', () => {
    expect(errorsOf({ hostAliases: [{ ip: '10.1.2.3', hostnames: ['db.internal', 'db'] }, { ip: '::1', hostnames: ['localhost6'] }] })).toEqual([]);
  });
});

describe('priorityClassName: a DNS subdomain', () => {
  test('capitals are refused, a subdomain passes', () => {
    expect(errorsOf({ priorityClassName: 'High' })).toEqual([`spec.priorityClassName: Invalid value: "High": ${SUBDOMAIN}`]);
    expect(errorsOf({ priorityClassName: 'system-cluster-critical' })).toEqual([]);
  });
});

describe('the published schema takes what the rule refuses', () => {
  test('a Pod of a bad hostname, subdomain, priority class and host alias validates', () => {
    expect(() => new Pod({
      metadata: { name: 'p' },
      spec: { containers: [CONTAINER], hostname: 'web.0', subdomain: 'Web', priorityClassName: 'High', hostAliases: [{ ip: 'x', hostnames: ['Y'] }] },
    }).validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a cdk8s-plus hostname with a dot is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new kplus.Pod(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      dns: { hostname: 'web.shop' },
      containers: [{ name: 'web', image: 'web:1', securityContext: { ensureNonRoot: false } }],
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.hostname' (\"web.shop\") of Pod shop/web declared by 'shop/Routing/Web' must be a DNS-1123 label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit, without '.'; the API server refuses it: spec.hostname: Invalid value: \"web.shop\": must not contain dots. Write a label such as hostname: 'web-0'; for a longer name, set subdomain to a headless Service's name.",
    ]);
  });

  test('a host alias of a name for an IP is refused', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Pod', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'shop' },
      spec: { hostAliases: [{ ip: 'db.internal', hostnames: ['db'] }], containers: [CONTAINER] },
    });

    expect(podSpecFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.hostAliases[ip=db.internal].ip' ("db.internal") of Pod shop/p declared by 'shop/Routing/Pod' is no IP address; the API server refuses it: spec.hostAliases[0].ip: Invalid value: "db.internal": ${IP}. Write the IPv4 or IPv6 address the hostnames resolve to, such as ip: '10.1.2.3'.`,
    ]);
  });
});

describe('properties', () => {
  test('a hostname is refused exactly when it is no DNS-1123 label (the oracle: a regex and a length)', () => {
    const name = fc.stringMatching(/^[-a-zA-Z0-9._]{1,70}$/);
    fc.assert(fc.property(name, (hostname) => {
      const label = hostname.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(hostname);
      expect(errorsOf({ hostname }).length === 0).toBe(label);
    }), { numRuns: 500 });
  });

  test('any JSON as these fields gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      expect(() => errorsOf({ hostname: a, subdomain: b, priorityClassName: a, hostAliases: b })).not.toThrow();
      expect(() => errorsOf({ hostAliases: [{ ip: a, hostnames: b }] })).not.toThrow();
    }), { numRuns: 300 });
  });
});
