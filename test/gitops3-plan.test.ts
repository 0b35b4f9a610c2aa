/**
 * gitops3: the plan of a release for a GitOps engine whose lock records no engine (a lock written before the engine
 * was recorded, or a release applied by cdk-capability apply): nothing in such a lock tells which, so the plan says
 * the previous engine is unknown to the lock and how to check, in one line, and guesses nothing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { schemaErrors } from './cifail-cli';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { formatPlan, formatPlanJson, hasChanges } from '../src/cli/format-plan';
import { loadLock, writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

const FLUX = GitOps.flux({ sourceRef: { name: 'platform' } });

interface Release { readonly plan: Plan; readonly lock: Lock }

/**
 * A series of releases of the shop (one ConfigMap per tenant, one chart each), each against the lock of the one
 * before; `forget` removes the lock's gitops record before the next release, as a lock written before it existed.
 */
function series(releases: ReadonlyArray<{ gitops?: GitOps; tenants: string[]; forget?: boolean }>): Release[] {
  const s = newSeries();
  let n = 0;
  return releases.map((r) => {
    const app = new CapabilityApp({ outdir: path.join(s.dir, `dist-${++n}`), lockFile: s.lockFile, ...(r.gitops ? { gitops: r.gitops } : {}) });
    const shop = new Capability(app, 'shop');
    for (const t of r.tenants) {
      new ApiObject(new RuntimeRouting(shop, `Routing-${t}`), `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'default' }, data: { tenant: t } });
    }
    const { violations, plan } = app.synthesize();
    expect(coded(violations)).toEqual([]);
    capturingOutput(() => withUpdateLock('1', () => app.synth()));
    const lock = JSON.parse(fs.readFileSync(s.lockFile, 'utf8')) as Lock;
    if (r.forget) {
      const { gitops: _, ...older } = lock;
      writeLock(s.lockFile, older as Lock);
      expect(loadLock(s.lockFile)).toMatchObject({ problems: [] });
      expect(loadLock(s.lockFile).lock?.gitops).toBeUndefined();
    }
    return { plan: plan!, lock };
  });
}

/** The plan's section on the GitOps output left behind, heading included; [] without one. */
function gitopsSection(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const at = lines.findIndex((l) => l.startsWith('GitOps ('));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at, end < 0 ? undefined : end);
}

const HEADING = 'GitOps (what the previous release\'s GitOps output left in the cluster, which this release does not make again and nothing deletes):';
const UNKNOWN = (engine: string) => `  ? engine: unknown to the lock -> ${engine} (the lock records no GitOps engine: the previous release was applied by cdk-capability apply, `
  + 'or its lock was written before the engine was recorded, and this plan cannot tell which, nor name what a previous engine left. '
  + 'Check in the cluster: kubectl get kustomizations.kustomize.toolkit.fluxcd.io -A and kubectl get applications.argoproj.io -A list what Flux and Argo CD hold '
  + '(an error saying the server has no such resource type: that engine is not installed), and '
  + "kubectl get -f <outdir>/audit/objects.list --ignore-not-found -o jsonpath='{.items[*].metadata.managedFields[*].manager}' names who applied the release's objects "
  + '(kustomize-controller: Flux; argocd-controller: Argo CD; cdk-capability: cdk-capability apply); then see docs/gitops.md#switching-engines. '
  + 'The lock this release writes records its engine, so the next plan names what it leaves)';

describe('a lock written before the engine was recorded', () => {
  test('Flux, then (after upgrading) Argo CD: one line says the previous engine is unknown to the lock, and how to check', () => {
    const [, argo] = series([{ gitops: FLUX, tenants: ['acme'], forget: true }, { gitops: GitOps.argoCd(), tenants: ['acme'] }]);
    expect(argo.plan.changes.gitops).toBeUndefined();
    expect(gitopsSection(argo.plan)).toEqual([HEADING, UNKNOWN('Argo CD')]);
  });

  test('it guesses nothing: no engine switch, no Kustomization named, nothing counted as left behind, no change to the exit code', () => {
    const [, argo] = series([{ gitops: FLUX, tenants: ['acme'], forget: true }, { gitops: GitOps.argoCd(), tenants: ['acme'] }]);
    const text = formatPlan(argo.plan);
    expect(text).not.toMatch(/~ engine: |Flux Kustomizations in |GitOps output left behind/);
    expect(hasChanges(argo.plan)).toBe(false);
  });

  test('--json: changes.gitopsUnrecorded holds what this release writes, valid against docs/plan-output.schema.json', () => {
    const [, flux] = series([{ gitops: GitOps.argoCd(), tenants: ['acme'], forget: true }, { gitops: FLUX, tenants: ['acme'] }]);
    const doc = JSON.parse(formatPlanJson({ accepted: true, plan: flux.plan } as any, []));
    expect(schemaErrors('plan-output.schema.json', doc)).toEqual([]);
    expect(doc.plan.changes.gitopsUnrecorded).toEqual({ engine: 'flux', namespace: 'flux-system', kustomizations: ['shop-routing-acme'], prune: true, objects: { 'shop-routing-acme': ['ConfigMap default/cfg-acme'] }, dependsOn: { 'shop-routing-acme': [] } });
    expect(gitopsSection(flux.plan)).toEqual([HEADING, UNKNOWN('Flux')]);
  });

  test('the release after it compares with the engine its lock now records: Argo CD, then Flux, names the Application left', () => {
    const [, , flux] = series([{ gitops: GitOps.argoCd(), tenants: ['acme'], forget: true }, { gitops: GitOps.argoCd(), tenants: ['acme'] }, { gitops: FLUX, tenants: ['acme'] }]);
    expect(gitopsSection(flux.plan).slice(0, 2)).toEqual([HEADING, '  ~ engine: Argo CD -> Flux']);
  });

  test('a release for cdk-capability apply after one: nothing (its lock and the lock of a release applied by cdk-capability apply are the same)', () => {
    const [, none] = series([{ gitops: FLUX, tenants: ['acme'], forget: true }, { tenants: ['acme'] }]);
    expect(gitopsSection(none.plan)).toEqual([]);
  });

  test('a lock that records the engine: the engine switch as before, no unknown line', () => {
    const [, argo] = series([{ gitops: FLUX, tenants: ['acme'] }, { gitops: GitOps.argoCd(), tenants: ['acme'] }]);
    expect(argo.plan.changes.gitopsUnrecorded).toBeUndefined();
    expect(gitopsSection(argo.plan).slice(0, 2)).toEqual([HEADING, '  ~ engine: Flux -> Argo CD']);
  });
});
