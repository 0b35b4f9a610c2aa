import { ApiObject } from 'cdk8s';
import { Capability, RouteStyle, RuntimeRouting, ViolationCode } from '../src';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

const EDGE = { name: 'edge', namespace: 'gateway-system' };

/** An Istio routing on `gateway` (null: none, the mesh), with backends web and api in namespace edge; acme routed to web. */
function istioApp(gateway: typeof EDGE | null) {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { routeStyle: RouteStyle.ISTIO, gateway: gateway ?? undefined });
  const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
  const api = routing.addBackend('Api', { image: 'ghcr.io/example/api:2.0.1', port: 8080, namespace: 'edge' });
  routing.addTenantRoute('acme', web);
  return { app, routing, web, api };
}

/** A hand-written VirtualService in `namespace` (edge by default). */
function virtualService(scope: RuntimeRouting, id: string, spec: object, namespace = 'edge'): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: id.toLowerCase(), namespace },
    spec,
  });
}

/** An `http` route to `host`, port 8080, with `match` when given. */
function http(name: string, host: string, match?: object[]) {
  return { name, ...(match ? { match } : {}), route: [{ destination: { host, port: { number: 8080 } } }] };
}

/** The CAP002 violations of the synth. */
function conflicts(app: ReturnType<typeof newApp>) {
  return app.synthesize().violations.filter((v) => v.code === ViolationCode.FIELD_CONFLICT);
}

describe('two Istio tenant routes of one tenant', () => {
  test('behind a gateway are refused as CAP002, naming both VirtualServices, the tenant, the host, the gateway, the merge rule and the fix', () => {
    // GIVEN acme routed to web, then again to api under another name, both VirtualServices of host * on the edge gateway
    const { app, routing, api } = istioApp(EDGE);
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-2' });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([{
      code: 'CAP002',
      message: "field conflict: networking.istio.io/VirtualService edge/tenant-acme declared by 'cdn/Routing/tenant-acme' "
        + '(http route tenant-acme: destination web.edge.svc.cluster.local) and '
        + "networking.istio.io/VirtualService edge/tenant-acme-2 declared by 'cdn/Routing/tenant-acme-2' "
        + '(http route tenant-acme-2: destination api.edge.svc.cluster.local) both bind host * on gateway gateway-system/edge '
        + "and match the same requests: tenant 'acme' (header x-tenant-id: acme), uri prefix /. "
        + 'Istio merges the VirtualServices of one host on a gateway in an order it leaves undefined, '
        + "so which destination gets the requests of tenant 'acme' depends on the order it merges them in. "
        + "Route tenant 'acme' once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; "
        + "to send another path or host name of it elsewhere, give 'cdn/Routing/tenant-acme-2' its own 'pathPrefix' or 'hostnames'.",
      paths: ['cdn/Routing/tenant-acme', 'cdn/Routing/tenant-acme-2'],
    }]);
  });

  test('in the mesh are refused as CAP002, naming both http routes of the VirtualService they share', () => {
    // GIVEN acme routed twice to web without a gateway: one VirtualService of web's host, two http routes
    const { app, routing, web } = istioApp(null);
    routing.addTenantRoute('acme', web, { name: 'tenant-acme-2' });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([{
      code: 'CAP002',
      message: 'field conflict: the http route tenant-acme (destination web.edge.svc.cluster.local) and the http route tenant-acme-2 '
        + "(destination web.edge.svc.cluster.local) of networking.istio.io/VirtualService edge/tenant-acme declared by 'cdn/Routing/tenant-acme' "
        + 'both bind host web.edge.svc.cluster.local in the mesh (the sidecars) '
        + "and match the same requests: tenant 'acme' (header x-tenant-id: acme), uri prefix /. "
        + 'Istio takes the first http route of a VirtualService that matches (istioctl IST0131), '
        + "so the http route tenant-acme-2 receives none of the requests of tenant 'acme'. "
        + "Route tenant 'acme' once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; "
        + "to send another path or host name of it elsewhere, give the route 'tenant-acme-2' its own 'pathPrefix' or 'hostnames'.",
      paths: ['cdn/Routing/tenant-acme'],
    }]);
  });

  test('behind a gateway are refused across two routings, on the host names both list', () => {
    // GIVEN a second capability that routes acme on the edge gateway for two hosts, one of them cdn's
    const app = newApp();
    const cdn = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { routeStyle: RouteStyle.ISTIO, gateway: EDGE });
    const shop = new RuntimeRouting(new Capability(app, 'shop'), 'Routing', { routeStyle: RouteStyle.ISTIO, gateway: EDGE });
    cdn.addTenantRoute('acme', cdn.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' }), { hostnames: ['a.example.com'] });
    shop.addTenantRoute('acme', shop.addBackend('Shop', { image: 'ghcr.io/example/shop:1.0.0', port: 8080, namespace: 'shop' }), {
      hostnames: ['b.example.com', 'a.example.com'],
    });

    // WHEN
    const found = conflicts(app);

    // THEN
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/tenant-acme', 'shop/Routing/tenant-acme']]);
    expect(found[0].message).toContain('both bind host a.example.com on gateway gateway-system/edge and match the same requests');
  });
});

describe('a composition that routes each tenant once through Istio', () => {
  test.each([
    ['behind a gateway', EDGE],
    ['in the mesh', null],
  ])('%s, with distinct tenants, distinct hosts, paths and weights within one route, is accepted', (_, gateway) => {
    // GIVEN acme on web; globex split between blue and green by weight; initech on its own host; acme's /api on api
    const { app, routing, api } = istioApp(gateway);
    const shop = routing.addVersionedBackend('Shop', {
      port: 8080, namespace: 'edge', versions: { blue: { image: 'ghcr.io/example/shop:1.0.0' }, green: { image: 'ghcr.io/example/shop:1.1.0' } },
    });
    routing.addTenantRoute('globex', shop, { weights: { blue: 90, green: 10 } });
    routing.addTenantRoute('initech', api, { hostnames: ['initech.example.com'] });
    routing.addTenantRoute('acme', api, { name: 'tenant-acme-api', pathPrefix: '/api' });

    // WHEN / THEN
    expect(app.synthesize().violations).toEqual([]);
  });
});

describe('VirtualServices of the composition', () => {
  test('two that match alike once Istio\'s defaults are filled in are refused, with the fix for routes of no tenant', () => {
    // GIVEN a catch-all route and one matching uri prefix / (the default), on the gateway named without a namespace and with one
    const { app, routing } = istioApp(EDGE);
    virtualService(routing, 'All', { hosts: ['shop.example.com'], gateways: ['edge'], http: [http('all', 'web')] }, 'gateway-system');
    virtualService(routing, 'Root', {
      hosts: ['Shop.example.com'], gateways: ['gateway-system/edge'], http: [http('root', 'api', [{ name: 'root', uri: { prefix: '/' }, ignoreUriCase: false, headers: {} }])],
    });

    // WHEN / THEN
    expect(conflicts(app)).toEqual([expect.objectContaining({
      message: "field conflict: networking.istio.io/VirtualService gateway-system/all declared by 'cdn/Routing/All' (http route all: destination web) and "
        + "networking.istio.io/VirtualService edge/root declared by 'cdn/Routing/Root' (http route root: destination api) "
        + 'both bind host shop.example.com on gateway gateway-system/edge and match the same requests: uri prefix /. '
        + 'Istio merges the VirtualServices of one host on a gateway in an order it leaves undefined, '
        + 'so which destination gets these requests depends on the order it merges them in. '
        + 'Give one of them other matches or other hosts, or merge them into one http route whose destinations split the traffic by weight.',
      paths: ['cdn/Routing/All', 'cdn/Routing/Root'],
    })]);
  });

  test('two mesh VirtualServices of one Service, one naming it by its short name, are refused when a match is alike', () => {
    // GIVEN web by its short name in namespace edge, and by its full name, both matching method GET
    const { app, routing } = istioApp(null);
    virtualService(routing, 'Short', { hosts: ['api'], http: [http('get', 'api', [{ method: { exact: 'GET' } }])] });
    virtualService(routing, 'Full', { hosts: ['api.edge.svc.cluster.local'], http: [http('get', 'api', [{ method: { exact: 'GET' } }, { method: { exact: 'POST' } }])] }, 'ops');

    // WHEN
    const found = conflicts(app);

    // THEN the pair in the order of the composition's objects
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/Full', 'cdn/Routing/Short']]);
    expect(found[0].message).toContain('both bind host api.edge.svc.cluster.local in the mesh (the sidecars) and match the same requests: method GET, uri prefix /. '
      + 'Istio does not merge the VirtualServices of one host for the sidecars of the mesh but applies one of them (istioctl IST0109), '
      + 'so which destination gets these requests depends on which one it applies.');
  });

  test('a match\'s own gateways take the place of the VirtualService\'s', () => {
    // GIVEN a route bound to gateway internal, whose match applies on edge instead, and a route on edge with that match
    const { app, routing } = istioApp(EDGE);
    virtualService(routing, 'Moved', {
      hosts: ['*'], gateways: ['gateway-system/internal'], http: [http('moved', 'api', [{ gateways: ['gateway-system/edge'], headers: { 'x-tenant-id': { exact: 'acme' } } }])],
    });

    // WHEN
    const found = conflicts(app);

    // THEN it ties with acme's route on edge, and names the tenant
    expect(found.map((v) => v.paths)).toEqual([['cdn/Routing/Moved', 'cdn/Routing/tenant-acme']]);
    expect(found[0].message).toContain("both bind host * on gateway gateway-system/edge and match the same requests: tenant 'acme' (header x-tenant-id: acme), uri prefix /.");
  });

  test.each([
    ['another gateway', { hosts: ['*'], gateways: ['gateway-system/internal'] }, [{ headers: { 'x-tenant-id': { exact: 'acme' } } }]],
    ['the mesh', { hosts: ['*'] }, [{ headers: { 'x-tenant-id': { exact: 'acme' } } }]],
    ['a precise host beside the wildcard *', { hosts: ['acme.example.com'], gateways: ['gateway-system/edge'] }, [{ headers: { 'x-tenant-id': { exact: 'acme' } } }]],
    ['another header value', { hosts: ['*'], gateways: ['gateway-system/edge'] }, [{ headers: { 'x-tenant-id': { exact: 'globex' } } }]],
    ['a prefix match of the header', { hosts: ['*'], gateways: ['gateway-system/edge'] }, [{ headers: { 'x-tenant-id': { prefix: 'acme' } } }]],
    ['another uri prefix', { hosts: ['*'], gateways: ['gateway-system/edge'] }, [{ headers: { 'x-tenant-id': { exact: 'acme' } }, uri: { prefix: '/api' } }]],
    ['a match of its own on another gateway', { hosts: ['*'], gateways: ['gateway-system/edge'] }, [{ gateways: ['gateway-system/internal'], headers: { 'x-tenant-id': { exact: 'acme' } } }]],
  ])('a route that differs from acme\'s only in %s is accepted', (_, spec, match) => {
    const { app, routing } = istioApp(EDGE);
    virtualService(routing, 'Other', { ...spec, http: [http('other', 'api', match)] });

    expect(app.synthesize().violations).toEqual([]);
  });

  test('two mesh VirtualServices alike, each exported only to its own namespace, are accepted; exported to one namespace, refused', () => {
    // GIVEN the same mesh route in two namespaces, each visible to its own namespace only
    const { app, routing } = istioApp(null);
    const spec = (exportTo: string[]) => ({ hosts: ['api.edge.svc.cluster.local'], exportTo, http: [http('all', 'api')] });
    virtualService(routing, 'TeamA', spec(['.']), 'team-a');
    virtualService(routing, 'TeamB', spec(['.']), 'team-b');
    expect(app.synthesize().violations).toEqual([]);

    // WHEN a third is exported to team-b
    virtualService(routing, 'ToB', spec(['team-b']), 'ops');

    // THEN it conflicts with team-b's, not team-a's
    expect(conflicts(app).map((v) => v.paths)).toEqual([['cdn/Routing/TeamB', 'cdn/Routing/ToB']]);
  });

  test('one route of a VirtualService that holds a match twice is accepted', () => {
    const { app, routing } = istioApp(EDGE);
    virtualService(routing, 'Twice', { hosts: ['ops.example.com'], gateways: ['gateway-system/edge'], http: [http('ops', 'api', [{ method: { exact: 'GET' } }, { method: { exact: 'GET' } }])] });

    expect(app.synthesize().violations).toEqual([]);
  });
});
