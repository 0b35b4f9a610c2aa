import { ApiObject } from 'cdk8s';
import * as kplus30 from 'cdk8s-plus-30';
import * as kplus33 from 'cdk8s-plus-33';
import { Backend, Capability, EnvValueLike, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { newApp, removeTempDirs } from './util';
import { CDK8S_PLUS_MAJORS } from '../src/private/lazy';

afterAll(removeTempDirs);

// This file type-checks (tsc --noEmit -p test/tsconfig.json, part of the test task) only while the routing
// helpers take cdk8s-plus-33 constructs and values: before, a cdk8s-plus-33 Deployment was "not assignable to
// ... cdk8s-plus-30 ... Deployment" (issue 17).

describe('routing helpers with cdk8s-plus-33, the major cdk8s-cli\'s templates install', () => {
  test('a backend of cdk8s-plus-33 constructs takes tenant routes, and a contract handle feeds its container', () => {
    // GIVEN a capability whose contract publishes the origin, and a cdk8s-plus-33 Deployment and Service
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { origin: Field.string(), tenantHeader: Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { origin: 'origin.cdn.example.com', tenantHeader: 'x-tenant-id' });
    const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge', namespace: 'gateways' } });
    const values = edge.consume(routing, { namespace: 'edge' });
    const deployment = new kplus33.Deployment(routing, 'Web', {
      metadata: { name: 'web', namespace: 'edge' },
      containers: [{ image: 'ghcr.io/example/web:1.4.2', portNumber: 8080, envVariables: { ORIGIN: values.origin.envValue() } }],
    });
    const service = deployment.exposeViaService({ name: 'web', ports: [{ port: 8080 }] });
    const backend: Backend<kplus33.Deployment, kplus33.Service> = { name: 'web', namespace: 'edge', port: 8080, deployment, service };

    // WHEN a tenant route goes to it
    const route = routing.addTenantRoute('acme', backend);
    const result = app.synthesize();

    // THEN the composition is accepted and the route sends acme to Service edge/web
    expect(result.violations).toEqual([]);
    expect(route.toJson().spec.rules[0].backendRefs).toEqual([{ name: 'web', port: 8080 }]);
    const objects = (result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => `${o.manifest.kind} ${o.manifest.metadata.name}`));
    expect(objects).toEqual(expect.arrayContaining(['Deployment web', 'Service web', 'HTTPRoute tenant-acme', 'ExternalSecret cdn-edge-interface']));
  });

  test('addBackend takes env values of cdk8s-plus-33 and of cdk8s-plus-30 alike', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const env: Record<string, EnvValueLike> = { A: kplus33.EnvValue.fromValue('a'), B: kplus30.EnvValue.fromValue('b') };
    const web = routing.addBackend('Web', { image: 'web', port: 8080, namespace: 'edge', env });
    const container = ApiObject.of(web.deployment).toJson().spec.template.spec.containers[0];
    expect(container.env).toEqual([{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }]);
  });

  test('the helpers load the first cdk8s-plus major installed, 30 to 33', () => {
    expect(CDK8S_PLUS_MAJORS).toEqual(['cdk8s-plus-30', 'cdk8s-plus-31', 'cdk8s-plus-32', 'cdk8s-plus-33']);
  });
});
