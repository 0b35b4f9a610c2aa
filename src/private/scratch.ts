import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const scratch: string[] = [];

/**
 * A fresh temporary folder for one capability's cloud assembly, removed when
 * the process exits. Synth copies the assembly from here into the outdir, so
 * the outdir is only ever written by the atomic swap.
 */
export function assemblyScratchDir(): string {
  if (scratch.length === 0) {
    process.once('exit', () => {
      for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-asm-'));
  scratch.push(dir);
  return dir;
}
