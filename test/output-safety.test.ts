import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Chart } from 'cdk8s';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { configMap, entriesBeside, newApp, readTree, removeTempDirs, tempDir } from './util';
import { slug } from '../src/private/names';
import { holdOutdir, writeAtomically } from '../src/render/atomic-output';
import type { OutputTree } from '../src/render/output-tree';

afterAll(removeTempDirs);
afterEach(() => jest.restoreAllMocks());

/** Windows device names: a file whose name before the first dot is one of these cannot be created there. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** GIVEN-side helper: an app in a fresh parent folder, its outdir `<parent>/dist`. */
function appInTemp(): { app: CapabilityApp; parent: string; outdir: string } {
  const parent = tempDir();
  const outdir = path.join(parent, 'dist');
  return { app: newApp(outdir), parent, outdir };
}

/** One chart per id under capability `cdn`, each with one ConfigMap of a distinct name. */
function chartsWithIds(app: CapabilityApp, ids: readonly string[]): void {
  const cdn = new Capability(app, 'cdn');
  ids.forEach((id, i) => configMap(new RuntimeRouting(cdn, id), 'Settings', `settings-${i}`));
}

/** Every entry under `dir`, relative, with `/`; fails on a symlink (a written link could point anywhere). */
function entries(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const e of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${e.name}` : e.name;
      if (e.isSymbolicLink()) throw new Error(`symlink written: ${child}`);
      found.push(child);
      if (e.isDirectory()) walk(child);
    }
  };
  walk('');
  return found.sort();
}

/** The runtime files a synth planned. */
function runtimeFiles(app: CapabilityApp): string[] {
  const result = app.synthesize();
  if (!result.runtimeFiles) throw new CompositionError(result.violations);
  return result.runtimeFiles.map((f) => f.file);
}

describe('output confinement: names derived from construct ids', () => {
  test('chart ids with ../ write only inside the outdir', () => {
    // GIVEN charts whose ids climb
    const { app, parent } = appInTemp();
    chartsWithIds(app, ['..', '../..', '../../../etc', 'a/../../b']);

    // WHEN
    app.synth();

    // THEN the parent holds only the outdir, and every runtime file sits directly in runtime/
    expect(entriesBeside(parent)).toEqual(['dist']);
    const runtime = entries(path.join(parent, 'dist')).filter((e) => e.startsWith('runtime/'));
    expect(runtime).toEqual(['runtime/0001-cdn.yaml', 'runtime/0002-cdn.yaml', 'runtime/0003-cdn-etc.yaml', 'runtime/0004-cdn-a-b.yaml', 'runtime/kustomization.yaml']);
  });

  test('absolute-looking chart ids become relative, sanitized names', () => {
    const { app } = appInTemp();
    chartsWithIds(app, ['/etc/passwd', 'C:\\Windows\\System32', '\\\\server\\share', '~/.ssh']);

    expect(runtimeFiles(app)).toEqual([
      'runtime/0001-cdn-etc-passwd.yaml',
      'runtime/0002-cdn-c-windows-system32.yaml',
      'runtime/0003-cdn-server-share.yaml',
      'runtime/0004-cdn-ssh.yaml',
    ]);
  });

  test('"." and ".." never become a file or folder name: a slug of only dots is "root"', () => {
    expect(['.', '..', '...', '../..', '/', ''].map(slug)).toEqual(['root', 'root', 'root', 'root', 'root', 'root']);
  });

  test('every derived name uses only lowercase letters, digits and "-" (unicode, spaces, control characters dropped)', () => {
    const { app } = appInTemp();
    chartsWithIds(app, ['été', '中文', 'tab\there', 'nul\u0000byte', 'rtl\u202eoverride', '🚀 launch']);

    for (const file of runtimeFiles(app)) expect(file).toMatch(/^runtime\/\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.yaml$/);
  });

  test('reserved device names (CON, nul, aux, COM1) never become a file name stem', () => {
    // GIVEN a capability, charts and stacks named after Windows device names, and a plain chart at the root
    const { app, outdir } = appInTemp();
    const con = new Capability(app, 'CON');
    configMap(new RuntimeRouting(con, 'nul'), 'A', 'a');
    configMap(new RuntimeRouting(con, 'aux'), 'B', 'b');
    new SharedBase(con, 'COM1');
    new DeploymentAggregate(con, 'lpt1', { stackName: 'PRN' });
    configMap(new Chart(app, 'nul'), 'C', 'c');

    // WHEN
    app.synth();

    // THEN no path segment, up to its first dot, is a device name
    const written = entries(outdir);
    expect(written).toContain('runtime/0001-nul.yaml');
    for (const entry of written) {
      for (const segment of entry.split('/')) expect(segment.split('.')[0]).not.toMatch(RESERVED);
    }
  });

  test('300-character ids give file names of at most 90 characters, and every path segment fits 255 bytes', () => {
    // GIVEN 300-character ids for a chart, a stack (with a short stack name) and a capability
    const { app, outdir } = appInTemp();
    const cap = new Capability(app, `C${'x'.repeat(299)}`);
    configMap(new RuntimeRouting(cap, 'r'.repeat(300)), 'Settings', 'settings');
    const base = new SharedBase(cap, 'B'.repeat(300), { stackName: 'base' });
    new ssm.StringParameter(base, 'P'.repeat(300), { stringValue: 'x' });

    // WHEN
    app.synth();

    // THEN
    const written = entries(outdir);
    expect(written.filter((e) => e.startsWith('runtime/0'))).toEqual([expect.stringMatching(/^runtime\/0001-cx{79}\.yaml$/)]);
    for (const entry of written) {
      for (const segment of entry.split('/')) expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(255);
    }
  });

  test('ids whose slugs collide still give distinct files', () => {
    // GIVEN charts "a.b", "a-b", "A_B", "a b" (one slug) and one chart of two levels (two steps)
    const { app, outdir } = appInTemp();
    chartsWithIds(app, ['a.b', 'a-b', 'A_B', 'a b']);
    const two = new RuntimeRouting(app.node.findChild('cdn') as Capability, 'two');
    configMap(two, 'Second', 'second').addDependency(configMap(two, 'First', 'first'));

    // WHEN
    app.synth();

    // THEN six runtime files, all different, none overwritten
    const files = entries(path.join(outdir, 'runtime')).filter((f) => f !== 'kustomization.yaml');
    expect(files).toEqual(['0001-cdn-a-b.yaml', '0002-cdn-a-b.yaml', '0003-cdn-a-b.yaml', '0004-cdn-a-b.yaml', '0005-cdn-two-1.yaml', '0006-cdn-two-2.yaml']);
  });

  test('an object named ../../escape is refused, and nothing is written', () => {
    // GIVEN an object name that is a path
    const { app, parent } = appInTemp();
    configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Escape', '../../escape');

    // WHEN / THEN
    expect(() => app.synth()).toThrow(/^The composition was refused with 1 violation:\nCAP010 invalid object: 'metadata\.name' \("\.\.\/\.\.\/escape"\)/);
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});

describe('nothing lost', () => {
  /** GIVEN-side helper: a first output in `outdir`, and the output of a changed program with files and copies. */
  function previousAndNext(): { outdir: string; parent: string; next: OutputTree } {
    const { app, parent, outdir } = appInTemp();
    const cdn = new Capability(app, 'cdn');
    new SharedBase(cdn, 'Base');
    configMap(new RuntimeRouting(cdn, 'Routing'), 'Settings', 'settings');
    app.synth();

    const changed = newApp(outdir);
    const cdn2 = new Capability(changed, 'cdn');
    new ssm.StringParameter(new SharedBase(cdn2, 'Base'), 'Origin', { stringValue: 'origin.example.com' });
    new DeploymentAggregate(cdn2, 'acme');
    configMap(new RuntimeRouting(cdn2, 'Routing'), 'Settings', 'settings-v2');
    const next = changed.synthesize().output;
    if (!next) throw new Error('the changed program was refused');
    return { outdir, parent, next };
  }

  test('a failure at any write step leaves the previous output byte-identical, with no staging folder or lock behind', () => {
    // GIVEN a previous output and the write steps of the next one
    const { outdir, parent, next } = previousAndNext();
    const before = readTree(outdir);
    const steps: string[] = [];
    writeAtomically(path.join(tempDir(), 'dry-run'), next, { beforeWrite: (r) => steps.push(r) });
    expect(steps.length).toBeGreaterThanOrEqual(8);
    expect(steps).toEqual(expect.arrayContaining(['plan.json', 'deploy/manifest.json', expect.stringMatching(/^deploy\/.*\.template\.json$/)]));

    for (const failing of steps) {
      // WHEN the write fails at this step
      const write = () =>
        writeAtomically(outdir, next, {
          beforeWrite: (relative) => {
            if (relative === failing) throw new Error(`injected failure at ${relative}`);
          },
        });

      // THEN
      expect(write).toThrow(`injected failure at ${failing}`);
      expect(readTree(outdir)).toEqual(before);
      expect(entriesBeside(parent)).toEqual(['dist']);
    }
  });

  test('a failure moving the new output in puts the previous output back', () => {
    // GIVEN a previous output, and a rename of the staged output onto the outdir that fails
    const { outdir, parent, next } = previousAndNext();
    const before = readTree(outdir);
    const nodeFs: typeof fs = jest.requireActual('fs'); // the module object itself: `import * as` gives read-only bindings
    const rename = nodeFs.renameSync;
    jest.spyOn(nodeFs, 'renameSync').mockImplementation((from, to) => {
      if (/\.run-\d+-[0-9a-f]+\/output-/.test(String(from))) throw Object.assign(new Error('EXDEV: injected'), { code: 'EXDEV', syscall: 'rename', path: String(from) });
      return rename(from, to);
    });

    // WHEN / THEN
    try {
      expect(() => writeAtomically(outdir, next)).toThrow(/CAP011 output not written: could not write the output '.*dist': EXDEV: injected \(EXDEV, rename '.*output-[0-9a-f]+'\)\. The previous output is unchanged\.$/);
    } finally {
      jest.restoreAllMocks();
    }
    expect(readTree(outdir)).toEqual(before);
    expect(entriesBeside(parent)).toEqual(['dist']);
  });
});

describe('a second synth of the same app', () => {
  test('with a stack writes the same output again, and leaves no run folder behind', () => {
    // GIVEN an app with a stack, synthesized once
    const { app, parent, outdir } = appInTemp();
    const cdn = new Capability(app, 'cdn');
    new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'Origin', { stringValue: 'origin.example.com' });
    configMap(new RuntimeRouting(cdn, 'Routing'), 'Settings', 'settings');
    app.synth();
    const first = readTree(outdir);

    // WHEN synthesized again (its stage reuses the first cloud assembly's folder, which the first synth removed)
    app.synth();

    // THEN the same files with the same manifests and templates (aws-cdk's forced synth of a stage repeats a
    // stack's templateFile entry in its metadata file), and nothing beside them
    const second = readTree(outdir);
    const withoutMetadata = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([file]) => !file.endsWith('.metadata.json')));
    expect(Object.keys(second)).toEqual(Object.keys(first));
    expect(withoutMetadata(second)).toEqual(withoutMetadata(first));
    expect(Object.keys(first).filter((f) => /\.(template\.json|ya?ml|list)$/.test(f))).toEqual(['audit/objects.list', 'deploy/cdnBase4FF4A8ED.template.json', 'runtime/0001-cdn-routing.yaml', 'runtime/kustomization.yaml']);
    expect(entriesBeside(parent)).toEqual(['dist']);
    expect(fs.readdirSync(parent).filter((e) => e.includes('.run-'))).toEqual([]);
  });
});

describe('copied assets', () => {
  test('a relative symlink inside a copied folder stays relative, not an absolute link into scratch space', () => {
    // GIVEN an asset folder (as aws-cdk stages it) holding a relative link
    const source = tempDir();
    fs.mkdirSync(path.join(source, 'asset', 'lib'), { recursive: true });
    fs.writeFileSync(path.join(source, 'asset', 'lib', 'index.js'), 'exports.x = 1;');
    fs.symlinkSync('lib/index.js', path.join(source, 'asset', 'main.js'));
    const outdir = path.join(tempDir(), 'dist');

    // WHEN copied into the output
    writeAtomically(outdir, { files: new Map(), copies: new Map([['deploy/asset.1', path.join(source, 'asset')]]) });

    // THEN the link is the same relative link, resolving inside the outdir even once the source is gone
    const link = path.join(outdir, 'deploy', 'asset.1', 'main.js');
    expect(fs.readlinkSync(link)).toBe('lib/index.js');
    fs.rmSync(source, { recursive: true, force: true });
    expect(fs.readFileSync(link, 'utf-8')).toBe('exports.x = 1;');
  });
});

describe('the outdir lock', () => {
  test('a synth into an outdir another synth holds fails with a clear error and changes nothing', () => {
    // GIVEN a previous output and another synth of this process holding the outdir
    const { app, parent, outdir } = appInTemp();
    configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', 'settings');
    app.synth();
    const before = readTree(outdir);
    const other = holdOutdir(outdir);

    // WHEN / THEN
    try {
      expect(() => app.synth()).toThrow(
        `CAP011 output not written: a synth of this same process (${process.pid}) is writing '${outdir}' (it holds the lock '${outdir}.lock'): this synth was started inside it, or by a second copy of cdk-capability loaded in this process, into the same outdir; nothing was changed.`,
      );
      expect(readTree(outdir)).toEqual(before);
      expect(entriesBeside(parent)).toEqual(['dist', 'dist.lock']);
    } finally {
      other.release();
    }
    expect(entriesBeside(parent)).toEqual(['dist']);
  });

  test('a second synth that starts while the first is writing fails, and the first completes unmixed', () => {
    // GIVEN two programs writing to one outdir
    const { app: first, outdir } = appInTemp();
    configMap(new RuntimeRouting(new Capability(first, 'cdn'), 'Routing'), 'Settings', 'first');
    const second = newApp(outdir);
    configMap(new RuntimeRouting(new Capability(second, 'cdn'), 'Routing'), 'Settings', 'second');
    const secondOutput = second.synthesize().output!;

    // WHEN the second starts midway through the first's writes
    let secondError: unknown;
    writeAtomically(outdir, first.synthesize().output!, {
      beforeWrite: (relative) => {
        if (relative !== 'plan.json') return;
        try {
          writeAtomically(outdir, secondOutput);
        } catch (e) {
          secondError = e;
        }
      },
    });

    // THEN the second was turned away and the output is the first's alone
    expect(String(secondError)).toMatch(
      new RegExp(`^CompositionError: The composition was refused with 1 violation:\nCAP011 output not written: a synth of this same process \\(${process.pid}\\) is writing '`),
    );
    expect(fs.readFileSync(path.join(outdir, 'runtime', '0001-cdn-routing.yaml'), 'utf-8')).toContain('name: first');
    expect(fs.existsSync(`${outdir}.lock`)).toBe(false);
  });

  test('is released after a failed write', () => {
    const outdir = path.join(tempDir(), 'dist');
    const tree: OutputTree = { files: new Map([['plan.json', '{}']]), copies: new Map() };

    expect(() => writeAtomically(outdir, tree, { beforeWrite: () => { throw new Error('disk full'); } })).toThrow('disk full');
    expect(fs.existsSync(`${outdir}.lock`)).toBe(false);
    writeAtomically(outdir, tree);
    expect(entriesBeside(path.dirname(outdir))).toEqual(['dist']);
  });
});
