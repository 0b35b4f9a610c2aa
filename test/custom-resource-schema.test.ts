import * as path from 'path';
import Ajv from 'ajv';
import { ApiObject, Include } from 'cdk8s';
import * as fc from 'fast-check';
import { WIDGET_CRD } from './util';
import { Capability, CapabilityApp, CapabilityTesting, Reference, RuntimeRouting, RuntimeWriter } from '../src';
import { CustomResourceSchemas } from '../src/collect/custom-resource-schema';

const FLUX_CRD = path.join(__dirname, '..', 'vendor', 'crds', 'flux.kustomizations.yaml');

/** GIVEN-side helper: an app with capability `shop` and its runtime chart. */
function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = new CapabilityApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** The CAP010 messages of a synth that come from a CRD's schema (not the integer rounding of the rule of scalar types). */
function crdMessages(app: CapabilityApp): string[] {
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`).filter((m) => /its CRD '/.test(m) && !m.includes('round the value'));
}

/** The CRD `widgets.example.com` of test/util.ts (kind Widget, version v1) with `schema` as its openAPIV3Schema. */
function widgetCrd(schema: object, version: Record<string, unknown> = {}): any {
  const [v1] = WIDGET_CRD.spec.versions;
  return { ...WIDGET_CRD, spec: { ...WIDGET_CRD.spec, versions: [{ ...v1, schema: { openAPIV3Schema: schema }, ...version }] } };
}

/** The API server's errors for `fields` as a Widget's top-level fields under the root schema `schema`; unknown fields as the strict decoder names them. */
function apiServerErrors(schema: object, fields: Record<string, unknown>): string[] {
  const result = CustomResourceSchemas.fromManifests([widgetCrd(schema)]).validate('example.com', 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', ...fields });
  return (result?.problems ?? []).map((p) => (p.problem === 'unknown' ? `unknown field "${strictPath(p.at)}"` : p.apiServerError));
}

/** A path as the strict decoder and the pruning tests print it: `array[1].b`. */
function strictPath(at: readonly string[]): string {
  return at.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

describe('a custom resource that its CRD in the composition refuses is CAP010 at synth, not at apply', () => {
  test('a Flux Kustomization with a misspelt field, a string for a boolean, a value outside an enum, a number for a duration and no interval: each named, with the fix', () => {
    // GIVEN Flux's published Kustomization CRD, included, and a Kustomization with the five mistakes
    const { app, chart } = routing();
    new Include(chart, 'Crd', { url: FLUX_CRD });
    new ApiObject(chart, 'Apps', {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'apps', namespace: 'flux-system' },
      spec: { intervall: '5m', prune: 'true', sourceRef: { kind: 'GitRepo', name: 'repo' }, timeout: 3 },
    });
    // WHEN synthesized
    // THEN each is refused in the API server's words, with its fix
    const what = "kustomize.toolkit.fluxcd.io/Kustomization flux-system/apps declared by 'shop/Routing/Apps'";
    const crd = "the schema of its CRD 'kustomizations.kustomize.toolkit.fluxcd.io'";
    expect(crdMessages(app)).toEqual([
      `CAP010 invalid object: 'spec.interval' of ${what} is not set, and ${crd} requires it (without a default); the API server refuses the object without it (spec.interval: Required value). Set 'spec.interval'.`,
      `CAP010 invalid object: 'spec.intervall' of ${what} is no field of kustomize.toolkit.fluxcd.io/v1 Kustomization in ${crd}; synth would write it and the API server refuses it at apply `
        + "(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field \"spec.intervall\"'). Did you mean interval? Rename it to 'spec.interval', or remove it.",
      `CAP010 invalid object: 'spec.prune' ("true") of ${what} must be a boolean (true or false), as ${crd} types it; the API server refuses a string there `
        + '(spec.prune: Invalid value: "string": spec.prune in body must be of type boolean: "string"). Write true, not "true".',
      `CAP010 invalid object: 'spec.sourceRef.kind' ("GitRepo") of ${what} must be one of "OCIRepository", "GitRepository", "Bucket", "ExternalArtifact", as ${crd} lists them; the API server refuses it `
        + '(spec.sourceRef.kind: Unsupported value: "GitRepo": supported values: "OCIRepository", "GitRepository", "Bucket", "ExternalArtifact"). Did you mean "GitRepository"? Write one of the values.',
      `CAP010 invalid object: 'spec.timeout' (3) of ${what} must be a string, as ${crd} types it; the API server refuses an integer there `
        + "(spec.timeout: Invalid value: \"integer\": spec.timeout in body must be of type string: \"integer\"). Write a string that matches '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$'.",
    ]);
  });

  test('an apiVersion whose version the CRD does not serve is refused, with the versions it serves', () => {
    // GIVEN a Widget of v2, which the CRD does not have
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd({ type: 'object' }));
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' } });
    // THEN it is refused, as kubectl refuses it
    expect(crdMessages(app)).toEqual([
      "CAP010 invalid object: 'apiVersion' (\"example.com/v2\") of example.com/Widget w declared by 'shop/Routing/W' names the version v2, which its CRD 'widgets.example.com' does not serve (it serves v1); "
        + 'the API server has no such resource and the apply is refused (no matches for kind "Widget" in version "example.com/v2"). Set apiVersion to "example.com/v1", or serve v2 in the CRD.',
    ]);
  });

  test('string, number, list and map limits name the limit, the value and the API server\'s words', () => {
    // GIVEN a schema with each cheap limit, and a Widget outside each
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
            size: { type: 'integer', minimum: 1 },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 1 },
          },
        },
      },
    }));
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { name: 'Shop', size: 0, tags: ['a', 'b'] } });
    // THEN
    const what = "example.com/Widget w declared by 'shop/Routing/W'";
    expect(crdMessages(app)).toEqual([
      `CAP010 invalid object: 'spec.name' ("Shop") of ${what} should be at most 3 chars long, as the schema of its CRD 'widgets.example.com' limits it (maxLength); the API server refuses it (spec.name: Too long: may not be more than 3 bytes). Shorten it.`,
      `CAP010 invalid object: 'spec.name' ("Shop") of ${what} should match '^[a-z]+$', as the schema of its CRD 'widgets.example.com' limits it (pattern); the API server refuses it `
        + "(spec.name: Invalid value: \"Shop\": spec.name in body should match '^[a-z]+$'). Write a value that matches the pattern.",
      `CAP010 invalid object: 'spec.size' (0) of ${what} should be greater than or equal to 1, as the schema of its CRD 'widgets.example.com' limits it (minimum); the API server refuses it `
        + '(spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1). Write a larger number.',
      `CAP010 invalid object: 'spec.tags' (2 items) of ${what} should have at most 1 items, as the schema of its CRD 'widgets.example.com' limits it (maxItems); the API server refuses it `
        + '(spec.tags: Too many: 2: must have at most 1 item). Give fewer items.',
    ]);
  });
});

describe('the root metadata of a custom resource is ObjectMeta, whatever its CRD says', () => {
  test('a key metadata.add puts in metadata itself, and a misspelt ObjectMeta field, are refused as for a built-in kind', () => {
    // GIVEN a Widget with metadata.add('team', 'edge') and a misspelt finalizers
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd({ type: 'object', properties: { metadata: { type: 'object', properties: { team: { type: 'string' } } } } }));
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', finalizer: ['x'] } as any }).metadata.add('team', 'edge');
    // THEN both are refused, each with its fix
    const head = (field: string) => `CAP010 invalid object: 'metadata.${field}' of example.com/Widget w declared by 'shop/Routing/W' is no field of its metadata, which the API server reads as `
      + "Kubernetes 1.30's ObjectMeta whatever its CRD 'widgets.example.com' says; synth would write it and the API server refuses it at apply "
      + `(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field "metadata.${field}"').`;
    expect(crdMessages(app)).toEqual([
      `${head('finalizer')} Did you mean finalizers? Rename it to 'metadata.finalizers', or remove it.`,
      `${head('team')} Remove it, or write it as a label or an annotation (metadata.addLabel("team", ...), metadata.addAnnotation("team", ...)): metadata.add puts a key in metadata itself.`,
    ]);
  });
});

describe('the values of a custom resource\'s root metadata are typed as ObjectMeta types them', () => {
  test('a number for generateName and a string for generation are refused as for a built-in kind', () => {
    // GIVEN a Widget whose metadata gives generateName 3 and generation "2"
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd({ 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true }));
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', generateName: 3, generation: '2' } as any });
    // THEN each is refused in the words of a built-in kind's
    const of = "of example.com/Widget w declared by 'shop/Routing/W'";
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`).filter((m) => m.includes("'metadata."))).toEqual([
      `CAP010 invalid object: 'metadata.generateName' (3) ${of} must be a string, as Kubernetes 1.30's schema types it; the API server refuses a number there. Write "3", not 3.`,
      `CAP010 invalid object: 'metadata.generation' ("2") ${of} must be a number, as Kubernetes 1.30's schema types it; the API server refuses a string there. Write 2, not "2".`,
    ]);
  });
});

describe('what the API server does not refuse, or synth cannot see, is not judged', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['mode'],
        properties: {
          mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Fast' },
          size: { type: 'integer' },
          name: { type: 'string' },
          replicas: { type: 'integer' },
          values: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
          template: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'properties': { spec: { type: 'object' } } },
        },
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };

  test('a required field with a default, unknown fields under preserve-unknown-fields, an embedded resource\'s metadata, a status a subresource resets', () => {
    // GIVEN a Widget that is valid as the API server reads it (status is reset by the status subresource on a create), but for name 7
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd(schema, { subresources: { status: {} } }));
    new ApiObject(chart, 'W', {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { name: 7, values: { anything: { at: ['all'] } }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: {} } },
      status: { ready: 'yes', other: 1 },
    });
    // THEN only name is refused
    expect(crdMessages(app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'spec.name' (7)"]);
  });

  test('without the status subresource, the same status is judged', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd(schema));
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 }, status: { ready: 'yes' } });
    expect(crdMessages(app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'status.ready' (\"yes\")"]);
  });

  test('a field a RuntimeWriter writes is not judged; the same mistake in a field nobody else writes is', () => {
    // GIVEN replicas "3" that an autoscaler writes in the cluster, and name 7 that nobody else writes
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', widgetCrd(schema));
    const w = new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, replicas: '3', name: 7 } });
    new RuntimeWriter(chart, 'Scaler', { target: w, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler' });
    // THEN only name is refused
    expect(crdMessages(app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'spec.name' (7)"]);
  });

  test('without its CRD in the composition, a custom resource is not judged; with it, the same object is', () => {
    const synth = (withCrd: boolean) => {
      const { app, chart } = routing();
      if (withCrd) new ApiObject(chart, 'Crd', widgetCrd(schema));
      new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { nonsense: true } });
      return crdMessages(app).map((m) => m.split(' of ')[0]);
    };
    expect([synth(false), synth(true)]).toEqual([[], ["CAP010 invalid object: 'spec.nonsense'"]]);
  });
});

// Ported from k8s.io/apiextensions-apiserver pkg/apiserver/validation/validation_test.go, TestValidateCustomResource
// (at 1aa2717a552ee6ca1e2a18f1f8ffccde981db923): the expected errors are upstream's, word for word. Upstream runs
// the validator alone; the API server prunes a non-nullable null first (PruneNonNullableNullsWithoutDefaults), so
// upstream's `"field": nil` cases are not ported.
describe('the API server\'s words, ported from apiextensions-apiserver\'s TestValidateCustomResource', () => {
  test('"!nullable": a value of every other type for an object', () => {
    const schema = { type: 'object', properties: { field: { type: 'object' } } };
    expect([['foo'], [42], [true], [1.2], [[]]].flatMap(([v]) => apiServerErrors(schema, { field: v }))).toEqual([
      'field: Invalid value: "string": field in body must be of type object: "string"',
      'field: Invalid value: "integer": field in body must be of type object: "integer"',
      'field: Invalid value: "boolean": field in body must be of type object: "boolean"',
      'field: Invalid value: "number": field in body must be of type object: "number"',
      'field: Invalid value: "array": field in body must be of type object: "array"',
    ]);
  });

  test('"nullable and x-kubernetes-int-or-string": a boolean, a fraction, a map and a list', () => {
    const schema = { type: 'object', properties: { field: { 'x-kubernetes-int-or-string': true, 'nullable': true } } };
    expect([[true], [1.2], [{}], [[]], [null], [42], ['foo']].flatMap(([v]) => apiServerErrors(schema, { field: v }))).toEqual([
      'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
      'field: Invalid value: "number": field in body must be of type integer,string: "number"',
      'field: Invalid value: "object": field in body must be of type integer,string: "object"',
      'field: Invalid value: "array": field in body must be of type integer,string: "array"',
    ]);
  });

  test('a null is pruned before validation unless the field is nullable: a required non-nullable null is missing, a nullable one is there', () => {
    // PruneNonNullableNullsWithoutDefaults (pkg/apiserver/schema/defaulting/prunenulls.go) runs before validation
    const schema = (nullable: boolean) => ({ type: 'object', required: ['field'], properties: { field: { type: 'string', nullable } } });
    expect(apiServerErrors(schema(false), { field: null })).toEqual(['field: Required value']);
    expect(apiServerErrors(schema(true), { field: null })).toEqual([]);
  });

  test('"required field": missing at the root and nested', () => {
    const schema = { type: 'object', required: ['field'], properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } } };
    expect(apiServerErrors(schema, { test: 'a' })).toEqual(['field: Required value', 'unknown field "test"']);
    expect(apiServerErrors(schema, { field: {} })).toEqual(['field.nested: Required value']);
  });

  test('"enum": both required fields missing; then a value of the wrong type outside each enum gets both errors', () => {
    const schema = {
      type: 'object',
      properties: {
        field: {
          type: 'object',
          required: ['nestedint', 'nestedstring'],
          properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
        },
      },
    };
    expect(apiServerErrors(schema, { field: {} })).toEqual(['field.nestedint: Required value', 'field.nestedstring: Required value']);
    expect(apiServerErrors(schema, { field: { nestedint: 'x', nestedstring: true } })).toEqual([
      'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
      'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
      'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
      'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
    ]);
  });

  test('"maxProperties", "maxItems", "maxLength"', () => {
    expect(apiServerErrors({ type: 'object', properties: { fieldX: { 'type': 'object', 'maxProperties': 2, 'x-kubernetes-preserve-unknown-fields': true } } }, { fieldX: { a: true, b: true, c: true } }))
      .toEqual(['fieldX: Too many: 3: must have at most 2 items']);
    expect(apiServerErrors({ type: 'object', properties: { fieldX: { type: 'array', maxItems: 2, items: { type: 'string' } } } }, { fieldX: ['a', 'b', 'c'] }))
      .toEqual(['fieldX: Too many: 3: must have at most 2 items']);
    expect(apiServerErrors({ type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } }, { fieldX: 'abc' }))
      .toEqual(['fieldX: Too long: may not be more than 2 bytes']);
  });
});

// Ported from k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm_test.go, TestPrune (same
// commit): upstream's pruned paths are the fields strict field validation refuses. Upstream's schemas leave `type`
// out, which a structural (v1) schema may not: `type: object` is added.
describe('unknown fields, ported from apiextensions-apiserver\'s TestPrune', () => {
  test('"object array": the fields of elements that the items\' schema does not declare', () => {
    const schema = { type: 'object', properties: { array: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' }, c: { type: 'integer' } } } } } };
    expect(apiServerErrors(schema, { array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }] })).toEqual(['unknown field "array[1].b"', 'unknown field "array[2].b"']);
  });

  test('"additionalProperties with schema": the values are judged by it, and what they hold', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, c: { type: 'object', additionalProperties: { type: 'integer' } } } };
    expect(apiServerErrors(schema, { a: 1, b: 1, c: { a: 1, b: 2, c: 3 } })).toEqual(['unknown field "b"']);
  });

  test('"nested x-kubernetes-preserve-unknown-fields": the unknown fields of a preserving object are kept, its declared fields judged', () => {
    const schema = {
      type: 'object',
      properties: {
        preserving: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'properties': { pruning: { type: 'object', properties: { specified: { type: 'string' } } } } },
      },
    };
    expect(apiServerErrors(schema, { preserving: { unspecified: 'bar', pruning: { specified: 'x', unspecified: 'bar' } } })).toEqual(['unknown field "preserving.pruning.unspecified"']);
  });
});

/**
 * The schema as a JSON Schema validator reads what the API server does: OpenAPI 3.0's boolean exclusive bounds as
 * numbers, an int-or-string as either, and an object without `additionalProperties` or
 * `x-kubernetes-preserve-unknown-fields` closed (pruning, then strict field validation).
 */
function asJsonSchema(s: any): any {
  if (s === null || typeof s !== 'object') return s;
  const out: any = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || (k === 'additionalProperties' && typeof v === 'object')) {
      out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([n, p]) => [n, asJsonSchema(p)])) : asJsonSchema(v);
    } else if (k === 'items') {out[k] = asJsonSchema(v);} else if (!k.startsWith('x-kubernetes-') && k !== 'exclusiveMinimum' && k !== 'exclusiveMaximum') {out[k] = v;}
  }
  if (s.exclusiveMinimum === true) [out.exclusiveMinimum, out.minimum] = [s.minimum, undefined];
  if (s.exclusiveMaximum === true) [out.exclusiveMaximum, out.maximum] = [s.maximum, undefined];
  if (s['x-kubernetes-int-or-string'] === true) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  if (s.type === 'object' && s.additionalProperties === undefined && s['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
  return JSON.parse(JSON.stringify(out));
}

describe('verdicts agree with ajv on the schema as the API server reads it', () => {
  const spec = {
    type: 'object',
    required: ['name', 'size', 'mode'],
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[a-z]+$' },
      size: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
      mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Fast' },
      port: { 'x-kubernetes-int-or-string': true },
      enabled: { type: 'boolean' },
      tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', maxLength: 3 } },
      labels: { type: 'object', maxProperties: 2, minProperties: 1, additionalProperties: { type: 'string' } },
      extra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
      parts: { type: 'array', items: { type: 'object', required: ['weight'], properties: { weight: { type: 'integer' } } } },
    },
  };
  const metadata = { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const schema = { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata, spec } };
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true });
  const validate = ajv.compile(asJsonSchema(schema));
  const schemas = CustomResourceSchemas.fromManifests([widgetCrd(schema)]);

  /** The paths ajv refuses (a missing or an additional property by its own path). */
  const ajvPaths = (w: object): string[] => {
    const copy = JSON.parse(JSON.stringify(w));
    validate(copy);
    const paths = (validate.errors ?? []).map((e) => {
      const at = e.instancePath.split('/').slice(1);
      if (e.keyword === 'required') at.push(e.params.missingProperty);
      if (e.keyword === 'additionalProperties') at.push(e.params.additionalProperty);
      return at.join('/');
    });
    return [...new Set(paths)].sort();
  };
  const ourPaths = (w: object): string[] => [...new Set(schemas.validate('example.com', 'Widget', w)!.problems.map((p) => p.at.join('/')))].sort();

  const scalar = fc.oneof(
    fc.stringMatching(/^[a-zA-Z]{0,10}$/), fc.constantFrom('Fast', 'Slow', 'fast', 'ab', 'abcd'),
    fc.integer({ min: -3, max: 12 }), fc.double({ min: -2, max: 2, noNaN: true }), fc.boolean(),
  );
  const value = fc.oneof({ depthSize: 'small', maxDepth: 2 },
    scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'weight'), scalar, { maxKeys: 3 }),
    fc.array(fc.dictionary(fc.constantFrom('weight', 'wieght'), scalar, { maxKeys: 2 }), { maxLength: 2 }));
  const keys = [...Object.keys(spec.properties), 'nmae', 'sise'];

  test('any spec: the refused paths are ajv\'s, exactly', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 6 }), (s) => {
      const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: s };
      expect(ourPaths(w)).toEqual(ajvPaths(w));
    }), { numRuns: 500 });
  });
});

describe('a custom resource of a kind no CRD of the composition defines, in a group whose CRDs are in it, is CAP010', () => {
  /** A CRD `widgets.acme.io` (kind Widget, plural widgets, short name wdg) that serves v1 and takes any fields. */
  const acmeCrd = () => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.acme.io' },
    spec: {
      group: 'acme.io',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', shortNames: ['wdg'], listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });

  /** The messages of the rule of kinds (not the UpperCamelCase check of object shapes). */
  const kindMessages = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`).filter((m) => m.includes('is no kind that a CRD'));

  const head = (kind: string) => `CAP010 invalid object: 'kind' (${JSON.stringify(kind)}) of acme.io/${kind} shop/w declared by 'shop/Routing/${kind}' is no kind that a CRD of the composition defines in the group acme.io `
    + `(its one CRD there defines Widget), nor a built-in kind; the API server has no such resource and the apply is refused (no matches for kind ${JSON.stringify(kind)} in version "acme.io/v1").`;
  const outside = 'If its CRD is installed outside the composition, declare the kind: Reference.clusterScoped for a cluster-scoped kind, or Reference.external of an object of it.';

  test('a misspelt kind (Widgte) names the kind it means and the fix', () => {
    // GIVEN the CRD of acme.io/Widget and an acme.io Widgte
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', acmeCrd());
    new ApiObject(chart, 'Widgte', { apiVersion: 'acme.io/v1', kind: 'Widgte', metadata: { name: 'w', namespace: 'shop' } });
    // THEN it is refused in kubectl's words, with the kind meant
    expect(kindMessages(app)).toEqual([`${head('Widgte')} Did you mean Widget? Set kind to "Widget", the kind of its CRD 'widgets.acme.io'. ${outside}`]);
  });

  test('the kind in lowercase, its plural and its short name name the kind; a kind like none names no guess', () => {
    // GIVEN objects of kinds widget, Widgets, Wdg and Sprocket in acme.io
    const { app, chart } = routing();
    new ApiObject(chart, 'Crd', acmeCrd());
    for (const kind of ['widget', 'Widgets', 'Wdg', 'Sprocket']) new ApiObject(chart, kind, { apiVersion: 'acme.io/v1', kind, metadata: { name: 'w', namespace: 'shop' } });
    // THEN each is refused; the first three with the kind, the last without a guess
    const alias = 'Did you mean Widget? Set kind to "Widget": a custom resource\'s kind is its CRD\'s spec.names.kind (\'widgets.acme.io\'), in its letter case, not its plural, singular or a short name.';
    expect(kindMessages(app)).toEqual([
      `${head('Sprocket')} Set kind to one of those, or declare the CRD of Sprocket in the composition. ${outside}`,
      `${head('Wdg')} ${alias}`,
      `${head('Widgets')} ${alias}`,
      `${head('widget')} ${alias}`,
    ]);
  });

  test('a kind declared to come from a CRD outside the composition, and a group without a CRD in the composition, are not judged', () => {
    // GIVEN acme.io's Gizmo declared cluster-scoped, a Sprocket declared external, a Part named in enforce.resources,
    // an other.io Thing (no CRD of other.io in the composition)
    const app = new CapabilityApp({ enforce: { deployer: 'system:serviceaccount:flux-system:kustomize-controller', resources: { 'Part.acme.io': 'parts' } } });
    const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(chart, 'Crd', acmeCrd());
    Reference.clusterScoped(chart, 'Gizmos', { apiVersion: 'acme.io/v1', kind: 'Gizmo' });
    Reference.external(chart, 'Other', { apiVersion: 'acme.io/v1', kind: 'Sprocket', name: 'other', namespace: 'shop' });
    new ApiObject(chart, 'Gizmo', { apiVersion: 'acme.io/v1', kind: 'Gizmo', metadata: { name: 'g' } });
    new ApiObject(chart, 'Sprocket', { apiVersion: 'acme.io/v1', kind: 'Sprocket', metadata: { name: 's', namespace: 'shop' } });
    new ApiObject(chart, 'Part', { apiVersion: 'acme.io/v1', kind: 'Part', metadata: { name: 'p', namespace: 'shop' } });
    new ApiObject(chart, 'Thing', { apiVersion: 'other.io/v1', kind: 'Thing', metadata: { name: 't', namespace: 'shop' } });
    // THEN none is refused; the same Sprocket without its declaration is
    expect(kindMessages(app)).toEqual([]);
    const bare = routing();
    new ApiObject(bare.chart, 'Crd', acmeCrd());
    new ApiObject(bare.chart, 'Sprocket', { apiVersion: 'acme.io/v1', kind: 'Sprocket', metadata: { name: 's', namespace: 'shop' } });
    expect(kindMessages(bare.app).map((m) => m.split(' of ')[0])).toEqual(["CAP010 invalid object: 'kind' (\"Sprocket\")"]);
  });
});
