import { createHash } from 'crypto';
import type { Facts, ObjectFact } from '../collect/facts';
import { describeIdentity, groupKind } from '../collect/object-identity';
import type { InterfaceArtifact } from '../release/interface-record';
import { Lock, LockedUnit, objectUnitId, stackUnitId } from '../release/lock';

/**
 * The lock of this release: the interface artifact, and the inventory of
 * stacks and objects with the dependency graph between them. Values are never
 * stored, only a digest of each template and manifest.
 *
 * @param rendered each object's manifest as already rendered (YAML), hashed instead of serializing it again
 */
export function buildLock(facts: Facts, artifact: InterfaceArtifact, rendered: ReadonlyMap<ObjectFact, string>): Lock {
  const g = facts.graph;
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

function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
