/**
 * Cases ported from structured-merge-diff's merge/deduced_test.go (the schema-less deduced type: maps are
 * granular, lists atomic) and merge/nested_test.go (nested lists and maps, and a struct applied empty or
 * null: the "dangling" cases).
 */
import type { SmdTestCase } from './smd-test-case';
import { upstream } from './smd-test-case';
import { DEDUCED_TYPE, NESTED_TYPE_SCHEMA } from './upstream-schemas';

const deduced = { typeName: DEDUCED_TYPE, apiVersion: 'v1' };
const nested = { schema: NESTED_TYPE_SCHEMA, typeName: 'type', apiVersion: 'v1' };

const nestedApplied = {
  a: 2,
  b: { c: { d: 2, e: [3, 2, 1], f: [{ name: 'n', value: 1 }] } },
};

export const DEDUCED_AND_NESTED_CASES: readonly SmdTestCase[] = [
  {
    name: 'a deduced list is one atomic field',
    provenance: upstream('merge/deduced_test.go', 'TestDeduced/apply_twice_list_is_atomic'),
    ...deduced,
    applies: [
      { manager: 'default', object: { list: ['a', 'c'] } },
      { manager: 'default', object: { list: ['a', 'd', 'c', 'b'] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { list: ['a', 'd', 'c', 'b'] },
      fields: { default: ['.list'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'a forced apply of an atomic list takes it whole from the updater that changed it',
    provenance: upstream('merge/deduced_test.go', 'TestDeduced/apply_update_apply_list'),
    ...deduced,
    applies: [
      { manager: 'default', object: { list: ['a', 'c'] } },
      { manager: 'controller', operation: 'update', object: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', object: { list: ['a', 'b', 'c'] }, force: true },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { list: ['a', 'b', 'c'] },
      fields: { default: ['.list'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'nested deduced fields conflict one by one, each atomic list as one field',
    provenance: upstream('merge/deduced_test.go', 'TestDeduced/apply_update_apply_nested'),
    ...deduced,
    applies: [
      {
        manager: 'default',
        object: { a: 1, b: { c: { d: 2, e: [1, 2, 3], f: [{ name: 'n', value: 1 }] } } },
      },
      {
        manager: 'controller',
        operation: 'update',
        object: { a: 1, b: { c: { d: 3, e: [1, 2, 3, 4], f: [{ name: 'n', value: 2 }] } }, g: 5 },
      },
      { manager: 'default', object: nestedApplied },
      { manager: 'default', object: nestedApplied, force: true },
    ],
    expected: {
      conflicts: [
        [],
        [],
        [
          { manager: 'controller', path: '.b.c.d' },
          { manager: 'controller', path: '.b.c.e' },
          { manager: 'controller', path: '.b.c.f' },
        ],
        [],
      ],
      object: { ...nestedApplied, g: 5 },
    },
  },
  {
    name: 'changing one map inside a keyed item drops the keys no longer applied',
    provenance: upstream('merge/nested_test.go', 'TestUpdateNestedType/listOfMaps_change_value'),
    ...nested,
    applies: [
      { manager: 'default', object: { listOfMaps: [{ name: 'a', value: { b: 'x', c: 'y' } }] } },
      { manager: 'default', object: { listOfMaps: [{ name: 'a', value: { a: 'x', c: 'z' } }] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { listOfMaps: [{ name: 'a', value: { a: 'x', c: 'z' } }] },
      fields: {
        default: [
          '.listOfMaps[name="a"]',
          '.listOfMaps[name="a"].name',
          '.listOfMaps[name="a"].value.a',
          '.listOfMaps[name="a"].value.c',
        ],
      },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'a struct applied as null after having fields is owned as the field itself',
    provenance: upstream('merge/nested_test.go', 'TestUpdateNestedType/struct_apply_remove_dangling'),
    ...nested,
    applies: [
      { manager: 'default', object: { struct: { name: 'a' } } },
      { manager: 'default', object: { struct: null } },
    ],
    expected: {
      conflicts: [[], []],
      object: { struct: null },
      fields: { default: ['.struct'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: "a struct applied empty drops the applier's field and keeps the updater's",
    provenance: upstream('merge/nested_test.go', 'TestUpdateNestedType/struct_apply_update_dict_dangling'),
    ...nested,
    applies: [
      { manager: 'default', object: { struct: { name: 'a' } } },
      { manager: 'controller', operation: 'update', object: { struct: { name: 'a', value: 1 } } },
      { manager: 'default', object: { struct: {} } },
    ],
    expected: { conflicts: [[], [], []], object: { struct: { value: 1 } } },
  },
  {
    name: "a struct applied null drops the applier's field and keeps the updater's",
    provenance: upstream('merge/nested_test.go', 'TestUpdateNestedType/struct_apply_update_dict_null'),
    ...nested,
    applies: [
      { manager: 'default', object: { struct: { name: 'a' } } },
      { manager: 'controller', operation: 'update', object: { struct: { name: 'a', value: 1 } } },
      { manager: 'default', object: { struct: null } },
    ],
    expected: { conflicts: [[], [], []], object: { struct: { value: 1 } } },
  },
  {
    name: 'a field an updater took over stays when the applier stops applying it',
    provenance: upstream('merge/nested_test.go', 'TestUpdateNestedType/struct_apply_update_took_over'),
    ...nested,
    applies: [
      { manager: 'default', object: { struct: { name: 'a' } } },
      { manager: 'controller', operation: 'update', object: { struct: { name: 'b', value: 1 } } },
      { manager: 'default', object: { struct: null } },
    ],
    expected: { conflicts: [[], [], []], object: { struct: { name: 'b', value: 1 } } },
  },
];
