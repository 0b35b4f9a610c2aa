/**
 * Argo CD gitops-engine's pruning order, ported: gitops-engine prunes (deletes) what a sync no longer holds in the
 * reverse of the sync-wave order, so what was created last is deleted first. The library's teardown is the reverse
 * of the locked release's apply order (docs/ordering.md, "Teardown"); a sync wave maps to a step, which an
 * `addDependency` chain makes one per object (docs/ordering.md: "Argo CD (gitops/argocd/, one sync wave per step)").
 *
 * Source: argoproj/gitops-engine at commit 5baed5604d2dd970619fc9b91e8d31724662ab3e, file
 * pkg/sync/sync_context_test.go, TestWaveReorderingOfPruneTasks. Already in test/kind-order.test.ts: the kind order
 * cases of pkg/sync/sync_tasks_test.go. Not ported: hooks, sync phases and `PruneLast`, which the library has no
 * equivalent of.
 */
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { removeTempDirs, stepSummary } from './util';

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
