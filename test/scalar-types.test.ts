import { ApiObject, JsonPatch } from 'cdk8s';
import * as fc from 'fast-check';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { newApp, removeTempDirs, siteOfNextLine } from './util';
import { scalarTypeProblems } from '../src/collect/scalar-types';

afterAll(removeTempDirs);

/** GIVEN-side helper: an app with capability `cdn` and its routing chart. */
function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = newApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'cdn'), 'Routing') };
}

/** A valid Deployment `web`, with every scalar kind the check tells apart: numbers, booleans, strings, int-or-strings, quantities. */
function deployment(): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 3,
      paused: false,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          automountServiceAccountToken: false,
          containers: [{
            name: 'web',
            image: 'web:1.0',
            args: ['--port', '8080'],
            env: [{ name: 'MODE', value: 'live' }],
            ports: [{ containerPort: 8080, name: 'http' }],
            resources: { limits: { cpu: 1, memory: '512Mi' }, requests: { cpu: '500m' } },
            readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
          }],
        },
      },
    },
  };
}

function service(): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'admin', port: 81, targetPort: 9090 }] },
  };
}

function configMap(): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'live', replicas: '3' }, immutable: true };
}

/**
 * The leaves the published schema (kubernetes-models, generated from Kubernetes' OpenAPI) refuses for their
 * JSON type: a `type` error at the path, and no format error there (which would mean one of the field's types
 * matched, and its format did not: `cpu: "abc"`).
 */
function publishedTypeRefusals(manifest: any): string[][] {
  const Model = { Deployment, Service, ConfigMap }[manifest.kind as 'Deployment' | 'Service' | 'ConfigMap'];
  try {
    new Model(manifest).validate();
    return [];
  } catch (e: any) {
    const errors: Array<{ instancePath: string; keyword: string }> = e.errors ?? [];
    const typed = new Set(errors.filter((x) => x.keyword === 'type').map((x) => x.instancePath));
    const formats = new Set(errors.filter((x) => x.keyword === 'format').map((x) => x.instancePath));
    return [...typed].filter((p) => !formats.has(p)).map((p) => p.split('/').slice(1));
  }
}

/** True when the published schema accepts the manifest. */
function publishedSchemaAccepts(manifest: any): boolean {
  const Model = { Deployment, Service, ConfigMap }[manifest.kind as 'Deployment' | 'Service' | 'ConfigMap'];
  try {
    new Model(manifest).validate();
    return true;
  } catch {
    return false;
  }
}

/** The CAP010 messages of a synth of `manifests` in chart cdn/Routing, each declared by the construct of its kind. */
function violationsOf(...manifests: any[]): string[] {
  const { app, chart } = routing();
  for (const m of manifests) new ApiObject(chart, m.kind, m);
  return app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
}

describe('scalar types of built-in kinds', () => {
  test('the valid manifests are accepted by the published schema and by synth', () => {
    expect([deployment(), service(), configMap()].map(publishedSchemaAccepts)).toEqual([true, true, true]);
    expect(violationsOf(deployment(), service(), configMap())).toEqual([]);
  });

  test('replicas given as the string "3" is CAP010 naming the field, the value, the type and the fix', () => {
    // GIVEN
    const d = deployment();
    d.spec.replicas = '3';

    // WHEN
    const violations = violationsOf(d);

    // THEN the published schema refuses it too
    expect(publishedSchemaAccepts(d)).toBe(false);
    expect(violations).toEqual([
      'CAP010 invalid object: \'spec.replicas\' ("3") of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a number, as Kubernetes 1.30\'s schema types it; the API server refuses a string there. Write 3, not "3".',
    ]);
  });

  test('a number in a ConfigMap\'s data is CAP010 with the value quoted as the fix', () => {
    const c = configMap();
    c.data.a = 1;

    expect(publishedSchemaAccepts(c)).toBe(false);
    expect(violationsOf(c)).toEqual([
      'CAP010 invalid object: \'data.a\' (1) of ConfigMap settings declared by \'cdn/Routing/ConfigMap\' must be a string, as Kubernetes 1.30\'s schema types it; the API server refuses a number there. Write "1", not 1.',
    ]);
  });

  test('a boolean given as a string, and a container port given as a string, each name their path in the pod template', () => {
    const d = deployment();
    d.spec.template.spec.automountServiceAccountToken = 'false';
    d.spec.template.spec.containers[0].ports[0].containerPort = 'http';

    expect(publishedSchemaAccepts(d)).toBe(false);
    expect(violationsOf(d)).toEqual([
      'CAP010 invalid object: \'spec.template.spec.automountServiceAccountToken\' ("false") of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a boolean (true or false), as Kubernetes 1.30\'s schema types it; the API server refuses a string there. Write false, not "false".',
      'CAP010 invalid object: \'spec.template.spec.containers[name=web].ports[containerPort=http,protocol=TCP].containerPort\' ("http") of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a number, as Kubernetes 1.30\'s schema types it; the API server refuses a string there. Write a number.',
    ]);
  });

  test('int-or-string fields and quantities take both a number and a string', () => {
    const d = deployment();
    d.spec.strategy.rollingUpdate = { maxSurge: 1, maxUnavailable: '25%' };
    d.spec.template.spec.containers[0].resources = { limits: { cpu: '1', memory: 536870912 } };
    d.spec.template.spec.containers[0].readinessProbe.httpGet.port = 8080;
    const s = service();
    s.spec.ports[0].targetPort = 8080;
    s.spec.ports[1].targetPort = 'admin';

    expect([d, s].map(publishedSchemaAccepts)).toEqual([true, true]);
    expect(violationsOf(d, s)).toEqual([]);
  });
});

/** Every scalar leaf of the valid manifests, by path. */
function scalarLeaves(value: unknown, at: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [at];
  return Object.entries(value).flatMap(([k, v]) => scalarLeaves(v, [...at, k]));
}

function setAt(target: any, at: readonly string[], value: unknown): void {
  let node = target;
  for (const key of at.slice(0, -1)) node = node[key];
  node[at[at.length - 1]] = value;
}

describe('scalar types, against the published schema', () => {
  const bases = [deployment, service, configMap];
  // leaves the published schema checks another way (names and labels are the validity rule's; apiVersion and kind pick the model)
  const leaves = bases.flatMap((base, b) => scalarLeaves(base())
    .filter((at) => !['apiVersion', 'kind'].includes(at[0]) && !(at[0] === 'metadata' && ['name', 'labels'].includes(at[1])))
    .map((at) => [b, at] as const));

  test('any scalar leaf given a string, a number or a boolean is refused by the check exactly when the published schema refuses its type', () => {
    fc.assert(fc.property(fc.constantFrom(...leaves), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean()), ([b, at], value) => {
      // GIVEN a valid manifest with one leaf replaced
      const manifest = bases[b]();
      setAt(manifest, at, value);

      // WHEN the check and the published schema judge it
      const problems = scalarTypeProblems(manifest.apiVersion === 'v1' ? '' : 'apps', manifest.kind, manifest);

      // THEN they refuse the same leaves
      expect(problems.map((p) => p.at)).toEqual(publishedTypeRefusals(manifest));
    }), { numRuns: 400 });
  });
});

describe('maps and lists where the schema takes another shape', () => {
  test('a map for replicas, a list for an image and a string for a pod template\'s labels are CAP010 naming the path, the shape and the fix', () => {
    // GIVEN
    const d = deployment();
    d.spec.replicas = { value: 3 };
    d.spec.template.spec.containers[0].image = ['web:1.0'];
    d.spec.template.metadata.labels = 'app=web';

    // THEN the published schema refuses each, and synth too
    expect(publishedTypeRefusals(d)).toEqual([['spec', 'replicas'], ['spec', 'template', 'metadata', 'labels'], ['spec', 'template', 'spec', 'containers', '0', 'image']]);
    expect(violationsOf(d)).toEqual([
      'CAP010 invalid object: \'spec.replicas\' ({"value":3}) of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a number, as Kubernetes 1.30\'s schema types it; the API server refuses a map there. Write 3, not {"value":3}.',
      'CAP010 invalid object: \'spec.template.metadata.labels\' ("app=web") of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a map (an object of keys and values), as Kubernetes 1.30\'s schema types it; the API server refuses a string there. Write a map, such as { key: value }.',
      'CAP010 invalid object: \'spec.template.spec.containers[name=web].image\' (["web:1.0"]) of apps/Deployment web declared by \'cdn/Routing/Deployment\' must be a string, as Kubernetes 1.30\'s schema types it; the API server refuses a list there. Write "web:1.0", not ["web:1.0"].',
    ]);
  });

  test('a Contribution\'s field of the wrong shape is refused naming the Contribution that wrote it, not only the declarer', () => {
    // GIVEN a ConfigMap and a Contribution that writes a map where data takes a string
    const { app, chart } = routing();
    const settings = new ApiObject(chart, 'Settings', configMap());
    new Contribution(chart, 'Mode', { target: settings, fields: { data: { level: { value: 'live', more: 1 } } } });

    // THEN the message and the violation's paths name the Contribution
    expect(app.synthesize().violations.map((v) => [`${v.code} ${v.message}`, v.paths])).toEqual([[
      'CAP010 invalid object: \'data.level\' ({"value":"live","more":1}) of ConfigMap settings declared by \'cdn/Routing/Settings\', written by \'cdn/Routing/Mode\', '
        + 'must be a string, as Kubernetes 1.30\'s schema types it; the API server refuses a map there. Write a string in place of the map.',
      ['cdn/Routing/Mode'],
    ]]);
  });

  test('a value an escape hatch wrote is refused naming the call that wrote it', () => {
    // GIVEN a ConfigMap whose data.level a plain patch sets to a number
    const { app, chart } = routing();
    const settings = new ApiObject(chart, 'Settings', configMap());
    const at = siteOfNextLine();
    settings.addJsonPatch(JsonPatch.add('/data/level', 3));

    // THEN the message names the object and the call
    expect(app.synthesize().violations.map((v) => [v.message, v.paths])).toEqual([[
      `invalid object: 'data.level' (3) of ConfigMap settings declared by 'cdn/Routing/Settings', written by 'cdn/Routing/Settings' (addJsonPatch at ${at}), `
        + 'must be a string, as Kubernetes 1.30\'s schema types it; the API server refuses a number there. Write "3", not 3.',
      ['cdn/Routing/Settings'],
    ]]);
  });
});

describe('shapes, against the published schema', () => {
  const bases = [deployment, service, configMap];
  /** Every node of a valid manifest (scalars, maps and lists) but the root and what names, labels and the model's choice check. */
  function nodes(value: unknown, at: string[] = []): string[][] {
    const here = at.length > 0 ? [at] : [];
    if (value === null || typeof value !== 'object') return here;
    return [...here, ...Object.entries(value).flatMap(([k, v]) => nodes(v, [...at, k]))];
  }
  const all = bases.flatMap((base, b) => nodes(base())
    .filter((at) => !['apiVersion', 'kind', 'metadata'].includes(at[0]))
    .map((at) => [b, at] as const));

  test('any node given a scalar, a map or a list is refused by the check exactly where the published schema refuses its type', () => {
    const shapes = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant({ a: 'b' }), fc.constant(['x']), fc.constant([{ a: 1 }]));
    fc.assert(fc.property(fc.constantFrom(...all), shapes, ([b, at], value) => {
      const manifest = bases[b]();
      setAt(manifest, at, value);
      const problems = scalarTypeProblems(manifest.apiVersion === 'v1' ? '' : 'apps', manifest.kind, manifest);
      expect(problems.map((p) => p.at)).toEqual(publishedTypeRefusals(manifest));
    }), { numRuns: 600 });
  });
});

describe('walks kept per manifest', () => {
  test('one manifest judged as two kinds gets each kind\'s problems, and a clean manifest after one with problems gets none', () => {
    // GIVEN a manifest with a number in data (a ConfigMap's and a Secret's) and in binaryData (a ConfigMap's only)
    const m = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 1 }, binaryData: { x: 2 } };

    // WHEN it is judged as a ConfigMap, as a Secret, a clean ConfigMap is judged, then it is judged again
    const asConfigMap = scalarTypeProblems('', 'ConfigMap', m).map((p) => p.at);
    const asSecret = scalarTypeProblems('', 'Secret', m).map((p) => p.at);
    const clean = scalarTypeProblems('', 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } });
    const again = scalarTypeProblems('', 'ConfigMap', m).map((p) => p.at);

    // THEN each walk has its own problems, in the manifest's key order
    expect(asConfigMap).toEqual([['data', 'a'], ['binaryData', 'x']]);
    expect(asSecret).toEqual([['data', 'a']]);
    expect(clean).toEqual([]);
    expect(again).toEqual(asConfigMap);
  });
});
