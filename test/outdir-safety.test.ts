import * as fs from 'fs';
import * as path from 'path';
import { Capability, CapabilityApp, CompositionError, RuntimeRouting } from '../src';
import { configMap, readTree, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const MARKER = '.cdk-capability-output';
/** The lock of a release with nothing in it. */
const EMPTY_LOCK = '{"formatVersion":1,"interfaces":[],"units":[],"barriers":[],"edges":[]}\n';
const savedEnv = process.env.CDK8S_OUTDIR;
const savedCwd = process.cwd();
afterEach(() => {
  process.chdir(savedCwd);
  if (savedEnv === undefined) delete process.env.CDK8S_OUTDIR;
  else process.env.CDK8S_OUTDIR = savedEnv;
});

/** A project folder, made the working directory, with a source file, a lock file and a `.git` folder to lose. */
function project(): string {
  const dir = tempDir('cdk-capability-project-');
  fs.writeFileSync(path.join(dir, 'main.ts'), '// the program\n');
  fs.writeFileSync(path.join(dir, 'capability.lock.json'), EMPTY_LOCK);
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  process.chdir(dir);
  return dir;
}

/** An app with one ConfigMap; `outdir` as given (undefined: the default). */
function appWith(outdir?: string, lockFile?: string): CapabilityApp {
  const app = new CapabilityApp({ ...(outdir === undefined ? {} : { outdir }), ...(lockFile ? { lockFile } : {}) });
  configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', 'settings');
  return app;
}

/** The violations a synth throws, or [] when it writes. */
function refusal(app: CapabilityApp): Array<{ code: string; message: string }> {
  try {
    app.synth();
    return [];
  } catch (e) {
    if (!(e instanceof CompositionError)) throw e;
    return e.violations.map((v) => ({ code: v.code, message: v.message }));
  }
}

describe('the outdir', () => {
  test('a blank CDK8S_OUTDIR counts as unset: the output goes to dist, the project stays', () => {
    // GIVEN a project and CDK8S_OUTDIR set but empty, as `CDK8S_OUTDIR= npx ts-node main.ts` leaves it
    const dir = project();
    const before = readTree(dir);
    process.env.CDK8S_OUTDIR = '';

    // WHEN
    const app = appWith();
    app.synth();

    // THEN the outdir is dist, and everything the project held is still there
    expect(app.outdir).toBe('dist');
    const after = readTree(dir);
    for (const [file, content] of Object.entries(before)) expect(after[file]).toBe(content);
    expect(after[`dist/${MARKER}`]).toBeDefined();
  });

  test('a CDK8S_OUTDIR of spaces counts as unset too', () => {
    process.env.CDK8S_OUTDIR = '  ';
    expect(appWith().outdir).toBe('dist');
  });

  test('outdir "." (the working directory) is refused with CAP011 and nothing is touched', () => {
    // GIVEN
    const dir = project();
    const before = readTree(dir);

    // WHEN
    const found = refusal(appWith('.'));

    // THEN
    expect(found).toEqual([
      {
        code: 'CAP011',
        message:
          "output not written: the outdir '.' is the working directory, which synth would replace as a whole. Nothing was changed. Point the outdir (the outdir prop, or CDK8S_OUTDIR) at a new or empty folder, or at one a previous synth wrote.",
      },
    ]);
    expect(readTree(dir)).toEqual(before);
  });

  test('an explicitly empty outdir prop is the working directory, and refused', () => {
    const dir = project();
    const before = readTree(dir);
    expect(refusal(appWith(''))).toEqual([expect.objectContaining({ code: 'CAP011', message: expect.stringMatching(/^output not written: the outdir '' is the working directory/) })]);
    expect(readTree(dir)).toEqual(before);
  });

  test('an outdir that contains the working directory is refused', () => {
    // GIVEN the working directory is a sub folder of the outdir
    const dir = project();
    fs.mkdirSync(path.join(dir, 'sub'));
    process.chdir(path.join(dir, 'sub'));
    const before = readTree(dir);

    // WHEN / THEN
    expect(refusal(appWith(dir))).toEqual([
      expect.objectContaining({ code: 'CAP011', message: expect.stringContaining(`the outdir '${dir}' contains the working directory '${path.join(dir, 'sub')}'`) }),
    ]);
    expect(readTree(dir)).toEqual(before);
  });

  test('an outdir holding files this library did not write is refused, and they stay', () => {
    // GIVEN a folder of someone else's files
    const dir = project();
    const outdir = path.join(dir, 'docs');
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, 'README.md'), '# mine\n');
    fs.writeFileSync(path.join(outdir, 'notes.txt'), 'keep\n');

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([
      expect.objectContaining({
        code: 'CAP011',
        message: expect.stringContaining(`the outdir '${outdir}' holds files this library did not write ('README.md', 'notes.txt'), and synth replaces the outdir as a whole`),
      }),
    ]);
    expect(readTree(outdir)).toEqual({ 'README.md': '# mine\n', 'notes.txt': 'keep\n' });
  });

  test('a regular file given as outdir is refused and kept', () => {
    const dir = project();
    const file = path.join(dir, 'out');
    fs.writeFileSync(file, 'data\n');
    expect(refusal(appWith(file))).toEqual([expect.objectContaining({ code: 'CAP011', message: expect.stringContaining(`the outdir '${file}' is a file, not a folder`) })]);
    expect(fs.readFileSync(file, 'utf-8')).toBe('data\n');
  });

  test('a symbolic link given as outdir is refused, and the folder it points at is kept', () => {
    const dir = project();
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    fs.writeFileSync(path.join(real, 'keep.txt'), 'keep\n');
    fs.symlinkSync(real, path.join(dir, 'link'));
    expect(refusal(appWith(path.join(dir, 'link')))).toEqual([expect.objectContaining({ code: 'CAP011', message: expect.stringContaining('is a symbolic link') })]);
    expect(readTree(real)).toEqual({ 'keep.txt': 'keep\n' });
  });

  test('an outdir that holds the lock file is refused', () => {
    // GIVEN the lock file inside what was a previous output
    const dir = project();
    const outdir = path.join(dir, 'dist');
    appWith(outdir).synth();
    const lockFile = path.join(outdir, 'capability.lock.json');
    fs.writeFileSync(lockFile, EMPTY_LOCK);

    // WHEN / THEN
    expect(refusal(appWith(outdir, lockFile))).toEqual([
      expect.objectContaining({ code: 'CAP011', message: expect.stringContaining(`the outdir '${outdir}' contains '${lockFile}', which synth would delete with the previous output`) }),
    ]);
    expect(fs.readFileSync(lockFile, 'utf-8')).toBe(EMPTY_LOCK);
  });

  test('an outdir that holds the running program is refused', () => {
    // GIVEN the program (process.argv[1]) inside the outdir
    const dir = project();
    const saved = process.argv[1];
    process.argv[1] = path.join(dir, 'main.ts');
    try {
      // WHEN / THEN
      expect(refusal(appWith(dir))).toEqual([expect.objectContaining({ code: 'CAP011' })]);
    } finally {
      process.argv[1] = saved;
    }
    expect(fs.readFileSync(path.join(dir, 'main.ts'), 'utf-8')).toBe('// the program\n');
  });

  test('an existing empty folder is written, and a previous output of ours is replaced', () => {
    // GIVEN an empty folder
    const outdir = path.join(tempDir(), 'out');
    fs.mkdirSync(outdir);

    // WHEN written twice
    appWith(outdir).synth();
    appWith(outdir).synth();

    // THEN it holds our output and the marker
    expect(fs.readFileSync(path.join(outdir, MARKER), 'utf-8')).toBe(JSON.stringify({ generator: 'cdk-capability', formatVersion: 2, files: ['audit/objects.list', 'interface.json', 'plan.json', 'runtime/0001-cdn-routing.yaml', 'runtime/kustomization.yaml'] }) + '\n');
    expect(fs.existsSync(path.join(outdir, 'plan.json'))).toBe(true);
  });

  test.each([
    ['notes beside the output', 'NOTES.md', "'NOTES.md'"],
    ['a manifest of the user\'s in a folder of its own under runtime/', 'runtime/mine/keep.yaml', "'runtime/mine/keep.yaml'"],
    ['a .git folder (the outdir made a repository of its own)', '.git/HEAD', "'.git/HEAD'"],
  ])('a file added to an output of ours after its synth (%s) is refused, naming it, and nothing changes', (_, file, named) => {
    // GIVEN (a user trial: the next synth deleted it without a word, .git included) an output of ours, then a file of the user's
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.mkdirSync(path.dirname(path.join(outdir, file)), { recursive: true });
    fs.writeFileSync(path.join(outdir, file), 'mine\n');
    const before = readTree(outdir);

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([{
      code: 'CAP011',
      message: `output not written: the outdir '${outdir}' holds files this library did not write (${named}), and synth replaces the outdir as a whole: move them out of it. Nothing was changed. `
        + 'Point the outdir (the outdir prop, or CDK8S_OUTDIR) at a new or empty folder, or at one a previous synth wrote.',
    }]);
    expect(readTree(outdir)).toEqual(before);
  });

  test.each([
    ['an empty folder of the user\'s', ['mydir'], "'mydir/'"],
    ['an empty .git folder, and a folder of folders (named once, at the top)', ['.git', 'notes/a/b'], "'.git/', 'notes/'"],
    ['an empty folder under runtime/', ['runtime/mine'], "'runtime/mine/'"],
  ])('a folder added to an output of ours that holds no file (%s) is refused, naming it, and stays', (_, folders, named) => {
    // GIVEN (a user trial: the next synth deleted `mkdir dist/mydir` without a word) an output of ours, then empty folders
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    for (const f of folders) fs.mkdirSync(path.join(outdir, f), { recursive: true });

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([{
      code: 'CAP011',
      message: `output not written: the outdir '${outdir}' holds files this library did not write (${named}), and synth replaces the outdir as a whole: move them out of it. Nothing was changed. `
        + 'Point the outdir (the outdir prop, or CDK8S_OUTDIR) at a new or empty folder, or at one a previous synth wrote.',
    }]);
    for (const f of folders) expect(fs.statSync(path.join(outdir, f)).isDirectory()).toBe(true);
  });

  test('a file in the cloud assembly folder deploy/ (the aws-cdk CLI\'s read lock, an asset) is the assembly\'s: replaced with the output', () => {
    // GIVEN an output of ours with a read lock the aws-cdk CLI left in its assembly
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.mkdirSync(path.join(outdir, 'deploy'));
    fs.writeFileSync(path.join(outdir, 'deploy', 'read.1234.1.lock'), '');

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([]);
    expect(fs.existsSync(path.join(outdir, 'deploy'))).toBe(false);
  });

  test('a marker of the first format (no file list) is taken for an earlier release\'s: its output is replaced, a file of anyone else\'s beside it refused', () => {
    // GIVEN an output with the marker an earlier release wrote, and another folder with that marker copied beside a thesis
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.writeFileSync(path.join(outdir, MARKER), '{"generator":"cdk-capability","formatVersion":1}\n');
    const forged = path.join(tempDir(), 'mine');
    fs.mkdirSync(forged);
    fs.writeFileSync(path.join(forged, MARKER), '{"generator":"cdk-capability","formatVersion":1}\n');
    fs.writeFileSync(path.join(forged, 'thesis.tex'), '\\documentclass{article}\n');

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(outdir, MARKER), 'utf-8')).formatVersion).toBe(2);
    expect(refusal(appWith(forged))).toEqual([{ code: 'CAP011', message: expect.stringContaining("holds files this library did not write ('thesis.tex')") }]);
    expect(fs.readFileSync(path.join(forged, 'thesis.tex'), 'utf-8')).toBe('\\documentclass{article}\n');
  });

  test('an output written before the marker existed (plan.json and interface.json of ours) is still replaced', () => {
    // GIVEN an earlier release's output, without the marker
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.rmSync(path.join(outdir, MARKER));

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([]);
    expect(fs.existsSync(path.join(outdir, MARKER))).toBe(true);
  });

  test("a lookalike of an earlier output (plan.json and interface.json of ours) beside the user's thesis.tex is refused, and nothing changes", () => {
    // GIVEN an earlier release's output without the marker, and a file of the user's beside it
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.rmSync(path.join(outdir, MARKER));
    fs.writeFileSync(path.join(outdir, 'thesis.tex'), '\\documentclass{article}\n');
    const before = readTree(outdir);

    // WHEN / THEN refused, naming the user's file, and every byte stays
    expect(refusal(appWith(outdir))).toEqual([{
      code: 'CAP011',
      message: expect.stringContaining(`the outdir '${outdir}' holds files this library did not write ('thesis.tex'), and synth replaces the outdir as a whole: move them out of it. Nothing was changed.`),
    }]);
    expect(readTree(outdir)).toEqual(before);
  });

  test('a lookalike with a file of the user\'s inside runtime/ is refused too', () => {
    // GIVEN an earlier output without the marker, with notes among the manifests
    const outdir = path.join(tempDir(), 'out');
    appWith(outdir).synth();
    fs.rmSync(path.join(outdir, MARKER));
    fs.writeFileSync(path.join(outdir, 'runtime', 'notes.md'), 'mine\n');
    const before = readTree(outdir);

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([{ code: 'CAP011', message: expect.stringContaining("holds files this library did not write ('runtime')") }]);
    expect(readTree(outdir)).toEqual(before);
  });

  test('a folder holding only entries a synth writes, but no plan of ours, is refused', () => {
    // GIVEN a plan.json and an interface.json of another tool
    const outdir = path.join(tempDir(), 'out');
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, 'plan.json'), '{"terraform_version":"1.9.0"}\n');
    fs.writeFileSync(path.join(outdir, 'interface.json'), '{}\n');

    // WHEN / THEN
    expect(refusal(appWith(outdir))).toEqual([{ code: 'CAP011', message: expect.stringContaining("holds files this library did not write ('interface.json', 'plan.json')") }]);
    expect(fs.readdirSync(outdir).sort()).toEqual(['interface.json', 'plan.json']);
  });

  test('folders are created with the permissions the umask gives, not private 0700', () => {
    // GIVEN a umask of 027
    const outdir = path.join(tempDir(), 'out');
    const saved = process.umask(0o027);
    try {
      // WHEN
      appWith(outdir).synth();
    } finally {
      process.umask(saved);
    }

    // THEN the outdir and its sub folders are 0750, files 0640
    expect(permissions(outdir)).toBe(0o750);
    expect(permissions(path.join(outdir, 'runtime'))).toBe(0o750);
    expect(permissions(path.join(outdir, 'plan.json'))).toBe(0o640);
  });
});

/** The permission bits of a file or folder, as `ls -l` shows them (0o750). */
function permissions(file: string): number {
  return fs.statSync(file).mode % 0o1000;
}
