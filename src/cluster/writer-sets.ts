import { FieldsV1, sharedFieldsV1, toFieldsV1 } from './fields-v1';
import type { FieldPath } from '../collect/ledger/field-path';
import { ownedLeaves, Visit, visitLeaves } from '../collect/ledger/leaves';
import type { FieldTopology } from '../collect/topology/field-topology';

/** The `fieldsV1` sets of a writer's leaves, as the lock records them (`LockedWriter`). */
export interface LeafSets {
  /** The set of all its leaves. */
  readonly fields: FieldsV1;
  /** The set of those it owns only as nodes (`OwnedLeaf.presence`); absent when there are none. */
  readonly presence?: FieldsV1;
}

/** A node of the shapes seen so far: a trie by path segment, with one mark for the end of a leaf and one for the end of a presence leaf. */
interface ShapeNode {
  /** The first segment seen after this one, and the node after it. */
  segment?: string;
  next?: ShapeNode;
  /** The nodes after any other segment. */
  others?: Map<string, ShapeNode>;
  /** The node after the end of a leaf's path, and after the end of a presence leaf's. */
  leaf?: ShapeNode;
  presence?: ShapeNode;
  /** The sets of the manifest whose leaves end here. */
  sets?: LeafSets;
}

const newShapeNode = (): ShapeNode => ({
  segment: undefined,
  next: undefined,
  others: undefined,
  leaf: undefined,
  presence: undefined,
  sets: undefined,
});

/** The node after `segment`, made as needed. */
function nextShapeNode(node: ShapeNode, segment: string): ShapeNode {
  if (node.next === undefined) {
    node.segment = segment;
    return (node.next = newShapeNode());
  }
  if (node.segment === segment) return node.next;
  node.others ??= new Map();
  let next = node.others.get(segment);
  if (next === undefined) {
    next = newShapeNode();
    node.others.set(segment, next);
  }
  return next;
}

const NEVER_OPAQUE = () => false;

/**
 * The `fieldsV1` sets of the writers of a release's objects, made once per shape: for one lock, so that objects of
 * one shape share one set (`sharedFieldsV1`) and a manifest its declarer alone writes is read without making its
 * leaves.
 *
 * An object only its declarer writes owns every leaf of its manifest (`ownedLeaves`). Most objects of a release
 * have the leaves of another (a thousand ConfigMaps with the same keys): each manifest's leaves are followed, path
 * by path, down a trie of the lists of leaves seen so far (`visitLeaves`, no leaf made), and a list seen before
 * gets the sets made for it. Only a list not seen before is made into leaves and sets. A list of leaves, presence
 * marked, is all the sets are made of, so equal lists have equal sets.
 */
export class WriterSets {
  /** Sets made without sharing (`toFieldsV1`): for one object's writers alone. */
  public static unshared(): WriterSets {
    return new WriterSets(toFieldsV1);
  }

  /** Sets shared by every object of one release (`sharedFieldsV1`). */
  public static shared(): WriterSets {
    return new WriterSets(sharedFieldsV1());
  }

  private readonly root = newShapeNode();
  /** Where the manifest being read has got to in the trie (`declared`). */
  private at: ShapeNode = this.root;
  /** Moves `at` past one leaf (`visitLeaves`): its segments, then its end mark. Made once, for every manifest. */
  private readonly step: Visit;

  private constructor(
    /** The `fieldsV1` set of a list of paths. */
    public readonly fieldsV1: (paths: readonly FieldPath[]) => FieldsV1,
  ) {
    this.step = (path, presence) => {
      let node = this.at;
      for (let i = 0; i < path.length; i++) node = nextShapeNode(node, path[i]);
      this.at = presence ? (node.presence ??= newShapeNode()) : (node.leaf ??= newShapeNode());
    };
  }

  /**
   * The sets of a writer's leaves: `fields` of all of them, `presence` of those owned only as nodes.
   *
   * @param paths the leaves' paths
   * @param presence which of them are presence leaves (`OwnedLeaf.presence`), in the same order
   */
  public of(paths: readonly FieldPath[], presence: readonly FieldPath[]): LeafSets {
    return presence.length > 0 ? { fields: this.fieldsV1(paths), presence: this.fieldsV1(presence) } : { fields: this.fieldsV1(paths) };
  }

  /**
   * The sets of every leaf of a manifest (`ownedLeaves` of it), as its declarer owns them when no other writer
   * writes it: the same as `of` over those leaves, made once per list of leaves.
   *
   * @param manifest the manifest (without `status`, which no writer of the composition applies)
   * @param topology the topology of its kind
   */
  public declared(manifest: unknown, topology: FieldTopology): LeafSets {
    this.at = this.root;
    visitLeaves(manifest, topology, [], this.step, NEVER_OPAQUE);
    const end = this.at;
    this.at = this.root;
    if (end.sets === undefined) {
      const leaves = ownedLeaves(manifest, topology);
      end.sets = this.of(
        leaves.map((l) => l.path),
        leaves.filter((l) => l.presence).map((l) => l.path),
      );
    }
    return end.sets;
  }
}
