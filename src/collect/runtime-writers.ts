import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { RuntimeWriterFact } from './facts';
import { elementKey, FieldPath, setValueKey } from './ledger/field-path';
import { apiGroup } from './object-identity';
import type { CrdTopologies } from './topology/crd-topology';
import { FieldTopology, topologyOf } from './topology/field-topology';
import { elementKeyOf, listTypeOf } from './topology/list-topology';
import { RuntimeWriter } from '../constructs/runtime-writer';
import { FieldPathSyntaxError, parseFieldPath, PathStep } from '../private/field-path-syntax';

/**
 * The runtime writers of the composition (`RuntimeWriter`), in creation order,
 * with their leaves as field paths of their target kind's topology: a keyed
 * element's key fields in the schema's order with its defaults filled in, as
 * the ledger spells the leaves of a manifest. A leaf that does not parse is
 * left out (the construct's own validation reports it), and so is a writer
 * whose target is neither a kind nor an object of the composition.
 *
 * @param constructs every construct of the tree
 * @param indexOf the index into `Facts.objects` of each object
 * @param manifests the objects' manifests, by index
 * @param crds the topologies of the CRDs in the composition
 */
export function collectRuntimeWriters(
  constructs: readonly IConstruct[],
  indexOf: ReadonlyMap<ApiObject, number>,
  manifests: readonly any[],
  crds: CrdTopologies,
): RuntimeWriterFact[] {
  const found: RuntimeWriterFact[] = [];
  for (const c of constructs) {
    if (!RuntimeWriter.isRuntimeWriter(c)) continue;
    let target: RuntimeWriterFact['target'];
    let topology: FieldTopology;
    if (c.kind) {
      target = { group: apiGroup(c.kind.apiVersion), kind: c.kind.kind };
      topology = topologyOf(c.kind.apiVersion, c.kind.kind, crds);
    } else {
      const object = c.apiObject ? indexOf.get(c.apiObject) : undefined;
      if (object === undefined) continue;
      target = { object };
      topology = topologyOf(String(manifests[object]?.apiVersion ?? ''), String(manifests[object]?.kind ?? ''), crds);
    }
    const fields: Array<{ text: string; path: FieldPath }> = [];
    for (const text of c.fields) {
      const steps = tryParse(text);
      if (steps) fields.push({ text, path: fieldPathOf(steps, topology) });
    }
    found.push({ path: c.node.path, target, fields, identity: c.identity, ...(c.manager !== undefined ? { manager: c.manager } : {}) });
  }
  return found;
}

function tryParse(text: unknown): PathStep[] | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return parseFieldPath(text);
  } catch (e) {
    if (e instanceof FieldPathSyntaxError) return undefined;
    throw e;
  }
}

/** The field path of parsed steps, walking the topology for the key order and defaults of keyed elements. */
export function fieldPathOf(steps: readonly PathStep[], root: FieldTopology): FieldPath {
  const path: string[] = [];
  let node = root;
  for (const step of steps) {
    if ('field' in step) {
      path.push(step.field);
      node = node.field(step.field);
    } else if ('keys' in step) {
      path.push(listTypeOf(node) === 'associative' ? elementKeyOf(step.keys, node) : elementKey(step.keys));
      node = node.element();
    } else {
      path.push(setValueKey(step.value));
      node = node.element();
    }
  }
  return path;
}
