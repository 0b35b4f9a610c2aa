/**
 * structured-merge-diff's own merge tests, ported: SMD's field managers become the writers of one composition (the
 * declaring construct, `Contribution`s, and a `RuntimeWriter` for a manager that writes with an update), and its
 * schemas become a CRD in the composition with the `x-kubernetes-*` markers the API server derives the same schema
 * from. An apply SMD refuses with conflicts is a `CAP002` naming both writers and the contested fields; an apply it
 * accepts is a composition the library accepts, and the manifest is the object SMD merges.
 *
 * Source: kubernetes-sigs/structured-merge-diff at commit 15d075473efece0367330fd20a7cc2aad2eeb998, files
 * merge/conflict_test.go, merge/leaf_test.go, merge/set_test.go, merge/field_level_overrides_test.go,
 * merge/multiple_appliers_test.go, merge/duplicates_test.go, merge/preserve_unknown_test.go and typed/validate_test.go;
 * each test names the upstream test it ports. Not ported: merge/obsolete_versions_test.go and schema_change_test.go
 * (a manager's fields across API versions and schema changes: a composition writes one version of one schema),
 * merge/ignore_test.go (ignored fields are the API server's
 * configuration), merge/extract_apply_test.go (extracting a manager's apply configuration). A composition is one set of writers,
 * not a sequence of applies: where SMD's case applies, updates and applies again, the port is the set of writers of
 * the moment SMD checks for conflicts. Already compared with SMD itself, leaf by leaf, in test/ledger-vs-smd.test.ts
 * (the cases of test/smd/cases): the applies-only cases of the same files. Where the library differs on purpose,
 * the test asserts the library's behaviour and says why.
 */
import { ApiObject, ApiObjectProps } from 'cdk8s';
import { Capability, CapabilityTesting, CapabilityTestResult, Contribution, RuntimeRouting, RuntimeWriter } from '../src';
import { crdWithSpec } from './util';
import { contributes, declares, inCluster } from './write-fixtures';

/** A CRD of kind `Thing` whose spec has `properties`, one `Thing` declared by 'smd/Routing/Thing', the other writers, synthesized. */
function compose(
  properties: Record<string, unknown>, declared: Record<string, unknown>, writers: (routing: RuntimeRouting, thing: ApiObject) => void,
): CapabilityTestResult {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'smd'), 'Routing');
  new ApiObject(routing, 'Crd', crdWithSpec('Thing', properties) as ApiObjectProps);
  const thing = new ApiObject(routing, 'Thing', { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'ns' }, spec: declared });
  writers(routing, thing);
  return CapabilityTesting.synth(app);
}

/** A Contribution `id` of `spec` into the Thing. */
function contribute(routing: RuntimeRouting, id: string, thing: ApiObject, spec: Record<string, unknown>, force = false): Contribution {
  return new Contribution(routing, id, { target: thing, fields: { spec }, ...(force ? { force } : {}) });
}

/** A RuntimeWriter `id` of `fields` of the Thing: SMD's manager that writes with an update (a controller). */
function controller(routing: RuntimeRouting, id: string, thing: ApiObject, fields: string[]): RuntimeWriter {
  return new RuntimeWriter(routing, id, { target: thing, fields, identity: `system:serviceaccount:smd:${id.toLowerCase()}` });
}

const messages = (result: CapabilityTestResult) => result.violations.map((v) => `${v.code} ${v.message}`);
const specOf = (result: CapabilityTestResult) => result.runtimeObjects.find((o) => o.kind === 'Thing')?.spec;

/** The CAP002 message for two writers of `fields` of the Thing, with how each wrote them. */
const conflict = (a: string, b: string, fields: string, ...ways: string[]) =>
  `CAP002 field conflict: '${a}' and '${b}' both write ${fields} of example.com/Thing ns/t. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;

describe('the conflicts of one apply, against merge/conflict_test.go', () => {
  // Ported from TestNewFromSets: the conflicts SMD reports for one apply, grouped by the manager they are with
  // ("conflicts with "Alice": .value, .list[id=2,key="a"].key; conflicts with "Bob": .key, .list[id=2,key="a"].id"),
  // over a list keyed by two fields. Upstream builds the managers' sets by hand, so its conflicts include the
  // element's key fields; an apply can never conflict on a key field (the element is found by its value), so here
  // each manager owns a field of the element besides its keys. One violation per pair of writers, as one group per
  // manager; the keys are printed in the CRD's order of x-kubernetes-list-map-keys, SMD's in sorted order.
  test('an apply over the fields of two owners is one violation with each of them, naming its fields (TestNewFromSets)', () => {
    // GIVEN Bob (the declarer) writing spec.key and the element's port, Alice (a Contribution) spec.value and its name
    const list = {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key', 'id'],
      'items': { type: 'object', properties: { key: { type: 'string' }, id: { type: 'integer' }, name: { type: 'string' }, port: { type: 'integer' } } },
    };
    const result = compose({ key: { type: 'string' }, value: { type: 'string' }, list }, { key: 'bob', list: [{ key: 'a', id: 2, port: 1 }] }, (routing, thing) => {
      contribute(routing, 'Alice', thing, { value: 'alice', list: [{ key: 'a', id: 2, name: 'alice' }] });
      // WHEN Carol writes all four
      contribute(routing, 'Carol', thing, { key: 'carol', value: 'carol', list: [{ key: 'a', id: 2, name: 'carol', port: 2 }] });
    });

    // THEN Carol conflicts with Alice on Alice's fields and with Bob on Bob's; Alice and Bob do not conflict
    expect(messages(result)).toEqual([
      conflict('smd/Routing/Alice', 'smd/Routing/Carol', 'spec.list[key=a,id=2].name, spec.value', contributes('fields', 'smd/Routing/Alice', 'smd/Routing/Carol')),
      conflict('smd/Routing/Carol', 'smd/Routing/Thing', 'spec.key, spec.list[key=a,id=2].port', contributes('fields', 'smd/Routing/Carol'), declares('smd/Routing/Thing')),
    ]);
  });

  // Ported from TestNewFromSets, its element .list[id=2,key="a"] (upstream's _KBF("key", "a", "id", 2)): an element is
  // named by the values of its keys, typed as the schema types them, in any order. The number 2 and the string "2" are
  // two elements; an integer key given a string names no element the API server can hold, so a controller declared
  // with it would own nothing of the element it meant, and the declarer's field there would go unchallenged.
  test('a controller of a field of the element keyed by id=2, key=a: a conflict in either key order, CAP010 for the id as a string (TestNewFromSets)', () => {
    // GIVEN the declarer writing name of the element key=a, id=2 of a list keyed by key and id
    const list = {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key', 'id'],
      'items': { type: 'object', properties: { key: { type: 'string' }, id: { type: 'integer' }, name: { type: 'string' } } },
    };
    const declared = { list: [{ key: 'a', id: 2, name: 'bob' }] };

    // WHEN a RuntimeWriter writes its name, keyed as SMD prints it, as the ledger prints it, and with the id quoted
    const [smdOrder, ledgerOrder, quoted] = ['spec.list[id=2,key=a].name', 'spec.list[key=a,id=2].name', 'spec.list[key=a,id="2"].name'].map((field) =>
      messages(compose({ list }, declared, (routing, thing) => controller(routing, 'Controller', thing, [field]))));

    // THEN the same conflict for the first two; the third is a field the schema does not have
    const contested = "CAP002 field conflict: 'smd/Routing/Controller' (RuntimeWriter) and 'smd/Routing/Thing' both write spec.list[key=a,id=2].name of example.com/Thing ns/t. "
      + `Give each field one owner: drop it from one of them (${inCluster('smd/Routing/Controller')}; ${declares('smd/Routing/Thing')}): `
      + 'the deploy-time value would be overwritten or would overwrite the controller.';
    expect(smdOrder).toEqual([contested]);
    expect(ledgerOrder).toEqual([contested]);
    expect(quoted).toEqual([
      'CAP010 invalid object: \'smd/Routing/Controller\' writes "spec.list[key=a,id=\\"2\\"].name" of example.com/Thing ns/t, which the schema of its CRD \'things.example.com\' does not have: '
        + 'the key id of the elements of spec.list is an integer, but this path gives it the string "2" (leave the quotes out: id=2). Write a field the schema has.',
    ]);
  });

  // Ported from TestConflictsFromManagers: two fields of one keyed element deep in nested structs are two conflicts
  // with one manager, each printed with its whole path.
  test('two fields of a keyed element deep in nested structs, each named by its whole path (TestConflictsFromManagers)', () => {
    // GIVEN upstream's path obj.template.obj.list, keyed by name, declared by Bob
    const list = {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'items': { type: 'object', properties: { name: { type: 'string' }, id: { type: 'integer' }, key: { type: 'string' } } },
    };
    const obj = { type: 'object', properties: { template: { type: 'object', properties: { obj: { type: 'object', properties: { list } } } } } };
    const result = compose({ obj }, { obj: { template: { obj: { list: [{ name: 'a', id: 1, key: 'bob' }] } } } }, (routing, thing) => {
      // WHEN another writer sets both fields of element a
      contribute(routing, 'Other', thing, { obj: { template: { obj: { list: [{ name: 'a', id: 2, key: 'other' }] } } } });
    });

    // THEN one violation, both fields in full
    expect(messages(result)).toEqual([
      conflict('smd/Routing/Other', 'smd/Routing/Thing', 'spec.obj.template.obj.list[name=a].id, spec.obj.template.obj.list[name=a].key', contributes('fields', 'smd/Routing/Other'), declares('smd/Routing/Thing')),
    ]);
  });
});

describe('an applier and a controller, against merge/leaf_test.go and merge/set_test.go', () => {
  const LEAVES = { numeric: { type: 'integer' }, string: { type: 'string' }, bool: { type: 'boolean' } };

  // Ported from TestUpdateLeaf/apply_update_apply_no_conflict: the controller's update owns bool alone (it left
  // numeric and string as they were), so the applier's second apply, numeric 2, conflicts with nothing.
  test('a controller of a field the applier does not write: accepted, the applier\'s value in the manifest (apply_update_apply_no_conflict)', () => {
    // GIVEN the declarer writing numeric 2 and string; WHEN a RuntimeWriter writes bool
    const result = compose(LEAVES, { numeric: 2, string: 'string' }, (routing, thing) => controller(routing, 'Controller', thing, ['spec.bool']));

    // THEN accepted; bool is left to the controller
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ numeric: 2, string: 'string' });
  });

  // Ported from TestUpdateLeaf/apply_update_apply_with_conflict: the controller's update changed string, so it owns
  // string; the applier's apply of another string conflicts with the controller on .string alone.
  test('a controller of a field the applier writes: CAP002 on that field alone, naming the controller (apply_update_apply_with_conflict)', () => {
    // GIVEN the declarer writing numeric 2 and string "user string"; WHEN a RuntimeWriter writes string and bool
    const result = compose(LEAVES, { numeric: 2, string: 'user string' }, (routing, thing) => controller(routing, 'Controller', thing, ['spec.string', 'spec.bool']));

    // THEN
    expect(messages(result)).toEqual([
      "CAP002 field conflict: 'smd/Routing/Controller' (RuntimeWriter) and 'smd/Routing/Thing' both write spec.string of example.com/Thing ns/t. "
        + `Give each field one owner: drop it from one of them (${inCluster('smd/Routing/Controller')}; ${declares('smd/Routing/Thing')}): `
        + 'the deploy-time value would be overwritten or would overwrite the controller.',
    ]);
  });

  const SET = { list: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } } };

  // Ported from TestUpdateSet/apply_update_apply_no_overlap: the controller added b and d to the set and owns them;
  // the applier's a, aprime, c, cprime are other values.
  test('a set: a controller of other values than the applier\'s is accepted (apply_update_apply_no_overlap)', () => {
    // GIVEN the declarer writing a, aprime, c, cprime; WHEN a RuntimeWriter writes the values b and d
    const result = compose(SET, { list: ['a', 'aprime', 'c', 'cprime'] }, (routing, thing) => controller(routing, 'Controller', thing, ['spec.list[=b]', 'spec.list[=d]']));

    // THEN accepted
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ list: ['a', 'aprime', 'c', 'cprime'] });
  });

  // Ported from TestUpdateSet/apply_update_apply_with_overlap: the applier applies b, which the controller owns
  // too; a set value is owned by its presence, so SMD makes both its owners, with no conflict.
  test('a set: a value both the applier and a controller write is shared, not a conflict (apply_update_apply_with_overlap)', () => {
    // GIVEN the declarer writing a, b, c; WHEN a RuntimeWriter writes b and d
    const result = compose(SET, { list: ['a', 'b', 'c'] }, (routing, thing) => controller(routing, 'Controller', thing, ['spec.list[=b]', 'spec.list[=d]']));

    // THEN accepted
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ list: ['a', 'b', 'c'] });
  });
});

describe('atomic and granular maps and lists, against merge/field_level_overrides_test.go and TestMultipleApplierAtomicMaps', () => {
  // upstream's schema: relationships given per use of a type; in a CRD each use is marked where it is
  const ITEM = { name: { type: 'string' }, value: { type: 'integer' } };
  const OVERRIDES = {
    separableMapReference: { 'type': 'object', 'x-kubernetes-map-type': 'granular', 'properties': ITEM },
    atomicMapReference: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'properties': ITEM },
    associativeListReference: { 'type': 'array', 'x-kubernetes-list-type': 'atomic', 'items': { type: 'object', properties: ITEM } },
    separableInlineList: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'integer' } },
  };

  test('a granular map: two writers of different fields merge, no conflict (test_override_atomic_map_with_separable)', () => {
    // GIVEN apply_one (the declarer) writing name; WHEN apply_two writes value
    const result = compose(OVERRIDES, { separableMapReference: { name: 'a' } }, (routing, thing) => contribute(routing, 'ApplyTwo', thing, { separableMapReference: { value: 2 } }));

    // THEN upstream's object
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ separableMapReference: { name: 'a', value: 2 } });
  });

  test('an atomic map: two writers of different fields conflict on the whole map (test_override_unspecified_map_with_atomic)', () => {
    // GIVEN apply_one writing name; WHEN apply_two writes value
    const result = compose(OVERRIDES, { atomicMapReference: { name: 'a' } }, (routing, thing) => contribute(routing, 'ApplyTwo', thing, { atomicMapReference: { value: 2 } }));

    // THEN upstream's conflict: .atomicMapReference, with apply_one
    expect(messages(result)).toEqual([conflict('smd/Routing/ApplyTwo', 'smd/Routing/Thing', 'spec.atomicMapReference', contributes('fields', 'smd/Routing/ApplyTwo'), declares('smd/Routing/Thing'))]);
  });

  test('an atomic list of maps: another element conflicts on the whole list (test_override_associative_list_with_atomic)', () => {
    // GIVEN apply_one writing element a; WHEN apply_two writes element b
    const result = compose(OVERRIDES, { associativeListReference: [{ name: 'a', value: 1 }] }, (routing, thing) =>
      contribute(routing, 'ApplyTwo', thing, { associativeListReference: [{ name: 'b', value: 2 }] }));

    // THEN upstream's conflict: .associativeListReference, with apply_one
    expect(messages(result)).toEqual([conflict('smd/Routing/ApplyTwo', 'smd/Routing/Thing', 'spec.associativeListReference', contributes('fields', 'smd/Routing/ApplyTwo'), declares('smd/Routing/Thing'))]);
  });

  test('a set of numbers: each writer owns its values, merged in order (test_override_inline_atomic_list_with_associative)', () => {
    // GIVEN apply_one writing 1; WHEN apply_two writes 2
    const result = compose(OVERRIDES, { separableInlineList: [1] }, (routing, thing) => contribute(routing, 'ApplyTwo', thing, { separableInlineList: [2] }));

    // THEN upstream's object
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ separableInlineList: [1, 2] });
  });

  // Ported from TestMultipleApplierAtomicMaps/force: apply-two's apply conflicts on the atomic map; forced, it takes
  // the map whole, and the object holds apply-two's map alone (field1 is gone, not merged with field2).
  test('an atomic map taken with force: the writer\'s map replaces the owner\'s whole, and the plan lists the handover (TestMultipleApplierAtomicMaps/force)', () => {
    const ATOMIC = { atomicMap: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'properties': { field1: { type: 'string' }, field2: { type: 'string' } } } };

    // GIVEN apply-one (the declarer) writing field1: a
    const refused = compose(ATOMIC, { atomicMap: { field1: 'a' } }, (routing, thing) => contribute(routing, 'ApplyTwo', thing, { atomicMap: { field2: 'b' } }));
    // WHEN apply-two writes field2: b with force
    const forced = compose(ATOMIC, { atomicMap: { field1: 'a' } }, (routing, thing) => contribute(routing, 'ApplyTwo', thing, { atomicMap: { field2: 'b' } }, true));

    // THEN without force upstream's conflict on .atomicMap; with it upstream's object, the map handed over
    expect(messages(refused)).toEqual([conflict('smd/Routing/ApplyTwo', 'smd/Routing/Thing', 'spec.atomicMap', contributes('fields', 'smd/Routing/ApplyTwo'), declares('smd/Routing/Thing'))]);
    expect(messages(forced)).toEqual([]);
    expect(specOf(forced)).toEqual({ atomicMap: { field2: 'b' } });
    expect(forced.plan!.ownership!.handovers).toEqual([
      { object: 'example.com/Thing ns/t', field: 'spec.atomicMap', from: 'smd/Routing/Thing', to: 'smd/Routing/ApplyTwo', reason: 'force' },
    ]);
  });
});

describe('nested lists and maps with several appliers, against merge/multiple_appliers_test.go', () => {
  // upstream's nestedTypeParser: listOfLists keyed by name, each value a set of strings
  const LIST_OF_LISTS = {
    listOfLists: {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'items': { type: 'object', properties: { name: { type: 'string' }, value: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } } } },
    },
  };

  // Ported from TestMultipleAppliersNestedType/remove_one_keep_one_with_sub_item, its first two applies (the third
  // is apply-one's next apply, a next release here): apply-one's element b holds c, apply-two's d; neither conflicts.
  test('two appliers of one keyed element\'s set: each its own value, merged (remove_one_keep_one_with_sub_item)', () => {
    // GIVEN apply-one declaring elements a and b (value [c]); WHEN apply-two writes element b with value [d]
    const result = compose(LIST_OF_LISTS, { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] }, (routing, thing) =>
      contribute(routing, 'ApplyTwo', thing, { listOfLists: [{ name: 'b', value: ['d'] }] }));

    // THEN accepted; element b holds both values
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ listOfLists: [{ name: 'a' }, { name: 'b', value: ['c', 'd'] }] });
  });

  // Ported from TestMultipleAppliersNestedType/remove_one_with_managed_subitem_keep_one, its first three writes:
  // apply-one, apply-two writing element a's value b, and a controller whose update adds d to element b's value.
  test('two appliers and a controller of a value in another element\'s set: accepted (remove_one_with_managed_subitem_keep_one)', () => {
    // GIVEN apply-one declaring a and b (value [c]), apply-two writing a's value [b]
    const result = compose(LIST_OF_LISTS, { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] }, (routing, thing) => {
      contribute(routing, 'ApplyTwo', thing, { listOfLists: [{ name: 'a', value: ['b'] }] });
      // WHEN a RuntimeWriter writes the value d of element b
      controller(routing, 'Controller', thing, ['spec.listOfLists[name=b].value[=d]']);
    });

    // THEN accepted; the deploy-time manifest holds the appliers' values, d is the controller's
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ listOfLists: [{ name: 'a', value: ['b'] }, { name: 'b', value: ['c'] }] });
  });

  // Ported from TestMultipleAppliersNestedType/multiple_appliers_recursive_map: controller-one's update adds
  // mapOfMapsRecursive.c.d.e, controller-two's adds .c.d.e.f below it; SMD takes each field for whoever updated it
  // last, with no conflict (an update never conflicts), and leaves controller-one owning .c.d.e with controller-two
  // owning .c.d.e.f inside it. A RuntimeWriter's field is the whole value below it, which the admission policy lets
  // only that writer change (docs/enforcement.md); two RuntimeWriters of a field and a field inside it would each
  // be refused the other's change, so the library refuses them here, naming the outer field.
  test('two controllers of a field and a field inside it: CAP002 naming the outer field, where SMD takes each for its last updater (multiple_appliers_recursive_map)', () => {
    // GIVEN a map of maps, apply-one declaring a and c.d
    const RECURSIVE = { mapOfMapsRecursive: { type: 'object', additionalProperties: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
    const result = compose(RECURSIVE, { mapOfMapsRecursive: { a: {}, c: { d: {} } } }, (routing, thing) => {
      // WHEN controller-one writes c.d.e and controller-two c.d.e.f
      controller(routing, 'ControllerOne', thing, ['spec.mapOfMapsRecursive.c.d.e']);
      controller(routing, 'ControllerTwo', thing, ['spec.mapOfMapsRecursive.c.d.e.f']);
    });

    // THEN
    expect(messages(result)).toEqual([
      "CAP002 field conflict: 'smd/Routing/ControllerOne' and 'smd/Routing/ControllerTwo' both write spec.mapOfMapsRecursive.c.d.e of example.com/Thing ns/t at runtime. "
        + 'Give each field one owner: drop it from the fields of the RuntimeWriter whose controller does not write it. '
        + 'If both controllers write it, drop it from both: the admission policy lets one identity alone change a field, and leaves a field no writer declares unconstrained.',
    ]);
  });
});

describe('duplicates, against merge/duplicates_test.go and typed/validate_test.go', () => {
  // upstream's duplicatesParser: a set of numbers, and a list of {name, value1, value2} keyed by name
  const DUPLICATES = {
    set: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'integer' } },
    list: {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'items': { type: 'object', properties: { name: { type: 'string' }, value1: { type: 'integer' }, value2: { type: 'integer' } } },
    },
  };

  // typed/validate_test.go: its duplicatesObjects (a set holding a value twice, a keyed list with an element twice) are
  // "valid with AllowDuplicates validation, invalid otherwise", and an apply validates without it (typed/validate.go
  // `duplicate entries for key`). merge/duplicates_test.go makes its duplicates with updates only. A declaration is an
  // apply: each duplicate is a CAP010 naming the field, the key or value, and its writer.
  test('an applied set with a value twice and a keyed list with a key twice: CAP010 each (typed/validate_test.go duplicatesObjects)', () => {
    // GIVEN the declarer applying set [1, 1, 3, 4] (sets/ownership/duplicates) and list elements a, a
    const result = compose(DUPLICATES, { set: [1, 1, 3, 4], list: [{ name: 'a', value1: 1 }, { name: 'a', value1: 2 }] }, () => undefined);

    // THEN
    expect(messages(result)).toEqual([
      "CAP010 invalid object: spec.list of example.com/Thing ns/t has 2 elements with the key [name=a], written by 'smd/Routing/Thing'. "
        + 'Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.',
      "CAP010 invalid object: spec.set of example.com/Thing ns/t holds the value 1 2 times, written by 'smd/Routing/Thing'. "
        + 'Server-side apply refuses a set with a repeated value: write each value once.',
    ]);
  });

  // Not upstream's: the duplicate SMD's updater makes by writing element a beside the applier's a is, between two
  // writers of a composition, one element a in the merge (the ledger merges by key), its fields contested.
  test('a key twice made by two writers, each writing the element once: CAP002 on its fields, not a duplicate', () => {
    // GIVEN the declarer writing element a's value1, and a Contribution writing element a again
    const result = compose(DUPLICATES, { list: [{ name: 'a', value1: 1 }, { name: 'b', value1: 3 }] }, (routing, thing) =>
      contribute(routing, 'Other', thing, { list: [{ name: 'a', value1: 2 }] }));

    // THEN one element a in the merge, its value1 contested
    expect(messages(result)).toEqual([conflict('smd/Routing/Other', 'smd/Routing/Thing', 'spec.list[name=a].value1', contributes('fields', 'smd/Routing/Other'), declares('smd/Routing/Thing'))]);
  });

  // Ported from list/merge/apply_update_duplicates_apply_without: the applier applies element b alone, the updater
  // owns element a (the duplicated one) whole; SMD's last apply has no conflict. A controller of element a beside
  // the declarer of element b is accepted, and the manifest holds the declarer's b.
  test('an applier of element b and a controller of element a: accepted (apply_update_duplicates_apply_without)', () => {
    // GIVEN the declarer applying element b; WHEN a RuntimeWriter writes element a
    const result = compose(DUPLICATES, { list: [{ name: 'b', value1: 3 }] }, (routing, thing) => controller(routing, 'Updater', thing, ['spec.list[name=a]']));

    // THEN
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ list: [{ name: 'b', value1: 3 }] });
  });

  // Ported from sets/ownership/add_duplicate: updater-one's set [1, 3, 4], updater-two's update [1, 1, 3, 4] leaves
  // updater-two owning the value 1 (SMD gives a duplicated value to the manager that duplicated it). As applies, two
  // writers of one value of a set share it (apply_update_apply_with_overlap, above): no conflict, the value once.
  test('two writers of one value of a set: shared, written once (sets/ownership/add_duplicate, as applies)', () => {
    // GIVEN the declarer writing [1, 3, 4]; WHEN a Contribution writes [1]
    const result = compose(DUPLICATES, { set: [1, 3, 4] }, (routing, thing) => contribute(routing, 'Two', thing, { set: [1] }));

    // THEN
    expect(messages(result)).toEqual([]);
    expect(specOf(result)).toEqual({ set: [1, 3, 4] });
  });
});

describe('unknown fields, against merge/preserve_unknown_test.go', () => {
  // upstream's preserveUnknownParser: a map with a field num and other fields of any name; here an object with
  // x-kubernetes-preserve-unknown-fields, from which the API server derives the same schema
  const PRESERVE = { obj: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'properties': { num: { type: 'integer' } } } };

  // Ported from TestPreserveUnknownFields/preserve_unknown_fields: the applier of num: 5 and unknown: value owns both,
  // each a field of its own. So another writer of unknown conflicts with it on unknown alone, and a writer of a third
  // unknown field does not.
  test('a field the schema does not name is a field of its own: a second writer of it conflicts, of another field merges (preserve_unknown_fields)', () => {
    // GIVEN the declarer applying num: 5 and unknown: value
    const declared = { obj: { num: 5, unknown: 'value' } };

    // WHEN a Contribution writes unknown, or another field
    const same = compose(PRESERVE, declared, (routing, thing) => contribute(routing, 'Other', thing, { obj: { unknown: 'new' } }));
    const other = compose(PRESERVE, declared, (routing, thing) => contribute(routing, 'Other', thing, { obj: { extra: 'new' } }));

    // THEN
    expect(messages(same)).toEqual([conflict('smd/Routing/Other', 'smd/Routing/Thing', 'spec.obj.unknown', contributes('fields', 'smd/Routing/Other'), declares('smd/Routing/Thing'))]);
    expect(messages(other)).toEqual([]);
    expect(specOf(other)).toEqual({ obj: { num: 5, unknown: 'value', extra: 'new' } });
  });
});
