import type { Facts, FieldWrite, ObjectFact } from '../collect/facts';
import { FieldPath, formatPath } from '../collect/ledger/field-path';
import { describeWriter, Writer, writerMethod } from '../collect/ledger/writer';
import { describeIdentity } from '../collect/object-identity';
import { fieldPathOf } from '../collect/runtime-writers';
import { topologyOf } from '../collect/topology/field-topology';
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
}

/** A placement, and what the finding's message adds for it: which write left the field, and that the declarer's props did not. */
export interface PlacedWrite {
  /** Where the finding is placed. */
  readonly placement: Placement;
  /** ` 'spec.template.spec.dnsPolicy' was written by 'web/Resource' (addJsonPatch at main.ts:12), not by the props of 'web'.` */
  readonly sentence: string;
}

/** The writes of each object of the ledger, by kind and label, made once per facts. */
const WRITES = new WeakMap<Facts, Map<string, readonly FieldWrite[]>>();

function writesOf(facts: Facts, kind: 'k8s' | 'cfn', object: string): readonly FieldWrite[] {
  let byObject = WRITES.get(facts);
  if (!byObject) {
    byObject = new Map();
    for (const o of facts.ledger.objects) {
      const key = `${o.kind}\u0000${o.label}`;
      const before = byObject.get(key);
      // one entry an object: its writes as the ledger holds them, not copied
      byObject.set(key, before ? [...before, ...o.writes] : o.writes);
    }
    WRITES.set(facts, byObject);
  }
  return byObject.get(`${kind}\u0000${object}`) ?? [];
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
  const object = [`${type} ${declarer}/Resource`, `${type} ${declarer}`].find((label) => writesOf(facts, 'cfn', label).length > 0);
  return object === undefined ? undefined : { object, kind: 'cfn', declarer, paths: [at.slice(3)] };
}

/**
 * Where a finding about `field` is placed, from the field ledger: the first of its paths that anything wrote (a
 * missing field's is the next, the field that asks for it), when none of the deploy-time writes of that path (at
 * it, below it, or of an ancestor written whole) is the declarer's: the last of them (a JSON patch, an override, a
 * Contribution, an aspect, a Tag), whose value the rule judged, as patches apply in order. Undefined when the
 * declarer wrote it, or nothing did: the finding stays at the declarer.
 */
export function placeFinding(facts: Facts, field: FindingField): PlacedWrite | undefined {
  const writes = writesOf(facts, field.kind, field.object);
  if (writes.length === 0) return undefined;
  for (const path of field.paths) {
    const at = writes.filter((w) => w.writer.kind !== 'runtime' && (startsWith(w.path, path) || (!w.presence && startsWith(path, w.path))));
    if (at.length === 0) continue;
    if (at.some((w) => w.writer.kind === 'declaration' && w.writer.path === field.declarer)) return undefined;
    const writer = at[at.length - 1].writer;
    const site = writer.site !== undefined ? { site: writer.site } : {};
    const placement = { field: formatPath(path), path: writer.path, how: howWritten(writer), ...site };
    return { placement, sentence: ` '${placement.field}' was written by ${writtenBy(writer)}, not by the props of '${field.declarer}'.` };
  }
  return undefined;
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
