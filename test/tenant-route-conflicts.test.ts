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

describe('HTTPRoutes whose host lists overlap', () => {
  /** A routing on the edge gateway with backends web and api in namespace edge, and no route. */
  function bareApp() {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: EDGE });
    routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
    routing.addBackend('Api', { image: 'ghcr.io/example/api:2.0.1', port: 8080, namespace: 'edge' });
    return { app, routing };
  }

  /** Two hand-written routes on the edge gateway, to web and to api, alike but for their host names, `a` first in the composition's order. */
  function twoRoutes(a: string[], b: string[], rule: object = {}) {
    const { app, routing } = bareApp();
    httpRoute(routing, 'A', 'a', { ...rule, backendRefs: [{ name: 'web', port: 8080 }] }, { hostnames: a });
    httpRoute(routing, 'B', 'b', { ...rule, backendRefs: [{ name: 'api', port: 8080 }] }, { hostnames: b });
    return app;
  }

  test('two tenant routes of one tenant that share one of their host names are refused, naming the shared host name and the fix', () => {
    // GIVEN acme on a.example.com and b.example.com to web, and on b.example.com alone to api
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: EDGE });
    const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
    const api = routing.addBackend('Api', { image: 'ghcr.io/example/api:2.0.1', port: 8080, namespace: 'edge' });
    routing.addTenantRoute('acme', web, { hostnames: ['a.example.com', 'b.example.com'] });
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-b', hostnames: ['b.example.com'] });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([{
      code: 'CAP002',
      message: "field conflict: gateway.networking.k8s.io/HTTPRoute edge/tenant-acme declared by 'cdn/Routing/tenant-acme' (backend web) and "
        + "gateway.networking.k8s.io/HTTPRoute edge/tenant-acme-b declared by 'cdn/Routing/tenant-acme-b' (backend api) both attach to Gateway gateway-system/edge "
        + "and match the same requests: tenant 'acme' (header x-tenant-id: acme), path prefix /, host name b.example.com, which both routes list. "
        + 'Gateway API gives a request that routes match alike to one of them, the oldest by creationTimestamp (then the first by namespace/name), '
        + "so which backend gets the requests of tenant 'acme' depends on which route the cluster created first. "
        + "Route tenant 'acme' once on b.example.com: drop it from the 'hostnames' of one of the routes; "
        + "to split its traffic between versions, route it to one addVersionedBackend with 'weights'.",
      paths: ['cdn/Routing/tenant-acme', 'cdn/Routing/tenant-acme-b'],
    }]);
  });

  test('two routes of no tenant that share host names are refused, naming them and the fix', () => {
    const found = conflicts(twoRoutes(['a.example.com', 'b.example.com', 'c.example.com'], ['c.example.com', 'b.example.com', 'd.example.com']));

    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/A', 'cdn/Routing/B']]);
    expect(found[0].message).toContain('match the same requests: path prefix /, host names b.example.com, c.example.com, which both routes list. ');
    expect(found[0].message).toMatch(/ Drop b\.example\.com, c\.example\.com from the hostnames of one of them, give one of them other matches, or merge them into one route whose backendRefs split the traffic by weight\.$/);
  });

  test('each later route is refused against the first that shares a host name with it', () => {
    // GIVEN A on x and y, B on y, C on x, all alike but for host names
    const { app, routing } = bareApp();
    const backendRefs = [{ name: 'web', port: 8080 }];
    httpRoute(routing, 'A', 'a', { backendRefs }, { hostnames: ['x.example.com', 'y.example.com'] });
    httpRoute(routing, 'B', 'b', { backendRefs }, { hostnames: ['y.example.com'] });
    httpRoute(routing, 'C', 'c', { backendRefs }, { hostnames: ['x.example.com'] });

    // WHEN
    const found = conflicts(app);

    // THEN one finding per pair, each naming its own shared host name; B and C share none
    expect(found.map((v) => [v.paths, /host names? ([^,]+), which both/.exec(v.message)?.[1]])).toEqual([
      [['cdn/Routing/A', 'cdn/Routing/B'], 'y.example.com'],
      [['cdn/Routing/A', 'cdn/Routing/C'], 'x.example.com'],
    ]);
  });

  // Gateway API, HTTPRouteSpec.hostnames (apis/v1/httproute_types.go): "In the event that multiple HTTPRoutes specify
  // intersecting hostnames (e.g. overlapping wildcard matching and exact matching hostnames), precedence must be given
  // to rules from the HTTPRoute with the largest number of: Characters in a matching non-wildcard hostname. Characters
  // in a matching hostname." A precise host name and a wildcard that covers it are no tie.
  test.each([
    ['a wildcard and a precise host name it covers', ['*.example.com'], ['a.example.com']],
    ['two wildcards of which one covers the other', ['*.example.com'], ['*.a.example.com']],
    ['a route without host names and one with', [], ['a.example.com']],
  ])('%s, with matches alike, are accepted', (_, a, b) => {
    expect(twoRoutes(a, b).synthesize().violations).toEqual([]);
  });

  test('a shared wildcard is a tie, even where one route also lists a precise host name under it', () => {
    const found = conflicts(twoRoutes(['*.example.com', 'a.example.com'], ['*.example.com']));

    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/A', 'cdn/Routing/B']]);
    expect(found[0].message).toContain('match the same requests: path prefix /, host name *.example.com, which both routes list. ');
  });

  // Ported from Gateway API's hostnames concept page (site/content/en/docs/concepts/hostnames.md, "Route precedence
  // resolution"): on a Listener of *.foo.com, Route A of *.foo.com takes precedence over Route B of *.com for
  // bar.foo.com, by the original host names; "the creation timestamp (oldest Route wins) is used only when there is a
  // tie in original hostname specificity".
  test('hostnames.md "Route precedence resolution": *.foo.com beside *.com is accepted, *.foo.com twice refused', () => {
    expect(twoRoutes(['*.foo.com'], ['*.com']).synthesize().violations).toEqual([]);

    const found = conflicts(twoRoutes(['*.foo.com'], ['*.foo.com']));
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/A', 'cdn/Routing/B']]);
    expect(found[0].message).toContain('match the same requests: path prefix /, host name *.foo.com. ');
  });

  // Ported from Gateway API's conformance test HTTPRouteMatchingAcrossRoutes
  // (conformance/tests/httproute-matching-across-routes.yaml): matching-part1 on example.com and example.net,
  // matching-part2 on *.com, each with its own backend; the test expects example.com /v2 on part2 and example.net /v2 on part1.
  test('conformance HTTPRouteMatchingAcrossRoutes: its two routes are accepted, and so are they with part1\'s matches in both', () => {
    // GIVEN the two routes as the conformance test declares them, with its two backends
    const { app, routing } = bareApp();
    for (const name of ['infra-backend-v1', 'infra-backend-v2']) routing.addBackend(name, { image: 'ghcr.io/example/echo:1.0.0', port: 8080, namespace: 'edge' });
    const part1 = { matches: [{ path: { type: 'PathPrefix', value: '/' } }, { headers: [{ name: 'version', value: 'one' }] }] };
    const part2 = { matches: [{ path: { type: 'PathPrefix', value: '/v2' } }, { headers: [{ name: 'version', value: 'two' }] }] };
    httpRoute(routing, 'Part1', 'matching-part1', { ...part1, backendRefs: [{ name: 'infra-backend-v1', port: 8080 }] }, { hostnames: ['example.com', 'example.net'] });
    httpRoute(routing, 'Part2', 'matching-part2', { ...part2, backendRefs: [{ name: 'infra-backend-v2', port: 8080 }] }, { hostnames: ['*.com'] });

    // WHEN / THEN
    expect(app.synthesize().violations).toEqual([]);
    // AND with part1's matches in part2 too: example.com is part1's precise host name, example.net not part2's
    expect(twoRoutes(['example.com', 'example.net'], ['*.com'], part1).synthesize().violations).toEqual([]);
  });
});

describe('a composition that routes each tenant once through Gateway API', () => {
  test('with distinct tenants, distinct hosts, paths and weights within one route, is accepted', () => {
    // GIVEN acme on web; globex split between blue and green by weight; initech on its own host; acme's /api on api;
    // and acme on a host name of its own beside the route of every host name
    const { app, routing, api } = acmeApp();
    const shop = routing.addVersionedBackend('Shop', {
      port: 8080, namespace: 'edge', versions: { blue: { image: 'ghcr.io/example/shop:1.0.0' }, green: { image: 'ghcr.io/example/shop:1.1.0' } },
    });
    routing.addTenantRoute('globex', shop, { weights: { blue: 90, green: 10 } });
    routing.addTenantRoute('initech', api, { hostnames: ['initech.example.com'] });
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-api', pathPrefix: '/api' });
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-eu', hostnames: ['eu.acme.example.com', '*.eu.example.com'] });

    // WHEN / THEN
    expect(app.synthesize().violations).toEqual([]);
  });
});
