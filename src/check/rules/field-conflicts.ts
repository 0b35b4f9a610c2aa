import type { FieldWrite, ForcedWrite, IncludedFile, LibraryDefault, ObjectWrites } from '../../collect/facts';
import { FieldPath, formatPath } from '../../collect/ledger/field-path';
import { FieldIndex } from '../../collect/ledger/field-set';
import { describeWriter, Writer, writerCallPlace, WriterKind, writerMethod, writerName } from '../../collect/ledger/writer';
import { compareText } from '../../private/compare';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { includedHow, joinAnd, listSome } from './text';

/** The writers of one or more contested leaves of one object. */
export interface FieldConflict {
  /** How messages name the object, for example `Deployment web/frontend`. */
  readonly object: string;
  /** Every writer of the contested fields, sorted by name (two or more). */
  readonly writers: readonly Writer[];
  /**
   * How each writer wrote the contested fields, by writer id: one kind, except for a Contribution that wrote
   * them with more than one of its props (`fields` and `patches`).
   */
  readonly kinds: ReadonlyMap<string, ReadonlySet<WriterKind>>;
  /** The contested fields, formatted and sorted (the ancestor where one writer owns a whole subtree). */
  readonly fields: string[];
  /** The same fields as paths, in the order of `fields`. */
  readonly leaves: readonly FieldPath[];
  /**
   * When one of two writers is the declarer and every contested leaf holds
   * only its library's default: those defaults, in the order of `fields`.
   * @default - not a conflict over defaults
   */
  readonly defaults?: readonly LibraryDefault[];
  /**
   * When one of two writers reaches every contested leaf only by setting the
   * value of one ancestor map (a patch or override of the whole map, which
   * drops what the other set in it): that writer and the map.
   * @default - no such writer
   */
  readonly replacing?: {
    readonly writer: Writer;
    /** The map it set (`[]`: the whole object, or a CloudFormation resource's whole `Properties`). */
    readonly map: FieldPath;
    /** True for a CloudFormation resource. */
    readonly cfn: boolean;
  };
  /**
   * When every writer has `force: true`: what each writes at the contested
   * fields, with its value (force takes a field from its owner, never from
   * another forced writer).
   * @default - not a conflict between forced writers
   */
  readonly forced?: readonly ForcedWrite[];
  /**
   * When the contested field is a CloudFormation resource's tags property,
   * written whole (a Contribution's `fields: { Tags: [...] }`, an
   * `addPropertyOverride('Tags', ...)`) by one writer and by key by `Tags.of`
   * calls: the writer of the whole list.
   * @default - not such a conflict
   */
  readonly wholeTags?: Writer;
}

/**
 * `CAP002`: two or more writers of one field, or of a field and what is below
 * it, even with equal values. One violation per object and set of writers,
 * naming every writer and every field they contest.
 */
export const fieldConflicts = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'field conflicts',
  explanation: 'Two writers of the same field (as server-side apply defines fields) mean one silently loses its value on every apply; each field has exactly one owner, and others write their own fields through a Contribution.',
  run: ({ facts }) =>
    findFieldConflicts(facts.ledger.objects).map((c) => ({
      message: c.defaults ? overDefaults(c, c.defaults) : c.forced ? forcedMessage(c, c.forced) : conflictMessage(c, facts.includedFrom ?? {}),
      // an aspect or Tag of the app itself has no construct path: its call site is in the message
      paths: [...new Set(c.writers.map((w) => w.path).filter((path) => path !== ''))],
    })),
});

/**
 * The message of a conflict. Plain calls are writers one by one, so the calls of one line (a loop) may be the
 * writers: each line is named once, with how many of its calls write the field.
 */
function conflictMessage(c: FieldConflict, files: IncludedFiles): string {
  const calls = new Map<string, number>();
  for (const w of c.writers) {
    const writer = describeWriter(w);
    calls.set(writer, (calls.get(writer) ?? 0) + 1);
  }
  const fields = listSome(c.fields);
  if (c.replacing && calls.size === 2) return replacingMessage(c, c.replacing, fields, files);
  if (c.wholeTags) return wholeTagsMessage(c, c.wholeTags, calls);
  if (calls.size === 1) {
    const [[writer, times]] = calls;
    return `${writer} is called ${timesText(times)}, and each call writes ${fields} of ${c.object}: only the last call's value reaches the output. `
      + 'Give each field one owner: write each field in one call (a loop that writes one field on every turn keeps only its last value), and write what another team needs with a Contribution.';
  }
  const named = [...calls].map(([writer, times]) => (times === 1 ? writer : `${writer}, called ${timesText(times)}`));
  return `${joinAnd(named)} ${c.writers.length === 2 ? 'both' : 'all'} write ${fields} of ${c.object}. Give each field one owner: ${dropFrom(c, files)}.`;
}

/**
 * The message of a conflict over a resource's tags between a writer of the whole list and `Tags.of` calls, which
 * write each tag by its key: the list is one value, so it conflicts with every tag, whatever its keys.
 */
function wholeTagsMessage(c: FieldConflict, whole: Writer, calls: ReadonlyMap<string, number>): string {
  const property = c.fields[0];
  const instead = whole.kind === 'contribution-fields'
    ? `write: (t) => Tags.of(t).add(key, value) for each tag, in place of fields: { ${property}: [...] }`
    : `Tags.of(<the resource>).add(key, value) for each tag, in place of ${whole.method ?? 'addPropertyOverride'}('${property}', [...])`;
  return `${joinAnd([...calls.keys()])} ${c.writers.length === 2 ? 'both' : 'all'} write ${property} of ${c.object}. `
    + `${describeWriter(whole)} writes ${property} whole, as one list, over every tag another writer adds by key. Write each tag by its key instead: ${instead}.`;
}

/**
 * The message of a conflict where one writer set a whole map (or the whole object) over what the other wrote in it,
 * saying how each wrote (its props, a Contribution's prop, the plain call and where) when the ledger knows.
 */
function replacingMessage(c: FieldConflict, replacing: NonNullable<FieldConflict['replacing']>, fields: string, files: IncludedFiles): string {
  const { writer, map, cfn } = replacing;
  const other = c.writers.find((w) => w !== writer)!;
  const [what, fix] = map.length > 0
    ? [`the map ${formatPath(map)}`, `write the keys of ${formatPath(map)} one by one instead of the whole map, or leave the map to one writer`]
    : cfn
      ? ['the whole Properties', 'override each property by its own path (addPropertyOverride) instead of the whole Properties, or leave them to one writer']
      : ['the whole object', 'write each field by its own path instead of the whole object'];
  const way = (w: Writer) => wayOf(w, c.kinds.get(w.id) ?? new Set([w.kind]), files);
  const [kept, replaced] = [way(other), way(writer)];
  const who = (w: Writer) => (w.path === '' ? 'the app' : `'${w.path}'`);
  // a plain call is named with its method and site already: the ways are told when one writer made no call (its props, a Contribution)
  const told = writerMethod(other) !== undefined && writerMethod(writer) !== undefined;
  const ways = kept && replaced && !told ? ` (${who(other)} ${kept.verb}s ${fields} ${kept.how}; ${who(writer)} sets ${what} ${replaced.how})` : '';
  return `${describeWriter(writer)} replaces ${what} of ${c.object}, which drops ${fields}, written by ${describeWriter(other)}. Give each field one owner: ${fix}${ways}.`;
}

/**
 * The message of a conflict between writers that all have `force: true`: each takes the field from its owner, and
 * none from another, so without the refusal the one the ledger met last would silently win. Equal values conflict
 * too, as they do between writers without force.
 */
function forcedMessage(c: FieldConflict, forced: readonly ForcedWrite[]): string {
  const secret = c.object.startsWith('Secret ');
  const wrote = c.writers.map((w) => {
    const values = forced.filter((f) => f.writer.id === w.id).map((f) => `${formatPath(f.path)}: ${shownValue(f, secret)}`);
    return `${describeWriter(w)} writes ${listSome(values)}`;
  });
  const shown = forced.map((f) => shownValue(f, secret));
  const equal = shown.every((v) => v === shown[0]) && !secret && !shown[0].startsWith('(');
  const one = c.writers.length === 2 ? 'one of them' : 'all of them but one';
  return `${joinAnd(c.writers.map(describeWriter))} ${c.writers.length === 2 ? 'both' : 'all'} write ${listSome(c.fields)} of ${c.object} with force: true (${wrote.join('; ')}). `
    + `force: true takes a field from its owner, not from another writer with force: true, so only the last one's value would reach the output${equal ? ', and equal values conflict too' : ''}. `
    + `Give each field one owner: drop the field from ${one}, or make them one Contribution.`;
}

/** A forced write's value as a message shows it: JSON, at most 60 characters; `(sensitive)` in a Secret, `(removed)`, `(known after deploy)`. */
function shownValue(w: ForcedWrite, secret: boolean): string {
  if (w.removes) return '(removed)';
  if (!('value' in w)) return '(value not known)';
  if (secret) return '(sensitive)';
  const text = JSON.stringify(w.value) ?? String(w.value);
  if (text.includes('${Token[')) return '(known after deploy)';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const timesText = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/**
 * How to give each field one owner: drop it from all writers but one, naming how each wrote it (its props, a
 * Contribution's prop, the plain call and where); plain calls on one object keep one call; an aspect is kept off
 * the resource; a runtime writer's leaf is the controller's at deploy time too. Where the ledger does not know
 * how a writer wrote (an override no call was recorded for), the ways every writer could have written it.
 */
function dropFrom(c: FieldConflict, files: IncludedFiles): string {
  const writers = c.writers;
  if (writers.every((w) => (w.kind === 'json-patch' || w.kind === 'override') && w.path === writers[0].path)) {
    return `keep one of these calls on '${writers[0].path}' (each replaces the value of the one before it), and write what another team needs with a Contribution`;
  }
  const aspects = writers.filter((w) => w.kind === 'aspect');
  // an aspect writes every resource it visits: its fix is where it reaches, not a prop
  const offResource = aspects.length === 0 ? ''
    : `, or keep ${aspects.length === 1 ? 'the aspect' : 'all aspects but one'} off the resource (${aspects.length === 1 ? 'its' : 'their'} visit skips it, or ${aspects.length === 1 ? 'it is' : 'they are'} added to a scope that does not hold it)`;
  const runtime = writers.filter((w) => w.kind === 'runtime');
  const overwritten = runtime.length === 0 ? ''
    : `the deploy-time value would be overwritten or would overwrite ${runtime.length === 1 ? 'the controller' : 'the controllers'}`;

  // writers that wrote the same way are named together (the calls of one line, a loop, once), in the order of their names
  const ways = new Map<string, { verb: Verb; how: string; whos: Set<string> }>();
  for (const w of writers) {
    const way = wayOf(w, c.kinds.get(w.id) ?? new Set([w.kind]), files);
    if (!way) {
      ways.clear();
      break;
    }
    const key = `${way.verb}\u0000${way.how}`;
    const same = ways.get(key) ?? { ...way, whos: new Set<string>() };
    same.whos.add(w.path === '' ? 'the app' : `'${w.path}'`);
    ways.set(key, same);
  }
  if (ways.size > 0) {
    const named = [...ways.values()].map(({ verb, how, whos }) => {
      if (whos.size === 1) return `${[...whos][0]} ${verb}s it ${how}`;
      return `${whos.size <= 3 ? joinAnd([...whos]) : `${whos.size} of them`} ${verb} it ${how}`;
    });
    const one = writers.length === 2 ? 'one of them' : 'all of them but one';
    return `drop it from ${one} (${named.join('; ')})${offResource}${overwritten ? `: ${overwritten}` : ''}`;
  }
  const all = `drop it from ${writers.length === 2 ? 'one writer' : 'all writers but one'} (its props, Contribution, addJsonPatch or addPropertyOverride`;
  if (runtime.length === 0) return `${all})${offResource}`;
  return `${all}, or the RuntimeWriter's fields): ${joinAnd(runtime.map(describeWriter))} ${runtime.length === 1 ? 'writes it' : 'write it'} in the cluster, where ${overwritten}`;
}

/** The file each included object or resource was read from, by its declarer's path (`Facts.includedFrom`). */
type IncludedFiles = Readonly<Record<string, IncludedFile>>;


/** The props of a Contribution, in the order its docs give them, by the kind of write each makes. */
const CONTRIBUTION_PROPS: ReadonlyArray<[WriterKind, string]> = [
  ['contribution-fields', 'fields'],
  ['contribution-patches', 'patches'],
  ['contribution-write', 'write callback'],
];

/** The verb of a way of writing, as it goes after the writers it names (`declares` of one, `declare` of several). */
type Verb = 'declare' | 'write';

/**
 * How one writer wrote the contested fields (`declare` `in its props or methods`, `write` `through
 * addJsonPatch at main.ts:12`); undefined when the ledger does not know (a plain call whose API was not recorded).
 *
 * @param kinds how it wrote them: more than one for a Contribution that used several of its props
 * @param files the file each included object was read from, by its path
 */
function wayOf(w: Writer, kinds: ReadonlySet<WriterKind>, files: IncludedFiles): { verb: Verb; how: string } | undefined {
  switch (w.kind) {
    case 'declaration':
      // an object of a YAML file (cdk8s Include) or a resource of a template (CfnInclude): its props are the file's
      if (Object.hasOwn(files, w.path)) return { verb: 'declare', how: includedHow(files[w.path]) };
      // a stack's own tags are named apart from a Tag added to the stack (`stack tags`)
      return { verb: 'declare', how: w.method !== undefined ? `in its ${w.method}` : 'in its props or methods' };
    case 'contribution-fields':
    case 'contribution-patches':
    case 'contribution-write':
      return { verb: 'write', how: `as a Contribution, in its ${joinAnd(CONTRIBUTION_PROPS.filter(([k]) => kinds.has(k)).map(([, prop]) => prop))}` };
    case 'json-patch':
    case 'override':
    case 'tag':
    case 'aspect': {
      if (w.method === undefined) return undefined;
      return { verb: 'write', how: `through ${w.method}${writerCallPlace(w)}` };
    }
    case 'runtime':
      return { verb: 'write', how: 'in the cluster, as a RuntimeWriter' };
    default:
      return undefined;
  }
}

/** The message of a conflict with a declarer over values it has only from its library's defaults: how to hand them over. */
function overDefaults(c: FieldConflict, defaults: readonly LibraryDefault[]): string {
  const declarer = c.writers.find((w) => w.kind === 'declaration')!;
  const other = c.writers.find((w) => w !== declarer)!;
  const values = defaults.map((d, i) => `${c.fields[i]}: ${JSON.stringify(d.value)}`);
  const replicas = c.leaves.some((l) => l.length === 2 && l[0] === 'spec' && l[1] === 'replicas');
  const force = other.kind.startsWith('contribution-') ? `give ${describeWriter(other)} force: true to take ${c.fields.length === 1 ? 'it' : 'them'}` : 'write it from a Contribution with force: true';
  return (
    `${describeWriter(other)} writes ${listSome(c.fields)} of ${c.object}, which ${describeWriter(declarer)} has only from ${defaults[0].library}'s ${defaults.length === 1 ? 'default' : 'defaults'} (${listSome(values)}). ` +
    `Hand ${c.fields.length === 1 ? 'the field' : 'the fields'} over: set the value in the props of ${describeWriter(declarer)} and drop it from the other writer, or ${force}` +
    (replicas ? `, or call markHasAutoscaler() on ${describeWriter(declarer)} so that cdk8s-plus leaves replicas to the autoscaler.` : '.')
  );
}

/**
 * The contested leaves of each object, grouped per object and set of writers.
 *
 * A path is contested when a writer replaces the node there (a scalar, an
 * atomic value: any write that is not a presence write) and some other writer
 * writes that path or below it. Presence writes (an empty map, a key-only list
 * element, a set value) contest nothing among themselves. Linear in writes
 * times path depth, and for most writes less: see `contestedPaths`.
 */
export function findFieldConflicts(objects: readonly ObjectWrites[]): FieldConflict[] {
  const found: FieldConflict[] = [];
  for (const object of objects) {
    if (!twoWritersMeet(object.writes)) continue;
    const contested = contestedPaths(object.writes);
    if (contested.length === 0) continue;
    const groups = new Map<string, { writers: Writer[]; kinds: Map<string, Set<WriterKind>>; fields: Array<[string, FieldPath]> }>();
    for (const [path, writers] of contested) {
      // Two runtime writers and nothing else: runtime-writer-overlaps reports them once per pair, not once per object.
      if (writers.size < 2 || [...writers.values()].every((w) => w.kind === 'runtime')) continue;
      const sorted = [...writers.values()].sort((a, b) => compareText(writerName(a), writerName(b)) || compareText(a.id, b.id));
      const id = sorted.map((w) => w.id).join('\u0000');
      let group = groups.get(id);
      if (!group) {
        group = { writers: sorted, kinds: new Map(), fields: [] };
        groups.set(id, group);
      }
      for (const w of writers.values()) {
        const kinds = group.kinds.get(w.id);
        if (kinds) kinds.add(w.kind);
        else group.kinds.set(w.id, new Set([w.kind]));
      }
      group.fields.push([formatPath(path), path]);
    }
    for (const group of groups.values()) {
      const fields = group.fields.sort((a, b) => compareText(a[0], b[0]));
      const leaves = fields.map((f) => f[1]);
      const defaults = defaultsContested(object, group.writers, leaves);
      const replacing = replacingWriter(object, group.writers, leaves);
      const forced = forcedWrites(object, group.writers, leaves);
      const wholeTags = wholeTagsWriter(object, group.writers, leaves);
      const conflict: FieldConflict = { object: object.label, writers: group.writers, kinds: group.kinds, fields: fields.map((f) => f[0]), leaves };
      found.push({
        ...conflict,
        ...(defaults ? { defaults } : {}),
        ...(replacing ? { replacing } : {}),
        ...(forced ? { forced } : {}),
        ...(wholeTags ? { wholeTags } : {}),
      });
    }
  }
  return found;
}

/** The most pairs of writes `twoWritersMeet` compares; past it, it leaves the answer to `contestedPaths`. */
const MEETINGS_COMPARED = 4096;

/**
 * Whether two writers of an object write one path, or one a path below the other's: without such a pair no path
 * can have two writers (a contested path has a writer that replaces it and another that writes at or below it),
 * so the object has no conflict. Most objects with several writers have none (a declarer and a Contribution of
 * one annotation): this comparison of each write of the writers but the first with every other writer's write
 * costs far less than `contestedPaths`. True when there are more pairs than `MEETINGS_COMPARED`.
 */
export function twoWritersMeet(writes: readonly FieldWrite[]): boolean {
  if (writes.length < 2) return false;
  // indexed loops, not `for...of`: V8 optimizes this function in a synth's one run, and the iterator protocol's
  // implicit try/finally made that compile cost more than the loops
  const n = writes.length;
  const first = writes[0].writer.id;
  let others = 0;
  for (let i = 0; i < n; i++) if (writes[i].writer.id !== first) others++;
  if (others === 0) return false;
  if (others * n > MEETINGS_COMPARED) return true;
  for (let i = 0; i < n; i++) {
    const a = writes[i];
    const id = a.writer.id;
    if (id === first) continue;
    for (let j = 0; j < n; j++) {
      const b = writes[j];
      if (b.writer.id !== id && onOnePath(a.path, b.path)) return true;
    }
  }
  return false;
}

/** Whether one of two paths is the other or begins it. */
function onOnePath(a: FieldPath, b: FieldPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A node of the paths that writers other than an object's main writer write at or through. */
interface Through {
  readonly children: Map<string, Through>;
  /** The writers that replace the node here (any write of this path that is no presence write), by id, in the order written. */
  replacers?: Map<string, Writer>;
}

/** A node of the contested paths: children in the order the writes first reached them. */
interface Contested {
  children?: Map<string, Contested>;
  /** For a contested path: its replacers, then every writer that writes at or below it, by id. */
  writers?: Map<string, Writer>;
}

/**
 * Every path of one object that some writer replaces, with that path's replacers and every writer that writes at
 * or below it, in the order of a `FieldIndex` of them made write by write (depth first, children in the order the
 * writes first reached them): each replaced path a write walks through is added, with its ancestors, as the write
 * reaches it. Only paths that another writer than the main one (the writer of most writes, in a Deployment its
 * declarer) writes at or through are kept, since only they can have two writers: an object of one writer costs
 * one pass over its writes, and a declarer's write stops at the first segment no other writer's path shares.
 *
 * The order of the paths kept is the order they have among all replaced paths: a write makes the nodes down to the
 * deepest replaced path at or above it, so a node here is made by the same write as there. A presence write
 * replaces nothing; it makes nodes only down to a replaced ancestor, which may be one of the main writer's alone.
 *
 * @returns each path and its writers, in that order; a path of one writer may be left out
 */
export function contestedPaths(writes: readonly FieldWrite[]): Array<[FieldPath, Map<string, Writer>]> {
  const counts = new Map<string, number>();
  let main: string | undefined;
  let most = 0;
  for (const { writer } of writes) {
    const n = (counts.get(writer.id) ?? 0) + 1;
    counts.set(writer.id, n);
    if (n > most) [main, most] = [writer.id, n];
  }
  if (counts.size < 2) return [];

  // the paths the other writers write, and their ancestors
  const root: Through = { children: new Map() };
  for (const { writer, path } of writes) {
    if (writer.id === main) continue;
    let node = root;
    for (const segment of path) {
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, child = { children: new Map() });
      node = child;
    }
  }
  // how deep each write's path goes among them, and who replaces each of them
  const reach = writes.map(({ writer, path, presence }) => {
    const along = [root];
    for (let depth = 0; depth < path.length; depth++) {
      const child = along[depth].children.get(path[depth]);
      if (!child) break;
      along.push(child);
    }
    if (!presence && along.length > path.length) (along[path.length].replacers ??= new Map()).set(writer.id, writer);
    return along;
  });

  let mainReplaced: FieldIndex<true> | undefined;
  const top: Contested = {};
  writes.forEach(({ writer, path, presence }, w) => {
    const along = reach[w];
    let deepest = along.length - 1;
    if (presence) {
      // down to the deepest replaced path at or above it: past the other writers' paths, or the deepest among them
      mainReplaced ??= replacedBy(writes, main);
      let past = false;
      mainReplaced.forEachPrefix(path, (_, depth) => {
        past ||= depth > deepest;
      });
      if (!past) while (deepest >= 0 && !along[deepest].replacers) deepest--;
    }
    let at = top;
    for (let depth = 0; depth <= deepest; depth++) {
      if (depth > 0) {
        at.children ??= new Map();
        let child = at.children.get(path[depth - 1]);
        if (!child) at.children.set(path[depth - 1], child = {});
        at = child;
      }
      const replacers = along[depth].replacers;
      if (replacers) (at.writers ??= new Map(replacers)).set(writer.id, writer);
    }
  });

  const found: Array<[FieldPath, Map<string, Writer>]> = [];
  const stack: Array<[Contested, string[]]> = [[top, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node.writers) found.push([path, node.writers]);
    const children = node.children ? [...node.children] : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i][1], [...path, children[i][0]]]);
  }
  return found;
}

/** The paths `writer` replaces (its writes that are no presence writes). */
function replacedBy(writes: readonly FieldWrite[], writer: string | undefined): FieldIndex<true> {
  const index = new FieldIndex<true>();
  for (const w of writes) if (w.writer.id === writer && !w.presence) index.set(w.path, true);
  return index;
}

/** Of two writers, the one that writes every one of `leaves` only by replacing one map above them, with the map. */
function replacingWriter(object: ObjectWrites, writers: readonly Writer[], leaves: readonly FieldPath[]): FieldConflict['replacing'] {
  if (writers.length !== 2 || !object.writes.some((w) => w.replacing)) return undefined;
  const found = writers.map((writer) => {
    const maps = leaves.map((leaf) => object.writes.find((w) => w.writer.id === writer.id && w.replacing && samePath(w.path, leaf))?.replacing);
    const map = maps[0];
    return map && maps.every((m) => m && samePath(m, map)) ? { writer, map, cfn: object.kind === 'cfn' } : undefined;
  }).filter((r) => r !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Of the writers of a CloudFormation resource's one contested property, the one that writes it whole when every other
 * is a `Tags.of` call (which writes only below the tags property, one leaf per key): the writer of the whole tag list.
 */
function wholeTagsWriter(object: ObjectWrites, writers: readonly Writer[], leaves: readonly FieldPath[]): Writer | undefined {
  if (object.kind !== 'cfn' || leaves.length !== 1 || leaves[0].length !== 1) return undefined;
  const others = writers.filter((w) => w.kind !== 'tag');
  if (others.length !== 1 || others.length === writers.length) return undefined;
  const [whole] = others;
  if (whole.kind !== 'contribution-fields' && whole.kind !== 'override') return undefined;
  return object.writes.some((w) => w.writer.id === whole.id && !w.presence && samePath(w.path, leaves[0])) ? whole : undefined;
}

/** When every one of `writers` has `force: true`, their forced writes at or below `leaves`; else undefined. */
function forcedWrites(object: ObjectWrites, writers: readonly Writer[], leaves: readonly FieldPath[]): ForcedWrite[] | undefined {
  if (!object.forced) return undefined;
  const under = object.forced.filter((f) => leaves.some((leaf) => leaf.length <= f.path.length && leaf.every((s, i) => f.path[i] === s)));
  return writers.every((w) => under.some((f) => f.writer.id === w.id)) ? under.filter((f) => writers.some((w) => w.id === f.writer.id)) : undefined;
}

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The library defaults at `leaves` when two writers, one the declarer, contest only such leaves; else undefined. */
function defaultsContested(object: ObjectWrites, writers: readonly Writer[], leaves: readonly FieldPath[]): LibraryDefault[] | undefined {
  if (!object.defaults || writers.length !== 2 || !writers.some((w) => w.kind === 'declaration')) return undefined;
  const byPath = new FieldIndex<LibraryDefault>();
  for (const d of object.defaults) byPath.set(d.path, d);
  const found = leaves.map((l) => byPath.get(l));
  return found.every((d) => d !== undefined) ? (found as LibraryDefault[]) : undefined;
}
