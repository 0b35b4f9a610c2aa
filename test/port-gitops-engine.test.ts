/**
 * Argo CD gitops-engine's pruning order, ported: gitops-engine prunes (deletes) what a sync no longer holds in the
 * reverse of the sync-wave order, so what was created last is deleted first. The library's teardown is the reverse
 * of the locked release's apply order (docs/ordering.md, "Teardown"); a sync wave maps to a step, which an
 * `addDependency` chain makes one per object (docs/ordering.md: "Argo CD (gitops/argocd/, one sync wave per step)").
 *
 * Source: argoproj/gitops-engine at commit 5baed5604d2dd970619fc9b91e8d31724662ab3e, files
 * pkg/sync/sync_context_test.go (TestWaveReorderingOfPruneTasks) and pkg/sync/sync_tasks_test.go (TestSortSyncTask,
 * Test_syncTasks_multiStep): the sync order of the `argocd.argoproj.io/sync-wave` and `argocd.argoproj.io/hook`
 * annotations. The library orders by dependencies and kinds, not by those annotations: with `GitOps.argoCd()` it
 * writes the sync waves itself, and refuses a hook whose dependency Argo CD's phases cannot keep (CAP004). Already in test/kind-order.test.ts: the kind order cases of pkg/sync/sync_tasks_test.go. Not
 * ported: `PruneLast`, which the library has no equivalent of.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, CompositionError, GitOps, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { removeTempDirs, siteOfNextLine, stepSummary, tempDir } from './util';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

const ALL = ['ns', 'pod-1', 'pod-2', 'pod-3', 'pod-4'];

/**
 * gitops-engine's Namespace `ns` (wave 0) and pods pod-1 .. pod-4 (waves 1 .. 4), those of `names` that a release
 * holds: each object depends on the one of the previous wave that the release holds, so each takes its own step.
 */
function waves(app: CapabilityApp, names: readonly string[]): void {
  const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
  let previous: ApiObject | undefined;
  for (const name of ALL.filter((n) => names.includes(n))) {
    const obj = name === 'ns'
      ? new ApiObject(chart, name, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
      : new ApiObject(chart, name, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } });
    if (previous) obj.addDependency(previous);
    previous = obj;
  }
}

describe('pruning order, against gitops-engine TestWaveReorderingOfPruneTasks', () => {
  test('the apply order of the waves: one step per wave, in wave order (differentWave_noPruneTasks)', () => {
    // GIVEN the five objects in waves 0 .. 4
    const series = lockedSeries(waves, ALL);

    // WHEN the same release is synthesized again
    const { plan } = nextRelease(series, waves, ALL);

    // THEN wave order, nothing to delete
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([['Namespace ns'], ['Pod pod-1'], ['Pod pod-2'], ['Pod pod-3'], ['Pod pod-4']]);
    expect(plan!.teardown.steps).toEqual([]);
  });

  test('all removed: deleted in the reverse of the wave order, the Namespace last (differentWave_allPruneTasks)', () => {
    // GIVEN the lock of the five objects in waves 0 .. 4; gitops-engine prunes them in waves pod-4 0, pod-3 1,
    // pod-2 2, pod-1 3, ns 4
    const series = lockedSeries(waves, ALL);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, waves, []);

    // THEN one step each, in gitops-engine's prune order
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([['Pod pod-4'], ['Pod pod-3'], ['Pod pod-2'], ['Pod pod-1'], ['Namespace ns']]);
  });

  // gitops-engine keeps ns and pod-2 and prunes pod-4 (wave 1), pod-3 (3) and pod-1 (4) although pod-2, which it
  // keeps, comes after pod-1. The library refuses that deletion (CAP008, docs/errors.md): the pod-2 running in the
  // cluster was made to wait for pod-1, so pod-1 goes one release later.
  test('some removed, one of them before a kept object: refused, naming both (differentWave_mixedTasks)', () => {
    // GIVEN the lock of the five objects
    const series = lockedSeries(waves, ALL);

    // WHEN a release keeps ns and pod-2
    const { plan, violations } = nextRelease(series, waves, ['ns', 'pod-2']);

    // THEN
    expect(plan).toBeUndefined();
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP008 unsafe deletion: this release removes Pod pod-1, but Pod pod-2 remains and it depends on it in the locked release. '
        + 'Remove Pod pod-2 in this release too, or keep Pod pod-1 one more release (the version of Pod pod-2 in the cluster needs it '
        + 'until this release is applied) and remove it in the next.',
    ]);
  });

  // gitops-engine's "pruneLastIndividualResources" keeps ns and prunes the pods in the reverse of their waves, except
  // pod-2, marked `PruneLast`, which it prunes last; the library has no PruneLast: the reverse of the apply order.
  test('the Namespace kept, its later waves removed: deleted in the reverse of the wave order (pruneLastIndividualResources, without PruneLast)', () => {
    // GIVEN the lock of the five objects
    const series = lockedSeries(waves, ALL);

    // WHEN a release keeps ns alone
    const { plan } = nextRelease(series, waves, ['ns']);

    // THEN pod-4 first, pod-1 last, each after the one before, after the release is applied
    expect(plan!.teardown.steps.map((s) => [s.units, s.when])).toEqual([
      [['Pod pod-4'], 'after-apply'], [['Pod pod-3'], 'after-apply'], [['Pod pod-2'], 'after-apply'], [['Pod pod-1'], 'after-apply'],
    ]);
  });
});

const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

/**
 * gitops-engine's tasks of TestSortSyncTask that have a kind or a name, in its unsorted order: a Pod, a Service, a
 * PersistentVolume, an object in wave 1, objects named b and a, an object in wave -1 and a ConfigMap. Upstream's tasks
 * without a kind are ConfigMaps here, so that only the annotations and names tell them apart.
 */
function unsortedTasks(scope: Construct): void {
  const chart = new RuntimeRouting(new Capability(scope, 'c'), 'r');
  const configMap = (id: string, name: string, wave?: string) =>
    new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(wave === undefined ? {} : { annotations: { [SYNC_WAVE]: wave } }) } });
  new ApiObject(chart, 'Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod' }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } });
  new ApiObject(chart, 'Service', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } });
  new ApiObject(chart, 'Pv', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } });
  configMap('WavePlus', 'wave-plus', '1');
  configMap('B', 'b');
  configMap('A', 'a');
  configMap('WaveMinus', 'wave-minus', '-1');
  configMap('Cm', 'cm');
}

describe('sync waves and hooks, against gitops-engine pkg/sync/sync_tasks_test.go', () => {
  // Ported from TestSortSyncTask. gitops-engine sorts by phase, wave, kind, then name: wave-minus (wave -1); then in
  // wave 0 the ConfigMaps a, b, cm, the PersistentVolume, the Service, the Pod; wave-plus (wave 1) last. The library
  // reads no sync-wave annotation (its order is its dependencies' and kinds', docs/ordering.md) and keeps creation
  // order among objects of one kind where gitops-engine sorts them by name: one step, the ConfigMaps in the order
  // they were declared, each annotation written as declared.
  test('without GitOps.argoCd(): the sync-wave annotations are not read, objects of one kind keep creation order (TestSortSyncTask)', () => {
    // GIVEN upstream's tasks
    const app = CapabilityTesting.app();
    unsortedTasks(app);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN one step in kind order, ties in creation order, and the annotations as written
    expect(result.violations).toEqual([]);
    expect(stepSummary(result.plan)).toEqual([{
      id: 'c/r',
      objects: ['ConfigMap wave-plus', 'ConfigMap b', 'ConfigMap a', 'ConfigMap wave-minus', 'ConfigMap cm', 'PersistentVolume pv', 'Service svc', 'Pod pod'],
      dependsOn: [],
    }]);
    expect(result.runtimeObjects.filter((o) => o.metadata.annotations).map((o) => [o.metadata.name, o.metadata.annotations])).toEqual([
      ['wave-plus', { [SYNC_WAVE]: '1' }],
      ['wave-minus', { [SYNC_WAVE]: '-1' }],
    ]);
  });

  // With GitOps.argoCd() the library writes the sync-wave annotation of every object from its plan (one wave per
  // step): an object's own wave would be overwritten, so it is refused (docs/errors.md, CAP002), and the order is
  // declared with addDependency.
  test('with GitOps.argoCd(): each object that sets its own sync wave is CAP002, naming it and its value (TestSortSyncTask)', () => {
    // GIVEN upstream's tasks, with the Argo CD output
    const app = CapabilityTesting.app({ gitops: GitOps.argoCd() });
    unsortedTasks(app);

    // WHEN synthesized; THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP002 field conflict: ConfigMap wave-minus declared by 'c/r/WaveMinus' writes metadata.annotations[\"argocd.argoproj.io/sync-wave\"] (\"-1\"), "
        + 'which GitOps.argoCd() writes from the plan. Remove the annotation and order the object with addDependency.',
      "CAP002 field conflict: ConfigMap wave-plus declared by 'c/r/WavePlus' writes metadata.annotations[\"argocd.argoproj.io/sync-wave\"] (\"1\"), "
        + 'which GitOps.argoCd() writes from the plan. Remove the annotation and order the object with addDependency.',
    ]);
  });

  // Ported from Test_syncTasks_multiStep ("Double"): a PreSync hook runs in the PreSync phase, before every wave of
  // the Sync phase, whatever its own wave. A Job annotated as a PreSync hook that depends on a ConfigMap would get the
  // wave after the ConfigMap's and keep its hook annotation, so Argo CD would run it in PreSync, before the ConfigMap
  // it was ordered after exists: the plan's order cannot hold. The library refuses it (docs/errors.md, CAP004), naming
  // both objects, the hook and the fix; a hook that depends on nothing in the composition still runs first, as its
  // author meant (test/hook-phases.test.ts).
  test('with GitOps.argoCd(): a PreSync hook that depends on an object of the Sync phase is CAP004, and nothing is written (Test_syncTasks_multiStep)', () => {
    // GIVEN a ConfigMap, and a Job annotated as a PreSync hook that depends on it, with the Argo CD output
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const settings = new ApiObject(chart, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    const hook = new ApiObject(chart, 'PreSync', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } },
    });
    const at = siteOfNextLine();
    hook.addDependency(settings);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused, naming the Job and the ConfigMap, their paths, the hook and the fix
    expect(violations.map((v) => [`${v.code} ${v.message}`, v.paths])).toEqual([[
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/PreSync' depends on ConfigMap settings declared by 'c/r/Settings' "
        + `(explicit 'c/r/PreSync'.addDependency('c/r/Settings') at ${at}), but with GitOps.argoCd() Argo CD applies batch/Job migrate `
        + 'in the PreSync phase (argocd.argoproj.io/hook "PreSync") and ConfigMap settings in the Sync phase; it runs PreSync, Sync and PostSync '
        + 'one after the other, whatever the sync waves, so batch/Job migrate would not come after ConfigMap settings. '
        + 'Remove the hook annotation from batch/Job migrate and let the dependency order it, or remove the dependency.',
      ['c/r/PreSync', 'c/r/Settings'],
    ]]);
    expect(() => app.synth()).toThrow(CompositionError);
    expect(fs.existsSync(app.outdir)).toBe(false);
  });
});
