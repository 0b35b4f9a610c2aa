import * as path from 'path';
import { ApiObject, JsonPatch, Lazy, LazyResolver } from 'cdk8s';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { schemaProblems } from './k8s-schemas';
import { removeTempDirs, tempDir } from './util';
import type { SynthesisResult } from '../src/app/synthesize';
import { toJson_HttpRouteProps } from '../src/imports/httproute-gateway.networking.k8s.io';

afterAll(removeTempDirs);

/** What the generated `HttpRoute` class of `cdk8s import` renders for `route`: cdk8s' render through its schema serializer. */
function generatedRender(route: ApiObject): unknown {
  const resolved = ApiObject.prototype.toJson.call(route);
  return { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', ...toJson_HttpRouteProps(resolved) };
}

function manifests(result: SynthesisResult): any[] {
  if (!result.runtimeFiles) throw new Error(`refused: ${result.violations.map((v) => v.message).join('\n')}`);
  return result.runtimeFiles.flatMap((f) => f.objects.map((o) => o.manifest));
}

/** One tenant route's options, and what else touches the route. */
interface RouteCase {
  readonly tenant: string;
  readonly backendNamespace?: string;
  readonly routeNamespace?: string;
  readonly gatewayNamespace?: string;
  readonly sectionName?: string;
  readonly hostnames?: string[];
  readonly pathPrefix?: string;
  readonly header?: string;
  readonly versions?: Record<string, number>;
  readonly labels?: Record<string, string>;
  readonly patches: 'none' | 'known' | 'unknown' | 'contribution';
  readonly customResolvers: boolean;
  readonly unsorted: boolean;
}

const label = fc.stringMatching(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/);
const routeCase: fc.Arbitrary<RouteCase> = fc.record({
  tenant: label,
  backendNamespace: fc.option(label, { nil: undefined }),
  routeNamespace: fc.option(label, { nil: undefined }),
  gatewayNamespace: fc.option(label, { nil: undefined }),
  sectionName: fc.option(label, { nil: undefined }),
  hostnames: fc.option(fc.uniqueArray(fc.oneof(label.map((l) => `${l}.example.com`), label.map((l) => `*.${l}.example.com`)), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  pathPrefix: fc.option(fc.constantFrom('/', '/api', '/api/v1;x=1/caf%C3%A9', '/a-b_c~d'), { nil: undefined }),
  header: fc.option(fc.constantFrom('x-tenant-id', 'X-Tenant', 'x-org'), { nil: undefined }),
  versions: fc.option(fc.dictionary(fc.constantFrom('blue', 'green', 'canary'), fc.integer({ min: 1, max: 1000 }), { minKeys: 1 }), { nil: undefined }),
  labels: fc.option(fc.dictionary(label, label, { maxKeys: 3 }), { nil: undefined }),
  patches: fc.constantFrom('none', 'known', 'unknown', 'contribution'),
  customResolvers: fc.boolean(),
  unsorted: fc.boolean(),
}, { requiredKeys: ['tenant', 'patches', 'customResolvers', 'unsorted'] });

/** Declares the case's route (and what touches it) in a fresh app; returns the route and the app. */
function declare(c: RouteCase) {
  // a resolver of the user's that leaves every value as it is: the route then renders through the generated serializer
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), ...(c.customResolvers ? { resolvers: [new LazyResolver()] } : {}) });
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing', {
    gateway: { name: 'edge', ...(c.gatewayNamespace ? { namespace: c.gatewayNamespace } : {}), ...(c.sectionName ? { sectionName: c.sectionName } : {}) },
  });
  const namespace = c.backendNamespace ?? (c.routeNamespace ? 'backends' : undefined);
  const backend = c.versions
    ? routing.addVersionedBackend('Web', { port: 8080, namespace, versions: Object.fromEntries(Object.keys(c.versions).map((v) => [v, { image: `web:${v}` }])) })
    : routing.addBackend('Web', { image: 'web:1', port: 8080, namespace });
  const route = routing.addTenantRoute(c.tenant, backend, {
    ...(c.routeNamespace ? { namespace: c.routeNamespace } : {}),
    ...(c.hostnames ? { hostnames: c.hostnames } : {}),
    ...(c.pathPrefix ? { pathPrefix: c.pathPrefix } : {}),
    ...(c.header ? { header: c.header } : {}),
    ...(c.versions ? { weights: c.versions } : {}),
  });
  for (const [k, v] of Object.entries(c.labels ?? {})) route.metadata.addLabel(k, v);
  // a map written out of order, which the generated serializer puts in the schema's order
  if (c.patches === 'known') route.addJsonPatch(JsonPatch.add('/spec/rules/0/timeouts', { request: '10s', backendRequest: '5s' }));
  // a key the schema does not have, which the generated serializer leaves out
  if (c.patches === 'unknown') route.addJsonPatch(JsonPatch.add('/spec/rules/0/retries', { attempts: 3 }));
  // another team's annotation, which a Contribution writes as JSON patches
  if (c.patches === 'contribution') new Contribution(cdn, 'Team', { target: route, fields: { metadata: { annotations: { 'example.com/team': 'edge' } } } });
  return { app, route };
}

describe('a Gateway API tenant route renders what the generated HttpRoute class renders', () => {
  test('for any options, labels, JSON patches, resolvers and key sorting: the same JSON text, keys in the same order', () => {
    fc.assert(fc.property(routeCase, (c) => {
      const saved = process.env.CDK8S_DISABLE_SORT;
      if (c.unsorted) process.env.CDK8S_DISABLE_SORT = '1';
      try {
        const { route } = declare(c);
        expect(route.kind).toBe('HTTPRoute');
        expect(JSON.stringify(route.toJson())).toEqual(JSON.stringify(generatedRender(route)));
      } finally {
        if (saved === undefined) delete process.env.CDK8S_DISABLE_SORT;
        else process.env.CDK8S_DISABLE_SORT = saved;
      }
    }), { numRuns: 150 });
  });

  test('a key the schema does not have, patched in, is left out as the generated class leaves it out', () => {
    const { route } = declare({ tenant: 'acme', patches: 'unknown', customResolvers: false, unsorted: false });
    expect((route.toJson() as any).spec.rules[0]).toEqual({
      backendRefs: [{ name: 'web', port: 8080 }],
      matches: [{ headers: [{ name: 'x-tenant-id', type: 'Exact', value: 'acme' }], path: { type: 'PathPrefix', value: '/' } }],
    });
  });

  test('a patched map is written in the schema\'s key order', () => {
    const { route } = declare({ tenant: 'acme', patches: 'known', customResolvers: false, unsorted: false });
    expect(Object.keys((route.toJson() as any).spec.rules[0].timeouts)).toEqual(['backendRequest', 'request']);
  });

  test('the synthesized routes of every option validate against the Gateway API schema', () => {
    fc.assert(fc.property(routeCase.filter((c) => c.patches !== 'unknown'), (c) => {
      const { app } = declare(c);
      const all = manifests(app.synthesize());
      expect(all.filter((m) => m.kind === 'HTTPRoute')).toHaveLength(1);
      expect(schemaProblems(all)).toEqual([]);
    }), { numRuns: 25 });
  });

  test('a header read when the route renders (a Lazy of the routing) is rendered as the generated class renders it', () => {
    const { route } = declare({ tenant: 'acme', patches: 'none', customResolvers: false, unsorted: false });
    route.metadata.addAnnotation('note', Lazy.any({ produce: () => 'later' }) as unknown as string);
    expect(JSON.stringify(route.toJson())).toEqual(JSON.stringify(generatedRender(route)));
  });
});
