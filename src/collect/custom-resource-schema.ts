import { apiGroup, groupKind } from './object-identity';
import { nearMiss } from '../private/near-miss';

// The API server's validation of a custom resource against its CRD's openAPIV3Schema, read from
// k8s.io/apiextensions-apiserver (pkg/apiserver/validation/validation.go, kubeOpenAPIResultToFieldErrors, at
// 1aa2717a552ee6ca1e2a18f1f8ffccde981db923), k8s.io/kube-openapi (pkg/validation/validate and
// pkg/validation/errors/schema.go, at d427ff9ee9ad05f5da435abbb7c5929cb713ac56) and k8s.io/apimachinery
// (pkg/util/validation/field/errors.go, at eed236ceee2c19c2753a3d93ac0631dc20750454).

/** A field of a custom resource that its CRD's schema refuses, with the API server's words for it. */
export type CustomResourceProblem =
  | UnknownCustomField
  | CustomTypeProblem
  | MissingCustomField
  | CustomEnumProblem
  | CustomLimitProblem;

/** A field the schema does not declare (pruned, and refused by strict field validation). */
export interface UnknownCustomField {
  readonly problem: 'unknown';
  /** The keys from the manifest's root to the field (list indexes as digits), the field's own name last. */
  readonly at: readonly string[];
  /** The fields the schema declares where it stands, sorted. */
  readonly known: readonly string[];
}

/** A value of another JSON type than the schema's (`"3"` for an `integer`). */
export interface CustomTypeProblem {
  readonly problem: 'type';
  readonly at: readonly string[];
  /** The schema's type as kube-openapi names it: `integer`, `integer,string` for an int-or-string. */
  readonly expected: string;
  /** The value's JSON type as kube-openapi names it (`string`, `integer`, `number`, `boolean`, `array`, `object`). */
  readonly given: string;
  readonly value: unknown;
  /** The schema's `pattern` of a string, which a fix must match. */
  readonly pattern?: string;
  /** The API server's error: `spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`. */
  readonly apiServerError: string;
}

/** A field the schema's `required` lists, absent (or null where the schema does not make it nullable) and without a default. */
export interface MissingCustomField {
  readonly problem: 'required';
  /** The keys from the root to the missing field, its name last. */
  readonly at: readonly string[];
  /** `spec.interval: Required value`. */
  readonly apiServerError: string;
}

/** A value outside the schema's `enum`. */
export interface CustomEnumProblem {
  readonly problem: 'enum';
  readonly at: readonly string[];
  readonly value: unknown;
  /** The values the schema allows, as the API server prints them (strings as such, others as JSON). */
  readonly allowed: readonly string[];
  /** `spec.mode: Unsupported value: "x": supported values: "a", "b"`. */
  readonly apiServerError: string;
}

/** A value outside a limit of the schema: `maxLength`, `minLength`, `pattern`, `maximum`, `minimum`, `maxItems`, `minItems`, `maxProperties`, `minProperties`. */
export interface CustomLimitProblem {
  readonly problem: 'limit';
  readonly at: readonly string[];
  readonly keyword: 'maxLength' | 'minLength' | 'pattern' | 'maximum' | 'minimum' | 'maxItems' | 'minItems' | 'maxProperties' | 'minProperties';
  readonly value: unknown;
  /** What the schema asks, in kube-openapi's words: `should be at most 5 chars long`, `should match '^a'`. */
  readonly expected: string;
  readonly apiServerError: string;
}

/** One version of a CRD, as validation reads it. */
interface CrdVersionSchema {
  readonly served: boolean;
  readonly schema: unknown;
  /** True when the version has a status subresource: a create or an update of the object itself resets `status`. */
  readonly statusSubresource: boolean;
}

/** A CRD of the composition (apiextensions.k8s.io/v1), by version. */
interface CrdSchemas {
  readonly name: string;
  readonly versions: ReadonlyMap<string, CrdVersionSchema>;
}

/** The names a CRD gives its kind (`spec.names`), for the kind a mistaken one means. */
interface CrdNames {
  readonly kind: string;
  /** The CRD's `metadata.name`. */
  readonly crd: string;
  /** `plural`, `singular` and `shortNames`, as written. */
  readonly others: readonly string[];
}

/**
 * A custom resource whose kind no CRD of the composition defines, in a group some CRD of the composition
 * defines kinds of: the API server (kubectl's REST mapping) has no such resource.
 */
export interface UnknownCustomKind {
  /** The kinds the composition's CRDs define in the group, sorted. */
  readonly kinds: readonly string[];
  /** The kind it most likely means (`Widget` for `Widgte`, `widget`, `Widgets`), when one is that close. */
  readonly meant?: string;
  /** The name of the CRD of `meant`. */
  readonly crd?: string;
  /** True when the kind is `meant` but for letter case, or its CRD's plural, singular or a short name (`widget`, `Widgets`); false for a misspelling. */
  readonly alias?: boolean;
}

/** What validating a custom resource found: its CRD's name and the problems, or that the CRD does not serve its version. */
export type CustomResourceValidation =
  | { readonly crd: string; readonly unserved?: undefined; readonly problems: readonly CustomResourceProblem[] }
  | { readonly crd: string; readonly unserved: { readonly version: string; readonly served: readonly string[] }; readonly problems: readonly [] };

/**
 * The CRDs (`apiextensions.k8s.io/v1`) of a composition, by group and kind, for validating its custom resources as
 * the API server does. Made only when a composition has an object of a kind that is not built in.
 */
export class CustomResourceSchemas {
  /**
   * Reads every `apiextensions.k8s.io/v1` CustomResourceDefinition among the manifests; the first of a group and kind wins.
   *
   * @param manifests the composition's manifests
   */
  public static fromManifests(manifests: Iterable<unknown>): CustomResourceSchemas {
    const crds = new Map<string, CrdSchemas>();
    const groups = new Map<string, CrdNames[]>();
    for (const m of manifests) {
      if (!isObject(m) || m.kind !== 'CustomResourceDefinition' || m.apiVersion !== 'apiextensions.k8s.io/v1' || !isObject(m.spec)) continue;
      const group = m.spec.group;
      const kind = isObject(m.spec.names) ? m.spec.names.kind : undefined;
      if (typeof group !== 'string' || typeof kind !== 'string' || crds.has(groupKind(group, kind))) continue;
      const versions = new Map<string, CrdVersionSchema>();
      for (const v of Array.isArray(m.spec.versions) ? m.spec.versions : []) {
        if (!isObject(v) || typeof v.name !== 'string') continue;
        const schema = isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
        const statusSubresource = isObject(v.subresources) && v.subresources.status !== undefined;
        versions.set(v.name, { served: v.served === true, schema, statusSubresource });
      }
      const name = String(isObject(m.metadata) ? m.metadata.name ?? '' : '');
      crds.set(groupKind(group, kind), { name, versions });
      const names = m.spec.names;
      const others = [names.plural, names.singular, ...(Array.isArray(names.shortNames) ? names.shortNames : [])].filter((n): n is string => typeof n === 'string' && n !== '');
      groups.set(group, [...groups.get(group) ?? [], { kind, crd: name, others }]);
    }
    return new CustomResourceSchemas(crds, groups);
  }

  private constructor(private readonly crds: ReadonlyMap<string, CrdSchemas>, private readonly groups: ReadonlyMap<string, readonly CrdNames[]>) {}

  /**
   * Whether a custom resource of `group` names a kind that no CRD of the composition defines while some CRD of
   * the composition defines kinds of its group (`kind: Widgte` beside the CRD of `acme.io/Widget`): the API
   * server has no such resource, and kubectl refuses the apply (`no matches for kind "Widgte" in version
   * "acme.io/v1"`). The kind it most likely means is the one whose kind, plural, singular or short name it is but
   * for letter case (`widget`, `Widgets`), else the nearest kind (`nearMiss`). The caller leaves out built-in
   * kinds and kinds declared to come from a CRD outside the composition.
   *
   * @returns undefined when a CRD of the composition defines the kind, or none defines a kind of the group
   */
  public unknownKind(group: string, kind: string): UnknownCustomKind | undefined {
    const names = this.groups.get(group);
    if (!names || this.crds.has(groupKind(group, kind))) return undefined;
    const lower = kind.toLowerCase();
    const kinds = names.map((n) => n.kind).sort();
    const alias = names.find((n) => n.kind.toLowerCase() === lower || n.others.some((o) => o.toLowerCase() === lower));
    if (alias) return { kinds, meant: alias.kind, crd: alias.crd, alias: true };
    const near = nearMiss(kind, kinds);
    const meant = names.find((n) => n.kind === near);
    return meant ? { kinds, meant: meant.kind, crd: meant.crd, alias: false } : { kinds };
  }

  /**
   * Validates a custom resource against the schema of the version its `apiVersion` names, as the API server does
   * on a create or an update after pruning nulls and defaulting: unknown fields (refused by strict field
   * validation), types (nullable, int-or-string), `required` (a field with a `default` is filled in), `enum`,
   * `maxLength`, `minLength`, `pattern`, `maximum`, `minimum` (and their exclusive forms), `maxItems`, `minItems`,
   * `maxProperties`, `minProperties`. Not judged: CEL rules (`x-kubernetes-validations`), `format`, `multipleOf`,
   * the unknown fields under `x-kubernetes-preserve-unknown-fields` or a node without a `type`, the root's (and an
   * embedded resource's) `apiVersion`, `kind` and `metadata`, a root `status` that a status subresource resets,
   * aws-cdk token text and number tokens, NaN and the infinities.
   *
   * @returns undefined when no CRD of the composition defines the kind
   */
  public validate(group: string, kind: string, manifest: unknown): CustomResourceValidation | undefined {
    const crd = this.crds.get(groupKind(group, kind));
    if (!crd || !isObject(manifest) || typeof manifest.apiVersion !== 'string' || apiGroup(manifest.apiVersion) !== group) return undefined;
    const version = manifest.apiVersion.slice(manifest.apiVersion.lastIndexOf('/') + 1);
    const entry = crd.versions.get(version);
    if (!entry?.served) {
      const served = [...crd.versions].filter(([, v]) => v.served).map(([name]) => name);
      return { crd: crd.name, unserved: { version, served }, problems: [] };
    }
    const problems: CustomResourceProblem[] = [];
    if (isObject(entry.schema)) walkValue({ problems, at: [], status: entry.statusSubresource, root: manifest }, entry.schema, manifest, true);
    return { crd: crd.name, problems };
  }
}

/** aws-cdk token text in a string, which the boundary rule reports. */
const TOKEN_TEXT = /[$#]\{Token\[/;

interface Walk {
  readonly problems: CustomResourceProblem[];
  /** The keys from the root to the value in hand. */
  readonly at: string[];
  /** True when the root's `status` is reset by a status subresource. */
  readonly status: boolean;
  /** The manifest, for path texts. */
  readonly root: unknown;
}

/** The path as kube-openapi names it: fields joined by dots, list indexes in brackets (`spec.rules[0].host`). */
function pathText(at: readonly string[], value: unknown): string {
  let text = '';
  let node = value;
  for (const s of at) {
    if (Array.isArray(node)) {
      text += `[${s}]`;
      node = node[Number(s)];
    } else {
      text += text ? `.${s}` : s;
      node = isObject(node) ? node[s] : undefined;
    }
  }
  return text;
}

/** The JSON type kube-openapi gives a decoded value: a JSON number without a fraction is an `integer` (an int64). */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** A value as apimachinery's field error prints it: a string quoted (`%q`), a number or a boolean as is (`%v`), else JSON. */
export function goValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? 'null';
}

/** A number as Go's `%v` prints a float64 (`1e-07`, `1e+21`) or an int64. */
function goNumber(n: number): string {
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Whether a value of JSON type `given` fits a schema `type` (kube-openapi's type validator: an integer is a number too). */
function fitsType(type: string, given: string): boolean {
  return type === given || (type === 'number' && given === 'integer');
}

function push(walk: Walk, p: Omit<CustomResourceProblem, 'at' | 'apiServerError'> & Record<string, unknown>, error: (path: string) => string): void {
  const at = [...walk.at];
  walk.problems.push({ ...p, at, apiServerError: error(pathText(at, walk.root)) } as CustomResourceProblem);
}

function walkValue(walk: Walk, schema: Record<string, any>, value: unknown, resource: boolean): void {
  // a null is pruned unless nullable (apiextensions-apiserver's PruneNonNullableNullsWithoutDefaults, before validation), and fits a nullable field
  if (value === null || value === undefined) return;
  if (typeof value === 'string' && TOKEN_TEXT.test(value)) return;
  if (typeof value === 'number' && (!Number.isFinite(value) || Math.abs(value) > 1e288)) return;
  const given = jsonType(value);
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  const wrongType = intOrString ? given !== 'integer' && given !== 'string' : type !== undefined && !fitsType(type, given);
  if (wrongType) {
    const expected = intOrString ? 'integer,string' : type!;
    const pattern = typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {};
    // apiextensions-apiserver: InvalidTypeCode becomes field.TypeInvalid(path, <the value's type>, err.Error())
    push(walk, { problem: 'type', expected, given, value, ...pattern }, (p) => `${p}: Invalid value: "${given}": ${p} in body must be of type ${expected}: "${given}"`);
  }
  // the type's validator and the enum's run apart: a value of another type outside the enum gets both errors
  if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => sameJson(e, value))) {
    const allowed = schema.enum.map((e: unknown) => (typeof e === 'string' ? e : JSON.stringify(e)));
    // EnumFailCode becomes field.NotSupported(path, value, values): each value strconv.Quote'd
    push(walk, { problem: 'enum', value, allowed }, (p) => `${p}: Unsupported value: ${goValue(value)}: supported values: ${allowed.map((a: string) => JSON.stringify(a)).join(', ')}`);
  }
  if (wrongType) return;
  if (typeof value === 'string') walkString(walk, schema, value);
  else if (typeof value === 'number') walkNumber(walk, schema, value);
  else if (Array.isArray(value)) walkArray(walk, schema, value);
  else if (isObject(value)) walkObject(walk, schema, value, resource || schema['x-kubernetes-embedded-resource'] === true);
}

function walkString(walk: Walk, schema: Record<string, any>, value: string): void {
  // kube-openapi counts characters (utf8.RuneCountInString), as a string's code points
  const length = typeof schema.maxLength === 'number' || typeof schema.minLength === 'number' ? [...value].length : 0;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    const max = schema.maxLength;
    // TooLongFailCode becomes field.TooLong(path, "", max): the value is left out
    limit(walk, 'maxLength', value, `should be at most ${max} chars long`, (p) => `${p}: Too long: may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`);
  }
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    invalid(walk, 'minLength', value, `should be at least ${schema.minLength} chars long`);
  }
  if (typeof schema.pattern === 'string') {
    const re = regExp(schema.pattern);
    if (re && !re.test(value)) invalid(walk, 'pattern', value, `should match '${schema.pattern}'`);
  }
}

function walkNumber(walk: Walk, schema: Record<string, any>, value: number): void {
  if (typeof schema.maximum === 'number') {
    const exclusive = schema.exclusiveMaximum === true;
    if (exclusive ? value >= schema.maximum : value > schema.maximum) {
      invalid(walk, 'maximum', value, `should be less than ${exclusive ? '' : 'or equal to '}${goNumber(schema.maximum)}`);
    }
  }
  if (typeof schema.minimum === 'number') {
    const exclusive = schema.exclusiveMinimum === true;
    if (exclusive ? value <= schema.minimum : value < schema.minimum) {
      invalid(walk, 'minimum', value, `should be greater than ${exclusive ? '' : 'or equal to '}${goNumber(schema.minimum)}`);
    }
  }
}

function walkArray(walk: Walk, schema: Record<string, any>, value: unknown[]): void {
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    const max = schema.maxItems;
    // MaxItemsFailCode becomes field.TooMany(path, actual, max)
    limit(walk, 'maxItems', value, `should have at most ${max} items`, (p) => `${p}: Too many: ${value.length}: must have at most ${max} ${max === 1 ? 'item' : 'items'}`);
  }
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    limit(walk, 'minItems', value, `should have at least ${schema.minItems} items`, (p) => `${p}: Invalid value: ${value.length}: ${p} in body should have at least ${schema.minItems} items`);
  }
  if (!isObject(schema.items)) return;
  for (let i = 0; i < value.length; i++) {
    walk.at.push(String(i));
    walkValue(walk, schema.items, value[i], false);
    walk.at.pop();
  }
}

function walkObject(walk: Walk, schema: Record<string, any>, value: Record<string, unknown>, resource: boolean): void {
  const properties: Record<string, any> = isObject(schema.properties) ? schema.properties : {};
  const size = Object.keys(value).length;
  if (typeof schema.maxProperties === 'number' && size > schema.maxProperties) {
    const max = schema.maxProperties;
    // TooManyPropertiesCode becomes field.TooMany(path, actual, max)
    limit(walk, 'maxProperties', value, `should have at most ${max} properties`, (p) => `${p}: Too many: ${size}: must have at most ${max} ${max === 1 ? 'item' : 'items'}`);
  }
  if (typeof schema.minProperties === 'number' && size < schema.minProperties) {
    limit(walk, 'minProperties', value, `should have at least ${schema.minProperties} properties`, (p) => `${p}: Invalid value: ${size}: ${p} in body should have at least ${schema.minProperties} properties`);
  }
  const skipped = (name: string) => (resource && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) || (walk.at.length === 0 && walk.status && name === 'status');
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name !== 'string' || skipped(name)) continue;
    const property = properties[name];
    const present = value[name] !== undefined && (value[name] !== null || (isObject(property) && property.nullable === true));
    if (present || (isObject(property) && property.default !== undefined)) continue;
    walk.at.push(name);
    // RequiredFailCode becomes field.Required(path, "")
    push(walk, { problem: 'required' }, (p) => `${p}: Required value`);
    walk.at.pop();
  }
  const open = schema['x-kubernetes-preserve-unknown-fields'] === true || schema.type === undefined || schema.additionalProperties === true;
  for (const name of Object.keys(value)) {
    if (skipped(name)) continue;
    const declared = Object.hasOwn(properties, name);
    const child = declared ? properties[name] : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
    walk.at.push(name);
    if (isObject(child)) {
      walkValue(walk, child, value[name], false);
    } else if (!open && !declared && value[name] !== null && value[name] !== undefined) {
      walk.problems.push({ problem: 'unknown', at: [...walk.at], known: Object.keys(properties).sort() });
    }
    walk.at.pop();
  }
}

/** A problem of a limit whose API server error is field.Invalid(path, value, kube-openapi's message). */
function invalid(walk: Walk, keyword: CustomLimitProblem['keyword'], value: unknown, expected: string): void {
  limit(walk, keyword, value, expected, (p) => `${p}: Invalid value: ${goValue(value)}: ${p} in body ${expected}`);
}

function limit(walk: Walk, keyword: CustomLimitProblem['keyword'], value: unknown, expected: string, error: (path: string) => string): void {
  push(walk, { problem: 'limit', keyword, value, expected }, error);
}

/**
 * Whether `text` matches a schema's `pattern` (an unanchored search, as Go's `regexp.MatchString`), or undefined
 * when JavaScript cannot read the pattern.
 */
export function matchesPattern(pattern: string, text: string): boolean | undefined {
  return regExp(pattern)?.test(text);
}

const patterns = new Map<string, RegExp | undefined>();

/** A schema's `pattern` (Go's RE2 syntax, which JavaScript reads alike for the patterns a CRD can hold), or undefined when JavaScript cannot read it. */
function regExp(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined;
    }
    patterns.set(pattern, re);
  }
  return patterns.get(pattern);
}

/** Whether two JSON values are equal, as kube-openapi compares an `enum` value. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as any)[k], (b as any)[k]));
}

function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
