/**
 * gitops2: switching a release from Flux to Argo CD and back. The lock records the engine and Flux's step
 * Kustomizations (`gitops`), so the plan of the release written for the other engine names what the previous one
 * left in the cluster, and how to remove it without deleting what it applied (kustomize-controller deletes the
 * objects of a Kustomization deleted with prune: true unless it is suspended; an Argo CD Application deleted with its
 * resources finalizer deletes what it manages). The cluster side is replayed on the real structured-merge-diff (live
 * where Go is installed, else test/smd/vectors/gitops2-engine-switch.json) and audited.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { schemaErrors } from './cifail-cli';
import { admit } from './enforcement/admission';
import { byArgo, byFlux, identity, TYPE } from './engine-switch-operations';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import type { SmdOperation, SmdResult } from './smd/smd';
import { smdVerdicts } from './smd/verdicts';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { formatPlan, formatPlanJson, hasChanges } from '../src/cli/format-plan';
import { main } from '../src/cli/main';
import { serializeLock, writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

const FLUX = GitOps.flux({ sourceRef: { name: 'platform' } });
const DEPLOYER = 'system:serviceaccount:argocd:argocd-application-controller';

interface Release { readonly plan: Plan; readonly lock: Lock }

/** A series of releases of the shop (tenants' ConfigMaps, in one chart or one chart each), each against the lock of the one before. */
function series(releases: ReadonlyArray<{ gitops?: GitOps; tenants: string[]; charts?: boolean; enforce?: boolean }>): Release[] {
  const s = newSeries();
  let n = 0;
  return releases.map((r) => {
    const app = new CapabilityApp({
      outdir: path.join(s.dir, `dist-${++n}`), lockFile: s.lockFile, ...(r.gitops ? { gitops: r.gitops } : {}), ...(r.enforce ? { enforce: { deployer: DEPLOYER } } : {}),
    });
    const shop = new Capability(app, 'shop');
    const single = r.charts ? undefined : new RuntimeRouting(shop, 'Routing');
    for (const t of r.tenants) {
      const routing = single ?? new RuntimeRouting(shop, `Routing-${t}`);
      new ApiObject(routing, `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'default' }, data: { tenant: t } });
    }
    const { violations, plan } = app.synthesize();
    expect(coded(violations)).toEqual([]);
    capturingOutput(() => withUpdateLock('1', () => app.synth()));
    return { plan: plan!, lock: JSON.parse(fs.readFileSync(s.lockFile, 'utf8')) as Lock };
  });
}

/** The plan's section on the GitOps output left behind, without its heading; [] without one. */
function gitopsSection(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const at = lines.findIndex((l) => l.startsWith('GitOps ('));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at + 1, end);
}

const HEADING = 'GitOps (what the previous release\'s GitOps output left in the cluster, which this release does not make again and nothing deletes):';

describe('the lock records the engine and the Flux step Kustomizations', () => {
  test('Flux: engine, namespace, each step Kustomization in plan order, prune', () => {
    const [r] = series([{ gitops: FLUX, tenants: ['acme', 'globex'], charts: true }]);
    expect(r.lock.gitops).toEqual({
      engine: 'flux',
      namespace: 'flux-system',
      kustomizations: ['shop-routing-acme', 'shop-routing-globex'],
      prune: true,
      // gitops3: each Kustomization's objects
      objects: { 'shop-routing-acme': ['ConfigMap default/cfg-acme'], 'shop-routing-globex': ['ConfigMap default/cfg-globex'] },
      dependsOn: { 'shop-routing-acme': [], 'shop-routing-globex': [] },
    });
  });

  test('Argo CD: the engine; without gitops: nothing, so a lock without GitOps keeps its bytes', () => {
    const [argo, none] = series([{ gitops: GitOps.argoCd(), tenants: ['acme'] }, { tenants: ['acme'] }]);
    expect(argo.lock.gitops).toEqual({ engine: 'argocd' });
    expect(none.lock.gitops).toBeUndefined();
    expect(serializeLock(none.lock)).not.toContain('"gitops"');
  });
});

describe('Flux -> Argo CD', () => {
  let releases: Release[];
  beforeAll(() => {
    releases = series([{ gitops: FLUX, tenants: ['acme', 'globex'], charts: true }, { gitops: GitOps.argoCd(), tenants: ['acme', 'globex'], charts: true }]);
  });

  test('the plan names the Flux Kustomizations left behind, and how to remove them without deleting their objects', () => {
    const plan = releases[1].plan;
    expect(formatPlan(plan)).toMatch(/^Plan: 0 to add, 0 to change, 0 to remove, 1 GitOps output left behind\.\n/);
    expect(hasChanges(plan)).toBe(true);
    expect(formatPlan(plan)).toContain(`\n\n${HEADING}\n`);
    expect(gitopsSection(plan)).toEqual([
      '  ~ engine: Flux -> Argo CD',
      '  - Flux Kustomizations in flux-system: shop-routing-acme, shop-routing-globex',
      '  (this release writes no gitops/flux/: those Kustomizations, and the one you pointed at gitops/flux/cluster, fail to reconcile once their paths are gone from the source, '
      + 'and keep what they applied. '
      + 'Nothing deletes them; deleting one whose prune is true deletes every object it applied, unless it is suspended first. '
      + 'Once Argo CD has synced this release, remove them: for k in shop-routing-acme shop-routing-globex; do flux suspend kustomization "$k" -n flux-system; done '
      + '&& kubectl delete kustomizations.kustomize.toolkit.fluxcd.io -n flux-system shop-routing-acme shop-routing-globex; '
      + 'then suspend and delete the Kustomization you pointed at gitops/flux/cluster the same way (deleted unsuspended, it deletes the step Kustomizations it applied, '
      + 'and, where they are not suspended, what they applied). '
      + 'Removing them leaves kustomize-controller\'s entries in each object\'s metadata.managedFields, which cdk-capability audit --applied-by argocd-controller reports as '
      + 'undeclared-manager \'kustomize-controller\'. Only once Argo CD has synced this release, release them: '
      + 'kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, which applies each object\'s identity alone under kustomize-controller, '
      + 'so it owns no other field: its owner labels go, and the fields this release applied stay (applied before, it removes every field no other manager owns))',
    ]);
    expect(plan.changes.gitops).toEqual({
      before: { engine: 'flux', namespace: 'flux-system', kustomizations: ['shop-routing-acme', 'shop-routing-globex'], prune: true, objects: { 'shop-routing-acme': ['ConfigMap default/cfg-acme'], 'shop-routing-globex': ['ConfigMap default/cfg-globex'] }, dependsOn: { 'shop-routing-acme': [], 'shop-routing-globex': [] } },
      after: { engine: 'argocd' },
      kustomizations: ['shop-routing-acme', 'shop-routing-globex'],
    });
  });

  test('plan --json holds it as changes.gitops, valid against docs/plan-output.schema.json', () => {
    const document = JSON.parse(formatPlanJson({ accepted: true, plan: releases[1].plan } as any, []));
    expect(document.plan.changes.gitops.kustomizations).toEqual(['shop-routing-acme', 'shop-routing-globex']);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
  });

  test('with prune: false, deleting them keeps their objects, and the plan says so', () => {
    const [, r] = series([{ gitops: GitOps.flux({ sourceRef: { name: 'platform' }, prune: false }), tenants: ['acme'] }, { gitops: GitOps.argoCd(), tenants: ['acme'] }]);
    expect(gitopsSection(r.plan)[2]).toContain('Their prune is false, so deleting them keeps what they applied. Once Argo CD has synced this release, remove them: ');
  });

  test('with enforce, the plan says to check that the deployer is the identity Argo CD applies as', () => {
    const [, r] = series([{ gitops: FLUX, tenants: ['acme'], enforce: true }, { gitops: GitOps.argoCd(), tenants: ['acme'], enforce: true }]);
    expect(gitopsSection(r.plan)[3]).toBe('  (with enforce, check that enforce\'s deployer is the identity Argo CD applies as (system:serviceaccount:argocd:argocd-application-controller by default): '
      + 'the field-ownership policies let only the deployer change the release\'s fields, and otherwise refuse Argo CD\'s sync of any release that changes one '
      + '(one that changes none passes, so the first may succeed and a later one fail))');
  });
});

test('the policies of a release whose deployer is still Flux\'s admit Argo CD\'s sync that changes no value, and refuse one that changes a field (the CEL evaluator)', () => {
  const app = new CapabilityApp({ outdir: path.join(tempDir('gitops2-enforce-'), 'dist'), gitops: GitOps.argoCd(), enforce: { deployer: 'system:serviceaccount:flux-system:kustomize-controller' } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const cfg = new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { tenant: 'acme' } });
  new RuntimeWriter(routing, 'Zoner', { target: cfg, fields: ['data.zone'], identity: 'system:serviceaccount:shop:zoner', manager: 'zoner' });
  const manifests = (app.synthesize().runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest));
  const live = manifests.find((m) => m.kind === 'ConfigMap');
  const sync = (object: any) => admit(manifests, {
    operation: 'UPDATE', username: DEPLOYER, group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'cfg', oldObject: live, object,
  });
  expect(sync(live).allowed).toBe(true);
  const changed = sync({ ...live, data: { tenant: 'acme-2' } });
  expect(changed.allowed).toBe(false);
  expect(changed.message).toContain(`not ${DEPLOYER}`);
});

describe('Argo CD -> Flux, and GitOps -> cdk-capability apply', () => {
  test('the plan says the Application finds no path, and how to delete it without cascading', () => {
    const [, r] = series([{ gitops: GitOps.argoCd(), tenants: ['acme'] }, { gitops: FLUX, tenants: ['acme'] }]);
    expect(gitopsSection(r.plan)).toEqual([
      '  ~ engine: Argo CD -> Flux',
      '  (this release writes no gitops/argocd/: the Argo CD Application you pointed at it fails to render (ComparisonError: app path does not exist), and syncs and prunes nothing; '
      + 'what it applied stays. Deleting the Application deletes every object it manages when it carries the finalizer '
      + 'resources-finalizer.argocd.argoproj.io (argocd app delete adds it by default). Once Flux has applied this release, delete it without cascading: '
      + 'argocd app delete <application> --cascade=false, or kubectl patch application <application> -n argocd --type merge -p \'{"metadata":{"finalizers":null}}\' '
      + '&& kubectl delete application <application> -n argocd. '
      + 'Removing them leaves argocd-controller\'s entries in each object\'s metadata.managedFields, which cdk-capability audit --applied-by kustomize-controller reports as '
      + 'undeclared-manager \'argocd-controller\'. Only once Flux has applied this release, release them: '
      + 'kubectl apply --server-side --field-manager=argocd-controller -f <outdir>/audit/objects.list, which applies each object\'s identity alone under argocd-controller, '
      + 'so it owns no other field: its sync-wave and tracking annotations go, and the fields this release applied stay (applied before, it removes every field no other manager owns))',
    ]);
  });

  test('Flux -> no gitops: the same Flux note, once cdk-capability apply has applied the release', () => {
    const [, r] = series([{ gitops: FLUX, tenants: ['acme'] }, { tenants: ['acme'] }]);
    expect(gitopsSection(r.plan)[0]).toBe('  ~ engine: Flux -> none (cdk-capability apply)');
    expect(gitopsSection(r.plan)[2]).toContain('Once cdk-capability apply has applied this release, remove them: ');
  });
});

describe('Flux -> Flux', () => {
  test('the same steps: nothing left behind, no section', () => {
    const [, r] = series([{ gitops: FLUX, tenants: ['acme'] }, { gitops: FLUX, tenants: ['acme', 'globex'] }]);
    expect(r.plan.changes.gitops).toBeUndefined();
    expect(gitopsSection(r.plan)).toEqual([]);
  });

  test('a tenant\'s chart removed: its Kustomization, which the root deletes with what it applied', () => {
    const [, r] = series([{ gitops: FLUX, tenants: ['acme', 'globex'], charts: true }, { gitops: FLUX, tenants: ['acme'], charts: true }]);
    expect(gitopsSection(r.plan)).toEqual([
      '  - Flux Kustomizations in flux-system: shop-routing-globex',
      '  (the Kustomization you pointed at gitops/flux/cluster deletes them when it applies this release, and each, with prune: true, deletes what it applied: '
      + 'an object this release keeps under another Kustomization (a step renamed or renumbered) may be deleted before that one applies it again. '
      + 'To keep such objects, suspend these before committing the release (a suspended Kustomization deleted keeps its objects): '
      + 'for k in shop-routing-globex; do flux suspend kustomization "$k" -n flux-system; done; the objects this release removes are then left to cdk-capability plan --teardown)',
    ]);
  });

  test('a lock written before the engine was recorded: nothing to say', () => {
    const [first] = series([{ gitops: FLUX, tenants: ['acme'] }]);
    const { gitops: _, ...old } = first.lock;
    const s = newSeries();
    writeLock(s.lockFile, old as Lock);
    const app = new CapabilityApp({ outdir: path.join(s.dir, 'dist'), lockFile: s.lockFile, gitops: GitOps.argoCd() });
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg-acme', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg-acme', namespace: 'default' }, data: { tenant: 'acme' } });
    expect(app.synthesize().plan!.changes.gitops).toBeUndefined();
  });
});

describe('in the cluster: Flux applied, then Argo CD syncs the same object (structured-merge-diff)', () => {
  /** What the plan says to run once Argo CD has synced: each object's identity alone (audit/objects.list) applied under kustomize-controller. */
  const release: SmdOperation = { manager: 'kustomize-controller', object: identity };
  let result: SmdResult;
  let released: SmdResult;
  let back: SmdResult;
  let argo: Release;
  let flux: Release;
  beforeAll(() => {
    [result, released, back] = smdVerdicts('gitops2-engine-switch', [
      { name: 'gitops2: Flux applied, then Argo CD syncs', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo] },
      { name: 'gitops2: then the identity alone applied under kustomize-controller', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo, release] },
      { name: 'gitops2: Argo CD synced, then Flux applies', typeName: TYPE, apiVersion: 'v1', applies: [byArgo, byFlux] },
    ]);
    [, argo, flux] = series([{ gitops: FLUX, tenants: ['acme'] }, { gitops: GitOps.argoCd(), tenants: ['acme'] }, { gitops: FLUX, tenants: ['acme'] }]);
  });

  /** `cdk-capability audit --applied-by argocd-controller` of the object against the Argo CD release's lock. */
  function audit(extra: string[] = [], r: SmdResult = result, against: Release = argo, applier = 'argocd-controller'): { code: number; stdout: string } {
    const dir = tempDir('gitops2-switch-');
    const object = structuredClone(r.object) as any;
    object.metadata.managedFields = Object.entries(r.managers).map(([manager, set]) => ({
      manager, operation: 'Apply', apiVersion: 'v1', time: '2026-12-07T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: set.fieldsV1,
    }));
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(object));
    writeLock(path.join(dir, 'capability.lock.json'), against.lock);
    const run = capturingOutput(() => main(['audit', path.join(dir, 'live.json'), '--lock', path.join(dir, 'capability.lock.json'), '--applied-by', applier, ...extra]));
    return { code: run.result, stdout: run.stdout.split(path.join(dir, 'capability.lock.json')).join('<lock>') };
  }

  test('no conflict: both managers own the release\'s fields, and Flux\'s owner labels stay, owned by kustomize-controller alone', () => {
    expect(result.applies.map((a) => a.conflicts)).toEqual([[], []]);
    const owners = (leaf: string) => Object.entries(result.managers).filter(([, s]) => s.leaves.includes(leaf)).map(([m]) => m).sort();
    expect(owners('.data.tenant')).toEqual(['argocd-controller', 'kustomize-controller']);
    expect(owners('.metadata.labels.kustomize.toolkit.fluxcd.io/name')).toEqual(['kustomize-controller']);
    expect((result.object as any).metadata.labels).toEqual({ 'kustomize.toolkit.fluxcd.io/name': 'shop-routing', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' });
  });

  test('audited for Argo CD, kustomize-controller is an undeclared manager until its entry goes, which removing the Kustomizations does not do', () => {
    const { code, stdout } = audit();
    expect(code).toBe(2);
    expect(stdout).toMatch(/^undeclared-manager: ConfigMap default\/cfg-acme: 'kustomize-controller' \(Apply at 2026-12-07T10:00:00Z\) owns /);
    expect(audit(['--ignore-manager', 'kustomize-controller'])).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });

  test('applying each object\'s identity alone under kustomize-controller releases its fields: Flux\'s labels go, Argo CD\'s fields stay, the audit matches', () => {
    expect(released.applies.map((a) => a.conflicts)).toEqual([[], [], []]);
    expect((released.object as any).metadata.labels).toBeUndefined();
    expect((released.object as any).data).toEqual({ tenant: 'acme' });
    expect(released.managers['kustomize-controller'].leaves).toEqual(['.apiVersion', '.kind', '.metadata.name', '.metadata.namespace']);
    expect(audit([], released)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });

  test('back to Flux, audited for it, argocd-controller is the undeclared manager', () => {
    expect(back.applies.map((a) => a.conflicts)).toEqual([[], []]);
    const { code, stdout } = audit([], back, flux, 'kustomize-controller');
    expect(code).toBe(2);
    expect(stdout).toMatch(/^undeclared-manager: ConfigMap default\/cfg-acme: 'argocd-controller' \(Apply at 2026-12-07T10:00:00Z\) owns data\.tenant/);
  });
});
