import type { CrdTopologies } from './crd-topology';
import { K8S_1_30 } from './k8s-1.30.generated';
import { apiGroup, groupKind } from '../object-identity';

/**
 * How server-side apply treats one node of an object: what is one owned leaf,
 * and how the children of a map or list are told apart.
 *
 * Nodes come from the structured-merge-diff schema of the built-in kinds, from
 * a CRD's schema markers, or are deduced where there is no schema. A walker
 * stops at a scalar and at an atomic node (one leaf, whatever is inside); it
 * goes into a granular map per key, into an associative list per element key,
 * and into a set per value.
 *
 * @example
 * const ports = topologyOf('apps/v1', 'Deployment')
 *   .field('spec').field('template').field('spec').field('containers').element().field('ports');
 * ports.listType;    // 'associative'
 * ports.keys;        // ['containerPort', 'protocol']
 * ports.keyDefaults; // { containerPort: 0, protocol: 'TCP' }
 */
export interface FieldTopology {
  /**
   * `scalar`: one leaf. `map`: a struct or a map (granular unless `atomic`).
   * `list`: see `listType`. `deduced`: no schema, so the value decides, as
   * structured-merge-diff's deduced type does: a map is granular (unless
   * `atomic`), a list atomic (`listType` is `'atomic'`), anything else a leaf.
   */
  readonly type: 'scalar' | 'map' | 'list' | 'deduced';
  /** An atomic map or struct, or an atomic list: the whole node is one leaf. */
  readonly atomic: boolean;
  /**
   * How list elements are owned: `atomic` (the list is one leaf), `set` (per
   * scalar value), `associative` (per element, by `keys`). Set for lists, and
   * for deduced nodes (where it is `atomic`); undefined for scalars and maps.
   */
  readonly listType?: 'atomic' | 'set' | 'associative';
  /** The fields that identify an element of an associative list. */
  readonly keys?: readonly string[];
  /**
   * Values of key fields that an element may leave out, from the schema: the
   * element is then identified as if it had them (`{ protocol: 'TCP' }`).
   * Key fields without a default must be present in every element.
   */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
  /**
   * The topology of a child of a map: a struct's field, or the value type of a
   * map (the same for every key). Deduced when the schema does not know it.
   */
  field(name: string): FieldTopology;
  /** The topology of the elements of a list; deduced for a node that is not a list. */
  element(): FieldTopology;
}

/**
 * The topology of an object of one kind. The API version is ignored, like
 * everywhere in this library: a built-in kind uses the schema of its newest
 * version in Kubernetes 1.30 (`apps/v1beta2` Deployments get `apps/v1`'s).
 *
 * Built-in kinds come first; then the CRDs of the composition. Any other kind,
 * built-in or custom, gets the topology of an object without a schema:
 * `apiVersion` and `kind` scalars, `metadata` as ObjectMeta (labels and
 * annotations per key, finalizers a set, ownerReferences by uid), everything
 * else deduced (maps per key, lists atomic).
 *
 * @param apiVersion the object's `apiVersion` (`apps/v1`, `v1`)
 * @param kind the object's `kind`
 * @param crds the topologies of the CRDs in the composition
 * @returns the topology of the whole object; walk it with `field` and `element`
 * @example
 * const crds = CrdTopologies.fromManifests(manifests);
 * const rules = topologyOf('gateway.networking.k8s.io/v1', 'HTTPRoute', crds).field('spec').field('rules');
 */
export function topologyOf(apiVersion: string, kind: string, crds?: CrdTopologies): FieldTopology {
  const group = apiGroup(apiVersion);
  return builtIns().ofKind(group, kind) ?? crds?.topologyOf(group, kind) ?? SCHEMALESS_OBJECT;
}

/**
 * The compact structured-merge-diff data that `k8s-1.30.generated.ts` holds
 * (written by `scripts/generate-k8s-topology.ts`).
 */
export interface TopologyData {
  /** `group/Kind` (`apps/Deployment`, `/Pod`) to the name of the type of its newest version. */
  readonly kinds: Readonly<Record<string, string>>;
  /** Named types (`apps.v1.DeploymentSpec`, `meta.v1.ObjectMeta`). */
  readonly types: Readonly<Record<string, TypeSpec>>;
}

/**
 * A use of a type: a named type, one of `'scalar'`, `'deduced'` (SMD's
 * `__untyped_deduced_`) and `'atomic'` (`__untyped_atomic_`), an inline type,
 * or a named struct or map whose relationship this use overrides.
 */
export type TypeRef = string | TypeSpec | { readonly type: string; readonly atomic: boolean };

/** A scalar that is not a string, as structured-merge-diff names it: `untyped` takes more than one JSON type. */
export type ScalarKind = 'numeric' | 'boolean' | 'untyped';

/** A struct or map (`MapSpec`) or a list (`ListSpec`). */
export type TypeSpec = MapSpec | ListSpec;

/** A struct, a map, or both (known fields and typed other keys). */
export interface MapSpec {
  /** Struct fields that are not plain scalars. */
  readonly fields?: Readonly<Record<string, TypeRef>>;
  /** The plain scalar fields, space-separated. */
  readonly scalars?: string;
  /** Those of `scalars` that are numbers (integers or not), space-separated. */
  readonly numbers?: string;
  /** Those of `scalars` that are booleans, space-separated. */
  readonly booleans?: string;
  /** Those of `scalars` that take more than one JSON type (an int-or-string, a quantity, a time), space-separated. The others are strings. */
  readonly untyped?: string;
  /** Those of `scalars` that are resource quantities (`500m`, `1Gi`), space-separated. */
  readonly quantities?: string;
  /** Those of `numbers` that are integers the API server decodes into a Go `int32`, space-separated. */
  readonly int32?: string;
  /** Those of `numbers` that are integers the API server decodes into a Go `int64`, space-separated. */
  readonly int64?: string;
  /** Those of `untyped` that are int-or-strings (`targetPort`, `maxSurge`): a string, or an integer decoded into an `int32`. */
  readonly intOrString?: string;
  /** The type of any other key (a map's values). */
  readonly values?: TypeRef;
  /** When `values` is `'scalar'`: its kind, if it is not a string. */
  readonly scalar?: ScalarKind;
  /** The map's values are resource quantities (a container's `resources.limits`). */
  readonly quantityValues?: true;
  /** The whole struct or map is one leaf. */
  readonly atomic?: true;
}

/** A list: atomic unless `set` or `keys`. */
export interface ListSpec {
  /** The element type. */
  readonly list: TypeRef;
  /** When `list` is `'scalar'`: the elements' kind, if they are not strings. */
  readonly scalar?: ScalarKind;
  /** When the elements are integers: the Go type the API server decodes them into. */
  readonly integer?: 'int32' | 'int64';
  /** Associative: the key fields of an element. */
  readonly keys?: readonly string[];
  /** Defaults of key fields. */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
  /** A set of scalars. */
  readonly set?: true;
}

/** No schema: the value decides (structured-merge-diff's deduced types). */
class DeducedNode implements FieldTopology {
  public readonly type = 'deduced';
  public readonly listType = 'atomic';

  /** @param atomic true for `__untyped_atomic_` (one leaf), false for `__untyped_deduced_` (maps granular) */
  public constructor(public readonly atomic: boolean) {}

  public field(): FieldTopology {
    return this;
  }

  public element(): FieldTopology {
    return this.atomic ? this : UNTYPED_ATOMIC; // a deduced list is atomic: its elements are inside that one leaf
  }
}

/** A scalar: one leaf. */
class ScalarNode implements FieldTopology {
  public readonly type = 'scalar';
  public readonly atomic = false;

  public field(): FieldTopology {
    return DEDUCED;
  }

  public element(): FieldTopology {
    return DEDUCED;
  }
}

/** No schema: maps granular with deduced values, lists atomic (structured-merge-diff's `__untyped_deduced_`). */
export const DEDUCED: FieldTopology = new DeducedNode(false);
/** No schema, and one leaf whatever the value (structured-merge-diff's `__untyped_atomic_`). */
export const UNTYPED_ATOMIC: FieldTopology = new DeducedNode(true);
/** A scalar: one leaf. Its (nonexistent) children are deduced. */
export const SCALAR: FieldTopology = new ScalarNode();

/** `metadata` of every object, custom resources included: the built-in ObjectMeta. */
export function objectMetaTopology(): FieldTopology {
  return builtIns().resolve('meta.v1.ObjectMeta');
}

/** An object without a schema: `apiVersion` and `kind` scalars, ObjectMeta `metadata`, the rest deduced. */
class SchemalessObject implements FieldTopology {
  public readonly type = 'map';
  public readonly atomic = false;

  public field(name: string): FieldTopology {
    if (name === 'metadata') return objectMetaTopology();
    return name === 'apiVersion' || name === 'kind' ? SCALAR : DEDUCED;
  }

  public element(): FieldTopology {
    return DEDUCED;
  }
}

/** The topology of an object with no schema (a custom resource whose CRD is not in the composition). */
export const SCHEMALESS_OBJECT: FieldTopology = new SchemalessObject();

/** A node of the built-in schema; children resolved on first use, through the schema's caches. */
class SchemaNode implements FieldTopology {
  public readonly type: 'map' | 'list';
  public readonly atomic: boolean;
  public readonly listType?: 'atomic' | 'set' | 'associative';
  public readonly keys?: readonly string[];
  public readonly keyDefaults?: Readonly<Record<string, unknown>>;
  private scalarNames?: ReadonlySet<string>;

  public constructor(private readonly schema: BuiltInSchema, private readonly spec: TypeSpec, atomic?: boolean) {
    if ('list' in spec) {
      this.type = 'list';
      // a use that makes the list atomic (`elementRelationship: atomic` on a reference to a keyed list) wins
      this.listType = atomic === true ? 'atomic' : spec.set ? 'set' : spec.keys ? 'associative' : 'atomic';
      this.atomic = this.listType === 'atomic';
      if (spec.keys && this.listType === 'associative') this.keys = Object.freeze([...spec.keys]);
      if (spec.keyDefaults && this.listType === 'associative') this.keyDefaults = Object.freeze({ ...spec.keyDefaults });
    } else {
      this.type = 'map';
      this.atomic = atomic ?? spec.atomic === true;
    }
  }

  public field(name: string): FieldTopology {
    const spec = this.spec;
    if ('list' in spec) return DEDUCED;
    if (spec.fields && Object.hasOwn(spec.fields, name)) return this.schema.resolve(spec.fields[name]);
    if (spec.scalars) {
      this.scalarNames ??= new Set(spec.scalars.split(' '));
      if (this.scalarNames.has(name)) return SCALAR;
    }
    return spec.values === undefined ? DEDUCED : this.schema.resolve(spec.values);
  }

  public element(): FieldTopology {
    return 'list' in this.spec ? this.schema.resolve(this.spec.list) : DEDUCED;
  }
}

/**
 * The root topology of one kind of other topology data than the built-in
 * kinds' (a schema converted by `topologyDataOf` in
 * scripts/generate-k8s-topology.ts), read exactly as the built-in data is.
 *
 * @param data the data
 * @param key the kind's `group/Kind` key in `data.kinds`
 * @returns its topology, or undefined when `data` has no such kind
 */
export function schemaTopology(data: TopologyData, key: string): FieldTopology | undefined {
  const slash = key.indexOf('/');
  return new BuiltInSchema(data).ofKind(key.slice(0, slash), key.slice(slash + 1));
}

/** The built-in kinds' schema, with one node per type use, made on first use. */
class BuiltInSchema {
  private readonly named = new Map<string, FieldTopology>();
  private readonly inline = new WeakMap<object, FieldTopology>();

  public constructor(private readonly data: TopologyData) {}

  /** The root topology of a built-in kind, or undefined when the schema has no such kind. */
  public ofKind(group: string, kind: string): FieldTopology | undefined {
    const key = groupKind(group, kind);
    return Object.hasOwn(this.data.kinds, key) ? this.resolve(this.data.kinds[key]) : undefined;
  }

  public resolve(ref: TypeRef): FieldTopology {
    if (typeof ref === 'string') {
      if (ref === 'scalar') return SCALAR;
      if (ref === 'deduced') return DEDUCED;
      if (ref === 'atomic') return UNTYPED_ATOMIC;
      let node = this.named.get(ref);
      if (!node) {
        node = Object.hasOwn(this.data.types, ref) ? new SchemaNode(this, this.data.types[ref]) : DEDUCED;
        this.named.set(ref, node);
      }
      return node;
    }
    let node = this.inline.get(ref);
    if (!node) {
      if ('type' in ref) {
        node = Object.hasOwn(this.data.types, ref.type) ? new SchemaNode(this, this.data.types[ref.type], ref.atomic) : DEDUCED;
      } else {
        node = new SchemaNode(this, ref);
      }
      this.inline.set(ref, node);
    }
    return node;
  }
}

let builtInSchema: BuiltInSchema | undefined;

function builtIns(): BuiltInSchema {
  builtInSchema ??= new BuiltInSchema(K8S_1_30);
  return builtInSchema;
}
