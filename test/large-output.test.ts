import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting } from '../src';
import { newApp, removeTempDirs } from './util';
import { PIECEWISE_FROM_OBJECTS, textOf } from '../src/render/file-content';

afterAll(removeTempDirs);

/** An app of `count` ConfigMaps in two charts, each with data. */
function appOf(count: number) {
  const app = newApp();
  const capability = new Capability(app, 'bench');
  const charts = [new RuntimeRouting(capability, 'A'), new RuntimeRouting(capability, 'B')];
  for (let i = 0; i < count; i++) {
    new ApiObject(charts[i % 2], `Cm${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'edge' }, data: { index: String(i), quoted: 'yes: no' } });
  }
  return app;
}

// Large outputs are made piece by piece while they are written (src/render/file-content.ts); a small one whole.
// Either way the bytes must be the same: the plan is JSON.stringify's text, a runtime file its objects' YAML.
describe('a large output', () => {
  test(`from ${PIECEWISE_FROM_OBJECTS.toLocaleString('en-US')} objects, plan.json, the runtime files and audit/objects.list are made in pieces, with the bytes of the whole`, () => {
    // GIVEN an app just large enough
    const app = appOf(PIECEWISE_FROM_OBJECTS);

    // WHEN synthesized and written
    const result = app.synthesize();
    app.synth();

    // THEN its big files are pieces, whose text is what the small path writes, and the written files are that text
    const files = result.output!.files;
    const plan = files.get('plan.json')!;
    expect(typeof plan).toBe('object');
    expect(textOf(plan)).toBe(`${JSON.stringify(result.plan, undefined, 2)}\n`);
    expect(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8')).toBe(textOf(plan));
    const runtimeFiles = result.runtimeFiles!;
    expect(runtimeFiles.map((f) => f.file)).toEqual(['runtime/0001-bench-a.yaml', 'runtime/0002-bench-b.yaml']);
    for (const { file, objects } of runtimeFiles) {
      const content = files.get(file)!;
      expect(typeof content).toBe('object');
      const written = fs.readFileSync(path.join(app.outdir, file), 'utf-8');
      expect(written).toBe(textOf(content));
      expect(written.split('---\n')).toHaveLength(objects.length);
    }
    expect(fs.readFileSync(path.join(app.outdir, 'runtime/0001-bench-a.yaml'), 'utf-8').split('---\n')[0]).toBe(
      ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: cm-0', '  namespace: edge', 'data:', '  index: "0"', '  quoted: "yes: no"', ''].join('\n'),
    );
    const identities = files.get('audit/objects.list')!;
    expect(typeof identities).toBe('object');
    const listed = fs.readFileSync(path.join(app.outdir, 'audit/objects.list'), 'utf-8');
    expect(listed).toBe(textOf(identities));
    const documents = listed.split('---\n');
    expect(documents).toHaveLength(PIECEWISE_FROM_OBJECTS);
    expect(documents[0].split('\n').slice(1)).toEqual(['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-0","namespace":"edge"}}', '']);
    expect(documents[1]).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-2","namespace":"edge"}}\n');
  });

  test('below it, the same files are made whole', () => {
    const result = appOf(PIECEWISE_FROM_OBJECTS - 1).synthesize();
    expect(typeof result.output!.files.get('plan.json')).toBe('string');
    expect(typeof result.output!.files.get('runtime/0001-bench-a.yaml')).toBe('string');
    expect(typeof result.output!.files.get('audit/objects.list')).toBe('string');
  });
});
