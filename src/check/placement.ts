import type { Facts, FieldWrite, ObjectFact } from '../collect/facts';
import { FieldPath, formatPath, isElementKey } from '../collect/ledger/field-path';
import { describeWriter, Writer, writerMethod } from '../collect/ledger/writer';
import { describeIdentity } from '../collect/object-identity';
import { fieldPathOf } from '../collect/runtime-writers';
import { topologyOf } from '../collect/topology/field-topology';
import type { InstalledPackage } from '../private/creation-site';
import { FieldPathSyntaxError, parseFieldPath } from '../private/field-path-syntax';

/**
 * Which field of which object a finding is about: what lets the check stage place it where that field was
 * written (`placeFinding`) rather than at the object's declarer.
 */
export interface FindingField {
  /** The object as the field ledger names it: a Kubernetes object's `describeIdentity`, a CloudFormation resource's `<type> <path>`. */
  readonly object: string;
  /** A Kubernetes object or a CloudFormation resource. */
  readonly kind: 'k8s' | 'cfn';
  /** The object's declaring construct: a field it wrote keeps the finding where it is. */
  readonly declarer: string;
  /**
   * The field the finding is about, then the fields that made it one, in the ledger's form: for a missing companion
   * field (a `dnsConfig` that `dnsPolicy: None` needs) the missing field, then the field that asks for it.
   */
  readonly paths: readonly FieldPath[];
  /**
   * True when the finding's message names the writers of the field already (`, written by 'web' (addJsonPatch at
   * main.ts:12),`): placing it changes where it is, not what it says.
   * @default false
   */
  readonly writersNamed?: boolean;
}

/** The field `paths` of a Kubernetes object (the field, then the fields that asked for it) as a finding names it. */
export function objectField(object: ObjectFact, ...paths: FieldPath[]): FindingField {
  return { object: describeIdentity(object.identity), kind: 'k8s', declarer: object.declarer, paths };
}

/**
 * The field of a Kubernetes object that `text` names, as messages print it (`spec.template.spec.serviceAccountName`,
 * `spec.template.spec.volumes[name=config].configMap`); undefined for a text that is no field path.
 */
export function objectFieldAt(object: ObjectFact, text: string): FindingField | undefined {
  try {
    return objectField(object, fieldPathOf(parseFieldPath(text), topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind)));
  } catch (e) {
    if (e instanceof FieldPathSyntaxError) return undefined;
    throw e;
  }
}

/** `{ field }` when there is one, to spread into a rule's finding. */
export function withField(field: FindingField | undefined): { field?: FindingField } {
  return field ? { field } : {};
}

/** The same field, told that the finding's message names its writers already. */
export function writersNamed(field: FindingField, named: boolean): FindingField {
  return named ? { ...field, writersNamed: true } : field;
}

/** Where a finding about a field is placed: the write of that field by something other than the declarer's props. */
export interface Placement {
  /** The field written, as messages print it (`spec.template.spec.dnsPolicy`). */
  readonly field: string;
  /** The writer's construct path: the object a patch or override was called on, the Contribution, the scope an aspect or Tag was added to. */
  readonly path: string;
  /**
   * How it was written, as reports print it after "by": the API of a call (`addJsonPatch`, `addPropertyOverride`,
   * `Tags.of().add`), `a Contribution (its fields)`, `an aspect (Aspects.of().add)`.
   */
  readonly how: string;
  /** Where the program made the call (`main.ts:42`, relative to the working directory), when the write is a call whose site is known. */
  readonly site?: string;
  /**
   * The installed package whose code made the call, when the program did not make it itself: `site` is then the
   * program's line that called into the package.
   */
  readonly package?: InstalledPackage;
  /**
   * True when the write removed the field (a JSON patch `remove`, a deletion override) rather than writing a value.
   * @default false
   */
  readonly removed?: boolean;
}

/** A placement, and what the finding's message adds for it: which write left the field, and that the declarer's props did not. */
export interface PlacedWrite {
  /** Where the finding is placed. */
  readonly placement: Placement;
  /**
   * ` 'spec.template.spec.dnsPolicy' was written by 'web/Resource' (addJsonPatch at main.ts:12), not by the props of 'web'.`;
   * for a removal, ` 'spec.template.spec.dnsConfig' was written by the props of 'web', then removed by 'web/Resource' (addJsonPatch at main.ts:12).`
   */
  readonly sentence: string;
  /** The write's writer. */
  readonly writer: Writer;
  /**
   * True when the write removed the field (a JSON patch `remove`, a deletion override), which a message says as
   * "removed by", not "written by".
   * @default false
   */
  readonly removed?: boolean;
}

/** The writes of one object of the ledger, and which of them remove their leaf. */
interface LedgerWrites {
  readonly writes: readonly FieldWrite[];
  readonly removes: (write: FieldWrite) => boolean;
}

const NONE: LedgerWrites = { writes: [], removes: () => false };

/** The writes of each object of the ledger, by kind and label, made once per facts. */
const WRITES = new WeakMap<Facts, Map<string, LedgerWrites>>();

function writesOf(facts: Facts, kind: 'k8s' | 'cfn', object: string): LedgerWrites {
  let byObject = WRITES.get(facts);
  if (!byObject) {
    byObject = new Map();
    // the resources only Tags write besides their declarer are kept apart in the ledger, but placed alike
    for (const o of [...facts.ledger.objects, ...(facts.ledger.tagged ?? [])]) {
      const key = `${o.kind}\u0000${o.label}`;
      const before = byObject.get(key);
      const removes = (w: FieldWrite) => o.removes?.(w) === true;
      // one entry an object: its writes as the ledger holds them, not copied
      byObject.set(key, before
        ? { writes: [...before.writes, ...o.writes], removes: (w) => before.removes(w) || removes(w) }
        : { writes: o.writes, removes });
    }
    WRITES.set(facts, byObject);
  }
  return byObject.get(`${kind}\u0000${object}`) ?? NONE;
}

/**
 * The field a finding about a value at `at` of the template of the stack at `stack` is about, in the ledger's form:
 * a property of a resource (`Resources.<id>.Properties.<property>...`), the resource named as the ledger names it
 * (`<type> <path>`: its declarer's path, or, for an L2's default child, the `Resource` below it, as `declarerOf`
 * gives the declarer). Undefined for any other place in a template (an output, a parameter, an attribute).
 */
export function templateField(facts: Facts, stack: string, template: unknown, at: readonly string[], declarer: string): FindingField | undefined {
  if (at[0] !== 'Resources' || at[2] !== 'Properties' || at.length < 4) return undefined;
  const type = (template as { Resources?: Record<string, { Type?: unknown }> } | undefined)?.Resources?.[at[1]]?.Type;
  if (typeof type !== 'string' || !facts.resourceDeclarers[`${stack}\u0000${at[1]}`]) return undefined;
  const object = [`${type} ${declarer}/Resource`, `${type} ${declarer}`].find((label) => writesOf(facts, 'cfn', label).writes.length > 0);
  return object === undefined ? undefined : { object, kind: 'cfn', declarer, paths: [tagPath(template, at) ?? at.slice(3)] };
}

/**
 * A value in a resource's list of tags (`Tags[0].Value`) as the ledger names it, by its key (`Tags.<key>`), as Tags
 * write each key; undefined for any other value.
 */
function tagPath(template: unknown, at: readonly string[]): FieldPath | undefined {
  if (at[3] !== 'Tags' || at.length < 5 || !/^\d+$/.test(at[4])) return undefined;
  const resource = (template as { Resources: Record<string, { Properties?: { Tags?: unknown } }> }).Resources[at[1]];
  const tags = resource.Properties?.Tags;
  const key = Array.isArray(tags) ? (tags[Number(at[4])] as { Key?: unknown } | undefined)?.Key : undefined;
  return typeof key === 'string' ? ['Tags', key] : undefined;
}

/**
 * Where a finding about `field` is placed, from the field ledger: the first of its paths that anything wrote (a
 * missing field's is the next, the field that asks for it; a field missing from a list element, the element's
 * writes), when none of the deploy-time writes of that path (at it, below it, or of an ancestor written whole) is
 * the declarer's, or the last of them removed it: the last of them (a JSON patch, an override, a Contribution, an
 * aspect, a Tag), whose value the rule judged, as patches apply in order. Undefined when the declarer wrote it, or
 * nothing did: the finding stays at the declarer.
 */
export function placeFinding(facts: Facts, field: FindingField): PlacedWrite | undefined {
  const ledger = writesOf(facts, field.kind, field.object);
  if (ledger.writes.length === 0) return undefined;
  for (const path of field.paths) {
    // a field missing from a list element another writer added (a container without its image): the element's writer
    let at = path;
    let written = writesAt(ledger.writes, path);
    const element = written.length === 0 ? elementOf(path) : undefined;
    if (element) [at, written] = [element, writesAt(ledger.writes, element)];
    if (written.length === 0) continue;
    const last = written[written.length - 1];
    const removed = last.writer.kind !== 'declaration' && ledger.removes(last);
    if (!removed && written.some((w) => w.writer.kind === 'declaration' && w.writer.path === field.declarer)) return undefined;
    const writer = last.writer;
    const site = writer.site !== undefined ? { site: writer.site, ...(writer.package ? { package: writer.package } : {}) } : {};
    const placement = { field: formatPath(at), path: writer.path, how: howWritten(writer), ...site };
    if (!removed) return { placement, writer, sentence: ` '${placement.field}' was written by ${writtenBy(writer)}, not by the props of '${field.declarer}'.` };
    // what wrote it before the removal, when that is not the remover itself
    const before = written.slice(0, -1).filter((w) => !ledger.removes(w) && w.writer.id !== writer.id).map((w) => w.writer);
    const first = before.length === 0 ? '' : `was written by ${writersBefore(before, field.declarer)}, then `;
    return { placement: { ...placement, removed: true }, writer, removed: true, sentence: ` '${placement.field}' ${first}was removed by ${writtenBy(writer)}.` };
  }
  return undefined;
}

/** The writes of `path`: at it, below it, or of an ancestor written whole, but for runtime writers'. */
function writesAt(writes: readonly FieldWrite[], path: FieldPath): FieldWrite[] {
  return writes.filter((w) => w.writer.kind !== 'runtime' && (startsWith(w.path, path) || (!w.presence && startsWith(path, w.path))));
}

/** The keyed list element a path is a field of, strictly below it (`containers[name=side]` of `containers[name=side].image`); undefined for none. */
function elementOf(path: FieldPath): FieldPath | undefined {
  for (let i = path.length - 2; i >= 0; i--) if (isElementKey(path[i])) return path.slice(0, i + 1);
  return undefined;
}

/** The writers of a field before its removal, each once, in order: the declarer's as `the props of '<path>'`. */
function writersBefore(writers: readonly Writer[], declarer: string): string {
  const named = [...new Map(writers.map((w) => [w.id, w.kind === 'declaration' && w.path === declarer ? `the props of '${declarer}'` : writtenBy(w)])).values()];
  return named.join(' and ');
}

/**
 * A writer as the placed sentence names it: `'web/Resource' (addJsonPatch at main.ts:12)`, `the Contribution
 * 'team/Dns'`, `an aspect added to 'shop' (Aspects.of().add at main.ts:20)`.
 */
function writtenBy(writer: Writer): string {
  if (writer.kind.startsWith('contribution')) return `the Contribution ${describeWriter(writer)}`;
  if (writer.kind === 'aspect') return `an aspect added to ${describeWriter(writer)}`;
  return describeWriter(writer);
}

const CONTRIBUTION_PROPS: Readonly<Record<string, string>> = {
  'contribution-fields': 'its fields',
  'contribution-patches': 'its patches',
  'contribution-write': 'its write callback',
};

/** How a writer wrote, as reports print it after "by". */
function howWritten(writer: Writer): string {
  const prop = CONTRIBUTION_PROPS[writer.kind];
  if (prop) return `a Contribution (${prop})`;
  const method = writerMethod(writer);
  if (writer.kind === 'aspect') return `an aspect (${method})`;
  return method ?? `the declaration of '${writer.path}'`;
}

function startsWith(path: FieldPath, prefix: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}
