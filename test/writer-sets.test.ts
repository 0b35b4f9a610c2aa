/**
 * `WriterSets.declared` follows a manifest's leaves down a trie of the lists of leaves seen before (`visitLeaves`,
 * no leaf made) and makes sets only for a list it has not seen: held here to the general path, the sets of
 * `ownedLeaves` made by `toFieldsV1`, for many manifests of one release in turn (so that most are found in the trie),
 * and through `lockedWritersOf`, which gives it a manifest without its `status`.
 */
import * as fc from 'fast-check';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { lockedWritersOf } from '../src/cluster/object-writers';
import { WriterSets } from '../src/cluster/writer-sets';
import type { ObjectFact } from '../src/collect/facts';
import { ownedLeaves } from '../src/collect/ledger/leaves';
import { topologyOfManifest } from '../src/collect/ledger/runtime-writes';
import { CrdTopologies } from '../src/collect/topology/crd-topology';

/** A CRD whose spec holds a keyed list, a set, an atomic list and a free map: custom kinds follow its markers. */
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Gadget', plural: 'gadgets' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  parts: {
                    'type': 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    'items': { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
                  },
                  tags: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
                  steps: { type: 'array', items: { type: 'string' } },
                  extra: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    ],
  },
};
const CRDS = CrdTopologies.fromManifests([CRD]);

/** Few names, so that manifests repeat each other's lists of leaves, or almost. */
const name = fc.constantFrom('a', 'b', 'web', '', 'k:x', 'i:0', '.', '\ud83d\ude00');
const scalar = fc.oneof(name, fc.constantFrom(0, 1, 1.5, true, false, null));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 2 }), fc.dictionary(name, tie('value'), { maxKeys: 2 })),
})).value;
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const map = fc.dictionary(name, fc.oneof(name, fc.constant(undefined)), { maxKeys: 3 });
const port = fc.record({ containerPort: maybe(fc.constantFrom(80, 443)), protocol: maybe(fc.constantFrom('TCP', 'UDP')), name: maybe(name) }, { requiredKeys: [] });
const env = fc.record({ name, value: maybe(name) }, { requiredKeys: ['name'] });
const container = fc.record(
  {
    name: maybe(name),
    image: maybe(name),
    ports: maybe(fc.array(port, { maxLength: 2 })),
    command: maybe(fc.array(name, { maxLength: 2 })),
    env: maybe(fc.array(env, { maxLength: 2 })),
  },
  { requiredKeys: [] },
);
const metadata = fc.record(
  { name: maybe(name), namespace: maybe(name), labels: maybe(map), annotations: maybe(map), finalizers: maybe(fc.array(name, { maxLength: 2 })) },
  { requiredKeys: [] },
);

const podSpec = fc.record({ containers: maybe(fc.array(container, { maxLength: 2 })), nodeSelector: maybe(map) }, { requiredKeys: [] });

/** Manifests of a built-in kind with keyed lists, sets and atomic values, of ConfigMaps, of a CRD's kind, and of unknown kinds. */
const manifest: fc.Arbitrary<any> = fc.oneof(
  fc.record({
    apiVersion: fc.constant('apps/v1'),
    kind: fc.constant('Deployment'),
    metadata,
    spec: maybe(
      fc.record(
        {
          replicas: maybe(fc.constantFrom(1, 2)),
          selector: maybe(fc.record({ matchLabels: map })),
          template: maybe(fc.record({ metadata: maybe(metadata), spec: maybe(podSpec) }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
    ),
    status: maybe(value),
  }),
  fc.record({ apiVersion: fc.constant('v1'), kind: fc.constant('ConfigMap'), metadata, data: maybe(map), binaryData: maybe(value) }),
  fc.record({
    apiVersion: fc.constant('example.com/v1'),
    kind: fc.constant('Gadget'),
    metadata,
    spec: maybe(
      fc.record(
        {
          parts: maybe(fc.array(fc.record({ name: maybe(name), size: maybe(fc.constantFrom(1, 2)) }, { requiredKeys: [] }), { maxLength: 2 })),
          tags: maybe(fc.array(scalar, { maxLength: 2 })),
          steps: maybe(fc.array(name, { maxLength: 2 })),
          extra: maybe(map),
        },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.record({ apiVersion: fc.constantFrom('v1', 'other.io/v1'), kind: fc.constantFrom('Thing', 'Service'), metadata: maybe(metadata), spec: maybe(value) }),
);

/** The sets of a manifest's leaves as the general path makes them: `ownedLeaves`, then `toFieldsV1` of all and of the presence leaves. */
function expectedSets(m: unknown, crds: CrdTopologies): string {
  const leaves = ownedLeaves(m, topologyOfManifest(m, crds));
  const presence = leaves.filter((l) => l.presence).map((l) => l.path);
  return JSON.stringify({ fields: toFieldsV1(leaves.map((l) => l.path)), ...(presence.length > 0 ? { presence: toFieldsV1(presence) } : {}) });
}

describe('the sets of a declared manifest, made once per list of leaves (WriterSets.declared)', () => {
  test('each manifest of a release gets the sets toFieldsV1 makes of its own leaves, whatever came before it', () => {
    fc.assert(
      fc.property(fc.array(manifest, { minLength: 1, maxLength: 12 }), (manifests) => {
        // GIVEN one release's shared sets
        const sets = WriterSets.shared();
        for (const m of manifests) {
          // WHEN each manifest's sets are asked for, in turn (again for the first ones, found in the trie)
          const found = sets.declared(m, topologyOfManifest(m, CRDS));
          // THEN they are the sets of its own leaves, presence leaves apart
          expect(JSON.stringify(found)).toBe(expectedSets(m, CRDS));
        }
        for (const m of manifests) expect(JSON.stringify(sets.declared(m, topologyOfManifest(m, CRDS)))).toBe(expectedSets(m, CRDS));
      }),
      { numRuns: 1_000, seed: 20261207 },
    );
  });

  test('two ConfigMaps with the same keys share one set; a key more or a presence leaf makes another', () => {
    // GIVEN one release's shared sets and three ConfigMaps
    const sets = WriterSets.shared();
    const cm = (data: unknown) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'y' }, data });
    const topology = topologyOfManifest(cm({}));
    // WHEN the sets of each are asked for
    const first = sets.declared(cm({ a: '1', b: '2' }), topology);
    const second = sets.declared(cm({ a: '3', b: '4' }), topology);
    const more = sets.declared(cm({ a: '1', b: '2', c: '3' }), topology);
    const empty = sets.declared(cm({}), topology);
    // THEN the first two are one record, and the others are their own
    expect(second).toBe(first);
    expect(first).toEqual({ fields: { 'f:data': { 'f:a': {}, 'f:b': {} } } });
    expect(more).toEqual({ fields: { 'f:data': { 'f:a': {}, 'f:b': {}, 'f:c': {} } } });
    expect(empty).toEqual({ fields: { 'f:data': {} }, presence: { 'f:data': {} } });
  });

  test('an object only its declarer writes is recorded with the sets of its manifest without status, its manager named after it', () => {
    fc.assert(
      fc.property(fc.array(manifest, { minLength: 1, maxLength: 8 }), (manifests) => {
        // GIVEN one release's shared sets and objects that no other writer writes
        const sets = WriterSets.shared();
        manifests.forEach((m, i) => {
          const object = { declarer: `app/Chart/Obj${i}`, manifest: m } as unknown as ObjectFact;
          // WHEN the lock's writers of each are made
          const writers = lockedWritersOf(object, [], topologyOfManifest(m, CRDS), new Map(), sets);
          // THEN the declarer owns every leaf of the manifest but its status
          const { status: _status, ...withoutStatus } = m;
          const expected = JSON.parse(expectedSets(withoutStatus, CRDS));
          expect(writers).toEqual([{ writer: `app/Chart/Obj${i}`, kind: 'declaration', manager: `cdk-capability:app/Chart/Obj${i}`, ...expected }]);
        });
      }),
      { numRuns: 1_000, seed: 20261208 },
    );
  });
});
