/**
 * One switch and one place for the lock: `CDK_CAPABILITY_UPDATE_LOCK` read by one parser (the app, the
 * validation plugin, `plan`, `apply`), and the default lock found beside the program's cdk8s.yaml, not in the
 * working directory, so `plan --app` run from a parent folder compares against the lock beside the app.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { capturingOutput, HANG_GUARD_MS, NODE_TS, NODE_TS_COMMAND, removeTempDirs, tempDir } from './util';
import { main } from '../src/cli/main';
import { defaultLockFile, lockWrittenLine, parseUpdateLock } from '../src/release/update-lock';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');

describe('CDK_CAPABILITY_UPDATE_LOCK', () => {
  test.each(['1', 'true', 'yes', 'TRUE', ' Yes '])('%j rewrites the lock', (value) => {
    expect(parseUpdateLock(value)).toEqual({ update: true });
  });

  test.each([undefined, '', '0', 'false', 'no', 'No'])('%j leaves it', (value) => {
    expect(parseUpdateLock(value)).toEqual({ update: false });
  });

  test('anything else is refused with what it accepts, before anything is written', () => {
    expect(parseUpdateLock('maybe')).toEqual({
      problem: 'CDK_CAPABILITY_UPDATE_LOCK is "maybe", which is neither 1, true or yes (rewrite the lock) nor 0, false, no or unset (leave it). Nothing was changed. Set it to one of those.',
    });
  });

  test('one confirmation line, the lock relative to the working directory', () => {
    expect(lockWrittenLine(path.join(process.cwd(), 'rel', 'capability.lock.json'), 'true')).toBe(
      `cdk-capability: wrote the lock of this release to ${path.join('rel', 'capability.lock.json')} (CDK_CAPABILITY_UPDATE_LOCK=true); commit it.`,
    );
  });
});

describe('the default lock file', () => {
  /** A project folder with package.json, and an app folder rel/ with cdk8s.yaml and src/main.ts. */
  function project(): string {
    const dir = tempDir('cdk-capability-lock-place-');
    fs.writeFileSync(path.join(dir, 'package.json'), '{}\n');
    fs.mkdirSync(path.join(dir, 'rel', 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'rel', 'cdk8s.yaml'), 'app: npx ts-node src/main.ts\n');
    fs.writeFileSync(path.join(dir, 'rel', 'src', 'main.ts'), '');
    return dir;
  }

  test('is beside the nearest cdk8s.yaml above the entry file, whatever the working directory', () => {
    const dir = project();
    expect(defaultLockFile({ entry: path.join(dir, 'rel', 'src', 'main.ts'), cwd: dir })).toBe(path.join(dir, 'rel', 'capability.lock.json'));
    expect(defaultLockFile({ entry: 'rel/src/main.ts', cwd: dir })).toBe(path.join(dir, 'rel', 'capability.lock.json'));
  });

  test('is beside the entry file when no cdk8s.yaml is found before the project root', () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'tools'));
    expect(defaultLockFile({ entry: path.join(dir, 'tools', 'main.ts'), cwd: path.join(dir, 'rel') })).toBe(path.join(dir, 'tools', 'capability.lock.json'));
  });

  test('is in the working directory when a tool in node_modules runs the code (jest, the cdk8s CLI) or there is no entry', () => {
    const dir = project();
    expect(defaultLockFile({ entry: path.join(dir, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s'), cwd: path.join(dir, 'rel') })).toBe(path.join(dir, 'rel', 'capability.lock.json'));
    expect(defaultLockFile({ entry: '', cwd: dir })).toBe(path.join(dir, 'capability.lock.json'));
  });
});

describe('cdk-capability plan --app from a parent folder', () => {
  test('compares against the lock beside the app and says which one; says where it looked when there is none', () => {
    // GIVEN rel/ with cdk8s.yaml and an app whose lock is the default, and the lock of that same release
    const dir = tempDir('cdk-capability-plan-parent-');
    const rel = path.join(dir, 'rel');
    fs.mkdirSync(rel);
    fs.writeFileSync(path.join(rel, 'cdk8s.yaml'), 'language: typescript\napp: npx ts-node --transpile-only main.ts\n');
    fs.writeFileSync(
      path.join(rel, 'main.ts'),
      [
        `import { ApiObject } from ${JSON.stringify(path.join(ROOT, 'node_modules', 'cdk8s'))};`,
        `import { Capability, CapabilityApp, RuntimeRouting } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
        'const app = new CapabilityApp();',
        "const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');",
        "new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { mode: 'live' } });",
        'app.synth();',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', target: 'es2022' } }));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const run = (...args: string[]) => {
        const { result, stdout, stderr } = capturingOutput(() => main(['plan', '--app', `${NODE_TS_COMMAND} rel/main.ts`, ...args]));
        return { code: result, stdout, stderr };
      };
      // WHEN planned from the parent folder with no lock yet, then with the lock of this release beside the app
      const first = run('--json');
      const env: NodeJS.ProcessEnv = { ...process.env, CDK_CAPABILITY_UPDATE_LOCK: 'yes', CDK8S_OUTDIR: path.join(dir, 'dist') };
      delete env.CDK_CAPABILITY_REPORT;
      const written = spawnSync(process.execPath, [...NODE_TS, 'rel/main.ts'], { cwd: dir, encoding: 'utf-8', env });
      const second = run();

      // THEN the first says where it looked; the app itself wrote its lock beside it; the second compared against it: no changes
      expect({ code: first.code, lock: JSON.parse(first.stdout).lock }).toEqual({ code: 2, lock: { file: path.join('rel', 'capability.lock.json'), found: false } });
      expect(written.stderr).toBe(`cdk-capability: wrote the lock of this release to ${path.join('rel', 'capability.lock.json')} (CDK_CAPABILITY_UPDATE_LOCK=yes); commit it.\n`);
      expect(second.stdout.split('\n').slice(0, 2)).toEqual([`Lock: compared against ${path.join('rel', 'capability.lock.json')}.`, 'Plan: 0 to add, 0 to change, 0 to remove.']);
      expect(second.code).toBe(0);
    } finally {
      process.chdir(cwd);
    }
  }, HANG_GUARD_MS);
});
