/**
 * The elements of positional lists lined up between two versions of an object, for the plan's field diff.
 *
 * A list whose elements the plan names by index (`rules[0].resourceNames[2]`) is atomic to server-side apply (the
 * schema gives it no keys: RBAC `rules` and their `resourceNames`, a binding's `matchResources.resourceRules`,
 * `command`, `args`, `tolerations`), or keyed with keys that repeat. Server-side apply replaces such a list whole,
 * so its elements have no identity; compared index by index, one name inserted before others shows every later
 * element as changed. Lined up as a text diff lines up lines (the longest common subsequence of equal elements), an
 * inserted element is one element added, a removed one one element removed, and the elements between stay
 * unchanged. Where as many elements are removed as added between two unchanged ones, they are compared leaf by leaf
 * in order (a rule whose verbs changed shows the verb, not the rule replaced).
 */

/** A leaf of one version, by the path the plan names it. */
export interface PositionalLeaf {
  /** The path (`rules[0].resourceNames[2]`, `spec.template.spec.containers[name=web].args[1]`). */
  readonly path: string;
  /** Its value. */
  readonly value: unknown;
}

/** How each leaf of the two versions is compared, once the positional lists are lined up. */
export interface LinedUpLeaves {
  /** Each old leaf's path with its lists' indexes moved to the new version's (the path itself where nothing moved). */
  readonly oldPaths: readonly string[];
  /** For an old leaf in an element that the new version does not have, that element: its path (old index) and value. */
  readonly oldRemoved: ReadonlyMap<number, WholeElement>;
  /** For a new leaf in an element that the old version does not have, that element: its path (new index) and value. */
  readonly newAdded: ReadonlyMap<number, WholeElement>;
}

/** An element of a positional list that one version has and the other does not. */
export interface WholeElement {
  /** `rules[0].resourceNames[2]`. */
  readonly path: string;
  /** The element, rebuilt from its leaves. */
  readonly value: unknown;
}

/** What every path with an index segment holds (`[3`); a key or set value in brackets starts with a letter, `=` or `"`. */
const MAYBE_INDEX = /\[\d/;

/** Past this many cells (elements not in a common prefix or suffix, old times new), lists keep their indexes. */
const MAX_ALIGNMENT_CELLS = 1_000_000;

/** One index segment of a path: where its list's path ends, the index, and where the segment ends. */
interface IndexSegment {
  readonly at: number;
  readonly index: number;
  readonly end: number;
}

/**
 * The first index segment (`[3]`) of `path` at or after `from`: a bracket whose content is digits. A key or set value
 * in brackets (`[name=web]`, `[=a]`, `["a.b"]`) is skipped whole, quoted strings in it included (an unquoted key
 * never holds `]` or `"`: `formatScalar` quotes it).
 */
function indexSegmentOf(path: string, from: number): IndexSegment | undefined {
  let i = from;
  while (i < path.length) {
    if (path[i] !== '[') {
      i++;
      continue;
    }
    let j = i + 1;
    let quoted = false;
    for (; j < path.length; j++) {
      const c = path[j];
      if (quoted) {
        if (c === '\\') j++;
        else if (c === '"') quoted = false;
      } else if (c === '"') {
        quoted = true;
      } else if (c === ']') {
        break;
      }
    }
    const content = path.slice(i + 1, j);
    if (/^\d+$/.test(content)) return { at: i, index: Number(content), end: j + 1 };
    i = j + 1;
  }
  return undefined;
}

/** A leaf being lined up: which version, its number there, its current path and how much of it is settled. */
interface Item {
  readonly side: 'old' | 'new';
  readonly n: number;
  path: string;
  settled: number;
  done: boolean;
}

/**
 * Lines up the positional lists of two versions of an object (see the module's comment).
 *
 * @param old the old version's leaves, in its order
 * @param now the new version's leaves, in its order
 */
export function lineUpPositionalLists(old: readonly PositionalLeaf[], now: readonly PositionalLeaf[]): LinedUpLeaves {
  // most objects (a ConfigMap, a Deployment whose lists are all keyed) have no index segment at all
  const indexed = (l: PositionalLeaf) => MAYBE_INDEX.test(l.path);
  if (!old.some(indexed) || !now.some(indexed)) return { oldPaths: old.map((l) => l.path), oldRemoved: new Map(), newAdded: new Map() };
  const items: Item[] = [
    ...old.map((l, n) => ({ side: 'old' as const, n, path: l.path, settled: 0, done: false })),
    ...now.map((l, n) => ({ side: 'new' as const, n, path: l.path, settled: 0, done: false })),
  ];
  const oldRemoved = new Map<number, WholeElement>();
  const newAdded = new Map<number, WholeElement>();
  const wholes = new Map<Element, unknown>();
  const whole = (element: Element) => (wholes.has(element) ? wholes.get(element) : wholes.set(element, elementValue(element)).get(element));
  const valueOf = (item: Item) => (item.side === 'old' ? old[item.n].value : now[item.n].value);

  for (let active = items.filter((i) => !i.done); active.length > 0; active = items.filter((i) => !i.done)) {
    // every leaf's next index segment, grouped by its list (the path before it) and side
    const lists = new Map<string, { old: Array<[Item, IndexSegment]>; new: Array<[Item, IndexSegment]> }>();
    for (const item of active) {
      const segment = indexSegmentOf(item.path, item.settled);
      if (!segment) {
        item.done = true;
        continue;
      }
      const list = item.path.slice(0, segment.at);
      const entry = lists.get(list) ?? { old: [], new: [] };
      entry[item.side].push([item, segment]);
      lists.set(list, entry);
    }
    for (const [list, sides] of lists) {
      if (sides.old.length === 0 || sides.new.length === 0) {
        // a list of one version only: its leaves are added or removed as they are
        for (const [item, segment] of [...sides.old, ...sides.new]) item.settled = segment.end;
        continue;
      }
      const oldElements = elementsOf(sides.old, valueOf);
      const newElements = elementsOf(sides.new, valueOf);
      const oldAt = new Map(oldElements.map((e) => [e.index, e]));
      const newAt = new Map(newElements.map((e) => [e.index, e]));
      const pairs = lineUp(oldElements.map((e) => e.content), newElements.map((e) => e.content));
      const newIndexOf = new Map<number, number>();
      pairs.forEach(([o, n]) => newIndexOf.set(oldElements[o].index, newElements[n].index));
      const paired = new Set(pairs.map(([, n]) => newElements[n].index));
      for (const [item, segment] of sides.old) {
        const to = newIndexOf.get(segment.index);
        if (to === undefined) {
          oldRemoved.set(item.n, { path: item.path.slice(0, segment.end), value: whole(oldAt.get(segment.index)!) });
          item.done = true;
          continue;
        }
        const head = `${list}[${to}]`;
        item.path = head + item.path.slice(segment.end);
        item.settled = head.length;
      }
      for (const [item, segment] of sides.new) {
        if (!paired.has(segment.index)) {
          newAdded.set(item.n, { path: item.path.slice(0, segment.end), value: whole(newAt.get(segment.index)!) });
          item.done = true;
          continue;
        }
        item.settled = segment.end;
      }
    }
  }
  const oldPaths = items.filter((i) => i.side === 'old').map((i) => i.path);
  return { oldPaths, oldRemoved, newAdded };
}

/** An element of a positional list: its index, its leaves (path below it, value) and their text, which equal elements share. */
interface Element {
  readonly index: number;
  readonly leaves: Array<{ readonly rest: string; readonly value: unknown }>;
  content: string;
}

/** The elements of one list of one version, in index order, from the leaves in them. */
function elementsOf(entries: ReadonlyArray<[Item, IndexSegment]>, valueOf: (item: Item) => unknown): Element[] {
  const byIndex = new Map<number, Element>();
  for (const [item, segment] of entries) {
    const element = byIndex.get(segment.index) ?? { index: segment.index, leaves: [], content: '' };
    element.leaves.push({ rest: item.path.slice(segment.end), value: valueOf(item) });
    byIndex.set(segment.index, element);
  }
  const elements = [...byIndex.values()].sort((a, b) => a.index - b.index);
  for (const e of elements) e.content = JSON.stringify(e.leaves.map((l) => [l.rest, l.value]));
  return elements;
}

/**
 * The pairs (old position, new position) of elements that stay: the longest common subsequence of equal elements,
 * and between two of them, as many removed as added elements paired in order. Lists too long to line up
 * (`MAX_ALIGNMENT_CELLS`) pair by position, as before.
 */
function lineUp(old: readonly string[], now: readonly string[]): Array<[number, number]> {
  let prefix = 0;
  while (prefix < old.length && prefix < now.length && old[prefix] === now[prefix]) prefix++;
  let suffix = 0;
  while (suffix < old.length - prefix && suffix < now.length - prefix && old[old.length - 1 - suffix] === now[now.length - 1 - suffix]) suffix++;
  const [a, b] = [old.slice(prefix, old.length - suffix), now.slice(prefix, now.length - suffix)];
  const common: Array<[number, number]> = [];
  if (a.length * b.length > MAX_ALIGNMENT_CELLS) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) common.push([i, i]);
  } else {
    // lengths of the longest common subsequence of a[i..] and b[j..]
    const width = b.length + 1;
    const table = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
      }
    }
    let [i, j] = [0, 0];
    const equal: Array<[number, number]> = [];
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) {
        equal.push([i++, j++]);
      } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
        i++;
      } else {
        j++;
      }
    }
    // between two equal elements (or an end), as many removed as added: compared in order
    let [lastI, lastJ] = [-1, -1];
    for (const [ei, ej] of [...equal, [a.length, b.length] as [number, number]]) {
      if (ei - lastI === ej - lastJ) for (let k = 1; k < ei - lastI; k++) common.push([lastI + k, lastJ + k]);
      if (ei < a.length) common.push([ei, ej]);
      [lastI, lastJ] = [ei, ej];
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < prefix; k++) pairs.push([k, k]);
  for (const [i, j] of common) pairs.push([prefix + i, prefix + j]);
  for (let k = 0; k < suffix; k++) pairs.push([old.length - suffix + k, now.length - suffix + k]);
  return pairs;
}

/** An element's value, rebuilt from its leaves (a scalar element is its one leaf). */
function elementValue(element: Element): unknown {
  if (element.leaves.length === 1 && element.leaves[0].rest === '') return element.leaves[0].value;
  let root: any;
  for (const { rest, value } of element.leaves) {
    const steps = stepsOf(rest);
    if (steps.length === 0) return value;
    root ??= typeof steps[0] === 'number' ? [] : {};
    let node = root;
    steps.forEach((step, k) => {
      if (k === steps.length - 1) {
        node[step] = value;
        return;
      }
      node[step] ??= typeof steps[k + 1] === 'number' ? [] : {};
      node = node[step];
    });
  }
  return root;
}

/** The steps of a path below an element: `.a.b`, `["a.b"]`, `[0]` (positional: nothing inside is keyed). */
function stepsOf(rest: string): Array<string | number> {
  const steps: Array<string | number> = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const m of rest.matchAll(re)) {
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(JSON.parse(m[3]) as string);
  }
  return steps;
}
