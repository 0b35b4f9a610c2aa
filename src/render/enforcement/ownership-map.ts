import { scaledKinds } from './scale-subresource';
import type { Facts, RuntimeWriterFact } from '../../collect/facts';
import { FieldPath, formatPath, isElementKey, isSetValue } from '../../collect/ledger/field-path';
import { ownedLeaves } from '../../collect/ledger/leaves';
import { effectiveNamespace, groupKind } from '../../collect/object-identity';
import { crdResources, kindResource } from '../../collect/resource-names';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { FieldTopology, topologyOf } from '../../collect/topology/field-topology';
import { compareText } from '../../private/compare';

/** Who may change a leaf in the cluster. */
export interface LeafOwner {
  /** The Kubernetes username (`request.userInfo.username`) that may change it. */
  readonly identity: string;
  /** How messages name it: `the deployer`, or the runtime writer's construct path. */
  readonly name: string;
}

/**
 * One step of a leaf's path, with what the topology says of it: a field or
 * map key; a keyed list element, by its key fields, with the values the
 * schema defaults missing key fields to; a value of a set.
 */
export type LeafStep =
  | { readonly field: string }
  | { readonly element: Readonly<Record<string, unknown>>; readonly defaults?: Readonly<Record<string, unknown>> }
  | { readonly setValue: unknown };

/** A leaf of an object and its owner. */
export interface ProtectedLeaf {
  /** The leaf as messages print it (`spec.template.spec.containers[name=web].image`). */
  readonly text: string;
  /** Its path. */
  readonly steps: readonly LeafStep[];
  /**
   * True when only the node's existence is owned (an empty map, a keyed
   * element with nothing but its key, a value of a set): adding to it or
   * inside it changes nothing the owner owns; removing it does.
   */
  readonly presence: boolean;
  /** Who may change it. */
  readonly owner: LeafOwner;
}

/** The owned leaves of one object. */
export interface ObjectOwnership {
  /** Its namespace as the API server stores it; undefined for a cluster-scoped kind. */
  readonly namespace?: string;
  /** Its name. */
  readonly name: string;
  /** Its leaves, `status` excluded, sorted by text. */
  readonly leaves: readonly ProtectedLeaf[];
}

/** The objects of one kind, with their owned leaves. */
export interface KindOwnership {
  /** The API group; `''` for the core group. */
  readonly group: string;
  /** The kind. */
  readonly kind: string;
  /** The kind's resource, as admission rules name it (`applicationdeployments`). */
  readonly resource: string;
  /**
   * True when the kind has a `scale` subresource that changes its `spec.replicas` (`scaledKinds`): a
   * policy that protects `spec.replicas` matches `<resource>/scale` too.
   */
  readonly scale: boolean;
  /** The objects, sorted by namespace and name. */
  readonly objects: readonly ObjectOwnership[];
}

/**
 * The ownership map that leaves the synth: per kind, every object of the
 * composition and each of its leaves with the identity that may change it.
 */
export interface OwnershipMap {
  /** The deployer's identity: it owns every leaf the composition declares. */
  readonly deployer: LeafOwner;
  /** The kinds, sorted by group and kind. */
  readonly kinds: readonly KindOwnership[];
}

/**
 * The ownership map of an accepted composition: every leaf of every object's
 * manifest (as emitted, contributions merged) belongs to the deployer; every
 * leaf a `RuntimeWriter` declares belongs to its identity, on its object or on
 * every object of its kind in the composition. `status` belongs to nobody here
 * (the status subresource is not constrained), and identity fields never do.
 *
 * @param facts what collect found
 * @param deployer the identity that applies the output
 * @param resources the resources of kinds whose CRD is not in the composition (`enforce.resources`), by `Kind.group`
 */
export function ownershipMapOf(facts: Facts, deployer: string, resources?: Readonly<Record<string, string>>): OwnershipMap {
  const deployerOwner: LeafOwner = { identity: deployer, name: 'the deployer' };
  const crds = CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
  const crdPlurals = crdResources(facts.objects);
  const scaled = scaledKinds(facts.objects.map((o) => o.manifest));
  const byObject = new Map<number, RuntimeWriterFact[]>();
  const byKind = new Map<string, RuntimeWriterFact[]>();
  for (const w of facts.runtimeWriters) {
    const key = 'object' in w.target ? undefined : groupKind(w.target.group, w.target.kind);
    push(key === undefined ? byObject : byKind, key ?? (w.target as { object: number }).object, w);
  }

  const kinds = new Map<string, { group: string; kind: string; objects: ObjectOwnership[] }>();
  facts.objects.forEach((o, i) => {
    if (o.duplicateOf !== undefined) return;
    const { group, kind, name } = o.identity;
    const key = groupKind(group, kind);
    const topology = topologyOf(String(o.manifest?.apiVersion ?? ''), kind, crds);
    const leaves: ProtectedLeaf[] = [];
    for (const leaf of ownedLeaves(o.manifest, topology)) {
      if (leaf.path[0] !== 'status') leaves.push(protectedLeaf(leaf.path, topology, leaf.presence === true, deployerOwner));
    }
    for (const w of [...(byObject.get(i) ?? []), ...(byKind.get(key) ?? [])]) {
      const owner: LeafOwner = { identity: w.identity, name: w.path };
      for (const f of w.fields) {
        if (f.path[0] !== 'status') leaves.push(protectedLeaf(f.path, topology, isSetValue(f.path[f.path.length - 1] ?? ''), owner));
      }
    }
    if (leaves.length === 0) return;
    leaves.sort((a, b) => compareText(a.text, b.text) || compareText(a.owner.identity, b.owner.identity));
    let entry = kinds.get(key);
    if (!entry) {
      entry = { group, kind, objects: [] };
      kinds.set(key, entry);
    }
    const namespace = effectiveNamespace(o.identity);
    entry.objects.push({ ...(namespace !== undefined ? { namespace } : {}), name, leaves });
  });

  return {
    deployer: deployerOwner,
    kinds: [...kinds.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([key, k]) => {
        return {
          group: k.group,
          kind: k.kind,
          resource: kindResource(k.group, k.kind, crdPlurals, resources).resource,
          scale: scaled.has(key),
          objects: k.objects.sort((a, b) => compareText(a.namespace ?? '', b.namespace ?? '') || compareText(a.name, b.name)),
        };
      }),
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A leaf's path as steps, read against the topology for the defaults of keyed elements. */
function protectedLeaf(path: FieldPath, root: FieldTopology, presence: boolean, owner: LeafOwner): ProtectedLeaf {
  const steps: LeafStep[] = [];
  let node = root;
  for (const segment of path) {
    if (isElementKey(segment)) {
      const defaults = node.keyDefaults;
      steps.push({ element: JSON.parse(segment.slice(2)), ...(defaults && Object.keys(defaults).length > 0 ? { defaults } : {}) });
      node = node.element();
    } else if (isSetValue(segment)) {
      steps.push({ setValue: JSON.parse(segment.slice(2)) });
      node = node.element();
    } else {
      steps.push({ field: segment });
      node = node.field(segment);
    }
  }
  return { text: formatPath(path), steps, presence, owner };
}

