import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as semver from 'semver';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';

/**
 * The lowest versions of the peers that `cdk-capability` declares install together, as npm resolves them: an app
 * that pins each construct library to the floor of our range (the lowest published release in it) beside
 * `cdk-capability` gets a tree, not `ERESOLVE`. npm resolves the tree from the registry's metadata only
 * (`--package-lock-only`: no tarball is fetched), from its cache when it has it (`--prefer-offline`).
 */

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8'));
const PEERS = ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib'];

/** The environment without what an enclosing `npm test` would pass on, which a nested npm would read as config. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
}

function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd, env: cleanEnv(), encoding: 'utf-8', timeout: HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** `npm <args>` as `npm` runs it, without blocking: for the registry look-ups run side by side. */
function npmAsync(args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], timeout: HANG_GUARD_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf-8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf-8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: `${stdout}\n${stderr}` }));
  });
}

/** The lowest published version of `name` in `range`, as the registry lists them. */
async function floorOf(name: string, range: string): Promise<string> {
  const r = await npmAsync(['view', name, 'versions', '--json'], ROOT);
  if (r.status !== 0) throw new Error(`npm view ${name} versions failed (the registry or npm's cache is needed):\n${r.output}`);
  const versions: string[] = JSON.parse(r.output.slice(0, r.output.lastIndexOf(']') + 1));
  const floor = semver.minSatisfying(versions, range);
  if (floor === null) throw new Error(`no published ${name} in ${range}`);
  return floor;
}

/** The floor of each of our peer ranges, looked up once for the file, two look-ups at a time (CI has two cores). */
let FLOORS: Record<string, string>;
/** `resolveApp` of an app pinned to the floors, and of the floor cdk8s 2.68.0 stated before (the tests' WHEN). */
let PINNED_TO_FLOORS: Resolved;
let OLD_FLOOR: Resolved;
beforeAll(async () => {
  const floors: Array<[string, string]> = [];
  for (let i = 0; i < PEERS.length; i += 2) {
    const pair = PEERS.slice(i, i + 2);
    const found = await Promise.all(pair.map((p) => floorOf(p, PKG.peerDependencies[p])));
    pair.forEach((p, j) => floors.push([p, found[j]]));
  }
  FLOORS = Object.fromEntries(floors);
  // the two apps the tests below resolve, side by side: each is npm resolving a tree, tens of seconds on a loaded machine
  [PINNED_TO_FLOORS, OLD_FLOOR] = await Promise.all([
    resolveApp(PKG.peerDependencies, FLOORS),
    resolveApp({ ...PKG.peerDependencies, cdk8s: '^2.68.0' }, { 'cdk8s': '2.68.0', 'cdk8s-plus-30': '2.2.5' }),
  ]);
}, 2 * HANG_GUARD_MS);

/** What npm said, and the version of each peer it put in the lock. */
interface Resolved {
  readonly status: number | null;
  readonly output: string;
  readonly versions: Record<string, string>;
}

/**
 * An app that depends on a package of `cdk-capability`'s name, version and peer ranges (packed with `npm pack`, as
 * npm installs a published one) and on `pins`; `npm install --package-lock-only` in it.
 */
async function resolveApp(peerDependencies: Record<string, string>, pins: Record<string, string>): Promise<Resolved> {
  const work = tempDir('cdk-capability-floors-');
  const standIn = path.join(work, 'cdk-capability');
  const app = path.join(work, 'app');
  fs.mkdirSync(standIn);
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(standIn, 'package.json'), JSON.stringify({
    name: 'cdk-capability', version: PKG.version, peerDependencies, peerDependenciesMeta: PKG.peerDependenciesMeta,
  }));
  const packed = await npmAsync(['pack', '--pack-destination', work, '--json'], standIn);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const [{ filename }] = JSON.parse(packed.output.slice(packed.output.indexOf('['), packed.output.lastIndexOf(']') + 1));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({
    name: 'app', private: true, dependencies: { 'cdk-capability': `file:${path.join(work, filename)}`, ...pins },
  }));
  const r = await npmAsync(['install', '--package-lock-only'], app);
  const lock = r.status === 0 ? JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf-8')) : { packages: {} };
  const versions = Object.fromEntries(PEERS.map((p) => [p, lock.packages[`node_modules/${p}`]?.version]));
  return { ...r, versions };
}

describe("the floors of cdk-capability's peer ranges", () => {
  test('install together: an app pinned to the lowest published release of each range resolves with npm, no ERESOLVE', () => {
    // GIVEN the lowest published release of each of our peer ranges
    const floors = FLOORS;

    // WHEN an app pins them beside cdk-capability (resolved in the file's beforeAll)
    const r = PINNED_TO_FLOORS;

    // THEN npm resolves exactly those versions
    expect({ status: r.status, eresolve: /ERESOLVE/.test(r.output) }).toEqual({ status: 0, eresolve: false });
    expect(r.versions).toEqual(floors);
  });

  test("cdk8s' floor is the one cdk8s-plus-30's floor takes (npm view cdk8s-plus-30@<floor> peerDependencies)", () => {
    const plusFloor = FLOORS['cdk8s-plus-30'];
    const r = npm(['view', `cdk8s-plus-30@${plusFloor}`, 'peerDependencies', '--json'], ROOT);
    expect(r.status).toBe(0);
    const theirs = JSON.parse(r.output.slice(0, r.output.lastIndexOf('}') + 1));
    // our cdk8s range lies inside theirs, and starts where theirs starts
    expect(semver.minVersion(PKG.peerDependencies.cdk8s)?.version).toEqual(semver.minVersion(theirs.cdk8s)?.version);
    expect(semver.subset(PKG.peerDependencies.cdk8s, theirs.cdk8s)).toBe(true);
    expect(semver.subset(PKG.peerDependencies.constructs, theirs.constructs)).toBe(true);
  });

  test('the floor 2.68.0 stated before did not install with cdk8s-plus-30 2.2.5: npm refuses it with ERESOLVE', () => {
    // (why the floor moved: an app that took cdk8s 2.68.0, inside ^2.68.0, could not install cdk8s-plus-30 2.2.5)
    // (resolved in the file's beforeAll: resolveApp({ ...PKG.peerDependencies, cdk8s: '^2.68.0' }, { cdk8s: '2.68.0', 'cdk8s-plus-30': '2.2.5' }))
    const r = OLD_FLOOR;
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/ERESOLVE/);
    expect(r.output).toMatch(/peer cdk8s@"\^2\.68\.11" from cdk8s-plus-30@2\.2\.5/);
  });
});
