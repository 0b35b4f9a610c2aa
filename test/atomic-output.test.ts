import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting } from '../src';
import { configMap, entriesBeside, newApp, readTree, removeTempDirs, tempDir } from './util';
import { confined, writeAtomically } from '../src/render/atomic-output';
import { FileContent, piecewise } from '../src/render/file-content';
import type { OutputTree } from '../src/render/output-tree';

afterAll(removeTempDirs);

function tree(files: Record<string, FileContent>, copies: Record<string, string> = {}): OutputTree {
  return { files: new Map(Object.entries(files)), copies: new Map(Object.entries(copies)) };
}

/** Entries of `parent` that are staging or set-aside folders of `name`. */
function leftovers(parent: string, name: string): string[] {
  return entriesBeside(parent).filter((e) => e.startsWith(`.${name}.`));
}

/** A good program: a Namespace and a ConfigMap in it. */
function goodApp(outdir: string) {
  const app = newApp(outdir);
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
  new ApiObject(routing, 'Edge', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });
  configMap(routing, 'Settings', 'settings', 'edge');
  return app;
}

describe('a refused synth', () => {
  test('leaves the previous output byte-for-byte as it was', () => {
    // GIVEN a first good output
    const outdir = path.join(tempDir(), 'dist');
    goodApp(outdir).synth();
    const before = readTree(outdir);

    // WHEN a later synth into the same outdir is refused (a cycle)
    const app = goodApp(outdir);
    const routing = app.node.findChild('cdn').node.findChild('Routing') as RuntimeRouting;
    const a = configMap(routing, 'A', 'a', 'edge');
    const b = configMap(routing, 'B', 'b', 'edge');
    a.addDependency(b);
    b.addDependency(a);
    expect(() => app.synth()).toThrow(/^The composition was refused with 1 violation:\nCAP004 dependency cycle: cdn\/Routing\/A => cdn\/Routing\/B => cdn\/Routing\/A \(/);

    // THEN the previous output is untouched and nothing is left beside it
    expect(readTree(outdir)).toEqual(before);
    expect(Object.keys(before)).toContain('runtime/0001-cdn-routing-1.yaml');
    expect(leftovers(path.dirname(outdir), 'dist')).toEqual([]);
  });
});

describe('writeAtomically', () => {
  test('a failure midway through writing leaves the previous output unchanged and no staging folder', () => {
    // GIVEN a previous output
    const parent = tempDir();
    const outdir = path.join(parent, 'out');
    writeAtomically(outdir, tree({ 'plan.json': '{"old":true}\n', 'runtime/0001-old.yaml': 'kind: Old\n' }));
    const before = readTree(outdir);

    // WHEN the next write fails at its second file
    const written: string[] = [];
    const write = () =>
      writeAtomically(outdir, tree({ 'a.txt': 'new a', 'b/c.txt': 'new c', 'd.txt': 'new d' }), {
        beforeWrite: (relative) => {
          if (relative === 'b/c.txt') throw new Error('disk full');
          written.push(relative);
        },
      });

    // THEN the error surfaces, after one file went to staging, and nothing changed
    expect(write).toThrow(/\nCAP011 output not written: could not write the output '.*out': disk full\. The previous output is unchanged\.$/);
    expect(written).toEqual(['a.txt']);
    expect(readTree(outdir)).toEqual(before);
    expect(entriesBeside(parent)).toEqual(['out']);
  });

  test('a failure while copying leaves the previous output unchanged and no staging folder', () => {
    // GIVEN a previous output and a source folder to copy
    const parent = tempDir();
    const outdir = path.join(parent, 'out');
    writeAtomically(outdir, tree({ 'plan.json': '{"old":true}\n' }));
    const before = readTree(outdir);
    const source = tempDir();
    fs.writeFileSync(path.join(source, 'template.json'), '{}');

    // WHEN the write fails at the copy, after every generated file went to staging
    const write = () =>
      writeAtomically(outdir, tree({ 'plan.json': '{"new":true}\n' }, { 'deploy/template.json': path.join(source, 'template.json') }), {
        beforeWrite: (relative) => {
          if (relative.startsWith('deploy/')) throw new Error('copy failed');
        },
      });

    // THEN
    expect(write).toThrow(/\nCAP011 output not written: could not write the output '.*out': copy failed\. The previous output is unchanged\.$/);
    expect(readTree(outdir)).toEqual(before);
    expect(leftovers(parent, 'out')).toEqual([]);
  });

  test('a successful write replaces the previous output entirely, leaving no stale files', () => {
    // GIVEN a previous output with a file the next one does not have
    const parent = tempDir();
    const outdir = path.join(parent, 'out');
    writeAtomically(outdir, tree({ 'runtime/0001-old.yaml': 'kind: Old\n', 'plan.json': 'old' }));

    // WHEN a new output is written
    writeAtomically(outdir, tree({ 'plan.json': 'new' }));

    // THEN only the new files (and the marker that says the folder is ours) are there, and no staging or set-aside folder is left
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': '{"generator":"cdk-capability","formatVersion":2,"files":["plan.json"]}\n', 'plan.json': 'new' });
    expect(entriesBeside(parent)).toEqual(['out']);
  });

  test('copies files and folders into the output', () => {
    // GIVEN a source folder with a nested file
    const source = tempDir();
    fs.mkdirSync(path.join(source, 'asset'));
    fs.writeFileSync(path.join(source, 'asset', 'index.js'), 'exports.x = 1;');
    const outdir = path.join(tempDir(), 'out');

    // WHEN written
    writeAtomically(outdir, tree({}, { 'deploy/asset.1': path.join(source, 'asset') }));

    // THEN
    expect(fs.readFileSync(path.join(outdir, 'deploy', 'asset.1', 'index.js'), 'utf-8')).toBe('exports.x = 1;');
  });

  test('writes a file given in pieces as the pieces joined, across writes of many pieces', () => {
    // GIVEN 20,000 pieces of 9 characters: 180,000 in all, more than one write gathers
    const outdir = path.join(tempDir(), 'out');
    const lines = Array.from({ length: 20000 }, (_, i) => `${String(i).padStart(8, '0')}\n`);

    // WHEN written, beside a file given whole
    writeAtomically(outdir, tree({ 'plan.json': piecewise(() => lines), 'interface.json': '{}\n' }));

    // THEN both are byte for byte what was given
    expect(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).toBe(lines.join(''));
    expect(fs.readFileSync(path.join(outdir, 'interface.json'), 'utf-8')).toBe('{}\n');
  });

  test('a piece that cannot be made is a CAP000 naming the file, and the previous output stays', () => {
    // GIVEN a previous output
    const parent = tempDir();
    const outdir = path.join(parent, 'out');
    writeAtomically(outdir, tree({ 'plan.json': '{"old":true}\n' }));
    const before = readTree(outdir);

    // WHEN the next plan.json throws after its first pieces (a bug of ours, not a failed write)
    const broken = piecewise(function* () {
      yield '{\n';
      yield '  "version": 1';
      throw new TypeError('Do not know how to serialize a BigInt');
    });
    const write = () => writeAtomically(outdir, tree({ 'interface.json': '{}\n', 'plan.json': broken }));

    // THEN an internal error, not a CAP011 write failure, and nothing changed
    expect(write).toThrow(
      "The composition was refused with 1 violation:\nCAP000 internal error: making the content of 'plan.json' crashed: Do not know how to serialize a BigInt. This is a bug in cdk-capability, not in your composition: please report it with the composition that triggers it.",
    );
    expect(readTree(outdir)).toEqual(before);
    expect(entriesBeside(parent)).toEqual(['out']);
  });

  test('refuses a generated path that climbs out of the outdir, and keeps the previous output', () => {
    // GIVEN a previous output
    const parent = tempDir();
    const outdir = path.join(parent, 'out');
    writeAtomically(outdir, tree({ 'plan.json': 'old' }));
    const before = readTree(outdir);

    // WHEN a tree names a file outside
    const write = () => writeAtomically(outdir, tree({ '../escaped.txt': 'x' }));

    // THEN
    expect(write).toThrow(/\nCAP011 output not written: could not write the output '.*out': refusing to write '\.\.\/escaped\.txt' outside the output folder '.*'\. The previous output is unchanged\.$/);
    expect(fs.existsSync(path.join(parent, 'escaped.txt'))).toBe(false);
    expect(readTree(outdir)).toEqual(before);
    expect(entriesBeside(parent)).toEqual(['out']);
  });
});

describe('confined', () => {
  const root = path.join(path.sep, 'tmp', 'root');

  test('resolves a relative path under the root', () => {
    expect(confined(root, 'runtime/0001-a.yaml')).toBe(path.join(root, 'runtime', '0001-a.yaml'));
  });

  test('refuses ../x', () => {
    expect(() => confined(root, '../x')).toThrow(`refusing to write '../x' outside the output folder '${root}'`);
  });

  test('refuses a path whose .. segments climb out midway', () => {
    expect(() => confined(root, 'a/../../x')).toThrow(`refusing to write 'a/../../x' outside the output folder '${root}'`);
  });

  test('refuses a sibling folder whose name starts with the root\'s name', () => {
    expect(() => confined(root, '../root-evil/x')).toThrow(`refusing to write '../root-evil/x' outside the output folder '${root}'`);
  });

  test('refuses an absolute path, even one inside the root', () => {
    expect(() => confined(root, '/etc/passwd')).toThrow(`refusing to write '/etc/passwd' outside the output folder '${root}'`);
    expect(() => confined(root, path.join(root, 'a.yaml'))).toThrow(/^refusing to write '.*a\.yaml' outside the output folder/);
  });

  test('refuses the root itself', () => {
    expect(() => confined(root, '.')).toThrow(`refusing to write '.' outside the output folder '${root}'`);
  });
});
