import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CompositionError, RuntimeRouting, SharedBase } from '../src';
import { configMap, entriesBeside, readTree, removeTempDirs, tempDir } from './util';
import { writeAtomically } from '../src/render/atomic-output';
import type { OutputTree } from '../src/render/output-tree';

afterAll(removeTempDirs);

const MARKER = '{"generator":"cdk-capability","formatVersion":2,"files":["plan.json"]}\n';

function tree(plan: string): OutputTree {
  return { files: new Map([['plan.json', plan]]), copies: new Map() };
}

/** An outdir holding a first output, `old`. */
function previous(): { parent: string; outdir: string } {
  const parent = tempDir();
  const outdir = path.join(parent, 'dist');
  writeAtomically(outdir, tree('old'));
  return { parent, outdir };
}

describe('the lock file, written in the same transaction as the output', () => {
  test('is replaced together with the output', () => {
    const { parent, outdir } = previous();
    const lockFile = path.join(parent, 'capability.lock.json');
    fs.writeFileSync(lockFile, 'old lock');

    writeAtomically(outdir, tree('new'), { alongside: { path: lockFile, content: 'new lock' } });

    expect(fs.readFileSync(lockFile, 'utf-8')).toBe('new lock');
    expect(readTree(outdir)['plan.json']).toBe('new');
    expect(entriesBeside(parent)).toEqual(['capability.lock.json', 'dist']);
  });

  test('when it cannot be moved into place, the new output is rolled back and both stay as they were (CAP011)', () => {
    // GIVEN a lock file whose replacement fails (its name is a folder now)
    const { parent, outdir } = previous();
    const lockFile = path.join(parent, 'capability.lock.json');
    fs.mkdirSync(lockFile);
    fs.writeFileSync(path.join(lockFile, 'keep'), 'x');

    // WHEN / THEN
    expect(() => writeAtomically(outdir, tree('new'), { alongside: { path: lockFile, content: 'new lock' } })).toThrow(
      new RegExp(`CAP011 output not written: could not write the output '${outdir}': a folder is where a file must go \\(EISDIR, rename '.*'\\)\\. The previous output and '${lockFile}' are unchanged\\. Fix: remove or rename that folder, or point the outdir elsewhere\\.$`),
    );
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    expect(fs.readdirSync(lockFile)).toEqual(['keep']);
    expect(entriesBeside(parent)).toEqual(['capability.lock.json', 'dist']);
  });
});

describe('a failure of the write step is a coded refusal, without a stack trace, naming cause and fix', () => {
  const CASES: Array<[string, string, string]> = [
    ['ENOSPC', 'the disk is full', 'free some space on the disk and synth again'],
    ['EACCES', 'permission denied', "make the outdir's folder '<parent>' writable by this user, or point the outdir elsewhere"],
    ['EROFS', 'the file system is read-only', 'point the outdir (the outdir prop, or CDK8S_OUTDIR) at a writable folder'],
    ['EBUSY', 'the folder is in use (a mount point, or open in another program)', 'close what holds it, or point the outdir at a folder that is not a mount point'],
    ['ENOENT', 'a folder was removed while synth was writing', 'make sure no other program cleans the folder during synth, and synth again'],
    ['ENOTDIR', 'a part of the path is a file, not a folder', 'remove or rename that file, or point the outdir elsewhere'],
  ];

  test.each(CASES)('%s', (code, cause, fix) => {
    // GIVEN a previous output and a file system that fails with `code` while writing plan.json
    const { parent, outdir } = previous();
    const nodeFs: typeof fs = jest.requireActual('fs');
    const write = nodeFs.writeFileSync;
    jest.spyOn(nodeFs, 'writeFileSync').mockImplementation((file, ...rest) => {
      if (String(file).endsWith('plan.json')) throw Object.assign(new Error(`${code}: injected`), { code, syscall: 'open', path: String(file) });
      return (write as any)(file, ...rest);
    });

    // WHEN
    let error: any;
    try {
      writeAtomically(outdir, tree('new'));
    } catch (e) {
      error = e;
    } finally {
      jest.restoreAllMocks();
    }

    // THEN one CAP011 violation with cause, call, guarantee and fix; the previous output as it was
    expect(error?.violations?.map((v: any) => v.message)).toEqual([
      expect.stringMatching(new RegExp(`^output not written: could not write the output '${outdir}': ${cause.replace(/[()]/g, '\\$&')} \\(${code}, open '.*plan\\.json'\\)\\. The previous output is unchanged\\. Fix: ${fix.replace('<parent>', parent).replace(/[()]/g, '\\$&')}\\.$`)),
    ]);
    expect(error.violations[0].code).toBe('CAP011');
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    expect(entriesBeside(parent)).toEqual(['dist']);
  });
});

/** Runs `act` with `fs[method]` throwing EACCES (as a non-root user meets it) for the paths `refuses` picks. */
function refusingPermission<T>(method: 'renameSync' | 'writeFileSync', refuses: (file: string) => boolean, act: () => T): unknown {
  const nodeFs: typeof fs = jest.requireActual('fs');
  const original = nodeFs[method] as (...args: any[]) => any;
  jest.spyOn(nodeFs, method).mockImplementation(((file: fs.PathLike, ...rest: any[]) => {
    if (refuses(String(file))) {
      throw Object.assign(new Error(`EACCES: permission denied, ${method === 'renameSync' ? 'rename' : 'open'} '${String(file)}'`), {
        code: 'EACCES',
        syscall: method === 'renameSync' ? 'rename' : 'open',
        path: String(file),
      });
    }
    return original(file, ...rest);
  }) as any);
  try {
    act();
    return undefined;
  } catch (e) {
    return e;
  } finally {
    jest.restoreAllMocks();
  }
}

describe('a refused permission names the folder that refused', () => {
  test('an outdir that is itself read-only (mode 555, its folder writable): the fix names the outdir itself', () => {
    // GIVEN a previous output whose move aside is refused, as Linux refuses moving a folder without write permission on it
    const { parent, outdir } = previous();

    // WHEN
    const error = refusingPermission('renameSync', (file) => file === outdir, () => writeAtomically(outdir, tree('new'))) as CompositionError;

    // THEN
    expect(error.violations.map((v) => v.message)).toEqual([
      `output not written: could not write the output '${outdir}': permission denied (EACCES, rename '${outdir}'). The previous output is unchanged. ` +
        `Fix: make the outdir '${outdir}' itself writable by this user (chmod u+w ${outdir}): synth moves it aside to swap in the new output; or point the outdir elsewhere.`,
    ]);
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    expect(entriesBeside(parent)).toEqual(['dist']);
  });

  test("a lock file whose folder is read-only (CDK_CAPABILITY_UPDATE_LOCK=1): the fix names the lock file's folder, not the outdir's", () => {
    // GIVEN a lock file in a folder of its own, where writing the new lock beside it is refused
    const { parent, outdir } = previous();
    const lockDir = path.join(tempDir(), 'lockdir');
    fs.mkdirSync(lockDir);
    const lockFile = path.join(lockDir, 'capability.lock.json');
    fs.writeFileSync(lockFile, 'old lock');

    // WHEN
    const error = refusingPermission(
      'writeFileSync',
      (file) => path.dirname(file) === lockDir,
      () => writeAtomically(outdir, tree('new'), { alongside: { path: lockFile, content: 'new lock' } }),
    ) as CompositionError;

    // THEN
    expect(error.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^output not written: could not write the output '${outdir}': permission denied \\(EACCES, open '${lockFile}\\.[^']+\\.tmp'\\)\\. ` +
            `The previous output and '${lockFile}' are unchanged\\. Fix: make the lock file's folder '${lockDir}' writable by this user: ` +
            'the new lock is written beside the lock file and renamed over it; or point the lockFile prop elsewhere\\.$',
        ),
      ),
    ]);
    expect(fs.readFileSync(lockFile, 'utf-8')).toBe('old lock');
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    expect(entriesBeside(parent)).toEqual(['dist']);
    expect(fs.readdirSync(lockDir)).toEqual(['capability.lock.json']);
  });
});

describe('scratch space', () => {
  test('a capability outside a cdk8s App gets a private folder of its own, never a shared fixed name', () => {
    const a = new Capability(new Construct(undefined as any, 'a'), 'cdn');
    const b = new Capability(new Construct(undefined as any, 'b'), 'cdn');
    const dirs = [a, b].map((c) => c.outdir);
    expect(dirs[0]).not.toEqual(dirs[1]);
    for (const dir of dirs) {
      expect(path.dirname(dir)).toBe(os.tmpdir());
      expect(path.basename(dir)).toMatch(/^cdk-capability-[A-Za-z0-9]{6}$/);
      expect((fs.statSync(dir).mode % 0o1000).toString(8)).toBe('700');
    }
    expect(fs.existsSync(path.join(os.tmpdir(), 'cdk-capability-scratch', String(process.pid)))).toBe(false);
  });
});

describe('the run folder beside the outdir cannot be created while the tree is built (a read-only project)', () => {
  /** A composition of a capability with a stack and an object: the capability's constructor creates the run folder. */
  function compose(app: CapabilityApp): void {
    const shop = new Capability(app, 'shop');
    new SharedBase(shop, 'Base');
    configMap(new RuntimeRouting(shop, 'Routing'), 'Settings', 'settings');
  }

  /** What `app.synth()` throws. */
  function synthError(app: CapabilityApp): unknown {
    try {
      app.synth();
    } catch (e) {
      return e;
    }
    return undefined;
  }

  test('a read-only file system: the constructor does not throw, and synth refuses with CAP011, its cause and fix', () => {
    // GIVEN a file system that refuses to create the run folder (EROFS), as a read-only bind mount does
    const parent = tempDir();
    const outdir = path.join(parent, 'dist');
    const nodeFs: typeof fs = jest.requireActual('fs');
    const mkdir = nodeFs.mkdirSync;
    jest.spyOn(nodeFs, 'mkdirSync').mockImplementation((dir, ...rest) => {
      if (path.basename(String(dir)).startsWith('.dist.run-')) {
        throw Object.assign(new Error(`EROFS: read-only file system, mkdir '${String(dir)}'`), { code: 'EROFS', syscall: 'mkdir', path: String(dir) });
      }
      return (mkdir as any)(dir, ...rest);
    });
    let app: CapabilityApp;
    try {
      // WHEN the composition is built
      app = new CapabilityApp({ outdir, lockFile: path.join(parent, 'capability.lock.json') });
      expect(() => compose(app)).not.toThrow();
    } finally {
      jest.restoreAllMocks();
    }

    // THEN synth refuses with one coded line: the cause in plain words, the call and path, the fix; nothing written
    const error = synthError(app);
    expect(CompositionError.isCompositionError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`^The composition was refused with 1 violation:\\nCAP011 output not written: could not write the output '${outdir}': the file system is read-only \\(EROFS, mkdir '${parent}/\\.dist\\.run-${process.pid}-[0-9a-f]{12}'\\)\\. The previous output is unchanged\\. Fix: point the outdir \\(the outdir prop, or CDK8S_OUTDIR\\) at a writable folder\\.$`),
    );
    expect((error as Error).stack).toBe(`CompositionError: ${(error as Error).message}`);
    expect(entriesBeside(parent)).toEqual([]);
  });

  test('a file where the outdir\'s folder must go: synth refuses with CAP011 naming it, and the fix', () => {
    // GIVEN an outdir under "blocker/out", where "blocker" is a file
    const parent = tempDir();
    fs.writeFileSync(path.join(parent, 'blocker'), 'not a folder');
    const outdir = path.join(parent, 'blocker', 'out', 'dist');
    const app = new CapabilityApp({ outdir, lockFile: path.join(parent, 'capability.lock.json') });

    // WHEN the composition is built
    expect(() => compose(app)).not.toThrow();

    // THEN synth refuses with CAP011: a part of the path is a file
    expect((synthError(app) as Error).message).toBe(
      'The composition was refused with 1 violation:\n' +
        `CAP011 output not written: could not write the output '${outdir}': a part of the path is a file, not a folder (ENOTDIR, mkdir '${path.join(parent, 'blocker', 'out')}'). ` +
        'The previous output is unchanged. Fix: remove or rename that file, or point the outdir elsewhere.',
    );
    expect(entriesBeside(parent)).toEqual(['blocker']);
  });
});
