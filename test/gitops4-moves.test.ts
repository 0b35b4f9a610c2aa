/**
 * gitops4: an object that moves from one Flux step Kustomization to another. The lock records each step
 * Kustomization's dependsOn (`gitops.dependsOn`), so the plan tells a move whose Kustomization left waits for the one
 * the object moves to (in both releases: kustomize-controller applies, and prunes, only once each Kustomization it
 * depends on is ready at the same revision of the source, `checkDependencies`) from one it may apply before; the
 * summary counts moves as moves, not as GitOps output left behind.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { schemaErrors } from './cifail-cli';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { formatPlan, formatPlanJson, hasChanges } from '../src/cli/format-plan';
import { formatTeardownJson, teardownHasWork } from '../src/cli/format-teardown';
import { loadLock, writeLock } from '../src/release/lock';
import type { Lock, LockedGitOps } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

interface Release { readonly plan: Plan; readonly lock: Lock }

/**
 * A series of releases of one chart of ConfigMaps, each against the lock of the one before. `edges` are dependencies
 * ([a, b]: a depends on b), which put b in an earlier step; `edit` rewrites the gitops record of the lock the release
 * writes, before the next release reads it (a lock written before a field was recorded).
 */
function series(releases: ReadonlyArray<{ objects: string[]; edges: Array<[string, string]>; edit?: (g: LockedGitOps) => LockedGitOps }>): Release[] {
  const s = newSeries();
  let n = 0;
  return releases.map((r) => {
    const app = new CapabilityApp({ outdir: path.join(s.dir, `dist-${++n}`), lockFile: s.lockFile, gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const made = new Map(r.objects.map((name) => [name, new ApiObject(routing, `Cfg-${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { k: name } })]));
    for (const [a, b] of r.edges) made.get(a)!.node.addDependency(made.get(b)!);
    const { violations, plan } = app.synthesize();
    expect(coded(violations)).toEqual([]);
    capturingOutput(() => withUpdateLock('1', () => app.synth()));
    const lock = JSON.parse(fs.readFileSync(s.lockFile, 'utf8')) as Lock;
    if (r.edit) {
      writeLock(s.lockFile, { ...lock, gitops: r.edit(lock.gitops!) });
      expect(loadLock(s.lockFile).problems).toEqual([]);
    }
    return { plan: plan!, lock };
  });
}

/** The plan's GitOps section, heading included; [] without one. */
function gitopsSection(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const at = lines.findIndex((l) => l.startsWith('GitOps ('));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at, end < 0 ? undefined : end);
}

const summary = (plan: Plan) => formatPlan(plan).split('\n')[0];

const MOVES_HEADING = 'GitOps (objects this release moves from one Flux step Kustomization to another):';
const LEFT_HEADING = 'GitOps (what the previous release\'s GitOps output left in the cluster, which this release does not make again and nothing deletes):';

/** The start of the note on moves the Kustomization left may prune, and its two sentences on when. */
const PRUNES = "  (with prune: true, each Kustomization an object leaves prunes it when it applies this release, while the object still carries that Kustomization's owner labels "
  + '(kustomize.toolkit.fluxcd.io/name); the one it moves to sets its own labels when it applies it, after which the prune skips it. ';
const MAY_APPLY_FIRST = 'The Kustomization each of these leaves may apply before the one it moves to (it does not depend on it by dependsOn, directly or through others, in both this release '
  + "and the previous one, and Flux may reconcile it with either's), and then the object is deleted until the Kustomization it moves to applies it again: ";
const UNKNOWN_ORDER = 'So an object is deleted, until the Kustomization it moves to applies it again, when the one it leaves applies first (it comes earlier by dependsOn, or the two run at once): ';
const SAFE = (which: 'the object' | 'each object') => `safe, nothing to do: the Kustomization ${which} leaves depends on the one it moves to (by dependsOn, directly or through others, `
  + 'in this release and the previous one), and Flux applies a Kustomization, and prunes with it, only once each one it depends on is ready at the same revision '
  + 'of the source; by then the Kustomization the object moves to has applied it and set its own owner labels, so the prune skips it';

// x moves from shop-routing-2 to shop-routing-1; shop-routing-2 depends on shop-routing-1 in both releases (a -> b)
const DOWN = [
  { objects: ['a', 'b', 'x'], edges: [['a', 'b'], ['x', 'b']] as Array<[string, string]> },
  { objects: ['a', 'b', 'x'], edges: [['a', 'b']] as Array<[string, string]> },
];

describe('the lock records each Flux step Kustomization\'s dependsOn', () => {
  test('by name, every Kustomization, empty for one that waits for none', () => {
    const [r] = series([{ objects: ['a', 'b', 'c'], edges: [['a', 'b'], ['b', 'c']] }]);
    expect(r.lock.gitops?.dependsOn).toEqual({ 'shop-routing-1': [], 'shop-routing-2': ['shop-routing-1'], 'shop-routing-3': ['shop-routing-2'] });
  });
});

describe('an object that moves to a Kustomization the one it leaves depends on, in both releases', () => {
  let moved: Release;
  beforeAll(() => {
    [, moved] = series(DOWN);
  });

  test('the move is safe: the plan names it and says so, with nothing to do', () => {
    expect(moved.plan.changes.gitops?.moved).toEqual([{ object: 'ConfigMap default/x', from: 'shop-routing-2', to: 'shop-routing-1', safe: true }]);
    expect(gitopsSection(moved.plan)).toEqual([
      MOVES_HEADING,
      '  ~ objects that change Flux Kustomization in flux-system: ConfigMap default/x (shop-routing-2 -> shop-routing-1)',
      `  (${SAFE('the object')})`,
    ]);
  });

  test('the summary counts a move, not GitOps output left behind', () => {
    expect(summary(moved.plan)).toBe('Plan: 0 to add, 0 to change, 0 to remove, 1 order change, 1 object that changes Flux Kustomization.');
    expect(formatPlan(moved.plan)).not.toMatch(/left behind/);
  });

  test('plan --teardown has nothing to do for it; --json holds safe: true, valid against both schemas', () => {
    expect(teardownHasWork(moved.plan)).toBe(false);
    const doc = JSON.parse(formatPlanJson({ accepted: true, plan: moved.plan } as any, []));
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    expect(doc.plan.changes.gitops.moved).toEqual([{ object: 'ConfigMap default/x', from: 'shop-routing-2', to: 'shop-routing-1', safe: true }]);
    expect(schemaErrors('teardown-output.schema.json', JSON.parse(formatTeardownJson(moved.plan)))).toEqual([]);
  });

  test('the previous release\'s Kustomization did not depend on it: not safe (Flux may reconcile it with the spec it had), the note says so', () => {
    const [, next] = series([{ ...DOWN[0], edit: (g) => ({ ...g, dependsOn: { ...g.dependsOn, 'shop-routing-2': [] } }) }, DOWN[1]]);
    expect(next.plan.changes.gitops?.moved).toEqual([{ object: 'ConfigMap default/x', from: 'shop-routing-2', to: 'shop-routing-1', safe: false }]);
    const section = gitopsSection(next.plan);
    expect(section[0]).toBe(MOVES_HEADING);
    expect(section[2]).toMatch(new RegExp(`^${escape(PRUNES + MAY_APPLY_FIRST)}.* kubectl annotate ConfigMap x -n default kustomize\\.toolkit\\.fluxcd\\.io/prune=disabled --overwrite; `));
    expect(section).toHaveLength(3);
    expect(teardownHasWork(next.plan)).toBe(true);
  });

  test('a lock written before dependsOn was recorded: safe is not known, and the note says when the object is deleted, as before', () => {
    const [, next] = series([{ ...DOWN[0], edit: ({ dependsOn: _, ...g }) => g }, DOWN[1]]);
    expect(next.plan.changes.gitops?.moved).toEqual([{ object: 'ConfigMap default/x', from: 'shop-routing-2', to: 'shop-routing-1' }]);
    expect(gitopsSection(next.plan)[2]).toMatch(new RegExp(`^${escape(PRUNES + UNKNOWN_ORDER)}`));
    expect(summary(next.plan)).toMatch(/, 1 object that changes Flux Kustomization\.$/);
  });
});

describe('moves the Kustomization left may apply first', () => {
  // a -> b becomes a -> b -> c: b moves from shop-routing-1 to shop-routing-2, which depends on it; a to the new shop-routing-3
  let renumbered: Release;
  beforeAll(() => {
    [, renumbered] = series([{ objects: ['a', 'b'], edges: [['a', 'b']] }, { objects: ['a', 'b', 'c'], edges: [['a', 'b'], ['b', 'c']] }]);
  });

  test('each is not safe, and the note says why, with the annotation that keeps them', () => {
    expect(renumbered.plan.changes.gitops?.moved?.map((m) => m.safe)).toEqual([false, false]);
    const section = gitopsSection(renumbered.plan);
    expect(section[0]).toBe(MOVES_HEADING);
    expect(section[2]).toMatch(new RegExp(`^${escape(PRUNES + MAY_APPLY_FIRST)}`));
  });

  test('the summary counts two moves, not one GitOps output left behind', () => {
    expect(summary(renumbered.plan)).toBe('Plan: 1 to add, 0 to change, 0 to remove, 2 objects that change Flux Kustomization.');
    expect(hasChanges(renumbered.plan)).toBe(true);
  });
});

test('safe and unsafe moves in one release: the note names the unsafe ones, a second line the safe ones', () => {
  // a -> b -> c, y -> a (steps c, b, a, y) becomes b -> a -> c, y -> c (steps c, a and y, b): a moves down from shop-routing-3 to
  // shop-routing-2, which 3 depends on in both releases (safe); b moves up from 2 to 3, y from 4 (no longer made) to 2
  const [, mixed] = series([
    { objects: ['a', 'b', 'c', 'y'], edges: [['a', 'b'], ['b', 'c'], ['y', 'a']] },
    { objects: ['a', 'b', 'c', 'y'], edges: [['a', 'c'], ['b', 'a'], ['y', 'c']] },
  ]);
  expect(mixed.plan.changes.gitops?.moved).toEqual([
    { object: 'ConfigMap default/a', from: 'shop-routing-3', to: 'shop-routing-2', safe: true },
    { object: 'ConfigMap default/y', from: 'shop-routing-4', to: 'shop-routing-2', safe: false },
    { object: 'ConfigMap default/b', from: 'shop-routing-2', to: 'shop-routing-3', safe: false },
  ]);
  const section = gitopsSection(mixed.plan);
  const unsafe = section.filter((l) => l.startsWith(PRUNES));
  expect(unsafe).toEqual([expect.stringMatching(new RegExp(`^${escape(PRUNES + MAY_APPLY_FIRST)}`))]);
  expect(unsafe[0]).toMatch(/kubectl annotate ConfigMap y -n default .*=disabled --overwrite && kubectl annotate ConfigMap b -n default .*=disabled --overwrite; /);
  expect(unsafe[0]).not.toMatch(/ConfigMap a /);
  expect(section[section.length - 1]).toBe(`  (ConfigMap default/a: ${SAFE('each object')})`);
});

test('Kustomizations no longer made, beside moves: output left behind and moves are each counted, under the left-behind heading', () => {
  // a -> b becomes a and b with no dependency: one step, shop-routing; shop-routing-1 and -2 are no longer made
  const [, flat] = series([{ objects: ['a', 'b'], edges: [['a', 'b']] }, { objects: ['a', 'b'], edges: [] }]);
  expect(gitopsSection(flat.plan)[0]).toBe(LEFT_HEADING);
  expect(summary(flat.plan)).toMatch(/, 1 GitOps output left behind, 2 objects that change Flux Kustomization/);
});

/** A string as a regular expression that matches it. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
