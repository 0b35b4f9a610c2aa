/**
 * Our own cases on built-in Kubernetes 1.30 types (the base schema), pinning the field topology the ledger
 * must reproduce. Each expectation is SMD 4.1.2's answer, checked by hand against the schema.
 */
import type { SmdTestCase } from './smd-test-case';

const deployment = { typeName: 'io.k8s.api.apps.v1.Deployment', apiVersion: 'apps/v1' };
const service = { typeName: 'io.k8s.api.core.v1.Service', apiVersion: 'v1' };
const configMap = { typeName: 'io.k8s.api.core.v1.ConfigMap', apiVersion: 'v1' };

/** A Deployment manifest whose pod template has these containers (and optionally more pod spec fields). */
function withContainers(containers: unknown[], podSpec: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template: { spec: { containers, ...podSpec } } } };
}

const C = '.spec.template.spec.containers';
const WEB = `${C}[name="web"]`;
const META = ['.apiVersion', '.kind', '.metadata.name'];

export const KUBERNETES_CASES: readonly SmdTestCase[] = [
  {
    name: 'containers are keyed by name: two managers own their own containers, and conflict on a shared one',
    provenance: 'own: Deployment spec.template.spec.containers is an associative list keyed by name',
    ...deployment,
    applies: [
      { manager: 'team-a', object: withContainers([{ name: 'web', image: 'nginx:1' }]) },
      { manager: 'team-b', object: withContainers([{ name: 'sidecar', image: 'envoy:1' }]) },
      { manager: 'team-b', object: withContainers([{ name: 'sidecar', image: 'envoy:1' }, { name: 'web', image: 'nginx:2' }]) },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'team-a', path: `${WEB}.image` }]],
      fields: {
        'team-a': [...META, WEB, `${WEB}.image`, `${WEB}.name`],
        'team-b': [...META, `${C}[name="sidecar"]`, `${C}[name="sidecar"].image`, `${C}[name="sidecar"].name`],
      },
      leaves: {
        'team-a': [...META, `${WEB}.image`, `${WEB}.name`],
        'team-b': [...META, `${C}[name="sidecar"].image`, `${C}[name="sidecar"].name`],
      },
    },
  },
  {
    name: 'a container port with protocol left out is the TCP item, the same one as with protocol: TCP explicit',
    provenance: 'own: ContainerPort keys containerPort+protocol; the schema defaults protocol to TCP',
    ...deployment,
    applies: [
      { manager: 'team-a', object: withContainers([{ name: 'web', ports: [{ containerPort: 80, hostPort: 8080 }] }]) },
      { manager: 'team-b', object: withContainers([{ name: 'web', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }]) },
      { manager: 'team-b', object: withContainers([{ name: 'web', ports: [{ containerPort: 80, protocol: 'TCP', hostPort: 9090 }] }]) },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'team-a', path: `${WEB}.ports[containerPort=80,protocol="TCP"].hostPort` }]],
      leaves: {
        'team-a': [
          ...META,
          `${WEB}.name`,
          `${WEB}.ports[containerPort=80,protocol="TCP"].containerPort`,
          `${WEB}.ports[containerPort=80,protocol="TCP"].hostPort`,
        ],
        'team-b': [
          ...META,
          `${WEB}.name`,
          `${WEB}.ports[containerPort=80,protocol="TCP"].containerPort`,
          `${WEB}.ports[containerPort=80,protocol="TCP"].name`,
          `${WEB}.ports[containerPort=80,protocol="TCP"].protocol`,
        ],
      },
    },
  },
  {
    name: 'a UDP port and a port with protocol left out are two items: no conflict on the same containerPort',
    provenance: 'own: ContainerPort keys containerPort+protocol; the default TCP differs from UDP',
    ...deployment,
    applies: [
      { manager: 'team-a', object: withContainers([{ name: 'web', ports: [{ containerPort: 53, protocol: 'UDP', name: 'dns-udp' }] }]) },
      { manager: 'team-b', object: withContainers([{ name: 'web', ports: [{ containerPort: 53, name: 'dns-tcp' }] }]) },
    ],
    expected: {
      conflicts: [[], []],
      leaves: {
        'team-a': [
          ...META,
          `${WEB}.name`,
          `${WEB}.ports[containerPort=53,protocol="UDP"].containerPort`,
          `${WEB}.ports[containerPort=53,protocol="UDP"].name`,
          `${WEB}.ports[containerPort=53,protocol="UDP"].protocol`,
        ],
        'team-b': [
          ...META,
          `${WEB}.name`,
          `${WEB}.ports[containerPort=53,protocol="TCP"].containerPort`,
          `${WEB}.ports[containerPort=53,protocol="TCP"].name`,
        ],
      },
    },
  },
  {
    name: 'Service ports are keyed by port+protocol: another targetPort on port 80 conflicts',
    provenance: 'own: ServiceSpec.ports keys port+protocol (protocol defaulted to TCP)',
    ...service,
    applies: [
      { manager: 'team-a', object: { spec: { ports: [{ port: 80, targetPort: 8080 }] } } },
      { manager: 'team-b', object: { spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 9090 }, { port: 443, targetPort: 8443 }] } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.ports[port=80,protocol="TCP"].targetPort' }]],
      leaves: { 'team-a': ['.spec.ports[port=80,protocol="TCP"].port', '.spec.ports[port=80,protocol="TCP"].targetPort'] },
    },
  },
  {
    name: 'a Service selector is atomic: a different selector conflicts as one field, an equal one is shared',
    provenance: 'own: ServiceSpec.selector is an atomic map',
    ...service,
    applies: [
      { manager: 'team-a', object: { spec: { selector: { app: 'web' } } } },
      { manager: 'team-b', object: { spec: { selector: { tier: 'front' } } } },
      { manager: 'team-c', object: { spec: { selector: { app: 'web' } } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.selector' }], []],
      fields: { 'team-a': ['.spec.selector'], 'team-c': ['.spec.selector'] },
    },
  },
  {
    name: 'a label selector is atomic as a whole: adding a matchLabels key conflicts on .spec.selector',
    provenance: 'own: meta/v1 LabelSelector is an atomic struct',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { selector: { matchLabels: { app: 'web' } } } } },
      { manager: 'team-b', object: { spec: { selector: { matchLabels: { app: 'web', tier: 'front' } } } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.selector' }]],
      fields: { 'team-a': ['.spec.selector'] },
    },
  },
  {
    name: 'finalizers are a set: each manager owns its own values, and a shared value is owned by both',
    provenance: 'own: ObjectMeta.finalizers is a set of strings',
    ...configMap,
    applies: [
      { manager: 'team-a', object: { metadata: { finalizers: ['a.example.com/x', 'shared.example.com/z'] } } },
      { manager: 'team-b', object: { metadata: { finalizers: ['b.example.com/y', 'shared.example.com/z'] } } },
    ],
    expected: {
      conflicts: [[], []],
      fields: {
        'team-a': ['.metadata.finalizers[="a.example.com/x"]', '.metadata.finalizers[="shared.example.com/z"]'],
        'team-b': ['.metadata.finalizers[="b.example.com/y"]', '.metadata.finalizers[="shared.example.com/z"]'],
      },
      object: { metadata: { finalizers: ['a.example.com/x', 'shared.example.com/z', 'b.example.com/y'] } },
    },
  },
  {
    name: 'labels are owned per key: other keys do not conflict, another value for the same key does',
    provenance: 'own: ObjectMeta.labels is a granular map',
    ...configMap,
    applies: [
      { manager: 'team-a', object: { metadata: { labels: { team: 'a', shared: 'yes' } } } },
      { manager: 'team-b', object: { metadata: { labels: { env: 'prod', shared: 'yes' } } } },
      { manager: 'team-b', object: { metadata: { labels: { env: 'prod', team: 'b' } } } },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'team-a', path: '.metadata.labels.team' }]],
      fields: {
        'team-a': ['.metadata.labels.shared', '.metadata.labels.team'],
        'team-b': ['.metadata.labels.env', '.metadata.labels.shared'],
      },
    },
  },
  {
    name: 'ConfigMap data is owned per key',
    provenance: 'own: ConfigMap.data is a granular map',
    ...configMap,
    applies: [
      { manager: 'team-a', object: { data: { a: '1' } } },
      { manager: 'team-b', object: { data: { b: '2' } } },
      { manager: 'team-b', object: { data: { a: '3' } } },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'team-a', path: '.data.a' }]],
      fields: { 'team-a': ['.data.a'], 'team-b': ['.data.b'] },
      object: { data: { a: '1', b: '2' } },
    },
  },
  {
    name: 'tolerations are atomic: a second manager adding one conflicts on the whole list',
    provenance: 'own: PodSpec.tolerations is an atomic list',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { template: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } } } } },
      { manager: 'team-b', object: { spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.template.spec.tolerations' }]],
      fields: { 'team-a': ['.spec.template.spec.tolerations'] },
    },
  },
  {
    name: 'a container command is atomic: any other command conflicts on the whole list',
    provenance: 'own: Container.command is an atomic list',
    ...deployment,
    applies: [
      { manager: 'team-a', object: withContainers([{ name: 'web', command: ['nginx', '-g'] }]) },
      { manager: 'team-b', object: withContainers([{ name: 'web', command: ['nginx'] }]) },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: `${WEB}.command` }]],
      leaves: { 'team-a': [...META, `${WEB}.command`, `${WEB}.name`] },
    },
  },
  {
    name: 'an env var applied by its key only is shared with the manager that sets its value',
    provenance: 'own: Container.env is keyed by name; a key-only element owns the item and its key',
    ...deployment,
    applies: [
      { manager: 'team-a', object: withContainers([{ name: 'web', env: [{ name: 'FOO' }] }]) },
      { manager: 'team-b', object: withContainers([{ name: 'web', env: [{ name: 'FOO', value: 'bar' }] }]) },
    ],
    expected: {
      conflicts: [[], []],
      fields: {
        'team-a': [...META, WEB, `${WEB}.env[name="FOO"]`, `${WEB}.env[name="FOO"].name`, `${WEB}.name`],
        'team-b': [...META, WEB, `${WEB}.env[name="FOO"]`, `${WEB}.env[name="FOO"].name`, `${WEB}.env[name="FOO"].value`, `${WEB}.name`],
      },
    },
  },
  {
    name: 'applying the value another manager applied is no conflict, and both own it',
    provenance: 'own: equal values never conflict',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { replicas: 2 } } },
      { manager: 'team-b', object: { spec: { replicas: 2 } } },
    ],
    expected: {
      conflicts: [[], []],
      fields: { 'team-a': ['.spec.replicas'], 'team-b': ['.spec.replicas'] },
    },
  },
  {
    name: 'a forced apply takes a conflicting field from its owner',
    provenance: 'own: force moves ownership',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { replicas: 2, paused: false } } },
      { manager: 'team-b', object: { spec: { replicas: 3 } } },
      { manager: 'team-b', object: { spec: { replicas: 3 } }, force: true },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.replicas' }], []],
      fields: { 'team-a': ['.spec.paused'], 'team-b': ['.spec.replicas'] },
      object: { spec: { replicas: 3, paused: false } },
    },
  },
  {
    name: 'a controller that changed a field with an update is the manager an applier conflicts with',
    provenance: 'own: an update (as a controller or kubectl scale writes) owns what it changed',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { replicas: 2 } } },
      { manager: 'kube-controller-manager', operation: 'update', object: { spec: { replicas: 5 } } },
      { manager: 'team-a', object: { spec: { replicas: 2 } } },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'kube-controller-manager', path: '.spec.replicas' }]],
      fields: { 'kube-controller-manager': ['.spec.replicas'] },
    },
  },
  {
    name: 'an empty spec is owned as the field .spec itself, and conflicts with no field inside it',
    provenance: 'own: `spec: {}` in an applied configuration',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: {} } },
      { manager: 'team-b', object: { spec: { replicas: 3 } } },
    ],
    expected: {
      conflicts: [[], []],
      fields: { 'team-a': ['.spec'], 'team-b': ['.spec.replicas'] },
      leaves: { 'team-a': ['.spec'], 'team-b': ['.spec.replicas'] },
    },
  },
  {
    name: 'spec: null and spec: {} are different values of .spec, so they conflict',
    provenance: 'own: an empty map and null, applied by two managers',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: {} } },
      { manager: 'team-b', object: { spec: null } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec' }]],
      fields: { 'team-a': ['.spec'] },
    },
  },
  {
    name: 'an empty labels map is owned as .metadata.labels and does not conflict with a key inside it',
    provenance: 'own: `labels: {}` in an applied configuration',
    ...configMap,
    applies: [
      { manager: 'team-a', object: { metadata: { labels: {} } } },
      { manager: 'team-b', object: { metadata: { labels: { env: 'prod' } } } },
    ],
    expected: {
      conflicts: [[], []],
      fields: { 'team-a': ['.metadata.labels'], 'team-b': ['.metadata.labels.env'] },
      object: { metadata: { labels: { env: 'prod' } } },
    },
  },
  {
    name: 'an empty keyed list owns nothing, so its applier does not appear among the managers',
    provenance: 'own: `containers: []` in an applied configuration',
    ...deployment,
    applies: [{ manager: 'team-a', object: { spec: { template: { spec: { containers: [] } } } } }],
    expected: {
      conflicts: [[]],
      fields: {},
      object: { spec: { template: { spec: { containers: [] } } } },
    },
  },
  {
    name: 'an empty atomic list is owned like any other value and conflicts with a non-empty one',
    provenance: 'own: `tolerations: []` in an applied configuration',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { template: { spec: { tolerations: [] } } } } },
      { manager: 'team-b', object: { spec: { template: { spec: { tolerations: [{ key: 'x', operator: 'Exists' }] } } } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.template.spec.tolerations' }]],
      fields: { 'team-a': ['.spec.template.spec.tolerations'] },
    },
  },
  {
    name: 'a field two appliers share conflicts with both when a third applies another value',
    provenance: 'own: shared ownership after equal values',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { replicas: 2 } } },
      { manager: 'team-b', object: { spec: { replicas: 2 } } },
      { manager: 'team-c', object: { spec: { replicas: 3 } } },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'team-a', path: '.spec.replicas' }, { manager: 'team-b', path: '.spec.replicas' }]],
      fields: { 'team-a': ['.spec.replicas'], 'team-b': ['.spec.replicas'] },
    },
  },
  {
    name: 'a container named by one manager and filled by another stays when the first stops applying it',
    provenance: 'own: a key-only element shared with another applier',
    ...deployment,
    applies: [
      { manager: 'team-a', object: { spec: { template: { spec: { containers: [{ name: 'web' }] } } } } },
      { manager: 'team-b', object: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } } } },
      { manager: 'team-a', object: { spec: { template: { spec: { containers: [] } } } } },
    ],
    expected: {
      conflicts: [[], [], []],
      fields: { 'team-b': [WEB, `${WEB}.image`, `${WEB}.name`] },
      object: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } } },
    },
  },
  {
    name: 'two containers with one name in one apply are refused as duplicates',
    provenance: 'own: duplicate keys in an associative list',
    ...deployment,
    applies: [{ manager: 'team-a', object: withContainers([{ name: 'web', image: 'a' }, { name: 'web', image: 'b' }]) }],
    expected: { error: /duplicate entries for key \[name="web"\]/ },
  },
];
