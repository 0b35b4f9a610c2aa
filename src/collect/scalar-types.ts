import { groupKind } from './object-identity';
import type { MapSpec, ScalarKind, TypeRef, TypeSpec } from './topology/field-topology';
import { K8S_1_30 } from './topology/k8s-1.30.generated';
import { parseQuantity } from '../private/quantity';

/** The JSON type a scalar field of a built-in kind takes. */
export type ScalarType = 'string' | 'number' | 'boolean' | 'string or number';

/** The JSON type a field of a built-in kind takes: a scalar's, or a map (an object) or a list (an array). */
export type ShapeType = ScalarType | 'map' | 'list';

/** A value whose JSON type is not the one its field takes: a scalar of another type, a map or a list for a scalar, a scalar or a list for a map, a scalar or a map for a list. */
export interface ScalarTypeProblem {
  /** The keys from the manifest's root to the value (list indexes as digits). */
  readonly at: readonly string[];
  /** The type the field takes. */
  readonly expected: ShapeType;
  /** The value given: a scalar, or a map or a list (`object`). */
  readonly value: string | number | boolean | object;
}

/** A resource quantity the API server cannot parse (`memory: 1Gb`, `cpu: 500 m`). */
export interface QuantityProblem {
  /** The keys from the manifest's root to the value (list indexes as digits). */
  readonly at: readonly string[];
  /** The text given. */
  readonly value: string;
}

/** The Go integer type the API server decodes an integer field into. */
export type IntegerFormat = 'int32' | 'int64';

/**
 * A number in an integer field of a built-in kind that the API server cannot decode into the field's Go integer
 * type: one with a fraction (`replicas: 1.5`), or out of the type's range (`containerPort: 2147483648` in an
 * `int32`, `1e21` anywhere). An int-or-string's number is an `int32` too.
 */
export interface IntegerProblem {
  /** The keys from the manifest's root to the value (list indexes as digits). */
  readonly at: readonly string[];
  /** The number given. */
  readonly value: number;
  /** The Go type of the field (of an int-or-string's number: `int32`). */
  readonly format: IntegerFormat;
  /** True for an int-or-string (`targetPort`, `maxSurge`), which also takes a string. */
  readonly intOrString: boolean;
  /**
   * The API server's decoding error (k8s.io/apimachinery's JSON serializer, sigs.k8s.io/json's decoder):
   * `json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`; an
   * int-or-string's `UnmarshalJSON` decodes its number alone: `json: cannot unmarshal number 1.5 into Go value of type int32`.
   */
  readonly decodeError: string;
}

/**
 * A field of an object of a built-in kind that Kubernetes 1.30's schema does not have where it stands
 * (`spec.replicaz`, a container's `imagePullPolcy`, `metadata.x`): a client-side apply or a create is refused
 * with `strict decoding error: unknown field "spec.replicaz"`, a server-side apply with `.spec.replicaz: field
 * not declared in schema`.
 */
export interface UnknownField {
  /** The keys from the manifest's root to the field (list indexes as digits), the field's own name last. */
  readonly at: readonly string[];
  /** The struct that lacks it: its fields are the names a fix may mean. */
  readonly struct: MapSpec;
}

/** The range of each Go integer type. */
const INTEGER_RANGE: Readonly<Record<IntegerFormat, readonly [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * Whether Go's JSON decoder stores `value` in an integer of `format`: it parses the number's JSON text
 * (`strconv.ParseInt`, base 10), so a fraction or an exponent (`1.5`, `1e+21`) fails, and a value out of the
 * type's range overflows. The JSON text of a number is JavaScript's (`JSON.stringify`): YAML carries it as is and
 * Go's encoder writes the same shortest form.
 */
export function fitsInteger(value: number, format: IntegerFormat): boolean {
  if (Number.isSafeInteger(value)) return format === 'int64' || (value >= -2147483648 && value <= 2147483647);
  const text = JSON.stringify(value);
  if (!/^-?\d+$/.test(text)) return false;
  const n = BigInt(text);
  return n >= INTEGER_RANGE[format][0] && n <= INTEGER_RANGE[format][1];
}

/** aws-cdk token text in a string, which the boundary rule reports. */
const TOKEN_TEXT = /[$#]\{Token\[/;

/** The root `metadata` fields the validity rule of names and labels checks already, types included. */
const CHECKED_METADATA: ReadonlySet<string> = new Set(['name', 'namespace', 'labels', 'annotations']);

/** A map spec's scalar fields by kind, made once per spec. */
interface ScalarFields {
  readonly all: ReadonlySet<string>;
  readonly kinds: ReadonlyMap<string, ScalarKind>;
  /** Those that are resource quantities. */
  readonly quantities: ReadonlySet<string>;
  /** Those that are integers, by Go type (`int-or-string` for an int-or-string, whose number is an `int32`). */
  readonly integers: ReadonlyMap<string, IntegerKind>;
}

/** An integer field's Go type, or an int-or-string's. */
type IntegerKind = IntegerFormat | 'int-or-string';

const scalarFields = new WeakMap<MapSpec, ScalarFields>();

/**
 * The scalar leaves of an object of a built-in kind whose JSON type is not
 * the one Kubernetes 1.30's schema gives the field: a number field (`replicas`,
 * `containerPort`) given a string or a boolean, a string field (a ConfigMap's
 * `data` value, an `image`, an env var's `value`) given a number or a boolean,
 * a boolean field given a string or a number. The API server refuses each.
 * Fields that take more than one type (an int-or-string such as `targetPort`
 * or `maxSurge`, a quantity such as `resources.limits.cpu`, a time) take a
 * string or a number: only a boolean there is a problem. Not checked: a field the schema does not know, a null, aws-cdk token text
 * and number tokens (the boundary rule's), and the root `metadata.name`,
 * `namespace`, `labels` and `annotations` (the validity rule's).
 *
 * One walk of the manifest along the schema; paths are copied only for a problem.
 *
 * @returns the problems in the manifest's key order; none for a kind that is not built in
 */
export function scalarTypeProblems(group: string, kind: string, manifest: unknown): ScalarTypeProblem[] {
  return walked(group, kind, manifest).found;
}

/**
 * The resource quantities of an object of a built-in kind (a container's `resources.limits` and `requests`, an
 * `emptyDir.sizeLimit`, a PVC's `resources.requests.storage`, a ResourceQuota's `hard`, ...: every field Kubernetes
 * 1.30's schema types `Quantity`) that the API server cannot parse (`parseQuantity`): `1Gb`, `500 m`, `2 cores`.
 * Numbers are quantities; tokens are the boundary rule's. Found in the walk `scalarTypeProblems` makes (one walk
 * for both, kept per manifest).
 *
 * @returns the problems in the manifest's key order; none for a kind that is not built in
 */
export function quantityProblems(group: string, kind: string, manifest: unknown): QuantityProblem[] {
  return walked(group, kind, manifest).quantities;
}

/**
 * The numbers in integer fields of an object of a built-in kind (Kubernetes 1.30's OpenAPI `type: integer`:
 * `replicas`, `containerPort`, `terminationGracePeriodSeconds`, a `supplementalGroups` element, an int-or-string's
 * number) that the API server cannot decode into the field's Go integer type (`fitsInteger`): a fraction, or a
 * value out of range. Number tokens are the boundary rule's; NaN and the infinities the JSON-values rule's. Found
 * in the walk `scalarTypeProblems` makes.
 *
 * @returns the problems in the manifest's key order; none for a kind that is not built in
 */
export function integerProblems(group: string, kind: string, manifest: unknown): IntegerProblem[] {
  return walked(group, kind, manifest).integers;
}

/**
 * The fields of an object of a built-in kind that Kubernetes 1.30's schema does not have (`UnknownField`): a key
 * of a struct that is neither one of its fields nor a key of a map. Not judged: what lies below an untyped or
 * deduced field (a `RawExtension`), a field whose value is null, and the schema's other versions (the caller
 * compares the object's `apiVersion` with `builtInVersion`). Found in the walk `scalarTypeProblems` makes.
 *
 * @returns the fields in the manifest's key order; none for a kind that is not built in
 */
export function unknownFields(group: string, kind: string, manifest: unknown): UnknownField[] {
  return walked(group, kind, manifest).unknown;
}

/**
 * The fields of a custom resource's root `metadata` that ObjectMeta does not have (`metadata.x` from
 * `metadata.add('x', 'y')`): the API server reads a custom resource's `metadata` as ObjectMeta, whatever its CRD
 * says, and refuses them as it refuses a built-in kind's. The fields the validity rule of names and labels checks
 * are left out, as for a built-in kind. A walk of the `metadata` alone.
 *
 * @returns the fields in the manifest's key order; none when the manifest has no `metadata` map
 */
export function customResourceMetadataFields(manifest: unknown): UnknownField[] {
  return customResourceMetadataProblems(manifest).unknown;
}

/**
 * What the API server refuses in a custom resource's root `metadata`, read as ObjectMeta in the walk a built-in
 * kind's `metadata` gets: the fields ObjectMeta does not have (`customResourceMetadataFields`), and values of
 * another type than ObjectMeta's (`finalizers: 'x'` for a list, `generateName: 3` for a string; as
 * `scalarTypeProblems` finds them). The fields the validity rule of names and labels checks are left out.
 *
 * @returns the problems in the manifest's key order; none when the manifest has no `metadata` map
 */
export function customResourceMetadataProblems(manifest: unknown): { readonly unknown: UnknownField[]; readonly types: ScalarTypeProblem[] } {
  if (!isMap(manifest) || !isMap(manifest.metadata)) return { unknown: [], types: [] };
  const walk: Walk = { root: '', found: [], quantities: [], integers: [], unknown: [], at: ['metadata'] };
  walkMetadata(walk, manifest.metadata);
  return { unknown: walk.unknown, types: walk.found };
}

/**
 * The API version whose schema the walks read for a built-in kind (`v1` for `apps/Deployment`, `v2` for
 * `autoscaling/HorizontalPodAutoscaler`), or undefined for a kind that is not built in.
 */
export function builtInVersion(group: string, kind: string): string | undefined {
  const key = groupKind(group, kind);
  return Object.hasOwn(K8S_1_30.kinds, key) ? K8S_1_30.kinds[key].split('.').slice(-2)[0] : undefined;
}

/** True for a kind Kubernetes 1.30 has built in (whose schema the walks of this module read). */
export function isBuiltInKind(group: string, kind: string): boolean {
  return Object.hasOwn(K8S_1_30.kinds, groupKind(group, kind));
}

/**
 * Each manifest's walk, with the type of the kind it walked the manifest as (`Walk.root`): the rules of scalar types
 * and of quantities read one walk, each in its turn.
 */
const walks = new WeakMap<object, Walk>();
/** The walk of a manifest that is not of a built-in kind, shared (its lists are never added to). */
const NONE: Walk = { root: '', found: [], quantities: [], integers: [], unknown: [], at: [] };
/** The walk of a manifest without problems, one shared per kind's type (its lists are never added to once a walk ends). */
const CLEAN = new Map<string, Walk>();
/** The walk in progress, reused: a manifest with problems keeps a copy of its lists. */
const SCRATCH: Walk = { root: '', found: [], quantities: [], integers: [], unknown: [], at: [] };

function walked(group: string, kind: string, manifest: unknown): Walk {
  const key = groupKind(group, kind);
  if (!Object.hasOwn(K8S_1_30.kinds, key) || !isMap(manifest)) return NONE;
  const root = K8S_1_30.kinds[key];
  const kept = walks.get(manifest);
  if (kept?.root === root) return kept;
  const walk = SCRATCH;
  walk.root = root;
  // emptied at the start, not the end: a walk that threw (a getter of the manifest's) may have left its lists full
  if (walk.found.length > 0) walk.found.length = 0;
  if (walk.quantities.length > 0) walk.quantities.length = 0;
  if (walk.integers.length > 0) walk.integers.length = 0;
  if (walk.unknown.length > 0) walk.unknown.length = 0;
  if (walk.at.length > 0) walk.at.length = 0;
  walkRef(walk, root, manifest, undefined, false);
  // nearly every manifest is clean: one shared record of that, not five arrays kept per manifest
  let stored: Walk;
  const none = walk.found.length === 0 && walk.quantities.length === 0 && walk.integers.length === 0 && walk.unknown.length === 0;
  if (none) {
    let clean = CLEAN.get(root);
    if (!clean) CLEAN.set(root, clean = { root, found: [], quantities: [], integers: [], unknown: [], at: [] });
    stored = clean;
  } else {
    stored = {
      root, found: walk.found.slice(), quantities: walk.quantities.slice(), integers: walk.integers.slice(), unknown: walk.unknown.slice(), at: [],
    };
  }
  walks.set(manifest, stored);
  return stored;
}

/** Where a walk is: the keys from the root to the value in hand, and the problems found so far. */
interface Walk {
  /** The type of the manifest's kind. */
  root: string;
  readonly found: ScalarTypeProblem[];
  readonly quantities: QuantityProblem[];
  readonly integers: IntegerProblem[];
  readonly unknown: UnknownField[];
  readonly at: string[];
}

/** Checks a number in an integer field: it must fit the field's Go integer type. */
function checkInteger(walk: Walk, integer: IntegerKind, v: unknown): void {
  // an aws-cdk number token renders as about -1.888e+289; NaN and the infinities are the JSON-values rule's
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e288) return;
  const format = integer === 'int-or-string' ? 'int32' : integer;
  if (fitsInteger(v, format)) return;
  const at = [...walk.at];
  const number = `number ${JSON.stringify(v)}`;
  const decodeError = integer === 'int-or-string'
    ? `json: cannot unmarshal ${number} into Go value of type ${format}`
    : `json: cannot unmarshal ${number} into Go struct field ${goField(walk.root, at)} of type ${format}`;
  walk.integers.push({ at, value: v, format, intOrString: integer === 'int-or-string', decodeError });
}

/**
 * The struct field Go's JSON decoder names in an error at `at`: the Go struct that holds the last field, then the
 * JSON names of the struct fields from the root (`DeploymentSpec.spec.replicas`); list indexes and map keys are
 * not in it (encoding/json's `errorContext`).
 */
function goField(root: string, at: readonly string[]): string {
  let ref: TypeRef = root;
  let named = root;
  let struct = '';
  const fields: string[] = [];
  for (const segment of at) {
    if (typeof ref === 'string' && Object.hasOwn(K8S_1_30.types, ref)) named = ref;
    else if (typeof ref === 'object' && 'type' in ref) named = ref.type;
    const spec: TypeSpec | undefined = typeof ref === 'string' ? K8S_1_30.types[ref] : 'type' in ref ? K8S_1_30.types[ref.type] : ref;
    if (!spec) break;
    if ('list' in spec) {
      ref = spec.list;
    } else if (spec.fields && Object.hasOwn(spec.fields, segment)) {
      [struct, ref] = [named, spec.fields[segment]];
      fields.push(segment);
    } else if (spec.scalars?.split(' ').includes(segment)) {
      [struct, ref] = [named, 'scalar'];
      fields.push(segment);
    } else if (spec.values !== undefined) {
      ref = spec.values;
    } else {
      break;
    }
  }
  return `${struct.slice(struct.lastIndexOf('.') + 1)}.${fields.join('.')}`;
}

/**
 * Checks one scalar leaf of the scalar kind its field takes: a map or a list there is refused too; and the text of
 * a quantity.
 */
function checkScalar(walk: Walk, scalarKind: ScalarKind | undefined, v: unknown, quantity: boolean): void {
  if (v === null) return;
  if (quantity && typeof v === 'string' && !TOKEN_TEXT.test(v) && parseQuantity(v) === undefined) walk.quantities.push({ at: [...walk.at], value: v });
  const expected: ScalarType = scalarKind === 'numeric' ? 'number' : scalarKind === 'boolean' ? 'boolean' : scalarKind === 'untyped' ? 'string or number' : 'string';
  if (typeof v === 'object') return void walk.found.push({ at: [...walk.at], expected, value: v });
  // an int-or-string, a quantity or a time takes a string (and the first two a number), never a boolean
  if (scalarKind === 'untyped' && typeof v !== 'boolean') return;
  if (typeof v === expected) return;
  if (typeof v === 'string' && TOKEN_TEXT.test(v)) return;
  // an aws-cdk number token renders as about -1.888e+289
  if (typeof v === 'number' && Math.abs(v) > 1e288) return;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') walk.found.push({ at: [...walk.at], expected, value: v });
}

/** Walks `v` along the schema type `ref`; `scalarKind` is the kind of a scalar list element or map value. */
function walkRef(walk: Walk, ref: TypeRef, v: unknown, scalarKind: ScalarKind | undefined, quantity: boolean): void {
  if (v === null || v === undefined || ref === 'deduced' || ref === 'atomic') return;
  if (ref === 'scalar') return checkScalar(walk, scalarKind, v, quantity);
  const spec: TypeSpec | undefined = typeof ref === 'string' ? K8S_1_30.types[ref] : 'type' in ref ? K8S_1_30.types[ref.type] : ref;
  if (!spec) return;
  if ('list' in spec) {
    if (!Array.isArray(v)) return notShaped(walk, 'list', v);
    for (let i = 0; i < v.length; i++) {
      walk.at.push(String(i));
      walkRef(walk, spec.list, v[i], spec.scalar, false);
      if (spec.integer !== undefined) checkInteger(walk, spec.integer, v[i]);
      walk.at.pop();
    }
    return;
  }
  if (!isMap(v)) return notShaped(walk, 'map', v);
  const scalars = scalarFieldsOf(spec);
  const root = walk.at.length === 0;
  for (const name in v) {
    if (!Object.hasOwn(v, name)) continue;
    const child = v[name];
    if (child === null || child === undefined) continue;
    if (spec.fields && Object.hasOwn(spec.fields, name)) {
      walk.at.push(name);
      if (!(root && name === 'metadata')) walkRef(walk, spec.fields[name], child, undefined, false);
      else if (isMap(child)) walkMetadata(walk, child);
      walk.at.pop();
    } else if (scalars.all.has(name)) {
      const kind = scalars.kinds.get(name);
      const isQuantity = scalars.quantities.has(name);
      // a string in a string field that is no quantity, the most common leaf, is right as it is (`checkScalar`)
      if (kind === undefined && !isQuantity && typeof child === 'string') continue;
      walk.at.push(name);
      checkScalar(walk, kind, child, isQuantity);
      // only a number or an int-or-string can be an integer: a string field skips the lookup
      if (kind === 'numeric' || kind === 'untyped') {
        const integer = scalars.integers.get(name);
        if (integer !== undefined) checkInteger(walk, integer, child);
      }
      walk.at.pop();
    } else if (spec.values !== undefined) {
      // the same for a map of strings (labels, a ConfigMap's data)
      if (spec.values === 'scalar' && spec.scalar === undefined && spec.quantityValues !== true && typeof child === 'string') continue;
      walk.at.push(name);
      walkRef(walk, spec.values, child, spec.scalar, spec.quantityValues === true);
      walk.at.pop();
    } else {
      walk.unknown.push({ at: [...walk.at, name], struct: spec });
    }
  }
}

/** A map or a list field given another shape: a scalar (tokens left to the boundary rule), or a list for a map and a map for a list. */
function notShaped(walk: Walk, expected: 'map' | 'list', v: unknown): void {
  if (typeof v === 'string' && TOKEN_TEXT.test(v)) return;
  if (typeof v === 'number' && Math.abs(v) > 1e288) return;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (v !== null && typeof v === 'object')) walk.found.push({ at: [...walk.at], expected, value: v });
}

/** The root `metadata`, without the fields the validity rule checks. */
function walkMetadata(walk: Walk, meta: Record<string, unknown>): void {
  const spec = K8S_1_30.types['meta.v1.ObjectMeta'] as MapSpec;
  const scalars = scalarFieldsOf(spec);
  for (const name in meta) {
    if (!Object.hasOwn(meta, name) || CHECKED_METADATA.has(name)) continue;
    walk.at.push(name);
    if (spec.fields && Object.hasOwn(spec.fields, name)) {
      walkRef(walk, spec.fields[name], meta[name], undefined, false);
    } else if (scalars.all.has(name)) {
      checkScalar(walk, scalars.kinds.get(name), meta[name], false);
      const integer = scalars.integers.get(name);
      if (integer !== undefined) checkInteger(walk, integer, meta[name]);
    } else if (meta[name] !== null && meta[name] !== undefined) {
      walk.unknown.push({ at: [...walk.at], struct: spec });
    }
    walk.at.pop();
  }
}

function scalarFieldsOf(spec: MapSpec): ScalarFields {
  let fields = scalarFields.get(spec);
  if (!fields) {
    const kinds = new Map<string, ScalarKind>();
    for (const [kind, names] of [['numeric', spec.numbers], ['boolean', spec.booleans], ['untyped', spec.untyped]] as const) {
      for (const name of names?.split(' ') ?? []) kinds.set(name, kind);
    }
    const integers = new Map<string, IntegerKind>();
    for (const [kind, names] of [['int32', spec.int32], ['int64', spec.int64], ['int-or-string', spec.intOrString]] as const) {
      for (const name of names?.split(' ') ?? []) integers.set(name, kind);
    }
    fields = { all: new Set(spec.scalars?.split(' ') ?? []), kinds, quantities: new Set(spec.quantities?.split(' ') ?? []), integers };
    scalarFields.set(spec, fields);
  }
  return fields;
}

function isMap(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
