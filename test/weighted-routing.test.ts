import * as fs from 'fs';
import * as path from 'path';
import { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { Capability, CapabilityApp, Field, InterfaceContract, RouteStyle, RuntimeRouting, SharedBase } from '../src';
import { crdSchemaValidator } from './crd-schema';
import { schemaProblems } from './k8s-schemas';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs } from './util';
import type { SynthesisResult } from '../src/app/synthesize';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

const validators = new Map<string, ValidateFunction>();

/** The served schema of `version` in a vendored CRD, compiled with ajv (Kubernetes' own extensions ignored). */
function crdValidator(file: string, version: string) {
  const key = `${file} ${version}`;
  if (!validators.has(key)) validators.set(key, compileCrd(file, version));
  return validators.get(key)!;
}

function compileCrd(file: string, version: string) {
  const crd = parse(fs.readFileSync(path.join(__dirname, '..', 'vendor', 'crds', file), 'utf-8'));
  const schema = crd.spec.versions.find((v: any) => v.name === version).schema.openAPIV3Schema;
  return crdSchemaValidator(schema);
}

function manifests(result: SynthesisResult): any[] {
  if (!result.runtimeFiles) throw new Error(`refused: ${result.violations.map((v) => v.message).join('\n')}`);
  return result.runtimeFiles.flatMap((f) => f.objects.map((o) => o.manifest));
}

function find(all: any[], kind: string, name: string): any {
  const found = all.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in ${all.map((m) => `${m.kind} ${m.metadata.name}`).join(', ')}`);
  return found;
}

interface CanaryVariant {
  readonly weights?: Record<string, number>;
  readonly versions?: string[];
  readonly style?: RouteStyle;
  readonly header?: string;
}

const IMAGES: Record<string, string> = { blue: 'ghcr.io/example/web:1.4.2', green: 'ghcr.io/example/web:1.5.0' };

/** GIVEN-side builder: cdn/Routing with versioned backend web (blue, green by default) and tenant acme routed by weights. */
function canary(app: CapabilityApp, v: CanaryVariant): void {
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: { name: 'edge', namespace: 'gateways' }, routeStyle: v.style });
  const versions = Object.fromEntries((v.versions ?? ['blue', 'green']).map((name) => [name, { image: IMAGES[name] }]));
  const web = routing.addVersionedBackend('Web', { port: 8080, namespace: 'edge', versions });
  routing.addTenantRoute('acme', web, { weights: v.weights, header: v.header });
}

function canaryApp(v: CanaryVariant): CapabilityApp {
  const app = newApp();
  canary(app, v);
  return app;
}

describe('weighted backend versions', () => {
  test('a versioned backend runs one Deployment and one Service per version, labelled with backend and version', () => {
    // WHEN
    const all = manifests(canaryApp({ weights: { blue: 90, green: 10 } }).synthesize());

    // THEN
    for (const version of ['blue', 'green']) {
      const deployment = find(all, 'Deployment', `web-${version}`);
      const service = find(all, 'Service', `web-${version}`);
      const labels = { 'cdk-capability.io/backend': 'web', 'cdk-capability.io/version': version };
      expect(deployment.metadata).toMatchObject({ namespace: 'edge', labels });
      expect(deployment.spec.template.metadata.labels).toMatchObject(labels);
      expect(deployment.spec.template.spec.containers[0].image).toBe(IMAGES[version]);
      expect(service.metadata).toMatchObject({ namespace: 'edge', labels });
      expect(service.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 8080 }]);
    }
  });

  test('an HTTPRoute splits the tenant by backendRefs weights, valid against kubernetes-models and the vendored CRD', () => {
    // WHEN
    const all = manifests(canaryApp({ weights: { blue: 90, green: 10 } }).synthesize());

    // THEN
    const route = find(all, 'HTTPRoute', 'tenant-acme');
    expect(route.spec.rules[0].backendRefs).toEqual([
      { name: 'web-blue', port: 8080, weight: 90 },
      { name: 'web-green', port: 8080, weight: 10 },
    ]);
    const validate = crdValidator('gateway-api.httproutes.yaml', 'v1');
    expect(validate(route) ? [] : validate.errors).toEqual([]);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('an Istio VirtualService splits the tenant by route weights, valid against kubernetes-models and the vendored CRD', () => {
    // WHEN
    const all = manifests(canaryApp({ weights: { blue: 50, green: 50 }, style: RouteStyle.ISTIO }).synthesize());

    // THEN
    const route = find(all, 'VirtualService', 'tenant-acme');
    expect(route.spec.http[0].route).toEqual([
      { destination: { host: 'web-blue.edge.svc.cluster.local', port: { number: 8080 } }, weight: 50 },
      { destination: { host: 'web-green.edge.svc.cluster.local', port: { number: 8080 } }, weight: 50 },
    ]);
    const validate = crdValidator('istio.virtualservices.yaml', 'v1');
    expect(validate(route) ? [] : validate.errors).toEqual([]);
    expect(schemaProblems(all)).toEqual([]);
  });

  test('a version left out of the weights gets 0 and stays listed', () => {
    const route = find(manifests(canaryApp({ weights: { blue: 100 } }).synthesize()), 'HTTPRoute', 'tenant-acme');
    expect(route.spec.rules[0].backendRefs.map((b: any) => [b.name, b.weight])).toEqual([['web-blue', 100], ['web-green', 0]]);
  });

  test('the vendored schema check is not vacuous: a negative weight fails it', () => {
    const route = find(manifests(canaryApp({ weights: { blue: 90, green: 10 } }).synthesize()), 'HTTPRoute', 'tenant-acme');
    route.spec.rules[0].backendRefs[1].weight = -1;
    const validate = crdValidator('gateway-api.httproutes.yaml', 'v1');
    expect(validate(route)).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toContain('/spec/rules/0/backendRefs/1/weight must be >= 0');
  });

  describe('refused weights (CAP010), naming the route', () => {
    const where = "invalid object: 'cdn/Routing/tenant-acme' failed its own validation: ";

    test.each([
      [
        'a weight on a version that does not exist',
        { weights: { blue: 90, purple: 10 } },
        "'weights' gives version 'purple' a weight, but backend 'web' has no such version (versions: blue, green). Weigh only its versions, or declare the version",
      ],
      [
        'weights that route nothing',
        { weights: { blue: 0, green: 0 } },
        "'weights' route nothing: every version of backend 'web' has weight 0 (blue: 0, green: 0). Give at least one version a weight above 0",
      ],
      ['a negative weight', { weights: { blue: 100, green: -5 } }, "the weight of version 'green' (-5) must be an integer from 0 to 1000000"],
      ['a fractional weight', { weights: { blue: 99.5, green: 1 } }, "the weight of version 'blue' (99.5) must be an integer from 0 to 1000000"],
      ['no weights for a versioned backend', {}, "backend 'web' runs versions blue, green, but the route gives no 'weights'. Give each version a weight, such as { blue: 100, green: 0 }"],
    ])('%s', (_, variant, detail) => {
      // WHEN
      const { violations } = canaryApp(variant).synthesize();

      // THEN one finding for the one problem: the stacks' synthesis, which validates the same construct, does not repeat it
      expect(coded(violations)).toEqual([
        expect.objectContaining({ code: 'CAP010', message: where + detail, paths: ['cdn/Routing/tenant-acme'] }),
      ]);
    });

    test('one problem, one finding: with a shared base, the stacks\' synthesis does not report the route again', () => {
      // GIVEN refused weights in a capability that also has a stack (whose synthesis validates the same construct)
      const app = newApp();
      const cdn = new Capability(app, 'cdn');
      new SharedBase(cdn, 'Base');
      const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge' } });
      const web = routing.addBackend('Web', { image: 'web:1', port: 8080 });
      routing.addTenantRoute('acme', web, { weights: { blue: 100 } });

      // THEN the route's CAP010 alone, not a second CAP010 "the stacks of capability 'cdn' could not be synthesized"
      expect(coded(app.synthesize().violations).map((v) => v.message)).toEqual([
        where + "'weights' are given, but backend 'web' has one version. Declare it with addVersionedBackend, or drop 'weights'",
      ]);
    });

    test('weights on a backend with one version', () => {
      const app = newApp();
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: { name: 'edge' } });
      const web = routing.addBackend('Web', { image: 'web:1', port: 8080 });
      routing.addTenantRoute('acme', web, { weights: { blue: 100 } });
      expect(coded(app.synthesize().violations).map((v) => v.message)).toEqual([
        where + "'weights' are given, but backend 'web' has one version. Declare it with addVersionedBackend, or drop 'weights'",
      ]);
    });
  });
});

describe('shifting and rolling back against the lock', () => {
  test('90/10 -> 50/50 is a weight change only: the plan shows the two weights and the traffic shift', () => {
    // GIVEN the real lock of 90/10
    const series = lockedSeries(canary, { weights: { blue: 90, green: 10 } });

    // WHEN 50/50 is planned
    const { violations, plan } = nextRelease(series, canary, { weights: { blue: 50, green: 50 } });

    // THEN one changed object, two changed leaves, one traffic change
    expect(violations).toEqual([]);
    expect(plan?.changes.changed).toEqual(['gateway.networking.k8s.io/HTTPRoute edge/tenant-acme']);
    expect(plan?.changes.fields).toEqual([
      {
        unit: 'gateway.networking.k8s.io/HTTPRoute edge/tenant-acme',
        fields: [
          { path: 'spec.rules[0].backendRefs[0].weight', before: 90, after: 50 },
          { path: 'spec.rules[0].backendRefs[1].weight', before: 10, after: 50 },
        ],
      },
    ]);
    expect(plan?.changes.traffic).toEqual([
      { route: 'gateway.networking.k8s.io/HTTPRoute edge/tenant-acme', before: { 'web-blue': 90, 'web-green': 10 }, after: { 'web-blue': 50, 'web-green': 50 } },
    ]);
  });

  test('removing a version a locked route still sends traffic to is refused with CAP008', () => {
    // GIVEN the real lock of 90/10
    const series = lockedSeries(canary, { weights: { blue: 90, green: 10 } });

    // WHEN green is removed in the next release
    const { violations } = nextRelease(series, canary, { versions: ['blue'], weights: { blue: 100 } });

    // THEN CAP008 names the version, the route and its locked share, and the two-release way out
    expect(coded(violations)).toEqual([
      {
        code: 'CAP008',
        message:
          "unsafe deletion: this release removes version 'green' of backend 'web' (Service edge/web-green), but gateway.networking.k8s.io/HTTPRoute edge/tenant-acme remains and it sent that version 10 of 100 in the locked release. " +
          'Shift its weight to 0 in one release, then remove the version in the next.',
        paths: ['cdn/Routing/WebGreenService', 'cdn/Routing/tenant-acme'],
      },
    ]);
  });

  test('removing a version the locked route had shifted to 0 is accepted', () => {
    // GIVEN the real lock of 100/0
    const series = lockedSeries(canary, { weights: { blue: 100, green: 0 } });

    // WHEN green is removed
    const { violations, plan } = nextRelease(series, canary, { versions: ['blue'], weights: { blue: 100 } });

    // THEN accepted: its Deployment and Service are removed, the route loses its backendRef
    expect(violations).toEqual([]);
    expect(plan?.changes.removed).toEqual(['apps/Deployment edge/web-green', 'Service edge/web-green']);
  });

  test('the same holds for Istio: removing a version with traffic in the locked VirtualService is refused', () => {
    const series = lockedSeries(canary, { weights: { blue: 50, green: 50 }, style: RouteStyle.ISTIO });
    const { violations } = nextRelease(series, canary, { versions: ['blue'], weights: { blue: 100 }, style: RouteStyle.ISTIO });
    expect(coded(violations).map((v) => v.message)).toEqual([
      expect.stringContaining("removes version 'green' of backend 'web' (Service edge/web-green), but networking.istio.io/VirtualService edge/tenant-acme remains and it sent that version 50 of 100"),
    ]);
  });
});

describe('edge and runtime agree on the tenant header (CAP009)', () => {
  /** cdn with contract Edge publishing tenantHeader `published`, and a route on versioned backend web. */
  function withContract(published: string, header?: string, style?: RouteStyle): CapabilityApp {
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '2.0.0', fields: { tenantHeader: Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: published });
    const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge', namespace: 'gateways' }, routeStyle: style });
    const web = routing.addBackend('Web', { image: 'web:1', port: 8080, namespace: 'edge' });
    routing.addTenantRoute('acme', web, { header });
    return app;
  }

  test('a route matching on a header the contract does not publish is refused, naming both sides', () => {
    // GIVEN the edge renamed its header to x-tenant, the route still matches x-tenant-id
    const { violations } = withContract('x-tenant', 'x-tenant-id').synthesize();

    // THEN
    expect(coded(violations)).toEqual([
      {
        code: 'CAP009',
        message:
          "contract misuse: gateway.networking.k8s.io/HTTPRoute edge/tenant-acme declared by 'cdn/Routing/tenant-acme' matches on header 'x-tenant-id', but 'cdn/Edge' 2.0.0 publishes tenantHeader 'x-tenant', " +
          "the header the edge sets, so the route would match no request. Match on the published header (drop the route's 'header' option), or publish the header the routes match on.",
        paths: ['cdn/Edge', 'cdn/Routing/tenant-acme'],
      },
    ]);
  });

  test('the same for an Istio VirtualService', () => {
    const { violations } = withContract('x-tenant', 'x-tenant-id', RouteStyle.ISTIO).synthesize();
    expect(coded(violations).map((v) => v.code)).toEqual(['CAP009']);
    expect(violations[0].message).toContain("networking.istio.io/VirtualService edge/tenant-acme declared by 'cdn/Routing/tenant-acme' matches on header 'x-tenant-id'");
  });

  test('a route that follows the published header, or names it (in any case), is accepted', () => {
    expect(withContract('x-tenant').synthesize().violations).toEqual([]);
    expect(withContract('x-tenant', 'X-Tenant').synthesize().violations).toEqual([]);
  });

  test('with two majors side by side, routes follow the newest major\'s header', () => {
    // GIVEN v1 publishes x-tenant-id and v2 (beside it) x-tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    new InterfaceContract(cdn, 'Edge', { version: '1.3.0', fields: { tenantHeader: Field.string() } }).publish(base, { tenantHeader: 'x-tenant-id' });
    new InterfaceContract(cdn, 'EdgeV2', { name: 'Edge', version: '2.0.0', fields: { tenantHeader: Field.string() } }).publish(base, { tenantHeader: 'x-tenant' });
    const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge' } });
    routing.addTenantRoute('acme', routing.addBackend('Web', { image: 'web:1', port: 8080 }));

    // WHEN
    const result = app.synthesize();

    // THEN accepted, and the route matches x-tenant
    expect(result.violations).toEqual([]);
    expect(find(manifests(result), 'HTTPRoute', 'tenant-acme').spec.rules[0].matches[0].headers[0].name).toBe('x-tenant');
  });
});
