import { DEDUCED, FieldTopology, objectMetaTopology, SCALAR, SCHEMALESS_OBJECT, UNTYPED_ATOMIC } from './field-topology';
import { apiGroup, groupKind } from '../object-identity';

/**
 * The field topologies of the custom resources whose CustomResourceDefinitions
 * are in the composition, read from their schema markers the way the API
 * server turns a CRD schema into a structured-merge-diff schema for
 * server-side apply (apiextensions-apiserver's OpenAPI builder, then
 * kube-openapi's `schemaconv`):
 *
 * - `x-kubernetes-list-type`: `atomic` (also the default when absent), `set`,
 *   or `map` keyed by `x-kubernetes-list-map-keys`, with the key properties'
 *   `default`s as key defaults;
 * - `x-kubernetes-map-type`: `atomic` or `granular` (the default);
 * - `properties`, `additionalProperties` (a schema, or `true`: deduced values),
 *   `items`; an object without either has deduced values;
 * - `x-kubernetes-int-or-string`: a scalar;
 * - `x-kubernetes-embedded-resource`: `apiVersion` and `kind` scalars and an
 *   ObjectMeta `metadata`, as the builder adds them;
 * - `x-kubernetes-preserve-unknown-fields`: unknown fields deduced (they are
 *   deduced anyway here); without a `type`, the node is deduced.
 *
 * The root's `metadata` is always ObjectMeta (the builder replaces whatever
 * the CRD says of it). One version's schema is used per kind: the storage
 * version's, else the first served one's, else the first.
 */
export class CrdTopologies {
  /** No CRDs. */
  public static readonly NONE = new CrdTopologies(new Map());

  /**
   * Reads every CustomResourceDefinition (`apiextensions.k8s.io`) among the
   * manifests; other manifests are ignored. The first CRD of a group and kind wins.
   *
   * @param manifests the composition's manifests, in any order
   */
  public static fromManifests(manifests: Iterable<unknown>): CrdTopologies {
    const schemas = new Map<string, unknown>();
    const names = new Map<string, string>();
    for (const m of manifests) {
      const crd = m as CrdManifest | undefined;
      if (crd?.kind !== 'CustomResourceDefinition' || apiGroup(String(crd.apiVersion ?? '')) !== 'apiextensions.k8s.io') continue;
      const group = crd.spec?.group;
      const kind = crd.spec?.names?.kind;
      if (typeof group !== 'string' || typeof kind !== 'string') continue;
      const key = groupKind(group, kind);
      if (!schemas.has(key)) {
        schemas.set(key, schemaOf(crd));
        names.set(key, String((crd as { metadata?: { name?: unknown } }).metadata?.name ?? ''));
      }
    }
    return new CrdTopologies(schemas, names);
  }

  private readonly roots = new Map<string, FieldTopology>();

  private constructor(private readonly schemas: ReadonlyMap<string, unknown>, private readonly names: ReadonlyMap<string, string> = new Map()) {}

  /**
   * The numbers with a fraction (`size: 1.5`) in fields that the CRD of a custom resource types `integer`
   * (`properties`, `additionalProperties`, `items` of its `openAPIV3Schema`), which the API server's validation of
   * the schema refuses: `spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"`.
   * An `x-kubernetes-int-or-string` field, the root's `apiVersion`, `kind` and `metadata`, NaN, the infinities and
   * aws-cdk number tokens are not judged.
   *
   * @returns the problems in the manifest's key order; none when no CRD of the composition defines the kind
   */
  public integerProblems(group: string, kind: string, manifest: unknown): CrdIntegerProblem[] {
    const key = groupKind(group, kind);
    const schema = this.schemas.get(key);
    if (!isObject(schema) || !isPlainMap(manifest)) return [];
    const found: CrdIntegerProblem[] = [];
    const crd = this.names.get(key) ?? '';
    const walk = (node: unknown, value: unknown, at: string[], text: string): void => {
      if (!isObject(node) || value === null || value === undefined) return;
      if (node.type === 'integer' && node['x-kubernetes-int-or-string'] !== true) {
        if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) && Math.abs(value) <= 1e288) {
          found.push({ at, value, crd, apiServerError: `${text}: Invalid value: "number": ${text} in body must be of type integer: "number"` });
        }
        return;
      }
      if (Array.isArray(value)) {
        if (node.items !== undefined) value.forEach((v, i) => walk(node.items, v, [...at, String(i)], `${text}[${i}]`));
        return;
      }
      if (!isPlainMap(value)) return;
      const properties = isObject(node.properties) ? node.properties : {};
      for (const name of Object.keys(value)) {
        if (at.length === 0 && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) continue;
        const child = Object.hasOwn(properties, name) ? properties[name] : node.additionalProperties;
        walk(child, value[name], [...at, name], text ? `${text}.${name}` : name);
      }
    };
    walk(schema, manifest, [], '');
    return found;
  }

  /** The `group/Kind` keys of the CRDs read, sorted. */
  public get kinds(): string[] {
    return [...this.schemas.keys()].sort();
  }

  /**
   * The topology of a custom resource of this group and kind, or undefined
   * when no CRD in the composition defines it.
   */
  public topologyOf(group: string, kind: string): FieldTopology | undefined {
    const key = groupKind(group, kind);
    if (!this.schemas.has(key)) return undefined;
    let root = this.roots.get(key);
    if (!root) {
      const schema = this.schemas.get(key);
      root = isObject(schema) ? new CrdNode(schema, true) : SCHEMALESS_OBJECT;
      this.roots.set(key, root);
    }
    return root;
  }
}

/** A number with a fraction in a field a CRD's schema types `integer`. */
export interface CrdIntegerProblem {
  /** The keys from the manifest's root to the value (list indexes as digits). */
  readonly at: readonly string[];
  /** The number given. */
  readonly value: number;
  /** The name of the CRD (`widgets.example.com`). */
  readonly crd: string;
  /** The API server's error (apiextensions-apiserver's validation of the schema, kube-openapi's words). */
  readonly apiServerError: string;
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of a CustomResourceDefinition manifest read here. */
interface CrdManifest {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly spec?: {
    readonly group?: unknown;
    readonly names?: { readonly kind?: unknown };
    readonly versions?: readonly CrdVersion[];
    /** apiextensions.k8s.io/v1beta1: one schema for all versions. */
    readonly validation?: { readonly openAPIV3Schema?: unknown };
  };
}

/** One entry of a CRD's `spec.versions`. */
interface CrdVersion {
  readonly name?: unknown;
  readonly served?: unknown;
  readonly storage?: unknown;
  readonly schema?: { readonly openAPIV3Schema?: unknown };
}

/** An OpenAPI v3 schema of a CRD, as far as it decides ownership. */
interface JsonSchema {
  readonly 'type'?: unknown;
  readonly 'properties'?: Readonly<Record<string, unknown>>;
  readonly 'additionalProperties'?: unknown;
  readonly 'items'?: unknown;
  readonly 'default'?: unknown;
  readonly 'x-kubernetes-list-type'?: unknown;
  readonly 'x-kubernetes-list-map-keys'?: unknown;
  readonly 'x-kubernetes-map-type'?: unknown;
  readonly 'x-kubernetes-preserve-unknown-fields'?: unknown;
  readonly 'x-kubernetes-embedded-resource'?: unknown;
  readonly 'x-kubernetes-int-or-string'?: unknown;
}

/** The schema of the version in force: storage, else first served, else first; else v1beta1's common one. */
function schemaOf(crd: CrdManifest): unknown {
  const versions = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  const version = versions.find((v) => v?.storage === true) ?? versions.find((v) => v?.served === true) ?? versions[0];
  return version?.schema?.openAPIV3Schema ?? crd.spec?.validation?.openAPIV3Schema;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The topology of one schema node. */
function topologyOfSchema(schema: unknown): FieldTopology {
  if (!isObject(schema)) return DEDUCED;
  if (schema['x-kubernetes-int-or-string'] === true) return SCALAR;
  switch (schema.type) {
    case 'object':
    case 'array':
      return new CrdNode(schema, false);
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return SCALAR;
    default:
      // No type: preserve-unknown-fields (or a non-structural schema). schemaconv makes it scalar, list and map at once.
      return schema.properties || schema.additionalProperties !== undefined || schema.items ? new CrdNode(schema, false) : DEDUCED;
  }
}

/** A map or list node of a CRD schema; children made on first use and kept. */
class CrdNode implements FieldTopology {
  public readonly type: 'map' | 'list';
  public readonly atomic: boolean;
  public readonly listType?: 'atomic' | 'set' | 'associative';
  public readonly keys?: readonly string[];
  public readonly keyDefaults?: Readonly<Record<string, unknown>>;
  private readonly children = new Map<string, FieldTopology>();
  private valuesNode?: FieldTopology;
  private elementNode?: FieldTopology;
  /** The root, or an embedded resource: apiVersion, kind and metadata are the object's. */
  private readonly isResource: boolean;

  /**
   * @param schema an object or array schema (or one without a type that has properties or items)
   * @param root true for the root of a custom resource
   */
  public constructor(private readonly schema: JsonSchema, root: boolean) {
    const isList = !root && (schema.type === 'array' || (schema.type === undefined && !schema.properties && schema.additionalProperties === undefined));
    this.isResource = !isList && (root || schema['x-kubernetes-embedded-resource'] === true);
    if (!isList) {
      this.type = 'map';
      this.atomic = schema['x-kubernetes-map-type'] === 'atomic';
      return;
    }
    this.type = 'list';
    const keys = stringList(schema['x-kubernetes-list-map-keys']);
    switch (schema['x-kubernetes-list-type']) {
      case 'set':
        this.listType = 'set';
        break;
      case 'map':
        // A map list without keys is refused by CRD validation; read as atomic rather than keyed by nothing.
        this.listType = keys.length > 0 ? 'associative' : 'atomic';
        break;
      default:
        this.listType = 'atomic'; // SSA's default for a CRD list without a marker
    }
    this.atomic = this.listType === 'atomic';
    if (this.listType === 'associative') {
      this.keys = Object.freeze(keys);
      const properties = isObject(schema.items) && isObject(schema.items.properties) ? schema.items.properties : {};
      const defaults: Record<string, unknown> = {};
      for (const key of keys) {
        const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
        if (isObject(property) && property.default !== undefined) defaults[key] = property.default;
      }
      if (Object.keys(defaults).length > 0) this.keyDefaults = Object.freeze(defaults);
    }
  }

  public field(name: string): FieldTopology {
    if (this.type === 'list') return DEDUCED;
    if (this.isResource) {
      if (name === 'metadata') return objectMetaTopology();
      if (name === 'apiVersion' || name === 'kind') return SCALAR;
    }
    const properties = this.schema.properties;
    if (isObject(properties) && Object.hasOwn(properties, name)) {
      let child = this.children.get(name);
      if (!child) {
        child = topologyOfSchema(properties[name]);
        this.children.set(name, child);
      }
      return child;
    }
    this.valuesNode ??= isObject(this.schema.additionalProperties) ? topologyOfSchema(this.schema.additionalProperties) : DEDUCED;
    return this.valuesNode;
  }

  public element(): FieldTopology {
    if (this.type !== 'list') return DEDUCED;
    // An array without items: schemaconv gives it `__untyped_atomic_` elements.
    this.elementNode ??= this.schema.items === undefined ? UNTYPED_ATOMIC : topologyOfSchema(this.schema.items);
    return this.elementNode;
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
