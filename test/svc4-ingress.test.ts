import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { CapabilityApp } from '../src';
import { ruleOf } from '../src/check/finding';
import { ingressErrors } from '../src/check/rules/ingress-errors';
import { apiServerText } from '../src/check/rules/pod-spec-errors';

/*
 * An Ingress (networking.k8s.io/v1) as the Kubernetes 1.30 API server validates it.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/networking/validation/validation.go` (`ValidateIngressSpec`,
 * `validateIngressRules`, `validateHTTPIngressPath` with its `invalidPathSequences` and `invalidPathSuffixes`,
 * `validateIngressBackend`, `validateIngressTLS`), with the 1.30 behaviour of its later options (a backend Service's
 * name is a DNS-1035 label); messages of apimachinery v0.30 (`IsDNS1123Subdomain`, `IsWildcardDNS1123Subdomain`,
 * `IsDNS1035Label`, `IsValidPortName`, `IsValidPortNum`). Each refusal has an accepted case beside it.
 */

afterAll(removeTempDirs);

const backend = { service: { name: 'web', port: { number: 80 } } };

function errorsOf(spec: Record<string, unknown> | undefined): string[] {
  return ingressErrors(spec === undefined ? {} : { spec }).map(apiServerText);
}

function rule(path: Record<string, unknown>, host?: string): Record<string, unknown> {
  return { rules: [{ ...(host === undefined ? {} : { host }), http: { paths: [path] } }] };
}

function ingressFindings(app: CapabilityApp): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/ingress-spec-validity').map((v) => `${v.code} ${v.message}`);
}

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('ValidateIngressSpec', () => {
  test.each([
    ['no rules and no default backend', undefined, ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
    ['a path without pathType', rule({ path: '/', backend }), ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']],
    ['an unknown pathType', rule({ path: '/', pathType: 'prefix', backend }), ['spec.rules[0].http.paths[0].pathType: Unsupported value: "prefix": supported values: "Exact", "ImplementationSpecific", "Prefix"']],
    ['a relative Prefix path', rule({ path: 'api', pathType: 'Prefix', backend }), ['spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path']],
    ['an Exact path with // and a /.. end', rule({ path: '/a//b/..', pathType: 'Exact', backend }), ['spec.rules[0].http.paths[0].path: Invalid value: "/a//b/..": must not contain \'//\'', 'spec.rules[0].http.paths[0].path: Invalid value: "/a//b/..": cannot end with \'/..\'']],
    ['a relative ImplementationSpecific path', rule({ path: '.*', pathType: 'ImplementationSpecific', backend }), ['spec.rules[0].http.paths[0].path: Invalid value: ".*": must be an absolute path']],
    ['an http rule without paths', { rules: [{ http: { paths: [] } }] }, ['spec.rules[0].http.paths: Required value']],
    ['a backend of a service and a resource', rule({ path: '/', pathType: 'Prefix', backend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } }), ['spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both resource and service backends']],
    ['a backend of neither', rule({ path: '/', pathType: 'Prefix', backend: {} }), ['spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required']],
    ['a service port of a name and a number', rule({ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }), ['spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number']],
    ['a service port of neither', rule({ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: {} } } }), ['spec.rules[0].http.paths[0].backend: Required value: port name or number is required']],
    ['a service name starting with a digit', { defaultBackend: { service: { name: '1web', port: { number: 80 } } } }, ['spec.defaultBackend.service.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')']],
    ['a host that is an IP address', rule({ path: '/', pathType: 'Prefix', backend }, '10.0.0.1'), ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']],
    ['a wildcard inside a host', rule({ path: '/', pathType: 'Prefix', backend }, 'shop.*.example.com'), [`spec.rules[0].host: Invalid value: "shop.*.example.com": ${WILDCARD}`]],
    ['a host with a port', rule({ path: '/', pathType: 'Prefix', backend }, 'shop.example.com:443'), [`spec.rules[0].host: Invalid value: "shop.example.com:443": ${SUBDOMAIN}`]],
    ['a TLS host in capitals', { defaultBackend: backend, tls: [{ hosts: ['Shop.example.com'], secretName: 'tls' }] }, [`spec.tls[0].hosts[0]: Invalid value: "Shop.example.com": ${SUBDOMAIN}`]],
    ['an ingressClassName with an underscore', { defaultBackend: backend, ingressClassName: 'nginx_internal' }, [`spec.ingressClassName: Invalid value: "nginx_internal": ${SUBDOMAIN}`]],
  ])('%s is refused', (_name, spec, expected) => {
    expect(errorsOf(spec)).toEqual(expected);
  });

  test.each([
    ['a default backend alone', { defaultBackend: backend }],
    ['a Prefix path', rule({ path: '/api', pathType: 'Prefix', backend })],
    ['an ImplementationSpecific regular expression that is absolute', rule({ path: '/api/(.*)', pathType: 'ImplementationSpecific', backend })],
    ['an ImplementationSpecific rule without a path', rule({ pathType: 'ImplementationSpecific', backend })],
    ['a wildcard first label', rule({ path: '/', pathType: 'Prefix', backend }, '*.example.com')],
    ['a port by name', rule({ path: '/', pathType: 'Exact', backend: { service: { name: 'web', port: { name: 'http' } } } })],
    ['a resource backend', rule({ path: '/', pathType: 'Prefix', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' } } })],
    ['TLS of a wildcard host, and a class', { defaultBackend: backend, tls: [{ hosts: ['*.example.com'], secretName: 'tls' }], ingressClassName: 'nginx' }],
  ])('%s passes', (_name, spec) => {
    expect(errorsOf(spec)).toEqual([]);
  });
});

describe('in a synth', () => {
  test('a path without pathType is refused with the fix', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Edge', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', backend }] } }] },
    });

    expect(ingressFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.rules[0].http.paths[0].pathType' of networking.k8s.io/Ingress shop/edge declared by 'shop/Routing/Edge' is missing: every path of an Ingress (networking.k8s.io/v1) needs a pathType; the API server refuses it: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified. Write pathType: 'Prefix' (or 'Exact', or 'ImplementationSpecific' for the controller's own matching).",
    ]);
  });

  test('a cdk8s-plus host that is an IP address is refused', () => {
    const { app, chart } = routing();
    const svc = new kplus.Service(chart, 'Web', { metadata: { name: 'web' }, ports: [{ port: 80 }] });
    new kplus.Ingress(chart, 'Edge', { metadata: { name: 'edge' }, rules: [{ host: '203.0.113.10', path: '/', backend: kplus.IngressBackend.fromService(svc) }] });

    expect(ingressFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.rules[0].host' (\"203.0.113.10\") of networking.k8s.io/Ingress edge declared by 'shop/Routing/Edge' is an IP address: a rule matches the Host header by DNS name; the API server refuses it: spec.rules[0].host: Invalid value: \"203.0.113.10\": must be a DNS name, not an IP address. Write the DNS name clients use, or leave host out to match every host.",
    ]);
  });

  test('the Ingresses cdk8s-plus makes pass: default backend, host rules, each pathType, TLS, a class', () => {
    const { app, chart } = routing();
    const svc = new kplus.Service(chart, 'Web', { metadata: { name: 'web' }, ports: [{ port: 80 }] });
    const ingress = new kplus.Ingress(chart, 'Edge', { metadata: { name: 'edge' }, className: 'nginx', defaultBackend: kplus.IngressBackend.fromService(svc) });
    ingress.addHostRule('shop.example.com', '/api', kplus.IngressBackend.fromService(svc), kplus.HttpIngressPathType.EXACT);
    ingress.addHostDefaultBackend('*.example.com', kplus.IngressBackend.fromService(svc));
    ingress.addRule('/static', kplus.IngressBackend.fromService(svc), kplus.HttpIngressPathType.IMPLEMENTATION_SPECIFIC);
    const secret = new kplus.Secret(chart, 'Tls', { metadata: { name: 'tls' } });
    ingress.addTls([{ hosts: ['shop.example.com', '*.example.com'], secret }]);
    svc.exposeViaIngress('/shop');

    expect(ingressFindings(app)).toEqual([]);
  });

  test('an Ingress of the old networking.k8s.io/v1beta1 is left to its own version', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Old', { apiVersion: 'networking.k8s.io/v1beta1', kind: 'Ingress', metadata: { name: 'old' }, spec: {} });

    expect(ingressFindings(app)).toEqual([]);
  });
});

describe('properties', () => {
  test('a Prefix path is refused exactly when it is not absolute or holds a forbidden sequence or ending (oracle: the rule read as a regular expression)', () => {
    const forbidden = /^(?!\/)|\/\/|\/\.\/|\/\.\.\/|%2f|%2F|\/\.\.?$/;
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('/', '.', 'a', '%', '2', 'f', 'F'), maxLength: 10 }), (path) => {
      const errors = errorsOf(rule({ path, pathType: 'Prefix', backend }));
      expect(errors.length > 0).toBe(forbidden.test(path));
    }));
  });

  test('a host of DNS labels is accepted, and with "*." in front of it too (oracle: fast-check\'s domain generator, lowercased)', () => {
    fc.assert(fc.property(fc.domain(), fc.boolean(), (domain, wild) => {
      const host = (wild ? `*.${domain}` : domain).toLowerCase();
      fc.pre(host.length <= 253);
      expect(errorsOf(rule({ path: '/', pathType: 'Prefix', backend }, host))).toEqual([]);
    }));
  });
});

describe('the class annotation', () => {
  test('a kubernetes.io/ingress.class annotation that names another class than ingressClassName is refused; the same class passes', () => {
    const of = (annotation: string) => ingressErrors({ metadata: { annotations: { 'kubernetes.io/ingress.class': annotation } }, spec: { defaultBackend: backend, ingressClassName: 'nginx' } }).map(apiServerText);

    expect(of('traefik')).toEqual(['annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified']);
    expect(of('nginx')).toEqual([]);
  });

  test('in a synth, the annotation is named where it is written', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Edge', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'edge', namespace: 'shop', annotations: { 'kubernetes.io/ingress.class': 'traefik' } },
      spec: { defaultBackend: backend, ingressClassName: 'nginx' },
    });

    expect(ingressFindings(app)).toEqual([
      "CAP010 invalid object: 'metadata.annotations[\"kubernetes.io/ingress.class\"]' (\"traefik\") of networking.k8s.io/Ingress shop/edge declared by 'shop/Routing/Edge' names another class than spec.ingressClassName, which replaces this annotation; the API server refuses it: annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified. Drop the kubernetes.io/ingress.class annotation, or give it the same class.",
    ]);
  });
});

describe('one cause, one refusal', () => {
  test('a backend naming a Service of the composition whose name is refused is not refused again; one naming no declared Service is', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web.v2', namespace: 'shop' }, spec: { ports: [{ port: 80 }] } });
    new ApiObject(chart, 'Edge', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web.v2', port: { number: 80 } } } }, { path: '/b', pathType: 'Prefix', backend: { service: { name: 'api.v2', port: { number: 80 } } } }] } }] },
    });

    expect(ingressFindings(app).map((m) => /'([^']+)'/.exec(m)![1])).toEqual(['spec.rules[0].http.paths[1].backend.service.name']);
  });
});
