import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';
import { forgetCodeCache } from '../bench/package-build';

// Each scenario's warm-up of our side writes the code cache of that scenario's app (bench/measure.ts `compare`).

afterAll(removeTempDirs);

/** A compiled bench's folder as `installForBench` leaves it, with `files` in the installed package's lib/. */
function benchOut(name: string, files: readonly string[]): { outDir: string; lib: string } {
  const outDir = tempDir();
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ name, private: true }));
  const lib = path.join(outDir, 'node_modules', 'cdk-capability', 'lib');
  fs.mkdirSync(lib, { recursive: true });
  for (const file of files) fs.writeFileSync(path.join(lib, file), 'x');
  return { outDir, lib };
}

describe('forgetCodeCache', () => {
  test('removes the installed bundle\'s code caches of every V8 version and keeps the package', () => {
    const { outDir, lib } = benchOut('cdk-capability-bench', ['bundle.js', 'bundle.js.map', 'runtime.js', 'bundle-11.3.244.8-node.38.v8-cache', 'bundle-12.4.254.21-node.33.v8-cache']);
    expect(forgetCodeCache(outDir)).toBe(2);
    expect(fs.readdirSync(lib).sort()).toEqual(['bundle.js', 'bundle.js.map', 'runtime.js']);
  });

  test('touches no folder but the compiled bench\'s (its package.json names the bench)', () => {
    const { outDir, lib } = benchOut('cdk-capability', ['bundle.js', 'bundle-11.3.244.8-node.38.v8-cache']);
    expect(forgetCodeCache(outDir)).toBe(0);
    expect(fs.readdirSync(lib).sort()).toEqual(['bundle-11.3.244.8-node.38.v8-cache', 'bundle.js']);
    expect(forgetCodeCache(tempDir())).toBe(0);
  });
});
