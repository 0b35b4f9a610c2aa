/**
 * `sharedFieldsV1` builds the set of one shape of list once and renames its keyed elements and set values for the
 * other lists of that shape (a Deployment's container named after its tenant): held here to the general path,
 * `toFieldsV1`, and to `serializeFieldsV1` (byte for byte structured-merge-diff's `Set.ToJSON`, test/fields-v1.test.ts).
 */
import * as fc from 'fast-check';
import { serializeFieldsV1, sharedFieldsV1, toFieldsV1 } from '../src/cluster/fields-v1';

/** Field names and indexes, which a shape keeps as they are. */
const FIELDS = ['a', 'b', 'spec', '', 'i:0', 'i:1', 'k:', 'k:{bad', 'v:', '\ud83d\ude00', '\ue000'];

/**
 * Keyed elements and set values, which a shape renames: some spelled two ways (keys in another order, `1` and
 * `1.0`), some ordered otherwise by code unit than by code point (a surrogate pair against U+E000).
 */
const ELEMENTS = [
  'k:{"name":"a"}',
  'k:{"name":"b"}',
  'k:{"name":"a","port":80}',
  'k:{"port":80,"name":"a"}',
  'k:{"name":"\ud83d\ude00"}',
  'k:{"name":"\ue000"}',
  'k:{"name":"<&>"}',
  'v:"a"',
  'v:"b"',
  'v:1',
  'v:1.0',
  'v:null',
  'v:{"b":1,"a":2}',
  'v:{"a":2,"b":1}',
];

/** A segment of a list of one shape: a field as it is, or the hole a list fills with an element. */
type Slot = { readonly field: string } | { readonly hole: number };

const slot: fc.Arbitrary<Slot> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FIELDS).map((field) => ({ field })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 3 }).map((hole) => ({ hole })) },
);

/** Lists of one shape (paths of slots), each filled with its own elements. */
const listsOfOneShape = fc.tuple(
  fc.array(fc.array(slot, { maxLength: 4 }), { maxLength: 8 }),
  fc.array(fc.array(fc.constantFrom(...ELEMENTS), { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
);

function filled(shape: readonly Slot[][], elements: readonly string[]): string[][] {
  return shape.map((path) => path.map((s) => ('field' in s ? s.field : elements[s.hole])));
}

describe('sets shared by shape (sharedFieldsV1)', () => {
  test('each list of a shape gets the set toFieldsV1 makes of it, byte for byte as structured-merge-diff writes it', () => {
    fc.assert(
      fc.property(listsOfOneShape, ([shape, fills]) => {
        // GIVEN one release's shared sets
        const shared = sharedFieldsV1();
        for (const elements of fills) {
          // WHEN lists of one shape with other elements are asked for, in turn
          const list = filled(shape, elements);
          const fields = shared(list);
          // THEN each is the set of its own paths, keys in structured-merge-diff's order
          expect(JSON.stringify(fields)).toBe(JSON.stringify(toFieldsV1(list)));
          expect(JSON.stringify(fields)).toBe(serializeFieldsV1(list));
        }
      }),
      { numRuns: 3_000, seed: 20261207 },
    );
  });

  test('a set made for one list of a shape leaves the sets made before it as they were', () => {
    fc.assert(
      fc.property(listsOfOneShape, ([shape, fills]) => {
        const shared = sharedFieldsV1();
        const made = fills.map((elements) => {
          const list = filled(shape, elements);
          return { list, fields: shared(list) };
        });
        for (const { list, fields } of made) expect(JSON.stringify(fields)).toBe(JSON.stringify(toFieldsV1(list)));
      }),
      { numRuns: 1_000, seed: 20261208 },
    );
  });

  test('containers named after their tenants get their own names, and share every node not above them', () => {
    // GIVEN one release's shared sets and two Deployments' paths that differ only in their container's name
    const shared = sharedFieldsV1();
    const deployment = (name: string) => [
      ['spec', 'replicas'],
      ['spec', 'template', 'spec', 'containers', `k:{"name":"${name}"}`, 'image'],
      ['spec', 'template', 'spec', 'containers', `k:{"name":"${name}"}`, 'resources', 'limits', 'cpu'],
      ['spec', 'template', 'spec', 'dnsPolicy'],
    ];
    // WHEN their sets are made
    const first = shared(deployment('tenant0')) as any;
    const second = shared(deployment('tenant1')) as any;
    // THEN each names its own container, and both hold one node for what lies below it
    expect(second).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:template': {
          'f:spec': {
            'f:containers': { 'k:{"name":"tenant1"}': { 'f:image': {}, 'f:resources': { 'f:limits': { 'f:cpu': {} } } } },
            'f:dnsPolicy': {},
          },
        },
      },
    });
    expect(Object.keys(first['f:spec']['f:template']['f:spec']['f:containers'])).toEqual(['k:{"name":"tenant0"}']);
    const container = (set: any, name: string) => set['f:spec']['f:template']['f:spec']['f:containers'][`k:{"name":"${name}"}`];
    expect(container(second, 'tenant1')).toBe(container(first, 'tenant0'));
  });

  test('two elements of one kind under one node are ordered by their own keys in every list', () => {
    // GIVEN one shape whose two containers another list names the other way round
    const shared = sharedFieldsV1();
    const containers = (a: string, b: string) => [
      ['containers', `k:{"name":"${a}"}`, 'image'],
      ['containers', `k:{"name":"${b}"}`, 'image'],
    ];
    shared(containers('a', 'b'));
    // WHEN the list whose first container sorts last is asked for
    const fields = shared(containers('c', 'b'));
    // THEN its containers are in structured-merge-diff's order, not the first list's
    expect(Object.keys((fields as any)['f:containers'])).toEqual(['k:{"name":"b"}', 'k:{"name":"c"}']);
  });
});
