/**
 * Helm's kind sorter, ported where test/kind-order.test.ts does not already have it: the case runs through a
 * synth (install) and a teardown (uninstall), not through the kind table alone.
 *
 * Source: helm/helm at commit e9b85e4de16ad45805843fb121748018cf89094b, file pkg/release/v1/util/kind_sorter_test.go
 * (internal/release/v2/util/kind_sorter_test.go has the same cases). Already in test/kind-order.test.ts:
 * TestKindSorter, TestKindSorterKeepOriginalOrder, TestKindSorterNamespaceAgainstUnknown.
 */
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs, stepSummary } from './util';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

/** Helm's hooks of TestKindSorterForHooks as objects, named by Helm's one-letter names, in Helm's input order. */
function hooks(app: CapabilityApp, all: boolean): void {
  const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
  if (!all) return;
  new ApiObject(chart, 'i', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'i' } });
  new ApiObject(chart, 'j', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'j' } });
  new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'c' } });
  new ApiObject(chart, 'a', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
}

/** The one-letter names of a list of `Kind name` or `group/Kind name` labels. */
const letters = (labels: readonly string[]): string => labels.map((l) => l.slice(l.lastIndexOf(' ') + 1)).join('');

describe('Helm TestKindSorterForHooks', () => {
  // Helm installs "acij": Namespace, LimitRange, ClusterRole, ClusterRoleBinding. The library puts the ClusterRoles
  // with the cluster definitions, before LimitRange (docs/ordering.md, "The kind order": Helm puts the ClusterRoles
  // after the claims). The binding names no role here, so nothing takes a later step.
  test('install: Namespace, ClusterRole, ClusterRoleBinding, LimitRange, in one step ("acij" in Helm)', () => {
    // GIVEN Helm's hooks as objects
    const app = newApp();
    hooks(app, true);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => letters(s.objects!))).toEqual(['aijc']);
  });

  // Helm uninstalls "jica", the reverse of its install order; the library's teardown is the reverse of its own.
  test('uninstall: the reverse of the install order, LimitRange first and the Namespace last ("jica" in Helm)', () => {
    // GIVEN the lock of Helm's hooks as objects
    const series = lockedSeries(hooks, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, hooks, false);

    // THEN one step, the exact reverse of the install order
    expect(plan!.teardown.steps.map((s) => letters(s.units))).toEqual(['cjia']);
  });
});
