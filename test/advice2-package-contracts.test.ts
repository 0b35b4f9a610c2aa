/**
 * A contract made by an installed capability package, as the app's owner meets it: the example package
 * (examples/published-construct/queue-worker) built to JavaScript and installed in an app's `node_modules` as npm
 * lays it out, the app's lock accepted with one release, then the package upgraded. A release that changes the
 * contract without the bump it needs (`CAP007`) or retires a major the lock still reads (`CAP008`) is the package's
 * to fix: the refusal says so to the app's owner, naming the package, its version and the release to stay on, and
 * keeps the package owners' fix after it. A contract the app makes itself keeps the owner's advice alone.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { RETIRE_V1 } from './published-construct-fixtures';
import { HANG_GUARD_MS, NODE_TS, NODE_TS_COMMAND, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const SOURCE = fs.readFileSync(path.join(ROOT, 'examples', 'published-construct', 'queue-worker', 'src', 'index.ts'), 'utf-8');
const PACKAGE = '@acme/queue-worker-capability';
/** The text blocks of docs/package-releases.md, in order. */
const TEXTS = [...fs.readFileSync(path.join(ROOT, 'docs', 'package-releases.md'), 'utf-8').matchAll(/^```text\n([\s\S]*?)^```$/gm)].map((m) => m[1].trim());

/** Release 2.1.0 of the example: a field added to major 2, its version left at 2.0.0. */
const UNBUMPED: Array<[string, string]> = [
  ['fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string() },', 'fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string(), region: Field.string() },'],
  ['this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl });',
    "this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl, region: 'eu-west-1' });"],
];

/** Release 1.1.0 of the example: major 1 alone, read by the workers. */
const ONLY_V1: Array<[string, string]> = [
  [`    this.contract = new InterfaceContract(this, 'QueueV2', {
      name: 'Queue',
      version: '2.0.0',
      fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string() },
    });
`, ''],
  ['    this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl });\n', ''],
  ['const values = this.contract.consume(', 'const values = this.contractV1.consume('],
  ['public readonly contract: InterfaceContract<{ queueUrl: Field<string>; deadLetterQueueUrl: Field<string> }>;', ''],
];

/**
 * An app folder: the construct libraries of this repository in its node_modules (links, one copy each),
 * `cdk-capability` a package whose main is this repository's source, and `main.js`, which composes the
 * installed package once against the app's lock.
 */
function appFolder(): string {
  const dir = tempDir('cdk-capability-app-');
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib']) fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  fs.mkdirSync(path.join(modules, 'cdk-capability'));
  fs.writeFileSync(path.join(modules, 'cdk-capability', 'package.json'), JSON.stringify({ name: 'cdk-capability', version: '0.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(modules, 'cdk-capability', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))});\n`);
  fs.writeFileSync(path.join(dir, 'main.js'), [
    "const { CapabilityApp } = require('cdk-capability');",
    `const { QueueWorkerCapability } = require('${PACKAGE}');`,
    '',
    "const app = new CapabilityApp({ lockFile: 'capability.lock.json', builtinCloudFormationValidation: false });",
    "new QueueWorkerCapability(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });",
    'app.synth();',
    '',
  ].join('\n'));
  return dir;
}

/** Installs release `version` of the package (the example's source with `edits`, compiled) in the app, as npm would. */
function install(app: string, version: string, edits: Array<[string, string]>): void {
  let code = SOURCE.replace("from '../../../../src'", "from 'cdk-capability'");
  for (const [from, to] of edits) {
    expect({ from, occurrences: code.split(from).length - 1 }).toEqual({ from, occurrences: 1 });
    code = code.replace(from, to);
  }
  const folder = path.join(app, 'node_modules', ...PACKAGE.split('/'));
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(path.join(folder, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: PACKAGE, version, main: 'lib/index.js' }));
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(folder, 'lib', 'index.js'), js);
}

function node(app: string, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|CDK8S_OUTDIR$|CDK_CAPABILITY_)/i.test(k)));
  const r = spawnSync(process.execPath, [...NODE_TS, ...args], { cwd: app, env: { ...clean, CDK8S_OUTDIR: path.join(app, 'dist'), ...env }, encoding: 'utf-8', timeout: HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The app's synth accepted with the installed release, its lock written (as `CDK_CAPABILITY_UPDATE_LOCK=1 cdk8s synth` does). */
function acceptLock(app: string): void {
  const r = node(app, ['main.js'], { CDK_CAPABILITY_UPDATE_LOCK: '1' });
  expect({ status: r.status, lock: fs.existsSync(path.join(app, 'capability.lock.json')) }).toEqual({ status: 0, lock: true });
}

/** `cdk-capability plan` of the app, as its CI runs it: what it prints. */
function plan(app: string): { status: number | null; stdout: string; stderr: string } {
  return node(app, [path.join(ROOT, 'src', 'cli', 'main.ts'), 'plan', '--app', `${NODE_TS_COMMAND} main.js`]);
}

describe('a contract of an installed package changed without the bump it needs (CAP007)', () => {
  let app: string;
  beforeAll(() => {
    // GIVEN an app whose lock is of package 2.0.0, upgraded to 2.1.0, which adds a field and keeps the contract's 2.0.0
    app = appFolder();
    install(app, '2.0.0', []);
    acceptLock(app);
    install(app, '2.1.0', UNBUMPED);
  });

  test("plan's refusal tells the app's owner to stay on the release before 2.1.0, naming the package, then the package owners' fix", () => {
    // WHEN the app's CI runs plan
    const r = plan(app);

    // THEN
    expect(r.status).not.toBe(0);
    expect(r.stderr.split('\n').filter((l) => /^CAP|^ {2}'/.test(l))).toEqual([
      "CAP007 interface change without its version bump: 'jobs/Queue' changed (field 'region' added (required) (needs minor)), which needs a minor version bump, "
      + `but the version went from 2.0.0 to 2.0.0. The contract comes from the installed package ${PACKAGE}@2.1.0, which changed it without the release it needs, `
      + `and the app cannot fix that: stay on the release before 2.1.0 (npm i '${PACKAGE}@<2.1.0' installs the newest of those) and ask the package's owners for a `
      + 'release that does it right. For them: Set the version to 2.1.0, or undo the change.',
      `  'jobs/Queue' created at main.js:5:1, inside the installed package ${PACKAGE}@2.1.0`,
    ]);
    // AND docs/package-releases.md shows it (its app is main.ts)
    expect(TEXTS[0].split('\n')).toEqual([
      'The composition was refused with 1 violation:',
      r.stderr.split('\n').find((l) => l.startsWith('CAP007')),
      `  'jobs/Queue' created at main.ts:5:1, inside the installed package ${PACKAGE}@2.1.0`,
    ]);
  });

  test('the synth without a report (cdk8s synth) gives the same advice: the package is found by the class it exports', () => {
    const r = node(app, ['main.js']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`but the version went from 2.0.0 to 2.0.0. The contract comes from the installed package ${PACKAGE}@2.1.0, which changed it without the release it needs`);
  });

  test('the range the advice gives is a spec npm reads as the releases before the one given', () => {
    // (npm's own reading of the spec the advice writes, on a package of the registry: cdk8s-plus-30, releases 2.2.5 and 2.4.10 among them)
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const r = spawnSync('npm', ['view', 'cdk8s-plus-30@<2.4.10', 'version', '--json', '--prefer-offline'], { cwd: app, env: clean, encoding: 'utf-8', timeout: HANG_GUARD_MS });
    expect(r.status).toBe(0);
    const versions: string[] = [JSON.parse(r.stdout)].flat();
    expect({ has225: versions.includes('2.2.5'), has2410: versions.includes('2.4.10') }).toEqual({ has225: true, has2410: false });
  });
});

describe('a major of an installed package retired while the lock still reads it (CAP008)', () => {
  test('an app that skips the package release that moves the readers (lock of 1.1.0, upgraded to 3.0.0) is told to install the release before, apply it, then upgrade', () => {
    // GIVEN an app whose lock is of package 1.1.0 (major 1 read by the workers), upgraded straight to 3.0.0
    const app = appFolder();
    install(app, '1.1.0', ONLY_V1);
    acceptLock(app);
    install(app, '3.0.0', RETIRE_V1);

    // WHEN
    const r = plan(app);

    // THEN one CAP008 (the package's major 2 takes major 1's name: a bump in place, to this app), with the app's remedy first
    expect(r.status).not.toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('CAP008'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^CAP008 unsafe deletion: this release bumps 'jobs\/Queue' in place from 1\.1\.0 to 2\.0\.0, which deletes the parameter of major 1 \(\/cdk-capability\/jobs\/queue\/v1\), but 'jobs\/Routing\/Worker-acme' remains and it read major 1 in the locked release: /);
    expect(lines[0].slice(lines[0].indexOf('rolled back. ') + 'rolled back. '.length)).toEqual(
      `The contract comes from the installed package ${PACKAGE}@3.0.0, and the app cannot change it: this release of the package deletes what the app's lock records `
      + `readers of. Install the release before 3.0.0 (npm i '${PACKAGE}@<3.0.0' installs the newest of those), synthesize and apply it, then upgrade to 3.0.0 again `
      + "(a release of the package that publishes the next major beside this one moves the readers first); if none does, stay on it and ask the package's owners "
      + 'for one. For them: Keep 1.1.0 and publish 2.0.0 beside it (a second InterfaceContract with the same name), move the readers to it, and retire major 1 in '
      + 'a later release (docs/releases.md).',
    );
    // AND docs/package-releases.md shows its end
    expect(TEXTS[2]).toEqual(`... or rolled back. ${lines[0].slice(lines[0].indexOf('rolled back. ') + 'rolled back. '.length)}`);
  });
});

describe("a contract the app makes itself keeps the owner's advice", () => {
  test('the same change in a capability of the program: CAP007 says only to set the version', () => {
    // GIVEN the package's source copied into the app (no node_modules package), locked, then changed without its bump
    const app = appFolder();
    install(app, '2.0.0', []);
    const own = path.join(app, 'queue-worker.js');
    fs.copyFileSync(path.join(app, 'node_modules', ...PACKAGE.split('/'), 'lib', 'index.js'), own);
    fs.writeFileSync(path.join(app, 'main.js'), fs.readFileSync(path.join(app, 'main.js'), 'utf-8').replace(`require('${PACKAGE}')`, "require('./queue-worker')"));
    acceptLock(app);
    install(app, '2.1.0', UNBUMPED);
    fs.copyFileSync(path.join(app, 'node_modules', ...PACKAGE.split('/'), 'lib', 'index.js'), own);

    // WHEN
    const r = plan(app);

    // THEN
    expect(r.stderr.split('\n').filter((l) => /^CAP|^ {2}'/.test(l))).toEqual([
      "CAP007 interface change without its version bump: 'jobs/Queue' changed (field 'region' added (required) (needs minor)), which needs a minor version bump, "
      + 'but the version went from 2.0.0 to 2.0.0. Set the version to 2.1.0, or undo the change.',
      expect.stringMatching(/^ {2}'jobs\/Queue' created at queue-worker\.js:\d+:\d+$/),
    ]);
  });
});
