import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { crdWithSpec } from './util';
import { contributes, declares } from './write-fixtures';
import { formatPath } from '../src/collect/ledger/field-path';
import { leavesOf, ownedLeaves } from '../src/collect/ledger/leaves';
import { patchLeaves, topologyOfManifest } from '../src/collect/ledger/runtime-writes';
import { CrdTopologies } from '../src/collect/topology/crd-topology';
import { DEDUCED } from '../src/collect/topology/field-topology';

/** The leaves of a manifest under its own kind's topology, formatted as messages print them. */
function leaves(manifest: any): string[] {
  return leavesOf(manifest, topologyOfManifest(manifest)).map(formatPath);
}

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod' } };
const SERVICE = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'prod' } };
const WIDGET = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' } };

/** A Deployment whose pod spec is `podSpec`. */
function deploymentWith(podSpec: Record<string, unknown>): any {
  return { ...DEPLOYMENT, spec: { template: { spec: podSpec } } };
}

describe('leavesOf', () => {
  test('identity fields (apiVersion, kind, metadata.name, metadata.namespace) are not leaves', () => {
    // GIVEN a manifest with nothing but its identity and one label
    const manifest = { ...DEPLOYMENT, metadata: { ...DEPLOYMENT.metadata, labels: { team: 'edge' } } };

    // WHEN / THEN only the label is owned
    expect(leaves(manifest)).toEqual(['metadata.labels.team']);
  });

  test('scalars are leaves, each at its own path', () => {
    // GIVEN a Deployment with two scalars
    const manifest = { ...DEPLOYMENT, spec: { replicas: 3, paused: false } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.replicas', 'spec.paused']);
  });

  test('containers are keyed by name, and the key field itself is not a leaf', () => {
    // GIVEN two containers
    const manifest = deploymentWith({ containers: [{ name: 'app', image: 'nginx' }, { name: 'proxy', image: 'envoy' }] });

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'spec.template.spec.containers[name=app].image',
      'spec.template.spec.containers[name=proxy].image',
    ]);
  });

  test('a keyed list element with nothing but its key is one leaf', () => {
    // GIVEN a container that only names itself
    const manifest = deploymentWith({ containers: [{ name: 'app' }] });

    // WHEN / THEN the element is the leaf
    expect(leaves(manifest)).toEqual(['spec.template.spec.containers[name=app]']);
  });

  test('initContainers, volumes and imagePullSecrets are keyed by name', () => {
    // GIVEN one element of each
    const manifest = deploymentWith({
      initContainers: [{ name: 'init', image: 'busybox' }],
      volumes: [{ name: 'cache', emptyDir: { medium: 'Memory' } }],
      imagePullSecrets: [{ name: 'registry' }],
    });

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'spec.template.spec.initContainers[name=init].image',
      'spec.template.spec.volumes[name=cache].emptyDir.medium',
      'spec.template.spec.imagePullSecrets[name=registry]',
    ]);
  });

  test('container ports are keyed by containerPort and protocol, protocol defaulting to TCP', () => {
    // GIVEN a port without protocol, one with TCP spelt out, and a UDP one
    const implicit = deploymentWith({ containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }] }] });
    const explicit = deploymentWith({ containers: [{ name: 'app', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] });
    const udp = deploymentWith({ containers: [{ name: 'app', ports: [{ containerPort: 80, protocol: 'UDP', name: 'dns' }] }] });

    // WHEN / THEN the first two are one element, the third another
    expect(leaves(implicit)).toEqual(['spec.template.spec.containers[name=app].ports[containerPort=80,protocol=TCP].name']);
    expect(leaves(explicit)).toEqual(leaves(implicit));
    expect(leaves(udp)).toEqual(['spec.template.spec.containers[name=app].ports[containerPort=80,protocol=UDP].name']);
  });

  test('Service ports are keyed by port and protocol, protocol defaulting to TCP', () => {
    // GIVEN a Service with a TCP port (implicit) and a UDP port of the same number
    const manifest = { ...SERVICE, spec: { ports: [{ port: 53, targetPort: 5353 }, { port: 53, protocol: 'UDP', targetPort: 5354 }] } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.ports[port=53,protocol=TCP].targetPort', 'spec.ports[port=53,protocol=UDP].targetPort']);
  });

  test('volumeMounts are keyed by mountPath', () => {
    // GIVEN two mounts of one volume
    const manifest = deploymentWith({
      containers: [{ name: 'app', volumeMounts: [{ mountPath: '/a', name: 'data' }, { mountPath: '/b', name: 'data' }] }],
    });

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'spec.template.spec.containers[name=app].volumeMounts[mountPath=/a].name',
      'spec.template.spec.containers[name=app].volumeMounts[mountPath=/b].name',
    ]);
  });

  test('env is keyed by name', () => {
    // GIVEN two variables
    const manifest = deploymentWith({ containers: [{ name: 'app', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] });

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'spec.template.spec.containers[name=app].env[name=A].value',
      'spec.template.spec.containers[name=app].env[name=B].value',
    ]);
  });

  test('command, args and tolerations are atomic: each is one leaf', () => {
    // GIVEN lists of several elements
    const manifest = deploymentWith({
      containers: [{ name: 'app', command: ['nginx', '-g'], args: ['daemon off;', '-q'] }],
      tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }],
    });

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'spec.template.spec.containers[name=app].command',
      'spec.template.spec.containers[name=app].args',
      'spec.template.spec.tolerations',
    ]);
  });

  test('nodeSelector is an atomic map and a label selector an atomic struct: each is one leaf', () => {
    // GIVEN maps of two keys each, and a selector with labels and expressions
    const manifest = {
      ...DEPLOYMENT,
      spec: {
        selector: { matchLabels: { app: 'web', tier: 'edge' }, matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
        template: { spec: { nodeSelector: { zone: 'a', disk: 'ssd' } } },
      },
    };

    // WHEN / THEN the whole LabelSelector is one leaf (it is `structType: atomic` in the schema)
    expect(leaves(manifest)).toEqual(['spec.selector', 'spec.template.spec.nodeSelector']);
  });

  test('metadata.finalizers is a set: each value is a presence leaf', () => {
    // GIVEN two finalizers
    const manifest = { ...DEPLOYMENT, metadata: { ...DEPLOYMENT.metadata, finalizers: ['example.com/a', 'example.com/b'] } };

    // WHEN
    const found = ownedLeaves(manifest, topologyOfManifest(manifest)).map((l) => [formatPath(l.path), l.presence]);

    // THEN
    expect(found).toEqual([
      ['metadata.finalizers[=example.com/a]', true],
      ['metadata.finalizers[=example.com/b]', true],
    ]);
  });

  test('an empty map and a key-only element are presence leaves; a scalar and an atomic value are not', () => {
    // GIVEN a Namespace with spec: {} (as kplus.Namespace emits), and a Deployment with a key-only container and an empty selector
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' }, spec: {} };
    const deployment = { ...DEPLOYMENT, spec: { replicas: 1, selector: {}, template: { spec: { containers: [{ name: 'app' }] } } } };

    // WHEN
    const of = (m: any) => ownedLeaves(m, topologyOfManifest(m)).map((l) => [formatPath(l.path), l.presence ?? false]);

    // THEN
    expect(of(namespace)).toEqual([['spec', true]]);
    expect(of(deployment)).toEqual([
      ['spec.replicas', false],
      ['spec.selector', false],
      ['spec.template.spec.containers[name=app]', true],
    ]);
  });

  test('a custom resource follows its CRD\'s list and map markers', () => {
    // GIVEN a CRD with a keyed list (a defaulted key), a set, an atomic map and an unmarked list
    const crd = crdWithSpec('Gadget', {
      ports: {
        'type': 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        'items': { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
      },
      aliases: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
      selector: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'additionalProperties': { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' } },
    });
    const gadget = {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
      spec: { ports: [{ port: 80, name: 'http' }], aliases: ['a'], selector: { app: 'g', tier: 'x' }, tags: ['t'] },
    };

    // WHEN
    const found = leavesOf(gadget, topologyOfManifest(gadget, CrdTopologies.fromManifests([crd]))).map(formatPath);

    // THEN
    expect(found).toEqual(['spec.ports[port=80,protocol=TCP].name', 'spec.aliases[=a]', 'spec.selector', 'spec.tags']);
  });

  test('a Service spec.selector is an atomic map', () => {
    // GIVEN a Service selecting on two labels
    const manifest = { ...SERVICE, spec: { selector: { app: 'web', tier: 'edge' } } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.selector']);
  });

  test('labels, annotations and ConfigMap data are owned per key', () => {
    // GIVEN a ConfigMap with two labels, one annotation and two data keys
    const manifest = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'prod', labels: { 'app.kubernetes.io/name': 'web', 'team': 'edge' }, annotations: { note: 'x' } },
      data: { 'config.yaml': 'a: 1', 'other': 'b' },
    };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual([
      'metadata.labels["app.kubernetes.io/name"]',
      'metadata.labels.team',
      'metadata.annotations.note',
      'data["config.yaml"]',
      'data.other',
    ]);
  });

  test('custom resource lists are atomic, even ones named like a keyed built-in list', () => {
    // GIVEN a custom resource with a list of routes and a list called containers
    const manifest = { ...WIDGET, spec: { routes: [{ name: 'a', path: '/a' }], containers: [{ name: 'x', image: 'y' }] } };

    // WHEN / THEN each list is one leaf
    expect(leaves(manifest)).toEqual(['spec.routes', 'spec.containers']);
  });

  test('custom resource maps are owned per key', () => {
    // GIVEN a custom resource with a nested map
    const manifest = { ...WIDGET, spec: { timers: { rollout: '5m', drain: '1m' } } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.timers.rollout', 'spec.timers.drain']);
  });

  test('an empty map is one leaf', () => {
    // GIVEN a custom resource with an empty map
    const manifest = { ...WIDGET, spec: { config: {} } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.config']);
  });

  test('undefined values are not written', () => {
    // GIVEN a field set to undefined
    const manifest = { ...WIDGET, spec: { a: undefined, b: 1 } };

    // WHEN / THEN
    expect(leaves(manifest)).toEqual(['spec.b']);
  });

  test('values reported opaque are one leaf, never walked into', () => {
    // GIVEN an object-valued field the caller calls opaque
    const token = { Ref: 'Bucket' };
    const value = { BucketName: token, Tags: [{ Key: 'a', Value: 'b' }] };

    // WHEN
    const found = leavesOf(value, DEDUCED, [], { isOpaque: (v) => v === token }).map(formatPath);

    // THEN
    expect(found).toEqual(['BucketName', 'Tags']);
  });

  test('leaves are written under the given prefix', () => {
    // GIVEN a container fragment written at a container's path
    const prefix = ['spec', 'template', 'spec', 'containers', 'k:{"name":"app"}'];

    // WHEN
    const found = leavesOf({ env: [{ name: 'A', value: '1' }] }, topologyOfManifest(DEPLOYMENT), prefix).map(formatPath);

    // THEN the rules apply to the full path
    expect(found).toEqual(['spec.template.spec.containers[name=app].env[name=A].value']);
  });
});

describe('patchLeaves', () => {
  const declared = deploymentWith({ containers: [{ name: 'app', image: 'nginx', args: ['-q'] }] });
  const rules = topologyOfManifest(declared);

  test('a list index into a keyed list becomes the element key of the declared element', () => {
    // GIVEN / WHEN a replace of the first container's image
    const found = patchLeaves({ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:2' }, declared, rules);

    // THEN
    expect(found.map(formatPath)).toEqual(['spec.template.spec.containers[name=app].image']);
  });

  test('an append to a keyed list is keyed by the value appended', () => {
    // GIVEN / WHEN an add at the end of the containers
    const found = patchLeaves({ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'proxy', image: 'envoy' } }, declared, rules);

    // THEN
    expect(found.map(formatPath)).toContain('spec.template.spec.containers[name=proxy].image');
  });

  test('an index into an atomic list writes the whole list', () => {
    // GIVEN / WHEN a replace of one argument
    const found = patchLeaves({ op: 'replace', path: '/spec/template/spec/containers/0/args/0', value: '-v' }, declared, rules);

    // THEN
    expect(found.map(formatPath)).toEqual(['spec.template.spec.containers[name=app].args']);
  });

  test('a remove writes the removed path', () => {
    // GIVEN / WHEN a remove of the image
    const found = patchLeaves({ op: 'remove', path: '/spec/template/spec/containers/0/image' }, declared, rules);

    // THEN
    expect(found.map(formatPath)).toEqual(['spec.template.spec.containers[name=app].image']);
  });

  test('an object value is split into its leaves', () => {
    // GIVEN / WHEN an add of a map of labels
    const found = patchLeaves({ op: 'add', path: '/metadata/labels', value: { a: '1', b: '2' } }, declared, rules);

    // THEN
    expect(found.map(formatPath)).toEqual(['metadata.labels.a', 'metadata.labels.b']);
  });
});

describe('server-side apply leaves, through contributions', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'leaves-test-'));
  });
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  /**
   * An app with one runtime chart, two writer constructs and a Deployment `prod/web` selecting app=web,
   * whose pods (labelled app=web, tier=edge) run nginx in container `app`.
   */
  function fixture(spec: Record<string, unknown> = {}) {
    const app = new CapabilityApp({ outdir });
    const cdn = new Capability(app, 'cdn');
    const routing = new RuntimeRouting(cdn, 'Routing');
    const web = new ApiObject(routing, 'Web', {
      ...DEPLOYMENT,
      spec: {
        selector: { matchLabels: { app: 'web' } },
        ...spec,
        template: { metadata: { labels: { app: 'web', tier: 'edge' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      },
    });
    const teamA = new Construct(routing, 'TeamA');
    const teamB = new Construct(routing, 'TeamB');
    return { app, routing, web, teamA, teamB };
  }

  /** Fields that write `list` into the Deployment's containers, and `fields` into its pod spec. */
  const containers = (...list: Array<Record<string, unknown>>) => ({ spec: { template: { spec: { containers: list } } } });
  const podSpec = (fields: Record<string, unknown>) => ({ spec: { template: { spec: fields } } });

  /** The exact CAP002 message for two writers of a Deployment prod/web. */
  const conflict = (a: string, b: string, fields: string, object: string, ...ways: string[]) =>
    `field conflict: '${a}' and '${b}' both write ${fields} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;
  const WEB = 'apps/Deployment prod/web';

  /** The single emitted manifest named `name`. */
  function emitted(app: CapabilityApp, name: string): any {
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    const objects = (result.runtimeFiles ?? []).flatMap((f) => f.objects).filter((o) => o.manifest.metadata.name === name);
    expect(objects).toHaveLength(1);
    return objects[0].manifest;
  }

  test('two contributions adding differently named containers merge into one Deployment', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'proxy', image: 'envoy' }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'agent', image: 'datadog' }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers).toEqual([
      { name: 'app', image: 'nginx' },
      { name: 'proxy', image: 'envoy' },
      { name: 'agent', image: 'datadog' },
    ]);
  });

  test('two contributions writing different fields of one container merge into that container', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN one sets the image of container proxy, the other its env
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'proxy', image: 'envoy' }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'proxy', env: [{ name: 'LOG', value: 'debug' }] }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers).toEqual([
      { name: 'app', image: 'nginx' },
      { name: 'proxy', image: 'envoy', env: [{ name: 'LOG', value: 'debug' }] },
    ]);
  });

  test('a contribution writing the image the declarer already writes is a conflict', () => {
    // GIVEN
    const { app, web, teamA } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', image: 'nginx:2' }) });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/Web', 'spec.template.spec.containers[name=app].image', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields'), declares('cdn/Routing/Web')),
        paths: ['cdn/Routing/TeamA/Fields', 'cdn/Routing/Web'],
      },
    ]);
  });

  test('writing a field with the value it already has is still a conflict', () => {
    // GIVEN
    const { app, web, teamA } = fixture();

    // WHEN the contribution repeats the declared image exactly
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', image: 'nginx' }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/Web', 'spec.template.spec.containers[name=app].image', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields'), declares('cdn/Routing/Web')),
    ]);
  });

  test('a container port without protocol and the same port with protocol TCP are one element', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN both name the port (a key-only element would contest nothing)
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', ports: [{ containerPort: 80, name: 'http' }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'app', ports: [{ containerPort: 80, protocol: 'TCP', name: 'web' }] }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.template.spec.containers[name=app].ports[containerPort=80,protocol=TCP].name', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('a UDP container port is a different element from the TCP port of the same number', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', ports: [{ containerPort: 53 }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'app', ports: [{ containerPort: 53, protocol: 'UDP' }] }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers[0].ports).toEqual([{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP' }]);
  });

  test('Service ports of different numbers merge, and the same port and protocol conflict', () => {
    // GIVEN a Service declaring port 80
    const { app, routing, teamA, teamB } = fixture();
    const svc = new ApiObject(routing, 'Svc', { ...SERVICE, spec: { ports: [{ port: 80, targetPort: 8080, name: 'http' }] } });

    // WHEN one team adds port 443 (named, as a Service of several ports needs) and the other retargets port 80/TCP
    new Contribution(teamA, 'Fields', { target: svc, fields: { spec: { ports: [{ port: 443, targetPort: 8443, name: 'https' }] } } });
    new Contribution(teamB, 'Fields', { target: svc, fields: { spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 9090 }] } } });

    // THEN only the second is refused
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/Svc', 'cdn/Routing/TeamB/Fields', 'spec.ports[port=80,protocol=TCP].targetPort', 'Service prod/web', declares('cdn/Routing/Svc'), contributes('fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('volumeMounts of different mount paths merge', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    // (each mounts a volume it declares: the API server refuses a mount of no volume of the pod)
    new Contribution(teamA, 'Fields', { target: web, fields: podSpec({ volumes: [{ name: 'va', emptyDir: {} }], containers: [{ name: 'app', volumeMounts: [{ mountPath: '/a', name: 'va' }] }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: podSpec({ volumes: [{ name: 'vb', emptyDir: {} }], containers: [{ name: 'app', volumeMounts: [{ mountPath: '/b', name: 'vb' }] }] }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers[0].volumeMounts).toEqual([
      { mountPath: '/a', name: 'va' },
      { mountPath: '/b', name: 'vb' },
    ]);
  });

  test('volumeMounts of one mount path conflict', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: podSpec({ volumes: [{ name: 'va', emptyDir: {} }], containers: [{ name: 'app', volumeMounts: [{ mountPath: '/a', name: 'va' }] }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: podSpec({ volumes: [{ name: 'vb', emptyDir: {} }], containers: [{ name: 'app', volumeMounts: [{ mountPath: '/a', name: 'vb' }] }] }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.template.spec.containers[name=app].volumeMounts[mountPath=/a].name', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('env variables of different names merge', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', env: [{ name: 'A', value: '1' }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'app', env: [{ name: 'B', value: '2' }] }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
  });

  test('env variables of one name conflict', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', env: [{ name: 'A', value: '1' }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'app', env: [{ name: 'A', value: '2' }] }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.template.spec.containers[name=app].env[name=A].value', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test.each([
    ['command', { command: ['a'] }, { command: ['b'] }, 'spec.template.spec.containers[name=app].command'],
    ['args', { args: ['-a'] }, { args: ['-b'] }, 'spec.template.spec.containers[name=app].args'],
  ])('two writers of the atomic list %s conflict even when their elements differ', (_name, a, b, field) => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: containers({ name: 'app', ...a }) });
    new Contribution(teamB, 'Fields', { target: web, fields: containers({ name: 'app', ...b }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', field, WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('two writers of tolerations conflict even when they tolerate different taints', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: podSpec({ tolerations: [{ key: 'gpu', operator: 'Exists' }] }) });
    new Contribution(teamB, 'Fields', { target: web, fields: podSpec({ tolerations: [{ key: 'spot', operator: 'Exists' }] }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.template.spec.tolerations', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('two writers of different keys of nodeSelector conflict', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: podSpec({ nodeSelector: { zone: 'a' } }) });
    new Contribution(teamB, 'Fields', { target: web, fields: podSpec({ nodeSelector: { disk: 'ssd' } }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.template.spec.nodeSelector', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('a contribution adding a key to a declared selector.matchLabels conflicts with the declarer on the whole selector', () => {
    // GIVEN a Deployment declaring matchLabels app=web
    const { app, web, teamA } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: { spec: { selector: { matchLabels: { tier: 'edge' } } } } });

    // THEN a LabelSelector is atomic: the contested leaf is spec.selector
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/Web', 'spec.selector', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields'), declares('cdn/Routing/Web')),
    ]);
  });

  test('1,000 contributions of one leaf are exactly one CAP002 naming the declarer and every contribution', () => {
    // GIVEN a Deployment declaring replicas
    const { app, web, teamA } = fixture({ replicas: 1 });

    // WHEN 1,000 contributions each set replicas
    const writers = Array.from({ length: 1000 }, (_, i) => new Contribution(teamA, `Scale${String(i).padStart(4, '0')}`, { target: web, fields: { spec: { replicas: i + 2 } } }).node.path);

    // THEN one violation, every writer named in its paths and its message
    const violations = app.synthesize().violations;
    expect(violations.map((v) => v.code)).toEqual(['CAP002']);
    expect(violations[0].paths).toEqual([...writers, 'cdn/Routing/Web']);
    expect(violations[0].message).toBe(
      `field conflict: ${[...writers, 'cdn/Routing/Web'].map((w) => `'${w}'`).join(', ').replace(/, ('[^']*')$/, ' and $1')} all write spec.replicas of apps/Deployment prod/web. ` +
      `Give each field one owner: drop it from all of them but one (1000 of them write it as a Contribution, in its fields; ${declares('cdn/Routing/Web')}).`,
    );
  });

  test('contributions into a declared empty map (spec: {}) are accepted and merged', () => {
    // GIVEN a Namespace declared with spec: {} (what kplus.Namespace emits)
    const { app, routing, teamA, teamB } = fixture();
    const ns = new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' }, spec: {} });

    // WHEN two teams write into spec and metadata.labels
    new Contribution(teamA, 'Fields', { target: ns, fields: { spec: { finalizers: ['kubernetes'] } } });
    new Contribution(teamB, 'Fields', { target: ns, fields: { metadata: { labels: { team: 'b' } } } });

    // THEN
    const manifest = emitted(app, 'shop');
    expect(manifest.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(manifest.metadata.labels).toEqual({ team: 'b' });
  });

  test('two writers of one finalizer share it; different finalizers merge into one set', () => {
    // GIVEN a Deployment with finalizer a
    const { app, web, teamA, teamB } = fixture();
    web.metadata.addFinalizers('example.com/a');

    // WHEN one team repeats a and adds b, another adds c
    new Contribution(teamA, 'Fields', { target: web, fields: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } } });
    new Contribution(teamB, 'Fields', { target: web, fields: { metadata: { finalizers: ['example.com/c'] } } });

    // THEN
    expect(emitted(app, 'web').metadata.finalizers).toEqual(['example.com/a', 'example.com/b', 'example.com/c']);
  });

  test('a key-only element does not block a contribution of fields into that element', () => {
    // GIVEN a contribution that names container app and one that sets its env
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Name', { target: web, fields: containers({ name: 'app' }) });
    new Contribution(teamB, 'Env', { target: web, fields: containers({ name: 'app', env: [{ name: 'A', value: '1' }] }) });

    // THEN
    expect(emitted(app, 'web').spec.template.spec.containers).toEqual([{ name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }] }]);
  });

  test('a contribution adding a key to a declared Service spec.selector conflicts with the declarer', () => {
    // GIVEN a Service selecting app=web
    const { app, routing, teamA } = fixture();
    const svc = new ApiObject(routing, 'Svc', { ...SERVICE, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });

    // WHEN
    new Contribution(teamA, 'Fields', { target: svc, fields: { spec: { selector: { tier: 'edge' } } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/Svc', 'cdn/Routing/TeamA/Fields', 'spec.selector', 'Service prod/web', declares('cdn/Routing/Svc'), contributes('fields', 'cdn/Routing/TeamA/Fields')),
    ]);
  });

  test('labels and annotations of different keys merge', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: { metadata: { labels: { team: 'edge' }, annotations: { a: '1' } } } });
    new Contribution(teamB, 'Fields', { target: web, fields: { metadata: { labels: { cost: 'cdn' }, annotations: { b: '2' } } } });

    // THEN
    expect(emitted(app, 'web').metadata).toEqual({
      name: 'web',
      namespace: 'prod',
      labels: { team: 'edge', cost: 'cdn' },
      annotations: { a: '1', b: '2' },
    });
  });

  test('two writers of one label conflict', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: { metadata: { labels: { 'app.kubernetes.io/part-of': 'cdn' } } } });
    new Contribution(teamB, 'Fields', { target: web, fields: { metadata: { labels: { 'app.kubernetes.io/part-of': 'dns' } } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'metadata.labels["app.kubernetes.io/part-of"]', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('two writers of one annotation conflict', () => {
    // GIVEN
    const { app, web, teamA, teamB } = fixture();

    // WHEN
    new Contribution(teamA, 'Fields', { target: web, fields: { metadata: { annotations: { owner: 'a' } } } });
    new Contribution(teamB, 'Fields', { target: web, fields: { metadata: { annotations: { owner: 'b' } } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'metadata.annotations.owner', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('ConfigMap data of different keys merge', () => {
    // GIVEN a ConfigMap declaring one key
    const { app, routing, teamA } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' }, data: { a: '1' } });

    // WHEN
    new Contribution(teamA, 'Fields', { target: cm, fields: { data: { b: '2' } } });

    // THEN
    expect(emitted(app, 'config').data).toEqual({ a: '1', b: '2' });
  });

  test('ConfigMap data of one key conflict', () => {
    // GIVEN a ConfigMap declaring one key
    const { app, routing, teamA } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' }, data: { 'nginx.conf': 'a' } });

    // WHEN
    new Contribution(teamA, 'Fields', { target: cm, fields: { data: { 'nginx.conf': 'b' } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/Config', 'cdn/Routing/TeamA/Fields', 'data["nginx.conf"]', 'ConfigMap prod/config', declares('cdn/Routing/Config'), contributes('fields', 'cdn/Routing/TeamA/Fields')),
    ]);
  });

  test('two contributions appending different elements to a custom resource list conflict', () => {
    // GIVEN a custom resource with no list
    const { app, routing, teamA, teamB } = fixture();
    const cr = new ApiObject(routing, 'App1', { ...WIDGET, spec: { applicationId: 'app1' } });

    // WHEN
    new Contribution(teamA, 'Fields', { target: cr, fields: { spec: { routes: [{ name: 'a', path: '/a' }] } } });
    new Contribution(teamB, 'Fields', { target: cr, fields: { spec: { routes: [{ name: 'b', path: '/b' }] } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields', 'spec.routes', 'apps.example.com/ApplicationDeployment apps/app1', contributes('fields', 'cdn/Routing/TeamA/Fields', 'cdn/Routing/TeamB/Fields')),
    ]);
  });

  test('a writer of a scalar and a writer of a field below it conflict at the scalar', () => {
    // GIVEN a custom resource whose declarer writes spec.config as a string
    const { app, routing, teamA } = fixture();
    const cr = new ApiObject(routing, 'App1', { ...WIDGET, spec: { config: 'inline' } });

    // WHEN
    new Contribution(teamA, 'Fields', { target: cr, fields: { spec: { config: { x: 1 } } } });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: conflict('cdn/Routing/App1', 'cdn/Routing/TeamA/Fields', 'spec.config', 'apps.example.com/ApplicationDeployment apps/app1', declares('cdn/Routing/App1'), contributes('fields', 'cdn/Routing/TeamA/Fields')),
        paths: ['cdn/Routing/App1', 'cdn/Routing/TeamA/Fields'],
      },
    ]);
  });

  test('a writer of a whole atomic map and a writer of one key below it conflict at the map', () => {
    // GIVEN a Deployment whose declarer writes nodeSelector whole
    const app = new CapabilityApp({ outdir });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const web = new ApiObject(routing, 'Web', { ...DEPLOYMENT, spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1' }], nodeSelector: { zone: 'a' } } } } });

    // WHEN another writes the key nodeSelector.disk
    new Contribution(new Construct(routing, 'TeamA'), 'Fields', { target: web, fields: podSpec({ nodeSelector: { disk: 'ssd' } }) });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      conflict('cdn/Routing/TeamA/Fields', 'cdn/Routing/Web', 'spec.template.spec.nodeSelector', WEB, contributes('fields', 'cdn/Routing/TeamA/Fields'), declares('cdn/Routing/Web')),
    ]);
  });

  test('a contribution repeating the identity fields does not conflict with the declarer', () => {
    // GIVEN
    const { app, web, teamA } = fixture();

    // WHEN the contribution carries apiVersion, kind, name and namespace
    new Contribution(teamA, 'Fields', { target: web, fields: { ...DEPLOYMENT, spec: { replicas: 2 } } });

    // THEN
    expect(emitted(app, 'web').spec.replicas).toBe(2);
  });
});
