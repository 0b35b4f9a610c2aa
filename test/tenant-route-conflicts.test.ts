import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting, ViolationCode } from '../src';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

const EDGE = { name: 'edge', namespace: 'gateway-system' };

/** A routing on the edge gateway with two backends, web and api, in namespace edge; acme routed to web. */
function acmeApp(props: ConstructorParameters<typeof RuntimeRouting>[2] = {}) {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: EDGE, ...props });
  const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
  const api = routing.addBackend('Api', { image: 'ghcr.io/example/api:2.0.1', port: 8080, namespace: 'edge' });
  routing.addTenantRoute('acme', web);
  return { app, routing, web, api };
}

/** A hand-written HTTPRoute in namespace edge on the edge gateway. */
function httpRoute(scope: RuntimeRouting, id: string, name: string, rule: object, spec: object = {}): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'edge' },
    spec: { parentRefs: [EDGE], rules: [rule], ...spec },
  });
}

/** The CAP002 violations of the synth. */
function conflicts(app: ReturnType<typeof newApp>) {
  return app.synthesize().violations.filter((v) => v.code === ViolationCode.FIELD_CONFLICT);
}

describe('two tenant routes of one tenant on one gateway', () => {
  test('are refused as CAP002, naming both routes, the tenant, the gateway, the tie rule and the fix', () => {
    // GIVEN acme routed to web, then again to api under another name, as the old duplicate-name advice led to
    const { app, routing, api } = acmeApp();
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-2' });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([{
      code: 'CAP002',
      message: "field conflict: gateway.networking.k8s.io/HTTPRoute edge/tenant-acme declared by 'cdn/Routing/tenant-acme' (backend web) and "
        + "gateway.networking.k8s.io/HTTPRoute edge/tenant-acme-2 declared by 'cdn/Routing/tenant-acme-2' (backend api) both attach to Gateway gateway-system/edge "
        + "and match the same requests: tenant 'acme' (header x-tenant-id: acme), path prefix /, every host name of the listener. "
        + 'Gateway API gives a request that routes match alike to one of them, the oldest by creationTimestamp (then the first by namespace/name), '
        + "so which backend gets the requests of tenant 'acme' depends on which route the cluster created first. "
        + "Route tenant 'acme' once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; "
        + "to send another path or host name of it elsewhere, give 'cdn/Routing/tenant-acme-2' its own 'pathPrefix' or 'hostnames'.",
      paths: ['cdn/Routing/tenant-acme', 'cdn/Routing/tenant-acme-2'],
    }]);
  });

  test('are refused with identical host lists given in another order and case of header name', () => {
    // GIVEN both routes on the same hosts, one matching the header as X-Tenant-Id (Gateway API matches header names in any case)
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: EDGE });
    const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
    const api = routing.addBackend('Api', { image: 'ghcr.io/example/api:2.0.1', port: 8080, namespace: 'edge' });
    routing.addTenantRoute('acme', web, { hostnames: ['a.example.com', 'b.example.com'] });
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-2', hostnames: ['b.example.com', 'a.example.com'], header: 'X-Tenant-Id' });

    // WHEN
    const found = conflicts(app);

    // THEN
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/tenant-acme', 'cdn/Routing/tenant-acme-2']]);
    expect(found[0].message).toContain(
      "match the same requests: tenant 'acme' (header x-tenant-id: acme), path prefix /, host names a.example.com, b.example.com.",
    );
  });

  test('are refused across two routings attached to the same gateway listener', () => {
    // GIVEN a second capability's routing that also routes acme on the edge gateway
    const { app } = acmeApp();
    const other = new RuntimeRouting(new Capability(app, 'shop'), 'Routing', { gateway: EDGE });
    other.addTenantRoute('acme', other.addBackend('Shop', { image: 'ghcr.io/example/shop:1.0.0', port: 8080, namespace: 'shop' }));

    // WHEN / THEN
    expect(conflicts(app).map((v) => v.paths)).toEqual([['cdn/Routing/tenant-acme', 'shop/Routing/tenant-acme']]);
  });

  test.each([
    ['another path prefix', { pathPrefix: '/api' }],
    ['other host names', { hostnames: ['api.acme.example.com'] }],
  ])('are accepted with %s', (_, options) => {
    const { app, routing, api } = acmeApp();
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-api', ...options });

    expect(app.synthesize().violations).toEqual([]);
  });

  test('are accepted on two listeners of the gateway, and in two namespaces of a gateway named without one', () => {
    // GIVEN acme on listener https and on listener http of the edge gateway
    const app = newApp();
    const https = new RuntimeRouting(new Capability(app, 'cdn'), 'Https', { gateway: { ...EDGE, sectionName: 'https' } });
    const http = new RuntimeRouting(new Capability(app, 'shop'), 'Http', { gateway: { ...EDGE, sectionName: 'http' } });
    https.addTenantRoute('acme', https.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' }));
    http.addTenantRoute('acme', http.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge-http' }));
    // AND acme on a gateway of the route's namespace, in two namespaces
    const local = new RuntimeRouting(new Capability(app, 'local'), 'Routing', { gateway: { name: 'local' } });
    local.addTenantRoute('acme', local.addBackend('A', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'team-a' }));
    local.addTenantRoute('acme', local.addBackend('B', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'team-b' }), { name: 'tenant-acme-b' });

    // WHEN / THEN
    expect(app.synthesize().violations).toEqual([]);
  });

  test('is accepted as one route to a versioned backend that splits the traffic by weight', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: EDGE });
    const web = routing.addVersionedBackend('Web', {
      port: 8080, namespace: 'edge', versions: { blue: { image: 'ghcr.io/example/web:1.4.2' }, green: { image: 'ghcr.io/example/web:1.5.0' } },
    });
    routing.addTenantRoute('acme', web, { weights: { blue: 90, green: 10 } });

    expect(app.synthesize().violations).toEqual([]);
  });
});

describe('HTTPRoutes of the composition', () => {
  test('two that match alike once Gateway API\'s defaults are filled in are refused, with the fix for routes of no tenant', () => {
    // GIVEN one route without matches (every path) and one matching PathPrefix / on GET as given
    const { app, routing } = acmeApp();
    httpRoute(routing, 'All', 'all', { backendRefs: [{ name: 'web', port: 8080 }] });
    httpRoute(routing, 'Root', 'root', { matches: [{ path: { value: '/' }, headers: [] }], backendRefs: [{ name: 'api', port: 8080 }, { name: 'web', port: 8080 }] });

    // WHEN / THEN
    expect(conflicts(app)).toEqual([expect.objectContaining({
      message: "field conflict: gateway.networking.k8s.io/HTTPRoute edge/all declared by 'cdn/Routing/All' (backend web) and "
        + "gateway.networking.k8s.io/HTTPRoute edge/root declared by 'cdn/Routing/Root' (backends api, web) both attach to Gateway gateway-system/edge "
        + 'and match the same requests: path prefix /, every host name of the listener. '
        + 'Gateway API gives a request that routes match alike to one of them, the oldest by creationTimestamp (then the first by namespace/name), '
        + 'so which backend gets these requests depends on which route the cluster created first. '
        + 'Give one of them other matches or other hostnames, or merge them into one route whose backendRefs split the traffic by weight.',
      paths: ['cdn/Routing/All', 'cdn/Routing/Root'],
    })]);
  });

  test('a route that shares one of its matches with a tenant route is refused, naming the tenant', () => {
    // GIVEN a hand-written route whose second match is acme's
    const { app, routing } = acmeApp();
    httpRoute(routing, 'Ops', 'ops', {
      matches: [{ path: { type: 'Exact', value: '/healthz' } }, { headers: [{ name: 'x-tenant-id', value: 'acme' }] }],
      backendRefs: [{ name: 'ops', port: 80 }],
    });

    // WHEN
    const found = conflicts(app);

    // THEN the pair in the order of the composition's objects
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/Ops', 'cdn/Routing/tenant-acme']]);
    expect(found[0].message).toContain("match the same requests: tenant 'acme' (header x-tenant-id: acme), path prefix /, every host name of the listener.");
  });

  test('two whose matches differ in a method, a query parameter or a header value are accepted', () => {
    const { app, routing } = acmeApp();
    httpRoute(routing, 'Get', 'get', { matches: [{ method: 'GET' }], backendRefs: [{ name: 'web', port: 8080 }] });
    httpRoute(routing, 'Post', 'post', { matches: [{ method: 'POST' }], backendRefs: [{ name: 'api', port: 8080 }] });
    httpRoute(routing, 'Beta', 'beta', { matches: [{ method: 'GET', queryParams: [{ name: 'beta', value: '1' }] }], backendRefs: [{ name: 'api', port: 8080 }] });
    httpRoute(routing, 'Globex', 'globex', { matches: [{ headers: [{ name: 'x-tenant-id', value: 'globex' }] }], backendRefs: [{ name: 'api', port: 8080 }] });

    expect(app.synthesize().violations).toEqual([]);
  });
});
