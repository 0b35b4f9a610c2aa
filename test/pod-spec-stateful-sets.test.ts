import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { newApp, removeTempDirs } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { ruleOf } from '../src/check/finding';

afterAll(removeTempDirs);

function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = newApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** A StatefulSet `db` in namespace `shop` whose pod spec is `spec`, with a claim template `data`. */
function statefulSet(chart: RuntimeRouting, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): ApiObject {
  return new ApiObject(chart, 'Db', {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...extra,
    },
  });
}

/** The synth's violations and the StatefulSet rule's warnings. */
function findingsOf(app: CapabilityApp): { violations: string[]; warnings: string[] } {
  const result = app.synthesize();
  return {
    violations: result.violations.map((v) => `${v.code} ${v.message}`),
    warnings: result.warnings.filter((w) => ruleOf(w) === 'CAP010/stateful-set-pod-specs').map((w) => `${w.code} ${w.message}`),
  };
}

test('a StatefulSet container without an image is accepted with a warning that its pods will be refused, in the pod\'s words', () => {
  // GIVEN
  const { app, chart } = routing();
  statefulSet(chart, { containers: [{ name: 'postgres', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] });

  // THEN no refusal, and one warning naming the field, the pod the controller creates and the API server's message
  expect(findingsOf(app)).toEqual({
    violations: [],
    warnings: [
      "CAP010 invalid object: 'spec.template.spec.containers[name=postgres].image' of apps/StatefulSet shop/db declared by 'shop/Routing/Db' is missing: every container and init container needs an image; "
        + 'the API server accepts the StatefulSet (it does not validate a StatefulSet\'s pod template) but refuses each pod its controller creates from it: '
        + 'Pod "db-0" is invalid: spec.containers[0].image: Required value. Set the image, such as image: \'nginx:1.27\'.',
    ],
  });
});

test('a mount of a claim template is fine, a mount of neither a volume nor a claim template is warned of, and spec.ordinals names the first pod', () => {
  const { app, chart } = routing();
  statefulSet(chart, {
    containers: [{ name: 'postgres', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'logs', mountPath: '/logs' }] }],
  }, { ordinals: { start: 3 } });

  const { violations, warnings } = findingsOf(app);
  expect(violations).toEqual([]);
  expect(warnings.map((w) => w.split(' of ')[0])).toEqual(["CAP010 invalid object: 'spec.template.spec.containers[name=postgres].volumeMounts[mountPath=/logs].name' (\"logs\")"]);
  expect(warnings[0]).toContain('refuses each pod its controller creates from it: Pod "db-3" is invalid: spec.containers[0].volumeMounts[1].name: Not found: "logs".');
});

test('the same pod spec in a Deployment is refused by the pod spec rule at the same fields', () => {
  // GIVEN one invalid pod spec, in a StatefulSet and in a Deployment
  const spec = { containers: [{ name: 'Postgres', image: 'postgres:16', ports: [{ containerPort: 70000 }] }] };
  const { app, chart } = routing();
  statefulSet(chart, spec);
  new ApiObject(chart, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec } },
  });

  // THEN the Deployment's errors and the StatefulSet's warnings name the same fields
  const result = app.synthesize();
  const fields = (messages: Array<{ message: string }>) => messages.map((m) => /^invalid object: '([^']*)'/.exec(m.message)![1]);
  expect(fields(result.warnings.filter((w) => ruleOf(w) === 'CAP010/stateful-set-pod-specs'))).toEqual(fields(result.violations.filter((v) => ruleOf(v) === 'CAP010/pod-spec-validity')));
  expect(fields(result.warnings.filter((w) => ruleOf(w) === 'CAP010/stateful-set-pod-specs'))).toEqual([
    'spec.template.spec.containers[name=Postgres].name',
    'spec.template.spec.containers[name=Postgres].ports[containerPort=70000,protocol=TCP].containerPort',
  ]);
});

test('a cdk8s-plus StatefulSet with volumes, probes and env is not warned of', () => {
  const { app, chart } = routing();
  const settings = new kplus.ConfigMap(chart, 'Settings', { metadata: { namespace: 'shop' }, data: { mode: 'live' } });
  const claim = new kplus.PersistentVolumeClaim(chart, 'Claim', { metadata: { namespace: 'shop' }, storage: Size.gibibytes(1) });
  new kplus.StatefulSet(chart, 'Db', {
    metadata: { namespace: 'shop' },
    containers: [{
      image: 'postgres:16',
      portNumber: 5432,
      envVariables: { MODE: kplus.EnvValue.fromConfigMap(settings, 'mode') },
      readiness: kplus.Probe.fromTcpSocket({ port: 5432 }),
      securityContext: { ensureNonRoot: false },
      volumeMounts: [{ path: '/data', volume: kplus.Volume.fromPersistentVolumeClaim(chart, 'DataVolume', claim) }],
    }],
  });
  expect(findingsOf(app).warnings).toEqual([]);
});

test('a pod spec field a RuntimeWriter writes is not warned of', () => {
  const { app, chart } = routing();
  const db = statefulSet(chart, { containers: [{ name: 'postgres' }] });
  new RuntimeWriter(chart, 'Injector', { target: db, fields: ['spec.template.spec.containers'], identity: 'system:serviceaccount:ops:injector' });
  expect(findingsOf(app).warnings).toEqual([]);
});
