import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Construct } from 'constructs';
import { Capability } from '../src';
import { entriesBeside, readTree, removeTempDirs, tempDir } from './util';
import { writeAtomically } from '../src/render/atomic-output';
import type { OutputTree } from '../src/render/output-tree';

afterAll(removeTempDirs);

const MARKER = '{"generator":"cdk-capability","formatVersion":1}\n';

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
    ['EACCES', 'permission denied', "make the outdir's folder writable by this user, or point the outdir elsewhere"],
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
      expect.stringMatching(new RegExp(`^output not written: could not write the output '${outdir}': ${cause.replace(/[()]/g, '\\$&')} \\(${code}, open '.*plan\\.json'\\)\\. The previous output is unchanged\\. Fix: ${fix.replace(/[()]/g, '\\$&')}\\.$`)),
    ]);
    expect(error.violations[0].code).toBe('CAP011');
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    expect(entriesBeside(parent)).toEqual(['dist']);
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
