/**
 * Writes `src/collect/topology/k8s-1.30.generated.ts`: the field topology of
 * the built-in Kubernetes kinds, as server-side apply sees it, in the compact
 * form `field-topology.ts` reads (`TopologyData`).
 *
 * Input: the structured-merge-diff (SMD) schema that client-go's apply
 * configurations carry, at `$K8S_SMD_SCHEMA` (default
 * `vendor/k8s-schema/k8s-1.30.smd-schema.yaml`, relative to the repository
 * root). Run it with `npx projen topology`.
 *
 * What is kept is exactly what decides ownership:
 * - struct fields whose type is not a plain scalar, with their type;
 * - the names of the plain-scalar fields, as one string (so a known scalar is
 *   told apart from an unknown field, which is deduced), and of those that are
 *   not strings by their scalar kind (`numbers`, `booleans`, `untyped`: an
 *   int-or-string, a quantity, a time), as is the kind of the scalar values
 *   of a map and elements of a list (`scalar`), for the check of scalar types;
 * - which scalar fields (`quantities`) and map values (`quantityValues`) are
 *   resource quantities, for the check of their format;
 * - map and list relationships (atomic, set, associative with keys), the
 *   defaults of list keys (`protocol: TCP`), atomic structs, and per-use
 *   overrides of a named type's relationship;
 * - named type references, only for types reachable from an indexed kind.
 *
 * Dropped: unions (they drive field clearing, not ownership), defaults of
 * non-key fields, and every type that no
 * indexed kind reaches (older API versions of a kind that has a newer one).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import type { TopologyData } from '../src/collect/topology/field-topology';

/** Where the SMD schema came from, as `vendor/k8s-schema/README.md` records it. */
export const PROVENANCE =
  'kubernetes/client-go v0.30.14, applyconfigurations/internal/internal.go (the YAML of `schemaYAML`), ' +
  'generated upstream by applyconfiguration-gen from the Kubernetes 1.30 OpenAPI';

/** Where the integer formats came from (the SMD schema says `numeric` for an integer and a fraction alike). */
export const INTEGER_PROVENANCE =
  'kubernetes-models (npm, devDependency), whose validators are generated from the Kubernetes OpenAPI: ' +
  'the `type: integer` and `format: int32`/`int64` of each numeric field';

/** The repository's root folder. */
const ROOT = path.resolve(__dirname, '..');

/** The generated file, relative to the repository root. */
export const OUTPUT = 'src/collect/topology/k8s-1.30.generated.ts';

/** The schema file: `$K8S_SMD_SCHEMA`, else the vendored copy. */
export function schemaPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(ROOT, env.K8S_SMD_SCHEMA ?? 'vendor/k8s-schema/k8s-1.30.smd-schema.yaml');
}

/**
 * API groups by the OpenAPI name prefix of their Go package
 * (`io.k8s.api.<package>.<version>.<Kind>`); each group is the package's
 * `GroupName` in k8s.io/api (`register.go`). Packages absent from the 1.30
 * schema (apiextensions, kube-aggregator) are listed so that a schema which
 * has them gets them indexed.
 */
export const API_GROUPS: Readonly<Record<string, string>> = {
  'io.k8s.api.admissionregistration': 'admissionregistration.k8s.io',
  'io.k8s.api.apiserverinternal': 'internal.apiserver.k8s.io',
  'io.k8s.api.apps': 'apps',
  'io.k8s.api.authentication': 'authentication.k8s.io',
  'io.k8s.api.authorization': 'authorization.k8s.io',
  'io.k8s.api.autoscaling': 'autoscaling',
  'io.k8s.api.batch': 'batch',
  'io.k8s.api.certificates': 'certificates.k8s.io',
  'io.k8s.api.coordination': 'coordination.k8s.io',
  'io.k8s.api.core': '',
  'io.k8s.api.discovery': 'discovery.k8s.io',
  'io.k8s.api.events': 'events.k8s.io',
  'io.k8s.api.extensions': 'extensions',
  'io.k8s.api.flowcontrol': 'flowcontrol.apiserver.k8s.io',
  'io.k8s.api.imagepolicy': 'imagepolicy.k8s.io',
  'io.k8s.api.networking': 'networking.k8s.io',
  'io.k8s.api.node': 'node.k8s.io',
  'io.k8s.api.policy': 'policy',
  'io.k8s.api.rbac': 'rbac.authorization.k8s.io',
  'io.k8s.api.resource': 'resource.k8s.io',
  'io.k8s.api.scheduling': 'scheduling.k8s.io',
  'io.k8s.api.storage': 'storage.k8s.io',
  'io.k8s.api.storagemigration': 'storagemigration.k8s.io',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions': 'apiextensions.k8s.io',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration': 'apiregistration.k8s.io',
};

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
/** The type of a resource quantity (`500m`, `1Gi`), which the API server parses (`resource.ParseQuantity`). */
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
/** An int-or-string (`targetPort`, `maxSurge`): a string, or a number the API server decodes into an int32. */
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const UNTYPED_ATOMIC = '__untyped_atomic_';
const UNTYPED_DEDUCED = '__untyped_deduced_';

/** The group, version and kind an OpenAPI type name stands for, or undefined when its package has no group here. */
export function kindOfTypeName(name: string): { group: string; version: string; kind: string } | undefined {
  const parts = name.split('.');
  if (parts.length < 3) return undefined;
  const group = API_GROUPS[parts.slice(0, -2).join('.')];
  if (group === undefined) return undefined;
  return { group, version: parts[parts.length - 2], kind: parts[parts.length - 1] };
}

/**
 * Orders Kubernetes API versions as the API server does (newest first): GA
 * before beta before alpha, then the higher major, then the higher
 * pre-release number (`v2`, `v1`, `v1beta2`, `v1beta1`, `v1alpha1`).
 *
 * @returns a negative number when `a` is newer than `b`
 */
export function compareApiVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [-1, 0, 0];
    return [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- The SMD schema as YAML gives it (sigs.k8s.io/structured-merge-diff/v4 schema/elements.go) ---

interface SmdAtom {
  readonly scalar?: string;
  readonly list?: SmdList;
  readonly map?: SmdMap;
}
interface SmdTypeRef extends SmdAtom {
  readonly namedType?: string;
  /** Overrides the referred type's relationship for this use only. */
  readonly elementRelationship?: string;
}
interface SmdList {
  readonly elementType: SmdTypeRef;
  readonly elementRelationship?: string;
  readonly keys?: readonly string[];
}
interface SmdMap {
  readonly fields?: readonly { readonly name: string; readonly type: SmdTypeRef; readonly default?: unknown }[];
  readonly elementType?: SmdTypeRef;
  readonly elementRelationship?: string;
}
interface SmdTypeDef extends SmdAtom {
  readonly name: string;
}

/** The compact form (mirrors `TypeRef`/`TypeSpec` in field-topology.ts; JSON only). */
type Ref = string | Spec | { readonly type: string; readonly atomic: boolean };
/** A scalar that is not a string, as `TopologyData` names its kind. */
type ScalarKind = 'numeric' | 'boolean' | 'untyped';
type MapOut = {
  fields?: Record<string, Ref>; scalars?: string; numbers?: string; booleans?: string; untyped?: string; quantities?: string;
  int32?: string; int64?: string; intOrString?: string;
  values?: Ref; scalar?: ScalarKind; quantityValues?: true; atomic?: true;
};
type ListOut = { list: Ref; scalar?: ScalarKind; integer?: IntegerFormat; keys?: string[]; keyDefaults?: Record<string, unknown>; set?: true };
type Spec = MapOut | ListOut;

/** The Go integer type of an integer field: the OpenAPI's `format` of a `type: integer`. */
export type IntegerFormat = 'int32' | 'int64';

/** Which numeric fields of the schema's types are integers, as the published OpenAPI types them. */
export interface IntegerFormats {
  /**
   * The format of the numeric value at `path` under the named type `typeName`: `path` is a field name, then
   * `'0'` for a list's element.
   *
   * @returns `int32` or `int64` for an integer; undefined for a number that takes a fraction; null when the
   *   type or the field is not known
   */
  formatOf(typeName: string, path: readonly string[]): IntegerFormat | undefined | null;
}

/** No integer fields known: the SMD schema alone (`numeric` for integers and fractions alike). */
export const NO_INTEGER_FORMATS: IntegerFormats = { formatOf: () => null };

/** Short, readable names: `io.k8s.api.apps.v1.Deployment` is `apps.v1.Deployment`, ObjectMeta `meta.v1.ObjectMeta`. */
function shortName(name: string): string {
  for (const prefix of ['io.k8s.api.', 'io.k8s.apimachinery.pkg.apis.']) {
    if (name.startsWith(prefix)) return name.slice(prefix.length);
  }
  return name;
}

class Converter {
  private readonly byName = new Map<string, SmdTypeDef>();
  /** Named types to emit, by short name, in the order first reached. */
  public readonly emitted = new Map<string, Spec>();
  private readonly shortToLong = new Map<string, string>();

  /** The numeric fields whose integer format `integers` does not know, as `type.field`. */
  public readonly unknownIntegers: string[] = [];

  public constructor(types: readonly SmdTypeDef[], private readonly integers: IntegerFormats = NO_INTEGER_FORMATS) {
    for (const t of types) this.byName.set(t.name, t);
  }

  /** The integer format of a numeric value under a named type, undefined for a number that takes a fraction or one not known. */
  private integerFormat(typeName: string, path: readonly string[]): IntegerFormat | undefined {
    if (!this.byName.has(typeName)) return undefined;
    const format = this.integers.formatOf(typeName, path);
    if (format === null) {
      if (this.integers !== NO_INTEGER_FORMATS) this.unknownIntegers.push(`${typeName}.${path.join('.')}`);
      return undefined;
    }
    return format;
  }

  /** The compact reference for a use of a type, emitting the named types it reaches. */
  public ref(ref: SmdTypeRef, where: string): Ref {
    if (ref.namedType === undefined) return this.atom(ref, where);
    const def = this.def(ref.namedType, where);
    if (isDeduced(def)) return 'deduced';
    if (isUntypedAtomic(def)) return 'atomic';
    if (def.scalar !== undefined && !def.list && !def.map) return 'scalar';
    const name = this.named(ref.namedType);
    if (ref.elementRelationship === undefined) return name;
    if (!def.map && !def.list) throw new Error(`${where}: relationship override on the non-container type ${ref.namedType}`);
    return { type: name, atomic: relationship(ref.elementRelationship, where) === 'atomic' };
  }

  /** Emits a named type (once) and returns its short name. */
  public named(longName: string): string {
    const name = shortName(longName);
    const seen = this.shortToLong.get(name);
    if (seen !== undefined && seen !== longName) throw new Error(`two types shorten to ${name}: ${seen} and ${longName}`);
    if (seen === undefined) {
      this.shortToLong.set(name, longName);
      const placeholder: Spec = {};
      this.emitted.set(name, placeholder); // reserve first: recursive types (JSONSchemaProps) refer to themselves
      this.emitted.set(name, this.atom(this.def(longName, longName), longName) as Spec);
    }
    return name;
  }

  /** The kind of a plain scalar use (`string`, `numeric`, `boolean`, `untyped`), or undefined for any other. */
  public scalarKind(ref: SmdTypeRef, where: string): string | undefined {
    const atom: SmdAtom = ref.namedType === undefined ? ref : this.def(ref.namedType, where);
    return atom.scalar !== undefined && !atom.list && !atom.map ? atom.scalar : undefined;
  }

  private def(name: string, where: string): SmdTypeDef {
    const def = this.byName.get(name);
    if (!def) throw new Error(`${where}: no type named ${name}`);
    return def;
  }

  private atom(atom: SmdAtom, where: string): Ref {
    const members = [atom.scalar !== undefined, atom.list !== undefined, atom.map !== undefined].filter(Boolean).length;
    if (members === 0) throw new Error(`${where}: a type with no scalar, list or map`);
    if (members > 1) {
      if (isDeduced(atom)) return 'deduced';
      if (isUntypedAtomic(atom)) return 'atomic';
      throw new Error(`${where}: a multi-type atom that is neither deduced nor untyped-atomic`);
    }
    if (atom.scalar !== undefined) return 'scalar';
    if (atom.list) return this.list(atom.list, where);
    return this.map(atom.map!, where);
  }

  private list(list: SmdList, where: string): Spec {
    const element = this.ref(list.elementType, `${where}[]`);
    const kind = element === 'scalar' ? nonString(this.scalarKind(list.elementType, where)) : undefined;
    const scalar = kind ? { scalar: kind } : {};
    const rel = relationship(list.elementRelationship, where);
    if (rel === 'atomic') return { list: element, ...scalar };
    if (rel !== 'associative') throw new Error(`${where}: a list whose elements are ${rel}`);
    if (!list.keys || list.keys.length === 0) {
      if (element !== 'scalar') throw new Error(`${where}: a set whose elements are not scalars`);
      return { list: element, ...scalar, set: true };
    }
    const fields = this.structFields(list.elementType, where);
    const keyDefaults: Record<string, unknown> = {};
    for (const key of list.keys) {
      const field = fields.find((f) => f.name === key);
      if (!field) throw new Error(`${where}: list key ${key} is not a field of the element`);
      if (field.default !== undefined) keyDefaults[key] = field.default;
    }
    return Object.keys(keyDefaults).length > 0 ? { list: element, keys: [...list.keys], keyDefaults } : { list: element, keys: [...list.keys] };
  }

  private map(map: SmdMap, where: string): Spec {
    const spec: MapOut = {};
    const fields: Record<string, Ref> = {};
    const scalars: string[] = [];
    const byKind: Record<ScalarKind, string[]> = { numeric: [], boolean: [], untyped: [] };
    const quantities: string[] = [];
    const byFormat: Record<IntegerFormat, string[]> = { int32: [], int64: [] };
    const intOrString: string[] = [];
    for (const f of map.fields ?? []) {
      const r = this.ref(f.type, `${where}.${f.name}`);
      if (r === 'scalar') {
        scalars.push(f.name);
        const kind = nonString(this.scalarKind(f.type, `${where}.${f.name}`));
        if (kind) byKind[kind].push(f.name);
        const format = kind === 'numeric' ? this.integerFormat(where, [f.name]) : undefined;
        if (format) byFormat[format].push(f.name);
        if (f.type.namedType === QUANTITY) quantities.push(f.name);
        if (f.type.namedType === INT_OR_STRING) intOrString.push(f.name);
      } else if (typeof r === 'object' && 'list' in r && r.list === 'scalar' && r.scalar === 'numeric' && f.type.namedType === undefined) {
        // an inline list of numbers (`supplementalGroups`): its elements' integer format, after its scalar kind
        const format = this.integerFormat(where, [f.name, '0']);
        const { list, scalar, ...rest } = r;
        fields[f.name] = format ? { list, scalar, integer: format, ...rest } : r;
      } else {
        fields[f.name] = r;
      }
    }
    if (Object.keys(fields).length > 0) spec.fields = fields;
    if (scalars.length > 0) spec.scalars = scalars.join(' ');
    if (byKind.numeric.length > 0) spec.numbers = byKind.numeric.join(' ');
    if (byKind.boolean.length > 0) spec.booleans = byKind.boolean.join(' ');
    if (byKind.untyped.length > 0) spec.untyped = byKind.untyped.join(' ');
    if (quantities.length > 0) spec.quantities = quantities.join(' ');
    if (byFormat.int32.length > 0) spec.int32 = byFormat.int32.join(' ');
    if (byFormat.int64.length > 0) spec.int64 = byFormat.int64.join(' ');
    if (intOrString.length > 0) spec.intOrString = intOrString.join(' ');
    if (map.elementType) {
      spec.values = this.ref(map.elementType, `${where}{}`);
      const kind = spec.values === 'scalar' ? nonString(this.scalarKind(map.elementType, `${where}{}`)) : undefined;
      if (kind) spec.scalar = kind;
      if (map.elementType.namedType === QUANTITY) spec.quantityValues = true;
    }
    const rel = relationship(map.elementRelationship ?? 'separable', where);
    if (rel === 'associative') throw new Error(`${where}: an associative map`);
    if (rel === 'atomic') spec.atomic = true;
    return spec;
  }

  private structFields(ref: SmdTypeRef, where: string): NonNullable<SmdMap['fields']> {
    const atom = ref.namedType !== undefined ? this.def(ref.namedType, where) : ref;
    if (!atom.map?.fields) throw new Error(`${where}: a keyed list whose elements are not structs`);
    return atom.map.fields;
  }
}

/** A scalar kind other than `string`, as the compact form records it; undefined for a string. */
function nonString(kind: string | undefined): ScalarKind | undefined {
  if (kind === undefined || kind === 'string') return undefined;
  if (kind === 'numeric' || kind === 'boolean' || kind === 'untyped') return kind;
  throw new Error(`a scalar of kind ${JSON.stringify(kind)}`);
}

function relationship(value: string | undefined, where: string): 'atomic' | 'associative' | 'separable' {
  if (value === 'atomic' || value === 'associative' || value === 'separable') return value;
  throw new Error(`${where}: element relationship ${JSON.stringify(value)}`);
}

/** `__untyped_deduced_`'s shape: untyped scalar, atomic list of untyped-atomic, separable map of deduced. */
function isDeduced(a: SmdAtom): boolean {
  return a.scalar === 'untyped'
    && a.list?.elementRelationship === 'atomic' && a.list.elementType.namedType === UNTYPED_ATOMIC
    && (a.map?.elementRelationship ?? 'separable') === 'separable' && a.map?.elementType?.namedType === UNTYPED_DEDUCED
    && !a.map.fields;
}

/** `__untyped_atomic_`'s shape: untyped scalar, atomic list and atomic map of untyped-atomic. */
function isUntypedAtomic(a: SmdAtom): boolean {
  return a.scalar === 'untyped'
    && a.list?.elementRelationship === 'atomic' && a.list.elementType.namedType === UNTYPED_ATOMIC
    && a.map?.elementRelationship === 'atomic' && a.map.elementType?.namedType === UNTYPED_ATOMIC
    && !a.map.fields;
}

/** True for a type that is an object kind: apiVersion, kind and an ObjectMeta `metadata`. */
function isKind(t: SmdTypeDef): boolean {
  const fields = t.map?.fields ?? [];
  const has = (n: string): boolean => fields.some((f) => f.name === n);
  return has('apiVersion') && has('kind') && fields.some((f) => f.name === 'metadata' && f.type.namedType === OBJECT_META);
}

/** An ajv error of the published validators, as far as the probe reads it. */
interface ValidatorError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: { readonly type?: string; readonly format?: string };
}
type Validator = ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };

/**
 * The integer formats of the published OpenAPI, read from kubernetes-models' validators (one module per OpenAPI
 * type, `_schemas/IoK8sApiAppsV1DeploymentSpec.js`; the apimachinery types in `@kubernetes-models/apimachinery`).
 * A field is probed by validating an object that holds only it: `'x'` there must be refused for its type (else the
 * validator does not know the field), and `1.5` is refused as `type: integer` for an integer, with its `format`.
 *
 * @param root the folder whose `node_modules` holds the packages
 */
export function publishedIntegerFormats(root: string = ROOT): IntegerFormats {
  const validators = new Map<string, Validator | undefined>();
  const validatorOf = (typeName: string): Validator | undefined => {
    if (!validators.has(typeName)) {
      const file = `${typeName.split(/[.-]/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('')}.js`;
      const found = ['kubernetes-models', '@kubernetes-models/apimachinery']
        .map((pkg) => path.join(root, 'node_modules', pkg, '_schemas', file))
        .find((f) => fs.existsSync(f));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      validators.set(typeName, found ? (require(found) as { validate: Validator }).validate : undefined);
    }
    return validators.get(typeName);
  };
  const errorsAt = (validate: Validator, p: readonly string[], value: unknown): ValidatorError[] => {
    const data: Record<string, unknown> = {};
    data[p[0]] = p.length > 1 ? [value] : value;
    validate(data);
    return (validate.errors ?? []).filter((e) => e.instancePath === `/${p.join('/')}`);
  };
  return {
    formatOf(typeName, p) {
      const validate = validatorOf(typeName);
      if (!validate || !errorsAt(validate, p, 'x').some((e) => e.keyword === 'type')) return null;
      const errors = errorsAt(validate, p, 1.5);
      if (!errors.some((e) => e.keyword === 'type' && e.params.type === 'integer')) return undefined;
      const format = errors.find((e) => e.keyword === 'format')?.params.format;
      if (format !== 'int32' && format !== 'int64') throw new Error(`${typeName}.${p.join('.')}: an integer of format ${JSON.stringify(format)}`);
      return format;
    },
  };
}

/**
 * The generated TypeScript module for an SMD schema.
 *
 * @param schemaYaml the schema (`types: [...]`)
 * @param integers which numeric fields are integers, and of which format
 * @returns the exact bytes of `k8s-1.30.generated.ts`
 */
export function renderTopology(schemaYaml: string, integers: IntegerFormats = publishedIntegerFormats()): string {
  return render(schemaYaml, integers).text;
}

function render(schemaYaml: string, integers: IntegerFormats): { text: string; unknownIntegers: readonly string[] } {
  const types = (parse(schemaYaml) as { types: SmdTypeDef[] }).types;
  // The newest version of each group and kind.
  const newest = new Map<string, { version: string; name: string }>();
  for (const t of types) {
    const gvk = isKind(t) ? kindOfTypeName(t.name) : undefined;
    if (!gvk) continue;
    const key = `${gvk.group}/${gvk.kind}`;
    const best = newest.get(key);
    if (!best || compareApiVersions(gvk.version, best.version) < 0) newest.set(key, { version: gvk.version, name: t.name });
  }
  const converter = new Converter(types, integers);
  const kinds: Record<string, string> = {};
  for (const key of [...newest.keys()].sort()) kinds[key] = converter.named(newest.get(key)!.name);
  converter.named(OBJECT_META); // reached by every kind already; named here so custom resources can rely on it

  const typeLines = [...converter.emitted.keys()].sort().map((name) => `    ${JSON.stringify(name)}: ${JSON.stringify(converter.emitted.get(name))},`);
  const kindLines = Object.entries(kinds).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  const text = [
    '// Generated by scripts/generate-k8s-topology.ts (`npx projen topology`). Do not edit: regenerate.',
    '//',
    `// Source: ${PROVENANCE}.`,
    `// Integer formats (\`int32\`, \`int64\`): ${INTEGER_PROVENANCE}.`,
    '// Data: Apache-2.0, like the code it was generated for.',
    '//',
    '// `kinds` maps `group/Kind` to the type of its newest API version; `types` holds every type those reach,',
    '// in the compact form of `TopologyData` (field-topology.ts). Scalar fields are named (`scalars`), those that are not',
    '// strings also by kind (`numbers`, `booleans`, `untyped`), and a map\'s scalar values and a list\'s scalar elements by kind (`scalar`).',
    '// Integers are named by their Go type (`int32`, `int64`, a list\'s `integer`), and int-or-strings (`intOrString`).',
    "import type { TopologyData } from './field-topology';",
    '',
    '/** The field topology of the built-in kinds of Kubernetes 1.30, as server-side apply sees it. */',
    'export const K8S_1_30: TopologyData = {',
    '  kinds: {',
    ...kindLines,
    '  },',
    '  types: {',
    ...typeLines,
    '  },',
    '};',
    '',
  ].join('\n');
  return { text, unknownIntegers: converter.unknownIntegers };
}

/**
 * The topology data of one named type of an SMD schema and the types it reaches, in the form of
 * `k8s-1.30.generated.ts`; tests run structured-merge-diff's own cases, on their own schemas, through the
 * ledger with it (`schemaTopology`).
 *
 * @param schemaYaml the schema (`types: [...]`)
 * @param typeName the type of the object
 * @returns the data, its one kind keyed `/<short type name>`
 */
export function topologyDataOf(schemaYaml: string, typeName: string): TopologyData {
  const types = (parse(schemaYaml) as { types: SmdTypeDef[] }).types;
  const converter = new Converter(types);
  const root = converter.named(typeName);
  return { kinds: { [`/${root}`]: root }, types: Object.fromEntries(converter.emitted) as TopologyData['types'] };
}

function main(): void {
  const input = schemaPath();
  if (!fs.existsSync(input)) throw new Error(`no SMD schema at ${input}: set K8S_SMD_SCHEMA to the k8s-1.30.smd-schema.yaml file`);
  const out = path.join(ROOT, OUTPUT);
  const { text, unknownIntegers } = render(fs.readFileSync(input, 'utf8'), publishedIntegerFormats());
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  console.log(`${OUTPUT}: ${Buffer.byteLength(text)} bytes from ${input}`);
  if (unknownIntegers.length > 0) console.log(`numeric fields kubernetes-models does not know (left unchecked as integers): ${unknownIntegers.join(', ')}`);
}

if (require.main === module) main();
