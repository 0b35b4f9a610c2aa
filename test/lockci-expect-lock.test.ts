import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pageSection } from './doc-snippets';
import { capturingOutput, HANG_GUARD_MS, NODE_TS, NODE_TS_COMMAND } from './util';
import { expectLock, missingLockDetail } from '../src/cli/lock-expectation';
import { main } from '../src/cli/main';
import type { SynthReport } from '../src/render/report-file';

// `plan --expect-lock` (docs/lock.md#a-missing-lock-in-ci): a lock the checkout left out is a CAP014 refusal
// naming where the synth looked and the fix, not a first release with the release checks silently off.

const ROOT = path.resolve(__dirname, '..');
const FIXTURE_APP = `${NODE_TS_COMMAND} ${path.join(ROOT, 'test', 'fixtures', 'plan-app', 'main.ts')}`;
const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lockci-')));
  scratch.push(d);
  return d;
}

/** The environment of the fixture app: its lock, its outdir, and no template validator (6 s a stack). */
function appEnv(lockFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PLAN_APP_LOCK: lockFile, CDK_VALIDATION: 'false' };
  delete env.CDK8S_OUTDIR;
  delete env.CDK_CAPABILITY_UPDATE_LOCK;
  return env;
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf-8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

const FIRST_RELEASE = 'For a real first release, run plan without --expect-lock, and commit the lock CDK_CAPABILITY_UPDATE_LOCK=1 npx cdk8s synth writes (docs/lock.md#a-missing-lock-in-ci).';
const why = (where: string) => `--expect-lock was given, and there is no lock at '${where}': without it this plan is a first release, every stack and object an addition, and the release checks (CAP007, CAP008) compare with nothing.`;

describe('cdk-capability plan --expect-lock, spawned for real', () => {
  test('a missing lock is one CAP014 on stderr naming the path and the fix, nothing on stdout, exit 1', async () => {
    // GIVEN the fixture app whose lock file is not there (outside any git repository)
    const lockFile = path.join(tempDir(), 'capability.lock.json');

    // WHEN CI runs `cdk-capability plan --expect-lock`, as the real command line
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...NODE_TS, 'src/cli/main.ts', 'plan', '--app', FIXTURE_APP, '--expect-lock'], { cwd: ROOT, env: appEnv(lockFile) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

    // THEN it is refused, saying where it looked, why that matters and how to fix it
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'The composition was refused with 1 violation:',
        `CAP014 lock file: ${why(lockFile)} Restore it from the branch that released last (git checkout origin/main -- ${lockFile}), or run plan in the folder of the app's cdk8s.yaml. ${FIRST_RELEASE}`,
        'cdk-capability plan: the composition was refused with 1 violation; nothing to apply.',
        '',
      ].join('\n'),
    });
  }, HANG_GUARD_MS);
});

describe('cdk-capability plan --expect-lock, in process', () => {
  let lockFile: string;
  let withoutFlag: ReturnType<typeof runPlan>;
  let teardown: ReturnType<typeof runPlan>;
  let github: ReturnType<typeof runPlan>;

  function runPlan(argv: string[]): { code: number; stdout: string; stderr: string } {
    const saved = process.env;
    process.env = appEnv(lockFile);
    try {
      const { result, stdout, stderr } = capturingOutput(() => main(['plan', '--app', FIXTURE_APP, ...argv]));
      return { code: result, stdout, stderr };
    } finally {
      process.env = saved;
    }
  }

  beforeAll(() => {
    // GIVEN the fixture app, and no lock where it looks
    lockFile = path.join(tempDir(), 'capability.lock.json');
    // WHEN plan runs without --expect-lock, as a teardown with it, and as GitHub annotations with it
    withoutFlag = runPlan([]);
    teardown = runPlan(['--teardown', '--expect-lock']);
    github = runPlan(['--format', 'github', '--expect-lock']);
  }, 3 * HANG_GUARD_MS);

  test('without --expect-lock a first release says plainly that everything is an addition and how to restore a lock', () => {
    expect(withoutFlag.code).toBe(2);
    expect(withoutFlag.stdout.split('\n').slice(0, 3)).toEqual([
      `Lock: none at ${lockFile}, so this is a first release: every stack and object is an addition, and no release check (CAP007, CAP008) compares it with an earlier release.`,
      `      If a release was accepted before, restore its lock (git checkout origin/main -- ${lockFile}); in CI, plan --expect-lock refuses a missing lock.`,
      'Plan: 4 to add, 0 to change, 0 to remove (first release: no lock file).',
    ]);
  });

  test('plan --teardown --expect-lock refuses too, rather than print nothing to delete', () => {
    expect(teardown.code).toBe(1);
    expect(teardown.stdout).toBe('');
    expect(teardown.stderr.split('\n')[1]).toMatch(/^CAP014 lock file: --expect-lock was given, and there is no lock at '/);
  });

  test('--format github annotates the missing lock on its path, and prints no plan', () => {
    expect(github.code).toBe(1);
    const lines = github.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    // (files relative to the folder plan runs in, as every annotation's)
    expect(lines[0].startsWith(`::error file=${path.relative(ROOT, lockFile)},line=1,col=1,title=CAP014 lock file::CAP014 lock file: --expect-lock was given`)).toBe(true);
  });

  test('--expect-lock with --plan is a usage error: a plan file names no lock to check', () => {
    const { result, stdout, stderr } = capturingOutput(() => main(['plan', '--plan', 'dist/plan.json', '--expect-lock']));
    expect({ result, stdout, stderr }).toEqual({
      result: 1,
      stdout: '',
      stderr: "cdk-capability plan: --expect-lock checks the lock the app's synth reads, and --plan runs no app: drop one of them\n",
    });
  });
});

describe('what a missing lock says, with the cause git tells', () => {
  const report = (file: string, found: boolean): SynthReport => ({
    formatVersion: 1, accepted: true, violations: [], warnings: [], lock: { file, found },
  });

  test('a lock that is there leaves the report as it is', () => {
    const r = report('/x/capability.lock.json', true);
    expect(expectLock(r)).toBe(r);
  });

  test('a missing lock refuses the report with one CAP014 of the lock-file rule, sorted among the others, and drops the plan', () => {
    const r: SynthReport = {
      ...report('/nowhere/capability.lock.json', false),
      accepted: false,
      violations: [{ code: 'CAP002' as any, message: 'field conflict: x', paths: ['a'] }, { code: 'CAP020' as any, message: 'z', paths: [] }],
    };
    const refused = expectLock(r);
    expect(refused.accepted).toBe(false);
    expect(refused.plan).toBeUndefined();
    expect(refused.violations.map((v) => [v.code, v.rule])).toEqual([['CAP002', undefined], ['CAP014', 'CAP014/lock-file'], ['CAP020', undefined]]);
  });

  test('a .gitignore line that keeps the lock out of git is named, with its file and line', () => {
    // GIVEN a repository whose .gitignore (line 2) ignores *.lock.json, in a subfolder of the app
    const repo = tempDir();
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n*.lock.json\n');
    fs.mkdirSync(path.join(repo, 'rel'));
    const file = path.join(repo, 'rel', 'capability.lock.json');

    // WHEN plan --expect-lock finds no lock there
    // THEN the message says git ignores it, by which line, and how to fix that
    expect(missingLockDetail(file)).toBe(
      `${why(file)} git ignores it (${path.join(repo, '.gitignore')}:2 ('*.lock.json')), so it was never committed: remove that line, then commit the lock. ${FIRST_RELEASE}`,
    );
  });

  test('a lock git tracks that the working tree lacks (deleted, or left out by a sparse checkout) is named so, with the checkout that restores it', () => {
    // GIVEN a repository that committed rel/capability.lock.json, then lost it from the working tree
    const repo = tempDir();
    git(repo, 'init', '-q');
    fs.mkdirSync(path.join(repo, 'rel'));
    const file = path.join(repo, 'rel', 'capability.lock.json');
    fs.writeFileSync(file, '{}\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'release');
    fs.rmSync(file);

    // THEN the message says git has it, and how to bring it back
    expect(missingLockDetail(file)).toBe(
      `${why(file)} git tracks it, but the working tree lacks it (deleted, or outside a sparse checkout): git checkout HEAD -- ${file} (with a sparse checkout, git sparse-checkout add ${path.join(repo, 'rel')}). ${FIRST_RELEASE}`,
    );
    // AND the command it gives restores the lock
    spawnSync('git', ['checkout', 'HEAD', '--', file], { cwd: repo });
    expect(fs.readFileSync(file, 'utf-8')).toBe('{}\n');
  });

  test('docs/errors.md shows the message a plan run in the folder above rel/ prints', () => {
    // GIVEN a folder outside any git repository with rel/ and no lock in it, as the working directory
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'rel'));
    const before = process.cwd();
    process.chdir(dir);
    let detail: string;
    try {
      detail = missingLockDetail(path.join(dir, 'rel', 'capability.lock.json'));
    } finally {
      process.chdir(before);
    }
    // THEN the documented line is that message, code and title first
    const { texts } = pageSection(path.join(ROOT, 'docs', 'errors.md'), 'CAP014');
    expect(texts).toContain(`CAP014 lock file: ${detail}`);
  });
});
