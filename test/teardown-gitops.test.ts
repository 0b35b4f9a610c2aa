import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, GitOps, Plan, RuntimeRouting } from '../src';
import { coded, newSeries, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput, TEARDOWN_AFTER_APPLY, TEARDOWN_FLUX_PRUNE } from './util';
import { formatTeardown } from '../src/cli/format-teardown';

// The note that Flux prunes removed runtime objects itself is for a release with Flux output (`GitOps.flux`),
// not for every teardown of runtime objects.

afterAll(removeReleaseDirs);

let outdirs = 0;

/** Capability shop with ConfigMaps default/a and, unless left out, default/b; written for `gitops`, if given. */
function shop(series: ReleaseSeries, b: boolean, gitops?: GitOps): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++outdirs}`), lockFile: series.lockFile, ...(gitops ? { gitops } : {}) });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
  if (b) new ApiObject(routing, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } });
  return app;
}

/** The plan of the release without ConfigMap b, against the lock of the one with it; both written for `gitops`. */
function bRemoved(gitops?: GitOps): Plan {
  const series = newSeries();
  capturingOutput(() => withUpdateLock('1', () => shop(series, true, gitops).synth()));
  const { violations, plan } = shop(series, false, gitops).synthesize();
  expect(coded(violations)).toEqual([]);
  return plan!;
}

/** The closing lines of `plan --teardown`, from the paragraph of the steps after applying. */
function closing(plan: Plan): string[] {
  const lines = formatTeardown(plan).split('\n');
  return lines.slice(lines.indexOf(TEARDOWN_AFTER_APPLY[0]));
}

describe('teardown: the note on Flux pruning', () => {
  test('a release without GitOps output says nothing of Flux', () => {
    // GIVEN a release without the prop gitops, WHEN the next one removes ConfigMap default/b
    const plan = bRemoved();

    // THEN the teardown records no GitOps output, and the text ends with the paragraph on applying
    expect(plan.teardown.gitops).toBeUndefined();
    expect(closing(plan)).toEqual([...TEARDOWN_AFTER_APPLY, '']);
  });

  test('a release with Flux output says that Flux prunes the removed runtime objects itself', () => {
    // GIVEN releases written for Flux, WHEN the next one removes ConfigMap default/b
    const plan = bRemoved(GitOps.flux({ sourceRef: { name: 'platform' } }));

    // THEN the teardown records the Flux output, and the text adds the note on pruning
    expect(plan.teardown.gitops).toBe('flux');
    expect(closing(plan)).toEqual([...TEARDOWN_AFTER_APPLY, ...TEARDOWN_FLUX_PRUNE, '']);
  });

  test('a release with Argo CD output records it, and gets no note on Flux (its own note: test/trial11-teardown.test.ts)', () => {
    // GIVEN releases written for Argo CD, WHEN the next one removes ConfigMap default/b
    const plan = bRemoved(GitOps.argoCd());

    // THEN
    expect(plan.teardown.gitops).toBe('argocd');
    expect(closing(plan).join('\n')).not.toContain('Flux');
  });
});
