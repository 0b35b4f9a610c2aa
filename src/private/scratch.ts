import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { RunFolder } from './run-folder';

const privateFolders: string[] = [];

/**
 * Where a capability's cloud assembly is synthesized: in the run folder beside
 * the app's outdir (`RunFolder`), so the files aws-cdk writes are the files
 * the output holds, linked into it rather than written a second time. A
 * capability whose root is not a cdk8s `App` (it has no outdir) gets a private
 * folder of its own under the system's temporary folder, removed at exit.
 *
 * No fixed, shared name is used anywhere: every run creates its own folders
 * exclusively, so no other user or planted link can own or redirect them.
 */
export function assemblyDirFor(scope: IConstruct): string {
  const root = scope.node.root;
  if (root instanceof App && typeof root.outdir === 'string' && root.outdir !== '') return RunFolder.for(root.outdir, true).assemblyDir();
  return privateTempDir('cdk-capability-');
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
