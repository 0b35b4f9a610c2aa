import { ApiObject, JsonPatch } from 'cdk8s';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';
import { leaves, valueAt, writtenBy } from './writer-views';

/**
 * Every JSON patch of a Kubernetes object is a write the ledger records, whoever adds it and wherever it points
 * (a leaf, or a map over leaves another patch set or the declaration wrote). The oracle is cdk8s' own render of the patches, which this
 * library did not write: when synth accepts a composition, no writer's value is lost, so each writer's patches
 * (applied as JSON patch applies them, in order, the last one at a path replacing what was there) are all in the
 * object as written. When it refuses, every violation is a CAP002 (two writers of one field) or a CAP010 naming a
 * patch that cannot apply (a path whose parent a patch replaced with a string). An exception is a failed case.
 */

afterAll(removeTempDirs);

const RUNS = Number(process.env.PROPERTY_RUNS ?? 120);

/** Where a patch points: paths that share prefixes, so patches replace each other's maps. */
const PATHS = ['/spec/a', '/spec/a/b', '/spec/a/z', '/spec/c', '/spec/d', '/spec/e'];

/** The leaves the declaration writes: a patch of a map above one deletes it unless its value holds it. */
const DECLARED: ReadonlyArray<[string[], string]> = [[['spec', 'c'], 'init'], [['spec', 'd'], 'init'], [['spec', 'e', 'q'], 'init']];

interface Patch {
  /** 0 and 1: a Contribution of its own (its `patches`); 2 and 3: a plain addJsonPatch made on line 2 or 3. */
  readonly writer: number;
  readonly op: 'add' | 'replace';
  readonly path: string;
  readonly value: unknown;
}

const value = fc.oneof(fc.constantFrom('x', 'y'), fc.dictionary(fc.constantFrom('b', 'k', 'z'), fc.constantFrom('v', 'w'), { minKeys: 1, maxKeys: 2 }));
const patch: fc.Arbitrary<Patch> = fc.record({ writer: fc.nat({ max: 3 }), op: fc.constantFrom('add' as const, 'replace' as const), path: fc.constantFrom(...PATHS), value });

test("an accepted composition loses no writer's patch; a refused one is refused with CAP002, or CAP010 for a patch that cannot apply", () => {
  fc.assert(
    fc.property(fc.array(patch, { minLength: 1, maxLength: 6 }), (patches) => {
      // GIVEN a custom resource whose spec holds every map the patches point into, written by two Contributions
      // and two lines of plain patches in this order
      const app = new CapabilityApp({ outdir: tempDir() });
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      const thing = new ApiObject(routing, 'Thing', { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'thing' }, spec: { a: {}, c: 'init', d: 'init', e: { q: 'init' } } });
      patches.forEach((p, i) => {
        const op = p.op === 'add' ? JsonPatch.add(p.path, p.value) : JsonPatch.replace(p.path, p.value);
        if (p.writer < 2) new Contribution(routing, `Team${p.writer}Patch${i}`, { target: thing, patches: [op] });
        else if (p.writer === 2) thing.addJsonPatch(op);
        else thing.addJsonPatch(op);
      });

      // WHEN
      const result = CapabilityTesting.synth(app);

      // THEN
      if (result.violations.length > 0) {
        const expected = (v: { code: string; message: string }) => v.code === 'CAP002' || (v.code === 'CAP010' && /JSON patch \d+ \(/.test(v.message));
        expect(result.violations.filter((v) => !expected(v))).toEqual([]);
        return;
      }
      const written = result.runtimeObjects.find((o: any) => o.kind === 'Thing');
      const writers = [...patches.filter((p) => p.writer < 2).map((p) => [p]), ...[2, 3].map((w) => patches.filter((p) => p.writer === w))];
      for (const own of writers) {
        for (const [keys, v] of leaves(writtenBy(own.map((p) => ({ keys: p.path.split('/').slice(1), value: p.value }))))) {
          expect([`/${keys.join('/')}`, valueAt(written, keys)]).toEqual([`/${keys.join('/')}`, v]);
        }
      }
      // and the declarer's values are there too, but where its own plain patches (its escape hatch) set a value
      // at or above them
      for (const [keys, v] of DECLARED) {
        const overridden = patches.some((p) => p.writer >= 2 && `/${keys.join('/')}/`.startsWith(`${p.path}/`));
        if (!overridden) expect([`/${keys.join('/')}`, valueAt(written, keys)]).toEqual([`/${keys.join('/')}`, v]);
      }
    }),
    { numRuns: RUNS },
  );
});
