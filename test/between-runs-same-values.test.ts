/**
 * Between the runs of write callbacks, an object counts as changed only where its render changed: a value that
 * is the same before and after is no change, NaN included (it is not === to itself), while 0 and -0 (which YAML
 * writes as 0 and -0) are different values, as `Object.is` tells.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { renderDelta } from '../src/collect/ledger/render-delta';

afterAll(removeTempDirs);

/** An app whose Contribution A sets the annotation 'n' of ConfigMap 'shop/Routing/Cm' to `value`; B and C, whose target is another ConfigMap, run after it. */
function app(value: unknown): CapabilityApp {
  const a = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const routing = new RuntimeRouting(new Capability(a, 'shop'), 'Routing');
  const cm = new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
  const other = new ApiObject(routing, 'Other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' }, data: { a: '1' } });
  new Contribution(routing, 'A', { target: cm, write: (t) => t.metadata.addAnnotation('n', value as string) });
  new Contribution(routing, 'B', { target: other, write: (t) => t.metadata.addLabel('b', 'yes') });
  new Contribution(routing, 'C', { target: other, write: (t) => t.metadata.addLabel('c', 'yes') });
  return a;
}

const messages = (a: CapabilityApp) => a.synthesize().violations.map((v) => `${v.code} ${v.message}`);

describe('a write callback that sets NaN', () => {
  test('is refused for the NaN alone: the callbacks after it are not taken for changing its target', () => {
    expect(messages(app(NaN))).toEqual([
      "CAP010 invalid object: 'metadata.annotations.n' of ConfigMap cm declared by 'shop/Routing/Cm' is NaN, which JSON has no form for: cdk8s writes it as .nan, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string. " +
        "'metadata.annotations.n' was written by the Contribution 'shop/Routing/A', not by the props of 'shop/Routing/Cm'.",
    ]);
  });
});

describe('the comparison of two renders', () => {
  test('NaN before and after is no change; 0 and -0 differ; undefined and a missing key are the same', () => {
    expect(renderDelta({ n: NaN, l: [NaN] }, { n: NaN, l: [NaN] })).toEqual([]);
    expect(renderDelta({ n: 0 }, { n: -0 })).toEqual([{ path: ['n'], before: 0, after: -0 }]);
    expect(renderDelta({ n: -0 }, { n: -0 })).toEqual([]);
    expect(renderDelta({ a: '1' }, { a: '1', n: undefined })).toEqual([]);
    expect(renderDelta({ a: '1', n: undefined }, { a: '1' })).toEqual([]);
    expect(renderDelta({ n: NaN }, { n: 1 })).toEqual([{ path: ['n'], before: NaN, after: 1 }]);
  });
});
