import * as fs from 'fs';
import * as path from 'path';
import { compareApiVersions, kindOfTypeName, OUTPUT, renderTopology, schemaPath } from '../scripts/generate-k8s-topology';
import { DEDUCED, FieldTopology, SCALAR, schemaTopology, topologyOf, UNTYPED_ATOMIC } from '../src/collect/topology/field-topology';

/** The node at a dotted path; `[]` steps into list elements (`spec.containers[].ports`). */
function at(root: FieldTopology, dotted: string): FieldTopology {
  let node = root;
  for (const segment of dotted.split('.')) {
    const [name, ...elements] = segment.split('[]');
    if (name) node = node.field(name);
    for (let i = 0; i < elements.length; i++) node = node.element();
  }
  return node;
}

/** The data of a node, without its methods. */
function shape(node: FieldTopology): Record<string, unknown> {
  const { type, atomic, listType, keys, keyDefaults } = node;
  return Object.fromEntries(Object.entries({ type, atomic, listType, keys, keyDefaults }).filter(([, v]) => v !== undefined));
}

const deployment = topologyOf('apps/v1', 'Deployment');
const podSpec = at(deployment, 'spec.template.spec');
const service = topologyOf('v1', 'Service');

const ATOMIC_LIST = { type: 'list', atomic: true, listType: 'atomic' };
const GRANULAR_MAP = { type: 'map', atomic: false };
const ATOMIC_MAP = { type: 'map', atomic: true };
const DEDUCED_SHAPE = { type: 'deduced', atomic: false, listType: 'atomic' };

describe('built-in kinds, from the structured-merge-diff schema', () => {
  test('a Deployment pod template\'s containers are associative by name', () => {
    expect(shape(podSpec.field('containers'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['name'], keyDefaults: { name: '' } });
    expect(shape(podSpec.field('initContainers'))).toEqual(shape(podSpec.field('containers')));
  });

  test('container ports are keyed by containerPort and protocol, protocol defaulting to TCP', () => {
    expect(shape(at(podSpec, 'containers[].ports'))).toEqual({
      type: 'list',
      atomic: false,
      listType: 'associative',
      keys: ['containerPort', 'protocol'],
      keyDefaults: { containerPort: 0, protocol: 'TCP' },
    });
  });

  test('env is keyed by name and volumeMounts by mountPath', () => {
    expect(shape(at(podSpec, 'containers[].env'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['name'], keyDefaults: { name: '' } });
    expect(shape(at(podSpec, 'containers[].volumeMounts'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['mountPath'], keyDefaults: { mountPath: '' } });
  });

  test('command and args are atomic lists', () => {
    expect(shape(at(podSpec, 'containers[].command'))).toEqual(ATOMIC_LIST);
    expect(shape(at(podSpec, 'containers[].args'))).toEqual(ATOMIC_LIST);
  });

  test('tolerations are an atomic list', () => {
    expect(shape(podSpec.field('tolerations'))).toEqual(ATOMIC_LIST);
  });

  test('imagePullSecrets are keyed by name in a pod spec', () => {
    expect(shape(podSpec.field('imagePullSecrets'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['name'], keyDefaults: { name: '' } });
  });

  test('a ServiceAccount\'s imagePullSecrets are atomic, unlike a pod spec\'s', () => {
    expect(shape(at(topologyOf('v1', 'ServiceAccount'), 'imagePullSecrets'))).toEqual(ATOMIC_LIST);
  });

  test('a Service\'s ports are keyed by port and protocol, protocol defaulting to TCP', () => {
    expect(shape(at(service, 'spec.ports'))).toEqual({
      type: 'list',
      atomic: false,
      listType: 'associative',
      keys: ['port', 'protocol'],
      keyDefaults: { port: 0, protocol: 'TCP' },
    });
  });

  test('a Service\'s spec.selector is an atomic map', () => {
    expect(shape(at(service, 'spec.selector'))).toEqual(ATOMIC_MAP);
  });

  test('a Deployment\'s spec.selector (LabelSelector) is atomic, so its granular matchLabels is inside one leaf', () => {
    expect(shape(at(deployment, 'spec.selector'))).toEqual(ATOMIC_MAP);
    // The schema's own word for matchLabels; a walker never reaches it past the atomic selector.
    expect(shape(at(deployment, 'spec.selector.matchLabels'))).toEqual(GRANULAR_MAP);
    expect(shape(at(deployment, 'spec.selector.matchExpressions'))).toEqual(ATOMIC_LIST);
  });

  test('nodeSelector is an atomic map', () => {
    expect(shape(podSpec.field('nodeSelector'))).toEqual(ATOMIC_MAP);
  });

  test('metadata labels and annotations are granular maps of scalars', () => {
    for (const map of ['labels', 'annotations']) {
      expect(shape(at(deployment, `metadata.${map}`))).toEqual(GRANULAR_MAP);
      expect(at(deployment, `metadata.${map}`).field('app.kubernetes.io/name')).toBe(SCALAR);
    }
    expect(shape(at(deployment, 'spec.template.metadata.labels'))).toEqual(GRANULAR_MAP);
  });

  test('metadata.finalizers is a set of scalars', () => {
    expect(shape(at(deployment, 'metadata.finalizers'))).toEqual({ type: 'list', atomic: false, listType: 'set' });
    expect(at(deployment, 'metadata.finalizers[]')).toBe(SCALAR);
  });

  test('ownerReferences are keyed by uid, each element one atomic leaf', () => {
    expect(shape(at(deployment, 'metadata.ownerReferences'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['uid'], keyDefaults: { uid: '' } });
    expect(shape(at(deployment, 'metadata.ownerReferences[]'))).toEqual(ATOMIC_MAP);
  });

  test('a ConfigMap\'s data is a granular map of scalars', () => {
    const configMap = topologyOf('v1', 'ConfigMap');
    expect(shape(configMap.field('data'))).toEqual(GRANULAR_MAP);
    expect(configMap.field('data').field('index.html')).toBe(SCALAR);
  });

  test('known scalar fields are scalars, int-or-string and quantities included', () => {
    expect(at(deployment, 'spec.replicas')).toBe(SCALAR);
    expect(at(deployment, 'spec.strategy.rollingUpdate.maxSurge')).toBe(SCALAR);
    expect(at(podSpec, 'containers[].resources.limits.cpu')).toBe(SCALAR);
  });

  test('an unknown field is deduced: maps granular, lists atomic', () => {
    expect(at(deployment, 'spec.notAField')).toBe(DEDUCED);
    expect(shape(at(deployment, 'spec.notAField'))).toEqual(DEDUCED_SHAPE);
    expect(at(deployment, 'spec.notAField.deeper')).toBe(DEDUCED);
    expect(at(deployment, 'spec.notAField[]')).toBe(UNTYPED_ATOMIC);
  });

  test('property names of Object.prototype are unknown fields, not schema entries', () => {
    expect(at(deployment, 'spec.constructor')).toBe(DEDUCED);
    expect(at(deployment, 'spec.__proto__')).toBe(DEDUCED);
    expect(at(deployment, 'spec.toString')).toBe(DEDUCED);
  });

  test('a per-use override makes a PersistentVolume\'s claimRef granular while ObjectReference is atomic elsewhere', () => {
    expect(shape(at(topologyOf('v1', 'PersistentVolume'), 'spec.claimRef'))).toEqual(GRANULAR_MAP);
    expect(shape(at(topologyOf('v1', 'Event'), 'involvedObject'))).toEqual(ATOMIC_MAP);
  });

  test('an Ingress\'s rules and a Role\'s rules are atomic lists', () => {
    expect(shape(at(topologyOf('networking.k8s.io/v1', 'Ingress'), 'spec.rules'))).toEqual(ATOMIC_LIST);
    expect(shape(at(topologyOf('rbac.authorization.k8s.io/v1', 'Role'), 'rules'))).toEqual(ATOMIC_LIST);
  });

  test('a Pod has the same pod spec topology as a Deployment\'s template', () => {
    expect(topologyOf('v1', 'Pod').field('spec')).toBe(podSpec);
  });
});

describe('lookups by group and kind', () => {
  test('the API version is ignored: apps/v1beta2 and apps/v1 Deployments share one topology', () => {
    expect(topologyOf('apps/v1beta2', 'Deployment')).toBe(deployment);
    expect(topologyOf('apps/v1beta1', 'Deployment')).toBe(deployment);
  });

  test('a kind served in several versions uses the newest: autoscaling/v1 HPAs get v2\'s metrics list', () => {
    expect(shape(at(topologyOf('autoscaling/v1', 'HorizontalPodAutoscaler'), 'spec.metrics'))).toEqual(ATOMIC_LIST);
  });

  test('the group still counts: extensions/v1beta1 Deployments are not apps Deployments', () => {
    expect(topologyOf('extensions/v1beta1', 'Deployment')).not.toBe(deployment);
  });

  test('a node is made once: the same path gives the same object', () => {
    expect(at(topologyOf('apps/v1', 'Deployment'), 'spec.template.spec.containers[].ports')).toBe(at(podSpec, 'containers[].ports'));
  });

  test.each([
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    ['apiregistration.k8s.io/v1', 'APIService'],
    ['authentication.k8s.io/v1', 'TokenReview'],
  ])('%s %s, absent from the 1.30 schema, is an object without a schema', (apiVersion, kind) => {
    const root = topologyOf(apiVersion, kind);
    expect(shape(root)).toEqual(GRANULAR_MAP);
    expect(at(root, 'metadata')).toBe(at(deployment, 'metadata'));
    expect(at(root, 'spec')).toBe(DEDUCED);
  });
});

describe('a custom resource whose CRD is not in the composition', () => {
  const widget = topologyOf('example.com/v1', 'Widget');

  test('its metadata is ObjectMeta: labels per key, finalizers a set, ownerReferences by uid', () => {
    expect(shape(at(widget, 'metadata.labels'))).toEqual(GRANULAR_MAP);
    expect(shape(at(widget, 'metadata.finalizers'))).toEqual({ type: 'list', atomic: false, listType: 'set' });
    expect(at(widget, 'metadata.ownerReferences').keys).toEqual(['uid']);
  });

  test('apiVersion and kind are scalars, everything else deduced: maps granular, lists atomic', () => {
    expect(at(widget, 'kind')).toBe(SCALAR);
    expect(at(widget, 'spec')).toBe(DEDUCED);
    expect(at(widget, 'spec.routes')).toBe(DEDUCED);
    expect(at(widget, 'spec.routes').listType).toBe('atomic');
    expect(shape(at(widget, 'spec.routes[]'))).toEqual({ type: 'deduced', atomic: true, listType: 'atomic' });
  });

  test('the API version is ignored', () => {
    expect(topologyOf('example.com/v1alpha1', 'Widget')).toBe(widget);
  });
});

describe('the generated schema data', () => {
  const committed = path.join(__dirname, '..', OUTPUT);

  test('regenerating from the SMD schema gives the committed bytes', () => {
    const schema = schemaPath();
    expect(fs.existsSync(schema) ? schema : `no schema at ${schema}: set K8S_SMD_SCHEMA`).toBe(schema);
    expect(renderTopology(fs.readFileSync(schema, 'utf8'))).toBe(fs.readFileSync(committed, 'utf8'));
  });

  test('the generated file stays compact', () => {
    expect(fs.statSync(committed).size).toBeLessThan(150_000);
  });

  test('its header names the provenance and says not to edit it', () => {
    const header = fs.readFileSync(committed, 'utf8').split('\n').slice(0, 4).join('\n');
    expect(header).toMatch(/Generated by scripts\/generate-k8s-topology\.ts/);
    expect(header).toMatch(/Do not edit/);
    expect(header).toMatch(/kubernetes\/client-go v0\.30\.14, applyconfigurations\/internal\/internal\.go/);
  });

  test('API versions sort newest first: GA, then beta, then alpha', () => {
    expect(['v1beta1', 'v1', 'v2beta2', 'v1alpha1', 'v2', 'v1beta2'].sort(compareApiVersions)).toEqual(['v2', 'v1', 'v2beta2', 'v1beta2', 'v1beta1', 'v1alpha1']);
  });

  test('OpenAPI type names map to group, version and kind, apiextensions and kube-aggregator included', () => {
    expect(kindOfTypeName('io.k8s.api.core.v1.Pod')).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(kindOfTypeName('io.k8s.api.networking.v1.Ingress')).toEqual({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' });
    expect(kindOfTypeName('io.k8s.api.rbac.v1.Role')).toEqual({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' });
    expect(kindOfTypeName('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'))
      .toEqual({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' });
    expect(kindOfTypeName('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService'))
      .toEqual({ group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService' });
    expect(kindOfTypeName('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')).toBeUndefined();
  });
});

describe('topology data of another schema (schemaTopology)', () => {
  test('a use that makes a keyed list atomic wins over the list\'s keys, as in structured-merge-diff', () => {
    // GIVEN a keyed list type, used once plainly and once with elementRelationship: atomic
    const data = {
      kinds: { '/holder': 'holder' },
      types: {
        holder: { fields: { plain: 'keyedList', atomicUse: { type: 'keyedList', atomic: true } } },
        keyedList: { list: 'thing', keys: ['a'] },
        thing: { scalars: 'a b' },
      },
    };

    // WHEN
    const holder = schemaTopology(data, '/holder')!;

    // THEN
    expect(shape(holder.field('plain'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['a'] });
    expect(shape(holder.field('atomicUse'))).toEqual(ATOMIC_LIST);
    expect(schemaTopology(data, '/nothing')).toBeUndefined();
  });
});
