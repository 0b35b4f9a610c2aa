import { compareCodePoints, compareFieldLists, compareValues, goJson, goString, JsonValue } from './smd-json';
import type { FieldPath } from '../collect/ledger/field-path';

/**
 * The `FieldsV1` form of a set of field paths, as the API server writes
 * `metadata.managedFields[].fieldsV1`: a JSON object whose keys are path
 * elements (`f:spec`, `k:{"name":"web"}`, `v:"example.com/a"`, `i:0`) and
 * whose values are the sets below them, with `"."` marking that the node
 * itself is a member.
 *
 * Parsed and serialized as structured-merge-diff 4.1.2 does it
 * (`fieldpath/serialize.go`, `serialize-pe.go`): element keys of a `k:` sorted
 * by name, children ordered by `PathElement.Compare` (fields, then keys, then
 * values, then indexes), unknown element types (`r:...`) dropped, values
 * written as its JSON writer writes them (HTML characters escaped in values,
 * not in field names). `serializeFieldsV1` returns the same bytes as
 * `Set.ToJSON`.
 *
 * A path here is the ledger's `FieldPath`: a field name as itself, a keyed
 * element as `k:{...}` (keys sorted, plain JSON), a set value as `v:<json>`,
 * an index as `i:<n>`.
 */
export type FieldsV1 = { readonly [element: string]: FieldsV1 };

/** A JSON value inside a `k:` or `v:` element. */
export type { JsonValue } from './smd-json';

/** One element of a path, as structured-merge-diff keeps it (`fieldpath.PathElement`). */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: ReadonlyArray<readonly [string, JsonValue]> }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

/** A `fieldsV1` document that structured-merge-diff would refuse to read. */
export class FieldsV1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

/**
 * Parses one path element as `fieldpath.DeserializePathElement` does.
 *
 * @returns the element, or undefined for an element type this version does not know (`r:...`), which
 *   structured-merge-diff drops
 * @throws FieldsV1Error for a malformed element (`no-colon`, `i:1.23`, `k:{"name":invalid}`)
 */
export function parsePathElement(text: string): PathElement | undefined {
  if (text.length < 2) throw new FieldsV1Error(`the path element '${text}' is shorter than 2 characters`);
  if (text[1] !== ':') throw new FieldsV1Error(`the path element '${text}' has no ':' after its type`);
  const body = text.slice(2);
  switch (text[0]) {
    case 'f':
      return { kind: 'field', name: body };
    case 'v':
      return { kind: 'value', value: parseJson(text, body) };
    case 'k': {
      const keys = parseJson(text, body);
      if (keys === null || typeof keys !== 'object' || Array.isArray(keys)) throw new FieldsV1Error(`the path element '${text}' is not k: followed by a JSON object`);
      const fields = Object.entries(keys as Record<string, JsonValue>).sort(([a], [b]) => compareCodePoints(a, b));
      return { kind: 'key', fields };
    }
    case 'i':
      if (!/^[-+]?[0-9]+$/.test(body)) throw new FieldsV1Error(`the path element '${text}' is not i: followed by an integer`);
      return { kind: 'index', index: Number(body) };
    default:
      return undefined;
  }
}

function parseJson(element: string, body: string): JsonValue {
  try {
    return JSON.parse(body) as JsonValue;
  } catch (e) {
    throw new FieldsV1Error(`the path element '${element}' does not hold JSON after its type (${(e as Error).message})`);
  }
}

/** A path element as `fieldpath.SerializePathElement` writes it: `f:spec`, `k:{"port":80,"protocol":"TCP"}`. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map(([name, value]) => `${goString(name, false)}:${goJson(value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** The rank of each kind of element in structured-merge-diff's order. */
const ELEMENT_RANK = { field: 0, key: 1, value: 2, index: 3 } as const;

/** The order structured-merge-diff keeps path elements in (`PathElement.Compare`): fields, keys, values, indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return Math.sign(ELEMENT_RANK[a.kind] - ELEMENT_RANK[b.kind]);
  switch (a.kind) {
    case 'field':
      return compareCodePoints(a.name, (b as typeof a).name);
    case 'key':
      return compareFieldLists(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return Math.sign(a.index - (b as typeof a).index);
  }
}

/** The ledger's segment of a path element: the field name itself, `k:{...}` with sorted keys, `v:<json>`, `i:<n>`. */
export function segmentOf(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return pe.name;
    case 'key':
      return `k:${JSON.stringify(Object.fromEntries(pe.fields))}`;
    case 'value':
      return `v:${JSON.stringify(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/**
 * The path element a ledger segment stands for: `k:{...}` a keyed element, `v:<json>` a set value, `i:<n>`
 * an index, anything else a field name (the ledger writes map keys unprefixed).
 */
export function elementOf(segment: string): PathElement {
  if (segment.startsWith('k:{')) {
    const keys = tryJson(segment.slice(2));
    if (keys !== undefined && keys !== null && typeof keys === 'object' && !Array.isArray(keys)) {
      return { kind: 'key', fields: Object.entries(keys as Record<string, JsonValue>).sort(([a], [b]) => compareCodePoints(a, b)) };
    }
  } else if (segment.startsWith('v:')) {
    const value = tryJson(segment.slice(2));
    if (value !== undefined) return { kind: 'value', value };
  } else if (/^i:[0-9]+$/.test(segment)) {
    return { kind: 'index', index: Number(segment.slice(2)) };
  }
  return { kind: 'field', name: segment };
}

/**
 * A segment in one spelling for equal elements: a keyed element's keys sorted by name, as
 * structured-merge-diff sorts them (the ledger writes them in the list's key order).
 */
export function canonicalSegment(segment: string): string {
  return segment.startsWith('k:{') || segment.startsWith('v:') ? segmentOf(elementOf(segment)) : segment;
}

/** A path with every segment in its canonical spelling (`canonicalSegment`). */
export function canonicalPath(path: FieldPath): FieldPath {
  return path.map(canonicalSegment);
}

function tryJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A node of a set: whether it is a member itself, and its children by serialized element. */
interface SetNode {
  member: boolean;
  readonly children: Map<string, { readonly element: PathElement; readonly node: SetNode }>;
}

const newNode = (): SetNode => ({ member: false, children: new Map() });

/**
 * The deepest `fieldsV1` read, in levels of elements: as deep as the deepest object synth writes (`CAP010`
 * refuses a manifest nested more than 1,000 levels). A set deeper than that describes no object of a
 * release, and reading it whole would only exhaust the stack.
 */
export const MAX_FIELDS_V1_DEPTH = 1000;

/**
 * Every member of a `fieldsV1` set, as ledger paths, in structured-merge-diff's order (a node before the
 * nodes below it). Reads as `Set.FromJSON` does: `{}` and `{".": {}, ...}` are members, a node whose every
 * child is an unknown element type counts as a member, unknown element types are dropped. Stricter than
 * structured-merge-diff in two ways: `"."` must hold an object as every element does (the API server
 * writes `{}`; structured-merge-diff skips whatever it holds), and a set nested more than
 * `MAX_FIELDS_V1_DEPTH` levels is refused.
 *
 * @throws FieldsV1Error when the document is not an object of objects, an element is malformed, or it
 *   nests more than `MAX_FIELDS_V1_DEPTH` levels
 */
export function parseFieldsV1(fieldsV1: unknown): FieldPath[] {
  const root = readNode(fieldsV1, []);
  const out: FieldPath[] = [];
  const walk = (node: SetNode, prefix: string[]): void => {
    for (const { element, node: child } of sortedChildren(node)) {
      const path = [...prefix, segmentOf(element)];
      if (child.member) out.push(path);
      walk(child, path);
    }
  };
  walk(root, []);
  return out;
}

/** Where in a `fieldsV1` document a node is, as messages print it: `fieldsV1["f:spec"]["f:replicas"]`, the middle of a long path elided. */
function located(at: readonly string[]): string {
  const step = (s: string) => `[${JSON.stringify(s)}]`;
  const shown = at.length <= 8 ? at.map(step).join('') : `${at.slice(0, 4).map(step).join('')}...${at.slice(-2).map(step).join('')}`;
  return `fieldsV1${shown}`;
}

function readNode(json: unknown, at: readonly string[]): SetNode {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new FieldsV1Error(`${located(at)} is ${Array.isArray(json) ? 'a list' : JSON.stringify(json) ?? 'undefined'}, expected an object`);
  }
  if (at.length > MAX_FIELDS_V1_DEPTH) {
    throw new FieldsV1Error(`${located(at)} nests more than ${MAX_FIELDS_V1_DEPTH} levels deep, deeper than any object of a release (synth writes objects at most ${MAX_FIELDS_V1_DEPTH} levels deep)`);
  }
  const node = newNode();
  let known = 0;
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key === '.') {
      // the node itself: `{}` as the API server writes it, and an object at least, as every element holds
      if (value === null || typeof value !== 'object' || Array.isArray(value)) readNode(value, [...at, key]);
      node.member = true;
      continue;
    }
    const element = parsePathElement(key);
    if (!element) continue;
    known++;
    const child = readNode(value, [...at, key]);
    if (child.children.size === 0) child.member = true;
    const id = serializePathElement(element);
    const existing = node.children.get(id);
    if (existing) {
      existing.node.member ||= child.member;
      for (const [k, v] of child.children) existing.node.children.set(k, v);
    } else {
      node.children.set(id, { element, node: child });
    }
  }
  if (known === 0) node.member = true;
  return node;
}

function sortedChildren(node: SetNode): Array<{ element: PathElement; node: SetNode }> {
  const children = [...node.children.values()];
  return children.length > 1 ? children.sort((a, b) => comparePathElements(a.element, b.element)) : children;
}

/** A node's children with the serialized element each is kept under (`serializePathElement`), in structured-merge-diff's order. */
function sortedEntries(node: SetNode): Array<[string, { element: PathElement; node: SetNode }]> {
  const children = [...node.children];
  return children.length > 1 ? children.sort((a, b) => comparePathElements(a[1].element, b[1].element)) : children;
}

/** A ledger segment read once: its path element and that element serialized (`serializePathElement`). */
interface ReadSegment {
  readonly element: PathElement;
  readonly id: string;
}

/** The segments read so far, by their text: the paths of one set (and of objects of one shape) repeat them. */
type SegmentCache = Map<string, ReadSegment>;

/** The set tree of ledger paths. */
function treeOf(paths: Iterable<FieldPath>, segments: SegmentCache = new Map()): SetNode {
  const root = newNode();
  for (const path of paths) {
    if (path.length === 0) continue;
    let node = root;
    for (const segment of path) {
      const read = readSegment(segments, segment);
      let child = node.children.get(read.id);
      if (!child) {
        child = { element: read.element, node: newNode() };
        node.children.set(read.id, child);
      }
      node = child.node;
    }
    node.member = true;
  }
  return root;
}

/**
 * `toFieldsV1` that builds the set of each shape of list once: the many objects of one shape share one
 * `fieldsV1`, which is read-only (`FieldsV1`), or, where they differ only in the keys of keyed elements and
 * set values (a Deployment's container named after its tenant), share every node but those above such an
 * element. One per release: it keeps every set it built.
 *
 * The shape of a list (`shapeOf`) is the list with each keyed element and set value replaced by its kind and the
 * order in which its element first appears in the list: two lists of one shape are equal but for those elements,
 * which are equal in one where they are in the other. So they nest the same, and their nodes are in the same order
 * unless a node has two of those elements of one kind below it, ordered by their keys: a shape with such a node is
 * built for each list (`Shape.built` by the list), any other once, then made for each list by renaming its elements
 * (`renamed`).
 */
export function sharedFieldsV1(): (paths: readonly FieldPath[]) => FieldsV1 {
  const built = newListNode();
  const segments: SegmentCache = new Map();
  const shapes = new Map<string, Shape>();
  const shaped = (paths: readonly FieldPath[]): FieldsV1 => {
    const json = JSON.stringify(paths);
    const { key, elements } = shapeOf(json, segments);
    let shape = shapes.get(key);
    if (shape === undefined) {
      const fields = fieldsV1Of(treeOf(paths, segments));
      shape = { fields, elements, renamed: renamable(fields, elements) };
      shapes.set(key, shape);
      return fields;
    }
    if (sameElements(shape.elements, elements)) return shape.fields;
    if (shape.renamed === undefined) {
      shape.built ??= new Map();
      let fields = shape.built.get(json);
      if (fields === undefined) shape.built.set(json, (fields = fieldsV1Of(treeOf(paths, segments))));
      return fields;
    }
    return renamedFieldsV1(shape.fields, shape.renamed, elements);
  };
  return (paths) => {
    const node = listNodeOf(built, paths);
    return (node.fields ??= shaped(paths));
  };
}

/**
 * A node of the lists of paths seen so far, a trie by segment with a mark where each path ends: equal lists
 * end at one node, which keeps their `fieldsV1` (`sharedFieldsV1`). Found by a lookup per segment, without
 * writing the list as one string (only a list that ends at a new node is written, to find its shape). Most nodes
 * have one segment after them (the paths of an object no other shares): that one is kept beside the node, a map
 * only for the others.
 */
interface ListNode {
  /** The first segment seen after this one, and the node after it. */
  segment?: string;
  next?: ListNode;
  /** The nodes after any other segment. */
  others?: Map<string, ListNode>;
  /** The node after the end of the path. */
  end?: ListNode;
  /** The set of the list that ends here. */
  fields?: FieldsV1;
}

const newListNode = (): ListNode => ({ segment: undefined, next: undefined, others: undefined, end: undefined, fields: undefined });

/** The node after `segment`, made as needed. */
function nextListNode(node: ListNode, segment: string): ListNode {
  if (node.next === undefined) {
    node.segment = segment;
    return (node.next = newListNode());
  }
  if (node.segment === segment) return node.next;
  node.others ??= new Map();
  let next = node.others.get(segment);
  if (next === undefined) {
    next = newListNode();
    node.others.set(segment, next);
  }
  return next;
}

/** The node of `paths` below `root`, made as needed. */
function listNodeOf(root: ListNode, paths: readonly FieldPath[]): ListNode {
  let node = root;
  // indexed loops, not `for...of`: V8 optimizes this loop in a synth's one run, and two iterator protocols'
  // implicit try/finally made that compile cost more than the loop
  for (let p = 0; p < paths.length; p++) {
    const path = paths[p];
    for (let s = 0; s < path.length; s++) node = nextListNode(node, path[s]);
    node = node.end ??= newListNode();
  }
  return node;
}

/** The set of one shape of list (`sharedFieldsV1`), as built for the first list of that shape. */
interface Shape {
  /** The set of the first list. */
  readonly fields: FieldsV1;
  /** The keyed elements and set values of the first list, in the order they first appear (`shapeOf`). */
  readonly elements: readonly string[];
  /**
   * The index in `elements` of each element's id in `fields`, and the nodes of `fields` with one of them below:
   * undefined when a node has two of them of one kind, whose order depends on their keys.
   */
  readonly renamed: Renaming | undefined;
  /** For a shape that cannot be renamed, the set of each list built so far, by the list as JSON. */
  built?: Map<string, FieldsV1>;
}

/** How the set of a shape is made for another list of that shape (`renamedFieldsV1`). */
interface Renaming {
  /** The index in `Shape.elements` of each id that is one of them. */
  readonly index: ReadonlyMap<string, number>;
  /** The nodes with such an id below them, which are made again; every other node is shared. */
  readonly above: ReadonlySet<FieldsV1>;
}

/**
 * A string element of a list written as JSON (`JSON.stringify` of the paths) that may be a keyed element or a set
 * value: one that begins a string (after `[` or `,`, where no string's own characters are, since a `"` inside one
 * is escaped) and begins with `k:` or `v:`.
 */
const ELEMENT_LITERAL = /(?<=[[,])"[kv]:(?:[^"\\]|\\.)*"/g;

/**
 * The shape of a list of paths given as JSON (`sharedFieldsV1`): the JSON with each segment that is a keyed element
 * or a set value (`elementOf`) written `#k<n>` or `#v<n>` (which no JSON holds), `n` the order in which its element
 * (by `serializePathElement`, so two spellings of one element are one) first appears; and those elements' ids, in
 * that order.
 */
function shapeOf(json: string, segments: SegmentCache): { key: string; elements: string[] } {
  const elements: string[] = [];
  const key = json.replace(ELEMENT_LITERAL, (literal) => {
    const read = readSegment(segments, JSON.parse(literal) as string);
    const kind = read.element.kind;
    if (kind !== 'key' && kind !== 'value') return literal;
    let n = elements.indexOf(read.id);
    if (n < 0) n = elements.push(read.id) - 1;
    return `#${kind === 'key' ? 'k' : 'v'}${n}`;
  });
  return { key, elements };
}

function sameElements(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * How the set of a shape is renamed for another list of the shape (`Renaming`), or undefined when a node has two of
 * its elements of one kind as children: their order is by their keys, which another list may order otherwise.
 */
function renamable(fields: FieldsV1, elements: readonly string[]): Renaming | undefined {
  const index = new Map(elements.map((id, i) => [id, i]));
  const above = new Set<FieldsV1>();
  const visit = (node: FieldsV1): boolean | undefined => {
    let below = false;
    let keys = 0;
    let values = 0;
    for (const id of Object.keys(node)) {
      if (index.has(id)) {
        below = true;
        if (id.startsWith('k:') ? ++keys > 1 : ++values > 1) return undefined;
      }
      const inner = visit(node[id]);
      if (inner === undefined) return undefined;
      below ||= inner;
    }
    if (below) above.add(node);
    return below;
  };
  return visit(fields) === undefined ? undefined : { index, above };
}

/** The set of a shape (`fields`) for a list whose elements are `elements`: each node above one made again with its ids renamed. */
function renamedFieldsV1(fields: FieldsV1, renaming: Renaming, elements: readonly string[]): FieldsV1 {
  const make = (node: FieldsV1): FieldsV1 => {
    if (!renaming.above.has(node)) return node;
    const out: Record<string, FieldsV1> = {};
    for (const id of Object.keys(node)) {
      const n = renaming.index.get(id);
      out[n === undefined ? id : elements[n]] = make(node[id]);
    }
    return out;
  };
  return make(fields);
}

/** A segment read once (`SegmentCache`), made as needed. */
function readSegment(segments: SegmentCache, segment: string): ReadSegment {
  let read = segments.get(segment);
  if (read === undefined) {
    const element = elementOf(segment);
    read = { element, id: serializePathElement(element) };
    segments.set(segment, read);
  }
  return read;
}

/**
 * The `fieldsV1` object of a set of paths, with its keys in structured-merge-diff's order (so
 * `JSON.stringify` of it keeps that order; `serializeFieldsV1` for the exact bytes).
 */
export function toFieldsV1(paths: Iterable<FieldPath>): FieldsV1 {
  return fieldsV1Of(treeOf(paths));
}

/** The `fieldsV1` object of a set tree, children in structured-merge-diff's order. */
function fieldsV1Of(root: SetNode): FieldsV1 {
  const build = (node: SetNode, self: boolean): FieldsV1 => {
    const out: Record<string, FieldsV1> = {};
    if (self && node.children.size > 0) out['.'] = {};
    for (const [id, { node: child }] of sortedEntries(node)) out[id] = build(child, child.member);
    return out;
  };
  return build(root, false);
}

/** The `fieldsV1` JSON of a set of paths, byte for byte as structured-merge-diff's `Set.ToJSON` writes it. */
export function serializeFieldsV1(paths: Iterable<FieldPath>): string {
  const emit = (node: SetNode, self: boolean): string => {
    const parts: string[] = [];
    if (self && node.children.size > 0) parts.push('".":{}');
    for (const { element, node: child } of sortedChildren(node)) parts.push(`${goString(serializePathElement(element), false)}:${emit(child, child.member)}`);
    return `{${parts.join(',')}}`;
  };
  return emit(treeOf(paths), false);
}
