import { indexedLeaves, LockPathSteps, lockedManifest } from './locked-manifest';
import { formatPath } from '../collect/ledger/field-path';
import type { FieldTopology } from '../collect/topology/field-topology';
import { elementSegments, listTypeOf } from '../collect/topology/list-topology';

/** One leaf of a locked object, named as the plan names it. */
export interface KeyedLeaf {
  /**
   * The leaf as the ledger prints a path (`spec.template.spec.containers[name=web].image`,
   * `metadata.finalizers[=example.com/protect]`): an element of an associative list by its keys, a value of a
   * set by itself; an element of an atomic list (or of a list whose keys repeat) by its index
   * (`spec.rules[0].backendRefs[1].weight`).
   */
  readonly path: string;
  /** The leaf's path as `LockedUnit.values` records it: list elements by index in a lock of format 1, by their keys in one of format 2. */
  readonly source: string;
  /** The keyed elements and set values the leaf lies in, outermost first, each named as `path` names it. */
  readonly elements: readonly string[];
}

/** The leaves of a locked object named by their keys, and the elements they lie in. */
export interface KeyedLeaves {
  /** Every leaf, in the order of `LockedUnit.values`. */
  readonly leaves: readonly KeyedLeaf[];
  /** The element one of `KeyedLeaf.elements` names, as the values hold it (masked); undefined for another name. */
  element(name: string): unknown;
}

/** The segment of each element of one list: its element key or set value, or its index. */
type ElementSegments = ReturnType<typeof elementSegments>;

/** A list index in a path of `LockedUnit.values` (`[0]`): a quoted map key starts with `"`. */
const LIST_INDEX = /\[\d/;

/** How `formatPath` writes a map key: bare after `.` when it is an identifier, else quoted in brackets. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The leaves of a locked object (`LockedUnit.values`, by index or already by keys) named as the field ledger names them, so
 * that the plan, a `CAP002` finding and the lock's writers give one field one name, and an element inserted
 * into a keyed list (a container before the others) is one new element, not a change of every later one.
 *
 * Lists are told apart as server-side apply tells them, by the object's topology: an associative list's
 * elements by their keys (key defaults filled in, `[containerPort=8080,protocol=TCP]`), a set's by value
 * (`[=example.com/protect]`). An atomic list (no merge key: `command`, `tolerations`, a list without a
 * schema), and every list inside an atomic node, keeps its indexes: server-side apply replaces it whole, so
 * its elements have no identity of their own, and a changed leaf by its index (`spec.rules[0].backendRefs[1].weight`)
 * shows what the whole list's replacement changes. So does a keyed list two of whose elements have one key
 * (a key known only after deploy, say), which no key names apart.
 *
 * A lock of format 2 records the leaves by these names already; they are read back by index
 * (`indexedLeaves`) and named again by the topology, so both formats name a leaf alike.
 *
 * @param values the leaves by path, as the lock records them
 * @param root the topology of the object's kind; without one (a stack), every leaf keeps its path
 * @param paths the paths parsed so far, to share (`LockPathSteps`)
 */
export function keyedLeaves(
  values: Readonly<Record<string, unknown>>,
  root: FieldTopology | undefined,
  paths: LockPathSteps = new LockPathSteps(),
): KeyedLeaves {
  if (!root) {
    return { leaves: Object.keys(values).map((path) => ({ path, source: path, elements: [] })), element: () => undefined };
  }
  const manifest = lockedManifest(values, paths);
  const indexed = indexedLeaves(values, paths);
  const lists = new Map<string, ElementSegments>();
  const elements = new Map<string, unknown>();
  const leaves: KeyedLeaf[] = [];
  for (const { path: at, source } of indexed) {
    const steps = paths.indexed(at);
    if (!steps) {
      leaves.push({ path: source, source, elements: [] });
      continue;
    }
    let node = root;
    let current: any = manifest;
    let atomic = node.atomic;
    let name = '';
    const within: string[] = [];
    for (const step of steps) {
      if (typeof step === 'number') {
        const list: unknown[] = Array.isArray(current) ? current : [];
        let segments = lists.get(name);
        if (!segments) {
          segments = elementSegments(list, node, atomic);
          lists.set(name, segments);
        }
        const segment = segments[step] ?? step;
        atomic ||= listTypeOf(node) === 'atomic';
        current = list[step];
        if (typeof segment === 'number') {
          name += `[${segment}]`;
        } else {
          name += formatPath([segment]);
          within.push(name);
          elements.set(name, current);
        }
        node = node.element();
      } else {
        name += IDENTIFIER.test(step) ? `${name === '' ? '' : '.'}${step}` : `[${JSON.stringify(step)}]`;
        current = current !== null && typeof current === 'object' && !Array.isArray(current) ? current[step] : undefined;
        node = node.field(step);
      }
      atomic ||= node.atomic;
    }
    leaves.push({ path: name, source, elements: within });
  }
  return { leaves, element: (name) => elements.get(name) };
}

/** The leaves of an object as a lock of format 2 records them (`keyedValues`). */
export interface KeyedValues {
  /** The leaves by name, in the order of the leaves by index. */
  readonly values: Record<string, unknown>;
  /** The name of each index path that has another; empty when the leaves keep their index paths. */
  readonly names: ReadonlyMap<string, string>;
}

/**
 * The leaves of an object by the names the plan gives them (`keyedLeaves`), as a lock of format 2 records them:
 * `spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value` rather than `...containers[1].env[0].value`,
 * so the lock's diff in review shows a container inserted before another as lines added, and the others unchanged.
 *
 * Only when the names read back to the same leaves (`indexedLeaves`), each in its place: otherwise (a key whose value
 * holds `].`, say, which the name cannot delimit) the leaves keep their index paths, which every reader takes too.
 *
 * @param values the leaves by index path, as `lockValues` makes them
 * @param root the topology of the object's kind
 * @param paths the paths parsed so far, to share: one per lock (`buildLock`), whose objects of one shape share their paths
 * @returns the leaves by name, in the same order, and the name of each index path
 */
export function keyedValues(values: Readonly<Record<string, unknown>>, root: FieldTopology, paths: LockPathSteps = new LockPathSteps()): KeyedValues {
  const named: Record<string, unknown> = {};
  const names = new Map<string, string>();
  // most objects (a ConfigMap, a Service without ports) have no list element to name
  if (!Object.keys(values).some((path) => LIST_INDEX.test(path))) return { values: { ...values }, names };
  for (const leaf of keyedLeaves(values, root, paths).leaves) {
    if (Object.hasOwn(named, leaf.path)) return { values: { ...values }, names: new Map() };
    named[leaf.path] = values[leaf.source];
    names.set(leaf.source, leaf.path);
  }
  const back = indexedLeaves(named, paths);
  const sources = Object.keys(values);
  if (back.length !== sources.length || back.some((l, i) => l.path !== sources[i])) return { values: { ...values }, names: new Map() };
  return { values: named, names };
}
