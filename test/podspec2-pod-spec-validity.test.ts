import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { RuntimeRouting, RuntimeWriter } from '../src';
import { ruleOf } from '../src/check/finding';
import { podSpecErrors } from '../src/check/rules/pod-spec-errors';

afterAll(removeTempDirs);

const NOT_ROOT = { ensureNonRoot: false };

/** A plain Deployment `web` in namespace `shop` whose pod spec has one container `web` with `container`'s fields, and `spec`'s. */
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

/** The StatefulSet restart policy rule's messages of a synth. */
function restartFindings(app: ReturnType<typeof routing>['app']): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/stateful-set-restart-policy').map((v) => `${v.code} ${v.message}`);
}

describe('resources: extended resources are whole, hugepages are whole pages', () => {
  test('a GPU of 0.5 is refused with the API server\'s text, which prints the quantity\'s Go struct', () => {
    const { app, chart } = routing();
    deployment(chart, { resources: { limits: { 'nvidia.com/gpu': '0.5' } } });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.limits[\"nvidia.com/gpu\"]' (\"0.5\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is a fraction: nvidia.com/gpu is an extended resource, counted in whole units (a device, a license); the API server refuses it: spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"\", Format:\"DecimalSI\"}: must be an integer. Write a whole number, such as 1 (a quantity of an extended resource has no milli units).",
    ]);
  });

  test('3Mi of 2Mi pages is refused, naming the page size and its multiples', () => {
    const { app, chart } = routing();
    deployment(chart, { resources: { limits: { 'memory': '1Gi', 'hugepages-2Mi': '3Mi' } } });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.limits[\"hugepages-2Mi\"]' (\"3Mi\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is no whole number of 2Mi pages: hugepages-2Mi is allocated in pages of 2Mi; the API server refuses it: spec.template.spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi. Write a multiple of 2Mi, such as 2Mi or 4Mi.",
    ]);
  });

  test('a cpu request above its limit by less than a milli is no refusal: the API server rounds both up to 1001m', () => {
    const { app, chart } = routing();
    deployment(chart, { resources: { requests: { cpu: '1.0004' }, limits: { cpu: '1.0001' } } });

    expect(podSpecFindings(app)).toEqual([]);
  });

  test('the published schema takes what the rule refuses: a fraction of a GPU, a partial huge page, a downward file of spec.nodeName, mode 644', () => {
    const spec = {
      containers: [{ name: 'web', image: 'web:1', resources: { limits: { 'memory': '1Gi', 'nvidia.com/gpu': '0.5', 'hugepages-2Mi': '3Mi' } } }],
      volumes: [{ name: 'info', downwardAPI: { defaultMode: 644, items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }] } }],
    };
    const web = new Deployment({ metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { spec } } });
    const db = new StatefulSet({ metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { spec: { ...spec, restartPolicy: 'OnFailure' } } } });

    expect(() => web.validate()).not.toThrow();
    expect(() => db.validate()).not.toThrow();
  });
});

describe('downward API and projected volumes', () => {
  test('a downwardAPI file of spec.nodeName, one of a resource without its container, and a decimal 644 mode are refused', () => {
    const { app, chart } = routing();
    deployment(chart, {}, {
      volumes: [{ name: 'info', downwardAPI: { defaultMode: 644, items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }, { path: 'cpu', resourceFieldRef: { resource: 'limits.cpu' } }] } }],
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.volumes[name=info].downwardAPI.defaultMode' (644) of apps/Deployment shop/web declared by 'shop/Routing/Web' is no file mode: a mode is a number from 0 to 0777 (511); the API server refuses it: spec.template.spec.volumes[0].downwardAPI.defaultMode: Invalid value: 644: must be a number between 0 and 0777 (octal), both inclusive. Write the mode in octal: 0o644 (420); 644 is read as a decimal number.",
      "CAP010 invalid object: 'spec.template.spec.volumes[name=info].downwardAPI.items[0].fieldRef.fieldPath' (\"spec.nodeName\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is no field of the pod a downward API volume file can read (it reads fewer than an env var: no spec.nodeName, spec.serviceAccountName or status fields); the API server refuses it: spec.template.spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: \"spec.nodeName\": supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", \"metadata.uid\". Read one of metadata.name, metadata.namespace, metadata.uid, metadata.labels, metadata.annotations, or one key of them (metadata.labels['<key>']), or read the field into an env var (valueFrom.fieldRef) instead.",
      "CAP010 invalid object: 'spec.template.spec.volumes[name=info].downwardAPI.items[1].resourceFieldRef.containerName' of apps/Deployment shop/web declared by 'shop/Routing/Web' is missing: a downward API volume file that reads a resource names the container whose resource it reads; the API server refuses it: spec.template.spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value. Set containerName to the name of a container of the pod.",
    ]);
  });

  test('cdk8s-plus: a ConfigMap volume with defaultMode 644 (decimal) is refused, 0o644 is not', () => {
    const { app, chart } = routing();
    const config = new kplus.ConfigMap(chart, 'Config', { metadata: { name: 'app' }, data: { a: '1' } });
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'web', image: 'web:1', securityContext: NOT_ROOT }] });
    web.containers[0].mount('/etc/app', kplus.Volume.fromConfigMap(chart, 'Vol', config, { name: 'config', defaultMode: 644 }));
    const good = routing();
    const config2 = new kplus.ConfigMap(good.chart, 'Config', { metadata: { name: 'app' }, data: { a: '1' } });
    const web2 = new kplus.Deployment(good.chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'web', image: 'web:1', securityContext: NOT_ROOT }] });
    web2.containers[0].mount('/etc/app', kplus.Volume.fromConfigMap(good.chart, 'Vol', config2, { name: 'config', defaultMode: 0o644 }));

    expect(podSpecFindings(app).map((m) => m.split('; the API server')[0])).toEqual([
      'CAP010 invalid object: \'spec.template.spec.volumes[name=config].configMap.defaultMode\' (644) of apps/Deployment shop/web declared by \'shop/Routing/Web\' is no file mode: a mode is a number from 0 to 0777 (511)',
    ]);
    expect(podSpecFindings(good.app)).toEqual([]);
  });

  test('a mode a RuntimeWriter writes is not judged', () => {
    const { app, chart } = routing();
    const web = deployment(chart, {}, { volumes: [{ name: 'info', downwardAPI: { defaultMode: 644, items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] });
    new RuntimeWriter(chart, 'Ops', { target: web, fields: ['spec.template.spec.volumes[name=info].downwardAPI.defaultMode'], identity: 'system:serviceaccount:ops:tuner' });

    expect(podSpecFindings(app)).toEqual([]);
  });
});

describe('a StatefulSet\'s own restart policy (ValidateStatefulSetSpec)', () => {
  test('cdk8s-plus lets a StatefulSet restart OnFailure; the API server refuses the StatefulSet itself, not only its pods', () => {
    const { app, chart } = routing();
    const service = new kplus.Service(chart, 'Svc', { metadata: { name: 'db' }, ports: [{ port: 5432 }], clusterIP: 'None' });
    new kplus.StatefulSet(chart, 'Db', {
      metadata: { name: 'db', namespace: 'shop' },
      service,
      restartPolicy: kplus.RestartPolicy.ON_FAILURE,
      containers: [{ name: 'db', image: 'postgres:16', portNumber: 5432, securityContext: NOT_ROOT }],
    });

    expect(restartFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.restartPolicy' (\"OnFailure\") of apps/StatefulSet shop/db declared by 'shop/Routing/Db' must be Always (or left out) in the pod template of a Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController: its pods run until replaced; the API server refuses it: spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\". Drop restartPolicy, or write 'Always'; a workload that runs to completion is a Job.",
    ]);
  });

  test('activeDeadlineSeconds is refused; an unknown policy is refused with the StatefulSet\'s list, not the pod\'s; Always and none are accepted', () => {
    const statefulSet = (spec: Record<string, unknown>) => {
      const { app, chart } = routing();
      new ApiObject(chart, 'Db', {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'shop' },
        spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'db:1' }], ...spec } } },
      });
      return app;
    };

    expect(restartFindings(statefulSet({ activeDeadlineSeconds: 60 })).map((m) => m.split('; the API server refuses it: ')[1])).toEqual([
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported. Drop activeDeadlineSeconds; a deadline belongs to a Job (its spec.activeDeadlineSeconds).',
    ]);
    expect(restartFindings(statefulSet({ restartPolicy: 'Sometimes' })).map((m) => m.split('; the API server refuses it: ')[1].split('. ')[0])).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"',
    ]);
    expect(restartFindings(statefulSet({ restartPolicy: 'Always' }))).toEqual([]);
    expect(restartFindings(statefulSet({}))).toEqual([]);
  });

  test('the restart policy is not also a warning about the StatefulSet\'s pods', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Db', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop' },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'db', image: 'db:1' }] } } },
    });

    expect(app.synthesize().warnings.filter((w) => ruleOf(w) === 'CAP010/stateful-set-pod-specs')).toEqual([]);
  });
});

describe('properties', () => {
  const pageSizes = fc.constantFrom(['2Mi', 2 * 1024 * 1024], ['1Gi', 1024 ** 3], ['64Ki', 64 * 1024]) as fc.Arbitrary<[string, number]>;
  const fieldPath = fc.oneof(
    fc.constantFrom('metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.labels', 'metadata.annotations'),
    fc.tuple(fc.constantFrom('labels', 'annotations'), fc.stringMatching(/^[a-z0-9]([-a-z0-9_.]{0,20}[a-z0-9])?$/)).map(([m, k]) => `metadata.${m}['${k}']`),
  );
  const relative = fc.stringMatching(/^[a-z0-9][-a-z0-9_]{0,10}(\/[a-z0-9][-a-z0-9_]{0,10}){0,2}$/);

  test('whole extended resources, whole pages of hugepages, and downward files of the paths a volume reads give no error', () => {
    fc.assert(fc.property(
      fc.nat(16), pageSizes, fc.nat(8), fc.array(fc.tuple(relative, fieldPath), { maxLength: 4 }), fc.integer({ min: 0, max: 0o777 }),
      (gpus, [size, bytes], pages, files, mode) => {
        const items = files.map(([path, fp], i) => ({ path: `${i}/${path}`, fieldRef: { fieldPath: fp }, mode }));
        const errors = podSpecErrors({
          spec: {
            containers: [{ name: 'web', image: 'web:1', resources: { limits: { 'memory': '1Gi', 'example.com/gpu': gpus, [`hugepages-${size}`]: String(pages * bytes) } } }],
            volumes: [{ name: 'info', downwardAPI: { defaultMode: mode, items } }],
          },
        }, { at: ['spec'], isPod: true });
        expect(errors).toEqual([]);
      },
    ));
  });

  test('any JSON in resources and volumes gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (resources, source, item) => {
      expect(() => podSpecErrors({
        spec: {
          containers: [{ name: 'web', image: 'web:1', resources }],
          volumes: [
            { name: 'a', downwardAPI: source }, { name: 'b', projected: { sources: [source, { downwardAPI: { items: [item] } }] } },
            { name: 'c', secret: source }, { name: 'd', configMap: { name: 'x', items: [item] } },
          ],
        },
      }, { at: ['spec'], isPod: true })).not.toThrow();
    }), { numRuns: 300 });
  });
});
