import { aws_ssm as ssm, Token } from 'aws-cdk-lib';
import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Capability, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { ruleOf } from '../src/check/finding';

afterAll(removeTempDirs);

/** A plain Deployment `web` in namespace `shop` whose one container `web` has `container`'s fields. */
function deployment(chart: RuntimeRouting, container: Record<string, unknown>, spec: Record<string, unknown> = {}): ApiObject {
  return new ApiObject(chart, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1', ...container }], ...spec } },
    },
  });
}

const NOT_ROOT = { ensureNonRoot: false };

test('cdk8s-plus resources (cpu and memory requests and limits), env from the downward API and a privileged bidirectional mount pass', () => {
  // GIVEN cdk8s-plus-30's own resource, env and mount props
  const { app, chart } = routing();
  const web = new kplus.Deployment(chart, 'Web', {
    metadata: { name: 'web', namespace: 'shop' },
    containers: [{
      image: 'web:1',
      securityContext: NOT_ROOT,
      resources: {
        cpu: { request: kplus.Cpu.millis(250), limit: kplus.Cpu.units(1.5) },
        memory: { request: Size.mebibytes(512), limit: Size.gibibytes(1) },
        ephemeralStorage: { request: Size.gibibytes(1), limit: Size.gibibytes(2) },
      },
      envVariables: {
        POD_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME),
        NODE_IP: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_IP),
        CPU_LIMIT: kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_LIMIT, { divisor: '1m' }),
        MEMORY_REQUEST: kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_REQUEST),
      },
    }],
  });
  web.containers[0].mount('/scratch', kplus.Volume.fromEmptyDir(chart, 'Scratch', 'scratch'), { propagation: kplus.MountPropagation.HOST_TO_CONTAINER });

  // THEN
  expect(app.synthesize().violations.map((v) => v.message)).toEqual([]);
  const c = chart.toJson()[0].spec.template.spec.containers[0];
  expect(c.resources).toEqual({ limits: { 'cpu': '1.5', 'memory': '1024Mi', 'ephemeral-storage': '2Gi' }, requests: { 'cpu': '250m', 'memory': '512Mi', 'ephemeral-storage': '1Gi' } });
});

describe('what the API server refuses is refused at synth', () => {
  test('a cdk8s-plus cpu request above its limit, named by the request, quoting the quantities as the API server prints them', () => {
    const { app, chart } = routing();
    new kplus.Deployment(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      containers: [{ image: 'web:1', securityContext: NOT_ROOT, resources: { cpu: { request: kplus.Cpu.units(2), limit: kplus.Cpu.millis(1500) } } }],
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=main].resources.requests.cpu' (\"2\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is more than its limit (1500m): a container's request of cpu is at most its limit; the API server refuses it: spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1500m. Lower the request to at most 1500m, or raise the limit.",
    ]);
  });

  test('a GPU request below its limit, and one without a limit', () => {
    const { app, chart } = routing();
    deployment(chart, { resources: { requests: { 'nvidia.com/gpu': 1, 'example.com/fpga': '1' }, limits: { 'nvidia.com/gpu': 2 } } });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.requests[\"example.com/fpga\"]' (\"1\") of apps/Deployment shop/web declared by 'shop/Routing/Web' has no limit beside it: example.com/fpga cannot be overcommitted (hugepages and extended resources), so a request needs a limit, equal to it; the API server refuses it: spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources. Set limits[\"example.com/fpga\"] to the request too, or move the request to limits (the request then defaults to the limit).",
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.requests[\"nvidia.com/gpu\"]' (1) of apps/Deployment shop/web declared by 'shop/Routing/Web' differs from its limit (2): nvidia.com/gpu cannot be overcommitted (hugepages and extended resources), so a request must equal its limit; the API server refuses it: spec.template.spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2. Set the request to 2, or leave it out (it then defaults to the limit).",
    ]);
  });

  test('a resource name in capitals, a fieldRef no env var can read, and a Bidirectional mount of a container that is not privileged', () => {
    const { app, chart } = routing();
    deployment(chart, {
      resources: { limits: { CPU: '1' } },
      env: [{ name: 'PHASE', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }],
      volumeMounts: [{ name: 'host', mountPath: '/host', mountPropagation: 'Bidirectional' }],
    }, { volumes: [{ name: 'host', hostPath: { path: '/' } }] });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].env[name=PHASE].valueFrom.fieldRef.fieldPath' (\"status.phase\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is no field of the pod an env var can read; the API server refuses it: spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"status.phase\": supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\". Read one of metadata.name, metadata.namespace, metadata.uid, metadata.labels['<key>'], metadata.annotations['<key>'], spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP or status.podIPs.",
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.limits.CPU' (\"1\") of apps/Deployment shop/web declared by 'shop/Routing/Web' names \"CPU\", which is no resource a container can request or limit: cpu, memory, ephemeral-storage, hugepages-<page size> (such as hugepages-2Mi), or an extended resource: a domain outside kubernetes.io, '/' and a name (such as nvidia.com/gpu); the API server refuses it: spec.template.spec.containers[0].resources.limits[CPU]: Invalid value: \"CPU\": must be a standard resource type or fully qualified; spec.template.spec.containers[0].resources.limits[CPU]: Invalid value: \"CPU\": must be a standard resource for containers. Write \"cpu\".",
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].volumeMounts[mountPath=/host].mountPropagation' (\"Bidirectional\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is Bidirectional in a container that is not privileged; the API server refuses it: spec.template.spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers. Use HostToContainer, or make the container privileged (securityContext: { privileged: true }).",
    ]);
  });

  test('the published schema takes what the rule refuses: it checks types, not names, comparisons or propagation modes', () => {
    const bad = new Deployment({
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { spec: { containers: [{ name: 'web', image: 'web:1', resources: { requests: { cpu: '2', CPU: '1' }, limits: { cpu: '1' } }, volumeMounts: [{ name: 'x', mountPath: '/x', mountPropagation: 'Bidirectional' }] }], volumes: [{ name: 'x', emptyDir: {} }] } },
      },
    });

    expect(() => bad.validate()).not.toThrow();
  });
});

describe('what the rule cannot see it does not refuse', () => {
  test('a request against a limit a RuntimeWriter writes (a vertical autoscaler), while the same spec without it is refused', () => {
    // GIVEN
    const { app, chart } = routing();
    const web = deployment(chart, { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } });
    new RuntimeWriter(chart, 'Vpa', { target: web, fields: ['spec.template.spec.containers[name=web].resources.limits'], identity: 'system:serviceaccount:kube-system:vpa-updater' });
    const control = routing();
    deployment(control.chart, { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } });

    // THEN
    expect(podSpecFindings(app)).toEqual([]);
    expect(podSpecFindings(control.app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.requests.cpu' (\"2\")"]);
  });

  test('a mount propagation whose verdict depends on a privileged flag a RuntimeWriter writes', () => {
    const { app, chart } = routing();
    const web = deployment(chart, { volumeMounts: [{ name: 'host', mountPath: '/host', mountPropagation: 'Bidirectional' }] }, { volumes: [{ name: 'host', hostPath: { path: '/' } }] });
    new RuntimeWriter(chart, 'Policy', { target: web, fields: ['spec.template.spec.containers[name=web].securityContext'], identity: 'system:serviceaccount:ops:policy' });

    expect(podSpecFindings(app)).toEqual([]);
  });

  test('a limit known only at deploy time (an aws-cdk token)', () => {
    // GIVEN a cpu limit from a deploy-time parameter
    const { app, chart } = routing();
    const cpu = new ssm.StringParameter(new SharedBase(chart.node.scope as Capability, 'Base'), 'Cpu', { stringValue: '1' });
    deployment(chart, { resources: { requests: { cpu: '2' }, limits: { cpu: Token.asString(cpu.stringValue) } } });

    // WHEN
    const violations = app.synthesize().violations;

    // THEN the boundary leak rule names the token, and the pod spec rule does not judge the quantity it stands for
    expect(violations.map((v) => ruleOf(v))).toEqual(['CAP006/boundary-leaks']);
  });
});
