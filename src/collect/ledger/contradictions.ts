import type { Contradiction } from './contradiction';
import type { LedgerBuilder } from './field-ledger';
import { FieldPath, setValueKey } from './field-path';
import { ObjectDraft, topologyOfManifest } from './runtime-writes';
import { declarationWriter } from './writer';
import type { ContradictionFact } from '../facts';
import type { CrdTopologies } from '../topology/crd-topology';
import { FieldTopology, topologyOf } from '../topology/field-topology';
import { K8S_1_30 } from '../topology/k8s-1.30.generated';
import { elementKeyOf, listTypeOf, missingKeysOf } from '../topology/list-topology';

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
 * The contradictions of a manifest, merged or as declared: duplicate keys in
 * any associative list (containers named `api` twice, two ports `80/TCP`: key
 * defaults applied), an element without a key field that has no default, a
 * value held twice by a set, and the one-of structs of the pod spec with more
 * than one member set. Walks the whole manifest once, along its topology.
 *
 * @param manifest the object as emitted
 * @param topology its kind's topology
 */
export function contradictionsOf(manifest: unknown, topology: FieldTopology): Contradiction[] {
  const found: Contradiction[] = [];
  walk(manifest, topology, [], found, exclusive());
  const unnamed = unnamedServicePorts(manifest, topology);
  if (unnamed) found.push(unnamed);
  return found;
}

/**
 * A Service's ports without a name when it has more than one: the API server refuses it (`validateServicePort`:
 * "spec.ports[0].name: Required value"), though a declaration of one unnamed port and a contribution of a named
 * one are each valid alone.
 */
function unnamedServicePorts(manifest: any, topology: FieldTopology): Contradiction | undefined {
  if (manifest?.apiVersion !== 'v1' || manifest?.kind !== 'Service') return undefined;
  const ports: unknown = manifest.spec?.ports;
  if (!Array.isArray(ports) || ports.length < 2) return undefined;
  const node = topology.field('spec').field('ports');
  const unnamed = ports.filter((p) => p === null || typeof p !== 'object' || typeof p.name !== 'string' || p.name === '');
  if (unnamed.length === 0) return undefined;
  return { kind: 'unnamed-ports', path: ['spec', 'ports'], keys: unnamed.map((p) => elementKeyOf(p, node)), count: ports.length };
}

/**
 * The contradictions of a collected object as facts, each part named with its
 * writers from the ledger. Every object is walked, one writer or many: the
 * API server refuses a declaration with two containers named `api` as it
 * refuses a merge that makes them. The walk stops at scalars and atomic
 * nodes, so an object without lists (a ConfigMap) costs one pass over its
 * maps.
 *
 * @param draft the object, contributions merged
 * @param ledger the ledger, its writes recorded
 * @param crds the topologies of the CRDs in the composition
 */
export function contradictionFacts(draft: ObjectDraft, ledger: LedgerBuilder, crds: CrdTopologies): ContradictionFact[] {
  const found = contradictionsOf(draft.manifest, topologyOfManifest(draft.manifest, crds));
  if (found.length === 0) return [];
  // an object with one writer has no leaves in the ledger (runtime-writes skips them): its declarer wrote it all
  const declarer = [declarationWriter(draft.declarer)];
  const writersAt = (path: FieldPath) => {
    const writers = ledger.writersAt(draft.key, path);
    return writers.length > 0 ? writers : declarer;
  };
  return found.map((c): ContradictionFact => ({ ...c, object: draft.label, writers: partsOf(c).map(writersAt) }));
}

/** The paths of a contradiction whose writers it names: the elements of a key, the set value, each field of a one-of struct. */
function partsOf(c: Contradiction): FieldPath[] {
  switch (c.kind) {
    case 'duplicate-key':
    case 'missing-key':
      return [[...c.path, c.key]];
    case 'duplicate-value':
      return [[...c.path, c.value]];
    case 'unnamed-ports':
      return c.keys.map((key) => [...c.path, key]);
    case 'exclusive-fields':
      return c.fields.map((f) => [...c.path, f]);
  }
}

function walk(value: unknown, node: FieldTopology, path: string[], out: Contradiction[], rules: Map<FieldTopology, ExclusiveRule>): void {
  if (value === null || typeof value !== 'object' || node.atomic || node.type === 'scalar') return;
  if (Array.isArray(value)) {
    const listType = listTypeOf(node);
    if (listType === 'set') duplicateValues(value, path, out);
    else if (listType === 'associative') walkAssociative(value, node, path, out, rules);
    return;
  }
  if (node.type === 'list') return;
  const map = value as Record<string, unknown>;
  const rule = rules.get(node);
  if (rule) {
    const set = rule.fields.filter((f) => isSet(map[f]));
    if (set.length > 1) out.push({ kind: 'exclusive-fields', path: [...path], fields: set });
  }
  // indexed loops here and in walkAssociative, not `for...of`: V8 optimizes this walk in a synth's one run, and the
  // iterator protocols' implicit try/finally made that compile cost more than the walk
  const keys = Object.keys(map);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = map[k];
    if (v === null || typeof v !== 'object') continue;
    path.push(k);
    walk(v, node.field(k), path, out, rules);
    path.pop();
  }
}

/** An associative list: its keys counted (an element without a key field is reported as that, not as a duplicate), each key's first element walked. */
function walkAssociative(list: unknown[], node: FieldTopology, path: string[], out: Contradiction[], rules: Map<FieldTopology, ExclusiveRule>): void {
  const byKey = new Map<string, { element: unknown; count: number }>();
  // the keys in the order they first appear, as the map holds them
  const keys: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const element = list[i];
    const key = elementKeyOf(element, node);
    const seen = byKey.get(key);
    if (seen) {
      seen.count++;
    } else {
      byKey.set(key, { element, count: 1 });
      keys.push(key);
    }
  }
  const elementNode = node.element();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const { element, count } = byKey.get(key)!;
    const missing = missingKeysOf(element, node);
    if (missing.length > 0) out.push({ kind: 'missing-key', path: [...path], key, missing, count });
    else if (count > 1) out.push({ kind: 'duplicate-key', path: [...path], key, count });
    path.push(key); // a duplicate is reported once, and walked once
    walk(element, elementNode, path, out, rules);
    path.pop();
  }
}

/** The values a set holds more than once. */
function duplicateValues(set: unknown[], path: string[], out: Contradiction[]): void {
  if (set.length < 2) return;
  const counts = new Map<string, number>();
  for (const v of set) {
    const segment = setValueKey(v);
    counts.set(segment, (counts.get(segment) ?? 0) + 1);
  }
  for (const [segment, count] of counts) if (count > 1) out.push({ kind: 'duplicate-value', path: [...path], value: segment, count });
}

/** Set as the API server's validation reads it: present, and a string only when not empty. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
