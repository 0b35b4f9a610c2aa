import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Service } from 'kubernetes-models/v1';
import { routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { CapabilityApp, RuntimeWriter } from '../src';
import { ruleOf } from '../src/check/finding';
import { apiServerText } from '../src/check/rules/pod-spec-errors';
import { serviceErrors } from '../src/check/rules/service-spec-validity';

/*
 * A Service's ports, type and session affinity, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation_test.go` `TestValidateServiceCreate`, the
 * cases named below ("invalid port name", "dup port name", "invalid port", "invalid protocol", "invalid targetport
 * int", "invalid port name in targetPort" (an IANA name of more than 15 characters), "invalid nodeport with
 * clusterIP", "invalid type", "invalid session affinity"); the Go test asserts the number of errors, the texts here
 * are validation.go's at the commit `pod-spec-errors.ts` names, after `SetDefaults_Service`.
 */

afterAll(removeTempDirs);

/** The API server's errors for a Service of `spec`. */
function errorsOf(spec: Record<string, unknown>): string[] {
  return serviceErrors({ spec: { selector: { app: 'web' }, ...spec } }).map(apiServerText);
}

/** The Service rule's messages of a synth. */
function serviceFindings(app: CapabilityApp): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/service-spec-validity').map((v) => `${v.code} ${v.message}`);
}

const port = { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' };

describe('TestValidateServiceCreate: the port, type and affinity cases', () => {
  test.each([
    ['invalid port name', { ports: [{ ...port, name: 'INVALID' }] }, [
      "spec.ports[0].name: Invalid value: \"INVALID\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['dup port name', { ports: [port, { ...port, port: 81 }] }, ['spec.ports[1].name: Duplicate value: "http"']],
    ['invalid port', { ports: [{ ...port, port: 65536 }] }, ['spec.ports[0].port: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['invalid protocol', { ports: [{ ...port, protocol: 'INVALID' }] }, ['spec.ports[0].protocol: Unsupported value: "INVALID": supported values: "SCTP", "TCP", "UDP"']],
    ['invalid targetport int', { ports: [{ ...port, targetPort: 65536 }] }, ['spec.ports[0].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['invalid port name in targetPort', { ports: [{ ...port, targetPort: 'metrics-endpoint' }] }, ['spec.ports[0].targetPort: Invalid value: "metrics-endpoint": must be no more than 15 characters']],
    ['invalid nodeport with clusterIP', { type: 'ClusterIP', ports: [{ ...port, nodePort: 30080 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['a node port beside no type (defaulted to ClusterIP)', { ports: [{ ...port, nodePort: 30080 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['invalid type', { type: 'Internal', ports: [port] }, ['spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['invalid session affinity', { sessionAffinity: 'Sticky', ports: [port] }, ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
  ])('%s', (_name, spec, expected) => {
    expect(errorsOf(spec)).toEqual(expected);
  });

  test('a targetPort left out or 0 is the port, and a port out of range is named once more there', () => {
    expect(errorsOf({ ports: [{ port: 80 }, { name: 'b', port: 443, targetPort: 0 }].map((p, i) => ({ ...p, name: `p${i}` })) })).toEqual([]);
    expect(errorsOf({ ports: [{ port: 0 }] })).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });

  test('the success cases: a node port on NodePort and LoadBalancer, a headless Service, an ExternalName, a named targetPort', () => {
    expect(errorsOf({ type: 'NodePort', ports: [{ ...port, nodePort: 30080 }] })).toEqual([]);
    expect(errorsOf({ type: 'LoadBalancer', ports: [{ ...port, nodePort: 30080 }], sessionAffinity: 'ClientIP' })).toEqual([]);
    expect(errorsOf({ clusterIP: 'None', ports: [{ name: 'db', port: 5432, targetPort: 'postgres' }] })).toEqual([]);
    expect(errorsOf({ type: 'ExternalName', externalName: 'db.example.com' })).toEqual([]);
  });
});

describe('in a synth', () => {
  test('cdk8s-plus lets a Service target a port name longer than 15 characters; the API server refuses it', () => {
    const { app, chart } = routing();
    new kplus.Service(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, selector: kplus.Pods.select(chart, 'Pods', { labels: { app: 'web' } }), ports: [{ port: 80, targetPort: 8080, name: 'http' }] });
    new ApiObject(chart, 'Metrics', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics', namespace: 'shop' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'metrics', port: 9090, targetPort: 'metrics-endpoint', nodePort: 30090 }] },
    });

    expect(serviceFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.ports[port=9090,protocol=TCP].nodePort' (30090) of Service shop/metrics declared by 'shop/Routing/Metrics' is set on a ClusterIP Service (the type it has when left out), which opens no port on the nodes; the API server refuses it: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'. Write type: 'NodePort' (or 'LoadBalancer'), or drop nodePort.",
      "CAP010 invalid object: 'spec.ports[port=9090,protocol=TCP].targetPort' (\"metrics-endpoint\") of Service shop/metrics declared by 'shop/Routing/Metrics' must be a port number or the name of a container's port: an IANA service name of at most 15 lowercase letters, digits and '-'; the API server refuses it: spec.ports[0].targetPort: Invalid value: \"metrics-endpoint\": must be no more than 15 characters. Write the container port's number, or give the container's port a name of at most 15 characters and use it here.",
    ]);
  });

  test('what cdk8s-plus writes for a Deployment\'s exposed Service passes', () => {
    const { app, chart } = routing();
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'web', image: 'web:1', ports: [{ number: 8080 }, { number: 8443 }], securityContext: { ensureNonRoot: false } }] });
    web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 443, targetPort: 8443, name: 'https' }] });

    expect(serviceFindings(app)).toEqual([]);
  });

  test('a Service type a RuntimeWriter writes leaves its node ports unjudged', () => {
    const { app, chart } = routing();
    const svc = new ApiObject(chart, 'Metrics', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics', namespace: 'shop' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'metrics', port: 9090, nodePort: 30090 }] },
    });
    new RuntimeWriter(chart, 'Ops', { target: svc, fields: ['spec.type'], identity: 'system:serviceaccount:ops:exposer' });

    expect(serviceFindings(app)).toEqual([]);
  });

  test('the published schema takes what the rule refuses', () => {
    const svc = new Service({ metadata: { name: 's' }, spec: { ports: [{ name: 'HTTP', port: 80, targetPort: 'metrics-endpoint', nodePort: 30080 }], type: 'ClusterIP' } });
    expect(() => svc.validate()).not.toThrow();
  });
});

describe('properties', () => {
  test('ports made valid give no error', () => {
    const name = fc.stringMatching(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/);
    const portNum = fc.integer({ min: 1, max: 65535 });
    const ianaName = fc.stringMatching(/^[a-z]([a-z0-9]{0,6}(-[a-z0-9]{1,6})?)$/);
    const target = fc.oneof(portNum, ianaName, fc.constant(undefined));
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(name, portNum, target, fc.constantFrom('TCP', 'UDP', 'SCTP')), { selector: ([n]) => n, minLength: 1, maxLength: 4 }), fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
      (ports, type) => {
        expect(errorsOf({ type, ports: ports.map(([n, p, t, protocol]) => ({ name: n, port: p, targetPort: t, protocol })) })).toEqual([]);
      }));
  });

  test('any JSON as a Service spec or its ports gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (spec, ports) => {
      expect(() => serviceErrors({ spec })).not.toThrow();
      expect(() => serviceErrors({ spec: { ports: [ports], type: 'ClusterIP' } })).not.toThrow();
    }), { numRuns: 300 });
  });
});
