import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { newApp, removeTempDirs } from './util';
import { ruleOf } from '../src/check/finding';
import { apiServerText, podSpecErrors, podSpecPlace } from '../src/check/rules/pod-spec-errors';

/*
 * The restart policy of a pod spec, against the texts of Kubernetes 1.30's validation: `validateRestartPolicy` of
 * `pkg/apis/core/validation/validation.go` (at the commit `pod-spec-errors.ts` names), `ValidatePodTemplateSpecForRC`
 * of the same file, `ValidatePodTemplateSpecForReplicaSet` and `ValidateDaemonSetSpec` of
 * `pkg/apis/apps/validation/validation.go`, and `validateJobSpec` of `pkg/apis/batch/validation/validation.go` (the
 * stored copy with `podReplacementPolicy` and `backoffLimitPerIndex`, the 1.28 to 1.30 line). A missing restartPolicy
 * is defaulted to Always before validation (`SetDefaults_PodSpec`).
 */

afterAll(removeTempDirs);

/** The API server's errors for an object of `kind` whose pod spec is `spec` (and whose spec holds `extra`). */
function errorsOf(group: string, kind: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): string[] {
  const place = podSpecPlace(group, kind)!;
  let manifest: Record<string, unknown> = { ...spec, containers: [{ name: 'main', image: 'busybox:1.36' }] };
  for (const s of [...place.at].reverse()) manifest = { [s]: manifest };
  if (place.at[0] === 'spec') manifest = { spec: { ...(manifest.spec as object), ...extra } };
  if (kind === 'CronJob') manifest = { spec: { jobTemplate: { spec: { ...((manifest.spec as any).jobTemplate.spec), ...extra } } } };
  return podSpecErrors(manifest, place).map(apiServerText);
}

describe('validateJobSpec: a Job\'s (and a CronJob\'s) pods run to completion', () => {
  test.each([
    ['left out (defaulted to Always)', {}, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['Always', { restartPolicy: 'Always' }, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['never, in lower case', { restartPolicy: 'never' }, [
      'spec.template.spec.restartPolicy: Unsupported value: "never": supported values: "Always", "OnFailure", "Never"',
      'spec.template.spec.restartPolicy: Unsupported value: "never": supported values: "OnFailure", "Never"',
    ]],
  ])('a Job\'s restartPolicy %s is refused with the API server\'s message', (_name, spec, expected) => {
    expect(errorsOf('batch', 'Job', spec)).toEqual(expected);
  });

  test('OnFailure beside a podFailurePolicy is refused; Never and OnFailure are accepted', () => {
    expect(errorsOf('batch', 'Job', { restartPolicy: 'OnFailure' }, { podFailurePolicy: { rules: [] } })).toEqual([
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
    expect(errorsOf('batch', 'Job', { restartPolicy: 'Never' }, { podFailurePolicy: { rules: [] } })).toEqual([]);
    expect(errorsOf('batch', 'Job', { restartPolicy: 'OnFailure' })).toEqual([]);
  });

  test('a CronJob\'s job template is a Job spec', () => {
    expect(errorsOf('batch', 'CronJob', {})).toEqual(['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
    expect(errorsOf('batch', 'CronJob', { restartPolicy: 'Never' })).toEqual([]);
  });
});

describe('ValidatePodTemplateSpecForReplicaSet, ValidateDaemonSetSpec, ValidatePodTemplateSpecForRC: their pods run until replaced', () => {
  test.each([
    ['apps', 'Deployment', 'ReplicaSet'], ['apps', 'ReplicaSet', 'ReplicaSet'], ['apps', 'DaemonSet', 'DaemonSet'], ['', 'ReplicationController', 'ReplicationController'],
  ])('a %s %s refuses Never and activeDeadlineSeconds, and takes Always or none', (group, kind, owner) => {
    expect(errorsOf(group, kind, { restartPolicy: 'Never', activeDeadlineSeconds: 60 })).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ${owner} is not Supported`,
    ]);
    expect(errorsOf(group, kind, {})).toEqual([]);
    expect(errorsOf(group, kind, { restartPolicy: 'Always' })).toEqual([]);
  });

  test('a Pod and a PodTemplate take any of the three, and refuse another', () => {
    for (const restartPolicy of ['Always', 'OnFailure', 'Never', '']) expect(errorsOf('', 'Pod', { restartPolicy })).toEqual([]);
    expect(errorsOf('', 'PodTemplate', { restartPolicy: 'Sometimes' })).toEqual(['template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']);
  });

  test('property: the policies each kind takes give no error, and any JSON gives errors or none without a crash', () => {
    const kinds = fc.constantFrom(['apps', 'Deployment'], ['apps', 'DaemonSet'], ['batch', 'Job'], ['batch', 'CronJob'], ['', 'Pod'], ['', 'ReplicationController']);
    fc.assert(fc.property(kinds, fc.nat(2), fc.jsonValue({ maxDepth: 2 }), ([group, kind], pick, any) => {
      const takes = kind === 'Job' || kind === 'CronJob' ? ['OnFailure', 'Never'] : kind === 'Pod' ? ['Always', 'OnFailure', 'Never'] : ['Always'];
      expect(errorsOf(group, kind, { restartPolicy: takes[pick % takes.length] })).toEqual([]);
      expect(() => errorsOf(group, kind, { restartPolicy: any, activeDeadlineSeconds: any }, { podFailurePolicy: any })).not.toThrow();
    }));
  });
});

describe('the rule\'s findings', () => {
  function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
    const app = newApp();
    return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
  }
  const findings = (app: CapabilityApp) => app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/pod-spec-validity').map((v) => `${v.code} ${v.message}`);

  test('a plain Job without restartPolicy is refused, with the fix; a cdk8s-plus Job (which writes Never) passes', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Migrate', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'shop' },
      spec: { template: { spec: { containers: [{ name: 'migrate', image: 'migrate:1' }] } } },
    });
    new kplus.Job(chart, 'Report', { metadata: { name: 'report', namespace: 'shop' }, containers: [{ image: 'report:1', securityContext: { ensureNonRoot: false } }] });

    expect(findings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.restartPolicy' of batch/Job shop/migrate declared by 'shop/Routing/Migrate' is missing or Always: a Job's pods run to completion, so its pod template's restartPolicy is OnFailure or Never (left out, it is defaulted to Always); the API server refuses it: spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\". Write restartPolicy: 'Never' (or 'OnFailure', to restart a failed container in its pod).",
    ]);
  });
});
