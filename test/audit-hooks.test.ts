import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { main } from '../src/cli/main';

afterAll(removeTempDirs);
afterAll(removeReleaseDirs);

/**
 * A release for Argo CD as a user writes one: an ordinary ConfigMap, a PreSync migration Job Argo CD deletes once
 * the sync succeeded (HookSucceeded), a PostSync smoke Job with no delete policy (BeforeHookCreation, gitops-engine's
 * default), a chart's Helm test Pod (a hook no sync runs) and a ConfigMap annotated Skip.
 */
function release(): string {
  const series = newSeries();
  const app = new CapabilityApp({ outdir: path.join(series.dir, 'dist'), lockFile: series.lockFile, gitops: GitOps.argoCd() });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const job = (id: string, name: string, annotations: Record<string, string>) => new ApiObject(routing, id, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'shop', annotations },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: `ghcr.io/example/${name}:1` }] } } },
  });
  new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } });
  job('Migrate', 'migrate', { 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' });
  job('Smoke', 'smoke', { 'argocd.argoproj.io/hook': 'PostSync' });
  new ApiObject(routing, 'ChartTest', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'chart-test', namespace: 'shop', annotations: { 'helm.sh/hook': 'test' } },
    spec: { restartPolicy: 'Never', containers: [{ name: 'test', image: 'busybox' }] },
  });
  new ApiObject(routing, 'Skipped', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'skipped', namespace: 'shop', annotations: { 'argocd.argoproj.io/hook': 'Skip' } }, data: { a: 'b' } });
  withUpdateLock('1', () => app.synth());
  return series.lockFile;
}

/** ConfigMap shop/settings as `kubectl get -o yaml --show-managed-fields` prints it after Argo CD applied it server-side. */
const SETTINGS = `
- apiVersion: v1
  kind: ConfigMap
  metadata:
    annotations:
      argocd.argoproj.io/sync-wave: "0"
    creationTimestamp: "2026-12-06T19:00:03Z"
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:data:
          f:mode: {}
        f:metadata:
          f:annotations:
            f:argocd.argoproj.io/sync-wave: {}
      manager: argocd-controller
      operation: Apply
      time: "2026-12-06T19:00:03Z"
    name: settings
    namespace: shop
    resourceVersion: "1201"
    uid: 5d0c3c7e-0000-4000-8000-000000000001
  data:
    mode: fast`;

/**
 * Job shop/smoke, the PostSync hook, as kubectl prints it once its sync completed: applied by Argo CD server-side,
 * its status written by the Job controller, the labels and selector the API server defaulted owned by nobody.
 * `extraMetadata` and `extraFields` add lines under `metadata` and after the last managedFields entry.
 */
function smoke(extraMetadata = '', extraFields = '', image = 'ghcr.io/example/smoke:1'): string {
  return `
- apiVersion: batch/v1
  kind: Job
  metadata:
    annotations:
      argocd.argoproj.io/hook: PostSync
      argocd.argoproj.io/sync-wave: "0"
    creationTimestamp: "2026-12-06T19:00:09Z"${extraMetadata}
    generation: 1
    labels:
      batch.kubernetes.io/controller-uid: 5d0c3c7e-0000-4000-8000-000000000002
      batch.kubernetes.io/job-name: smoke
      controller-uid: 5d0c3c7e-0000-4000-8000-000000000002
      job-name: smoke
    managedFields:
    - apiVersion: batch/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            f:argocd.argoproj.io/hook: {}
            f:argocd.argoproj.io/sync-wave: {}
        f:spec:
          f:template:
            f:spec:
              f:containers:
                k:{"name":"main"}:
                  .: {}
                  f:image: {}
                  f:name: {}
              f:restartPolicy: {}
      manager: argocd-controller
      operation: Apply
      time: "2026-12-06T19:00:09Z"
    - apiVersion: batch/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:status:
          f:completionTime: {}
          f:conditions: {}
          f:ready: {}
          f:startTime: {}
          f:succeeded: {}
          f:terminating: {}
          f:uncountedTerminatedPods: {}
      manager: kube-controller-manager
      operation: Update
      subresource: status
      time: "2026-12-06T19:00:21Z"${extraFields}
    name: smoke
    namespace: shop
    resourceVersion: "1250"
    uid: 5d0c3c7e-0000-4000-8000-000000000002
  spec:
    backoffLimit: 6
    completionMode: NonIndexed
    completions: 1
    manualSelector: false
    parallelism: 1
    podReplacementPolicy: TerminatingOrFailed
    selector:
      matchLabels:
        batch.kubernetes.io/controller-uid: 5d0c3c7e-0000-4000-8000-000000000002
    suspend: false
    template:
      metadata:
        labels:
          batch.kubernetes.io/controller-uid: 5d0c3c7e-0000-4000-8000-000000000002
          batch.kubernetes.io/job-name: smoke
          controller-uid: 5d0c3c7e-0000-4000-8000-000000000002
          job-name: smoke
      spec:
        containers:
        - image: ${image}
          imagePullPolicy: IfNotPresent
          name: main
          resources: {}
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        restartPolicy: Never
        schedulerName: default-scheduler
        securityContext: {}
        terminationGracePeriodSeconds: 30
  status:
    completionTime: "2026-12-06T19:00:21Z"
    conditions:
    - lastProbeTime: "2026-12-06T19:00:21Z"
      lastTransitionTime: "2026-12-06T19:00:21Z"
      status: "True"
      type: Complete
    ready: 0
    startTime: "2026-12-06T19:00:09Z"
    succeeded: 1
    terminating: 0
    uncountedTerminatedPods: {}`;
}

/** `cdk-capability audit --applied-by argocd-controller` of the live objects, given as kubectl prints a List in YAML. */
function auditArgoCd(lockFile: string, items: string): { code: number; stdout: string; stderr: string } {
  const input = path.join(tempDir(), 'live.yaml');
  fs.writeFileSync(input, `apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: ""\nitems:${items}\n`);
  const run = capturingOutput(() => main(['audit', input, '--lock', lockFile, '--applied-by', 'argocd-controller']));
  return { code: run.result, stdout: run.stdout, stderr: run.stderr };
}

describe('cdk-capability audit of a release Argo CD synced (GitOps.argoCd())', () => {
  let lockFile: string;
  beforeAll(() => {
    lockFile = release();
  });

  test('after a successful sync the cluster matches: the hook Argo CD deleted (HookSucceeded), the Helm test hook and the Skip object are not missing, the sync wave is Argo CD\'s', () => {
    // GIVEN the cluster after a successful sync: the ConfigMap, and the PostSync hook its default policy keeps until the next sync
    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, SETTINGS + smoke());

    // THEN nothing differs
    expect(run).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches ${lockFile} (5 objects compared).\n`, stderr: '' });
  });

  test('a hook while it runs: the finalizer gitops-engine added when it applied the hook is Argo CD\'s', () => {
    // GIVEN the smoke Job in the middle of its sync, with argocd.argoproj.io/hook-finalizer applied by argocd-controller
    const finalizer = '\n    finalizers:\n    - argocd.argoproj.io/hook-finalizer';
    const running = smoke(finalizer).replace(
      '            f:argocd.argoproj.io/sync-wave: {}\n        f:spec:',
      '            f:argocd.argoproj.io/sync-wave: {}\n          f:finalizers:\n            v:"argocd.argoproj.io/hook-finalizer": {}\n        f:spec:',
    );

    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, SETTINGS + running);

    // THEN nothing differs
    expect(run).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches ${lockFile} (5 objects compared).\n`, stderr: '' });
  });

  test('a hook in the cluster is compared as any object: its hook annotation changed by kubectl annotate is overwritten-by-update', () => {
    // GIVEN the smoke Job, its hook annotation changed by kubectl annotate --overwrite
    const annotate = `
    - apiVersion: batch/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            f:argocd.argoproj.io/hook: {}
      manager: kubectl-annotate
      operation: Update
      time: "2026-12-06T19:05:00Z"`;
    const annotated = smoke('', annotate)
      .replace('      argocd.argoproj.io/hook: PostSync', '      argocd.argoproj.io/hook: PreSync')
      .replace('            f:argocd.argoproj.io/hook: {}\n            f:argocd.argoproj.io/sync-wave: {}', '            f:argocd.argoproj.io/sync-wave: {}');

    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, SETTINGS + annotated);

    // THEN the change is the one difference
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      'overwritten-by-update: batch/Job shop/smoke: metadata.annotations["argocd.argoproj.io/hook"] of \'shop/Routing/Smoke\' (field manager argocd-controller) is now owned by \'kubectl-annotate\' (Update at 2026-12-06T19:05:00Z), '
      + 'whose update changed it (a kubectl edit, or a controller\'s full-object Update()): the writer no longer owns it. Declare that client as a RuntimeWriter of it, or stop it, and let argocd-controller apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it).\n\n'
      + `cdk-capability audit: 1 difference between the cluster and ${lockFile} (5 objects compared).\n`,
    );
  });

  test('an ordinary object that is not in the cluster is still missing; the hooks and the objects no sync applies are not', () => {
    // GIVEN a cluster with the smoke Job only
    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, smoke());

    // THEN only the ConfigMap is missing
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      'missing-object: ConfigMap shop/settings is in the lock but not in the cluster: let argocd-controller apply the release (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it), '
      + 'or check that the input holds every object of the release.\n\n'
      + `cdk-capability audit: 1 difference between the cluster and ${lockFile} (5 objects compared).\n`,
    );
  });

  test('what Argo CD applies to track each object (annotation+label tracking) is Argo CD\'s, not a stale owner', () => {
    // GIVEN the ConfigMap as Argo CD applies it with tracking by annotation and label: argocd.argoproj.io/tracking-id and app.kubernetes.io/instance
    const tracked = SETTINGS
      .replace('      argocd.argoproj.io/sync-wave: "0"\n    creationTimestamp', '      argocd.argoproj.io/sync-wave: "0"\n      argocd.argoproj.io/tracking-id: shop:/ConfigMap:shop/settings\n    creationTimestamp')
      .replace('    managedFields:', '    labels:\n      app.kubernetes.io/instance: shop\n    managedFields:')
      .replace(
        '            f:argocd.argoproj.io/sync-wave: {}\n      manager',
        '            f:argocd.argoproj.io/sync-wave: {}\n            f:argocd.argoproj.io/tracking-id: {}\n          f:labels:\n            f:app.kubernetes.io/instance: {}\n      manager',
      );

    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, tracked + smoke());

    // THEN nothing differs
    expect(run).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches ${lockFile} (5 objects compared).\n`, stderr: '' });
  });

  test('an object annotated Skip that someone else created is not compared: no sync applies it', () => {
    // GIVEN ConfigMap shop/skipped, created by hand with other data
    const skipped = `
- apiVersion: v1
  kind: ConfigMap
  metadata:
    annotations:
      argocd.argoproj.io/hook: Skip
    creationTimestamp: "2026-12-06T19:10:00Z"
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:data:
          .: {}
          f:a: {}
        f:metadata:
          f:annotations:
            .: {}
            f:argocd.argoproj.io/hook: {}
      manager: kubectl-create
      operation: Update
      time: "2026-12-06T19:10:00Z"
    name: skipped
    namespace: shop
    resourceVersion: "1300"
    uid: 5d0c3c7e-0000-4000-8000-000000000003
  data:
    a: c`;

    // WHEN the audit compares it with the lock
    const run = auditArgoCd(lockFile, SETTINGS + smoke() + skipped);

    // THEN nothing differs
    expect(run).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches ${lockFile} (5 objects compared).\n`, stderr: '' });
  });
});
