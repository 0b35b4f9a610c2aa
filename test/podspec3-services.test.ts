import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Service } from 'kubernetes-models/v1';
import { routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { CapabilityApp, Contribution, RuntimeWriter } from '../src';
import { ruleOf } from '../src/check/finding';
import { apiServerText } from '../src/check/rules/pod-spec-errors';
import { serviceErrors } from '../src/check/rules/service-spec-validity';

/*
 * A Service without ports, and node ports repeated in one Service, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `ValidateService` at the commit
 * `pod-spec-errors.ts` names (`len(service.Spec.Ports) == 0 && !isHeadlessService(service) && service.Spec.Type !=
 * core.ServiceTypeExternalName` gives `field.Required(spec.ports)`; node ports keyed by protocol and number give
 * `field.Duplicate(ports[i].nodePort)`), and `validation_test.go` `TestValidateServiceCreate`'s cases "missing ports"
 * (1 error), "duplicate nodeports" (1 error, node port 1: validation takes any node port, the allocator checks the
 * range) and "duplicate nodeports (different protocols)" (0 errors), read in an older copy of the test file whose
 * cases are unchanged in these respects. The texts are `field.Error.Error()`'s.
 */

afterAll(removeTempDirs);

/** The API server's errors for a Service of `spec`. */
function errorsOf(spec: Record<string, unknown> | undefined): string[] {
  return serviceErrors(spec === undefined ? { metadata: { name: 's' } } : { spec }).map(apiServerText);
}

/** The Service rule's messages of a synth. */
function serviceFindings(app: CapabilityApp): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/service-spec-validity').map((v) => `${v.code} ${v.message}`);
}

const port = { name: 'http', port: 80, targetPort: 8080 };

describe('TestValidateServiceCreate: ports required', () => {
  test.each([
    ['missing ports', { selector: { app: 'web' } }],
    ['an empty ports list', { selector: { app: 'web' }, ports: [] }],
    ['no ports on a NodePort Service', { type: 'NodePort', ports: null }],
    ['no ports on a LoadBalancer Service', { type: 'LoadBalancer' }],
    ['no ports and a cluster IP that is not None', { clusterIP: '10.0.0.10' }],
    ['no ports and two cluster IPs, the first None (not headless: isHeadlessService wants exactly one)', { clusterIPs: ['None', '10.0.0.10'] }],
  ])('%s: spec.ports: Required value', (_name, spec) => {
    expect(errorsOf(spec)).toEqual(['spec.ports: Required value']);
  });

  test('a Service without a spec has no ports either', () => {
    expect(errorsOf(undefined)).toEqual(['spec.ports: Required value']);
  });

  test.each([
    ['a headless Service (clusterIP: None)', { clusterIP: 'None', selector: { app: 'db' } }],
    ['a headless Service (clusterIPs: [None])', { clusterIPs: ['None'] }],
    ['an ExternalName', { type: 'ExternalName', externalName: 'db.example.com' }],
    ['ports of another JSON type (scalar-types names them)', { ports: 'http' }],
    ['a type of another JSON type', { type: 7 }],
    ['cluster IPs of another JSON type', { clusterIPs: 'None' }],
  ])('%s passes', (_name, spec) => {
    expect(errorsOf(spec)).toEqual([]);
  });

  test('the published schema takes a Service without ports', () => {
    expect(() => new Service({ metadata: { name: 's' }, spec: { selector: { app: 'web' } } }).validate()).not.toThrow();
  });
});

describe('TestValidateServiceCreate: node ports', () => {
  test('duplicate nodeports: the second is refused', () => {
    expect(errorsOf({ type: 'NodePort', ports: [{ ...port, name: 'q', port: 1, nodePort: 1 }, { ...port, name: 'r', port: 2, nodePort: 1 }] })).toEqual([
      'spec.ports[1].nodePort: Duplicate value: 1',
    ]);
  });

  test('a protocol left out is TCP, so it repeats a TCP node port', () => {
    expect(errorsOf({ type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 30080, protocol: 'TCP' }, { name: 'b', port: 81, nodePort: 30081 }, { name: 'c', port: 82, nodePort: 30080 }] })).toEqual([
      'spec.ports[2].nodePort: Duplicate value: 30080',
    ]);
  });

  test('duplicate nodeports (different protocols) pass, and so do node ports outside 30000-32767 (the allocator, not validation, checks the range)', () => {
    expect(errorsOf({ type: 'NodePort', ports: [{ name: 'dns', port: 53, nodePort: 30053, protocol: 'TCP' }, { name: 'dns-udp', port: 53, nodePort: 30053, protocol: 'UDP' }] })).toEqual([]);
    expect(errorsOf({ type: 'LoadBalancer', ports: [{ ...port, nodePort: 1 }, { ...port, name: 'b', port: 81, nodePort: 40000 }] })).toEqual([]);
  });

  test('a repeated node port on a ClusterIP Service is refused twice over, as the API server does', () => {
    expect(errorsOf({ ports: [{ ...port, nodePort: 30080 }, { ...port, name: 'b', port: 81, nodePort: 30080 }] })).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      "spec.ports[1].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      'spec.ports[1].nodePort: Duplicate value: 30080',
    ]);
  });
});

describe('in a synth', () => {
  test('a Service declared without ports is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { app: 'web' } } });

    expect(serviceFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.ports' of Service shop/web declared by 'shop/Routing/Web' is missing or empty: a Service needs at least one port, unless it is headless (clusterIP: None) or of type ExternalName; the API server refuses it: spec.ports: Required value. Add the port clients connect to, such as ports: [{ port: 80, targetPort: 8080 }], or write clusterIP: 'None' for a headless Service.",
    ]);
  });

  test('ports a Contribution adds count: the merged Service passes', () => {
    const { app, chart } = routing();
    const svc = new ApiObject(chart, 'Web', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { app: 'web' } } });
    new Contribution(chart, 'Http', { target: svc, fields: { spec: { ports: [{ port: 80, targetPort: 8080 }] } } });

    expect(serviceFindings(app)).toEqual([]);
  });

  test('ports or a cluster IP a RuntimeWriter writes leave the Service unjudged', () => {
    const { app, chart } = routing();
    const a = new ApiObject(chart, 'A', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a', namespace: 'shop' }, spec: { selector: { app: 'a' } } });
    new RuntimeWriter(chart, 'Ports', { target: a, fields: ['spec.ports'], identity: 'system:serviceaccount:ops:porter' });
    const b = new ApiObject(chart, 'B', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'b', namespace: 'shop' }, spec: { selector: { app: 'b' } } });
    new RuntimeWriter(chart, 'Ip', { target: b, fields: ['spec.clusterIP'], identity: 'system:serviceaccount:ops:porter' });

    expect(serviceFindings(app)).toEqual([]);
  });

  test('a node port given twice names the port that has it first', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Edge', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { type: 'NodePort', selector: { app: 'edge' }, ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'https', port: 443, nodePort: 30080 }] },
    });

    expect(serviceFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.ports[port=443,protocol=TCP].nodePort' (30080) of Service shop/edge declared by 'shop/Routing/Edge' is the node port of another port of this Service too, with the same protocol: a node binds it once; the API server refuses it: spec.ports[1].nodePort: Duplicate value: 30080. Give each port its own nodePort, or drop nodePort to have one allocated.",
    ]);
  });
});

describe('properties', () => {
  test('Services with ports, headless ones and ExternalNames made valid give no error', () => {
    const portNum = fc.integer({ min: 1, max: 65535 });
    const protocol = fc.constantFrom('TCP', 'UDP', 'SCTP', undefined);
    // node ports distinct by construction (a Service may not repeat one), each port with or without one
    const declared = fc.array(fc.tuple(portNum, protocol, fc.boolean()), { minLength: 1, maxLength: 4 });
    const ports = fc.tuple(declared, fc.uniqueArray(portNum, { minLength: 4, maxLength: 4 }))
      .map(([ps, nodes]) => ps.map(([p, proto, hasNode], i) => [p, proto, hasNode ? nodes[i] : undefined] as const));
    const spec = fc.oneof(
      ports.chain((ps) => fc.constantFrom('NodePort', 'LoadBalancer').map((type) => ({ type, ports: ps.map(([p, proto, nodePort], i) => ({ name: `p${i}`, port: p, protocol: proto, nodePort })) }))),
      fc.record({ clusterIP: fc.constant('None') }),
      fc.record({ type: fc.constant('ExternalName'), externalName: fc.constant('db.example.com'), ports: fc.constantFrom(undefined, []) }),
    );
    fc.assert(fc.property(spec, (s) => {
      expect(errorsOf(s as Record<string, unknown>)).toEqual([]);
    }));
  });

  test('any JSON as a Service, its spec, ports or cluster IPs gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (a, b, c) => {
      expect(() => serviceErrors(a)).not.toThrow();
      expect(() => serviceErrors({ spec: { ports: b, clusterIPs: c, clusterIP: a, type: 'NodePort' } })).not.toThrow();
      expect(() => serviceErrors({ spec: { ports: [{ nodePort: 30000, protocol: b }, { nodePort: 30000, protocol: c }] } })).not.toThrow();
    }), { numRuns: 300 });
  });
});
