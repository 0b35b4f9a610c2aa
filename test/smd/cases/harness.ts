/**
 * Our own cases on the harness itself: the schema rewrite for the per-use `elementRelationship` form, types a
 * case adds (a custom resource), and errors reported per case.
 */
import type { SmdTestCase } from './smd-test-case';

/**
 * A per-use relationship on a map and on a list, in the form SMD 4.1.2 cannot parse: `atomicUse` makes a
 * granular struct atomic, `granularUse` makes an atomic struct granular, `atomicList` makes a keyed list atomic.
 */
const OVERRIDES_SCHEMA = `types:
- name: holder
  map:
    fields:
    - name: atomicUse
      type: {namedType: granularThing, elementRelationship: atomic}
    - name: granularUse
      type: {namedType: atomicThing, elementRelationship: separable}
    - name: plainUse
      type: {namedType: granularThing}
    - name: atomicList
      type: {namedType: keyedList, elementRelationship: atomic}
- name: granularThing
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: b, type: {scalar: string}}
- name: atomicThing
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: b, type: {scalar: string}}
    elementRelationship: atomic
- name: keyedList
  list:
    elementType: {namedType: granularThing}
    elementRelationship: associative
    keys: [a]
`;

/**
 * `example.com/v1 Widget` as the API server would see a CRD with list and map markers: `items` is
 * `x-kubernetes-list-type: map` keyed by name, `tags` has no marker (atomic, the CRD default), `config` is a
 * granular map, `selector` is `x-kubernetes-map-type: atomic`. Metadata is the built-in ObjectMeta.
 */
export const WIDGET_SCHEMA = `types:
- name: com.example.v1.Widget
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: spec, type: {namedType: com.example.v1.WidgetSpec}}
- name: com.example.v1.WidgetSpec
  map:
    fields:
    - name: items
      type:
        list:
          elementType: {namedType: com.example.v1.WidgetItem}
          elementRelationship: associative
          keys: [name]
    - name: tags
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: config
      type:
        map:
          elementType: {scalar: string}
    - name: selector
      type:
        map:
          elementType: {scalar: string}
          elementRelationship: atomic
- name: com.example.v1.WidgetItem
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: size, type: {scalar: numeric}}
`;

const widget = { schema: WIDGET_SCHEMA, typeName: 'com.example.v1.Widget', apiVersion: 'example.com/v1' };

export const HARNESS_CASES: readonly SmdTestCase[] = [
  {
    name: 'the rewritten base schema keeps PersistentVolume.spec.claimRef granular (the one per-use override in 1.30)',
    provenance: 'own: claimRef is {namedType: ObjectReference, elementRelationship: separable}',
    typeName: 'io.k8s.api.core.v1.PersistentVolume',
    applies: [
      { manager: 'team-a', object: { spec: { claimRef: { name: 'data' } } } },
      { manager: 'team-b', object: { spec: { claimRef: { namespace: 'prod' } } } },
    ],
    expected: {
      conflicts: [[], []],
      fields: { 'team-a': ['.spec.claimRef.name'], 'team-b': ['.spec.claimRef.namespace'] },
    },
  },
  {
    name: 'other uses of ObjectReference stay atomic (Event.involvedObject)',
    provenance: 'own: ObjectReference is an atomic struct; only claimRef overrides it',
    typeName: 'io.k8s.api.core.v1.Event',
    applies: [
      { manager: 'team-a', object: { involvedObject: { name: 'data' } } },
      { manager: 'team-b', object: { involvedObject: { namespace: 'prod' } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.involvedObject' }]],
      fields: { 'team-a': ['.involvedObject'] },
    },
  },
  {
    name: "a case schema's per-use overrides make a granular struct atomic, an atomic struct granular, a keyed list atomic",
    provenance: 'own: the rewrite applied to a case schema',
    schema: OVERRIDES_SCHEMA,
    typeName: 'holder',
    applies: [
      { manager: 'team-a', object: { atomicUse: { a: '1' }, granularUse: { a: '1' }, plainUse: { a: '1' }, atomicList: [{ a: 'x' }] } },
      { manager: 'team-b', object: { atomicUse: { b: '2' }, granularUse: { b: '2' }, plainUse: { b: '2' }, atomicList: [{ a: 'y' }] } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.atomicList' }, { manager: 'team-a', path: '.atomicUse' }]],
      fields: { 'team-a': ['.atomicList', '.atomicUse', '.granularUse.a', '.plainUse.a'] },
    },
  },
  {
    name: 'a custom resource from a case schema: keyed items, an atomic list, a granular map, an atomic map, built-in metadata',
    provenance: 'own: a CRD with x-kubernetes-list-type/map-type markers, written by hand as SMD types',
    ...widget,
    applies: [
      {
        manager: 'team-a',
        object: { metadata: { labels: { team: 'a' } }, spec: { items: [{ name: 'x', size: 1 }], tags: ['a'], config: { a: '1' }, selector: { app: 'a' } } },
      },
      {
        manager: 'team-b',
        object: { metadata: { labels: { env: 'prod' } }, spec: { items: [{ name: 'y', size: 2 }], tags: ['b'], config: { b: '2' }, selector: { app: 'b' } } },
      },
      { manager: 'team-b', object: { metadata: { labels: { env: 'prod' } }, spec: { items: [{ name: 'y', size: 2 }], config: { b: '2' } } } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'team-a', path: '.spec.selector' }, { manager: 'team-a', path: '.spec.tags' }], []],
      leaves: {
        'team-a': ['.metadata.labels.team', '.spec.config.a', '.spec.items[name="x"].name', '.spec.items[name="x"].size', '.spec.selector', '.spec.tags'],
        'team-b': ['.metadata.labels.env', '.spec.config.b', '.spec.items[name="y"].name', '.spec.items[name="y"].size'],
      },
      object: {
        metadata: { labels: { team: 'a', env: 'prod' } },
        spec: { items: [{ name: 'x', size: 1 }, { name: 'y', size: 2 }], tags: ['a'], config: { a: '1', b: '2' }, selector: { app: 'a' } },
      },
    },
  },
  {
    name: 'two conflicts with one manager under one prefix are both reported whole (SMD 4.1.2 reused the path buffer)',
    provenance: 'own: the oracle builds SMD with ConflictsFromManagers copying each path, as newer SMD does',
    typeName: 'io.k8s.api.apps.v1.Deployment',
    apiVersion: 'apps/v1',
    applies: [
      { manager: 'team-a', object: { spec: { template: { spec: { containers: [{ name: 'sidecar', args: ['-a'] }], serviceAccountName: 'a' } } } } },
      {
        manager: 'team-b',
        object: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'sidecar', args: ['-b'] }], serviceAccountName: 'b' } } } },
      },
    ],
    expected: {
      conflicts: [
        [],
        [
          { manager: 'team-a', path: '.spec.template.spec.containers[name="sidecar"].args' },
          { manager: 'team-a', path: '.spec.template.spec.serviceAccountName' },
        ],
      ],
    },
  },
  {
    name: 'a case schema that is not YAML is an error of that case',
    provenance: 'own: errors are per case',
    schema: 'types: [',
    typeName: 'holder',
    applies: [{ manager: 'team-a', object: {} }],
    expected: { error: /^case schema: schema is not YAML/ },
  },
  {
    name: 'a per-use relationship on a scalar type is an error of that case',
    provenance: 'own: newer SMD cannot resolve such a reference either',
    schema: 'types:\n- name: holder\n  map:\n    fields:\n    - {name: s, type: {namedType: str, elementRelationship: atomic}}\n- name: str\n  scalar: string\n',
    typeName: 'holder',
    applies: [{ manager: 'team-a', object: {} }],
    expected: { error: /elementRelationship "atomic" on a reference to "str", which is neither a map nor a list/ },
  },
  {
    name: 'an object that does not match the schema is an error of that case, after the writes before it',
    provenance: 'own: errors are per case',
    typeName: 'io.k8s.api.apps.v1.Deployment',
    applies: [
      { manager: 'team-a', object: { spec: { replicas: 2 } } },
      { manager: 'team-b', object: { spec: { replicas: 'two' } } },
    ],
    expected: { conflicts: [[]], error: /^applies\[1\] \(team-b\): object does not match the schema: \.spec\.replicas: expected numeric/ },
  },
  {
    name: 'a type the schema does not have is an error of that case',
    provenance: 'own: errors are per case',
    typeName: 'io.k8s.api.apps.v1.NoSuchKind',
    applies: [{ manager: 'team-a', object: {} }],
    expected: { error: /^type "io\.k8s\.api\.apps\.v1\.NoSuchKind" is not in the schema$/ },
  },
];
