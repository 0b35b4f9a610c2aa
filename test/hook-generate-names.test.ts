import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityTesting, GitOps, RuntimeRouting } from '../src';
import type { GitOps as GitOpsType } from '../src/render/gitops/gitops';

/** A chart `shop/Routing` of an app whose output is for `gitops` (none: kubectl). */
function chartFor(gitops?: GitOpsType) {
  const app = CapabilityTesting.app(gitops ? { gitops } : {});
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** A cdk8s-plus Job with the annotations given, its name replaced by `generateName` as a user does it: two JSON patches. */
function generatedJob(chart: RuntimeRouting, annotations: Record<string, string>): kplus.Job {
  const job = new kplus.Job(chart, 'Report', { metadata: { name: 'report', namespace: 'shop' }, containers: [{ image: 'ghcr.io/example/report:1', securityContext: { ensureNonRoot: false } }] });
  for (const [key, value] of Object.entries(annotations)) job.metadata.addAnnotation(key, value);
  ApiObject.of(job).addJsonPatch(JsonPatch.remove('/metadata/name'));
  ApiObject.of(job).addJsonPatch(JsonPatch.add('/metadata/generateName', 'report-'));
  return job;
}

const messages = (app: ReturnType<typeof chartFor>['app']) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

const HAS = "CAP010 invalid object: batch/Job shop/(no name) declared by 'shop/Routing/Report' has metadata.generateName \"report-\" and no metadata.name";
const NAMED_BY_ARGO = ': Argo CD names such a hook anew at each sync (<generateName><revision>-<phase>-<time>), but the release keeps every object by its name (the lock, audit/objects.list, the admission policies, the teardown) and cannot follow it. ';

describe('an object with metadata.generateName and no name is CAP010, saying why and what to set', () => {
  test('an Argo CD PostSync hook: Argo CD would name it at each sync, the release cannot follow it; a name runs at every sync too (BeforeHookCreation, its default)', () => {
    // GIVEN a PostSync Job with generateName, under GitOps.argoCd()
    const { app, chart } = chartFor(GitOps.argoCd());
    generatedJob(chart, { 'argocd.argoproj.io/hook': 'PostSync' });

    // WHEN it is synthesized THEN it is refused once, by this rule alone
    expect(messages(app)).toEqual([
      `${HAS}${NAMED_BY_ARGO}Set metadata.name (drop the JSON patch that removes it): Argo CD deletes a named hook before it applies it again at the next sync `
      + '(BeforeHookCreation, the delete policy of a hook that names none), so it still runs at every sync.',
    ]);
  });

  test('an Argo CD hook whose delete policy keeps it (HookFailed alone): the fix adds BeforeHookCreation', () => {
    // GIVEN a PreSync Job with generateName and hook-delete-policy HookFailed
    const { app, chart } = chartFor(GitOps.argoCd());
    generatedJob(chart, { 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'HookFailed' });

    // WHEN it is synthesized THEN the fix names the policy to add
    expect(messages(app)).toEqual([
      `${HAS}${NAMED_BY_ARGO}Set metadata.name (drop the JSON patch that removes it), and add BeforeHookCreation to its argocd.argoproj.io/hook-delete-policy: `
      + 'Argo CD then deletes the named hook before it applies it again at the next sync, so it still runs at every sync.',
    ]);
  });

  test('with Argo CD, an object that is no hook: Argo CD applies it by name', () => {
    // GIVEN a Job with generateName and no hook annotation
    const { app, chart } = chartFor(GitOps.argoCd());
    generatedJob(chart, {});

    // WHEN it is synthesized THEN it is refused
    expect(messages(app)).toEqual([
      `${HAS}, but with GitOps.argoCd() Argo CD applies an object that is no hook by name, and refuses one without: it names only a hook itself. Set metadata.name (drop the JSON patch that removes it).`,
    ]);
  });

  test('applied by kubectl (no gitops): kubectl apply refuses an object without a name', () => {
    // GIVEN a Job with generateName, in output for cdk-capability apply
    const { app, chart } = chartFor();
    generatedJob(chart, {});

    // WHEN it is synthesized THEN it is refused
    expect(messages(app)).toEqual([
      `${HAS}, but kubectl (cdk-capability apply) applies objects by name and refuses one without: generateName names an object only when it is created (kubectl create). Set metadata.name (drop the JSON patch that removes it).`,
    ]);
  });

  test('applied by Flux: refused the same, naming Flux', () => {
    // GIVEN a plain ConfigMap with generateName, in output for Flux
    const { app, chart } = chartFor(GitOps.flux({ sourceRef: { name: 'platform' } }));
    const report = new ApiObject(chart, 'Report', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'report', namespace: 'shop' } });
    report.addJsonPatch(JsonPatch.remove('/metadata/name'), JsonPatch.add('/metadata/generateName', 'report-'));

    // WHEN it is synthesized THEN it is refused
    expect(messages(app)).toEqual([
      "CAP010 invalid object: ConfigMap shop/(no name) declared by 'shop/Routing/Report' has metadata.generateName \"report-\" and no metadata.name, "
      + 'but Flux (GitOps.flux({ sourceRef })) applies objects by name and refuses one without: generateName names an object only when it is created (kubectl create). Set metadata.name (drop the JSON patch that removes it).',
    ]);
  });

  test('two hooks of one kind and namespace with generateName: each its own CAP010, no duplicate object', () => {
    // GIVEN two PreSync ConfigMaps whose names are replaced by one generateName
    const { app, chart } = chartFor(GitOps.argoCd());
    for (const id of ['A', 'B']) {
      const o = new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id.toLowerCase(), namespace: 'shop', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } } });
      o.addJsonPatch(JsonPatch.remove('/metadata/name'), JsonPatch.add('/metadata/generateName', 'report-'));
    }

    // WHEN it is synthesized THEN each is refused for its generateName, and neither is called a duplicate of the other
    const fix = 'Set metadata.name (drop the JSON patch that removes it): Argo CD deletes a named hook before it applies it again at the next sync '
      + '(BeforeHookCreation, the delete policy of a hook that names none), so it still runs at every sync.';
    expect(messages(app)).toEqual(['A', 'B'].map((id) => `CAP010 invalid object: ConfigMap shop/(no name) declared by 'shop/Routing/${id}' has metadata.generateName "report-" and no metadata.name${NAMED_BY_ARGO}${fix}`));
  });

  test('an object with neither name nor generateName keeps the name check of object validity', () => {
    // GIVEN a ConfigMap whose name a JSON patch removes
    const { app, chart } = chartFor();
    new ApiObject(chart, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } }).addJsonPatch(JsonPatch.remove('/metadata/name'));

    // WHEN it is synthesized THEN the name is missing, as before
    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'metadata.name' (missing) of ConfigMap (no name) declared by 'shop/Routing/Settings' must be a DNS-1123 subdomain of at most 253 characters "
      + "(lowercase letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit), but it is missing. Rename the object. "
      // placed at the patch that removed it, saying so
      + "'metadata.name' was removed by 'shop/Routing/Settings' (addJsonPatch at test/hook-generate-names.test.ts:103).",
    ]);
  });
});
