import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { appOf, coded, lockedSeries, newSeries, nextRelease, release, removeReleaseDirs, ReleaseSeries } from './release-fixtures';
import { LOCK_FORMAT_VERSION, parseLock, serializeLock } from '../src/release/lock';

afterAll(removeReleaseDirs);

interface Branch {
  /** Route `initech` is applied after ConfigMap `settings` (an explicit dependency). */
  readonly initechAfterSettings?: boolean;
  /** ConfigMap `limits` is declared before the routes, so every route's unit moves one index down in the lock. */
  readonly limits?: boolean;
  /** The value of `data.mode` of ConfigMap `settings`. */
  readonly mode?: string;
}

/** GIVEN-side builder: capability `cdn`, ConfigMap `settings`, optionally `limits`, and a route per tenant. */
function composition(app: CapabilityApp, b: Branch): void {
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: b.mode ?? 'fast' } });
  if (b.limits) new ApiObject(routing, 'Limits', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { rps: '100' } });
  for (const tenant of ['acme', 'globex', 'initech']) {
    const route = new ApiObject(routing, `Route-${tenant}`, { apiVersion: 'routing.example.com/v1', kind: 'TenantRoute', metadata: { name: tenant }, spec: { header: 'x-tenant-id' } });
    if (tenant === 'initech' && b.initechAfterSettings) route.node.addDependency(settings);
  }
}

/** The lock `variant` releases on top of `base` (a copy of its lock): what a branch commits. */
function branchLock(base: ReleaseSeries, variant: Branch): string {
  const series = newSeries();
  fs.copyFileSync(base.lockFile, series.lockFile);
  release(series, composition, variant);
  return fs.readFileSync(series.lockFile, 'utf-8');
}

/** What `git merge` does to one file: a three-way merge of `ours` and `theirs` from `base`, line by line. */
function gitMerge(base: string, ours: string, theirs: string): { readonly clean: boolean; readonly text: string } {
  const dir = newSeries().dir;
  const files = { ours: path.join(dir, 'ours.json'), base: path.join(dir, 'base.json'), theirs: path.join(dir, 'theirs.json') };
  fs.writeFileSync(files.ours, ours);
  fs.writeFileSync(files.base, base);
  fs.writeFileSync(files.theirs, theirs);
  const merge = spawnSync('git', ['merge-file', '-p', '-L', 'HEAD', '-L', 'base', '-L', 'feature', files.ours, files.base, files.theirs], { encoding: 'utf-8' });
  if (merge.error) throw merge.error;
  // exit status: 0 clean, the number of conflicts when positive, negative (>127) on an error
  if (merge.status === null || merge.status > 127) throw new Error(`git merge-file failed: ${merge.stderr}`);
  return { clean: merge.status === 0, text: merge.stdout };
}

/** The edge of the lock text whose reason is an explicit dependency, by the ids of its ends. */
function explicitEdges(lockText: string): string[] {
  const lock = JSON.parse(lockText) as { units: Array<{ id: string }>; barriers: string[]; edges: Array<[number, number, string]> };
  const ids = [...lock.units.map((u) => u.id), ...lock.barriers];
  return lock.edges.filter((e) => e[2].startsWith('explicit')).map((e) => `${ids[e[0]]} -> ${ids[e[1]]}`);
}

const DIGEST_MISMATCH = (file: string): string =>
  `lock file: '${file}' is not the lock cdk-capability wrote: its content does not match its contentDigest, as when git merges ` +
  'two branches\' locks line by line without a conflict (a merge, rebase, cherry-pick or revert), or the file was edited by hand. ' +
  'A lock merged line by line can record what neither branch released: its edges name units by their index. ' +
  'Resolve the merge by re-running with CDK_CAPABILITY_UPDATE_LOCK=1 on the merged program, from one side\'s lock whole ' +
  '(git checkout HEAD -- <lock file>, or the lock of the commit you reverted), and commit the lock it writes (docs/lock.md#merging-rebasing-and-reverting).';

describe('two branches that each release a change and update the lock', () => {
  test('their locks conflict when git merges them, so a merge never combines two locks line by line', () => {
    // GIVEN release 1, and two branches from it: one orders route initech after settings, one adds ConfigMap limits
    const main = lockedSeries(composition, {});
    const base = fs.readFileSync(main.lockFile, 'utf-8');
    const ours = branchLock(main, { initechAfterSettings: true });
    const theirs = branchLock(main, { limits: true });

    // WHEN git merges the two locks
    const merged = gitMerge(base, ours, theirs);

    // THEN the merge conflicts (each lock's contentDigest line changed), and synth refuses the conflicted lock as such
    expect(merged.clean).toBe(false);
    expect(merged.text).toMatch(/^<<<<<<< HEAD\n {2}"contentDigest": "sha256:[0-9a-f]{64}",\n=======\n {2}"contentDigest": "sha256:[0-9a-f]{64}",\n>>>>>>> feature$/m);
    fs.writeFileSync(main.lockFile, merged.text);
    const { violations } = nextRelease(main, composition, { initechAfterSettings: true, limits: true });
    expect(coded(violations)).toEqual([
      {
        code: 'CAP014',
        message:
          `lock file: '${main.lockFile}' holds a merge conflict (a '<<<<<<<' marker at line 3), so it is not valid JSON. ` +
          'Resolve it by taking either side whole (git checkout --ours or --theirs), then synth the merged program again with ' +
          'CDK_CAPABILITY_UPDATE_LOCK=1 to rewrite the lock, and commit it (docs/lock.md).',
        paths: [],
      },
    ]);
  });

  test('a lock merged line by line without its conflict (the contentDigest lines taken from one side) is refused with CAP014, not read as a release', () => {
    // GIVEN the two branches' locks, merged line by line, the conflicted contentDigest line resolved to one side:
    // the merged edge names route globex, which neither branch ordered after settings
    const main = lockedSeries(composition, {});
    const base = fs.readFileSync(main.lockFile, 'utf-8');
    const ours = branchLock(main, { initechAfterSettings: true });
    const theirs = branchLock(main, { limits: true });
    const merged = gitMerge(base, ours, theirs).text.replace(/^<<<<<<< HEAD\n(.*\n)=======\n.*\n>>>>>>> feature\n/m, '$1');
    expect(explicitEdges(ours)).toEqual(['object:|ConfigMap||settings -> object:routing.example.com|TenantRoute||initech']);
    expect(explicitEdges(merged)).toEqual(['object:|ConfigMap||settings -> object:routing.example.com|TenantRoute||globex']);
    fs.writeFileSync(main.lockFile, merged);

    // WHEN the merged program is synthesized against it
    const { violations, plan } = nextRelease(main, composition, { initechAfterSettings: true, limits: true });

    // THEN one CAP014 says what happened and how to resolve it
    expect(coded(violations)).toEqual([{ code: 'CAP014', message: DIGEST_MISMATCH(main.lockFile), paths: [] }]);
    expect(plan).toBeUndefined();
  });

  test('resolving the conflict as the message says (one side whole, synth with CDK_CAPABILITY_UPDATE_LOCK=1) writes the lock of the merged program', () => {
    // GIVEN the conflicted merge resolved by taking our side's lock whole
    const main = lockedSeries(composition, {});
    fs.writeFileSync(main.lockFile, branchLock(main, { initechAfterSettings: true }));

    // WHEN the merged program is released
    release(main, composition, { initechAfterSettings: true, limits: true });

    // THEN the lock orders route initech after settings, as the program does, and a plan against it shows no change
    expect(explicitEdges(fs.readFileSync(main.lockFile, 'utf-8'))).toEqual(['object:|ConfigMap||settings -> object:routing.example.com|TenantRoute||initech']);
    const next = nextRelease(main, composition, { initechAfterSettings: true, limits: true });
    expect(next.violations).toEqual([]);
    expect([next.plan!.changes.added, next.plan!.changes.changed, next.plan!.changes.removed]).toEqual([[], [], []]);
  });
});

describe('the contentDigest of a lock', () => {
  test('a lock written by synth records the digest of its content, second after formatVersion', () => {
    // GIVEN a release
    const series = lockedSeries(composition, {});

    // WHEN its lock is read as text
    const lines = fs.readFileSync(series.lockFile, 'utf-8').split('\n');

    // THEN the digest line follows the format version
    expect(lines[1]).toBe(`  "formatVersion": ${LOCK_FORMAT_VERSION},`);
    expect(lines[2]).toMatch(/^ {2}"contentDigest": "sha256:[0-9a-f]{64}",$/);
  });

  test('a hand-edited value is refused with CAP014', () => {
    // GIVEN a lock whose value of data.mode was edited by hand
    const series = lockedSeries(composition, {});
    const text = fs.readFileSync(series.lockFile, 'utf-8');
    expect(text).toContain('"data.mode": "fast"');
    fs.writeFileSync(series.lockFile, text.replace('"data.mode": "fast"', '"data.mode": "slow"'));

    // WHEN the next release is synthesized
    const { violations } = nextRelease(series, composition, { mode: 'slow' });

    // THEN it is refused
    expect(coded(violations)).toEqual([{ code: 'CAP014', message: DIGEST_MISMATCH(series.lockFile), paths: [] }]);
  });

  test('a lock reformatted by a tool (arrays on one line, CRLF line ends) still reads: the digest is of its content, not its text', () => {
    // GIVEN a lock reformatted as a JSON formatter and a Windows checkout might
    const series = lockedSeries(composition, {});
    const reformatted = JSON.stringify(JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')), undefined, 4).replace(/\n/g, '\r\n');
    fs.writeFileSync(series.lockFile, reformatted);

    // WHEN the same composition is synthesized against it
    const { violations, plan } = nextRelease(series, composition, {});

    // THEN it reads, and nothing changes
    expect(violations).toEqual([]);
    expect([plan!.changes.added, plan!.changes.changed, plan!.changes.removed]).toEqual([[], [], []]);
  });

  test('a lock without a contentDigest (written by an earlier version) reads as it did', () => {
    // GIVEN a lock of this release with its contentDigest line removed
    const series = lockedSeries(composition, {});
    const text = fs.readFileSync(series.lockFile, 'utf-8');
    fs.writeFileSync(series.lockFile, text.replace(/^ {2}"contentDigest": ".*",\n/m, ''));

    // WHEN the same composition is synthesized against it
    const { violations, plan } = nextRelease(series, composition, {});

    // THEN it reads, and nothing changes
    expect(violations).toEqual([]);
    expect([plan!.changes.added, plan!.changes.changed, plan!.changes.removed]).toEqual([[], [], []]);
  });

  test('parseLock returns the lock without its contentDigest, so serializing it again gives the same file', () => {
    // GIVEN a lock file written by synth
    const series = lockedSeries(composition, {});
    const text = fs.readFileSync(series.lockFile, 'utf-8');

    // WHEN it is read and written again
    const { lock, problems } = parseLock(text, series.lockFile);

    // THEN the text is the same
    expect(problems).toEqual([]);
    expect(Object.keys(lock!)).not.toContain('contentDigest');
    expect(serializeLock(lock!)).toBe(text);
  });
});

describe('a lock written by a newer version of cdk-capability', () => {
  test('a higher formatVersion is one CAP014 that says to upgrade, not to delete the lock', () => {
    // GIVEN a lock of a format this version does not know, with a key it does not know
    const series = newSeries();
    const newer = { formatVersion: LOCK_FORMAT_VERSION + 1, interfaces: [], units: [], barriers: [], edges: [], releasedBy: { tool: 'cdk-capability' } };
    fs.writeFileSync(series.lockFile, JSON.stringify(newer, undefined, 2));
    const app = appOf(series);
    composition(app, {});

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP014 names the format and the fix
    expect(coded(violations)).toEqual([
      {
        code: 'CAP014',
        message:
          `lock file: '${series.lockFile}' was written by a newer version of cdk-capability (lock format ${LOCK_FORMAT_VERSION + 1}; this version reads formats 1 to ${LOCK_FORMAT_VERSION}). ` +
          'Upgrade cdk-capability in this project to the version that wrote it (the one on the branch that committed the lock), and synth again. ' +
          'Do not delete or edit the lock: without it the release checks (CAP007, CAP008) have nothing to compare with.',
        paths: [],
      },
    ]);
  });

  test('a formatVersion no version writes (1e21, not a safe integer) is the schema refusal naming /formatVersion, not a newer version', () => {
    // found by the lock mutation property: 1e21 read as a format and printed as "lock format 1e+21"
    const text = JSON.stringify({ formatVersion: 1e21, interfaces: [], units: [], barriers: [], edges: [] }, undefined, 2);
    const { lock, problems } = parseLock(text, 'capability.lock.json');
    expect(lock).toBeUndefined();
    expect(problems.some((p) => p.includes('newer version'))).toBe(false);
    expect(problems.some((p) => p.startsWith("'capability.lock.json' is not a cdk-capability lock: /formatVersion"))).toBe(true);
  });
});
