import { appendTo } from '../private/append';
import type { FieldChange } from '../release/release-diff';

/** One line of a changed unit in the plan: `+`, `~` or `-`, a path, and what it shows. */
export interface TerseLine {
  /** `+` added, `~` changed, `-` removed. */
  readonly sign: '+' | '~' | '-';
  /** The path, cut at a resource or an intrinsic function. */
  readonly path: string;
  /** The value shown after the path, already rendered. */
  readonly text: string;
}

/** A path segment: a name (`.name`, `["Fn::Join"]`) or an index (`[0]`). */
type Segment = { readonly name: string } | { readonly index: number };

/** `a.b["Fn::Join"][1][0]` -> `a`, `b`, `Fn::Join`, 1, 0. */
function segmentsOf(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /(?:^|\.)([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const m of path.matchAll(re)) {
    if (m[1] !== undefined) out.push({ name: m[1] });
    else if (m[2] !== undefined) out.push({ index: Number(m[2]) });
    else out.push({ name: JSON.parse(m[3]) as string });
  }
  return out;
}

/** The path text of segments, as the plan writes paths. */
function pathOf(segments: readonly Segment[]): string {
  return segments.map((s, i) => {
    if ('index' in s) return `[${s.index}]`;
    return /^[A-Za-z_$][\w$-]*$/.test(s.name) ? `${i === 0 ? '' : '.'}${s.name}` : `[${JSON.stringify(s.name)}]`;
  }).join('');
}

/** A CloudFormation intrinsic function's key. */
function isIntrinsic(name: string): boolean {
  return name === 'Ref' || name.startsWith('Fn::');
}

/** A value as the plan shows it: JSON, except the masks (`(sensitive)`, `(sensitive, changed)`, `(known after deploy)`), which are shown as they are. */
export function showValue(v: unknown): string {
  if (typeof v === 'string' && /^\((sensitive|known after deploy)(, [a-z ]+)?\)$/.test(v)) return v;
  return JSON.stringify(v);
}

/** An intrinsic function as one value: `Ref(Bucket)`, `Fn::GetAtt(Role.Arn)`, `Fn::Join(...)`. */
function intrinsicText(name: string, leaves: readonly Leaf[]): string {
  const scalars = leaves.filter((l) => l.rest.length === 0 || (l.rest.length === 1 && 'index' in l.rest[0]));
  if (scalars.length === leaves.length && leaves.length > 0 && leaves.length <= 2 && leaves.every((l) => typeof l.value === 'string')) {
    return `${name}(${leaves.map((l) => l.value).join('.')})`;
  }
  return `${name}(...)`;
}

/** Leaves shown of a changed intrinsic function that reads the same on both sides. */
const SHOWN_LEAVES = 3;

/**
 * A changed intrinsic function: `Ref(RoleA) -> Ref(RoleB)`; when both sides read the same (`Fn::Join(...)`),
 * the function once and the leaves inside it that differ, by their path in it:
 * `Fn::Join(...), changed at [1][1].Ref: "AWS::Partition" -> "AWS::Region"`.
 */
function changedIntrinsicText(name: string, before: readonly Leaf[], after: readonly Leaf[]): string {
  const [from, to] = [intrinsicText(name, before), intrinsicText(name, after)];
  if (from !== to) return `${from} -> ${to}`;
  const at = (leaf: Leaf) => pathOf(leaf.rest) || '(the value)';
  const afterAt = new Map(after.map((l) => [at(l), l.value]));
  const beforeAt = new Map(before.map((l) => [at(l), l.value]));
  const differing = [...new Set([...beforeAt.keys(), ...afterAt.keys()])].flatMap((p) => {
    const [b, a] = [beforeAt.has(p) ? showValue(beforeAt.get(p)) : '(none)', afterAt.has(p) ? showValue(afterAt.get(p)) : '(none)'];
    return a === b ? [] : [`${p}: ${b} -> ${a}`];
  });
  if (differing.length === 0) return `${from} (changed expression)`;
  const more = differing.length > SHOWN_LEAVES ? ` and ${differing.length - SHOWN_LEAVES} more` : '';
  return `${from}, changed at ${differing.slice(0, SHOWN_LEAVES).join('; ')}${more}`;
}

/** A leaf inside an intrinsic function: its path below the function's key, and its value. */
interface Leaf {
  readonly rest: readonly Segment[];
  readonly value: unknown;
}

/**
 * The changed leaves of a unit as the plan prints them, tersely, as terraform
 * does: a CloudFormation resource that is added or removed as a whole is one
 * line (`+ Resources.Policy (AWS::IAM::Policy)`), and an intrinsic function is
 * one value (`Ref(Bucket)`, `Fn::Join(...)`), never its leaves one by one.
 */
export function terseFields(fields: readonly FieldChange[]): TerseLine[] {
  const lines: TerseLine[] = [];
  const parsed = fields.map((f) => ({ f, segments: segmentsOf(f.path) }));
  const done = new Set<FieldChange>();

  // a resource added or removed whole: every leaf under Resources.<id> added (or removed), its Type among them
  // (a resource whose list grew or shrank has only added or removed leaves too, but keeps its Type)
  const byResource = new Map<string, typeof parsed>();
  for (const p of parsed) {
    const [first, second] = p.segments;
    if (first && 'name' in first && first.name === 'Resources' && second && 'name' in second) {
      const key = pathOf(p.segments.slice(0, 2));
      appendTo(byResource, key, p);
    }
  }
  const wholes = new Map<FieldChange, TerseLine>();
  for (const [key, group] of byResource) {
    const sign = group.every((p) => !('before' in p.f)) ? '+' : group.every((p) => !('after' in p.f)) ? '-' : undefined;
    const type = group.find((p) => p.segments.length === 3 && 'name' in p.segments[2] && p.segments[2].name === 'Type');
    if (!sign || !type) continue;
    const value = sign === '+' ? type.f.after : type.f.before;
    wholes.set(group[0].f, { sign, path: key, text: typeof value === 'string' ? ` (${value})` : '' });
    for (const p of group) done.add(p.f);
  }

  // intrinsic functions, cut at the function's key
  const intrinsics = new Map<string, { at: number; prefix: Segment[]; name: string; items: typeof parsed }>();
  for (const p of parsed) {
    if (done.has(p.f)) continue;
    const at = p.segments.findIndex((s) => 'name' in s && isIntrinsic(s.name));
    if (at < 0) continue;
    const key = pathOf(p.segments.slice(0, at + 1));
    const entry = intrinsics.get(key) ?? { at, prefix: p.segments.slice(0, at), name: (p.segments[at] as { name: string }).name, items: [] };
    entry.items.push(p);
    intrinsics.set(key, entry);
  }
  const folded = new Map<FieldChange, TerseLine>();
  for (const { at, prefix, name, items } of intrinsics.values()) {
    const side = (which: 'before' | 'after') => items.filter((p) => which in p.f).map((p) => ({ rest: p.segments.slice(at + 1), value: p.f[which] }));
    const before = side('before');
    const after = side('after');
    const path = pathOf(prefix);
    let line: TerseLine;
    if (before.length === 0) line = { sign: '+', path, text: `: ${intrinsicText(name, after)}` };
    else if (after.length === 0) line = { sign: '-', path, text: `: ${intrinsicText(name, before)}` };
    else line = { sign: '~', path, text: `: ${changedIntrinsicText(name, before, after)}` };
    folded.set(items[0].f, line);
    for (const p of items) done.add(p.f);
  }

  for (const { f } of parsed) {
    const whole = wholes.get(f) ?? folded.get(f);
    if (whole) lines.push(whole);
    if (done.has(f)) continue;
    if (!('before' in f)) lines.push({ sign: '+', path: f.path, text: `: ${shownCut(f.after)}` });
    else if (!('after' in f)) lines.push({ sign: '-', path: f.path, text: `: ${shownCut(f.before)}` });
    else lines.push({ sign: '~', path: f.path, text: `: ${shownChange(f.before, f.after)}` });
  }
  return lines;
}

/** Past this many characters a string is shown cut in the text plan; `plan.json` keeps every value whole. */
export const LONG_VALUE = 160;

/** Characters of context shown around where two long strings differ. */
const CONTEXT = 30;

/**
 * A value as the text plan shows it: `showValue`, a string past {@link LONG_VALUE} characters cut, with its length;
 * a list or map (an element added or removed whole) whose JSON passes it cut the same way, so that a validation of a
 * field-ownership policy, say, reads as its start rather than a screen of CEL.
 */
function shownCut(v: unknown): string {
  if (v !== null && typeof v === 'object') {
    const json = showValue(v);
    return json.length <= LONG_VALUE ? json : `${json.slice(0, pairEnd(json, LONG_VALUE))}... (${json.length} characters of JSON; plan.json has it whole)`;
  }
  if (typeof v !== 'string' || v.length <= LONG_VALUE) return showValue(v);
  return `${JSON.stringify(v.slice(0, pairEnd(v, 2 * CONTEXT)))}... (${v.length} characters)`;
}

/**
 * A changed value as the text plan shows it: `old -> new`; when either is a string past {@link LONG_VALUE}
 * characters (a CEL expression of a field-ownership policy, an inline document), only where the two differ, with
 * some context, and where that is, as a diff shows a changed line rather than the file.
 */
function shownChange(before: unknown, after: unknown): string {
  const long = (v: unknown) => typeof v === 'string' && v.length > LONG_VALUE;
  if (!long(before) && !long(after)) return `${showValue(before)} -> ${showValue(after)}`;
  if (!long(before) || !long(after)) return `${shownCut(before)} -> ${shownCut(after)}`;
  if (typeof before !== 'string' || typeof after !== 'string') return `${shownCut(before)} -> ${shownCut(after)}`;
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  const room = Math.min(before.length, after.length) - prefix;
  while (suffix < room && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  const from = pairStart(before, Math.max(0, prefix - CONTEXT));
  const window = (v: string) => {
    const end = pairEnd(v, v.length - Math.max(0, suffix - CONTEXT));
    const middle = v.slice(from, end);
    const cut = middle.length > LONG_VALUE ? `${JSON.stringify(middle.slice(0, pairEnd(middle, LONG_VALUE)))}...` : JSON.stringify(middle);
    return `${from > 0 ? '...' : ''}${cut}${end < v.length && middle.length <= LONG_VALUE ? '...' : ''}`;
  };
  return `${window(before)} -> ${window(after)} (${before.length} -> ${after.length} characters, first differing at ${prefix + 1}; plan.json has both whole)`;
}

/** `i`, or one less when `i` would start a slice at the second half of a surrogate pair. */
function pairStart(v: string, i: number): number {
  return i > 0 && /[\uDC00-\uDFFF]/.test(v[i] ?? '') && /[\uD800-\uDBFF]/.test(v[i - 1]) ? i - 1 : i;
}

/** `i`, or one more when a slice ending at `i` would end between the halves of a surrogate pair. */
function pairEnd(v: string, i: number): number {
  return i > 0 && i < v.length && /[\uD800-\uDBFF]/.test(v[i - 1]) && /[\uDC00-\uDFFF]/.test(v[i]) ? i + 1 : i;
}
