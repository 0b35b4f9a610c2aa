import { ApiObject, ApiObjectProps, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, Violation } from '../src';
import type { SmdResult } from './smd/smd';
import { smdVerdicts } from './smd/verdicts';
import { crdWithSpec, newApp, removeTempDirs, siteOfNextLine } from './util';
import { calls, declares } from './write-fixtures';
import { contradictionsOf } from '../src/collect/ledger/contradictions';
import { CrdTopologies } from '../src/collect/topology/crd-topology';
import { topologyOf } from '../src/collect/topology/field-topology';

afterAll(removeTempDirs);

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } };

/** GIVEN-side helper: an app with one routing chart, a Deployment `shop/web` declared by `shop/Routing/Web`, and two teams. */
function fixture(container: Record<string, unknown> = { name: 'app', image: 'nginx' }) {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    ...DEPLOYMENT,
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } },
  });
  return { app, routing, web, teamA: new Construct(routing, 'TeamA'), teamB: new Construct(routing, 'TeamB') };
}

/** A CRD whose `endpoints` are a map list keyed by host and port, neither with a default. */
const ENDPOINTS_CRD = crdWithSpec('Gadget', {
  endpoints: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['host', 'port'],
    'items': { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' }, weight: { type: 'integer' } } },
  },
});

const podSpec = (spec: Record<string, unknown>) => ({ spec: { template: { spec } } });

/** The field-ownership and validity violations of a synth, as `code message` (the ConfigMaps and Secrets named are not declared: CAP005 is left out). */
function lines(violations: readonly Violation[]): string[] {
  return violations.filter((v) => v.code !== 'CAP005').map((v) => `${v.code} ${v.message}`);
}

describe('CAP010: merged contradictions, naming each writer', () => {
  test('value beside valueFrom in one env entry, from two writers, is refused naming both (the seed case)', () => {
    // GIVEN the declarer reads LOG_LEVEL from a ConfigMap
    const { app, web, teamA } = fixture({ name: 'app', image: 'nginx', env: [{ name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'level' } } }] });

    // WHEN another team sets a plain value for it
    new Contribution(teamA, 'Debug', { target: web, fields: podSpec({ containers: [{ name: 'app', env: [{ name: 'LOG_LEVEL', value: 'debug' }] }] }) });

    // THEN the leaves are disjoint (no CAP002), yet the merged entry is refused
    const { violations } = app.synthesize();
    expect(lines(violations)).toEqual([
      "CAP010 invalid object: spec.template.spec.containers[name=app].env[name=LOG_LEVEL] of apps/Deployment shop/web sets value (by 'shop/Routing/TeamA/Debug') and valueFrom (by 'shop/Routing/Web'), of which the API server accepts only one. Keep one: drop the others from their writers.",
    ]);
    expect(violations.find((v) => v.code === 'CAP010')?.paths).toEqual(['shop/Routing/TeamA/Debug', 'shop/Routing/Web']);
  });

  test('an empty value beside valueFrom is accepted, as the API server accepts it', () => {
    const { app, web, teamA } = fixture({ name: 'app', image: 'nginx', env: [{ name: 'LOG_LEVEL', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] });
    new Contribution(teamA, 'Empty', { target: web, fields: podSpec({ containers: [{ name: 'app', env: [{ name: 'LOG_LEVEL', value: '' }] }] }) });

    expect(lines(app.synthesize().violations)).toEqual([]);
  });

  test('a JSON patch appending a second container named app is refused naming the declarer and the patch', () => {
    // GIVEN / WHEN
    const { app, web } = fixture();
    const at = siteOfNextLine();
    web.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/-', { name: 'app', image: 'envoy' }));

    // THEN the duplicate is CAP010 (and the two images of one element are CAP002: an added element overrides nothing)
    expect(lines(app.synthesize().violations)).toEqual([
      `CAP002 field conflict: 'shop/Routing/Web' and 'shop/Routing/Web' (addJsonPatch at ${at}) both write spec.template.spec.containers[name=app].image of apps/Deployment shop/web. ` +
        `Give each field one owner: drop it from one of them (${declares('shop/Routing/Web')}; ${calls('shop/Routing/Web', `addJsonPatch at ${at}`)}).`,
      `CAP010 invalid object: spec.template.spec.containers of apps/Deployment shop/web has 2 elements with the key [name=app], written by 'shop/Routing/Web' and 'shop/Routing/Web' (addJsonPatch at ${at}). ` +
        'Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.',
    ]);
  });

  test('two ports 80/TCP, one with protocol left out, are a duplicate key (protocol defaults to TCP)', () => {
    // GIVEN / WHEN a contribution adds both to the declared container
    const { app, web, teamA } = fixture();
    new Contribution(teamA, 'Ports', {
      target: web,
      fields: podSpec({ containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 80, protocol: 'TCP', name: 'web' }] }] }),
    });

    // THEN
    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.template.spec.containers[name=app].ports of apps/Deployment shop/web has 2 elements with the key [containerPort=80,protocol=TCP], written by 'shop/Routing/TeamA/Ports'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
  });

  test('a contribution that writes one container twice keeps both in the merge, so the duplicate is refused, not folded', () => {
    const { app, web, teamA } = fixture();
    new Contribution(teamA, 'Sidecars', { target: web, fields: podSpec({ containers: [{ name: 'proxy', image: 'envoy:1' }, { name: 'proxy', image: 'envoy:2' }] }) });

    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.template.spec.containers of apps/Deployment shop/web has 2 elements with the key [name=proxy], written by 'shop/Routing/TeamA/Sidecars'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
  });

  test('a volume given two sources by two writers is refused naming both', () => {
    // GIVEN a declared emptyDir volume
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new ApiObject(routing, 'Web', { ...DEPLOYMENT, spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx' }], volumes: [{ name: 'data', emptyDir: {} }] } } } });

    // WHEN another team makes it a Secret volume
    new Contribution(new Construct(routing, 'TeamA'), 'Secret', { target: web, fields: podSpec({ volumes: [{ name: 'data', secret: { secretName: 'creds' } }] }) });

    // THEN
    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.template.spec.volumes[name=data] of apps/Deployment shop/web sets emptyDir (by 'shop/Routing/Web') and secret (by 'shop/Routing/TeamA/Secret'), of which the API server accepts only one. Keep one: drop the others from their writers.",
    ]);
  });

  test('a Service port added twice by a contribution beside the declared ports is refused naming the contribution', () => {
    // GIVEN a Service declaring port 443
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const svc = new ApiObject(routing, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { ports: [{ port: 443, name: 'https' }] } });

    // WHEN a team adds port 80 twice, once with protocol left out (each named, as a Service of several ports must)
    new Contribution(new Construct(routing, 'TeamA'), 'Http', { target: svc, fields: { spec: { ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 80, protocol: 'TCP', targetPort: 9090, name: 'alt' }] } } });

    // THEN
    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.ports of Service shop/web has 2 elements with the key [port=80,protocol=TCP], written by 'shop/Routing/TeamA/Http'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
  });

  test('different keys, UDP beside TCP, and one of each one-of member are accepted', () => {
    const { app, web, teamA, teamB } = fixture();
    new Contribution(teamA, 'Dns', { target: web, fields: podSpec({ containers: [{ name: 'app', ports: [{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP' }] }] }) });
    new Contribution(teamB, 'Env', { target: web, fields: podSpec({ containers: [{ name: 'app', env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] }) });

    expect(lines(app.synthesize().violations)).toEqual([]);
  });
});

describe('CAP010 in one declaration: the API server refuses it as it refuses a merge', () => {
  test('addContainer twice with one name on a cdk8s-plus Deployment is refused naming the Deployment', () => {
    // GIVEN a cdk8s-plus Deployment (it checks duplicate ports itself, not duplicate container names)
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' } });

    // WHEN
    web.addContainer({ name: 'api', image: 'api:1' });
    web.addContainer({ name: 'api', image: 'api:2' });

    // THEN
    const { violations } = app.synthesize();
    expect(lines(violations)).toEqual([
      "CAP010 invalid object: spec.template.spec.containers of apps/Deployment shop/web has 2 elements with the key [name=api], written by 'shop/Routing/Web'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
    expect(violations.find((v) => v.code === 'CAP010')?.paths).toEqual(['shop/Routing/Web']);
  });

  test('two ports 80 in one declared Service, one with protocol left out, are a duplicate key (protocol defaults to TCP)', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Svc', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 80, protocol: 'TCP', targetPort: 9090, name: 'alt' }] },
    });

    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.ports of Service shop/web has 2 elements with the key [port=80,protocol=TCP], written by 'shop/Routing/Svc'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
  });

  test('a keyed element without a key field that has no default is refused naming its writer, declared or contributed', () => {
    // GIVEN a CRD whose endpoints are keyed by host and port, and a resource declaring one endpoint
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Crd', ENDPOINTS_CRD as ApiObjectProps);
    const res = new ApiObject(routing, 'Res', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'shop' }, spec: { endpoints: [{ host: 'a', port: 80 }, { host: 'c' }] } });

    // WHEN another team adds an endpoint without its port
    new Contribution(new Construct(routing, 'TeamA'), 'Backup', { target: res, fields: { spec: { endpoints: [{ host: 'b', weight: 1 }] } } });

    // THEN each element is refused, naming its own writer
    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.endpoints of example.com/Gadget shop/g has an element without the key field port, which has no default, written by 'shop/Routing/Res'. Server-side apply refuses a keyed list element without its key: give the element port.",
      "CAP010 invalid object: spec.endpoints of example.com/Gadget shop/g has an element without the key field port, which has no default, written by 'shop/Routing/TeamA/Backup'. Server-side apply refuses a keyed list element without its key: give the element port.",
    ]);
  });

  test('a set holding one value twice is refused naming its writer; the same value from two writers is one value', () => {
    // GIVEN a declaration with finalizers [a, a], and another object whose finalizer a contribution repeats
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Twice', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', namespace: 'shop', finalizers: ['example.com/a', 'example.com/a'] } });
    const once = new ApiObject(routing, 'Once', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'once', namespace: 'shop', finalizers: ['example.com/a'] } });
    new Contribution(new Construct(routing, 'TeamA'), 'Keep', { target: once, fields: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } } });

    // WHEN / THEN the declared repeat is refused; the merge keeps one a (and both writers of v:"example.com/a" share it: a set value is presence)
    const { violations } = app.synthesize();
    expect(lines(violations)).toEqual([
      "CAP010 invalid object: metadata.finalizers of ConfigMap shop/twice holds the value example.com/a 2 times, written by 'shop/Routing/Twice'. Server-side apply refuses a set with a repeated value: write each value once.",
    ]);
    expect(violations.find((v) => v.code === 'CAP010')?.paths).toEqual(['shop/Routing/Twice']);
  });
});

describe('contradictionsOf', () => {
  test('finds duplicate keys in any associative list of any built-in kind, and in a CRD\'s map lists', () => {
    // GIVEN a CRD whose items are a map list keyed by name, and an unmarked (atomic) list
    const crd = crdWithSpec('Gadget', {
      items: { 'type': 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], 'items': { type: 'object', properties: { name: { type: 'string' } } } },
      plain: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { items: [{ name: 'a' }, { name: 'a' }], plain: [{ name: 'a' }, { name: 'a' }] } };
    const role = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences: [{ uid: 'u1', name: 'x' }, { uid: 'u1', name: 'y' }] } };

    // WHEN / THEN only the keyed lists count
    expect(contradictionsOf(gadget, topologyOf('example.com/v1', 'Gadget', CrdTopologies.fromManifests([crd])))).toEqual([
      { kind: 'duplicate-key', path: ['spec', 'items'], key: 'k:{"name":"a"}', count: 2 },
    ]);
    expect(contradictionsOf(role, topologyOf('v1', 'Pod'))).toEqual([{ kind: 'duplicate-key', path: ['metadata', 'ownerReferences'], key: 'k:{"uid":"u1"}', count: 2 }]);
  });

  test('finds two probe handlers and two valueFrom sources; an init container\'s env is checked as well', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        initContainers: [{ name: 'init', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'a' }, secretKeyRef: { name: 's', key: 'k' } } }] }],
        containers: [{ name: 'app', readinessProbe: { exec: { command: ['true'] }, httpGet: { port: 80 } } }],
      },
    };

    expect(contradictionsOf(pod, topologyOf('v1', 'Pod'))).toEqual([
      { kind: 'exclusive-fields', path: ['spec', 'initContainers', 'k:{"name":"init"}', 'env', 'k:{"name":"X"}', 'valueFrom'], fields: ['fieldRef', 'secretKeyRef'] },
      { kind: 'exclusive-fields', path: ['spec', 'containers', 'k:{"name":"app"}', 'readinessProbe'], fields: ['exec', 'httpGet'] },
    ]);
  });
});

/** The Gadget of {@link ENDPOINTS_CRD} as the API server's SMD schema has it (derived by hand, as test/smd/cases/harness.ts does). */
const GADGET_SCHEMA = `types:
- name: com.example.v1.Gadget
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: spec, type: {namedType: com.example.v1.GadgetSpec}}
- name: com.example.v1.GadgetSpec
  map:
    fields:
    - name: endpoints
      type: {list: {elementType: {namedType: com.example.v1.GadgetEndpoint}, elementRelationship: associative, keys: [host, port]}}
- name: com.example.v1.GadgetEndpoint
  map:
    fields:
    - {name: host, type: {scalar: string}}
    - {name: port, type: {scalar: numeric}}
    - {name: weight, type: {scalar: numeric}}
`;

/** One declared object, what structured-merge-diff says of applying it, and which contradiction the ledger finds. */
interface DeclaredCase {
  readonly name: string;
  readonly typeName: string;
  readonly manifest: Record<string, unknown>;
  /** SMD's error, or undefined when it accepts the object. */
  readonly smd?: RegExp;
  /** The kinds `contradictionsOf` finds. */
  readonly kinds: readonly string[];
}

/** A cdk8s-plus Deployment given `addContainer({ name: 'api' })` twice, as rendered. */
function renderedTwoApis(): Record<string, unknown> {
  const chart = Testing.chart();
  const d = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web' } });
  d.addContainer({ name: 'api', image: 'api:1' });
  d.addContainer({ name: 'api', image: 'api:2' });
  return Testing.synth(chart)[0];
}

const gadget = (endpoints: unknown[]) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { endpoints } });
const configMap = (finalizers: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers } });
const service = (ports: unknown[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports } });

const DECLARED_CASES: readonly DeclaredCase[] = [
  { name: 'two containers api from cdk8s-plus', typeName: 'io.k8s.api.apps.v1.Deployment', manifest: renderedTwoApis(), smd: /duplicate entries for key \[name="api"\]/, kinds: ['duplicate-key'] },
  {
    name: 'two Service ports 80, one protocol defaulted',
    typeName: 'io.k8s.api.core.v1.Service',
    manifest: service([{ port: 80, targetPort: 8080 }, { port: 80, protocol: 'TCP', targetPort: 9090 }]),
    smd: /duplicate entries for key \[port=80,protocol="TCP"\]/,
    kinds: ['duplicate-key'],
  },
  { name: 'Service ports 53 TCP and UDP', typeName: 'io.k8s.api.core.v1.Service', manifest: service([{ port: 53 }, { port: 53, protocol: 'UDP' }]), kinds: [] },
  {
    name: 'an endpoint without its port',
    typeName: 'com.example.v1.Gadget',
    manifest: gadget([{ host: 'a', port: 80 }, { host: 'b', weight: 1 }]),
    smd: /associative list with keys has an element that omits key field "port" \(and doesn't have default value\)/,
    kinds: ['missing-key'],
  },
  { name: 'endpoints with both keys', typeName: 'com.example.v1.Gadget', manifest: gadget([{ host: 'a', port: 80 }, { host: 'a', port: 81 }]), kinds: [] },
  { name: 'finalizers [a, a]', typeName: 'io.k8s.api.core.v1.ConfigMap', manifest: configMap(['example.com/a', 'example.com/a']), smd: /duplicate entries for key \[="example\.com\/a"\]/, kinds: ['duplicate-value'] },
  { name: 'finalizers [a, b]', typeName: 'io.k8s.api.core.v1.ConfigMap', manifest: configMap(['example.com/a', 'example.com/b']), kinds: [] },
];

describe('the contradictions of one declaration are what structured-merge-diff refuses', () => {
  let results: SmdResult[];
  beforeAll(() => {
    results = smdVerdicts(
      'declared-contradictions',
      DECLARED_CASES.map((c) => ({ name: c.name, schema: GADGET_SCHEMA, typeName: c.typeName, applies: [{ manager: 'declarer', object: c.manifest }] })),
    );
  });

  test.each(DECLARED_CASES.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const c = DECLARED_CASES[i];
    const crds = CrdTopologies.fromManifests([ENDPOINTS_CRD]);
    const found = contradictionsOf(c.manifest, topologyOf(String(c.manifest.apiVersion), String(c.manifest.kind), crds));

    // a Service's unnamed ports are the API server's validation, beyond structured-merge-diff's (the cases' ports are unnamed)
    expect(found.map((x) => x.kind).filter((k) => k !== 'unnamed-ports')).toEqual(c.kinds);
    if (c.smd) expect(results[i].error).toMatch(c.smd);
    else expect(results[i].error).toBeUndefined();
  });
});

describe('a Service of several ports, not all named (CAP010)', () => {
  test("a Contribution's named port beside the declaration's unnamed one: refused, naming the port and its writer", () => {
    // GIVEN a Deployment exposed through a Service of one unnamed port, and a Contribution adding a named https port
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    const svc = web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080 }] });
    new Contribution(routing, 'Tls', { target: svc, fields: { spec: { ports: [{ port: 443, targetPort: 8443, name: 'https' }] } } });

    // THEN refused: the API server requires spec.ports[0].name once there are two ports
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: spec.ports of Service shop/web has 2 ports, and [port=80,protocol=TCP] (by 'shop/Routing/Web/webService') has no name. "
        + 'The API server requires a name for every port of a Service with more than one: give each port a name.',
    ]);
  });

  test('accepted when every port is named, and for one unnamed port alone', () => {
    // GIVEN the same, the declared port named http; and another Service of one unnamed port
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    const svc = web.exposeViaService({ name: 'web', ports: [{ port: 80, targetPort: 8080, name: 'http' }] });
    new Contribution(routing, 'Tls', { target: svc, fields: { spec: { ports: [{ port: 443, targetPort: 8443, name: 'https' }] } } });
    web.exposeViaService({ name: 'web-plain', ports: [{ port: 80, targetPort: 8080 }] });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});
