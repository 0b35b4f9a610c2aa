import * as path from 'path';
import { ApiObject, JsonPatch, LazyResolver } from 'cdk8s';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, Contribution, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';
import type * as Generated from '../src/imports/externalsecret-external-secrets.io';

afterAll(removeTempDirs);

// records whether the generated External Secrets module is loaded (jest's registry: a require of it runs this factory)
let mockGeneratedLoaded = false;
jest.mock('../src/imports/externalsecret-external-secrets.io', () => {
  mockGeneratedLoaded = true;
  return jest.requireActual('../src/imports/externalsecret-external-secrets.io');
});

/** What the generated `ExternalSecret` class of `cdk8s import` renders for `object`: cdk8s' render through its schema serializer. */
function generatedRender(object: ApiObject): unknown {
  const { toJson_ExternalSecretProps } = jest.requireActual<typeof Generated>('../src/imports/externalsecret-external-secrets.io');
  const resolved = ApiObject.prototype.toJson.call(object);
  return { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', ...toJson_ExternalSecretProps(resolved) };
}

/** One binding's options, and what else touches its ExternalSecret. */
interface BindingCase {
  readonly namespace?: string;
  readonly chartNamespace?: string;
  readonly secretStoreName?: string;
  readonly secretStoreKind?: 'SecretStore' | 'ClusterSecretStore';
  readonly refreshInterval?: string;
  readonly patches: 'none' | 'known' | 'unknown' | 'contribution';
  readonly customResolvers: boolean;
  readonly unsorted: boolean;
}

const label = fc.stringMatching(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/);
const bindingCase: fc.Arbitrary<BindingCase> = fc.record({
  namespace: fc.option(label, { nil: undefined }),
  chartNamespace: fc.option(label, { nil: undefined }),
  secretStoreName: fc.option(label, { nil: undefined }),
  secretStoreKind: fc.option(fc.constantFrom('SecretStore' as const, 'ClusterSecretStore' as const), { nil: undefined }),
  refreshInterval: fc.option(fc.constantFrom('15m', '1h', '30s'), { nil: undefined }),
  patches: fc.constantFrom('none', 'known', 'unknown', 'contribution'),
  customResolvers: fc.boolean(),
  unsorted: fc.boolean(),
}, { requiredKeys: ['patches', 'customResolvers', 'unsorted'] });

/** Declares the case's contract binding (and what touches its ExternalSecret) in a fresh app; returns the ExternalSecret. */
function declare(c: BindingCase): ApiObject {
  // a resolver of the user's that leaves every value as it is: the object then renders through the generated serializer
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), ...(c.customResolvers ? { resolvers: [new LazyResolver()] } : {}) });
  const cdn = new Capability(app, 'cdn');
  const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
  const routing = new RuntimeRouting(cdn, 'Routing', c.chartNamespace ? { namespace: c.chartNamespace } : {});
  edge.consume(routing, {
    ...(c.namespace ? { namespace: c.namespace } : {}),
    ...(c.secretStoreName ? { secretStoreName: c.secretStoreName } : {}),
    ...(c.secretStoreKind ? { secretStoreKind: c.secretStoreKind } : {}),
    ...(c.refreshInterval ? { refreshInterval: c.refreshInterval } : {}),
  });
  const object = edge.consumptions[0].externalSecret;
  // a map written out of order, which the generated serializer puts in the schema's order
  if (c.patches === 'known') object.addJsonPatch(JsonPatch.add('/spec/target/template', { type: 'Opaque', engineVersion: 'v2' }));
  // a key the schema does not have, which the generated serializer leaves out
  if (c.patches === 'unknown') object.addJsonPatch(JsonPatch.add('/spec/retries', 3));
  if (c.patches === 'contribution') new Contribution(cdn, 'Team', { target: object, fields: { metadata: { annotations: { 'example.com/team': 'edge' } } } });
  return object;
}

describe('a contract\'s ExternalSecret renders what the generated ExternalSecret class renders', () => {
  test('a binding without JSON patches loads no generated External Secrets module, through synth', () => {
    // GIVEN a consumed contract, WHEN it synthesizes
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
    edge.consume(new RuntimeRouting(cdn, 'Routing', { namespace: 'tenants' }));
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    // THEN it wrote the ExternalSecret, and never required the generated module
    const objects = result.runtimeFiles!.flatMap((f) => f.objects.map((o) => o.manifest));
    expect(objects.find((m) => m.kind === 'ExternalSecret')).toEqual({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: 'cdn-edge-interface', namespace: 'tenants', annotations: { 'cdk-capability.io/contract-version': '1.0.0' } },
      spec: {
        dataFrom: [{ extract: { key: '/cdk-capability/cdn/edge/v1' } }],
        refreshInterval: '1h',
        secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws-parameter-store' },
        target: { creationPolicy: 'Owner', name: 'cdn-edge-interface' },
      },
    });
    expect(mockGeneratedLoaded).toBe(false);
  });

  test('for any binding options, JSON patches, resolvers and key sorting: the same JSON text, keys in the same order', () => {
    fc.assert(fc.property(bindingCase, (c) => {
      const saved = process.env.CDK8S_DISABLE_SORT;
      if (c.unsorted) process.env.CDK8S_DISABLE_SORT = '1';
      try {
        const object = declare(c);
        expect(object.kind).toBe('ExternalSecret');
        expect(JSON.stringify(object.toJson())).toEqual(JSON.stringify(generatedRender(object)));
      } finally {
        if (saved === undefined) delete process.env.CDK8S_DISABLE_SORT;
        else process.env.CDK8S_DISABLE_SORT = saved;
      }
    }), { numRuns: 100 });
  });

  test('a key the schema does not have, patched in, is left out, and a patched map is written in the schema\'s key order', () => {
    expect((declare({ patches: 'unknown', customResolvers: false, unsorted: false }).toJson() as any).spec.retries).toBeUndefined();
    expect(Object.keys((declare({ patches: 'known', customResolvers: false, unsorted: false }).toJson() as any).spec.target.template)).toEqual(['engineVersion', 'type']);
  });
});
