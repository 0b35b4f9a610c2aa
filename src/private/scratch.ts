import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { certainlyGone, newOwner, parseOwner } from './liveness';
import { RunFolder } from './run-folder';

const privateFolders: string[] = [];

/** The record in a private folder naming the process that made it, so a later process can tell it is left over. */
const OWNER_FILE = 'owner.json';

/** The prefixes whose left-over folders this process has removed already. */
const swept = new Set<string>();

/** Why the run folder of an app's outdir could not be created while its tree was built, by app. */
const runFolderFailures = new WeakMap<IConstruct, { readonly error: unknown }>();

/**
 * Where a capability's cloud assembly is synthesized: in the run folder beside
 * the app's outdir (`RunFolder`), so the files aws-cdk writes are the files
 * the output holds, linked into it rather than written a second time. A
 * capability whose root is not a cdk8s `App` (it has no outdir) gets a private
 * folder of its own under the system's temporary folder, removed at exit.
 *
 * No fixed, shared name is used anywhere: every run creates its own folders
 * exclusively, so no other user or planted link can own or redirect them.
 *
 * When the run folder cannot be created (a read-only project, a file where a
 * folder must go), the capability is built with a private folder instead and
 * the failure is kept for the synth to report as the write failure it is
 * (`CAP011`, `runFolderFailure`): a constructor has no way to report one.
 */
export function assemblyDirFor(scope: IConstruct): string {
  const root = scope.node.root;
  if (root instanceof App && typeof root.outdir === 'string' && root.outdir !== '' && !runFolderFailures.has(root)) {
    try {
      return RunFolder.for(root.outdir, true).assemblyDir();
    } catch (e) {
      runFolderFailures.set(root, { error: e });
    }
  }
  return privateTempDir('cdk-capability-');
}

/**
 * The error that kept the run folder of `app`'s outdir from being created while its tree was built,
 * or undefined when it was created (or never needed).
 */
export function runFolderFailure(app: IConstruct): { readonly error: unknown } | undefined {
  return runFolderFailures.get(app);
}

/**
 * A new private (0700) folder under the system's temporary folder, named
 * `prefix` plus random characters, removed when the process exits.
 *
 * A process that does not run its exit handlers leaves its folders behind:
 * one killed, and every Jest test file, whose sandboxed `process` never emits
 * `exit` (Jest gives each test file a copy of the process object). So each
 * folder holds an owner record (`owner.json`, the process that made it), and
 * the first folder of a prefix a process makes removes that prefix's folders
 * whose process is certainly gone (`removeLeftOverFolders`).
 */
export function privateTempDir(prefix: string): string {
  if (privateFolders.length === 0) {
    process.once('exit', () => {
      for (const dir of privateFolders) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  if (!swept.has(prefix)) {
    swept.add(prefix);
    removeLeftOverFolders(os.tmpdir(), prefix);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  privateFolders.push(dir);
  fs.writeFileSync(path.join(dir, OWNER_FILE), `${JSON.stringify(newOwner())}\n`);
  return dir;
}

/**
 * Removes the folders `privateTempDir` made under `parent` with `prefix` whose
 * process is certainly gone (`certainlyGone`: it shared this PID namespace and
 * no process has its pid). Only a real folder named as `mkdtemp` names them
 * and holding a valid owner record is removed: a link, a file, a folder
 * without a record (another tool's, an older version's, one being made) or of
 * a process that may live is left as it is. Never throws: a folder that cannot
 * be read or removed stays.
 *
 * @returns the folders removed
 */
export function removeLeftOverFolders(parent: string, prefix: string): string[] {
  const removed: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix) || !/^[A-Za-z0-9]{6}$/.test(entry.name.slice(prefix.length))) continue;
    const dir = path.join(parent, entry.name);
    try {
      const owner = parseOwner(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf-8'));
      if (!owner || !certainlyGone(owner)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // unreadable or already removed by another process: not ours to insist on
    }
  }
  return removed;
}
