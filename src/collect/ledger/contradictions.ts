import type { LedgerBuilder } from './field-ledger';
import { FieldPath } from './field-path';
import { ObjectDraft, topologyOfManifest } from './runtime-writes';
import type { ContradictionFact } from '../facts';
import type { CrdTopologies } from '../topology/crd-topology';
import { FieldTopology, topologyOf } from '../topology/field-topology';
import { K8S_1_30 } from '../topology/k8s-1.30.generated';
import { elementKeyOf, listTypeOf } from '../topology/list-topology';

/**
 * Something in a merged object that the API server refuses although every
 * writer's own fields are fine: the writers' fields together contradict.
 */
export type Contradiction =
  | {
    /** Two or more elements of one associative list with one key: server-side apply refuses the object. */
    readonly kind: 'duplicate-key';
    /** The list. */
    readonly path: FieldPath;
    /** The element key segment the elements share, `k:{"name":"api"}`. */
    readonly key: string;
    /** How many elements have it. */
    readonly count: number;
  }
  | {
    /** Fields of one struct of which the API server allows at most one (`value` beside `valueFrom`). */
    readonly kind: 'exclusive-fields';
    /** The struct. */
    readonly path: FieldPath;
    /** The fields set, in the schema's order. */
    readonly fields: readonly string[];
  };

/** A struct of which at most one of `fields` may be set, with what the API server's validation says of it. */
interface ExclusiveRule {
  /** The fields; a string field counts as set when it is not empty (the API server's test). */
  readonly fields: readonly string[];
}

let exclusiveRules: Map<FieldTopology, ExclusiveRule> | undefined;

/**
 * The one-of structs of the pod spec that the API server validates
 * (kubernetes `pkg/apis/core/validation`): an env variable's `value` and
 * `valueFrom` (validateEnvVarValueFrom), the four sources of `valueFrom`, a
 * volume's sources (validateVolumeSource: "may not specify more than 1 volume
 * type"), an `envFrom` entry's two sources, and a probe's or lifecycle
 * handler's actions ("may not specify more than 1 handler type"). Keyed by
 * the topology node of the type, which is the same node wherever the type is
 * used (Pods, Deployments, Jobs, ...).
 */
function exclusive(): Map<FieldTopology, ExclusiveRule> {
  if (exclusiveRules) return exclusiveRules;
  const container = topologyOf('v1', 'Pod').field('spec').field('containers').element();
  const volume = K8S_1_30.types['core.v1.Volume'];
  const volumeSources = 'fields' in volume && volume.fields ? Object.keys(volume.fields) : [];
  exclusiveRules = new Map<FieldTopology, ExclusiveRule>([
    [container.field('env').element(), { fields: ['value', 'valueFrom'] }],
    [container.field('env').element().field('valueFrom'), { fields: ['configMapKeyRef', 'fieldRef', 'resourceFieldRef', 'secretKeyRef'] }],
    [container.field('envFrom').element(), { fields: ['configMapRef', 'secretRef'] }],
    [container.field('livenessProbe'), { fields: ['exec', 'grpc', 'httpGet', 'tcpSocket'] }],
    [container.field('lifecycle').field('postStart'), { fields: ['exec', 'httpGet', 'sleep', 'tcpSocket'] }],
    [topologyOf('v1', 'Pod').field('spec').field('volumes').element(), { fields: volumeSources }],
  ]);
  return exclusiveRules;
}

/**
 * The contradictions of a merged manifest: duplicate keys in any associative
 * list (containers named `api` twice, two ports `80/TCP`: key defaults
 * applied), and the one-of structs of the pod spec with more than one member
 * set. Walks the whole manifest once, along its topology.
 *
 * @param manifest the object as emitted
 * @param topology its kind's topology
 */
export function contradictionsOf(manifest: unknown, topology: FieldTopology): Contradiction[] {
  const found: Contradiction[] = [];
  walk(manifest, topology, [], found, exclusive());
  return found;
}

/**
 * The contradictions of a collected object as facts, each part named with its
 * writers from the ledger. Only objects with two or more writers are walked:
 * a contradiction of one writer with itself is that writer's own input, and
 * skipping the walk keeps the common case (one declarer) cheap.
 *
 * @param draft the object, contributions merged
 * @param ledger the ledger, its writes recorded
 * @param crds the topologies of the CRDs in the composition
 */
export function contradictionFacts(draft: ObjectDraft, ledger: LedgerBuilder, crds: CrdTopologies): ContradictionFact[] {
  if (ledger.writerCount(draft.key) < 2) return [];
  const found = contradictionsOf(draft.manifest, topologyOfManifest(draft.manifest, crds));
  const writersAt = (path: FieldPath) => ledger.writersAt(draft.key, path);
  return found.map((c): ContradictionFact => ({ ...c, object: draft.label, writers: partsOf(c).map(writersAt) }));
}

/** The paths of a contradiction whose writers it names: the elements of a duplicate key, each field of a one-of struct. */
function partsOf(c: Contradiction): FieldPath[] {
  switch (c.kind) {
    case 'duplicate-key':
      return [[...c.path, c.key]];
    case 'exclusive-fields':
      return c.fields.map((f) => [...c.path, f]);
  }
}

function walk(value: unknown, node: FieldTopology, path: string[], out: Contradiction[], rules: Map<FieldTopology, ExclusiveRule>): void {
  if (value === null || typeof value !== 'object' || node.atomic || node.type === 'scalar') return;
  if (Array.isArray(value)) {
    if (listTypeOf(node) !== 'associative') return;
    const elementNode = node.element();
    const counts = new Map<string, number>();
    for (const element of value) {
      const key = elementKeyOf(element, node);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of counts) if (count > 1) out.push({ kind: 'duplicate-key', path: [...path], key, count });
    const seen = new Set<string>();
    for (const element of value) {
      const key = elementKeyOf(element, node);
      if (seen.has(key)) continue; // a duplicate is reported once, and walked once
      seen.add(key);
      path.push(key);
      walk(element, elementNode, path, out, rules);
      path.pop();
    }
    return;
  }
  if (node.type === 'list') return;
  const map = value as Record<string, unknown>;
  const rule = rules.get(node);
  if (rule) {
    const set = rule.fields.filter((f) => isSet(map[f]));
    if (set.length > 1) out.push({ kind: 'exclusive-fields', path: [...path], fields: set });
  }
  for (const k of Object.keys(map)) {
    const v = map[k];
    if (v === null || typeof v !== 'object') continue;
    path.push(k);
    walk(v, node.field(k), path, out, rules);
    path.pop();
  }
}

/** Set as the API server's validation reads it: present, and a string only when not empty. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
