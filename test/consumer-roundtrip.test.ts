import { spawnSync, SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';
import { copyBuiltLib } from '../scripts/built-package';

/**
 * The library as a consumer gets it: built, packed with `npm pack`, installed
 * from the tarball beside two capability packages (test/fixtures/*-capability-package)
 * that were packed the same way, and synthesized by the real `cdk8s synth`.
 *
 * The install is offline: the peers (and the library's own dependencies) are
 * `file:` links to this repository's node_modules, so the consumer tree holds
 * exactly one copy of each, as npm would lay out a real install.
 */

const ROOT = path.resolve(__dirname, '..');
const NODE_MODULES = path.join(ROOT, 'node_modules');
const CDK8S = path.join(NODE_MODULES, '.bin', 'cdk8s');
const FIXTURES = path.join(__dirname, 'fixtures');
const LINKED = ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib', 'yaml', 'semver', 'js-yaml', 'argparse', 'ajv', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'require-from-string'];
const SETUP_TIMEOUT = 2 * HANG_GUARD_MS;
const STEP_TIMEOUT = HANG_GUARD_MS;

interface Run {
  readonly status: number | null;
  /** stdout and stderr together, for messages and for failures. */
  readonly output: string;
}

/** The environment without what an enclosing `npm test` or `cdk8s synth` would pass on. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && k !== 'CDK8S_OUTDIR' && k !== 'INIT_CWD') env[k] = v;
  }
  return env;
}

function run(command: string, args: string[], cwd: string, options: SpawnSyncOptions = {}): Run {
  const r = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf-8', timeout: STEP_TIMEOUT, ...options });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** Runs and throws with the output when the command fails, so a broken setup says why. */
function mustRun(command: string, args: string[], cwd: string): string {
  const r = run(command, args, cwd);
  if (r.status !== 0) throw new Error(`'${command} ${args.join(' ')}' in ${cwd} exited ${r.status}:\n${r.output}`);
  return r.output;
}

/** `npm pack` of `dir` into `into`; returns the tarball's path. */
function pack(dir: string, into: string): string {
  const out = mustRun('npm', ['pack', '--pack-destination', into, '--json', '--ignore-scripts'], dir);
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1));
  return path.join(into, filename);
}

function cdk8sSynth(cwd: string, outdir: string, app?: string): Run {
  return run(CDK8S, ['synth', '--output', outdir, '--no-check-upgrade', ...(app ? ['--app', app] : [])], cwd);
}

function manifests(outdir: string): Array<{ kind: string; metadata: { name: string } }> {
  const dir = path.join(outdir, 'runtime');
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+-.*\.yaml$/.test(f))
    .sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf-8')).map((d) => d.toJS()));
}

let work: string;
let consumer: string;

beforeAll(() => {
  work = tempDir('cdk-capability-roundtrip-');
  const staging = path.join(work, 'package');
  const tarballs = path.join(work, 'tarballs');
  consumer = path.join(work, 'consumer');
  fs.mkdirSync(tarballs);
  fs.mkdirSync(consumer);

  // Build into a staging copy of the package, so the working tree's lib/ is never touched: tsc's declarations, then, as
  // `compile` does, its JavaScript into the one file lib/bundle.js (kept per content of src/ by scripts/built-package.js)
  copyBuiltLib(path.join(staging, 'lib'), { declarations: true });
  for (const f of ['package.json', 'README.md', 'LICENSE', 'docs']) {
    if (fs.existsSync(path.join(ROOT, f))) fs.cpSync(path.join(ROOT, f), path.join(staging, f), { recursive: true });
  }

  const dependencies: Record<string, string> = {
    'cdk-capability': `file:${pack(staging, tarballs)}`,
    'cdn-capability': `file:${pack(path.join(FIXTURES, 'cdn-capability-package'), tarballs)}`,
    'dns-capability': `file:${pack(path.join(FIXTURES, 'dns-capability-package'), tarballs)}`,
  };
  for (const name of LINKED) dependencies[name] = `file:${path.join(NODE_MODULES, name)}`;
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'platform', private: true, dependencies }, undefined, 2));
  fs.cpSync(path.join(FIXTURES, 'consumer-app'), consumer, { recursive: true });

  mustRun('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], consumer);
}, SETUP_TIMEOUT);

afterAll(removeTempDirs);

describe('a consumer installs the packed library and two capability packages', () => {
  test('the consumer tree holds one copy of constructs, cdk8s and aws-cdk-lib, seen by every package', () => {
    const copies = JSON.parse(mustRun(process.execPath, ['one-copy.js'], consumer));

    expect(copies).toEqual({
      'constructs': [fs.realpathSync(path.join(NODE_MODULES, 'constructs', 'lib', 'index.js'))],
      'cdk8s': [fs.realpathSync(path.join(NODE_MODULES, 'cdk8s', 'lib', 'index.js'))],
      'aws-cdk-lib': [fs.realpathSync(path.join(NODE_MODULES, 'aws-cdk-lib', 'index.js'))],
    });
  });

  test('the library resolves from the installed tarball, not from this repository', () => {
    const resolved = mustRun(process.execPath, ['-p', 'require.resolve("cdk-capability")'], consumer).trim();

    expect(resolved).toEqual(path.join(fs.realpathSync(consumer), 'node_modules', 'cdk-capability', 'lib', 'index.js'));
  });

  test('cdk8s synth composes both capabilities into one plan and one ordered runtime', () => {
    // GIVEN main.js: new CdnCapability(app, 'cdn', ...) and new DnsCapability(app, 'dns')
    const outdir = path.join(work, 'out-composed');

    // WHEN
    const r = cdk8sSynth(consumer, outdir);

    // THEN
    expect(`exit ${r.status}\n${r.output}`).toMatch(/^exit 0\n/);
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.capabilities.map((c: { name: string }) => c.name)).toEqual(['cdn', 'dns']);
    expect(plan.steps.filter((s: { lifecycle: string }) => s.lifecycle === 'deploy').map((s: { id: string }) => s.id)).toEqual(['cdn/Base', 'cdn/acme', 'cdn/globex']);
    const objects = manifests(outdir).map((m) => `${m.kind} ${m.metadata.name}`);
    expect(objects.sort()).toEqual(['ConfigMap cdn-routes', 'ConfigMap dns-zone', 'Namespace cdn', 'Namespace dns']);
  }, STEP_TIMEOUT);

  test('cdk8s synth refuses the same Namespace declared by both packages with CAP001, naming both construct paths', () => {
    // GIVEN conflict.js: both capabilities declare Namespace "shared"
    const r = cdk8sSynth(consumer, path.join(work, 'out-conflict'), 'node conflict.js');

    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/CAP001 duplicate object: Namespace shared is declared by 'cdn\/Routing\/Ns' and 'dns\/Records\/Ns'/);
  }, STEP_TIMEOUT);
});

describe('a consumer tree with a second, nested copy of the library', () => {
  beforeAll(() => {
    // As npm lays out a capability package that needs another version of cdk-capability.
    const nested = path.join(consumer, 'node_modules', 'dns-capability', 'node_modules', 'cdk-capability');
    fs.cpSync(path.join(consumer, 'node_modules', 'cdk-capability'), nested, { recursive: true });
  });

  test('dns-capability loads its own copy', () => {
    const resolved = mustRun(process.execPath, ['-p', 'require.resolve("cdk-capability", { paths: [require.resolve("dns-capability")] })'], consumer).trim();

    expect(resolved).toContain(path.join('dns-capability', 'node_modules', 'cdk-capability'));
  });

  test('cdk8s synth still composes both capabilities', () => {
    const outdir = path.join(work, 'out-nested');

    const r = cdk8sSynth(consumer, outdir);

    expect(`exit ${r.status}\n${r.output}`).toMatch(/^exit 0\n/);
    expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).capabilities).toEqual([{ name: 'cdn' }, { name: 'dns' }]);
  }, STEP_TIMEOUT);

  test('cdk8s synth still refuses the shared Namespace with CAP001', () => {
    const r = cdk8sSynth(consumer, path.join(work, 'out-nested-conflict'), 'node conflict.js');

    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/CAP001 .*'cdn\/Routing\/Ns' and 'dns\/Records\/Ns'/);
  }, STEP_TIMEOUT);
});
