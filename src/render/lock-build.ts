import { createHash } from 'crypto';
import { lockValues } from './lock-values';
import type { Facts, FieldWrite, ObjectFact } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import { writerName } from '../collect/ledger/writer';
import { describeIdentity, groupKind } from '../collect/object-identity';
import type { InterfaceArtifact } from '../release/interface-record';
import { Lock, LockedUnit, objectUnitId, stackUnitId } from '../release/lock';

/**
 * The lock of this release: the interface artifact, and the inventory of
 * stacks and objects with the dependency graph between them, a digest of each
 * template and manifest, and its leaves for the plan's field diff, masked
 * (`lockValues`): no secret and no token is stored.
 *
 * @param rendered each object's manifest as already rendered (YAML), hashed instead of serializing it again
 */
export function buildLock(facts: Facts, artifact: InterfaceArtifact, rendered: ReadonlyMap<ObjectFact, string>): Lock {
  const g = facts.graph;
  const writes = new Map(facts.ledger.objects.filter((o) => o.kind === 'k8s').map((o) => [o.label, o.writes]));
  const units: LockedUnit[] = [];
  const barriers: string[] = [];
  const index = new Int32Array(g.size);
  const barrierNodes: number[] = [];
  for (let n = 0; n < g.size; n++) {
    const unit = g.value(n);
    if (!unit) {
      barrierNodes.push(n);
      continue;
    }
    index[n] = units.length;
    if (unit.kind === 'stack') {
      const stack = facts.stacks[unit.index];
      units.push({
        id: stackUnitId(stack.path),
        label: `stack ${stack.path}`,
        path: stack.path,
        stackName: stack.stackName,
        digest: hashText(JSON.stringify(stack.template ?? {})),
        values: lockValues(withoutResourceMetadata(stack.template ?? {})),
      });
    } else {
      const o = facts.objects[unit.index];
      const { group, kind, namespace, name } = o.identity;
      const isCrd = group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition';
      units.push({
        id: objectUnitId(o.key),
        label: describeIdentity(o.identity),
        path: o.declarer,
        digest: hashText(rendered.get(o) ?? JSON.stringify(o.manifest)),
        groupKind: groupKind(group, kind),
        ...(namespace ? { namespace } : {}),
        ...(isCrd ? { defines: groupKind(String(o.manifest.spec?.group ?? ''), String(o.manifest.spec?.names?.kind ?? '')) } : {}),
        ...(group === '' && kind === 'Namespace' ? { namespaceName: name } : {}),
        values: lockValues(o.manifest, group === '' && kind === 'Secret' ? ['data', 'stringData'] : []),
        ...ownersOf(writes.get(describeIdentity(o.identity)), o.declarer),
      });
    }
  }
  for (const n of barrierNodes) {
    index[n] = units.length + barriers.length;
    barriers.push(g.label(n));
  }
  const edges: Array<[number, number, string]> = [];
  for (const e of g.edges()) edges.push([index[e.from], index[e.to], e.reason]);
  return { formatVersion: 1, interfaces: artifact.interfaces, units, barriers, edges };
}

/** The leaves written by another construct than the declarer, by path: the owners a handover changes. */
function ownersOf(writes: readonly FieldWrite[] | undefined, declarer: string): { owners?: Record<string, string> } {
  const owners: Record<string, string> = {};
  for (const w of writes ?? []) if (w.writer.kind !== 'declaration' || w.writer.path !== declarer) owners[formatPath(w.path)] = writerName(w.writer);
  return Object.keys(owners).length > 0 ? { owners } : {};
}

/** A template without each resource's `Metadata` (construct paths, asset details), which is no change to review. */
function withoutResourceMetadata(template: any): any {
  const resources: Record<string, any> = {};
  for (const [id, r] of Object.entries<any>(template.Resources ?? {})) {
    const { Metadata: _, ...rest } = r ?? {};
    resources[id] = rest;
  }
  return template.Resources ? { ...template, Resources: resources } : template;
}

function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
