import * as fs from 'fs';
import * as path from 'path';
import * as semver from 'semver';
import * as ts from 'typescript';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'packaging.md'), 'utf-8');
const OURS = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8'));

/** Every fenced code block of the page, in order, with its language. */
const BLOCKS = [...PAGE.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));

/** The construct libraries a capability package takes from the app. */
const PEERS = ['aws-cdk-lib', 'cdk-capability', 'cdk8s', 'cdk8s-plus-30', 'constructs'];

/**
 * Runs a TypeScript snippet as a CommonJS module: `cdk-capability` resolves to src/, the names in `modules` to what is given,
 * anything else as this test resolves it; `test` collects the snippet's tests for the caller to run.
 */
function runSnippet(code: string, modules: Record<string, unknown> = {}): { exports: Record<string, any>; tests: Array<[string, () => void]> } {
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(code, { compilerOptions }).outputText;
  const module = { exports: {} as Record<string, any> };
  const tests: Array<[string, () => void]> = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, resolved at run time
  const load = (name: string) => (name in modules ? modules[name] : name === 'cdk-capability' ? require('../src') : require(name));
  new Function('require', 'exports', 'module', 'test', js)(load, module.exports, module, (name: string, fn: () => void) => tests.push([name, fn]));
  return { exports: module.exports, tests };
}

describe('docs/packaging.md', () => {
  test('holds the four blocks this test checks, in order: package.json, the capability, its test, the app', () => {
    expect(BLOCKS.map((b) => b.lang)).toEqual(['json', 'ts', 'ts', 'ts']);
  });

  test('its package.json takes the construct libraries as peers (and dev dependencies), with ranges that meet ours, and never as dependencies', () => {
    // GIVEN
    const pkg = JSON.parse(BLOCKS[0].code);

    // THEN each peer is a peer and a dev dependency of the same range, none a dependency or bundled
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(PEERS);
    for (const name of PEERS) expect({ name, dev: pkg.devDependencies[name] }).toEqual({ name, dev: pkg.peerDependencies[name] });
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.bundledDependencies ?? pkg.bundleDependencies).toBeUndefined();
    // the ranges an app can satisfy together with cdk-capability's own peers
    for (const name of PEERS.filter((p) => p !== 'cdk-capability')) {
      expect({ name, meets: semver.intersects(pkg.peerDependencies[name], OURS.peerDependencies[name]) }).toEqual({ name, meets: true });
    }
    expect(semver.satisfies(OURS.version, pkg.peerDependencies['cdk-capability'])).toBe(true);
    // the jest setup names a preset that exists
    expect(pkg.jest).toEqual({ preset: 'ts-jest', testEnvironment: 'node' });
    expect(() => require.resolve('ts-jest')).not.toThrow();
  });

  test("its capability, its package's test and the app that consumes it run: the test passes and the app writes its output", () => {
    // GIVEN the capability, as the package's src/index.ts
    const capability = runSnippet(BLOCKS[1].code).exports;
    expect(Object.keys(capability)).toEqual(['QueueCapability']);

    // WHEN the package's test runs against it
    const { tests } = runSnippet(BLOCKS[2].code, { '../src': capability });
    expect(tests.map(([name]) => name)).toEqual(['a queue per tenant, and the settings in one ConfigMap']);
    for (const [, fn] of tests) fn();

    // AND the app's program runs with the package installed
    const outdir = path.join(tempDir(), 'dist');
    const saved = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = outdir;
    try {
      runSnippet(BLOCKS[3].code, { '@acme/queue-capability': capability });
    } finally {
      if (saved === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = saved;
    }

    // THEN the app's output holds the capability's steps
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.steps.map((s: { id: string }) => s.id)).toEqual(['queues/Base', 'queues/acme', 'queues/Routing']);
  });

  test('is linked from the README', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf-8')).toContain('](docs/packaging.md)');
  });
});
