import type { ObjectFact, ReferenceFact } from '../src/collect/facts';
import { DependencyGraph } from '../src/collect/graph/dependency-graph';
import { kindRank } from '../src/collect/graph/kind-order';
import { referenceEdges } from '../src/collect/graph/order-references';
import { identityKey, ObjectIdentity } from '../src/collect/object-identity';

/**
 * `tenants` tenants of four objects each in charts of 100 objects: ConfigMap, Secret, a Deployment reading
 * both (a volume and envFrom), a Service selecting the Deployment, with the references collect would find.
 */
export function tenantFacts(tenants: number): { objects: ObjectFact[]; references: ReferenceFact[] } {
  const objects: ObjectFact[] = [];
  const references: ReferenceFact[] = [];
  const add = (identity: ObjectIdentity, chart: string, manifest: any): number => {
    objects.push({ path: `${chart}/${identity.kind}-${identity.name}`, declarer: `${chart}/${identity.name}`, chart, identity, key: identityKey(identity), manifest });
    return objects.length - 1;
  };
  for (let t = 0; t < tenants; t++) {
    const chart = `app/c${Math.floor(t / 25)}`;
    const namespace = `ns${Math.floor(t / 25)}`;
    const name = `t${t}`;
    add({ group: '', kind: 'ConfigMap', namespace, name }, chart, { metadata: { name, namespace } });
    add({ group: '', kind: 'Secret', namespace, name }, chart, { metadata: { name, namespace } });
    const d = add({ group: 'apps', kind: 'Deployment', namespace, name }, chart, {
      metadata: { name, namespace },
      spec: { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main' }] } } },
    });
    references.push({ from: d, target: { group: '', kind: 'ConfigMap', namespace, name }, field: 'spec.template.spec.volumes[name=config].configMap' });
    references.push({ from: d, target: { group: '', kind: 'Secret', namespace, name }, field: 'spec.template.spec.containers[name=main].envFrom' });
    add({ group: '', kind: 'Service', namespace, name }, chart, { metadata: { name, namespace }, spec: { selector: { app: name } } });
  }
  return { objects, references };
}

/** Orders the facts as the composition graph does: reference edges in step, the kind order per chart. */
export function orderFacts(objects: readonly ObjectFact[], references: readonly ReferenceFact[]): { order: number[]; edges: number } {
  const graph = new DependencyGraph<number>();
  objects.forEach((o, i) => graph.addNode(i, o.path));
  const edges = referenceEdges(objects, references);
  for (const e of edges) graph.addEdge(e.before, e.after, `reference (${e.field})`, true);
  const perChart = new Map<string, number[]>();
  objects.forEach((o, i) => {
    const list = perChart.get(o.chart);
    if (list) list.push(i);
    else perChart.set(o.chart, [i]);
  });
  for (const nodes of perChart.values()) graph.addSoftOrder(nodes, nodes.map((i) => kindRank(objects[i].identity.group, objects[i].identity.kind)));
  return { order: graph.sort().order, edges: edges.length };
}

describe('ordering at scale', () => {
  test('100,000 objects with 50,000 reference edges order, every reference honoured (no timing asserted)', () => {
    // GIVEN 25,000 tenants of four objects
    const { objects, references } = tenantFacts(25_000);

    // WHEN ordered
    const { order, edges } = orderFacts(objects, references);

    // THEN every object once, every reference edge (two per Deployment; a Service's selector orders nothing) forward
    expect(objects.length).toBe(100_000);
    expect(edges).toBe(50_000);
    const at = new Int32Array(objects.length);
    order.forEach((n, i) => (at[n] = i));
    expect(order.length).toBe(objects.length);
    expect(referenceEdges(objects, references).filter((e) => at[e.before] > at[e.after])).toEqual([]);
  });
});
