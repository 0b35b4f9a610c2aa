import { apiGroup, groupKind } from './object-identity';
import type { ScalarKind, TypeRef, TypeSpec } from './topology/field-topology';
import { K8S_1_30 } from './topology/k8s-1.30.generated';
import { formatScalar, PathStep } from '../private/field-path-syntax';

/**
 * Whether a kind's schema has a path: the question the API server answers
 * when it drops (or, strictly, refuses) an unknown field. The field topology
 * answers another one, how a field is owned, and by design deduces a node it
 * does not know, as server-side apply does; this reads the same schemas for
 * the fields they declare: Kubernetes 1.30's for the built-in kinds
 * (`K8S_1_30`: struct fields, map values, list elements), a CRD's
 * `openAPIV3Schema` for its kind (`properties`, `additionalProperties`,
 * `items`, `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string`,
 * `x-kubernetes-embedded-resource`, the implied `apiVersion`, `kind` and
 * ObjectMeta `metadata`).
 *
 * A keyed element must give exactly its list's key fields (a key field with
 * a default may be left out), a set value needs a set, and an atomic list,
 * map or struct is one leaf that no path goes into. A key or set value must
 * also be of the type of its field or of the set's items where the schema
 * gives one (`[version=1]` is the number 1, which names no element of a list
 * keyed by a string: `[version="1"]`).
 *
 * @param group the kind's API group (`''` for the core group)
 * @param kind the kind
 * @param steps the path
 * @param manifests the composition's manifests, its CRDs among them
 * @returns why the schema does not have the path, and which schema it is; undefined when it has it, or when no schema of the kind is known
 */
export function schemaPathProblem(group: string, kind: string, steps: readonly PathStep[], manifests: readonly any[]): SchemaPathProblem | undefined {
  const key = groupKind(group, kind);
  if (Object.hasOwn(K8S_1_30.kinds, key)) {
    const problem = builtInProblem(K8S_1_30.kinds[key], steps, 0);
    return problem ? { problem, schema: "Kubernetes 1.30's schema" } : undefined;
  }
  const crd = manifests.find((m) => m?.kind === 'CustomResourceDefinition' && apiGroup(String(m.apiVersion ?? '')) === 'apiextensions.k8s.io' &&
    groupKind(String(m.spec?.group ?? ''), String(m.spec?.names?.kind ?? '')) === key);
  const schema = crd ? schemaOf(crd) : undefined;
  const problem = isObject(schema) ? crdProblem(schema, steps, 0, true) : undefined;
  return problem ? { problem, schema: `the schema of its CRD '${crd.metadata?.name}'` } : undefined;
}

/** Why a schema lacks a path, and which schema it is (`Kubernetes 1.30's schema`, `the schema of its CRD '...'`). */
export interface SchemaPathProblem {
  readonly problem: string;
  readonly schema: string;
}

/** The text of the first `n` steps, for messages, as `formatPath` prints a path. */
function prefix(steps: readonly PathStep[], n: number): string {
  if (n === 0) return 'the object';
  let out = '';
  for (const s of steps.slice(0, n)) {
    if ('field' in s) out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.field) ? (out ? `.${s.field}` : s.field) : `[${JSON.stringify(s.field)}]`;
    else if ('keys' in s) out += `[${Object.entries(s.keys).map(([k, v]) => `${k}=${formatScalar(v)}`).join(',')}]`;
    else out += `[=${formatScalar(s.value)}]`;
  }
  return out;
}

function names(list: Iterable<string>): string {
  return [...list].sort().join(', ');
}

/** What a list step needs: the list's keys (and those with defaults), or a set; the types of key fields and set values where the schema gives them. */
interface ListShape {
  readonly keys?: readonly string[];
  readonly defaults?: Readonly<Record<string, unknown>>;
  readonly set?: boolean;
  readonly keyTypes?: Readonly<Record<string, ScalarType>>;
  readonly valueType?: ScalarType;
}

/** The type of a scalar in a CRD's schema, as far as a key or set value can be checked against it. */
type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'int-or-string';

/** The scalar type a CRD's schema gives, or undefined when it gives none the check knows. */
function scalarTypeOf(schema: unknown): ScalarType | undefined {
  if (!isObject(schema)) return undefined;
  if (schema['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  return ['string', 'integer', 'number', 'boolean'].includes(schema.type) ? schema.type : undefined;
}

/**
 * Why `value` cannot be a value of `type`, or undefined when it can: what the path gives (`the number 1`) and how to
 * write it instead, in the form the value takes there (`version=1`, `[=1]`).
 */
function typeProblem(type: ScalarType | undefined, value: unknown, form: (text: string) => string): { given: string; fix: string } | undefined {
  if (type === undefined || fits(type, value)) return undefined;
  const given = typeof value === 'string' ? `the string ${JSON.stringify(value)}` : typeof value === 'number' ? `the number ${value}` : JSON.stringify(value);
  const unquoted = typeof value === 'string' ? parsedJson(value) : undefined;
  const fix = type === 'string' && value !== null ? ` (quote it: ${form(JSON.stringify(String(value)))})`
    : unquoted !== undefined && fits(type, unquoted.value) ? ` (leave the quotes out: ${form(value as string)})` : '';
  return { given, fix };
}

/** Whether `value` is a value of `type`. */
function fits(type: ScalarType, value: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'int-or-string': return typeof value === 'string' || Number.isInteger(value);
  }
}

/** `text` read as the JSON number, `true`, `false` or `null` it spells exactly, or undefined. */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? undefined : JSON.stringify(value) === text ? { value } : undefined;
  } catch {
    return undefined;
  }
}

const SINGULAR: Record<ScalarType, string> = { 'string': 'a string', 'integer': 'an integer', 'number': 'a number', 'boolean': 'true or false', 'int-or-string': 'an integer or a string' };
const PLURAL: Record<ScalarType, string> = { 'string': 'strings', 'integer': 'integers', 'number': 'numbers', 'boolean': 'true or false', 'int-or-string': 'integers or strings' };

/** Why a list step does not fit the list at `steps[0..i)`, or undefined when it does. */
function listStepProblem(list: ListShape, steps: readonly PathStep[], i: number): string | undefined {
  const step = steps[i];
  const at = prefix(steps, i);
  if ('field' in step) return `${at} is a list: write an element of it${list.keys ? ` by its key (${list.keys.join(', ')})` : ''}, not the field ${JSON.stringify(step.field)}`;
  if ('value' in step) {
    if (!list.set) return `${at} is not a set, so it has no value ${JSON.stringify(step.value)}: ${list.keys ? `write an element by its key (${list.keys.join(', ')})` : `it is one leaf, write ${at}`}`;
    const wrong = typeProblem(list.valueType, step.value, (t) => `[=${t}]`);
    return wrong ? `the values of the set ${at} are ${PLURAL[list.valueType!]}, but this path gives ${wrong.given}${wrong.fix}` : undefined;
  }
  if (!list.keys) return `${at} is ${list.set ? 'a set (write a value as [=value])' : `an atomic list, one leaf: write ${at}`}, not an element by key`;
  const given = Object.keys(step.keys);
  const extra = given.filter((k) => !list.keys!.includes(k));
  const missing = list.keys.filter((k) => !given.includes(k) && list.defaults?.[k] === undefined);
  if (extra.length > 0 || missing.length > 0) return `the elements of ${at} are keyed by ${list.keys.join(', ')}, but ${prefix(steps, i + 1)} gives ${given.join(', ')}`;
  for (const k of given) {
    const wrong = typeProblem(list.keyTypes?.[k], step.keys[k], (t) => `${k}=${t}`);
    if (wrong) return `the key ${k} of the elements of ${at} is ${SINGULAR[list.keyTypes![k]]}, but this path gives it ${wrong.given}${wrong.fix}`;
  }
  return undefined;
}

function builtInProblem(ref: TypeRef, steps: readonly PathStep[], i: number): string | undefined {
  if (i === steps.length) return undefined;
  if (typeof ref === 'string' && (ref === 'deduced' || ref === 'atomic')) return undefined; // untyped: anything below
  if (ref === 'scalar') return `${prefix(steps, i)} is a scalar: it has nothing below it`;
  const spec: TypeSpec | undefined = typeof ref === 'string' ? K8S_1_30.types[ref] : 'type' in ref ? K8S_1_30.types[ref.type] : ref;
  if (!spec) return undefined;
  const atomic = typeof ref === 'object' && 'type' in ref && ref.atomic;
  if ('list' in spec) {
    const shape: ListShape = atomic ? {} : {
      keys: spec.keys,
      defaults: spec.keyDefaults,
      set: spec.set,
      keyTypes: spec.keys ? builtInKeyTypes(spec.list, spec.keys) : undefined,
      valueType: spec.set && spec.list === 'scalar' ? builtInScalarType(spec.scalar) : undefined,
    };
    return listStepProblem(shape, steps, i) ?? builtInProblem(spec.list, steps, i + 1);
  }
  const step = steps[i];
  if (atomic || spec.atomic) return `${prefix(steps, i)} is atomic, one leaf: write ${prefix(steps, i)}`;
  if (!('field' in step)) return `${prefix(steps, i)} is a map or struct, not a list`;
  if (spec.fields && Object.hasOwn(spec.fields, step.field)) return builtInProblem(spec.fields[step.field], steps, i + 1);
  if (spec.scalars?.split(' ').includes(step.field)) return builtInProblem('scalar', steps, i + 1);
  if (spec.values !== undefined) return builtInProblem(spec.values, steps, i + 1);
  return `${prefix(steps, i)} has no field ${JSON.stringify(step.field)} (it has ${names([...Object.keys(spec.fields ?? {}), ...(spec.scalars?.split(' ') ?? [])])})`;
}

/** The types of the key fields of a built-in list's elements: `numbers` and `booleans` as such, other plain scalars strings, `untyped` ones unchecked. */
function builtInKeyTypes(element: TypeRef, keys: readonly string[]): Record<string, ScalarType> {
  const spec = typeof element === 'string' ? K8S_1_30.types[element] : 'type' in element ? K8S_1_30.types[element.type] : element;
  const types: Record<string, ScalarType> = {};
  if (!spec || 'list' in spec) return types;
  const words = (list: string | undefined) => new Set(list?.split(' ') ?? []);
  const [scalars, numbers, booleans, untyped] = [words(spec.scalars), words(spec.numbers), words(spec.booleans), words(spec.untyped)];
  for (const k of keys) {
    if (!scalars.has(k) || untyped.has(k)) continue;
    types[k] = numbers.has(k) ? 'number' : booleans.has(k) ? 'boolean' : 'string';
  }
  return types;
}

/** The type of a built-in set's values: a string unless the schema says otherwise. */
function builtInScalarType(kind: ScalarKind | undefined): ScalarType | undefined {
  return kind === undefined ? 'string' : kind === 'numeric' ? 'number' : kind === 'boolean' ? 'boolean' : undefined;
}

function crdProblem(schema: Record<string, any>, steps: readonly PathStep[], i: number, resource: boolean): string | undefined {
  if (i === steps.length) return undefined;
  const step = steps[i];
  if ((resource || schema['x-kubernetes-embedded-resource'] === true) && 'field' in step) {
    if (step.field === 'metadata') return builtInProblem('meta.v1.ObjectMeta', steps, i + 1);
    if (step.field === 'apiVersion' || step.field === 'kind') return builtInProblem('scalar', steps, i + 1);
  }
  if (schema['x-kubernetes-int-or-string'] === true || ['string', 'integer', 'number', 'boolean'].includes(schema.type)) {
    return `${prefix(steps, i)} is a scalar: it has nothing below it`;
  }
  if (schema.type === 'array') {
    const listType = schema['x-kubernetes-list-type'];
    const keys = listType === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'] : undefined;
    const defaults: Record<string, unknown> = {};
    const keyTypes: Record<string, ScalarType> = {};
    for (const k of keys ?? []) {
      const property = schema.items?.properties?.[k];
      if (property?.default !== undefined) defaults[k] = property.default;
      const type = scalarTypeOf(property);
      if (type) keyTypes[k] = type;
    }
    const problem = listStepProblem({ keys, defaults, set: listType === 'set', keyTypes, valueType: listType === 'set' ? scalarTypeOf(schema.items) : undefined }, steps, i);
    return problem ?? (isObject(schema.items) ? crdProblem(schema.items, steps, i + 1, false) : undefined);
  }
  if (schema['x-kubernetes-map-type'] === 'atomic') return `${prefix(steps, i)} is atomic, one leaf: write ${prefix(steps, i)}`;
  if (!('field' in step)) return `${prefix(steps, i)} is a map or struct, not a list`;
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Object.hasOwn(properties, step.field)) {
    const child = properties[step.field];
    return isObject(child) ? crdProblem(child, steps, i + 1, false) : undefined;
  }
  if (isObject(schema.additionalProperties)) return crdProblem(schema.additionalProperties, steps, i + 1, false);
  if (schema.additionalProperties === true || schema['x-kubernetes-preserve-unknown-fields'] === true || schema.type === undefined) return undefined;
  const known = Object.keys(properties);
  return `${prefix(steps, i)} has no field ${JSON.stringify(step.field)} (${known.length > 0 ? `it has ${names(known)}` : 'it has no fields'})`;
}

/** The schema of the version in force, as the field topology reads it: storage, else first served, else first; else v1beta1's. */
function schemaOf(crd: any): unknown {
  const versions: any[] = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  const version = versions.find((v) => v?.storage === true) ?? versions.find((v) => v?.served === true) ?? versions[0];
  return version?.schema?.openAPIV3Schema ?? crd.spec?.validation?.openAPIV3Schema;
}

function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
