import * as fc from 'fast-check';
import { contestedPaths, findFieldConflicts, twoWritersMeet } from '../src/check/rules/field-conflicts';
import type { FieldWrite, ObjectWrites } from '../src/collect/facts';
import { FieldPath, formatPath } from '../src/collect/ledger/field-path';
import { FieldIndex } from '../src/collect/ledger/field-set';
import { Writer, writerName } from '../src/collect/ledger/writer';
import { compareText } from '../src/private/compare';

/**
 * The contested paths as the rule found them before it kept only the paths another writer than the main one
 * writes through: every replaced path in one `FieldIndex`, every write walked down it. The oracle of the
 * properties below.
 */
function everyReplacedPath(writes: readonly FieldWrite[]): Array<[FieldPath, Map<string, Writer>]> {
  const replaced = new FieldIndex<Map<string, Writer>>();
  for (const { writer, path, presence } of writes) if (!presence) replaced.upsert(path, () => new Map()).set(writer.id, writer);
  const contested = new FieldIndex<Map<string, Writer>>();
  for (const { writer, path } of writes) {
    replaced.forEachPrefix(path, (replacers, depth) => {
      const at = path.length === depth ? path : path.slice(0, depth);
      contested.upsert(at, () => new Map(replacers)).set(writer.id, writer);
    });
  }
  return [...contested.entries()];
}

/** The groups the rule made before, per object: writers sorted by name, fields sorted as formatted. */
function groupsBefore(objects: readonly ObjectWrites[]) {
  const found = [];
  for (const object of objects) {
    const groups = new Map<string, { writers: Writer[]; fields: Array<[string, FieldPath]> }>();
    for (const [path, writers] of everyReplacedPath(object.writes)) {
      if (writers.size < 2 || [...writers.values()].every((w) => w.kind === 'runtime')) continue;
      const sorted = [...writers.values()].sort((a, b) => compareText(writerName(a), writerName(b)) || compareText(a.id, b.id));
      const id = sorted.map((w) => w.id).join('\u0000');
      if (!groups.has(id)) groups.set(id, { writers: sorted, fields: [] });
      groups.get(id)!.fields.push([formatPath(path), path]);
    }
    for (const group of groups.values()) {
      const fields = group.fields.sort((a, b) => compareText(a[0], b[0]));
      found.push({ object: object.label, writers: group.writers, fields: fields.map((f) => f[0]), leaves: fields.map((f) => f[1]) });
    }
  }
  return found;
}

/** The paths of two writers or more, each with its writers in the order of their map. */
const atLeastTwo = (paths: Array<[FieldPath, Map<string, Writer>]>) =>
  paths.filter(([, writers]) => writers.size >= 2).map(([path, writers]) => [path, [...writers]]);

// a declarer that writes most leaves, a Contribution, two runtime writers, and a plain patch whose two calls are one
// writer (one id) of two sites: the writer a path keeps is the one that wrote it last
const WRITERS: Writer[] = [
  { path: 'app/Web', kind: 'declaration', id: 'declaration:app/Web' },
  { path: 'team/Extra', kind: 'contribution-fields', id: 'contribution:team/Extra' },
  { path: 'app/Hpa', kind: 'runtime', id: 'runtime:app/Hpa' },
  { path: 'app/Vpa', kind: 'runtime', id: 'runtime:app/Vpa' },
  { path: 'app/Web/Resource', kind: 'json-patch', method: 'addJsonPatch', site: 'main.ts:1', id: 'json-patch:app/Web/Resource' },
  { path: 'app/Web/Resource', kind: 'json-patch', method: 'addJsonPatch', site: 'main.ts:2', id: 'json-patch:app/Web/Resource' },
];
const segment = fc.constantFrom('spec', 'metadata', 'labels', 'replicas', 'k:{"name":"web"}', 'v:"a"', 'x');
const write: fc.Arbitrary<FieldWrite> = fc.record({
  // the declarer most often, as in a real object
  writer: fc.oneof({ weight: 6, arbitrary: fc.constant(WRITERS[0]) }, { weight: 4, arbitrary: fc.constantFrom(...WRITERS.slice(1)) }),
  path: fc.array(segment, { maxLength: 4 }),
  presence: fc.constantFrom<true | undefined>(undefined, undefined, undefined, true),
}).map(({ writer, path, presence }) => (presence ? { writer, path, presence } : { writer, path }));
const object: fc.Arbitrary<ObjectWrites> = fc.record({
  label: fc.constantFrom('apps/Deployment shop/web', 'v1/ConfigMap shop/config'),
  kind: fc.constant<'k8s'>('k8s'),
  writes: fc.array(write, { maxLength: 30, size: 'max' }),
});

/**
 * `twoWritersMeet` as it was written before its loops were indexed (`for...of`), kept as the oracle of the property
 * that the rewrite answers the same: the pairs compared are those of `MEETINGS_COMPARED` (4096).
 */
function twoWritersMeetBefore(writes: readonly FieldWrite[]): boolean {
  if (writes.length < 2) return false;
  const first = writes[0].writer.id;
  let others = 0;
  for (const w of writes) if (w.writer.id !== first) others++;
  if (others === 0) return false;
  if (others * writes.length > 4096) return true;
  for (const a of writes) {
    if (a.writer.id === first) continue;
    for (const b of writes) {
      const n = Math.min(a.path.length, b.path.length);
      let onOnePath = true;
      for (let i = 0; i < n && onOnePath; i++) onOnePath = a.path[i] === b.path[i];
      if (b.writer.id !== a.writer.id && onOnePath) return true;
    }
  }
  return false;
}

describe('field conflicts kept to the paths another writer than the main one writes', () => {
  test('the contested paths of two writers or more, their writers and their order, are those of every replaced path', () => {
    let contested = 0;
    fc.assert(
      fc.property(fc.array(write, { maxLength: 40, size: 'max' }), (writes) => {
        const expected = atLeastTwo(everyReplacedPath(writes));
        expect(atLeastTwo(contestedPaths(writes))).toEqual(expected);
        if (expected.length > 1) contested++;
      }),
      { numRuns: 2000 },
    );
    // not vacuous: most write lists contest several paths
    expect(contested).toBeGreaterThan(500);
  });

  test('twoWritersMeet answers as the for...of version it replaced, below and above the pairs it compares (property)', () => {
    const answers = { true: 0, false: 0 };
    // the declarer's paths under spec, the others' under metadata: they meet only where two of the others do
    const apart = fc.array(write, { maxLength: 30, size: 'max' }).map((writes) => writes.map((w) => ({ ...w, path: [w.writer === WRITERS[0] ? 'spec' : 'metadata', ...w.path] })));
    // up to 90 writes: past 4096 pairs (64 writes of others than the first) it answers true without comparing
    const long = fc.array(write, { minLength: 40, maxLength: 90 });
    fc.assert(
      fc.property(fc.oneof(fc.array(write, { maxLength: 30, size: 'max' }), apart, long), (writes) => {
        const expected = twoWritersMeetBefore(writes);
        expect(twoWritersMeet(writes)).toBe(expected);
        answers[`${expected}`]++;
      }),
      { numRuns: 2000 },
    );
    // not vacuous: both answers are common
    expect(answers.true).toBeGreaterThan(100);
    expect(answers.false).toBeGreaterThan(100);
  });

  test('writes where no two writers meet on one path have no path of two writers, and most lists of several writers are told apart so (property)', () => {
    let passedOver = 0;
    // the declarer's paths under spec, the others' under metadata: they meet only where two of the others do
    const apart = fc.array(write, { maxLength: 30, size: 'max' }).map((writes) => writes.map((w) => ({ ...w, path: [w.writer === WRITERS[0] ? 'spec' : 'metadata', ...w.path] })));
    fc.assert(
      fc.property(fc.oneof(fc.array(write, { maxLength: 30, size: 'max' }), apart), (writes) => {
        if (twoWritersMeet(writes)) return;
        expect(atLeastTwo(everyReplacedPath(writes))).toEqual([]);
        if (new Set(writes.map((w) => w.writer.id)).size > 1) passedOver++;
      }),
      { numRuns: 2000 },
    );
    // not vacuous: many lists of several writers are passed over
    expect(passedOver).toBeGreaterThan(100);
  });

  test('the conflicts of many objects, their writers and fields in order, are those found over every replaced path', () => {
    fc.assert(
      fc.property(fc.array(object, { maxLength: 8 }), (objects) => {
        const found = findFieldConflicts(objects).map(({ object: o, writers, fields, leaves }) => ({ object: o, writers, fields, leaves }));
        expect(found).toEqual(groupsBefore(objects));
      }),
      { numRuns: 500 },
    );
  });

  test('an object of one writer has no contested path, and a Contribution of one annotation contests only its own path', () => {
    // GIVEN a Deployment's leaves by its declarer, and one annotation by a Contribution that the declarer writes too
    const [declarer, contribution] = WRITERS;
    const leaves: FieldPath[] = [['metadata', 'name'], ['metadata', 'annotations', 'on-call'], ['spec', 'replicas'], ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image']];
    const writes: FieldWrite[] = leaves.map((path) => ({ writer: declarer, path }));

    // THEN
    expect(contestedPaths(writes)).toEqual([]);
    expect(contestedPaths([...writes, { writer: contribution, path: ['metadata', 'annotations', 'on-call'] }])).toEqual([
      [['metadata', 'annotations', 'on-call'], new Map([[declarer.id, declarer], [contribution.id, contribution]])],
    ]);
  });
});
