/**
 * gitops3: a Flux step Kustomization whose objects change (steps renumbered: a name reused for other objects). The lock
 * records each Kustomization's objects (`gitops.objects`), and the plan names each object that moves to another
 * Kustomization and what Flux does: kustomize-controller prunes, from the one it leaves, an object that still carries
 * that Kustomization's owner labels (internal/controller/kustomization_controller.go `prune` -> `deleteObjects`, whose
 * `Inclusions` are the owner labels and `Exclusions` the `kustomize.toolkit.fluxcd.io/prune: disabled` annotation;
 * fluxcd/pkg ssa `Delete` skips an object whose live labels do not match), and the one it moves to relabels it when it
 * applies it: the object is deleted in between when the one it leaves applies first.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { schemaErrors } from './cifail-cli';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { formatPlan, formatPlanJson, hasChanges } from '../src/cli/format-plan';
import { formatTeardownJson } from '../src/cli/format-teardown';
import { loadLock, serializeLock, writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

interface Release { readonly plan: Plan; readonly lock: Lock }

/**
 * A series of releases of one chart whose ConfigMaps form a chain (each depends on the next), so each takes a step
 * of its own: ['a', 'b'] is a -> b, steps [b], [a]; `older` removes the lock's Kustomization objects before the next
 * release, as a lock written before they were recorded; `flat` leaves the chain out (one step).
 */
function series(releases: ReadonlyArray<{ chain: string[]; prune?: boolean; older?: boolean; flat?: boolean }>): Release[] {
  const s = newSeries();
  let n = 0;
  return releases.map((r) => {
    const gitops = GitOps.flux({ sourceRef: { name: 'platform' }, ...(r.prune === false ? { prune: false } : {}) });
    const app = new CapabilityApp({ outdir: path.join(s.dir, `dist-${++n}`), lockFile: s.lockFile, gitops });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const objects = r.chain.map((name) => new ApiObject(routing, `Cfg-${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { k: name } }));
    if (!r.flat) objects.forEach((o, i) => { if (i + 1 < objects.length) o.node.addDependency(objects[i + 1]); });
    const { violations, plan } = app.synthesize();
    expect(coded(violations)).toEqual([]);
    capturingOutput(() => withUpdateLock('1', () => app.synth()));
    const lock = JSON.parse(fs.readFileSync(s.lockFile, 'utf8')) as Lock;
    if (r.older) {
      const { objects: _, ...gitopsBefore } = lock.gitops!;
      writeLock(s.lockFile, { ...lock, gitops: gitopsBefore });
      expect(loadLock(s.lockFile).problems).toEqual([]);
    }
    return { plan: plan!, lock };
  });
}

/** The plan's GitOps section, without its heading; [] without one. */
function gitopsSection(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const at = lines.findIndex((l) => l.startsWith('GitOps ('));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

const MOVED_NOTE = "  (with prune: true, each Kustomization an object leaves prunes it when it applies this release, while the object still carries that Kustomization's owner labels "
  + '(kustomize.toolkit.fluxcd.io/name); the one it moves to sets its own labels when it applies it, after which the prune skips it. '
  + 'The Kustomization each of these leaves may apply before the one it moves to (it does not depend on it by dependsOn, directly or through others, in both this release '
  + "and the previous one, and Flux may reconcile it with either's), and then the object is deleted until the Kustomization it moves to applies it again: "
  + "a Deployment's pods restart from nothing, a PersistentVolumeClaim takes its volume with it. "
  + 'To keep them, before committing the release: kubectl annotate ConfigMap b -n default kustomize.toolkit.fluxcd.io/prune=disabled --overwrite '
  + '&& kubectl annotate ConfigMap a -n default kustomize.toolkit.fluxcd.io/prune=disabled --overwrite; '
  + 'once the Kustomizations they move to have applied the release, remove the annotation (or they are never pruned): '
  + 'kubectl annotate ConfigMap b -n default kustomize.toolkit.fluxcd.io/prune- && kubectl annotate ConfigMap a -n default kustomize.toolkit.fluxcd.io/prune-)';

describe('the lock records each Flux Kustomization\'s objects', () => {
  test('by Kustomization name, as the plan names them', () => {
    const [r] = series([{ chain: ['a', 'b'] }]);
    expect(r.plan.steps.filter((s) => s.lifecycle === 'runtime').map((s) => [s.id, s.objects])).toEqual([['shop/Routing#1', ['ConfigMap default/b']], ['shop/Routing#2', ['ConfigMap default/a']]]);
    expect(r.lock.gitops).toEqual({
      engine: 'flux',
      namespace: 'flux-system',
      kustomizations: ['shop-routing-1', 'shop-routing-2'],
      prune: true,
      objects: { 'shop-routing-1': ['ConfigMap default/b'], 'shop-routing-2': ['ConfigMap default/a'] },
      dependsOn: { 'shop-routing-1': [], 'shop-routing-2': ['shop-routing-1'] },
    });
  });
});

describe('steps renumbered: a Kustomization name reused for other objects', () => {
  // a -> b becomes a -> b -> c: c takes step 1, b moves to shop-routing-2 (which held a), a to the new shop-routing-3
  let renumbered: Release;
  beforeAll(() => {
    [, renumbered] = series([{ chain: ['a', 'b'] }, { chain: ['a', 'b', 'c'] }]);
  });

  test('the plan names each object that changes Kustomization, what Flux does, and how to keep it', () => {
    expect(renumbered.plan.changes.gitops?.kustomizations).toEqual([]);
    expect(gitopsSection(renumbered.plan)).toEqual([
      '  ~ objects that change Flux Kustomization in flux-system: ConfigMap default/b (shop-routing-1 -> shop-routing-2), ConfigMap default/a (shop-routing-2 -> shop-routing-3)',
      MOVED_NOTE,
    ]);
    expect(hasChanges(renumbered.plan)).toBe(true);
  });

  test('--json: changes.gitops.moved, valid against the plan and teardown schemas', () => {
    const doc = JSON.parse(formatPlanJson({ accepted: true, plan: renumbered.plan } as any, []));
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    expect(doc.plan.changes.gitops.moved).toEqual([
      { object: 'ConfigMap default/b', from: 'shop-routing-1', to: 'shop-routing-2', safe: false },
      { object: 'ConfigMap default/a', from: 'shop-routing-2', to: 'shop-routing-3', safe: false },
    ]);
    const teardown = JSON.parse(formatTeardownJson(renumbered.plan));
    expect(schemaErrors('teardown-output.schema.json', teardown)).toEqual([]);
    expect(teardown.gitops.notes).toEqual(gitopsSection(renumbered.plan).map((l) => l.slice(2)));
  });
});

test('Kustomizations dropped while their objects move on: both said, the dropped ones first', () => {
  // a -> b becomes a and b with no dependency: one step, shop-routing; shop-routing-1 and shop-routing-2 are no longer made
  const [, flat] = series([{ chain: ['a', 'b'] }, { chain: ['a', 'b'], flat: true }]);
  const section = gitopsSection(flat.plan);
  expect(section.slice(0, 2)).toEqual([
    '  - Flux Kustomizations in flux-system: shop-routing-1, shop-routing-2',
    '  ~ objects that change Flux Kustomization in flux-system: ConfigMap default/a (shop-routing-2 -> shop-routing), ConfigMap default/b (shop-routing-1 -> shop-routing)',
  ]);
  expect(section[2]).toMatch(/^ {2}\(the Kustomization you pointed at gitops\/flux\/cluster deletes them/);
  expect(section[3]).toMatch(/^ {2}\(with prune: true, each Kustomization an object leaves prunes it .* kubectl annotate ConfigMap a -n default kustomize\.toolkit\.fluxcd\.io\/prune=disabled --overwrite && kubectl annotate ConfigMap b/);
  expect(section).toHaveLength(4);
});

test('the same objects in the same Kustomizations: no GitOps section', () => {
  const [, same] = series([{ chain: ['a', 'b'] }, { chain: ['a', 'b'] }]);
  expect(same.plan.changes.gitops).toBeUndefined();
  expect(gitopsSection(same.plan)).toEqual([]);
});

test('prune: false in this release: Flux deletes nothing, so no move is named', () => {
  const [, kept] = series([{ chain: ['a', 'b'] }, { chain: ['a', 'b', 'c'], prune: false }]);
  expect(kept.plan.changes.gitops).toBeUndefined();
});

test('a lock written before the Kustomizations\' objects were recorded: no move is named, none guessed', () => {
  const [, next] = series([{ chain: ['a', 'b'], older: true }, { chain: ['a', 'b', 'c'] }]);
  expect(next.plan.changes.gitops).toBeUndefined();
});

test('a lock without gitops keeps its bytes: no objects record', () => {
  const s = newSeries();
  const app = new CapabilityApp({ outdir: path.join(s.dir, 'dist'), lockFile: s.lockFile });
  new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
  capturingOutput(() => withUpdateLock('1', () => app.synth()));
  expect(serializeLock(JSON.parse(fs.readFileSync(s.lockFile, 'utf8')))).not.toMatch(/"gitops"|"objects"/);
});
