import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { replayIdenticalAppRuns } from './support/app-run-replay';
import { capturingOutput, HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';
import { contributes, declares } from './write-fixtures';
import { formatGithub } from '../src/cli/format-github';
import { main } from '../src/cli/main';
import { CapabilityTesting } from '../src/testing';

// docs/monorepo.md: two capability packages and an app, as workspaces of one repository
// (test/fixtures/trial8/), planned from the repository's root and from the app's folder.

afterAll(removeTempDirs);
// the app's folder planned off and on a runner is one run of the app: only plan's formats read GITHUB_WORKSPACE
// (src/cli/workspace-path.ts), so plan in this process starts the app once and replays it for the second
replayIdenticalAppRuns(['GITHUB_WORKSPACE']);

const ROOT = path.resolve(__dirname, '..');
const MONOREPO = path.join(ROOT, 'test', 'fixtures', 'trial8');
const APP_FOLDER = path.join(MONOREPO, 'apps', 'platform');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'monorepo.md'), 'utf-8');
const APP_FROM_ROOT = 'npx ts-node --transpile-only apps/platform/main.ts';

/** Runs `cdk-capability <argv>` in `cwd` with the fixture app's environment plus `env`. */
function cli(cwd: string, argv: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const saved = { env: process.env, cwd: process.cwd() };
  const next: NodeJS.ProcessEnv = { ...process.env, CDK_VALIDATION: 'false', ...env };
  for (const name of ['CDK8S_OUTDIR', 'CDK_CAPABILITY_UPDATE_LOCK', 'GITHUB_WORKSPACE', 'TRIAL8_TENANTS', 'TRIAL8_QUEUE_TENANTS', 'TRIAL8_CONFLICT', 'TRIAL8_LOCK']) {
    if (!(name in env)) delete next[name];
  }
  process.env = next;
  process.chdir(cwd);
  try {
    const { result, stdout, stderr } = capturingOutput(() => main(argv));
    return { code: result, stdout, stderr };
  } finally {
    process.chdir(saved.cwd);
    process.env = saved.env;
  }
}

describe('a monorepo: a field conflict between two packages, planned from the root and from the app folder', () => {
  let fromRoot: ReturnType<typeof cli>;
  let fromApp: ReturnType<typeof cli>;
  let fromAppOnRunner: ReturnType<typeof cli>;

  beforeAll(() => {
    // GIVEN team B's package scales team A's worker, whose declaration sets its replicas
    // WHEN CI plans the app from the root with --app, and a developer from the app's folder with its cdk8s.yaml
    fromRoot = cli(MONOREPO, ['plan', '--format', 'json', '--app', APP_FROM_ROOT], { TRIAL8_CONFLICT: '1' });
    fromApp = cli(APP_FOLDER, ['plan', '--format', 'github'], { TRIAL8_CONFLICT: '1' });
    // AND a GitHub runner, whose checkout is the monorepo, plans from the app's folder
    fromAppOnRunner = cli(APP_FOLDER, ['plan', '--format', 'github'], { TRIAL8_CONFLICT: '1', GITHUB_WORKSPACE: MONOREPO });
  }, 3 * HANG_GUARD_MS);

  test('from the root, the app\'s own lock is the one compared (beside its cdk8s.yaml), as the page says', () => {
    const doc = JSON.parse(fromRoot.stdout);
    expect(doc.lock).toEqual({ file: 'apps/platform/capability.lock.json', found: false });
    expect(PAGE).toContain(`--app "${APP_FROM_ROOT}"   # Lock: compared against apps/platform/capability.lock.json.`);
  });

  test('the CAP002 names a construct of each package, and each is located in its package\'s file, relative to the root', () => {
    const doc = JSON.parse(fromRoot.stdout);
    expect(fromRoot.code).toBe(1);
    type Found = { code: string; paths: string[]; writers: unknown[] };
    const found = doc.findings.map((f: Found) => ({ code: f.code, paths: f.paths, writers: f.writers }));
    expect(found).toEqual([{
      code: 'CAP002',
      paths: ['cache/Routing/ScaleReader', 'queues/Routing/Worker'],
      writers: [
        { path: 'cache/Routing/ScaleReader', location: { file: 'packages/cache/index.ts', line: 14, column: 17 } },
        { path: 'queues/Routing/Worker', location: { file: 'packages/queue/index.ts', line: 12, column: 27 } },
      ],
    }]);
    expect(doc.findings[0].message).toBe(
      "field conflict: 'cache/Routing/ScaleReader' and 'queues/Routing/Worker' both write spec.replicas of apps/Deployment worker. "
      + `Give each field one owner: drop it from one of them (${contributes('fields', 'cache/Routing/ScaleReader')}; ${declares('queues/Routing/Worker')}).`,
    );
  });

  /** The file and line of each annotation. */
  const annotated = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => /^::error file=([^,]+),line=(\d+)/.exec(l)?.slice(1, 3));

  test('from the app\'s folder on a GitHub runner, each annotation names its file relative to the workspace, where the runner places it', () => {
    expect(fromAppOnRunner.code).toBe(1);
    expect(annotated(fromAppOnRunner.stdout)).toEqual([['packages/cache/index.ts', '14'], ['packages/queue/index.ts', '12']]);
    expect(PAGE).toContain('`--format github` and `--format sarif` name each file relative to the workspace');
  });

  test('from the app\'s folder elsewhere, the files are relative to that folder (../../packages/...), as the page says', () => {
    expect(fromApp.code).toBe(1);
    expect(annotated(fromApp.stdout)).toEqual([['../../packages/cache/index.ts', '14'], ['../../packages/queue/index.ts', '12']]);
  });
});

describe('a monorepo: one package removes a tenant whose namespace the other package still uses', () => {
  test('CAP008 names the namespace and the object that remains; --format json names the constructs of both packages', () => {
    // GIVEN an accepted release of both packages for acme and globex
    const dir = tempDir();
    const lock = path.join(dir, 'capability.lock.json');
    const env: NodeJS.ProcessEnv = { ...process.env, CDK_VALIDATION: 'false', CDK8S_OUTDIR: path.join(dir, 'dist'), CDK_CAPABILITY_UPDATE_LOCK: '1', TRIAL8_LOCK: lock };
    for (const name of ['TRIAL8_TENANTS', 'TRIAL8_QUEUE_TENANTS', 'TRIAL8_CONFLICT']) delete env[name];
    // (the app run by the tests' transpile hook: the plan below runs it as the page does, with ts-node)
    const accepted = spawnSync(process.execPath, [...NODE_TS, 'apps/platform/main.ts'], { cwd: MONOREPO, env, encoding: 'utf-8' });
    expect({ status: accepted.status, stderr: accepted.stderr }).toEqual({ status: 0, stderr: expect.stringContaining('cdk-capability: wrote the lock of this release to') });
    expect(fs.existsSync(lock)).toBe(true);

    // WHEN the queue package drops tenant globex, and the cache package keeps its ConfigMap in tenant-globex
    const removed = cli(MONOREPO, ['plan', '--format', 'json', '--app', APP_FROM_ROOT], { TRIAL8_LOCK: lock, TRIAL8_QUEUE_TENANTS: 'acme' });

    // THEN the plan is refused with CAP008, and the finding names both packages' constructs
    expect(removed.code).toBe(1);
    const findings = JSON.parse(removed.stdout).findings;
    expect(findings.map((f: { code: string; message: string; paths: string[] }) => ({ code: f.code, message: f.message, paths: f.paths }))).toEqual([{
      code: 'CAP008',
      message: "unsafe deletion: this release removes Namespace tenant-globex (declared by 'queues/Routing/Ns-globex' in the locked release), "
        + "but ConfigMap tenant-globex/cache (declared by 'cache/Routing/Tenant-globex') remains and it lives in that namespace. "
        + 'Remove or move the dependent in the same release, or keep what it needs.',
      paths: ['cache/Routing/Tenant-globex', 'queues/Routing/Ns-globex'],
    }]);
  }, 3 * HANG_GUARD_MS);
});

describe('docs/monorepo.md', () => {
  test('its package tsconfig.json compiles a package to lib/ with declarations and source maps, as the page says', () => {
    // GIVEN the page's tsconfig.json in a package whose src/index.ts exports a class
    const block = /```json\n([\s\S]*?)^```$/m.exec(PAGE);
    expect(block).not.toBeNull();
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), block![1]);
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'index.ts'), 'export class QueueCapability { public readonly tenants: string[] = []; }\n');

    // WHEN tsc builds it, as `npm run build` does
    const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
    expect(config.errors).toEqual([]);
    const emitted = ts.createProgram(config.fileNames, config.options).emit();

    // THEN lib/ holds the module, its declarations and its map back to src/index.ts
    expect(emitted.diagnostics).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'lib')).sort()).toEqual(['index.d.ts', 'index.js', 'index.js.map']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'lib', 'index.js.map'), 'utf-8')).sources).toEqual(['../src/index.ts']);
  });

  test('is linked from packaging.md, ci.md and the README', () => {
    for (const [page, link] of [['docs/packaging.md', '](monorepo.md)'], ['docs/ci.md', '](monorepo.md'], ['README.md', '](docs/monorepo.md)']]) {
      expect({ page, linked: fs.readFileSync(path.join(ROOT, page), 'utf-8').includes(link) }).toEqual({ page, linked: true });
    }
  });
});

describe("docs/packaging.md: the package's tests and aws-cdk's template validator", () => {
  const packaging = fs.readFileSync(path.join(ROOT, 'docs', 'packaging.md'), 'utf-8');

  test('CapabilityTesting.app() runs the validator unless told not to, as the page says', () => {
    const saved = process.env.CDK_VALIDATION;
    delete process.env.CDK_VALIDATION;
    try {
      expect(CapabilityTesting.app().builtinCloudFormationValidation).toBe(true);
      expect(CapabilityTesting.app({ builtinCloudFormationValidation: false }).builtinCloudFormationValidation).toBe(false);
    } finally {
      if (saved !== undefined) process.env.CDK_VALIDATION = saved;
    }
  });

  test("the package's test on the page turns it off, and the page says how and why", () => {
    const blocks = [...packaging.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => m[2]);
    expect(blocks[2]).toContain('CapabilityTesting.app({ builtinCloudFormationValidation: false })');
    expect(packaging).toContain('turn it off in a package\'s unit tests (`builtinCloudFormationValidation: false`,\nor `CDK_VALIDATION=false` in the test script\'s environment)');
  });
});

describe('--format github on a runner: files relative to the workspace', () => {
  const workspace = path.join(path.sep, 'home', 'runner', 'work', 'shop', 'shop');
  const cwd = path.join(workspace, 'apps', 'platform');
  const base = { rule: 'CAP014/lock-file', title: 'lock file', severity: 'error' as const, paths: [] };

  test("a lock's CAP014, annotated on the lock file, names it relative to the workspace; a file outside the workspace stays as it is", () => {
    // GIVEN a finding on the app's lock, and one whose construct was created in a file outside the checkout
    const findings = [
      { ...base, code: 'CAP014' as any, message: 'lock file: bad', location: { file: 'capability.lock.json', line: 3, column: 1 }, writers: [] },
      {
        ...base,
        code: 'CAP005' as any,
        rule: 'CAP005/dangling-references',
        title: 'dangling reference',
        message: 'dangling reference: x',
        paths: ['a/b'],
        location: { file: '../../../../elsewhere/main.ts', line: 9, column: 1 },
        writers: [{ path: 'a/b', location: { file: '../../../../elsewhere/main.ts', line: 9, column: 1 } }],
      },
    ];

    // WHEN they are formatted for a runner whose checkout is the workspace, from the app's folder
    const lines = formatGithub(findings, { cwd, workspace }).split('\n').filter((l) => l !== '');

    // THEN the lock is named from the workspace's root, and the outside file as the finding has it
    expect(lines).toEqual([
      '::error file=apps/platform/capability.lock.json,line=3,col=1,title=CAP014 lock file::CAP014 lock file: bad',
      '::error file=../../../../elsewhere/main.ts,line=9,col=1,title=CAP005 dangling reference::CAP005 dangling reference: x (constructs: a/b)',
    ]);
    // and without a workspace, every file is as the finding has it
    expect(formatGithub(findings, { cwd }).split('\n')[0]).toBe('::error file=capability.lock.json,line=3,col=1,title=CAP014 lock file::CAP014 lock file: bad');
  });
});
