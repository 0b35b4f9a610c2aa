/**
 * Cases ported from structured-merge-diff's merge/set_test.go (sets of scalars) and merge/leaf_test.go
 * (scalar fields; an updater against an applier; force; an empty apply).
 */
import type { SmdTestCase } from './smd-test-case';
import { upstream } from './smd-test-case';
import { LEAF_FIELDS_SCHEMA, SET_FIELDS_SCHEMA } from './upstream-schemas';

const sets = { schema: SET_FIELDS_SCHEMA, typeName: 'sets', apiVersion: 'v1' };
const leaves = { schema: LEAF_FIELDS_SCHEMA, typeName: 'leafFields', apiVersion: 'v1' };

export const SET_AND_LEAF_CASES: readonly SmdTestCase[] = [
  {
    name: 'set values are owned one by one: a value both an updater and an applier wrote is shared',
    provenance: upstream('merge/set_test.go', 'TestUpdateSet/apply_update_apply_with_overlap'),
    ...sets,
    applies: [
      { manager: 'default', object: { list: ['a', 'c'] } },
      { manager: 'controller', operation: 'update', object: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', object: { list: ['a', 'b', 'c'] } },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { list: ['a', 'b', 'c', 'd'] },
      fields: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]'], controller: ['.list[="b"]', '.list[="d"]'] },
      apiVersions: { default: 'v1', controller: 'v1' },
    },
  },
  {
    name: 'reapplying a set in another order owns the same values and keeps the live order',
    provenance: upstream('merge/set_test.go', 'TestUpdateSet/apply_twice_reorder'),
    ...sets,
    applies: [
      { manager: 'default', object: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', object: { list: ['a', 'd', 'c', 'b'] } },
    ],
    expected: {
      conflicts: [[], []],
      // Upstream expects [a, d, c, b] but compares with typed.Compare, which ignores a set's order: SMD 4.1.2's
      // merge keeps the live order, as this harness shows.
      object: { list: ['a', 'b', 'c', 'd'] },
      fields: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'set values a sole applier stops applying are removed',
    provenance: upstream('merge/set_test.go', 'TestUpdateSet/apply_twice_remove'),
    ...sets,
    applies: [
      { manager: 'default', object: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', object: { list: ['a', 'c'] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { list: ['a', 'c'] },
      fields: { default: ['.list[="a"]', '.list[="c"]'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'an applier conflicts with the updater that changed its field, not on a field the updater wrote unchanged, and force takes it back',
    provenance: upstream('merge/leaf_test.go', 'TestUpdateLeaf/apply_update_apply_with_conflict'),
    ...leaves,
    applies: [
      { manager: 'default', object: { numeric: 1, string: 'string' } },
      { manager: 'controller', operation: 'update', object: { numeric: 1, string: 'controller string', bool: true } },
      { manager: 'default', object: { numeric: 2, string: 'user string' } },
      { manager: 'default', object: { numeric: 2, string: 'user string' }, force: true },
    ],
    expected: {
      conflicts: [[], [], [{ manager: 'controller', path: '.string' }], []],
      object: { numeric: 2, string: 'user string', bool: true },
      fields: { default: ['.numeric', '.string'], controller: ['.bool'] },
      apiVersions: { default: 'v1', controller: 'v1' },
    },
  },
  {
    name: 'an empty apply releases a field an updater took, leaving the value',
    provenance: upstream('merge/leaf_test.go', 'TestUpdateLeaf/update_apply_omits'),
    ...leaves,
    applies: [
      { manager: 'default', object: { numeric: 2 } },
      { manager: 'controller', operation: 'update', object: { numeric: 1 } },
      { manager: 'default', object: null },
    ],
    expected: {
      conflicts: [[], [], []],
      object: { numeric: 1 },
      fields: { controller: ['.numeric'] },
      apiVersions: { controller: 'v1' },
    },
  },
  {
    name: 'an empty apply by the sole owner removes its fields and the manager',
    provenance: upstream('merge/leaf_test.go', 'TestUpdateLeaf/apply_remove_empty_set'),
    ...leaves,
    applies: [
      { manager: 'default', object: { string: 'string' } },
      { manager: 'default', object: null },
    ],
    expected: { conflicts: [[], []], object: null, fields: {} },
  },
];
