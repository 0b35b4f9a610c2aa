import { aws_ssm as ssm, Token } from 'aws-cdk-lib';
import { ApiObject, Cron, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Deployment } from 'kubernetes-models/apps/v1';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Pod } from 'kubernetes-models/v1';
import { Capability, CapabilityApp, Contribution, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { ruleOf } from '../src/check/finding';

afterAll(removeTempDirs);

/** A plain Deployment `web` in namespace `shop` whose pod spec is `spec`. */
function deployment(chart: RuntimeRouting, spec: Record<string, unknown>, id = 'Web'): ApiObject {
  return new ApiObject(chart, id, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec } },
  });
}

const NOT_ROOT = { ensureNonRoot: false };

describe('cdk8s-plus workloads pass', () => {
  /** Every workload kind of cdk8s-plus-30 with ports, env from a ConfigMap and a Secret, volumes, probes, init containers and a sidecar. */
  function workloads(): { app: CapabilityApp; chart: RuntimeRouting } {
    const { app, chart } = routing();
    const settings = new kplus.ConfigMap(chart, 'Settings', { metadata: { namespace: 'shop' }, data: { 'mode': 'live', 'log.level': 'debug' } });
    const secret = new kplus.Secret(chart, 'Creds', { metadata: { namespace: 'shop' }, stringData: { password: 'x' } });
    const claim = new kplus.PersistentVolumeClaim(chart, 'Data', { metadata: { namespace: 'shop' }, storage: Size.gibibytes(1) });
    const container = (image: string): kplus.ContainerProps => ({
      image,
      ports: [{ number: 8080, name: 'http' }, { number: 9090, name: 'metrics' }],
      envVariables: {
        MODE: kplus.EnvValue.fromConfigMap(settings, 'mode'),
        PASSWORD: kplus.EnvValue.fromSecretValue({ secret, key: 'password' }),
        POD_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME),
      },
      envFrom: [kplus.Env.fromConfigMap(settings, 'APP_'), kplus.Env.fromSecret(secret)],
      liveness: kplus.Probe.fromHttpGet('/healthz', { port: 8080 }),
      readiness: kplus.Probe.fromTcpSocket({ port: 8080 }),
      startup: kplus.Probe.fromCommand(['cat', '/tmp/ready']),
      securityContext: NOT_ROOT,
    });
    const volumes = (id: string) => [
      { path: '/config', volume: kplus.Volume.fromConfigMap(chart, `${id}Config`, settings) },
      { path: '/secret', volume: kplus.Volume.fromSecret(chart, `${id}Secret`, secret) },
      { path: '/scratch', volume: kplus.Volume.fromEmptyDir(chart, `${id}Scratch`, 'scratch') },
    ];
    const dress = (w: kplus.AbstractPod & { addContainer: (c: kplus.ContainerProps) => kplus.Container }, id: string) => {
      const main = w.containers[0];
      for (const { path, volume } of volumes(id)) main.mount(path, volume);
      w.addContainer({ name: 'logs', image: 'fluent-bit:3', securityContext: NOT_ROOT });
      w.addInitContainer({ image: 'migrate:1', securityContext: NOT_ROOT });
      w.addInitContainer({ name: 'proxy', image: 'envoy:1.30', restartPolicy: kplus.ContainerRestartPolicy.ALWAYS, securityContext: NOT_ROOT });
    };
    const meta = (name: string) => ({ metadata: { name, namespace: 'shop' } });
    const web = new kplus.Deployment(chart, 'Web', { ...meta('web'), containers: [container('web:1')] });
    dress(web, 'Web');
    web.containers[0].mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'WebData', claim));
    dress(new kplus.StatefulSet(chart, 'Db', { ...meta('db'), containers: [container('db:1')] }), 'Db');
    dress(new kplus.DaemonSet(chart, 'Agent', { ...meta('agent'), containers: [container('agent:1')] }), 'Agent');
    dress(new kplus.Job(chart, 'Migrate', { ...meta('migrate'), containers: [container('job:1')] }), 'Migrate');
    dress(new kplus.CronJob(chart, 'Report', { ...meta('report'), schedule: Cron.daily(), containers: [container('report:1')] }), 'Report');
    dress(new kplus.Pod(chart, 'Debug', { ...meta('debug'), containers: [container('debug:1')] }), 'Debug');
    return { app, chart };
  }

  test('a Deployment, StatefulSet, DaemonSet, Job, CronJob and Pod of every feature synthesize without a violation', () => {
    // GIVEN cdk8s-plus-30's own names: main for the first container, init-0 for an unnamed init container
    const { app } = workloads();

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => v.message)).toEqual([]);
  });

  test('their pod templates are what the published schema accepts, and what cdk8s-plus names them', () => {
    // GIVEN
    const { chart } = workloads();
    const manifests = chart.toJson();
    const byKind = (kind: string) => manifests.filter((m: any) => m.kind === kind);

    // THEN kubernetes-models validates each (shape only: types and required fields, no name formats)
    for (const m of byKind('Deployment')) expect(() => new Deployment(m).validate()).not.toThrow();
    for (const m of byKind('Job')) expect(() => new Job(m).validate()).not.toThrow();
    for (const m of byKind('CronJob')) expect(() => new CronJob(m).validate()).not.toThrow();
    for (const m of byKind('Pod')) expect(() => new Pod(m).validate()).not.toThrow();
    const web = byKind('Deployment')[0].spec.template.spec;
    expect(web.containers.map((c: any) => c.name)).toEqual(['main', 'logs']);
    expect(web.initContainers.map((c: any) => c.name)).toEqual(['init-0', 'proxy']);
    expect(web.volumes.map((v: any) => v.name)).toEqual([expect.stringMatching(/^configmap-/), expect.stringMatching(/^secret-/), 'scratch', expect.stringMatching(/^pvc-/)]);
  });
});

describe('what the API server refuses is refused at synth', () => {
  test('a container without a name, named by its index', () => {
    // GIVEN
    const { app, chart } = routing();
    deployment(chart, { containers: [{ image: 'web:1' }] });

    // THEN
    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[0].name' of apps/Deployment shop/web declared by 'shop/Routing/Web' is missing: every container needs a name; the API server refuses it: spec.template.spec.containers[0].name: Required value. Give the container a name, a DNS-1123 label unique in the pod, such as name: 'web'.",
    ]);
  });

  test('an upper-case cdk8s-plus container name, with the cdk8s-plus fix', () => {
    const { app, chart } = routing();
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' } });
    web.addContainer({ name: 'Web', image: 'web:1', securityContext: NOT_ROOT });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=Web].name' (\"Web\") of apps/Deployment shop/web declared by 'shop/Routing/Web' must be a DNS-1123 label of at most 63 characters (lowercase letters, digits and '-', starting and ending with a letter or digit) such as \"web\", but it contains \"W\"; the API server refuses it: spec.template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'). Name the container \"web\" (name: 'web' in its container props).",
    ]);
  });

  test('a port name over 15 characters', () => {
    const { app, chart } = routing();
    new kplus.Deployment(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      containers: [{ image: 'web:1', ports: [{ number: 9090, name: 'metrics-endpoint' }], securityContext: NOT_ROOT }],
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=main].ports[containerPort=9090,protocol=TCP].name' (\"metrics-endpoint\") of apps/Deployment shop/web declared by 'shop/Routing/Web' must be an IANA service name: at most 15 characters of lowercase letters, digits and '-', with at least one letter, without '--', neither starting nor ending with '-'; the API server refuses it: spec.template.spec.containers[0].ports[0].name: Invalid value: \"metrics-endpoint\": must be no more than 15 characters. Name the port \"metrics\" (ports: [{ number, name: 'metrics' }]); a Service's targetPort or a probe that names it must use the new name.",
    ]);
  });

  test('a volume mount that names no volume of the pod', () => {
    const { app, chart } = routing();
    deployment(chart, { volumes: [{ name: 'cache', emptyDir: {} }], containers: [{ name: 'web', image: 'web:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].volumeMounts[mountPath=/data].name' (\"data\") of apps/Deployment shop/web declared by 'shop/Routing/Web' names no volume of the pod (it has \"cache\"); the API server refuses it: spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"data\". Add the volume to the pod's volumes, or mount one it has.",
    ]);
  });

  test('an init container with the name of a container, which server-side apply takes (two lists)', () => {
    const { app, chart } = routing();
    const job = new kplus.Job(chart, 'Migrate', { metadata: { name: 'migrate', namespace: 'shop' }, containers: [{ image: 'job:1', securityContext: NOT_ROOT }] });
    job.addInitContainer({ name: 'main', image: 'wait:1', securityContext: NOT_ROOT });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.initContainers[name=main].name' (\"main\") of batch/Job shop/migrate declared by 'shop/Routing/Migrate' is also the name of 'spec.template.spec.containers[name=main].name': container names are unique across containers, initContainers and ephemeralContainers; the API server refuses it: spec.template.spec.initContainers[0].name: Duplicate value: \"main\". Rename one of them.",
    ]);
  });

  test('a value a Contribution writes is named with its writer, which the finding points at', () => {
    // GIVEN a valid Deployment and a Contribution of an env entry whose name starts with a digit
    const { app, chart } = routing();
    const web = deployment(chart, { containers: [{ name: 'web', image: 'web:1' }] });
    new Contribution(chart, 'Tuning', { target: web, fields: { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: '2FA_MODE', value: 'on' }] }] } } } } });

    // WHEN
    const violations = app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/pod-spec-validity');

    // THEN
    expect(violations.map((v) => [v.message, v.paths])).toEqual([[
      "invalid object: 'spec.template.spec.containers[name=web].env[name=2FA_MODE].name' (\"2FA_MODE\") of apps/Deployment shop/web declared by 'shop/Routing/Web', written by 'shop/Routing/Tuning', must be an environment variable name: letters, digits, '_', '-' and '.', not starting with a digit, and not '.', '..' or starting with '..' (Kubernetes 1.30; its RelaxedEnvironmentVariableValidation gate, which takes any printable ASCII but '=', is alpha and off by default); the API server refuses it: spec.template.spec.containers[0].env[0].name: Invalid value: \"2FA_MODE\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*'). Rename it, such as \"_2FA_MODE\"; the program reads the new name.",
      ['shop/Routing/Tuning'],
    ]]);
  });

  test('every pod template kind the API server validates is checked where its pod spec is; a StatefulSet\'s is not validated, so not refused', () => {
    // GIVEN a container without an image in each
    const { app, chart } = routing();
    const spec = { containers: [{ name: 'web' }] };
    const template = { metadata: { labels: { app: 'web' } }, spec };
    // a Job's pods run to completion: its template's restartPolicy is Never or OnFailure
    const jobTemplate = { ...template, spec: { ...spec, restartPolicy: 'Never' } };
    const objects: Array<[string, string, Record<string, unknown>]> = [
      ['v1', 'Pod', { spec }],
      ['v1', 'PodTemplate', { template }],
      ['v1', 'ReplicationController', { spec: { template } }],
      ['apps/v1', 'ReplicaSet', { spec: { template } }],
      ['apps/v1', 'Deployment', { spec: { template } }],
      ['apps/v1', 'StatefulSet', { spec: { template } }],
      ['apps/v1', 'DaemonSet', { spec: { template } }],
      ['batch/v1', 'Job', { spec: { template: jobTemplate } }],
      ['batch/v1', 'CronJob', { spec: { schedule: '@daily', jobTemplate: { spec: { template: jobTemplate } } } }],
    ];
    for (const [apiVersion, kind, body] of objects) new ApiObject(chart, kind, { apiVersion, kind, metadata: { name: 'web', namespace: 'shop' }, ...body });

    // THEN each is refused at its own path, but the StatefulSet (ValidatePodTemplateSpecForStatefulSet checks labels and annotations only)
    expect(podSpecFindings(app).map((m) => m.replace(/^CAP010 invalid object: '([^']*)' of (\S+ \S+) .*$/, '$2 $1')).sort()).toEqual([
      'Pod shop/web spec.containers[name=web].image',
      'PodTemplate shop/web template.spec.containers[name=web].image',
      'ReplicationController shop/web spec.template.spec.containers[name=web].image',
      'apps/DaemonSet shop/web spec.template.spec.containers[name=web].image',
      'apps/Deployment shop/web spec.template.spec.containers[name=web].image',
      'apps/ReplicaSet shop/web spec.template.spec.containers[name=web].image',
      'batch/CronJob shop/web spec.jobTemplate.spec.template.spec.containers[name=web].image',
      'batch/Job shop/web spec.template.spec.containers[name=web].image',
    ]);
  });
});

test('what server-side apply refuses itself is refused once, by the merged-contradictions rule', () => {
  // GIVEN two containers named api, and an env entry with value beside valueFrom
  const { app, chart } = routing();
  deployment(chart, {
    containers: [
      { name: 'api', image: 'api:1', env: [{ name: 'MODE', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] },
      { name: 'api', image: 'api:2' },
    ],
  });

  // WHEN
  const rules = app.synthesize().violations.map((v) => ruleOf(v));

  // THEN
  expect(rules).toEqual(['CAP010/merged-contradictions', 'CAP010/merged-contradictions']);
});

test('a StatefulSet whose container mounts a volumeClaimTemplates entry is accepted, as the API server accepts it', () => {
  // GIVEN the volume "data" comes from the claim template, which the StatefulSet controller adds to each pod
  const { app, chart } = routing();
  new ApiObject(chart, 'Db', {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  });

  // THEN
  expect(app.synthesize().violations).toEqual([]);
});

describe('what the rule cannot see it does not refuse', () => {
  test('a pod spec whose containers a RuntimeWriter writes in the cluster', () => {
    // GIVEN a template declared without its containers, which a controller fills in
    const { app, chart } = routing();
    const web = deployment(chart, { containers: [{ name: 'app' }] });
    const control = routing();
    deployment(control.chart, { containers: [{ name: 'app' }] });
    new RuntimeWriter(chart, 'Injector', { target: web, fields: ['spec.template.spec.containers'], identity: 'system:serviceaccount:ops:injector' });

    // THEN it is not refused, where the same spec without the runtime writer is
    expect(podSpecFindings(app)).toEqual([]);
    expect(podSpecFindings(control.app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'spec.template.spec.containers[name=app].image'"]);
  });

  test('a mount of a volume a RuntimeWriter adds, while the container name the release writes is still checked', () => {
    const { app, chart } = routing();
    const web = deployment(chart, { containers: [{ name: 'App', image: 'web:1', volumeMounts: [{ name: 'certs', mountPath: '/certs' }] }] });
    new RuntimeWriter(chart, 'Certs', { target: web, fields: ['spec.template.spec.volumes[name=certs].secret'], identity: 'system:serviceaccount:ops:certs' });

    expect(podSpecFindings(app).map((m) => m.split(' declared by ')[0])).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=App].name' (\"App\") of apps/Deployment shop/web",
    ]);
    // and without the runtime writer, the mount is refused too
    const control = routing();
    deployment(control.chart, { containers: [{ name: 'App', image: 'web:1', volumeMounts: [{ name: 'certs', mountPath: '/certs' }] }] });
    expect(podSpecFindings(control.app).map((m) => m.split(' of ')[0])).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=App].name' (\"App\")",
      "CAP010 invalid object: 'spec.template.spec.containers[name=App].volumeMounts[mountPath=/certs].name' (\"certs\")",
    ]);
  });

  test('a field of one container a RuntimeWriter of every Deployment writes', () => {
    const { app, chart } = routing();
    deployment(chart, { containers: [{ name: 'app' }] });
    new RuntimeWriter(chart, 'Images', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.template.spec.containers[name=app].image'], identity: 'system:serviceaccount:ops:images' });

    expect(podSpecFindings(app)).toEqual([]);
  });

  test('a value known only at deploy time (an aws-cdk token)', () => {
    // GIVEN a container port from a deploy-time parameter
    const { app, chart } = routing();
    const port = new ssm.StringParameter(new SharedBase(chart.node.scope as Capability, 'Base'), 'Port', { stringValue: '8080' });
    deployment(chart, { containers: [{ name: 'web', image: 'web:1', ports: [{ containerPort: Token.asNumber(port.stringValue) }] }] });

    // WHEN
    const violations = app.synthesize().violations;

    // THEN the boundary leak rule names the token, and the pod spec rule does not judge the number it stands for
    expect(violations.map((v) => ruleOf(v))).toEqual(['CAP006/boundary-leaks']);
  });
});

test('the published schema takes the pod specs the rule refuses: it checks shapes, not names', () => {
  // GIVEN what the API server's validation refuses, and kubernetes-models' validator (its JSON Schema)
  const bad = new Deployment({
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'Web', image: 'web:1', ports: [{ containerPort: 9090, name: 'metrics-endpoint' }], volumeMounts: [{ name: 'none', mountPath: '/x' }] }] } },
    },
  });

  // THEN the schema finds nothing wrong
  expect(() => bad.validate()).not.toThrow();
});
