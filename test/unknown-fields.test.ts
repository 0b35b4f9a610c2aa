import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, Cron, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, CapabilityTesting } from '../src';
import { nearestField } from '../src/check/rules/unknown-fields';
import type { MapSpec } from '../src/collect/topology/field-topology';
import { K8S_1_30 } from '../src/collect/topology/k8s-1.30.generated';

/** GIVEN-side helper: an app with capability `web` and its chart `C`. */
function chart(): { app: CapabilityApp; chart: Chart } {
  const app = new CapabilityApp();
  return { app, chart: new Chart(new Capability(app, 'web'), 'C') };
}

/** The messages of the findings of the unknown-fields rule (CAP010 messages that name a field no schema has). */
function unknownFieldMessages(app: CapabilityApp): string[] {
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`).filter((m) => m.includes("in Kubernetes 1.30's schema; synth would write it"));
}

/** A valid Deployment `d`, with `extra` merged into its container. */
function deployment(spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', ...container }] } },
      ...spec,
    },
  };
}

describe('a field a built-in kind does not have is refused at synth (CAP010), not at apply', () => {
  test('a misspelt spec field, a misspelt container field and a metadata key of metadata.add: what, where and the fix', () => {
    // GIVEN the day-one finding: replicaz, imagePullPolcy and metadata.add('x', 'y')
    const { app, chart: c } = chart();
    new ApiObject(c, 'D', deployment({ replicaz: 3 }, { imagePullPolcy: 'Always' }));
    new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }).metadata.add('x', 'y');
    // WHEN synthesized
    const result = CapabilityTesting.synth(app);
    // THEN each field is refused, naming the object, its declarer, the nearest field name and the API server's refusal
    expect(result.violations.map((v) => [`${v.code} ${v.message}`, v.paths])).toEqual([
      ["CAP010 invalid object: 'metadata.x' of ConfigMap cm declared by 'web/C/Cm' is no field of v1 ConfigMap in Kubernetes 1.30's schema; synth would write it and the API server refuses it at apply "
        + "(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field \"metadata.x\"'). "
        + 'Remove it, or write it as a label or an annotation (metadata.addLabel("x", ...), metadata.addAnnotation("x", ...)): metadata.add puts a key in metadata itself.', ['web/C/Cm']],
      ["CAP010 invalid object: 'spec.replicaz' of apps/Deployment d declared by 'web/C/D' is no field of apps/v1 Deployment in Kubernetes 1.30's schema; synth would write it and the API server refuses it at apply "
        + "(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field \"spec.replicaz\"'). Did you mean replicas? Rename it to 'spec.replicas', or remove it.", ['web/C/D']],
      ["CAP010 invalid object: 'spec.template.spec.containers[name=c].imagePullPolcy' of apps/Deployment d declared by 'web/C/D' is no field of apps/v1 Deployment in Kubernetes 1.30's schema; synth would write it and the API server refuses it at apply "
        + "(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field \"spec.template.spec.containers[0].imagePullPolcy\"'). "
        + "Did you mean imagePullPolicy? Rename it to 'spec.template.spec.containers[name=c].imagePullPolicy', or remove it.", ['web/C/D']],
    ]);
  });

  test('a field written by a JSON patch is refused too; a field with no near name lists what the struct has', () => {
    // GIVEN a Deployment whose spec gets an unrelated key through an escape hatch
    const { app, chart: c } = chart();
    new ApiObject(c, 'D', deployment()).addJsonPatch(JsonPatch.add('/spec/somethingElse', true));
    // THEN it is refused, with the spec's fields
    expect(unknownFieldMessages(app)).toEqual([expect.stringMatching(
      /^CAP010 invalid object: 'spec\.somethingElse' of apps\/Deployment d .*\. Remove it \('spec' has minReadySeconds, paused, progressDeadlineSeconds, replicas, revisionHistoryLimit, selector, strategy, template\)\.$/,
    )]);
  });

  test('valid objects, another API version of a kind, a custom resource, a map\'s keys and an untyped field say nothing', () => {
    // GIVEN a valid Deployment, an autoscaling/v1 HorizontalPodAutoscaler (whose fields v2 does not have), a custom resource, and free keys
    const { app, chart: c } = chart();
    new ApiObject(c, 'D', deployment({ replicas: 2 }, { imagePullPolicy: 'Always', env: [{ name: 'A', value: 'b' }] }));
    new ApiObject(c, 'Hpa', {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'other' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 80 },
    });
    new ApiObject(c, 'Cr', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { anything: { at: 'all' } } });
    new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { any: 'key' }, annotations: { 'example.com/x': 'y' } }, data: { replicaz: '1' } });
    new ApiObject(c, 'Rev', { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { any: { raw: 'extension' } } });
    // THEN nothing is refused
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([]);
  });

  test("cdk8s-plus-30's constructs, as they render by default, have no unknown field", () => {
    // GIVEN one of each cdk8s-plus-30 construct that renders built-in kinds
    const { app, chart: c } = chart();
    const d = new kplus.Deployment(c, 'Dep', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    d.exposeViaService();
    new kplus.StatefulSet(c, 'Sts', { containers: [{ image: 'nginx:1.27' }], service: new kplus.Service(c, 'StsSvc', { ports: [{ port: 80 }] }) });
    new kplus.DaemonSet(c, 'Ds', { containers: [{ image: 'nginx:1.27' }] });
    new kplus.Job(c, 'Job', { containers: [{ image: 'busybox:1.36' }] });
    new kplus.CronJob(c, 'Cron', { containers: [{ image: 'busybox:1.36' }], schedule: Cron.hourly() });
    new kplus.Pod(c, 'Pod', { containers: [{ image: 'nginx:1.27' }] });
    new kplus.ConfigMap(c, 'Cfg', { data: { a: 'b' } });
    new kplus.Secret(c, 'Sec', { stringData: { a: 'b' } });
    const sa = new kplus.ServiceAccount(c, 'Sa');
    const role = new kplus.Role(c, 'Role');
    role.allowRead(kplus.ApiResource.PODS);
    new kplus.RoleBinding(c, 'Rb', { role }).addSubjects(sa);
    new kplus.ClusterRole(c, 'Cr').allowRead(kplus.ApiResource.NODES);
    new kplus.NetworkPolicy(c, 'Np', { selector: d });
    new kplus.HorizontalPodAutoscaler(c, 'Hpa', { target: d, maxReplicas: 3, metrics: [kplus.Metric.resourceCpu(kplus.MetricTarget.averageUtilization(70))] });
    new kplus.PersistentVolumeClaim(c, 'Pvc', { storage: Size.gibibytes(1) });
    new kplus.Ingress(c, 'Ing', { defaultBackend: kplus.IngressBackend.fromService(new kplus.Service(c, 'IngSvc', { ports: [{ port: 80 }] })) });
    // THEN no field of theirs is refused as unknown
    expect(unknownFieldMessages(app)).toEqual([]);
  });
});

describe('the table agrees with the kubernetes-models package\'s published schemas', () => {
  /** The property names kubernetes-models' published validator of a type reads (its OpenAPI `properties`). */
  function published(file: string): Set<string> {
    const src = fs.readFileSync(path.join(__dirname, '..', 'node_modules', file), 'utf-8');
    return new Set([...src.matchAll(/parentDataProperty:"([^"]+)"/g)].map((m) => m[1]));
  }
  function ours(type: string): Set<string> {
    const spec = K8S_1_30.types[type] as MapSpec;
    return new Set([...Object.keys(spec.fields ?? {}), ...(spec.scalars?.split(' ') ?? [])]);
  }
  const PAIRS: [string, string][] = [
    ['apps.v1.Deployment', 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment.js'],
    ['apps.v1.DeploymentSpec', 'kubernetes-models/_schemas/IoK8sApiAppsV1DeploymentSpec.js'],
    ['core.v1.Container', 'kubernetes-models/_schemas/IoK8sApiCoreV1Container.js'],
    ['core.v1.ServiceSpec', 'kubernetes-models/_schemas/IoK8sApiCoreV1ServiceSpec.js'],
    ['core.v1.ConfigMap', 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap.js'],
    ['meta.v1.ObjectMeta', '@kubernetes-models/apimachinery/_schemas/IoK8sApimachineryPkgApisMetaV1ObjectMeta.js'],
    ['networking.v1.IngressSpec', 'kubernetes-models/_schemas/IoK8sApiNetworkingV1IngressSpec.js'],
    ['batch.v1.JobSpec', 'kubernetes-models/_schemas/IoK8sApiBatchV1JobSpec.js'],
    ['autoscaling.v2.HorizontalPodAutoscalerSpec', 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscalerSpec.js'],
  ];

  test.each(PAIRS)('%s has the fields its published schema has', (type, file) => {
    expect([...ours(type)].sort()).toEqual([...published(file)].sort());
  });

  test('a field they know, we know (PodSpec, whose published schema is newer, has a field 1.30 does not: resources); a made-up one, neither', () => {
    const theirs = published('kubernetes-models/_schemas/IoK8sApiCoreV1PodSpec.js');
    expect([...ours('core.v1.PodSpec')].filter((f) => !theirs.has(f))).toEqual([]);
    expect([...theirs].filter((f) => !ours('core.v1.PodSpec').has(f))).toEqual(['resources']);
    for (const [type, file] of PAIRS) expect([ours(type).has('replicaz'), published(file).has('replicaz')]).toEqual([false, false]);
    expect([ours('apps.v1.DeploymentSpec').has('replicas'), published('kubernetes-models/_schemas/IoK8sApiAppsV1DeploymentSpec.js').has('replicas')]).toEqual([true, true]);
  });
});

describe('nearestField', () => {
  const spec = K8S_1_30.types['core.v1.Container'] as MapSpec;
  test.each([
    ['imagePullPolcy', 'imagePullPolicy'],
    ['imagepullpolicy', 'imagePullPolicy'],
    ['Image', 'image'],
    ['enviroment', undefined],
    ['x', undefined],
    ['volumeMount', 'volumeMounts'],
  ])('%s -> %s', (name, near) => {
    expect(nearestField(name, spec)).toEqual(near);
  });
});
