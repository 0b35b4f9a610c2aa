import * as fs from 'fs';
import * as path from 'path';
import { Aws } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { stringify } from 'yaml';
import { Capability, CompositionError, Field, InterfaceContract, RouteStyle, RuntimeRouting, SharedBase } from '../src';
import { schemaProblems } from './k8s-schemas';
import { newApp, removeTempDirs, tempDir, WIDGET_CRD } from './util';
import type { SynthesisResult } from '../src/app/synthesize';

afterAll(removeTempDirs);

/** The manifests a synth emits, in apply order; fails the test when it was refused. */
function manifests(result: SynthesisResult): any[] {
  if (!result.runtimeFiles) throw new Error(`refused: ${result.violations.map((v) => v.message).join('\n')}`);
  return result.runtimeFiles.flatMap((f) => f.objects.map((o) => o.manifest));
}

/** The error a construct's coded refusal throws: its one violation, code first. */
function refusal(violation: string): Error {
  return new Error(`The composition was refused with 1 violation:\n${violation}`);
}

function find(all: any[], kind: string, name: string): any {
  const found = all.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in ${all.map((m) => `${m.kind} ${m.metadata.name}`).join(', ')}`);
  return found;
}

/** A capability whose routing chart routes acme to a web backend, with the given routing props. */
function tenantApp(props: ConstructorParameters<typeof RuntimeRouting>[2] = {}) {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge', namespace: 'gateways' }, ...props });
  const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge', replicas: 3 });
  const route = routing.addTenantRoute('acme', web);
  return { app, cdn, routing, web, route };
}

/** A CRD file of the user's, and a custom resource of its kind declared before it. */
function crdApp() {
  const dir = tempDir();
  const file = path.join(dir, 'widgets.yaml');
  fs.writeFileSync(file, stringify(WIDGET_CRD));
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { namespace: 'edge' });
  new ApiObject(routing, 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
  const include = routing.includeCrds(file);
  return { app, routing, include, file };
}

describe('backends', () => {
  test('addBackend declares a Deployment and a Service of the same name that selects its pods', () => {
    // GIVEN
    const { app } = tenantApp();

    // WHEN
    const all = manifests(app.synthesize());

    // THEN
    const deployment = find(all, 'Deployment', 'web');
    const service = find(all, 'Service', 'web');
    expect(deployment.metadata.namespace).toBe('edge');
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0]).toMatchObject({ name: 'web', image: 'ghcr.io/example/web:1.4.2', ports: [{ containerPort: 8080, name: 'http' }] });
    expect(service.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 8080 }]);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });

  test('addBackend refuses a name that is not a DNS-1035 label', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    expect(() => routing.addBackend('9lives', { image: 'web', port: 80 })).toThrow(refusal(
      'CAP010 invalid object: addBackend \'cdn/Routing/9lives\': \'name\' ("9lives") must be a DNS-1035 label (lowercase letters, digits and \'-\', starting with a letter) such as "web"',
    ));
  });
});

describe('Gateway API tenant routes', () => {
  test('an HTTPRoute attaches to the gateway and sends requests whose x-tenant-id is the tenant to the backend', () => {
    // GIVEN no contract: the default header
    const { app } = tenantApp();

    // WHEN
    const route = find(manifests(app.synthesize()), 'HTTPRoute', 'tenant-acme');

    // THEN
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.metadata.namespace).toBe('edge');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'edge', namespace: 'gateways' }],
      rules: [
        {
          matches: [{ headers: [{ type: 'Exact', name: 'x-tenant-id', value: 'acme' }], path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: 'web', port: 8080 }],
        },
      ],
    });
  });

  test('the route matches the tenantHeader literal the capability\'s contract publishes, also when published after the route', () => {
    // GIVEN a route declared first
    const { app, cdn } = tenantApp();

    // WHEN the contract publishes another header afterwards
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-cdn-tenant' });

    // THEN
    const route = find(manifests(app.synthesize()), 'HTTPRoute', 'tenant-acme');
    expect(route.spec.rules[0].matches[0].headers).toEqual([{ type: 'Exact', name: 'x-cdn-tenant', value: 'acme' }]);
  });

  test('a chart that consumes the contract is recorded as a consumer of tenantHeader in interface.json', () => {
    // GIVEN
    const { app, cdn, routing } = tenantApp();
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
    edge.consume(routing);

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.interface?.interfaces[0].fields.tenantHeader.consumedBy).toEqual(['cdn/Routing']);
  });

  test('a tenantHeader published as a deployment-time value is refused with CAP010', () => {
    // GIVEN
    const { app, cdn } = tenantApp();
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
    const base = new SharedBase(cdn, 'Base');
    edge.publish(base, { tenantHeader: Aws.ACCOUNT_ID });

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => `${v.code} ${v.message}`)).toContainEqual(
      expect.stringMatching(/^CAP010 .*'tenantHeader' of 'cdn\/Edge' is a deployment-time value, but tenant routes match on it at synth/),
    );
  });

  test('a Gateway API route without a gateway is refused at synth as one coded violation naming the route', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const web = routing.addBackend('Web', { image: 'web', port: 80 });
    const route = routing.addTenantRoute('acme', web);
    const { violations } = app.synthesize();
    expect(violations).toEqual([expect.objectContaining({ code: 'CAP010', paths: [route.node.path] })]);
    expect(violations[0].message).toMatch(/^invalid object: .*Gateway API routes attach to a Gateway, but the RuntimeRouting has no 'gateway' prop\. Set gateway: \{ name, namespace \} or routeStyle: RouteStyle\.ISTIO/);
  });

  test('a tenant id that is not a DNS-1123 label is refused', () => {
    const { routing, web } = tenantApp();
    expect(() => routing.addTenantRoute('Acme Corp', web)).toThrow(refusal(
      "CAP010 invalid object: addTenantRoute of 'cdn/Routing': the tenant \"Acme Corp\" must be a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, " +
        "at most 63 characters): it is the value the edge writes into the tenant header, and it names the route 'tenant-<tenant>'. Route a tenant id such as \"acme-corp\", and have the edge write that value.",
    ));
  });

  test('a route in another namespace refers to the backend\'s namespace and comes with the ReferenceGrant that allows it', () => {
    // GIVEN the backend in edge, the route in tenants
    const { app, routing, web } = tenantApp();
    routing.addTenantRoute('globex', web, { namespace: 'tenants' });

    // WHEN
    const result = app.synthesize();

    // THEN no false CAP005: the route refers to edge/web, which the grant allows
    const all = manifests(result);
    expect(find(all, 'HTTPRoute', 'tenant-globex').spec.rules[0].backendRefs).toEqual([{ name: 'web', namespace: 'edge', port: 8080 }]);
    const grant = find(all, 'ReferenceGrant', 'tenant-globex-from-tenants');
    expect(grant).toEqual({
      apiVersion: 'gateway.networking.k8s.io/v1beta1',
      kind: 'ReferenceGrant',
      metadata: { name: 'tenant-globex-from-tenants', namespace: 'edge' },
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'tenants' }],
        to: [{ group: '', kind: 'Service', name: 'web' }],
      },
    });
    const order = all.map((m) => `${m.kind} ${m.metadata.name}`);
    expect(order.indexOf('ReferenceGrant tenant-globex-from-tenants')).toBeLessThan(order.indexOf('HTTPRoute tenant-globex'));
    expect(schemaProblems(all)).toEqual([]);
  });

  test('a route in the backend\'s namespace names no namespace and needs no ReferenceGrant', () => {
    const { app } = tenantApp();
    const all = manifests(app.synthesize());
    expect(find(all, 'HTTPRoute', 'tenant-acme').spec.rules[0].backendRefs).toEqual([{ name: 'web', port: 8080 }]);
    expect(all.filter((m) => m.kind === 'ReferenceGrant')).toEqual([]);
  });

  test('a route namespace for a backend without one is refused, naming the backend', () => {
    const routing = new RuntimeRouting(new Capability(newApp(), 'cdn'), 'Routing', { gateway: { name: 'edge' } });
    const web = routing.addBackend('Web', { image: 'web', port: 80 });
    expect(() => routing.addTenantRoute('acme', web, { namespace: 'tenants' })).toThrow(refusal(
      "CAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-acme': 'namespace' (\"tenants\") is given, but backend 'web' has no namespace to route across to. Give the backend (or its chart) a namespace, or drop the route's 'namespace'",
    ));
  });

  test.each([
    ['uppercase', 'Acme.Example.com'],
    ['unicode', 'bücher.example.com'],
    ['a port', 'acme.example.com:8443'],
    ['a trailing dot', 'acme.example.com.'],
    ['a bare *', '*'],
    ['255 characters', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`],
  ])('a host name the Gateway API refuses (%s) is refused at the call, naming \'hostnames\'', (_, host) => {
    const { routing, web } = tenantApp();
    expect(() => routing.addTenantRoute('globex', web, { hostnames: ['ok.example.com', host] })).toThrow(refusal(
      `CAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-globex': 'hostnames' holds ${JSON.stringify(host)}, which must be a lowercase DNS name of at most 253 characters, without port or trailing dot, optionally behind "*.", such as "acme.example.com" or "*.example.com"`,
    ));
  });

  test('wildcard and plain lowercase host names are accepted and validate', () => {
    const { app, routing, web } = tenantApp();
    routing.addTenantRoute('globex', web, { hostnames: ['*.example.com', 'globex.example.com'] });
    const all = manifests(app.synthesize());
    expect(find(all, 'HTTPRoute', 'tenant-globex').spec.hostnames).toEqual(['*.example.com', 'globex.example.com']);
    expect(schemaProblems(all)).toEqual([]);
  });

  test.each([
    ['api', 'must start with "/"'],
    ['/api//v1', 'must not contain "//"'],
    ['/api/../x', 'must not contain "/../"'],
    ['/api/./x', 'must not contain "/./"'],
    ['/api%2Fx', 'must not contain "%2F"'],
    ['/api#frag', 'must not contain "#"'],
    ['/api/..', 'must not end with "/.."'],
    ['/api/.', 'must not end with "/."'],
    ['/api?x=1', 'must hold only RFC 3986 path characters (letters, digits, -._~!$&\'()*+,;=:@/) and %-escapes'],
    ['/my api', 'must hold only RFC 3986 path characters (letters, digits, -._~!$&\'()*+,;=:@/) and %-escapes'],
    ['/bücher', 'must hold only RFC 3986 path characters (letters, digits, -._~!$&\'()*+,;=:@/) and %-escapes'],
    [`/${'a'.repeat(1024)}`, 'must be at most 1024 characters'],
  ])('a path prefix the Gateway API refuses (%#) is refused at the call, naming \'pathPrefix\'', (pathPrefix, expected) => {
    const { routing, web } = tenantApp();
    expect(() => routing.addTenantRoute('globex', web, { pathPrefix })).toThrow(refusal(
      `CAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-globex': 'pathPrefix' (${JSON.stringify(pathPrefix)}) ${expected}, such as "/api"`,
    ));
  });

  test('a path prefix with %-escapes and sub-delimiters is accepted and validates', () => {
    const { app, routing, web } = tenantApp();
    routing.addTenantRoute('globex', web, { pathPrefix: '/api/v1;x=1/caf%C3%A9' });
    const all = manifests(app.synthesize());
    expect(find(all, 'HTTPRoute', 'tenant-globex').spec.rules[0].matches[0].path.value).toBe('/api/v1;x=1/caf%C3%A9');
    expect(schemaProblems(all)).toEqual([]);
  });

  test.each([[''], ['x tenant'], ['x:tenant'], ['x-tenänt'], [5]])('a header that is no HTTP header name (%p) is refused at the call, naming \'header\'', (header) => {
    const { routing, web } = tenantApp();
    expect(() => routing.addTenantRoute('globex', web, { header: header as string })).toThrow(refusal(
      `CAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-globex': 'header' (${JSON.stringify(header)}) must be an HTTP header name (an RFC 9110 token), such as "x-tenant-id"`,
    ));
  });

  test('the same tenant routed twice under one name is refused as CAP001, naming the tenant, the existing route and the fix that routes it once', () => {
    // GIVEN acme routed to web in edge
    const { routing } = tenantApp();
    const other = routing.addBackend('Other', { image: 'other', port: 80, namespace: 'team-b' });

    // WHEN / THEN the advice is not a bare new name, which would route acme twice alike (CAP002)
    expect(() => routing.addTenantRoute('acme', other)).toThrow(refusal(
      "CAP001 duplicate object: addTenantRoute 'cdn/Routing/tenant-acme': tenant 'acme' needs a route named 'tenant-acme', but 'cdn/Routing/tenant-acme' already has that name. " +
        "Route a tenant once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; to send another path or host name of it elsewhere, " +
        "give this route a distinct 'name' with its own 'pathPrefix' or 'hostnames', such as { name: 'tenant-acme-api', pathPrefix: '/api' }",
    ));
  });

  test('a route named as another tenant\'s is refused as CAP001, suggesting its own tenant\'s name', () => {
    // GIVEN acme routed to web
    const { routing, web } = tenantApp();

    // WHEN / THEN globex is given acme's route name
    expect(() => routing.addTenantRoute('globex', web, { name: 'tenant-acme' })).toThrow(refusal(
      "CAP001 duplicate object: addTenantRoute 'cdn/Routing/tenant-acme': tenant 'globex' needs a route named 'tenant-acme', but 'cdn/Routing/tenant-acme' already has that name. " +
        "Give this route a distinct 'name', such as { name: 'tenant-globex' }",
    ));
  });

  test('a malformed option is a CompositionError whose one CAP010 violation names the route\'s construct path', () => {
    // GIVEN
    const { routing, web } = tenantApp();

    // WHEN
    let thrown: unknown;
    try {
      routing.addTenantRoute('globex', web, { pathPrefix: 'api' });
    } catch (e) {
      thrown = e;
    }

    // THEN
    expect(CompositionError.isCompositionError(thrown)).toBe(true);
    expect((thrown as CompositionError).violations).toEqual([{
      code: 'CAP010',
      message: 'invalid object: addTenantRoute \'cdn/Routing/tenant-globex\': \'pathPrefix\' ("api") must start with "/", such as "/api"',
      paths: ['cdn/Routing/tenant-globex'],
    }]);
  });

  test('a malformed backend option is a CompositionError whose one CAP010 violation names the backend\'s construct path', () => {
    // GIVEN
    const routing = new RuntimeRouting(new Capability(newApp(), 'cdn'), 'Routing');

    // WHEN
    let thrown: unknown;
    try {
      routing.addVersionedBackend('Web', { port: 8080, versions: {} });
    } catch (e) {
      thrown = e;
    }

    // THEN
    expect(CompositionError.isCompositionError(thrown)).toBe(true);
    expect((thrown as CompositionError).violations).toEqual([{
      code: 'CAP010',
      message: "invalid object: addVersionedBackend 'cdn/Routing/Web': 'versions' is empty; declare at least one, such as { blue: { image: 'ghcr.io/example/web:1.4.2' } }",
      paths: ['cdn/Routing/Web'],
    }]);
  });

  test('the same tenant routed twice with distinct names gets two routes', () => {
    const { app, routing } = tenantApp();
    const other = routing.addBackend('Other', { image: 'other', port: 80, namespace: 'team-b' });
    routing.addTenantRoute('acme', other, { name: 'tenant-acme-b', pathPrefix: '/b' });
    const all = manifests(app.synthesize());
    expect(find(all, 'HTTPRoute', 'tenant-acme-b').metadata.namespace).toBe('team-b');
    expect(find(all, 'HTTPRoute', 'tenant-acme').metadata.namespace).toBe('edge');
  });
});

describe('Istio tenant routes', () => {
  test('a VirtualService bound to the gateway matches the header and routes to the backend Service host', () => {
    // GIVEN
    const { app } = tenantApp({ routeStyle: RouteStyle.ISTIO });

    // WHEN
    const vs = find(manifests(app.synthesize()), 'VirtualService', 'tenant-acme');

    // THEN
    expect(vs.apiVersion).toBe('networking.istio.io/v1');
    expect(vs.spec).toEqual({
      hosts: ['*'],
      gateways: ['gateways/edge'],
      http: [
        {
          name: 'tenant-acme',
          match: [{ headers: { 'x-tenant-id': { exact: 'acme' } }, uri: { prefix: '/' } }],
          route: [{ destination: { host: 'web.edge.svc.cluster.local', port: { number: 8080 } } }],
        },
      ],
    });
  });

  test('an Istio route takes * as a host name, and refuses an uppercase header', () => {
    const { app, routing, web } = tenantApp({ routeStyle: RouteStyle.ISTIO });
    expect(() => routing.addTenantRoute('initech', web, { header: 'X-Tenant-Id' })).toThrow(refusal(
      'CAP010 invalid object: addTenantRoute \'cdn/Routing/tenant-initech\': \'header\' ("X-Tenant-Id") must be a lowercase HTTP header name (Istio matches header keys in lowercase only), such as "x-tenant-id"',
    ));
    routing.addTenantRoute('globex', web, { hostnames: ['*'] });
    const all = manifests(app.synthesize());
    expect(find(all, 'VirtualService', 'tenant-globex').spec.hosts).toEqual(['*']);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('an Istio route in another namespace routes to the backend\'s fully qualified host, with no ReferenceGrant', () => {
    const { app, routing, web } = tenantApp({ routeStyle: RouteStyle.ISTIO });
    routing.addTenantRoute('globex', web, { namespace: 'tenants' });
    const all = manifests(app.synthesize());
    const vs = find(all, 'VirtualService', 'tenant-globex');
    expect([vs.metadata.namespace, vs.spec.http[0].route[0].destination.host]).toEqual(['tenants', 'web.edge.svc.cluster.local']);
    expect(all.filter((m) => m.kind === 'ReferenceGrant')).toEqual([]);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('without a gateway the VirtualService applies to the mesh, for the backend host', () => {
    const { app } = tenantApp({ routeStyle: RouteStyle.ISTIO, gateway: undefined });
    const vs = find(manifests(app.synthesize()), 'VirtualService', 'tenant-acme');
    expect({ hosts: vs.spec.hosts, gateways: vs.spec.gateways }).toEqual({ hosts: ['web.edge.svc.cluster.local'], gateways: undefined });
  });
});

describe('Istio mesh routes (no gateway)', () => {
  /** A mesh routing chart with a web backend in shop. */
  function meshApp() {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { routeStyle: RouteStyle.ISTIO });
    const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'shop' });
    return { app, routing, web };
  }

  test('the tenants of one backend host share one VirtualService, one http route each in declaration order', () => {
    // GIVEN
    const { app, routing, web } = meshApp();

    // WHEN
    const acme = routing.addTenantRoute('acme', web);
    const globex = routing.addTenantRoute('globex', web, { pathPrefix: '/api' });

    // THEN
    expect(globex).toBe(acme);
    const all = manifests(app.synthesize());
    expect(all.filter((m) => m.kind === 'VirtualService')).toEqual([{
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'tenant-acme', namespace: 'shop' },
      spec: {
        hosts: ['web.shop.svc.cluster.local'],
        http: [
          {
            name: 'tenant-acme',
            match: [{ headers: { 'x-tenant-id': { exact: 'acme' } }, uri: { prefix: '/' } }],
            route: [{ destination: { host: 'web.shop.svc.cluster.local', port: { number: 8080 } } }],
          },
          {
            name: 'tenant-globex',
            match: [{ headers: { 'x-tenant-id': { exact: 'globex' } }, uri: { prefix: '/api' } }],
            route: [{ destination: { host: 'web.shop.svc.cluster.local', port: { number: 8080 } } }],
          },
        ],
      },
    }]);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('tenants of different backend hosts get a VirtualService each', () => {
    const { app, routing, web } = meshApp();
    const api = routing.addBackend('Api', { image: 'ghcr.io/example/api:1.0.0', port: 8080, namespace: 'shop' });
    routing.addTenantRoute('acme', web);
    routing.addTenantRoute('globex', api);
    const all = manifests(app.synthesize());
    expect(all.filter((m) => m.kind === 'VirtualService').map((m) => [m.metadata.name, m.spec.hosts, m.spec.http.map((h: any) => h.name)])).toEqual([
      ['tenant-acme', ['web.shop.svc.cluster.local'], ['tenant-acme']],
      ['tenant-globex', ['api.shop.svc.cluster.local'], ['tenant-globex']],
    ]);
  });

  test('a mesh route that shares a host with another but not its namespace is refused with CAP010 naming both', () => {
    // GIVEN
    const { app, routing, web } = meshApp();
    const acme = routing.addTenantRoute('acme', web);

    // WHEN
    const globex = routing.addTenantRoute('globex', web, { namespace: 'tenants' });
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([expect.objectContaining({ code: 'CAP010', paths: [globex.node.path] })]);
    expect(violations[0].message).toContain(
      `the mesh VirtualService routes hosts web.shop.svc.cluster.local in namespace 'tenants', and '${acme.node.path}' routes web.shop.svc.cluster.local in namespace 'shop': Istio applies one mesh VirtualService per host (istioctl IST0109). Give both routes the same 'hostnames' and 'namespace', so that they share one VirtualService, or route behind a gateway`,
    );
  });

  test('the same tenant and name twice in one mesh VirtualService is refused, naming the VirtualService', () => {
    const { routing, web } = meshApp();
    routing.addTenantRoute('acme', web);
    routing.addTenantRoute('globex', web);
    expect(() => routing.addTenantRoute('globex', web, { pathPrefix: '/b' })).toThrow(refusal(
      "CAP001 duplicate object: addTenantRoute 'cdn/Routing/tenant-globex': tenant 'globex' needs a route named 'tenant-globex', but an http route of the mesh VirtualService 'cdn/Routing/tenant-acme' that routes its hosts already has that name. " +
        "Route a tenant once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; to send another path or host name of it elsewhere, " +
        "give this route a distinct 'name' with its own 'pathPrefix' or 'hostnames', such as { name: 'tenant-globex-b', pathPrefix: '/b' }",
    ));
  });
});

describe('CRDs the user supplies', () => {
  test('included CRDs form the first step, without the chart\'s namespace, before their custom resources', () => {
    // GIVEN the custom resource declared before the CRDs are included
    const { app } = crdApp();

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.plan?.steps.map((s) => [s.id, s.objects])).toEqual([
      ['cdn/Routing/Crds', ['apiextensions.k8s.io/CustomResourceDefinition widgets.example.com']],
      ['cdn/Routing', ['example.com/Widget edge/w']],
    ]);
    expect(result.runtimeFiles?.[0].objects[0].manifest.metadata).toEqual({ name: 'widgets.example.com' });
  });

  test('a file holding anything but CRDs is refused', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mixed.yaml');
    fs.writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }));
    const routing = new RuntimeRouting(new Capability(newApp(), 'cdn'), 'Routing');
    expect(() => routing.includeCrds(file)).toThrow(refusal(
      `CAP010 invalid object: includeCrds 'cdn/Routing': ${JSON.stringify(file)} must hold only CustomResourceDefinitions, but holds ConfigMap c. Declare other objects with constructs, or include them with cdk8s Include`,
    ));
  });
});

describe('published schemas', () => {
  test('every manifest of both route styles, backends and included CRDs validates', () => {
    // GIVEN
    const all = [
      ...manifests(tenantApp().app.synthesize()),
      ...manifests(tenantApp({ routeStyle: RouteStyle.ISTIO }).app.synthesize()),
      ...manifests(tenantApp({ routeStyle: RouteStyle.ISTIO, gateway: undefined }).app.synthesize()),
      ...manifests(crdApp().app.synthesize()).filter((m) => m.kind !== 'Widget'),
    ];

    // WHEN / THEN
    expect(all.map((m) => m.kind).sort()).toEqual([
      'CustomResourceDefinition',
      'Deployment', 'Deployment', 'Deployment',
      'HTTPRoute',
      'Service', 'Service', 'Service',
      'VirtualService', 'VirtualService',
    ]);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('a malformed route is caught by the schema (the validation is not vacuous)', () => {
    const route = find(manifests(tenantApp().app.synthesize()), 'HTTPRoute', 'tenant-acme');
    route.spec.rules[0].matches[0].headers[0].type = 'Fuzzy';
    expect(schemaProblems([route])).toEqual([expect.stringMatching(/^HTTPRoute tenant-acme: .*type/)]);
  });
});
