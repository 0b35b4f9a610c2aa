/**
 * `npx projen smd:record`: runs every structured-merge-diff suite through the live Go oracle and rewrites its
 * vector file in test/smd/vectors/, so that `npm test` can compare with Node alone.
 *
 * The suites are the test files that call `smdVerdicts`: they run under jest with SMD_RECORD=1, each call
 * writes its suite's file, and the files of suites no test records any more are removed. Needs Go and SMD's
 * sources (`bash test/smd/install.sh`). Extra arguments go to jest (e.g. a test file, to record one suite).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SmdUnavailableError, smdUnavailableReason } from './smd';
import { RECORD_ENV, RECORDED_DIR_ENV, VECTORS_DIR } from './verdicts';

const ROOT = path.resolve(__dirname, '..', '..');

/** The test files that call smdVerdicts, relative to the project root, sorted. */
function suiteFiles(dir = path.join(ROOT, 'test')): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'fixtures') out.push(...suiteFiles(file));
    else if (entry.name.endsWith('.test.ts') && /\bsmdVerdicts\(/.test(fs.readFileSync(file, 'utf-8'))) out.push(path.relative(ROOT, file));
  }
  return out.sort();
}

function main(args: readonly string[]): number {
  const reason = smdUnavailableReason();
  if (reason) {
    console.error(`smd:record: ${new SmdUnavailableError(reason).message}`);
    return 1;
  }
  const only = args.filter((a) => a.endsWith('.test.ts'));
  const files = only.length > 0 ? only : suiteFiles();
  const recordedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-smd-record-'));
  try {
    const jest = spawnSync('npx', ['jest', '--ci', '--silent', ...files, ...args.filter((a) => !a.endsWith('.test.ts'))], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, [RECORD_ENV]: '1', [RECORDED_DIR_ENV]: recordedDir },
    });
    const recorded = fs.readdirSync(recordedDir).sort();
    if (only.length === 0 && jest.status === 0) {
      for (const file of fs.readdirSync(VECTORS_DIR).filter((f) => f.endsWith('.json'))) {
        if (!recorded.includes(file.replace(/\.json$/, ''))) {
          fs.rmSync(path.join(VECTORS_DIR, file));
          console.log(`smd:record: removed ${path.relative(ROOT, path.join(VECTORS_DIR, file))} (no test records that suite any more)`);
        }
      }
    }
    for (const suite of recorded) {
      const file = path.join(VECTORS_DIR, `${suite}.json`);
      const cases = fs.readFileSync(path.join(recordedDir, suite), 'utf-8').trim();
      console.log(`smd:record: ${path.relative(ROOT, file)}: ${cases} cases, ${Math.round(fs.statSync(file).size / 1024)} KiB`);
    }
    if (jest.status !== 0) console.error(`smd:record: jest exited with ${jest.status ?? jest.signal}: the vectors above were recorded, but a test failed`);
    return jest.status ?? 1;
  } finally {
    fs.rmSync(recordedDir, { recursive: true, force: true });
  }
}

process.exitCode = main(process.argv.slice(2));
