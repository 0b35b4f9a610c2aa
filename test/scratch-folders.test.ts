/**
 * The private folders under the system's temporary folder (`CapabilityTesting.app()`'s outdir and lock, the
 * cloud assembly of a capability outside a cdk8s App): a process that runs no exit handler (killed, or a Jest
 * test file, whose sandboxed `process` never emits `exit`) left one folder per app behind, and a CI machine's
 * temporary folder filled. The next process removes the folders whose process is certainly gone, and nothing else.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { NODE_TS } from './util';
import { newOwner } from '../src/private/liveness';
import { removeLeftOverFolders } from '../src/private/scratch';

const ROOT = path.join(__dirname, '..');
const PREFIX = 'cdk-capability-testing-';

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

/** A folder `name` under `parent`, with an owner record when given one. */
function folder(parent: string, name: string, owner?: object): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'capability.lock.json'), '{}');
  if (owner) fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify(owner));
  return dir;
}

describe('left-over private folders', () => {
  let parent: string;
  beforeEach(() => { parent = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-folders-')); });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  test('only a folder of ours whose process is certainly gone is removed', () => {
    // GIVEN folders named as ours: one of a process that exited, one of this process, one with no record
    const gone = folder(parent, `${PREFIX}aB3dE9`, { ...newOwner(), pid: deadPid() });
    const live = folder(parent, `${PREFIX}Zz0000`, newOwner());
    const unrecorded = folder(parent, `${PREFIX}x1y2z3`);
    // AND a process that exited but in another PID namespace, a name not made by mkdtemp, another prefix
    const elsewhere = folder(parent, `${PREFIX}qqqqqq`, { ...newOwner(), pid: deadPid(), namespace: 'other-boot/pid:[1]' });
    const longer = folder(parent, `${PREFIX}project-abcdef`, { ...newOwner(), pid: deadPid() });
    const other = folder(parent, 'cdk-capability-aB3dE9', { ...newOwner(), pid: deadPid() });
    // AND a link named as ours to a folder of a process that exited, and a file named as ours
    const target = folder(parent, 'target', { ...newOwner(), pid: deadPid() });
    fs.symlinkSync(target, path.join(parent, `${PREFIX}l1nk00`));
    fs.writeFileSync(path.join(parent, `${PREFIX}f1le00`), 'not a folder');

    // WHEN
    const removed = removeLeftOverFolders(parent, PREFIX);

    // THEN only the first is gone; the link, its target and every other entry are as they were
    expect(removed).toEqual([gone]);
    expect(fs.existsSync(gone)).toBe(false);
    for (const kept of [live, unrecorded, elsewhere, longer, other, target]) expect(fs.readFileSync(path.join(kept, 'capability.lock.json'), 'utf-8')).toBe('{}');
    expect(fs.lstatSync(path.join(parent, `${PREFIX}l1nk00`)).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(parent, `${PREFIX}f1le00`), 'utf-8')).toBe('not a folder');
  });

  test('a missing parent removes nothing and does not throw', () => {
    expect(removeLeftOverFolders(path.join(parent, 'missing'), PREFIX)).toEqual([]);
  });

  test('the folder of a killed process is removed by the next process\'s first CapabilityTesting.app()', () => {
    // GIVEN a process that made a CapabilityTesting app and was killed (no exit handler ran)
    const env = { ...process.env, TMPDIR: parent };
    const script = (tail: string) => [
      `const { CapabilityTesting } = require(${JSON.stringify(path.join(ROOT, 'src'))});`,
      'const app = CapabilityTesting.app();',
      'process.stdout.write(require("path").dirname(app.outdir));',
      tail,
    ].join('\n');
    const run = (tail: string) => spawnSync(process.execPath, [...NODE_TS, '-e', script(tail)], { cwd: ROOT, env, encoding: 'utf-8' });
    const killed = run('process.kill(process.pid, "SIGKILL");');
    expect(killed.signal).toBe('SIGKILL');
    const ours = () => fs.readdirSync(parent).filter((f) => f.startsWith(PREFIX));
    expect(ours()).toEqual([path.basename(killed.stdout)]);

    // WHEN the next process makes one and exits normally
    const next = run('');

    // THEN both folders are gone: the killed one's by the sweep, its own by its exit handler
    expect(next.status).toBe(0);
    expect(ours()).toEqual([]);
  });
});
