/**
 * Trial 11: removing a tenant from a release that Argo CD applies. docs/gitops.md points the Application at the
 * output with an automated sync that prunes, so Argo CD deletes what the release removes itself, in its own
 * order, as Flux does: `plan --teardown` says so for Argo CD too, not for Flux alone.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, TEARDOWN_AFTER_APPLY } from './util';
import { Capability, CapabilityApp, GitOps, Plan, RuntimeRouting } from '../src';
import { formatTeardown } from '../src/cli/format-teardown';

afterAll(removeReleaseDirs);

/** The lines after `TEARDOWN_AFTER_APPLY` when a runtime step runs after applying a release with Argo CD output. */
const TEARDOWN_ARGO_PRUNE: readonly string[] = [
  'With Argo CD (an automated sync with prune: true, as docs/gitops.md sets it), Argo CD prunes the removed',
  'runtime objects itself in the sync that applies this release, among its waves, higher waves first:',
  'not in this order, and maybe before the waves that stop using them are applied, unless the',
  'Application sets the sync option PruneLast=true. The runtime steps then delete what is left.',
];

/** The plan of the release without tenant globex's ConfigMap, against the lock of the one with it, for `gitops`. */
function globexRemoved(gitops: GitOps): Plan {
  const series = newSeries();
  let outdirs = 0;
  const app = (tenants: string[]) => {
    const a = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++outdirs}`), lockFile: series.lockFile, gitops });
    const routing = new RuntimeRouting(new Capability(a, 'shop'), 'Routing');
    for (const t of tenants) new ApiObject(routing, `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'default' } });
    return a;
  };
  capturingOutput(() => withUpdateLock('1', () => app(['acme', 'globex']).synth()));
  const { violations, plan } = app(['acme']).synthesize();
  expect(coded(violations)).toEqual([]);
  return plan!;
}

test('a release with Argo CD output says that Argo CD prunes the removed runtime objects itself, and when', () => {
  // GIVEN releases written for Argo CD, WHEN the next one removes tenant globex's ConfigMap
  const plan = globexRemoved(GitOps.argoCd());

  // THEN the text ends with the note on Argo CD's pruning
  const lines = formatTeardown(plan).split('\n');
  expect(lines.slice(lines.indexOf(TEARDOWN_AFTER_APPLY[0]))).toEqual([...TEARDOWN_AFTER_APPLY, ...TEARDOWN_ARGO_PRUNE, '']);
  expect(lines).toContain('       $ kubectl delete --wait=true --ignore-not-found --namespace default configmap/cfg-globex');
});
