import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { CrdTopologies } from '../src/collect/topology/crd-topology';
import { DEDUCED, FieldTopology, SCALAR, SCHEMALESS_OBJECT, topologyOf, UNTYPED_ATOMIC } from '../src/collect/topology/field-topology';

/** The node at a dotted path; `[]` steps into list elements (`spec.rules[].matches`). */
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

const ATOMIC_LIST = { type: 'list', atomic: true, listType: 'atomic' };
const SET = { type: 'list', atomic: false, listType: 'set' };
const GRANULAR_MAP = { type: 'map', atomic: false };
const ATOMIC_MAP = { type: 'map', atomic: true };

/** A CRD for `example.com` Widgets whose storage version `v1` has `spec`; `v1alpha1` (served, not stored) differs. */
function widgetCrd(spec: Record<string, unknown>, group = 'example.com'): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      names: { kind: 'Widget', plural: 'widgets' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } } } } },
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { metadata: { type: 'object' }, spec: { type: 'object', properties: spec } } } } },
      ],
    },
  };
}

const MARKERS = widgetCrd({
  plain: { type: 'array', items: { type: 'string' } },
  atomicList: { 'type': 'array', 'x-kubernetes-list-type': 'atomic', 'items': { type: 'object', properties: { a: { type: 'string' } } } },
  tags: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
  ports: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['port', 'protocol'],
    'items': {
      type: 'object',
      required: ['port'],
      properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } },
    },
  },
  atomicMap: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'properties': { a: { type: 'string' } } },
  granularMap: { 'type': 'object', 'x-kubernetes-map-type': 'granular', 'additionalProperties': { type: 'string' } },
  settings: { type: 'object', additionalProperties: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } } },
  anything: { type: 'object', additionalProperties: true },
  freeform: { type: 'object' },
  raw: { 'x-kubernetes-preserve-unknown-fields': true },
  open: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'properties': { known: { type: 'integer' } } },
  template: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  port: { 'x-kubernetes-int-or-string': true },
  untypedItems: { type: 'array' },
});

const crds = CrdTopologies.fromManifests([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, MARKERS]);
const widget = topologyOf('example.com/v1', 'Widget', crds);

describe('custom resources, from their CRD\'s schema markers', () => {
  test('a list without a marker is atomic (SSA\'s default for CRDs)', () => {
    expect(shape(at(widget, 'spec.plain'))).toEqual(ATOMIC_LIST);
  });

  test('x-kubernetes-list-type: atomic is an atomic list', () => {
    expect(shape(at(widget, 'spec.atomicList'))).toEqual(ATOMIC_LIST);
  });

  test('x-kubernetes-list-type: set is a set of its scalars', () => {
    expect(shape(at(widget, 'spec.tags'))).toEqual(SET);
    expect(at(widget, 'spec.tags[]')).toBe(SCALAR);
  });

  test('x-kubernetes-list-type: map is keyed by x-kubernetes-list-map-keys, with the key properties\' defaults', () => {
    expect(shape(at(widget, 'spec.ports'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } });
    expect(at(widget, 'spec.ports[].name')).toBe(SCALAR);
  });

  test('x-kubernetes-map-type: atomic is one leaf, granular is per key', () => {
    expect(shape(at(widget, 'spec.atomicMap'))).toEqual(ATOMIC_MAP);
    expect(shape(at(widget, 'spec.granularMap'))).toEqual(GRANULAR_MAP);
    expect(at(widget, 'spec.granularMap.anyKey')).toBe(SCALAR);
  });

  test('an object without a marker is granular', () => {
    expect(shape(at(widget, 'spec'))).toEqual(GRANULAR_MAP);
  });

  test('additionalProperties gives every key its schema', () => {
    expect(shape(at(widget, 'spec.settings.a'))).toEqual(GRANULAR_MAP);
    expect(shape(at(widget, 'spec.settings.b.items'))).toEqual(ATOMIC_LIST);
  });

  test('additionalProperties: true, and an object with neither properties nor additionalProperties, have deduced values', () => {
    expect(at(widget, 'spec.anything.x')).toBe(DEDUCED);
    expect(at(widget, 'spec.freeform.x')).toBe(DEDUCED);
  });

  test('x-kubernetes-preserve-unknown-fields without a type is deduced; with properties, unknown fields are deduced', () => {
    expect(at(widget, 'spec.raw')).toBe(DEDUCED);
    expect(at(widget, 'spec.open.known')).toBe(SCALAR);
    expect(at(widget, 'spec.open.unknown')).toBe(DEDUCED);
  });

  test('x-kubernetes-embedded-resource has its own apiVersion, kind and ObjectMeta metadata', () => {
    expect(at(widget, 'spec.template.kind')).toBe(SCALAR);
    expect(at(widget, 'spec.template.metadata')).toBe(at(topologyOf('apps/v1', 'Deployment'), 'metadata'));
    expect(shape(at(widget, 'spec.template.metadata.finalizers'))).toEqual(SET);
    expect(at(widget, 'spec.template.spec')).toBe(DEDUCED);
  });

  test('x-kubernetes-int-or-string is a scalar', () => {
    expect(at(widget, 'spec.port')).toBe(SCALAR);
  });

  test('an array without items has untyped atomic elements', () => {
    expect(shape(at(widget, 'spec.untypedItems'))).toEqual(ATOMIC_LIST);
    expect(at(widget, 'spec.untypedItems[]')).toBe(UNTYPED_ATOMIC);
  });

  test('the root\'s metadata is ObjectMeta whatever the CRD says of it, and apiVersion and kind are scalars', () => {
    expect(at(widget, 'metadata.ownerReferences').keys).toEqual(['uid']);
    expect(shape(at(widget, 'metadata.labels'))).toEqual(GRANULAR_MAP);
    expect(at(widget, 'apiVersion')).toBe(SCALAR);
  });

  test('unknown fields are deduced', () => {
    expect(at(widget, 'spec.notInSchema')).toBe(DEDUCED);
    expect(at(widget, 'spec.constructor')).toBe(DEDUCED);
  });
});

describe('CrdTopologies', () => {
  test('the storage version\'s schema is used, whatever apiVersion the object names', () => {
    expect(topologyOf('example.com/v1alpha1', 'Widget', crds)).toBe(widget);
    expect(shape(at(widget, 'spec.tags'))).toEqual(SET); // v1alpha1 has no set marker on tags
  });

  test('reads only CustomResourceDefinitions of apiextensions.k8s.io', () => {
    const fake = { ...widgetCrd({}, 'fake.example.com'), apiVersion: 'example.com/v1' };
    expect(CrdTopologies.fromManifests([fake, MARKERS]).kinds).toEqual(['example.com/Widget']);
  });

  test('a kind that no CRD defines is not found', () => {
    expect(crds.topologyOf('example.com', 'Gadget')).toBeUndefined();
    expect(topologyOf('example.com/v1', 'Gadget', crds)).toBe(SCHEMALESS_OBJECT);
  });

  test('the first CRD of a group and kind wins', () => {
    const second = widgetCrd({ plain: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } } });
    expect(shape(at(topologyOf('example.com/v1', 'Widget', CrdTopologies.fromManifests([MARKERS, second])), 'spec.plain'))).toEqual(ATOMIC_LIST);
  });

  test('a CRD without a schema gives the topology of an object without a schema', () => {
    const crd = widgetCrd({});
    (crd.spec as any).versions = [{ name: 'v1', served: true, storage: true }];
    expect(topologyOf('example.com/v1', 'Widget', CrdTopologies.fromManifests([crd]))).toBe(SCHEMALESS_OBJECT);
  });

  test('built-in kinds are not looked up in the CRDs', () => {
    expect(topologyOf('apps/v1', 'Deployment', crds)).toBe(topologyOf('apps/v1', 'Deployment'));
  });
});

describe('the Gateway API HTTPRoute CRD (its real markers)', () => {
  const file = path.resolve(__dirname, '..', process.env.CRDS_DIR ?? 'vendor/crds', 'gateway-api.httproutes.yaml');
  let parsed: FieldTopology | undefined;
  const route = (): FieldTopology => {
    parsed ??= topologyOf('gateway.networking.k8s.io/v1', 'HTTPRoute', CrdTopologies.fromManifests([parse(fs.readFileSync(file, 'utf8'))]));
    return parsed;
  };

  test('spec.parentRefs, spec.rules and spec.hostnames are atomic lists', () => {
    const r = route();
    expect(shape(at(r, 'spec.parentRefs'))).toEqual(ATOMIC_LIST);
    expect(shape(at(r, 'spec.rules'))).toEqual(ATOMIC_LIST);
    expect(shape(at(r, 'spec.hostnames'))).toEqual(ATOMIC_LIST);
  });

  test('inside a rule, header matches are keyed by name and CORS methods are a set', () => {
    const r = route();
    expect(shape(at(r, 'spec.rules[].matches[].headers'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['name'] });
    expect(shape(at(r, 'spec.rules[].filters[].cors.allowMethods'))).toEqual(SET);
    expect(shape(at(r, 'spec.rules[].filters[].requestHeaderModifier.set'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['name'] });
  });

  test('status.parents is atomic and its conditions are keyed by type', () => {
    const r = route();
    expect(shape(at(r, 'status.parents'))).toEqual(ATOMIC_LIST);
    expect(shape(at(r, 'status.parents[].conditions'))).toEqual({ type: 'list', atomic: false, listType: 'associative', keys: ['type'] });
  });
});
