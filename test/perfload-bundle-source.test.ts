import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';
import { copyBuiltLib } from '../scripts/built-package';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');

/**
 * The entry files compile lib/bundle.js through `vm.Script` with V8's code cache (scripts/bundle-lib.js,
 * `loadBundle`). The source they give V8 is one Latin-1 string of the module wrapper and the bundle, which Node
 * keeps outside V8's heap; `Module.wrap(text)` made V8 copy its 1.5 MB into the heap (large-object space) to compile
 * it, where it stayed as the script's source for the rest of the run. Measured by V8's own heap statistics in a
 * fresh process, not by time.
 */
let app: string;

function node(args: readonly string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: app, env: { ...process.env, CDK_VALIDATION: 'false', ...env }, encoding: 'utf-8', timeout: HANG_GUARD_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  const work = tempDir('cdk-capability-perfload-');
  const pkg = path.join(work, 'pkg');
  app = path.join(work, 'app');
  // GIVEN the package as the build writes it, installed in a program's folder beside this repository's packages
  fs.mkdirSync(pkg);
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'docs'), path.join(pkg, 'docs'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  // (scripts/built-package.js keeps the build per content of src/ and throws when it fails or writes to stderr)
  copyBuiltLib(path.join(pkg, 'lib'));
  fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
  for (const name of ['cdk8s', 'constructs', 'yaml']) fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(app, 'node_modules', name));
  fs.symlinkSync(pkg, path.join(app, 'node_modules', 'cdk-capability'));
}, HANG_GUARD_MS);

/** What loading the runtime entry added to V8's large-object space, and the bundle's size, in a fresh process. */
const LOAD = [
  "require('cdk8s');",
  "const fs = require('fs'), path = require('path'), v8 = require('v8');",
  "const large = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space').space_used_size;",
  'const before = large();',
  "const runtime = require('cdk-capability/runtime');",
  "const bundle = fs.statSync(path.join(path.dirname(require.resolve('cdk-capability/runtime')), 'bundle.js')).size;",
  'process.stdout.write(JSON.stringify({ grew: large() - before, bundle, entry: typeof runtime.CapabilityApp }));',
].join('\n');

test('the runtime entry compiles lib/bundle.js without copying its text into V8\'s heap, with and without a code cache', () => {
  // WHEN the runtime entry loads the bundle: the first run without a code cache (it writes one), the second with it
  const runs = [node(['-e', LOAD]), node(['-e', LOAD])];
  // THEN the cache was written by the first and the large-object space grew by far less than the bundle's text
  // (Module.wrap's copy of it alone was the whole bundle, 1.5 MB)
  expect(fs.readdirSync(path.join(app, 'node_modules', 'cdk-capability', 'lib')).filter((f) => f.endsWith('.v8-cache')).length).toBe(1);
  for (const run of runs) {
    expect(`exit ${run.status}\n${run.stderr}`).toEqual('exit 0\n');
    const { grew, bundle, entry } = JSON.parse(run.stdout) as { grew: number; bundle: number; entry: string };
    expect(entry).toBe('function');
    expect(bundle).toBeGreaterThan(1_000_000);
    expect({ grew, lessThanAQuarterOfTheBundle: grew < bundle / 4 }).toEqual({ grew, lessThanAQuarterOfTheBundle: true });
  }
});
