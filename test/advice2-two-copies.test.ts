/**
 * A second copy of cdk-capability in an app's tree: a capability package that lists cdk-capability in its
 * `dependencies` (npm installs a copy below it), or one installed from its folder (its own node_modules kept).
 * Its `Capability` is of that copy, the app's `CapabilityApp` of the app's; the app's synth refuses it with one
 * `CAP010` naming both copies, their folders and versions, and the fix for where the second copy lies, as the
 * message of two copies of cdk8s does; never a raw `ENOENT` of the cloud assembly.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { transformSync } from 'esbuild';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')).version;

let compiled: string | undefined;

/**
 * This repository's src/ as the JavaScript the transpile hook (test/support/transpile-hook.js) makes of it: esbuild,
 * the compiler options of tsconfig.json, a source map inline, naming the .ts beside the .js. Compiled once for the
 * file: the hook compiles a file outside the repository (a copy in a temporary app) in every process that loads it.
 */
function compiledSource(): string {
  if (compiled !== undefined) return compiled;
  const dir = tempDir('cdk-capability-src-js-');
  const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf-8').replace(/^\s*\/\/.*$/gm, ''));
  const { target, experimentalDecorators, esModuleInterop, useDefineForClassFields } = tsconfig.compilerOptions;
  const compilerOptions = { target, experimentalDecorators, esModuleInterop, useDefineForClassFields };
  for (const file of fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf-8' })) {
    const from = path.join(ROOT, 'src', file);
    if (!fs.statSync(from).isFile()) continue;
    const to = path.join(dir, file.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const source = fs.readFileSync(from, 'utf-8');
    fs.writeFileSync(to, file.endsWith('.ts') ? transformSync(source, {
      loader: 'ts', format: 'cjs', target: 'node20', sourcemap: 'inline', sourcefile: path.basename(file), tsconfigRaw: { compilerOptions },
    }).code : source);
  }
  return (compiled = dir);
}

/** A copy of cdk-capability (this repository's source, compiled as the transpile hook does) at `folder`, of `version`. */
function copyOfLibrary(folder: string, version: string): void {
  fs.mkdirSync(folder, { recursive: true });
  fs.cpSync(compiledSource(), path.join(folder, 'src'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'cdk-capability', version, main: 'src/index.js' }));
}

/** The package's index.js: a capability of a shared base and one tenant stack. */
const QUEUE_BODY = [
  "const { aws_sqs: sqs } = require('aws-cdk-lib');",
  "const { Capability, DeploymentAggregate, SharedBase } = require('cdk-capability');",
  'class QueueCapability extends Capability {',
  '  constructor(scope, id) {',
  '    super(scope, id);',
  "    new sqs.Queue(new SharedBase(this, 'Base'), 'DeadLetters');",
  "    new sqs.Queue(new DeploymentAggregate(this, 'acme'), 'Queue');",
  '  }',
  '}',
  'exports.QueueCapability = QueueCapability;',
  '',
].join('\n');

/**
 * An app whose node_modules holds the construct libraries (links to this repository's, one copy each),
 * cdk-capability, and `@acme/queue-capability` at `packageFolder` (its own copy of cdk-capability in its own
 * node_modules); `main.js` composes the package.
 */
function app(packageFolder: (app: string) => string, body = QUEUE_BODY): { dir: string; pkg: string } {
  const dir = fs.realpathSync(tempDir('cdk-capability-app-'));
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib', 'yaml', 'js-yaml', 'semver', 'ajv']) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
  copyOfLibrary(path.join(modules, 'cdk-capability'), VERSION);
  const pkg = packageFolder(dir);
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@acme/queue-capability', version: '1.0.0', main: 'index.js', dependencies: { 'cdk-capability': '^0.9.0' } }));
  copyOfLibrary(path.join(pkg, 'node_modules', 'cdk-capability'), '0.9.0');
  // a package outside the app resolves its imports from its own folder (as one installed from its folder does)
  if (!pkg.startsWith(modules)) {
    for (const name of ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib', 'yaml', 'js-yaml', 'semver', 'ajv']) {
      fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(pkg, 'node_modules', name), 'dir');
    }
  }
  fs.writeFileSync(path.join(pkg, 'index.js'), body);
  if (!pkg.startsWith(modules)) {
    // npm i ../queue-capability: a link to the folder
    fs.mkdirSync(path.join(modules, '@acme'));
    fs.symlinkSync(pkg, path.join(modules, '@acme', 'queue-capability'), 'dir');
  }
  fs.writeFileSync(path.join(dir, 'main.js'), [
    "const { CapabilityApp } = require('cdk-capability');",
    "const { QueueCapability } = require('@acme/queue-capability');",
    'const app = new CapabilityApp({ builtinCloudFormationValidation: false });',
    "new QueueCapability(app, 'jobs');",
    'app.synth();',
    '',
  ].join('\n'));
  return { dir, pkg };
}

function synth(dir: string): { status: number | null; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|CDK8S_OUTDIR$|CDK_CAPABILITY_)/i.test(k)));
  const r = spawnSync(process.execPath, [...NODE_TS, 'main.js'], { cwd: dir, env: { ...env, CDK8S_OUTDIR: path.join(dir, 'dist') }, encoding: 'utf-8', timeout: HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, stderr: r.stderr };
}

/** The refusal's lines, as `cdk8s synth` prints them (the app's synth throws). */
function refusal(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^CAP\d{3} /.test(l));
}

describe('a second copy of cdk-capability', () => {
  test('below a package that lists it in its dependencies: CAP010 naming both copies and versions, and the peer dependency', () => {
    // GIVEN npm's layout of a package with cdk-capability in its dependencies: node_modules/@acme/queue-capability/node_modules/cdk-capability
    const { dir } = app((d) => path.join(d, 'node_modules', '@acme', 'queue-capability'));

    // WHEN the app synthesizes
    const r = synth(dir);

    // THEN
    expect(r.status).toBe(1);
    expect(refusal(r.stderr)).toEqual([
      "CAP010 invalid object: two copies of cdk-capability are loaded: capability 'jobs', made by @acme/queue-capability@1.0.0, is a Capability of the copy in "
      + `'node_modules/@acme/queue-capability/node_modules/cdk-capability' (0.9.0), while the app's CapabilityApp is of 'node_modules/cdk-capability' (${VERSION}), `
      + "so the app cannot synthesize its stacks (they are made with the other copy's run folder). npm installed a copy of cdk-capability for the package that made it, "
      + 'which lists cdk-capability in its dependencies: cdk-capability belongs in its peerDependencies, never in its dependencies, as constructs, cdk8s, cdk8s-plus-XX, '
      + 'aws-cdk-lib and cdk-capability all do (docs/packaging.md). Move it there in the package, publish it, and install it again.',
    ]);
    expect(r.stderr).not.toMatch(/ENOENT/);
    // AND docs/packaging.md quotes it (of a release 1.4.0 of the app's copy), up to the fix
    const quoted = /\(`(CAP010 invalid object: two copies of cdk-capability [^`]*?)\.\.\.`,/.exec(fs.readFileSync(path.join(ROOT, 'docs', 'packaging.md'), 'utf-8').replace(/\n/g, ' '))?.[1];
    expect(quoted).toBeDefined();
    expect(refusal(r.stderr)[0].replace(`(${VERSION})`, '(1.4.0)').startsWith(quoted!)).toBe(true);
  });

  test('in a package installed from its folder (npm i ../queue-capability): CAP010 naming both copies, and the packed tarball', () => {
    // GIVEN the package's folder beside the app, with its own node_modules, linked into the app's
    const { dir, pkg } = app(() => path.join(fs.realpathSync(tempDir('cdk-capability-pkg-')), 'queue-capability'));

    // WHEN
    const r = synth(dir);

    // THEN
    expect(r.status).toBe(1);
    expect(refusal(r.stderr)).toEqual([
      "CAP010 invalid object: two copies of cdk-capability are loaded: capability 'jobs', made by @acme/queue-capability@1.0.0, is a Capability of the copy in "
      + `'${path.join(pkg, 'node_modules', 'cdk-capability')}' (0.9.0), while the app's CapabilityApp is of 'node_modules/cdk-capability' (${VERSION}), `
      + "so the app cannot synthesize its stacks (they are made with the other copy's run folder). The package that made it has its own cdk-capability, in its own "
      + 'node_modules, as a package installed from its folder (npm i ../pkg, npm link) keeps it, which npm dedupe does not touch: install the package from a packed '
      + 'tarball instead (npm pack, then npm i <file>.tgz); with npm link, remove its copy (rm -rf <package>/node_modules/cdk-capability) and run with '
      + "NODE_PRESERVE_SYMLINKS=1, so it resolves the app's. In the package, cdk-capability belongs in its peerDependencies, never in its dependencies, as constructs, "
      + 'cdk8s, cdk8s-plus-XX, aws-cdk-lib and cdk-capability all do (docs/packaging.md).',
    ]);
  });

  test('the fix the message gives works: the package without its copy (a peer dependency) synthesizes', () => {
    // GIVEN the nested layout, then the package's own copy removed, as npm lays out a peer dependency
    const { dir, pkg } = app((d) => path.join(d, 'node_modules', '@acme', 'queue-capability'));
    fs.rmSync(path.join(pkg, 'node_modules'), { recursive: true });

    // WHEN
    const r = synth(dir);

    // THEN
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.readdirSync(path.join(dir, 'dist', 'deploy')).filter((f) => f.endsWith('.template.json')).length).toBe(2);
  });
});

describe('a second copy of cdk-capability in a capability without stacks', () => {
  // Without stacks there is no cloud assembly to lose: the runtime constructs of both copies are recognized by
  // their brands, so the app's synth writes them, and the field ledger sees the writes of both copies.
  test("its runtime objects are the app's: written in order, and a field both copies write is CAP002 naming both", () => {
    // GIVEN the nested layout, a package whose capability has a RuntimeRouting of its copy with a Contribution,
    const { dir } = app((d) => path.join(d, 'node_modules', '@acme', 'queue-capability'), [
      "const { ApiObject } = require('cdk8s');",
      "const { Capability, RuntimeRouting, Contribution } = require('cdk-capability');",
      'class QueueCapability extends Capability {',
      '  constructor(scope, id) {',
      '    super(scope, id);',
      "    const routing = new RuntimeRouting(this, 'Routing');",
      "    this.config = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'queue', namespace: 'jobs' }, data: { a: '1' } });",
      "    new Contribution(routing, 'Extra', { target: this.config, fields: { data: { b: '2' } } });",
      '  }',
      '}',
      'exports.QueueCapability = QueueCapability;',
      '',
    ].join('\n'));
    // AND an app whose Contribution (of the app's copy) writes the same field
    const main = (contribution: string): void => fs.writeFileSync(path.join(dir, 'main.js'), [
      "const { CapabilityApp, Contribution } = require('cdk-capability');",
      "const { QueueCapability } = require('@acme/queue-capability');",
      'const app = new CapabilityApp();',
      "const jobs = new QueueCapability(app, 'jobs');",
      `new Contribution(jobs.node.findChild('Routing'), 'Mine', { target: jobs.config, fields: { data: { ${contribution} } } });`,
      'app.synth();',
      '',
    ].join('\n'));
    main("b: '3'");

    // WHEN the app synthesizes
    const refused = synth(dir);

    // THEN the conflict across the copies is refused, naming both writers
    expect(refused.status).toBe(1);
    expect(refusal(refused.stderr)).toEqual([
      "CAP002 field conflict: 'jobs/Routing/Extra' and 'jobs/Routing/Mine' both write data.b of ConfigMap jobs/queue. Give each field one owner: drop it from one "
      + "of them ('jobs/Routing/Extra' and 'jobs/Routing/Mine' write it as a Contribution, in its fields).",
    ]);
    expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);

    // WHEN the app writes a field of its own instead
    main("c: '3'");
    const written = synth(dir);

    // THEN the object holds the writes of both copies
    expect({ status: written.status, stderr: written.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.readdirSync(path.join(dir, 'dist', 'runtime')).sort()).toEqual(['0001-jobs-routing.yaml', 'kustomization.yaml']);
    expect(fs.readFileSync(path.join(dir, 'dist', 'runtime', '0001-jobs-routing.yaml'), 'utf-8')).toMatch(/^data:\n {2}a: "1"\n {2}b: "2"\n {2}c: "3"$/m);
  });
});
