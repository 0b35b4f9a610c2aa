import { crdWithSpec } from './util';
import { CrdTopologies } from '../src/collect/topology/crd-topology';
import { DEDUCED, topologyOf } from '../src/collect/topology/field-topology';
import { elementKeyOf, elementSegments, listTypeOf, missingKeysOf, topologyAt } from '../src/collect/topology/list-topology';

/** A CRD whose `endpoints` list is keyed by `host` and `port`, neither with a default. */
const ENDPOINTS = CrdTopologies.fromManifests([crdWithSpec('Mesh', {
  endpoints: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['host', 'port'],
    'items': { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' }, weight: { type: 'integer' } } },
  },
})]);
const endpoints = () => topologyOf('example.com/v1', 'Mesh', ENDPOINTS).field('spec').field('endpoints');

const podSpec = () => topologyOf('apps/v1', 'Deployment').field('spec').field('template').field('spec');

describe('list topology helpers', () => {
  test('elementSegments names keyed elements by key, set values by value, and keeps indexes where no key tells elements apart', () => {
    // GIVEN containers (keyed by name), finalizers (a set), args (atomic)
    const containers = podSpec().field('containers');
    const finalizers = topologyOf('v1', 'ConfigMap').field('metadata').field('finalizers');

    // WHEN / THEN
    expect(elementSegments([{ name: 'a' }, { name: 'b' }], containers, false)).toEqual(['k:{"name":"a"}', 'k:{"name":"b"}']);
    expect(elementSegments([{ name: 'a' }, { name: 'a' }], containers, false)).toEqual([0, 1]);
    expect(elementSegments([{ name: 'a' }], containers, true)).toEqual([0]);
    expect(elementSegments(['x/p'], finalizers, false)).toEqual(['v:"x/p"']);
    expect(elementSegments(['--a', '--b'], containers.element().field('args'), false)).toEqual([0, 1]);
  });

  test('listTypeOf reads a keyed list, a set and an atomic list off the built-in schema', () => {
    // GIVEN
    const spec = podSpec();

    // WHEN / THEN
    expect(listTypeOf(spec.field('containers'))).toBe('associative');
    expect(listTypeOf(topologyOf('v1', 'ConfigMap').field('metadata').field('finalizers'))).toBe('set');
    expect(listTypeOf(spec.field('tolerations'))).toBe('atomic');
    expect(listTypeOf(spec.field('containers').element().field('command'))).toBe('atomic');
  });

  test('listTypeOf calls a deduced node and a map atomic', () => {
    // GIVEN / WHEN / THEN
    expect(listTypeOf(DEDUCED)).toBe('atomic');
    expect(listTypeOf(podSpec().field('nodeSelector'))).toBe('atomic');
  });

  test('elementKeyOf fills in a key default (the built-in schema has one for every key) and spells a missing key without one as null', () => {
    // GIVEN container ports, keyed by containerPort and protocol (default TCP)
    const ports = podSpec().field('containers').element().field('ports');

    // WHEN / THEN
    expect(elementKeyOf({ containerPort: 80 }, ports)).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(elementKeyOf({ containerPort: 53, protocol: 'UDP', name: 'dns' }, ports)).toBe('k:{"containerPort":53,"protocol":"UDP"}');
    expect(elementKeyOf({ name: 'x' }, podSpec().field('containers'))).toBe('k:{"name":"x"}');
    expect(elementKeyOf({ image: 'nginx' }, podSpec().field('containers'))).toBe('k:{"name":""}');
    expect(elementKeyOf({ host: 'b' }, endpoints())).toBe('k:{"host":"b","port":null}');
  });

  test('missingKeysOf names the key fields an element lacks that have no default', () => {
    // GIVEN a CRD list keyed by host and port, and the built-in container ports
    const ports = podSpec().field('containers').element().field('ports');

    // WHEN / THEN
    expect(missingKeysOf({ host: 'b' }, endpoints())).toEqual(['port']);
    expect(missingKeysOf({ weight: 1 }, endpoints())).toEqual(['host', 'port']);
    expect(missingKeysOf({ host: 'a', port: 80 }, endpoints())).toEqual([]);
    expect(missingKeysOf({ name: 'http' }, ports)).toEqual([]); // the schema defaults containerPort to 0 and protocol to TCP
  });

  test('topologyAt steps through map keys, element keys and set values', () => {
    // GIVEN / WHEN
    const image = topologyAt(topologyOf('apps/v1', 'Deployment'), ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image']);

    // THEN
    expect(image.type).toBe('scalar');
  });
});
