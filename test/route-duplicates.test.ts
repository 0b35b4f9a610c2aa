import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting } from '../src';
import { newApp, removeTempDirs } from './util';

// Two capabilities (two teams' packages) that each route one tenant on one gateway in one namespace declare one
// HTTPRoute twice (CAP001). A Contribution to the other's route, the general advice for a duplicate object, is no fix
// there: each route sends the tenant to its own backend. The advice is addTenantRoute's own: route the tenant once,
// or give a route its own name with its own matches.

afterAll(removeTempDirs);

const EDGE = { name: 'edge', namespace: 'gateway-system' };

test("two capabilities' routes of one tenant in one namespace: CAP001 with the routing fix, not a Contribution", () => {
  // GIVEN capabilities queues and cache, each routing tenant acme to a backend of its own in namespace edge
  const app = newApp();
  for (const name of ['queues', 'cache']) {
    const routing = new RuntimeRouting(new Capability(app, name), 'Routing', { gateway: EDGE });
    routing.addTenantRoute('acme', routing.addBackend(`${name}-worker`, { image: `ghcr.io/example/${name}:1.0.0`, port: 8080, namespace: 'edge', name: `${name}-worker` }));
  }

  // WHEN
  const { violations } = app.synthesize();

  // THEN one CAP001 naming both routes, with the routing fix
  expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP001 duplicate object: gateway.networking.k8s.io/HTTPRoute edge/tenant-acme is declared by 'queues/Routing/tenant-acme' and 'cache/Routing/tenant-acme'. "
      + "Route the tenant from one of them only; or, to send another path or host name of it elsewhere, give one route a distinct 'name' with its own 'pathPrefix' or 'hostnames' "
      + "(addTenantRoute's options), such as { name: 'tenant-acme-2', pathPrefix: '/api' }: two routes with the same matches take its requests in an order Gateway API leaves to their age.",
  ]);
});

test('two ConfigMaps of one name keep the Contribution advice', () => {
  const app = newApp();
  for (const name of ['queues', 'cache']) {
    const routing = new RuntimeRouting(new Capability(app, name), 'Routing');
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'edge' } });
  }
  expect(app.synthesize().violations.map((v) => v.message)).toEqual([
    "duplicate object: ConfigMap edge/settings is declared by 'queues/Routing/Settings' and 'cache/Routing/Settings'. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).",
  ]);
});
