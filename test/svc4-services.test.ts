import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { CapabilityApp, RuntimeWriter } from '../src';
import { ruleOf } from '../src/check/finding';
import { apiServerText } from '../src/check/rules/pod-spec-errors';
import { serviceAddressErrors } from '../src/check/rules/service-spec-addresses';

/*
 * A Service's cluster IPs, IP families, external IPs, load balancer fields, traffic policies, external name, session
 * affinity timeout and selector, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names:
 * `ValidateService` (the branches by type, external IPs through `IsValidIP` and `ValidateNonSpecialIP`, source ranges
 * at the path `spec.LoadBalancerSourceRanges` through `IsValidCIDR` after `strings.TrimSpace`,
 * `allocateLoadBalancerNodePorts`), `ValidateServiceClusterIPsRelatedFields`, `validateServiceExternalTrafficPolicy`,
 * `validateServiceInternalTrafficFieldsValue`, `validateLoadBalancerClassField`, `validateClientIPAffinityConfig`;
 * `pkg/registry/core/service/storage/alloc.go` `initIPFamilyFields` (SingleStack beside two cluster IPs or families);
 * the texts are `field.Error.Error()`'s with apimachinery v0.30's messages. Each refusal has an accepted case beside it.
 */

afterAll(removeTempDirs);

function errorsOf(spec: Record<string, unknown>): string[] {
  return serviceAddressErrors({ spec }).map(apiServerText);
}

function serviceFindings(app: CapabilityApp): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/service-spec-validity').map((v) => `${v.code} ${v.message}`);
}

const ports = [{ name: 'http', port: 80 }];
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

describe('cluster IPs and IP families (ValidateServiceClusterIPsRelatedFields)', () => {
  test.each([
    ['a cluster IP that is no address', { clusterIP: '10.0.0.300' }, [`spec.clusterIPs[0]: Invalid value: "10.0.0.300": ${IP}`]],
    ['clusterIPs whose first is not clusterIP', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'] }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`']],
    ['clusterIPs without clusterIP', { clusterIPs: ['10.0.0.1'] }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: must be empty when `clusterIP` is not specified']],
    ['None beside an address', { clusterIP: 'None', clusterIPs: ['None', '10.0.0.1'] }, ['spec.clusterIPs: Invalid value: []string{"None", "10.0.0.1"}: \'None\' must be the first and only value']],
    ['two addresses of one family', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '10.0.0.2'], ipFamilyPolicy: 'PreferDualStack' }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family']],
    ['three addresses', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '2001:db8::1', '10.0.0.2'], ipFamilyPolicy: 'RequireDualStack' }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "2001:db8::1", "10.0.0.2"}: may only hold up to 2 values']],
    ['an unknown family, and one twice', { ipFamilies: ['IPv5', 'IPv4', 'IPv4'] }, ['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"', 'spec.ipFamilies[2]: Duplicate value: "IPv4"']],
    ['an unknown policy', { ipFamilyPolicy: 'DualStack' }, ['spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"']],
    ['an IPv6 address where ipFamilies says IPv4', { clusterIP: '2001:db8::1', ipFamilies: ['IPv4'] }, ['spec.clusterIPs[0]: Invalid value: "2001:db8::1": expected an IPv4 value as indicated by `ipFamilies[0]`']],
    ['SingleStack with two families', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }, ['spec.ipFamilyPolicy: Invalid value: "SingleStack": must be RequireDualStack or PreferDualStack when multiple \'ipFamilies\' are specified']],
    ['None on a NodePort Service', { type: 'NodePort', clusterIP: 'None' }, ['spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services']],
  ])('%s is refused', (_name, spec, expected) => {
    expect(errorsOf({ ports, ...spec })).toEqual(expected);
  });

  test.each([
    ['a cluster IP', { clusterIP: '10.0.0.10' }],
    ['a cluster IP with leading zeros (ParseIPSloppy reads them as decimal)', { clusterIP: '010.0.0.10' }],
    ['clusterIP and clusterIPs that agree, dual-stack', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '2001:db8::1'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }],
    ['headless, with families', { clusterIP: 'None', ipFamilies: ['IPv6'], ipFamilyPolicy: 'SingleStack' }],
    ['an IPv4-mapped IPv6 address of family IPv4', { clusterIP: '::ffff:10.0.0.1', ipFamilies: ['IPv4'] }],
    ['None on a ClusterIP Service', { clusterIP: 'None' }],
  ])('%s passes', (_name, spec) => {
    expect(errorsOf({ ports, ...spec })).toEqual([]);
  });
});

describe('external IPs, load balancer fields and traffic policies', () => {
  test.each([
    ['an external IP that is no address', { externalIPs: ['203.0.113.10:80'] }, [`spec.externalIPs[0]: Invalid value: "203.0.113.10:80": ${IP}`]],
    ['a loopback external IP', { externalIPs: ['127.0.0.1'] }, ['spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['an unspecified external IP', { externalIPs: ['0.0.0.0'] }, ['spec.externalIPs[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']],
    ['a link-local external IP', { externalIPs: ['169.254.169.254'] }, ['spec.externalIPs[0]: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['source ranges on a ClusterIP Service', { loadBalancerSourceRanges: ['10.0.0.0/8'] }, ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
    ['a source range that is no CIDR', { type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.0/33 '] }, ['spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    ['allocateLoadBalancerNodePorts on a NodePort Service', { type: 'NodePort', allocateLoadBalancerNodePorts: false }, ["spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
    ['a loadBalancerClass on a ClusterIP Service', { loadBalancerClass: 'example.com/vip' }, ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
    ['the kubelet port on a LoadBalancer', { type: 'LoadBalancer', ports: [{ name: 'k', port: 10250 }] }, ['spec.ports[0]: Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet']],
    ['an externalTrafficPolicy on a ClusterIP Service', { externalTrafficPolicy: 'Local' }, ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']],
    ['an unknown externalTrafficPolicy', { type: 'NodePort', externalTrafficPolicy: 'local' }, ['spec.externalTrafficPolicy: Unsupported value: "local": supported values: "Cluster", "Local"']],
    ['an unknown internalTrafficPolicy', { internalTrafficPolicy: 'Node' }, ['spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"']],
    ['a healthCheckNodePort without externalTrafficPolicy Local', { type: 'LoadBalancer', healthCheckNodePort: 30100 }, ["spec.healthCheckNodePort: Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"]],
    ['a healthCheckNodePort out of range', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 70000 }, ['spec.healthCheckNodePort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
  ])('%s is refused', (_name, spec, expected) => {
    expect(errorsOf({ ports, ...spec })).toEqual(expected);
  });

  test.each([
    ['a routable external IP', { externalIPs: ['203.0.113.10', '2001:db8::10'] }],
    ['source ranges on a LoadBalancer, space-padded', { type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.0/8', '2001:db8::/64', '10.1.2.3/24'] }],
    ['allocateLoadBalancerNodePorts and a class on a LoadBalancer', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, loadBalancerClass: 'example.com/vip' }],
    ['externalTrafficPolicy on a ClusterIP Service with external IPs', { externalIPs: ['203.0.113.10'], externalTrafficPolicy: 'Local' }],
    ['a healthCheckNodePort of a Local LoadBalancer', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30100 }],
    ['internalTrafficPolicy Local', { internalTrafficPolicy: 'Local' }],
    ['a loadBalancerIP of any text (the API server does not validate it)', { type: 'LoadBalancer', loadBalancerIP: 'not-an-ip' }],
  ])('%s passes', (_name, spec) => {
    expect(errorsOf({ ports, ...spec })).toEqual([]);
  });
});

describe('external name, session affinity, selector, appProtocol', () => {
  const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  test.each([
    ['an ExternalName without externalName', { type: 'ExternalName' }, ['spec.externalName: Required value']],
    ['an externalName with a scheme', { type: 'ExternalName', externalName: 'https://db.example.com' }, [`spec.externalName: Invalid value: "https://db.example.com": ${SUBDOMAIN}`]],
    ['a cluster IP on an ExternalName', { type: 'ExternalName', externalName: 'db.example.com', clusterIP: '10.0.0.1', ipFamilyPolicy: 'SingleStack' }, ['spec.clusterIPs: Forbidden: may not be set for ExternalName services', 'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services']],
    ['a ClientIP timeout over a day', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }, ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400']],
    ['a session affinity config beside None', { sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }, ['spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None']],
    ['a selector value with a space', { selector: { app: 'my app' } }, ['spec.selector: Invalid value: "my app": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')']],
    ['an appProtocol with a space', { ports: [{ name: 'web', port: 80, appProtocol: 'HTTP 2' }] }, ['spec.ports[0].appProtocol: Invalid value: "HTTP 2": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')']],
  ])('%s is refused', (_name, spec, expected) => {
    expect(errorsOf({ ports, ...spec })).toEqual(expected);
  });

  test.each([
    ['an ExternalName with a trailing dot', { type: 'ExternalName', externalName: 'db.example.com.' }],
    ['ClientIP affinity without a config (defaulted to 10800 seconds)', { sessionAffinity: 'ClientIP' }],
    ['a ClientIP timeout of a day', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86400 } } }],
    ['a selector of qualified keys and label values', { selector: { 'app.kubernetes.io/name': 'web', 'tier': '' } }],
    ['an appProtocol that is a qualified name', { ports: [{ name: 'web', port: 80, appProtocol: 'kubernetes.io/h2c' }] }],
  ])('%s passes', (_name, spec) => {
    expect(errorsOf({ ports, ...spec })).toEqual([]);
  });
});

describe('in a synth', () => {
  test('a source range on a NodePort Service is refused, naming the field as written and the fix', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Edge', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { type: 'NodePort', selector: { app: 'edge' }, ports, loadBalancerSourceRanges: ['203.0.113.0/24'] },
    });

    expect(serviceFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.loadBalancerSourceRanges' of Service shop/edge declared by 'shop/Routing/Edge' is set on a Service that is no LoadBalancer; the API server refuses it: spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'. Write type: 'LoadBalancer', or drop it.",
    ]);
  });

  test('an external IP with a port is refused with its value', () => {
    const { app, chart } = routing();
    new kplus.Service(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, ports: [{ port: 80 }], externalIPs: ['203.0.113.10:80'] });

    expect(serviceFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.externalIPs[0]' ("203.0.113.10:80") of Service shop/web declared by 'shop/Routing/Web' must be an IP address; the API server refuses it: spec.externalIPs[0]: Invalid value: "203.0.113.10:80": ${IP}. Write the address, such as 203.0.113.10 (no port, no CIDR).`,
    ]);
  });

  test('cdk8s-plus Services of every type it makes pass', () => {
    const { app, chart } = routing();
    new kplus.Service(chart, 'A', { metadata: { name: 'a' }, ports: [{ port: 80, targetPort: 8080 }], clusterIP: 'None' });
    new kplus.Service(chart, 'B', { metadata: { name: 'b' }, ports: [{ port: 80, nodePort: 30080 }], type: kplus.ServiceType.NODE_PORT, externalIPs: ['203.0.113.10'] });
    new kplus.Service(chart, 'C', { metadata: { name: 'c' }, ports: [{ port: 443 }], type: kplus.ServiceType.LOAD_BALANCER, loadBalancerSourceRanges: ['10.0.0.0/8'] });
    new kplus.Service(chart, 'D', { metadata: { name: 'd' }, externalName: 'db.example.com' });

    expect(serviceFindings(app)).toEqual([]);
  });

  test('a cluster IP a RuntimeWriter writes leaves its agreement with clusterIPs unjudged', () => {
    const { app, chart } = routing();
    const svc = new ApiObject(chart, 'A', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a', namespace: 'shop' }, spec: { selector: { app: 'a' }, ports, clusterIPs: ['10.0.0.1'] } });
    new RuntimeWriter(chart, 'Ip', { target: svc, fields: ['spec.clusterIP'], identity: 'system:serviceaccount:ops:porter' });

    expect(serviceFindings(app)).toEqual([]);
  });
});

describe('properties', () => {
  test('an external IP is refused exactly when it is no address or a special one (oracle: Node\'s net.isIP and the special ranges)', () => {
    const special = (ip: string) => /^(0\.0\.0\.0|127\.|169\.254\.|224\.0\.0\.)/.test(ip);
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.string({ unit: fc.constantFrom(...'0123456789.'), maxLength: 16 })), (ip) => {
      // leading zeros aside (ParseIPSloppy reads them; Node does not), Node's isIP is the oracle
      fc.pre(!/(^|\.)0\d/.test(ip));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const valid = require('net').isIP(ip) === 4;
      const errors = errorsOf({ ports, externalIPs: [ip] });
      expect(errors.length === 0).toBe(valid && !special(ip));
    }));
  });
});
