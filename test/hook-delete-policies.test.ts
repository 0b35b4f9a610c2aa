import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityTesting, GitOps, RuntimeRouting } from '../src';

/** A chart `shop/Routing` of an app whose output is for Argo CD. */
function argoChart() {
  const app = CapabilityTesting.app({ gitops: GitOps.argoCd() });
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** A cdk8s-plus migration Job with the annotations given, as a user writes it. */
function migrationJob(chart: RuntimeRouting, annotations: Record<string, string>): kplus.Job {
  const job = new kplus.Job(chart, 'Migrate', { metadata: { name: 'migrate', namespace: 'shop' }, containers: [{ image: 'ghcr.io/example/migrate:1', securityContext: { ensureNonRoot: false } }] });
  for (const [key, value] of Object.entries(annotations)) job.metadata.addAnnotation(key, value);
  return job;
}

const warnings = (app: ReturnType<typeof argoChart>['app']) => {
  const result = CapabilityTesting.synth(app);
  expect(result.violations).toEqual([]);
  return result.warnings.map((w) => `${w.code} ${w.message}`);
};

const FIX = 'Add BeforeHookCreation to its argocd.argoproj.io/hook-delete-policy (Argo CD then deletes it before it applies it again), or remove its delete policies: a hook with none has BeforeHookCreation.';

describe('with GitOps.argoCd(), a Job or Pod hook whose delete policies keep it once it succeeded is a CAP010 warning', () => {
  test('a PreSync Job with HookFailed alone: it would not run again at the next sync', () => {
    // GIVEN a PreSync migration Job that Argo CD deletes only when it fails
    const { app, chart } = argoChart();
    migrationJob(chart, { 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'HookFailed' });

    // WHEN it is synthesized THEN it is accepted, with one warning naming the policy and the fix
    expect(warnings(app)).toEqual([
      "CAP010 invalid object: batch/Job shop/migrate declared by 'shop/Routing/Migrate' is an Argo CD hook (argocd.argoproj.io/hook \"PreSync\") whose delete policies (argocd.argoproj.io/hook-delete-policy \"HookFailed\") keep it once it succeeded: "
      + 'the next sync applies it over the one the last sync left and counts that run as its own, so a Job that completed does not run again, and the API server refuses a change of its spec.template (immutable), which fails that sync. '
      + FIX,
    ]);
  });

  test('a Helm post-upgrade Pod with hook-failed: the Helm policy counts as Argo CD reads it', () => {
    // GIVEN a chart's post-upgrade Pod with helm.sh/hook-delete-policy hook-failed
    const { app, chart } = argoChart();
    new ApiObject(chart, 'Notify', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'notify', namespace: 'shop', annotations: { 'helm.sh/hook': 'post-upgrade', 'helm.sh/hook-delete-policy': 'hook-failed' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] },
    });

    // WHEN it is synthesized THEN the warning names the Helm hook and its policy
    expect(warnings(app)).toEqual([
      "CAP010 invalid object: Pod shop/notify declared by 'shop/Routing/Notify' is an Argo CD hook (helm.sh/hook \"post-upgrade\") whose delete policies (helm.sh/hook-delete-policy \"hook-failed\") keep it once it succeeded: "
      + 'the next sync applies it over the one the last sync left and counts that run as its own, so a Pod that completed does not run again, and the API server refuses most changes of its spec (immutable), which fails that sync. '
      + FIX,
    ]);
  });

  test.each([
    ['no delete policy (gitops-engine gives it BeforeHookCreation)', {}],
    ['BeforeHookCreation', { 'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation' }],
    ['HookSucceeded', { 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' }],
    ['HookFailed beside before-hook-creation of Helm', { 'argocd.argoproj.io/hook-delete-policy': 'HookFailed', 'helm.sh/hook-delete-policy': 'before-hook-creation' }],
    ['a policy gitops-engine does not know (it reads none, so BeforeHookCreation)', { 'argocd.argoproj.io/hook-delete-policy': 'Never' }],
  ])('a Job hook with %s: no warning', (_name, policy) => {
    // GIVEN a PreSync Job with that policy
    const { app, chart } = argoChart();
    migrationJob(chart, { 'argocd.argoproj.io/hook': 'PreSync', ...policy });

    // WHEN it is synthesized THEN nothing is said
    expect(warnings(app)).toEqual([]);
  });

  test('a ConfigMap hook with HookFailed alone: no warning (applied again, it changes as any object)', () => {
    // GIVEN a PostSync ConfigMap with HookFailed
    const { app, chart } = argoChart();
    new ApiObject(chart, 'Report', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'report', namespace: 'shop', annotations: { 'argocd.argoproj.io/hook': 'PostSync', 'argocd.argoproj.io/hook-delete-policy': 'HookFailed' } } });

    // WHEN it is synthesized THEN nothing is said
    expect(warnings(app)).toEqual([]);
  });
});
