import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { RunFolder } from './run-folder';

const privateFolders: string[] = [];

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
 */
export function privateTempDir(prefix: string): string {
  if (privateFolders.length === 0) {
    process.once('exit', () => {
      for (const dir of privateFolders) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  privateFolders.push(dir);
  return dir;
}
