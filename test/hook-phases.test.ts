import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityTesting, GitOps, RuntimeRouting } from '../src';
import { siteOfNextLine, stepSummary } from './util';

const HOOK = 'argocd.argoproj.io/hook';
const PHASES = 'it runs PreSync, Sync and PostSync one after the other, whatever the sync waves';

/** A chart `c/r` of an app whose output is for Argo CD (or, with `argoCd` false, for kubectl). */
function argoChart(argoCd = true) {
  const app = CapabilityTesting.app(argoCd ? { gitops: GitOps.argoCd() } : {});
  return { app, chart: new RuntimeRouting(new Capability(app, 'c'), 'r') };
}

const configMap = (scope: Construct, id: string, name: string, annotations?: Record<string, string>) =>
  new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(annotations ? { annotations } : {}) } });

/** A Job `name` with the annotations given, whose container reads the ConfigMap `reads` when given. */
const job = (scope: Construct, id: string, name: string, annotations: Record<string, string>, reads?: string) =>
  new ApiObject(scope, id, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, annotations },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', ...(reads ? { envFrom: [{ configMapRef: { name: reads } }] } : {}) }] } } },
  });

const messages = (app: ReturnType<typeof argoChart>['app']) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

describe('with GitOps.argoCd(): a hook whose dependency Argo CD phases cannot keep is CAP004', () => {
  test('a PreSync hook that depends on an object of the Sync phase: refused, naming both objects, their paths, the hook and the fix', () => {
    // GIVEN a ConfigMap, and a Job annotated as a PreSync hook made to depend on it
    const { app, chart } = argoChart();
    const settings = configMap(chart, 'Settings', 'settings');
    const migrate = job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' });
    const at = siteOfNextLine();
    migrate.addDependency(settings);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN one CAP004 naming both
    expect(result.violations.map((v) => [`${v.code} ${v.message}`, v.paths])).toEqual([[
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/Migrate' depends on ConfigMap settings declared by 'c/r/Settings' "
        + `(explicit 'c/r/Migrate'.addDependency('c/r/Settings') at ${at}), but with GitOps.argoCd() Argo CD applies batch/Job migrate `
        + `in the PreSync phase (argocd.argoproj.io/hook "PreSync") and ConfigMap settings in the Sync phase; ${PHASES}, so batch/Job migrate `
        + 'would not come after ConfigMap settings. Remove the hook annotation from batch/Job migrate and let the dependency order it, or remove the dependency.',
      ['c/r/Migrate', 'c/r/Settings'],
    ]]);
  });

  test('a Helm pre-install hook that reads a ConfigMap of the Sync phase: refused, naming the reference and the phase Argo CD maps the hook to', () => {
    // GIVEN a Job annotated helm.sh/hook pre-install,pre-upgrade whose container reads ConfigMap settings
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings');
    job(chart, 'Migrate', 'migrate', { 'helm.sh/hook': 'pre-install,pre-upgrade' }, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/Migrate' depends on ConfigMap settings declared by 'c/r/Settings' "
        + '(reference (spec.template.spec.containers[name=main].envFrom)), but with GitOps.argoCd() Argo CD applies batch/Job migrate '
        + `in the PreSync phase (helm.sh/hook "pre-install,pre-upgrade", which Argo CD runs as PreSync) and ConfigMap settings in the Sync phase; ${PHASES}, `
        + 'so batch/Job migrate would not come after ConfigMap settings. Remove the hook annotation from batch/Job migrate and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('an object of the Sync phase that depends on a PostSync hook: refused (the hook is depended on)', () => {
    // GIVEN a PostSync hook ConfigMap, and a ConfigMap made to depend on it
    const { app, chart } = argoChart();
    const report = configMap(chart, 'Report', 'report', { [HOOK]: 'PostSync' });
    const settings = configMap(chart, 'Settings', 'settings');
    const at = siteOfNextLine();
    settings.addDependency(report);

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: ConfigMap settings declared by 'c/r/Settings' depends on ConfigMap report declared by 'c/r/Report' "
        + `(explicit 'c/r/Settings'.addDependency('c/r/Report') at ${at}), but with GitOps.argoCd() Argo CD applies ConfigMap settings in the Sync phase `
        + `and ConfigMap report in the PostSync phase (argocd.argoproj.io/hook "PostSync"); ${PHASES}, so ConfigMap settings would not come after ConfigMap report. `
        + 'Remove the hook annotation from ConfigMap report and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('a hook in a Namespace of the composition: refused, the Namespace before its contents named as the dependency', () => {
    // GIVEN Namespace shop, and a PreSync hook Job in it
    const { app, chart } = argoChart();
    new ApiObject(chart, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    new ApiObject(chart, 'Migrate', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'shop', annotations: { [HOOK]: 'PreSync' } },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } },
    });

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job shop/migrate declared by 'c/r/Migrate' depends on Namespace shop declared by 'c/r/Shop' "
        + '(Namespace before its contents, metadata.namespace shop), but with GitOps.argoCd() Argo CD applies batch/Job shop/migrate '
        + `in the PreSync phase (argocd.argoproj.io/hook "PreSync") and Namespace shop in the Sync phase; ${PHASES}, so batch/Job shop/migrate `
        + 'would not come after Namespace shop. Remove the hook annotation from batch/Job shop/migrate and let the dependency order it, or remove the dependency.',
    ]);
  });

  test("a hook in a chart that depends on another chart: refused, the chart's addDependency named", () => {
    // GIVEN chart c/base with a ConfigMap, and chart c/jobs, made to depend on it, with a PreSync hook
    const app = CapabilityTesting.app({ gitops: GitOps.argoCd() });
    const capability = new Capability(app, 'c');
    const base = new RuntimeRouting(capability, 'base');
    configMap(base, 'Settings', 'settings');
    const jobs = new RuntimeRouting(capability, 'jobs');
    job(jobs, 'Migrate', 'migrate', { [HOOK]: 'PreSync' });
    const at = siteOfNextLine();
    jobs.addDependency(base);

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/jobs/Migrate' depends on ConfigMap settings declared by 'c/base/Settings' "
        + `(explicit 'c/jobs'.addDependency('c/base') at ${at}), but with GitOps.argoCd() Argo CD applies batch/Job migrate `
        + `in the PreSync phase (argocd.argoproj.io/hook "PreSync") and ConfigMap settings in the Sync phase; ${PHASES}, so batch/Job migrate `
        + 'would not come after ConfigMap settings. Remove the hook annotation from batch/Job migrate and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('an object that depends on one Argo CD skips: refused, the skipped object applied in no phase', () => {
    // GIVEN a ConfigMap annotated Skip, and a Job that reads it
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings', { [HOOK]: 'Skip' });
    job(chart, 'Migrate', 'migrate', {}, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/Migrate' depends on ConfigMap settings declared by 'c/r/Settings' "
        + '(reference (spec.template.spec.containers[name=main].envFrom)), but with GitOps.argoCd() Argo CD applies batch/Job migrate in the Sync phase '
        + `and ConfigMap settings in no phase of a sync (argocd.argoproj.io/hook "Skip", which no sync applies); ${PHASES}, so batch/Job migrate `
        + 'would not come after ConfigMap settings. Remove the hook annotation from ConfigMap settings and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('an Argo CD hook of a type no sync runs (PostDelete) that an object reads: refused, the hook applied in no phase of a sync', () => {
    // GIVEN a ConfigMap annotated PostDelete, and a Job that reads it
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings', { [HOOK]: 'PostDelete' });
    job(chart, 'Migrate', 'migrate', {}, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/Migrate' depends on ConfigMap settings declared by 'c/r/Settings' "
        + '(reference (spec.template.spec.containers[name=main].envFrom)), but with GitOps.argoCd() Argo CD applies batch/Job migrate in the Sync phase '
        + `and ConfigMap settings in no phase of a sync (argocd.argoproj.io/hook "PostDelete", which no sync applies); ${PHASES}, so batch/Job migrate `
        + 'would not come after ConfigMap settings. Remove the hook annotation from ConfigMap settings and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('an Argo CD hook of a type gitops-engine does not know, beside a Helm hook: placed by the Helm hook, as gitops-engine does, and named so', () => {
    // GIVEN a Job annotated argocd.argoproj.io/hook PostDelete and helm.sh/hook post-install, made to read a ConfigMap
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings');
    const reader = job(chart, 'Seed', 'seed', { [HOOK]: 'PostDelete', 'helm.sh/hook': 'post-install' }, 'settings');
    const at = siteOfNextLine();
    configMap(chart, 'Later', 'later').addDependency(reader);

    // WHEN synthesized; THEN the Job runs as PostSync, so the ConfigMap of the Sync phase that depends on it is refused
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: ConfigMap later declared by 'c/r/Later' depends on batch/Job seed declared by 'c/r/Seed' "
        + `(explicit 'c/r/Later'.addDependency('c/r/Seed') at ${at}), but with GitOps.argoCd() Argo CD applies ConfigMap later in the Sync phase `
        + `and batch/Job seed in the PostSync phase (helm.sh/hook "post-install", which Argo CD runs as PostSync); ${PHASES}, so ConfigMap later `
        + 'would not come after batch/Job seed. Remove the hook annotation from batch/Job seed and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('a SyncFail hook that reads a ConfigMap of the Sync phase: refused, the SyncFail phase running only when a sync fails', () => {
    // GIVEN a SyncFail hook Job that reads ConfigMap settings
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings');
    job(chart, 'Notify', 'notify', { [HOOK]: 'SyncFail' }, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job notify declared by 'c/r/Notify' depends on ConfigMap settings declared by 'c/r/Settings' "
        + '(reference (spec.template.spec.containers[name=main].envFrom)), but with GitOps.argoCd() Argo CD applies batch/Job notify '
        + `in the SyncFail phase, which runs only when a sync fails (argocd.argoproj.io/hook "SyncFail") and ConfigMap settings in the Sync phase; ${PHASES}, `
        + 'so batch/Job notify would not come after ConfigMap settings. Remove the hook annotation from batch/Job notify and let the dependency order it, or remove the dependency.',
    ]);
  });

  test('two hooks of different phases that depend on each other: refused, the fix naming both', () => {
    // GIVEN a PreSync hook Job that reads a PostSync hook ConfigMap
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings', { [HOOK]: 'PostSync' });
    job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' }, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP004 dependency cycle: batch/Job migrate declared by 'c/r/Migrate' depends on ConfigMap settings declared by 'c/r/Settings' "
        + '(reference (spec.template.spec.containers[name=main].envFrom)), but with GitOps.argoCd() Argo CD applies batch/Job migrate '
        + 'in the PreSync phase (argocd.argoproj.io/hook "PreSync") and ConfigMap settings in the PostSync phase (argocd.argoproj.io/hook "PostSync"); '
        + `${PHASES}, so batch/Job migrate would not come after ConfigMap settings. `
        + 'Remove the hook annotation from batch/Job migrate and ConfigMap settings and let the dependency order them, or remove the dependency.',
    ]);
  });
});

describe('with GitOps.argoCd(): what Argo CD phases keep is accepted', () => {
  test('an object of the Sync phase that depends on a PreSync hook: accepted, the hook in the earlier step (wave) with its annotation', () => {
    // GIVEN a PreSync hook Job, and a ConfigMap made to depend on it
    const { app, chart } = argoChart();
    const migrate = job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' });
    configMap(chart, 'Settings', 'settings').addDependency(migrate);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN no violation; the hook takes the step (the wave) before the ConfigMap's and keeps its annotation
    expect(result.violations).toEqual([]);
    expect(stepSummary(result.plan).map((s) => s.objects)).toEqual([['batch/Job migrate'], ['ConfigMap settings']]);
    expect(result.runtimeObjects.map((o) => [o.kind, o.metadata.name, o.metadata.annotations])).toEqual([
      ['Job', 'migrate', { [HOOK]: 'PreSync' }],
      ['ConfigMap', 'settings', undefined],
    ]);
  });

  test('hooks of one phase that depend on each other, and a Sync hook after an object of the Sync phase: accepted (waves order them inside the phase)', () => {
    // GIVEN a PreSync ConfigMap read by a PreSync Job, and a Sync hook Job that reads a plain ConfigMap
    const { app, chart } = argoChart();
    configMap(chart, 'Config', 'config', { [HOOK]: 'PreSync' });
    job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' }, 'config');
    configMap(chart, 'Settings', 'settings');
    job(chart, 'Smoke', 'smoke', { [HOOK]: 'Sync' }, 'settings');

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([]);
  });

  test('a Helm hook Argo CD ignores (test), and an Argo CD hook that nothing depends on: accepted, as Argo CD runs them', () => {
    // GIVEN a Helm test Pod and a PreSync hook Job, with no dependency between them and the rest
    const { app, chart } = argoChart();
    configMap(chart, 'Settings', 'settings');
    new ApiObject(chart, 'Test', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'test', annotations: { 'helm.sh/hook': 'test' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] },
    });
    job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' });

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([]);
  });

  test('without GitOps.argoCd(), the same dependency is no CAP004 (kubectl applies the plan order), the hook annotation is CAP010', () => {
    // GIVEN the refused PreSync case, with no GitOps output
    const { app, chart } = argoChart(false);
    const settings = configMap(chart, 'Settings', 'settings');
    job(chart, 'Migrate', 'migrate', { [HOOK]: 'PreSync' }).addDependency(settings);

    // WHEN synthesized; THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.code)).toEqual(['CAP010']);
  });
});
