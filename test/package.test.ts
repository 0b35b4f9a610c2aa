import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as semver from 'semver';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';
import { AWS_CDK_LIB_FLOOR } from '../src/constructs/capability-stack';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const PKG = readJson(path.join(ROOT, 'package.json'));
const PEERS = ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib'];

function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf-8'));
}

describe('the published package', () => {
  test('has two entry points, lib/index.js and the runtime-only lib/runtime.js, with their types, and exposes package.json', () => {
    expect(PKG.main).toEqual('lib/index.js');
    expect(PKG.types).toEqual('lib/index.d.ts');
    expect(PKG.exports).toEqual({
      '.': { types: './lib/index.d.ts', default: './lib/index.js' },
      './runtime': { types: './lib/runtime.d.ts', default: './lib/runtime.js' },
      './package.json': './package.json',
    });
    // node10 resolution (module CommonJS, cdk8s' default) reads no `exports`
    expect(PKG.typesVersions).toEqual({ '*': { runtime: ['lib/runtime.d.ts'] } });
  });

  test('requires Node 20 or later', () => {
    expect(semver.minVersion(PKG.engines.node)?.version).toEqual('20.0.0');
  });

  test('takes the construct libraries as peers only, so a consumer tree holds one copy of each', () => {
    for (const peer of PEERS) {
      expect([peer, PKG.dependencies?.[peer], PKG.bundleDependencies ?? PKG.bundledDependencies]).toEqual([peer, undefined, undefined]);
      // one major version, open upwards within it
      expect([peer, PKG.peerDependencies[peer]]).toEqual([peer, expect.stringMatching(/^\^[1-9]\d*\.\d+\.\d+$/)]);
    }
  });

  test('marks aws-cdk-lib and cdk8s-plus-30 optional peers, so npm 7+ installs neither for a runtime-only program', () => {
    expect(PKG.peerDependenciesMeta).toEqual({ 'aws-cdk-lib': { optional: true }, 'cdk8s-plus-30': { optional: true } });
  });

  test('the pinned dev copies the tests run against satisfy the peer ranges', () => {
    for (const peer of PEERS) {
      const installed = readJson(require.resolve(`${peer}/package.json`)).version;
      expect([peer, semver.satisfies(installed, PKG.peerDependencies[peer])]).toEqual([peer, true]);
    }
  });

  test('SECURITY.md lists exactly the runtime dependencies npm installs, with their versions', () => {
    // GIVEN the installed runtime tree, as npm reports it (peers excluded: they are the user's)
    const ls = spawnSync('npm', ['ls', '--omit=dev', '--omit=peer', '--all', '--json'], { cwd: ROOT, encoding: 'utf-8' });
    const installed: string[] = [];
    const walk = (deps: Record<string, any> = {}) => {
      for (const [name, d] of Object.entries(deps)) {
        installed.push(`${name}@${d.version}`);
        walk(d.dependencies);
      }
    };
    walk(JSON.parse(ls.stdout).dependencies);

    // WHEN reading the audit section's list
    const text = fs.readFileSync(path.join(ROOT, 'SECURITY.md'), 'utf-8');
    const section = text.slice(text.indexOf('Runtime dependencies'), text.indexOf('The peer dependencies'));
    const listed = [...section.matchAll(/`([a-z0-9@/.-]+@\d[^`]*)`/g)].map((m) => m[1]);

    // THEN
    expect(listed.sort()).toEqual([...new Set(installed)].sort());
  });

  test('the aws-cdk-lib peer range excludes every release affected by GHSA-999r-qq7v-r334 (< 2.246.0)', () => {
    expect(semver.gte(semver.minVersion(PKG.peerDependencies['aws-cdk-lib'])!.version, '2.246.0')).toBe(true);
    expect(semver.satisfies('2.245.0', PKG.peerDependencies['aws-cdk-lib'])).toBe(false);
  });

  test('the aws-cdk-lib peer range starts at the first release with Stack.addStackDependency (2.262.0), and constructs at what it takes', () => {
    // (the .d.ts of 2.261.0 has no addStackDependency; 2.262.0's does, and takes constructs ^10.5.0: npm view aws-cdk-lib@2.262.0 peerDependencies)
    expect(semver.minVersion(PKG.peerDependencies['aws-cdk-lib'])?.version).toEqual(AWS_CDK_LIB_FLOOR);
    expect(AWS_CDK_LIB_FLOOR).toBe('2.262.0');
    expect(semver.minVersion(PKG.peerDependencies.constructs)?.version).toEqual('10.5.0');
    expect(typeof Stack.prototype.addStackDependency).toBe('function');
  });

  test('npm pack ships only lib/, docs/, README.md, LICENSE and package.json', () => {
    // WHEN
    // (without the npm_* variables an enclosing `npm test` sets, which a nested npm would read as config)
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, env, encoding: 'utf-8', timeout: HANG_GUARD_MS });
    expect(`exit ${r.status}\n${r.stderr}`).toMatch(/^exit 0\n/);
    const files: string[] = JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path);

    // THEN
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    // (lib/bundle.js.map: the source map of lib/bundle.js, the one file of JavaScript; scripts/bundle-lib.js)
    expect(files.filter((f) => !/^(lib\/.*\.(js|d\.ts)|lib\/bundle\.js\.map|docs\/.*|package\.json|README\.md|LICENSE)$/.test(f))).toEqual([]);
  });
});

describe('the prepack guard (scripts/prepack-guard.js, run by npm pack and npm publish)', () => {
  const GUARD = path.join(ROOT, 'scripts', 'prepack-guard.js');

  /** A clone-like folder: src/index.ts, and lib/index.js when `built`, with the given ages in seconds. */
  function clone(built: { libAge: number; srcAge: number } | undefined): string {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'src', 'app'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'app', 'index.ts'), 'export {};\n');
    const now = Date.now() / 1000;
    if (built) {
      fs.mkdirSync(path.join(dir, 'lib'));
      fs.writeFileSync(path.join(dir, 'lib', 'index.js'), '"use strict";\n');
      fs.utimesSync(path.join(dir, 'lib', 'index.js'), now - built.libAge, now - built.libAge);
      fs.utimesSync(path.join(dir, 'src', 'app', 'index.ts'), now - built.srcAge, now - built.srcAge);
    }
    return dir;
  }

  const guard = (cwd: string) => spawnSync(process.execPath, [GUARD], { cwd, encoding: 'utf-8', timeout: HANG_GUARD_MS });

  test('npm runs it before packing', () => {
    expect(PKG.scripts.prepack).toBe('projen prepack');
    const tasks = readJson(path.join(ROOT, '.projen', 'tasks.json'));
    expect(tasks.tasks.prepack.steps).toEqual([{ exec: 'node scripts/prepack-guard.js' }]);
  });

  test('refuses an unbuilt clone (no lib/), saying to compile', () => {
    const r = guard(clone(undefined));
    expect({ status: r.status, stderr: r.stderr }).toEqual({
      status: 1,
      stderr: 'prepack: lib/index.js is missing, so the package would ship no code. Run `npm run compile` first, then pack again.\n',
    });
  });

  test('refuses a lib/ older than src/', () => {
    const r = guard(clone({ libAge: 100, srcAge: 10 }));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('prepack: src/ has changes newer than lib/, so the package would ship stale code. Run `npm run compile` first, then pack again.\n');
  });

  test('passes a built clone', () => {
    const r = guard(clone({ libAge: 10, srcAge: 100 }));
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
