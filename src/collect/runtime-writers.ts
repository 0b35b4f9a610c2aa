import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { RuntimeWriterFact } from './facts';
import { elementKey, FieldPath, isSetValue, setValueKey } from './ledger/field-path';
import { apiGroup, groupKind } from './object-identity';
import { schemaPathProblem } from './schema-fields';
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

/** One leaf a runtime writer writes of one object: what the field ledger records for it. */
export interface RuntimeWrite {
  /** The runtime writer's construct path. */
  readonly writer: string;
  /** The leaf. */
  readonly path: FieldPath;
  /** True for a value of a set, which is owned by presence (two writers of one value contest nothing). */
  readonly presence?: true;
}

/** An object a runtime writer may write: its identity, its manifest, and the object it duplicates, if any. */
interface RuntimeWriteTarget {
  readonly identity: { readonly group: string; readonly kind: string };
  readonly manifest: any;
  readonly duplicateOf?: number;
}

/**
 * The leaves the runtime writers write of each object of the composition, by
 * index into its objects: a writer of one object writes its leaves of that
 * object, a writer of a kind its leaves of every first declaration of that
 * kind. `status` leaves are left out: status is the controllers' to write;
 * so are leaves the kind's schema does not have, which are `CAP010` alone.
 *
 * @param writers the runtime writers, as `collectRuntimeWriters` finds them
 * @param objects the objects, by index, with their identities and manifests
 */
export function runtimeWritesByObject(
  writers: readonly RuntimeWriterFact[],
  objects: ReadonlyArray<RuntimeWriteTarget>,
): Map<number, RuntimeWrite[]> {
  const found = new Map<number, RuntimeWrite[]>();
  if (writers.length === 0) return found;
  let all: any[] | undefined;
  const manifests = () => (all ??= objects.map((o) => o.manifest));
  const byKind = new Map<string, number[]>();
  if (writers.some((w) => !('object' in w.target))) {
    objects.forEach((o, i) => {
      if (o.duplicateOf !== undefined) return;
      const key = groupKind(o.identity.group, o.identity.kind);
      const list = byKind.get(key);
      if (list) list.push(i);
      else byKind.set(key, [i]);
    });
  }
  for (const w of writers) {
    const targets = 'object' in w.target ? [w.target.object] : byKind.get(groupKind(w.target.group, w.target.kind)) ?? [];
    const { group, kind } = 'object' in w.target ? objects[w.target.object].identity : w.target;
    const writes: RuntimeWrite[] = [];
    for (const f of w.fields) {
      if (f.path[0] === 'status' || schemaPathProblem(group, kind, parseFieldPath(f.text), manifests())) continue;
      writes.push(isSetValue(f.path[f.path.length - 1] ?? '') ? { writer: w.path, path: f.path, presence: true } : { writer: w.path, path: f.path });
    }
    for (const t of targets) {
      const list = found.get(t);
      if (list) for (const x of writes) list.push(x);
      else found.set(t, [...writes]);
    }
  }
  return found;
}
