import { CfnResource } from 'aws-cdk-lib';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';
import { leaves, valueAt, writtenBy } from './writer-views';

/**
 * Every override of a CloudFormation resource is a write the ledger records, whoever makes it and wherever it
 * points (a property, `Properties` whole, `Metadata`, `DeletionPolicy`). The oracle is aws-cdk's own render, which
 * this library did not write: when synth accepts a composition, no writer's value is lost, so each writer's
 * overrides (merged as aws-cdk merges one writer's calls, in order) are all in the resource's template. When it
 * refuses, every violation is a CAP002 (two writers of one field). An exception is a failed case.
 */

afterAll(removeTempDirs);

const RUNS = Number(process.env.PROPERTY_RUNS ?? 120);

/** Where an override points: a few paths that share prefixes, so calls replace each other's maps. */
const PATHS = ['Properties.A', 'Properties.A.B', 'Properties.C', 'Properties', 'Metadata.K', 'Metadata', 'DeletionPolicy', 'UpdateReplacePolicy'];

interface Call {
  /** 0 and 1: a Contribution of its own (a write callback); 2 and 3: a plain call made on line 2 or 3 (a call site is one writer). */
  readonly writer: number;
  readonly path: string;
  readonly value: unknown;
}

const value = fc.oneof(fc.constantFrom('x', 'y'), fc.dictionary(fc.constantFrom('A', 'B', 'K', 'Z'), fc.constantFrom('v', 'w'), { minKeys: 1, maxKeys: 2 }));
const call: fc.Arbitrary<Call> = fc.record({ writer: fc.nat({ max: 3 }), path: fc.constantFrom(...PATHS), value });

test('an accepted composition loses no writer\'s override; a refused one is refused with CAP002 only', () => {
  fc.assert(
    fc.property(fc.array(call, { minLength: 1, maxLength: 6 }), (calls) => {
      // GIVEN a resource with no props of its own, written by two Contributions and plain calls in this order
      const app = new CapabilityApp({ outdir: tempDir() });
      const base = new SharedBase(new Capability(app, 'shop'), 'Base');
      const resource = new CfnResource(base, 'Thing', { type: 'Custom::Thing' });
      calls.forEach((c, i) => {
        if (c.writer < 2) new Contribution(base, `Team${c.writer}Call${i}`, { target: resource, write: (r) => (r as CfnResource).addOverride(c.path, c.value) });
        else if (c.writer === 2) resource.addOverride(c.path, c.value);
        else resource.addOverride(c.path, c.value);
      });

      // WHEN
      const result = CapabilityTesting.synth(app);

      // THEN
      if (result.violations.length > 0) {
        expect(result.violations.map((v) => v.code)).toEqual(result.violations.map(() => 'CAP002'));
        return;
      }
      const rendered = Object.values<any>(result.templates['shop/Base'].Resources).find((r) => r.Type === 'Custom::Thing');
      const writers = [...calls.filter((c) => c.writer < 2).map((c) => [c]), ...[2, 3].map((w) => calls.filter((c) => c.writer === w))];
      for (const own of writers) {
        for (const [keys, v] of leaves(writtenBy(own.map((c) => ({ keys: c.path.split('.'), value: c.value }))))) {
          expect([keys.join('.'), valueAt(rendered, keys)]).toEqual([keys.join('.'), v]);
        }
      }
    }),
    { numRuns: RUNS },
  );
});
