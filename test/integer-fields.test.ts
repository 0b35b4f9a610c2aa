import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Service } from 'kubernetes-models/v1';
import { crdSchemaValidator } from './crd-schema';
import { newApp, removeTempDirs } from './util';
import { publishedIntegerFormats } from '../scripts/generate-k8s-topology';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { fitsInteger, integerProblems } from '../src/collect/scalar-types';
import { CrdTopologies } from '../src/collect/topology/crd-topology';

afterAll(removeTempDirs);

function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = newApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** A valid Deployment with integer fields of each kind: int32, int64, a list of int64, int-or-strings, in keyed lists. */
function deployment(): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 3,
      minReadySeconds: 5,
      revisionHistoryLimit: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          terminationGracePeriodSeconds: 30,
          securityContext: { runAsUser: 1000, fsGroup: 2000, supplementalGroups: [3000, 4000] },
          containers: [{
            name: 'web',
            image: 'web:1.0',
            ports: [{ containerPort: 8080, hostPort: 80, name: 'http' }],
            readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5, timeoutSeconds: 1, failureThreshold: 3 },
          }],
        },
      },
    },
  };
}

function service(): any {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, nodePort: 30080, targetPort: 8080 }] } };
}

function job(): any {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'once' },
    spec: { backoffLimit: 4, completions: 1, parallelism: 1, ttlSecondsAfterFinished: 100, template: { spec: { restartPolicy: 'Never', activeDeadlineSeconds: 600, containers: [{ name: 'once', image: 'once:1.0' }] } } },
  };
}

const MODELS: Record<string, new (data: any) => { validate(): void }> = { Deployment, Service, Job };
const GROUPS: Record<string, string> = { Deployment: 'apps', Service: '', Job: 'batch' };

/** The errors of the published schema (kubernetes-models' ajv validators, generated from Kubernetes' OpenAPI). */
function publishedErrors(manifest: any): Array<{ instancePath: string; keyword: string; params: any }> {
  try {
    new MODELS[manifest.kind](manifest).validate();
    return [];
  } catch (e: any) {
    return e.errors ?? [];
  }
}

/** The paths where the published schema says `type: integer` was not met. */
function publishedIntegerTypeRefusals(manifest: any): string[][] {
  const paths = publishedErrors(manifest).filter((e) => e.keyword === 'type' && e.params.type === 'integer').map((e) => e.instancePath);
  return [...new Set(paths)].map((p) => p.split('/').slice(1));
}

/** The paths where the published schema says `format: int32` was not met. */
function publishedInt32Refusals(manifest: any): string[][] {
  const paths = publishedErrors(manifest).filter((e) => e.keyword === 'format' && e.params.format === 'int32').map((e) => e.instancePath);
  return [...new Set(paths)].map((p) => p.split('/').slice(1));
}

/** Every number leaf of a manifest, by path. */
function numberLeaves(value: unknown, at: string[] = []): string[][] {
  if (typeof value === 'number') return [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => numberLeaves(v, [...at, k]));
}

function setAt(target: any, at: readonly string[], value: unknown): void {
  let node = target;
  for (const key of at.slice(0, -1)) node = node[key];
  node[at[at.length - 1]] = value;
}

function problemsAt(manifest: any): string[][] {
  return integerProblems(GROUPS[manifest.kind], manifest.kind, manifest).map((p) => [...p.at]);
}

function violationsOf(...manifests: any[]): string[] {
  const { app, chart } = routing();
  manifests.forEach((m, i) => new ApiObject(chart, `${m.kind}${i}`, m));
  return app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
}

describe('numbers in integer fields', () => {
  test('the valid manifests are accepted by the published schema and by synth', () => {
    expect([deployment(), service(), job()].map(publishedErrors)).toEqual([[], [], []]);
    expect(violationsOf(deployment(), service(), job())).toEqual([]);
  });

  test('replicas: 1.5 is CAP010 naming the field, the value, the Go type, the API server\'s decoding error and the rounded fix', () => {
    // GIVEN
    const d = deployment();
    d.spec.replicas = 1.5;

    // THEN the published schema refuses it as no integer, and synth too
    expect(publishedIntegerTypeRefusals(d)).toEqual([['spec', 'replicas']]);
    expect(violationsOf(d)).toEqual([
      "CAP010 invalid object: 'spec.replicas' (1.5) of apps/Deployment web declared by 'shop/Routing/Deployment0' must be an integer from -2147483648 to 2147483647 (a Go int32), "
        + "as Kubernetes 1.30's schema types it; the API server refuses 1.5 there (json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32). "
        + 'Write 2, or round the value where it is computed (Math.round(...)).',
    ]);
  });

  test('an int64 field, a list of int64 and a field in a keyed list name the Go struct and the JSON path without indexes, as Go\'s decoder does', () => {
    const d = deployment();
    d.spec.template.spec.terminationGracePeriodSeconds = 0.5;
    d.spec.template.spec.securityContext.supplementalGroups[1] = 4000.25;
    d.spec.template.spec.containers[0].readinessProbe.periodSeconds = 2.5;

    expect(integerProblems('apps', 'Deployment', d).map((p) => [p.at.join('.'), p.format, p.decodeError])).toEqual([
      ['spec.template.spec.terminationGracePeriodSeconds', 'int64', 'json: cannot unmarshal number 0.5 into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64'],
      ['spec.template.spec.securityContext.supplementalGroups.1', 'int64', 'json: cannot unmarshal number 4000.25 into Go struct field PodSecurityContext.spec.template.spec.securityContext.supplementalGroups of type int64'],
      ['spec.template.spec.containers.0.readinessProbe.periodSeconds', 'int32', 'json: cannot unmarshal number 2.5 into Go struct field Probe.spec.template.spec.containers.readinessProbe.periodSeconds of type int32'],
    ]);
  });

  test('an int-or-string takes a string or an integer; a fraction there is refused by its own decoder, without a struct field', () => {
    // GIVEN a fractional targetPort and maxSurge, and a string one that is fine
    const s = service();
    s.spec.ports[0].targetPort = 8080.5;
    const d = deployment();
    d.spec.strategy.rollingUpdate = { maxSurge: 0.5, maxUnavailable: '25%' };

    expect(publishedIntegerTypeRefusals(s)).toEqual([['spec', 'ports', '0', 'targetPort']]);
    expect(violationsOf(s, d)).toEqual([
      "CAP010 invalid object: 'spec.ports[port=80,protocol=TCP].targetPort' (8080.5) of Service web declared by 'shop/Routing/Service0' must be a string or an integer from -2147483648 to 2147483647 (a Go int32), "
        + "as Kubernetes 1.30's schema types it; the API server refuses 8080.5 there (json: cannot unmarshal number 8080.5 into Go value of type int32). Write 8081, or round the value where it is computed (Math.round(...)).",
      "CAP010 invalid object: 'spec.strategy.rollingUpdate.maxSurge' (0.5) of apps/Deployment web declared by 'shop/Routing/Deployment1' must be a string or an integer from -2147483648 to 2147483647 (a Go int32), "
        + "as Kubernetes 1.30's schema types it; the API server refuses 0.5 there (json: cannot unmarshal number 0.5 into Go value of type int32). Write 1, or round the value where it is computed (Math.round(...)).",
    ]);
  });

  test('a value out of the Go type\'s range is refused, with the range as the fix: 2^31 in an int32, 1e21 in an int64', () => {
    const j = job();
    j.spec.backoffLimit = 2147483648;
    j.spec.ttlSecondsAfterFinished = 2147483647;
    j.spec.template.spec.activeDeadlineSeconds = 1e21;

    expect(publishedInt32Refusals(j)).toEqual([['spec', 'backoffLimit']]);
    expect(violationsOf(j)).toEqual([
      "CAP010 invalid object: 'spec.backoffLimit' (2147483648) of batch/Job once declared by 'shop/Routing/Job0' must be an integer from -2147483648 to 2147483647 (a Go int32), "
        + "as Kubernetes 1.30's schema types it; the API server refuses 2147483648 there (json: cannot unmarshal number 2147483648 into Go struct field JobSpec.spec.backoffLimit of type int32). Write an integer from -2147483648 to 2147483647.",
      "CAP010 invalid object: 'spec.template.spec.activeDeadlineSeconds' (1e+21) of batch/Job once declared by 'shop/Routing/Job0' must be an integer from -9223372036854775808 to 9223372036854775807 (a Go int64), "
        + "as Kubernetes 1.30's schema types it; the API server refuses 1e+21 there (json: cannot unmarshal number 1e+21 into Go struct field PodSpec.spec.template.spec.activeDeadlineSeconds of type int64). "
        + 'Write an integer from -9223372036854775808 to 9223372036854775807.',
    ]);
  });

  test('443.0 is the integer 443 in JavaScript and in JSON: a Service port written so is accepted', () => {
    const s = service();
    s.spec.ports[0].port = 443.0;
    expect(violationsOf(s, deployment())).toEqual([]);
  });

  test('a field a RuntimeWriter writes in the cluster is not judged; the same field without it is', () => {
    // GIVEN a fractional replicas that an autoscaler writes, and a fractional minReadySeconds nobody else writes
    const { app, chart } = routing();
    const d = deployment();
    d.spec.replicas = 1.5;
    d.spec.minReadySeconds = 2.5;
    const web = new ApiObject(chart, 'Web', d);
    new RuntimeWriter(chart, 'Scaler', { target: web, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler' });

    // THEN only minReadySeconds is refused
    expect(app.synthesize().violations.filter((v) => v.message.includes('a Go int')).map((v) => v.message.split(' (')[0])).toEqual(["invalid object: 'spec.minReadySeconds'"]);
  });

  test('a number token (known at deploy time) in an integer field is not judged', () => {
    const d = deployment();
    d.spec.replicas = -1.8881545897087626e+289;
    expect(integerProblems('apps', 'Deployment', d)).toEqual([]);
  });
});

describe('integer fields, against the published schema', () => {
  const bases = [deployment, service, job];
  const leaves = bases.flatMap((base, b) => numberLeaves(base()).map((at) => [b, at] as const));
  const fractions = fc.double({ min: -1e12, max: 1e12, noNaN: true }).filter((v) => !Number.isInteger(v));

  test('the bases hold 24 number leaves: int32, int64, a list of int64, int-or-strings, in keyed lists', () => {
    expect(leaves.length).toBe(24);
  });

  test('any number with a fraction in any number leaf is refused exactly where the published schema\'s `type: integer` refuses it', () => {
    fc.assert(fc.property(fc.constantFrom(...leaves), fractions, ([b, at], value) => {
      // GIVEN a valid manifest with one number leaf given a fraction
      const manifest = bases[b]();
      setAt(manifest, at, value);

      // THEN the check and the published schema refuse the same leaf
      expect(problemsAt(manifest)).toEqual(publishedIntegerTypeRefusals(manifest));
      expect(problemsAt(manifest)).toEqual([[...at]]);
    }), { numRuns: 300 });
  });

  test('any integer in any number leaf is refused exactly where the published schema\'s `format: int32` refuses it', () => {
    const edges = fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31) - 1);
    const integers = fc.oneof(fc.integer(), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), edges);
    fc.assert(fc.property(fc.constantFrom(...leaves), integers, ([b, at], value) => {
      const manifest = bases[b]();
      setAt(manifest, at, value);
      expect(problemsAt(manifest)).toEqual(publishedInt32Refusals(manifest));
    }), { numRuns: 300 });
  });
});

describe('fitsInteger, as Go\'s decoder parses a JSON number', () => {
  test('int32 agrees with the published int32 format for any double', () => {
    // kubernetes-models' int32 format (ajv-formats): an integer from -2^31 to 2^31-1
    fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -(2 ** 33), max: 2 ** 33 })), (v) => {
      expect(fitsInteger(v, 'int32')).toBe(Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1);
    }), { numRuns: 1000 });
  });

  test('int64 refuses a fraction, an exponent and a value whose JSON text is out of range', () => {
    // 2^63 - 1 is 2^63 as a double; the largest double below it, and -2^63 whose text is -9223372036854776000 (below -2^63)
    expect([2 ** 63, 2 ** 63 - 1024, -(2 ** 63), 1e20, 1e21, 0.5, 9007199254740993, -0].map((v) => fitsInteger(v, 'int64')))
      .toEqual([false, true, false, false, false, false, true, true]);
  });
});

describe('the integer formats the generator reads from kubernetes-models', () => {
  const formats = publishedIntegerFormats();

  test('name int32 and int64 fields, a list\'s elements, and null for a type or a field not known', () => {
    expect(formats.formatOf('io.k8s.api.apps.v1.DeploymentSpec', ['replicas'])).toBe('int32');
    expect(formats.formatOf('io.k8s.api.core.v1.PodSpec', ['terminationGracePeriodSeconds'])).toBe('int64');
    expect(formats.formatOf('io.k8s.api.core.v1.PodSecurityContext', ['supplementalGroups', '0'])).toBe('int64');
    expect(formats.formatOf('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', ['generation'])).toBe('int64');
    expect(formats.formatOf('io.k8s.api.apps.v1.DeploymentSpec', ['noSuchField'])).toBeNull();
    expect(formats.formatOf('io.k8s.api.resource.v1alpha2.NamedResourcesAttribute', ['int'])).toBeNull();
  });
});

/** A CRD whose schema has integer fields: a property, an array's items' property, a map's values; and a number, an int-or-string. */
function widgetCrd(): any {
  const integer = { type: 'integer' };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: integer,
                  ratio: { type: 'number' },
                  port: { 'x-kubernetes-int-or-string': true },
                  parts: { type: 'array', items: { type: 'object', properties: { weight: integer, name: { type: 'string' } } } },
                  limits: { type: 'object', additionalProperties: integer },
                },
              },
            },
          },
        },
      }],
    },
  };
}

function widget(): any {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3, ratio: 0.5, port: 8080, parts: [{ name: 'a', weight: 2 }], limits: { cpu: 4 } } };
}

describe('numbers in the integer fields of a CRD in the composition', () => {
  const validate = crdSchemaValidator(widgetCrd().spec.versions[0].schema.openAPIV3Schema);
  /** The paths where the CRD's schema (ajv) says `type: integer` was not met. */
  const schemaRefusals = (m: any): string[][] => {
    validate(m);
    return (validate.errors ?? []).filter((e) => e.keyword === 'type' && e.params.type === 'integer').map((e) => e.instancePath.split('/').slice(1));
  };

  test('a fraction in a property, in an array element\'s property and in a map\'s value is CAP010 with the API server\'s words; a number field is not judged, an int-or-string\'s fraction is a type error', () => {
    // GIVEN fractions in the three integer fields, and in the number and int-or-string fields
    const w = widget();
    w.spec.size = 1.5;
    w.spec.parts[0].weight = 2.5;
    w.spec.limits.cpu = 0.25;
    w.spec.ratio = 1.25;
    w.spec.port = 80.5;

    // THEN the CRD's schema refuses the integer ones, and synth names each
    expect(schemaRefusals(w)).toEqual([['spec', 'size'], ['spec', 'parts', '0', 'weight'], ['spec', 'limits', 'cpu']]);
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd());
    new ApiObject(chart, 'Widget', w);
    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'spec.limits.cpu' (0.25) of example.com/Widget w declared by 'shop/Routing/Widget' must be an integer, as the schema of its CRD 'widgets.example.com' types it; "
        + 'the API server refuses 0.25 there (spec.limits.cpu: Invalid value: "number": spec.limits.cpu in body must be of type integer: "number"). Write 0, or round the value where it is computed (Math.round(...)).',
      "CAP010 invalid object: 'spec.parts[0].weight' (2.5) of example.com/Widget w declared by 'shop/Routing/Widget' must be an integer, as the schema of its CRD 'widgets.example.com' types it; "
        + 'the API server refuses 2.5 there (spec.parts[0].weight: Invalid value: "number": spec.parts[0].weight in body must be of type integer: "number"). Write 3, or round the value where it is computed (Math.round(...)).',
      // the int-or-string's fraction is the API server's type error (the rule of custom resource schemas)
      "CAP010 invalid object: 'spec.port' (80.5) of example.com/Widget w declared by 'shop/Routing/Widget' must be an integer or a string (an int-or-string), as the schema of its CRD 'widgets.example.com' types it; "
        + 'the API server refuses a number there (spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"). Write 81, or the string "80.5".',
      "CAP010 invalid object: 'spec.size' (1.5) of example.com/Widget w declared by 'shop/Routing/Widget' must be an integer, as the schema of its CRD 'widgets.example.com' types it; "
        + 'the API server refuses 1.5 there (spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"). Write 2, or round the value where it is computed (Math.round(...)).',
    ]);
  });

  test('without its CRD in the composition, a custom resource\'s numbers are not judged', () => {
    const w = widget();
    w.spec.size = 1.5;
    const { app, chart } = routing();
    new ApiObject(chart, 'Widget', w);
    expect(app.synthesize().violations.filter((v) => v.message.includes('integer'))).toEqual([]);
  });

  test('any number in any number leaf is refused exactly where the CRD\'s schema refuses it as no integer', () => {
    const leaves = numberLeaves(widget()).filter((at) => at[1] !== 'port');
    const crds = CrdTopologies.fromManifests([widgetCrd()]);
    fc.assert(fc.property(fc.constantFrom(...leaves), fc.oneof(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer()), (at, value) => {
      const w = widget();
      setAt(w, at, value);
      expect(crds.integerProblems('example.com', 'Widget', w).map((p) => [...p.at])).toEqual(schemaRefusals(w));
    }), { numRuns: 300 });
  });
});
