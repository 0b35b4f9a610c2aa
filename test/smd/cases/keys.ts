/**
 * Cases ported from structured-merge-diff's merge/key_test.go and merge/default_keys_test.go: associative
 * lists with one key and with two, keys with schema defaults, and the inputs SMD refuses.
 */
import type { SmdTestCase } from './smd-test-case';
import { upstream } from './smd-test-case';
import { ASSOCIATIVE_LIST_SCHEMA, BOOK_SCHEMA, PORT_LIST_SCHEMA } from './upstream-schemas';

const ports = { schema: PORT_LIST_SCHEMA, typeName: 'v1', apiVersion: 'v1' };
const book = { schema: BOOK_SCHEMA, typeName: 'v1', apiVersion: 'v1' };
const TCP80 = '.containerPorts[port=80,protocol="TCP"]';
const UDP80 = '.containerPorts[port=80,protocol="UDP"]';
const SENTENCE = '.book[chapter=1,section="A"].sentences[line=3,page=2]';

export const KEY_CASES: readonly SmdTestCase[] = [
  {
    name: 'an applier that replaces a keyed item by another owns only the new one',
    provenance: upstream('merge/key_test.go', 'TestUpdateAssociativeLists/removing_obsolete_applied_structs'),
    schema: ASSOCIATIVE_LIST_SCHEMA,
    typeName: 'type',
    applies: [
      { manager: 'default', apiVersion: 'v1', object: { list: [{ name: 'a', value: 1 }] } },
      { manager: 'default', apiVersion: 'v1', object: { list: [{ name: 'b', value: 2 }] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { list: [{ name: 'b', value: 2 }] },
      fields: { default: ['.list[name="b"]', '.list[name="b"].name', '.list[name="b"].value'] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'a key left out is keyed by its schema default, which is not owned as a field',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlat/apply_missing_defaulted_key_A'),
    ...ports,
    applies: [{ manager: 'default', object: { containerPorts: [{ port: 80 }] } }],
    expected: {
      conflicts: [[]],
      object: { containerPorts: [{ port: 80 }] },
      fields: { default: [TCP80, `${TCP80}.port`] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'a defaulted key and an explicit other value make two items',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlat/apply_missing_defaulted_key_B'),
    ...ports,
    applies: [{ manager: 'default', object: { containerPorts: [{ port: 80 }, { port: 80, protocol: 'UDP' }] } }],
    expected: {
      conflicts: [[]],
      object: { containerPorts: [{ port: 80 }, { port: 80, protocol: 'UDP' }] },
      fields: { default: [TCP80, `${TCP80}.port`, UDP80, `${UDP80}.port`, `${UDP80}.protocol`] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'an item with the key defaulted is the same item as one with it explicit, so their fields conflict',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlat/apply_missing_defaulted_key_with_conflict'),
    ...ports,
    applies: [
      { manager: 'apply-one', object: { containerPorts: [{ port: 80, protocol: 'TCP', name: 'foo' }] } },
      { manager: 'apply-two', object: { containerPorts: [{ port: 80, name: 'bar' }] } },
    ],
    expected: {
      conflicts: [[], [{ manager: 'apply-one', path: `${TCP80}.name` }]],
      object: { containerPorts: [{ port: 80, protocol: 'TCP', name: 'foo' }] },
      fields: { 'apply-one': [TCP80, `${TCP80}.port`, `${TCP80}.protocol`, `${TCP80}.name`] },
      apiVersions: { 'apply-one': 'v1' },
    },
  },
  {
    name: 'an item missing a key that has no default is refused',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlatErrors/apply_missing_undefaulted_defaulted_key'),
    ...ports,
    applies: [{ manager: 'default', object: { containerPorts: [{ protocol: 'TCP' }] } }],
    expected: { error: /associative list with keys has an element that omits key field "port" \(and doesn't have default value\)/ },
  },
  {
    name: 'two items with the same keys, both defaulted, are refused as duplicates',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlatErrors/apply_missing_defaulted_key_ambiguous_A'),
    ...ports,
    applies: [{ manager: 'default', object: { containerPorts: [{ port: 80 }, { port: 80 }] } }],
    expected: { error: /duplicate entries for key \[port=80,protocol="TCP"\]/ },
  },
  {
    name: 'two items with the same keys, one defaulted and one explicit, are refused as duplicates',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysFlatErrors/apply_missing_defaulted_key_ambiguous_B'),
    ...ports,
    applies: [{ manager: 'default', object: { containerPorts: [{ port: 80 }, { port: 80, protocol: 'TCP' }] } }],
    expected: { error: /duplicate entries for key \[port=80,protocol="TCP"\]/ },
  },
  {
    name: 'nested lists whose every key is left out are keyed by all the defaults',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysNested/apply_missing_every_key_nested'),
    ...book,
    applies: [{ manager: 'default', object: { book: [{ sentences: [{ text: 'blah' }] }] } }],
    expected: {
      conflicts: [[]],
      object: { book: [{ sentences: [{ text: 'blah' }] }] },
      fields: { default: ['.book[chapter=1,section="A"]', SENTENCE, `${SENTENCE}.text`] },
      apiVersions: { default: 'v1' },
    },
  },
  {
    name: 'an integer key equal to a float default names the same item',
    provenance: upstream('merge/default_keys_test.go', 'TestDefaultKeysNested/apply_integer_key_with_float_default'),
    ...book,
    applies: [
      { manager: 'default', object: { book: [{ sentences: [{ text: 'blah' }] }] } },
      { manager: 'default', object: { book: [{ sentences: [{ text: 'blah', page: 2 }] }] } },
    ],
    expected: {
      conflicts: [[], []],
      object: { book: [{ sentences: [{ text: 'blah', page: 2 }] }] },
      fields: { default: ['.book[chapter=1,section="A"]', SENTENCE, `${SENTENCE}.text`, `${SENTENCE}.page`] },
      apiVersions: { default: 'v1' },
    },
  },
];
