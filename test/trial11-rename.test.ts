/**
 * Trial 11: renaming a construct of a release that Flux applies. The plan lists the declarer's fields handed from
 * the old construct path to the new one (under `cdk-capability apply`, each path is a field manager); Flux applies
 * every field under `kustomize-controller`, so the plan says the cluster sees no change of manager.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { formatPlan } from '../src/cli/format-plan';

afterAll(removeReleaseDirs);

/** The text of the plan of the release with ConfigMap shop/cfg declared by `Config`, against the one by `Cfg`. */
function renamed(gitops?: GitOps): string {
  const series = newSeries();
  let outdirs = 0;
  const app = (id: string) => {
    const a = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++outdirs}`), lockFile: series.lockFile, ...(gitops ? { gitops } : {}) });
    const routing = new RuntimeRouting(new Capability(a, 'shop'), 'Routing');
    new ApiObject(routing, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { a: '1', b: '2' } });
    return a;
  };
  capturingOutput(() => withUpdateLock('1', () => app('Cfg').synth()));
  const { violations, plan } = app('Config').synthesize();
  expect(coded(violations)).toEqual([]);
  return formatPlan(plan!);
}

test('with Flux the plan says a handover between writers of the release changes no field manager in the cluster', () => {
  const text = renamed(GitOps.flux({ sourceRef: { name: 'platform' } }));
  expect(text).toContain([
    'Handovers of field ownership:',
    '  ~ ConfigMap default/cfg: declared by \'shop/Routing/Cfg\' -> \'shop/Routing/Config\' (2 fields)',
    '  (Flux applies every writer\'s fields under its one field manager, kustomize-controller: a handover between writers of the release changes no field manager in the cluster, '
    + 'and no value but those the changes against the lock list)',
    '',
  ].join('\n'));
});

test('with Argo CD it names argocd-controller; applied by cdk-capability apply, whose managers do change, nothing is added', () => {
  expect(renamed(GitOps.argoCd())).toContain('  (Argo CD applies every writer\'s fields under its one field manager, argocd-controller: ');
  expect(renamed()).toMatch(/  ~ ConfigMap default\/cfg: declared by 'shop\/Routing\/Cfg' -> 'shop\/Routing\/Config' \(2 fields\)\n$/);
});
