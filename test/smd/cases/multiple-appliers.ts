/**
 * Cases ported from structured-merge-diff's merge/multiple_appliers_test.go: several managers applying to one
 * object, releasing fields, and updaters (controllers) taking fields over.
 *
 * TestMultipleAppliersFieldUnsetting runs each case for every triple of versions through a renaming converter;
 * ported here is its v1-v1-v1 instance (one version, no conversion).
 */
import type { SmdTestCase } from './smd-test-case';
import { upstream } from './smd-test-case';
import { ASSOCIATIVE_LIST_SCHEMA, ATOMIC_MAP_SCHEMA, NESTED_TYPE_SCHEMA, STRUCT_V1_SCHEMA } from './upstream-schemas';

const FILE = 'merge/multiple_appliers_test.go';

const keyedList = { schema: ASSOCIATIVE_LIST_SCHEMA, typeName: 'type' };
const structV1 = { schema: STRUCT_V1_SCHEMA, typeName: 'v1', apiVersion: 'v1' };
const nested = { schema: NESTED_TYPE_SCHEMA, typeName: 'type' };

export const MULTIPLE_APPLIERS_CASES: readonly SmdTestCase[] = [
  {
    name: 'a manager that stops applying a list item loses it; the item another manager applied stays',
    provenance: upstream(FILE, 'TestMultipleAppliersSet/remove_one'),
    ...keyedList,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { list: [{ name: 'a' }, { name: 'b' }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { list: [{ name: 'c' }] } },
      { manager: 'apply-one', apiVersion: 'v3', object: { list: [{ name: 'a' }] } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { list: [{ name: 'a' }, { name: 'c' }] },
      fields: {
        'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
        'apply-two': ['.list[name="c"]', '.list[name="c"].name'],
      },
      apiVersions: { 'apply-one': 'v3', 'apply-two': 'v2' },
    },
  },
  {
    name: 'two managers applying the same value to a keyed item share it without conflict',
    provenance: upstream(FILE, 'TestMultipleAppliersSet/same_value_no_conflict'),
    ...keyedList,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { list: [{ name: 'a', value: 0 }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { list: [{ name: 'a', value: 0 }] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { list: [{ name: 'a', value: 0 }] },
      fields: {
        'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
        'apply-two': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
      },
      apiVersions: { 'apply-one': 'v1', 'apply-two': 'v2' },
    },
  },
  {
    name: 'a second manager applying another value to a keyed item conflicts on that field only',
    provenance: upstream(FILE, 'TestMultipleAppliersSet/change_value_yes_conflict'),
    ...keyedList,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { list: [{ name: 'a', value: 0 }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { list: [{ name: 'a', value: 1 }] } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'apply-one', path: '.list[name="a"].value' }]],
      object: { list: [{ name: 'a', value: 0 }] },
      fields: { 'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'] },
      apiVersions: { 'apply-one': 'v1' },
    },
  },
  {
    name: 'an item applied by two managers survives one of them dropping it',
    provenance: upstream(FILE, 'TestMultipleAppliersSet/remove_one_keep_one'),
    ...keyedList,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { list: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { list: [{ name: 'c' }, { name: 'd' }] } },
      { manager: 'apply-one', apiVersion: 'v3', object: { list: [{ name: 'a' }] } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { list: [{ name: 'a' }, { name: 'c' }, { name: 'd' }] },
      fields: {
        'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
        'apply-two': ['.list[name="c"]', '.list[name="c"].name', '.list[name="d"]', '.list[name="d"].name'],
      },
      apiVersions: { 'apply-one': 'v3', 'apply-two': 'v2' },
    },
  },
  {
    name: 'a sole owner that stops applying a scalar removes it',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/unset_scalar_sole_owner'),
    ...structV1,
    applies: [
      { manager: 'apply-one', object: { struct: { name: 'a', scalarField_v1: 'a' } } },
      { manager: 'apply-one', object: { struct: { name: 'a' } } },
    ],
    expected: {
      conflicts: [[], []],
      object: { struct: { name: 'a' } },
      fields: { 'apply-one': ['.struct.name'] },
      apiVersions: { 'apply-one': 'v1' },
    },
  },
  {
    name: 'a scalar another applier also applied stays when one of them stops applying it',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/unset_scalar_shared_with_applier'),
    ...structV1,
    applies: [
      { manager: 'apply-one', object: { struct: { name: 'a', scalarField_v1: 'a' } } },
      { manager: 'apply-two', object: { struct: { scalarField_v1: 'a' } } },
      { manager: 'apply-one', object: { struct: { name: 'a' } } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { struct: { name: 'a', scalarField_v1: 'a' } },
      fields: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.scalarField_v1'] },
      apiVersions: { 'apply-one': 'v1', 'apply-two': 'v1' },
    },
  },
  {
    name: 'a scalar an updater also wrote stays when the applier stops applying it; the updater owns the struct too',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/unset_scalar_shared_with_updater'),
    ...structV1,
    applies: [
      { manager: 'updater', operation: 'update', object: { struct: { name: 'a', scalarField_v1: 'a' } } },
      { manager: 'applier', object: { struct: { name: 'a', scalarField_v1: 'a' } } },
      { manager: 'applier', object: { struct: { name: 'a' } } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { struct: { name: 'a', scalarField_v1: 'a' } },
      fields: { updater: ['.struct', '.struct.name', '.struct.scalarField_v1'], applier: ['.struct.name'] },
      apiVersions: { updater: 'v1', applier: 'v1' },
    },
  },
  {
    name: 'an update that changes an applied field takes it from the applier without conflict',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/updater_claims_field'),
    ...structV1,
    applies: [
      { manager: 'applier', object: { struct: { name: 'a', scalarField_v1: 'a' } } },
      { manager: 'updater', operation: 'update', object: { struct: { name: 'a', scalarField_v1: 'b' } } },
    ],
    expected: {
      conflicts: [[], []],
      object: { struct: { name: 'a', scalarField_v1: 'b' } },
      fields: { updater: ['.struct.scalarField_v1'], applier: ['.struct.name'] },
      apiVersions: { updater: 'v1', applier: 'v1' },
    },
  },
  {
    name: 'a sole owner that stops applying a struct field removes the whole struct',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/unset_complex_sole_owner'),
    ...structV1,
    applies: [
      { manager: 'apply-one', object: { struct: { name: 'a', complexField_v1: { name: 'b' } } } },
      { manager: 'apply-one', object: { struct: { name: 'a' } } },
    ],
    expected: {
      conflicts: [[], []],
      object: { struct: { name: 'a' } },
      fields: { 'apply-one': ['.struct.name'] },
      apiVersions: { 'apply-one': 'v1' },
    },
  },
  {
    name: 'a struct field another applier shares stays when one of them stops applying it',
    provenance: upstream(FILE, 'TestMultipleAppliersFieldUnsetting/v1-v1-v1/unset_complex_shared_with_applier'),
    ...structV1,
    applies: [
      { manager: 'apply-one', object: { struct: { name: 'a', complexField_v1: { name: 'b' } } } },
      { manager: 'apply-two', object: { struct: { complexField_v1: { name: 'b' } } } },
      { manager: 'apply-one', object: { struct: { name: 'a' } } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { struct: { name: 'a', complexField_v1: { name: 'b' } } },
      fields: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.complexField_v1.name'] },
      apiVersions: { 'apply-one': 'v1', 'apply-two': 'v1' },
    },
  },
  {
    name: 'a keyed item with a set inside keeps only the set values its remaining applier applied',
    provenance: upstream(FILE, 'TestMultipleAppliersNestedType/remove_one_keep_one_with_two_sub_items'),
    ...nested,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { listOfLists: [{ name: 'b', value: ['d'] }] } },
      { manager: 'apply-one', apiVersion: 'v3', object: { listOfLists: [{ name: 'a' }] } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['d'] }] },
      fields: {
        'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
        'apply-two': ['.listOfLists[name="b"]', '.listOfLists[name="b"].name', '.listOfLists[name="b"].value[="d"]'],
      },
      apiVersions: { 'apply-one': 'v3', 'apply-two': 'v2' },
    },
  },
  {
    name: "a controller's set value inside a kept item survives; the dropped applier's value goes",
    provenance: upstream(FILE, 'TestMultipleAppliersNestedType/remove_one_keep_one_with_dangling_subitem'),
    ...nested,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { listOfLists: [{ name: 'b', value: ['d'] }] } },
      {
        manager: 'controller',
        operation: 'update',
        apiVersion: 'v2',
        object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c', 'd', 'e'] }] },
      },
      { manager: 'apply-one', apiVersion: 'v3', object: { listOfLists: [{ name: 'a' }] } },
    ],
    expected: {
      conflicts: [[], [], [], []],
      object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['d', 'e'] }] },
      fields: {
        'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
        'apply-two': ['.listOfLists[name="b"]', '.listOfLists[name="b"].name', '.listOfLists[name="b"].value[="d"]'],
        'controller': ['.listOfLists[name="b"].value[="e"]'],
      },
      apiVersions: { 'apply-one': 'v3', 'apply-two': 'v2', 'controller': 'v2' },
    },
  },
  {
    name: "an item only its applier kept is removed with a controller's values inside it, and the controller owns nothing",
    provenance: upstream(FILE, 'TestMultipleAppliersNestedType/remove_one_with_dangling_subitem_keep_one'),
    ...nested,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] } },
      { manager: 'apply-two', apiVersion: 'v2', object: { listOfLists: [{ name: 'a', value: ['b'] }] } },
      {
        manager: 'controller',
        operation: 'update',
        apiVersion: 'v2',
        object: { listOfLists: [{ name: 'a', value: ['b'] }, { name: 'b', value: ['c', 'd'] }] },
      },
      { manager: 'apply-one', apiVersion: 'v3', object: { listOfLists: [{ name: 'a' }] } },
    ],
    expected: {
      conflicts: [[], [], [], []],
      object: { listOfLists: [{ name: 'a', value: ['b'] }] },
      fields: {
        'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
        'apply-two': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name', '.listOfLists[name="a"].value[="b"]'],
      },
      apiVersions: { 'apply-one': 'v3', 'apply-two': 'v2' },
    },
  },
  {
    name: 'in a recursive map, each manager keeps the entries it wrote and an emptied apply keeps only the map itself',
    provenance: upstream(FILE, 'TestMultipleAppliersNestedType/multiple_appliers_recursive_map'),
    ...nested,
    applies: [
      { manager: 'apply-one', apiVersion: 'v1', object: { mapOfMapsRecursive: { a: { b: null }, c: { d: null } } } },
      { manager: 'apply-two', apiVersion: 'v2', object: { mapOfMapsRecursive: { a: null, c: { d: null } } } },
      {
        manager: 'controller-one',
        operation: 'update',
        apiVersion: 'v3',
        object: { mapOfMapsRecursive: { a: { b: { c: null } }, c: { d: { e: null } } } },
      },
      {
        manager: 'controller-two',
        operation: 'update',
        apiVersion: 'v2',
        object: { mapOfMapsRecursive: { a: { b: { c: { d: null } } }, c: { d: { e: { f: null } } } } },
      },
      {
        manager: 'controller-one',
        operation: 'update',
        apiVersion: 'v3',
        object: { mapOfMapsRecursive: { a: { b: { c: { d: { e: null } } } }, c: { d: { e: { f: { g: null } } } } } },
      },
      { manager: 'apply-one', apiVersion: 'v4', object: { mapOfMapsRecursive: null } },
    ],
    expected: {
      conflicts: [[], [], [], [], [], []],
      object: { mapOfMapsRecursive: { a: null, c: { d: { e: { f: { g: null } } } } } },
      fields: {
        'apply-one': ['.mapOfMapsRecursive'],
        'apply-two': ['.mapOfMapsRecursive.a', '.mapOfMapsRecursive.c', '.mapOfMapsRecursive.c.d'],
        'controller-one': ['.mapOfMapsRecursive.c.d.e', '.mapOfMapsRecursive.c.d.e.f.g'],
        'controller-two': ['.mapOfMapsRecursive.c.d.e.f'],
      },
      apiVersions: { 'apply-one': 'v4', 'apply-two': 'v2', 'controller-one': 'v3', 'controller-two': 'v2' },
    },
  },
  {
    name: 'an atomic map conflicts as one field, and a forced apply takes it whole',
    provenance: upstream(FILE, 'TestMultipleApplierAtomicMaps/force'),
    schema: ATOMIC_MAP_SCHEMA,
    typeName: 'v1',
    applies: [
      { manager: 'apply-one', object: { atomicMap: { field1: 'a' } } },
      { manager: 'apply-two', object: { atomicMap: { field2: 'b' } } },
      { manager: 'apply-two', object: { atomicMap: { field2: 'b' } }, force: true },
    ],
    expected: {
      conflicts: [[], [{ manager: 'apply-one', path: '.atomicMap' }], []],
      object: { atomicMap: { field2: 'b' } },
      fields: { 'apply-two': ['.atomicMap'] },
      apiVersions: { 'apply-two': 'v1' },
    },
  },
];
