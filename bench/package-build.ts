/**
 * The package as it ships, built for the bench's own use: our side of every
 * scenario requires `cdk-capability` (or `cdk-capability/runtime`) as a user's
 * program does, and gets `lib/bundle.js` as `npm pack` ships it, not the
 * `tsc` output of `src/` that the bench itself is compiled with.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The name of the package.json `installForBench` writes into the compiled bench's folder. */
const BENCH_PACKAGE = 'cdk-capability-bench';

/** This repository: the nearest folder above this file whose package.json is cdk-capability's (from bench/ or bench/.out/bench/). */
export function repositoryRoot(from: string = __dirname): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf-8')).name === 'cdk-capability') return dir;
  }
  throw new Error(`bench: no cdk-capability package.json above ${from}`);
}

/** What `buildPackage` writes besides the JavaScript. */
export interface BuildOptions {
  /** Also tsc's declaration files (`.d.ts`), for a program that type-checks against the package. Default: false. */
  readonly declarations?: boolean;
}

/**
 * Writes this package into `dir` as `npm pack` ships it: its package.json, its
 * `docs/` (linked; the lock schema is read from there) and `lib/` written by
 * `scripts/bundle-lib.js`, the last step of `npm run compile`, from the
 * current `src/`. Replaces what `dir` held.
 *
 * lib/ is a copy of the build scripts/built-package.js keeps per content of
 * `src/` and the build scripts, so the bench and the tests that run the built
 * package build it once, not once each.
 *
 * @throws when a build step fails
 */
export function buildPackage(dir: string, options: BuildOptions = {}): void {
  const root = repositoryRoot();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // required from the repository found at run time: the compiled bench (bench/.out) has no scripts/ beside it
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
  const { copyBuiltLib } = require(path.join(root, 'scripts', 'built-package.js')) as typeof import('../scripts/built-package');
  copyBuiltLib(path.join(dir, 'lib'), { declarations: options.declarations });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(root, 'docs'), path.join(dir, 'docs'), 'dir');
}

/**
 * Installs the package for the compiled bench in `outDir` (bench/.out): built
 * into `outDir/node_modules/cdk-capability`, where `require('cdk-capability')`
 * from the compiled scenarios finds it. `outDir/package.json` makes `outDir`
 * a package of its own, so Node does not resolve the name to this repository's
 * own `lib/` (a package may require itself by name), which may be missing or
 * older than `src/`.
 *
 * @returns the installed package's folder
 */
export function installForBench(outDir: string): string {
  fs.writeFileSync(
    path.join(outDir, 'package.json'),
    JSON.stringify({ name: BENCH_PACKAGE, private: true, description: 'the compiled bench (bench/package-build.ts)' }, undefined, 2) + '\n',
  );
  const dir = path.join(outDir, 'node_modules', 'cdk-capability');
  buildPackage(dir);
  return dir;
}


/**
 * Removes V8's code caches of the bundle installed for the compiled bench in `outDir` (bench/.out):
 * `node_modules/cdk-capability/lib/bundle-<V8 version>.v8-cache`, which the first run that finds none writes, so
 * the next run of our side writes one of its own app. A project runs its one app again and again, and the cache
 * its first run left holds that app's code; without this every scenario of a bench run would load the cache of
 * the first scenario measured, whose code differs (the cdk8s-plus paths, the aws-cdk stages, the release checks),
 * and compile the rest anew in every run. Touches nothing unless `outDir` is one `installForBench` made (its
 * package.json names the bench), so the uncompiled bench (the tests) never removes a cache of this repository.
 *
 * @returns how many caches were removed
 */
export function forgetCodeCache(outDir: string = path.resolve(__dirname, '..')): number {
  try {
    if (JSON.parse(fs.readFileSync(path.join(outDir, 'package.json'), 'utf-8')).name !== BENCH_PACKAGE) return 0;
  } catch {
    return 0;
  }
  const lib = path.join(outDir, 'node_modules', 'cdk-capability', 'lib');
  let removed = 0;
  for (const file of fs.existsSync(lib) ? fs.readdirSync(lib) : []) {
    if (!file.endsWith('.v8-cache')) continue;
    fs.rmSync(path.join(lib, file), { force: true });
    removed++;
  }
  return removed;
}
