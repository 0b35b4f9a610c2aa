import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, Contribution, RuntimeRouting, Violation } from '../src';
import { crdWithSpec, newApp, removeTempDirs, siteOfNextLine } from './util';
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
        'Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride).',
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
    const svc = new ApiObject(routing, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { ports: [{ port: 443 }] } });

    // WHEN a team adds port 80 twice, once with protocol left out
    new Contribution(new Construct(routing, 'TeamA'), 'Http', { target: svc, fields: { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 80, protocol: 'TCP', targetPort: 9090 }] } } });

    // THEN
    expect(lines(app.synthesize().violations)).toEqual([
      "CAP010 invalid object: spec.ports of Service shop/web has 2 elements with the key [port=80,protocol=TCP], written by 'shop/Routing/TeamA/Http'. Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.",
    ]);
  });

  test("an object with one writer is not walked: its duplicate keys are its declarer's own input, not a merge", () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Svc', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 80, protocol: 'TCP', targetPort: 9090 }] },
    });

    expect(lines(app.synthesize().violations)).toEqual([]);
  });

  test('different keys, UDP beside TCP, and one of each one-of member are accepted', () => {
    const { app, web, teamA, teamB } = fixture();
    new Contribution(teamA, 'Dns', { target: web, fields: podSpec({ containers: [{ name: 'app', ports: [{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP' }] }] }) });
    new Contribution(teamB, 'Env', { target: web, fields: podSpec({ containers: [{ name: 'app', env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] }) });

    expect(lines(app.synthesize().violations)).toEqual([]);
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
