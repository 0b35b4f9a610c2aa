import type { Stack } from 'aws-cdk-lib';
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { DependencyGraph } from './dependency-graph';
import { hookWeightEdges } from './hook-weights';
import { kindRank } from './kind-order';
import { referenceEdges } from './order-references';
import { dependencyCallText, explicitDependencyOrigin, stackDependencyCall } from '../../private/dependency-calls';
import { isSelfDependent } from '../../private/self-dependency';
import type { GraphUnit, ObjectFact, ReferenceFact } from '../facts';
import { groupKind } from '../object-identity';

/** Why an edge of the composition graph exists; written to `plan.json`. */
export const EdgeReason = {
  EXPLICIT: 'explicit dependency (addDependency)',
  CRD: 'CRD before custom resource',
  NAMESPACE: 'Namespace before its contents',
  ROLE: 'Role before binding',
  SHARED_BASE: 'shared base before tenant aggregate',
  STACK: 'stack dependency (cloud assembly)',
  DEPLOY_BEFORE_RUNTIME: 'deployment time before runtime',
  INTERFACE: 'interface publication before its consumers',
  /** Followed by the referring field in parentheses: `reference (spec.template.spec.serviceAccountName)`. */
  REFERENCE: 'reference',
  CHILD_CHART: 'child chart before its parent chart (cdk8s)',
  /** Followed by the Argo CD phase of the two hooks in parentheses: `Helm hook weight (PreSync)`. */
  HOOK_WEIGHT: 'Helm hook weight',
} as const;

/** One stack-to-stack dependency, as the cloud assembly records it. */
export interface StackDependency {
  /** The stack deployed first. */
  readonly from: Stack;
  /** The stack that depends on it. */
  readonly to: Stack;
  /** Why. */
  readonly reason: string;
}

type Graph = DependencyGraph<GraphUnit | undefined>;

/** What the composition graph is built from. */
export interface GraphInput {
  /** Every construct, in tree order: explicit dependencies are read from them. */
  readonly constructs: readonly IConstruct[];
  /** The stacks, in the order of `Facts.stacks`. */
  readonly stacks: ReadonlyArray<{ readonly stack: Stack; readonly capability?: string }>;
  /** The objects, in the order of `Facts.objects`, each with its cdk8s object. */
  readonly objects: ReadonlyArray<{ readonly apiObject: IConstruct; readonly fact: ObjectFact }>;
  /** Stack dependencies as the cloud assemblies record them. */
  readonly stackDependencies: readonly StackDependency[];
  /** Per contract: the publishing stacks and the charts that consume it, by path. */
  readonly contracts: ReadonlyArray<{ readonly path: string; readonly publishers: readonly Stack[]; readonly consumers: readonly string[] }>;
  /** The by-name references between objects (`Facts.references`); each orders the referenced object first. */
  readonly references?: readonly ReferenceFact[];
}

/** The graph and the constructs found depending on themselves. */
export interface CompositionGraph {
  /** One node per stack and per object, plus barriers for construct-level dependencies. */
  readonly graph: DependencyGraph<GraphUnit | undefined>;
  /** Paths of the constructs made to depend on themselves. */
  readonly selfDependencies: string[];
}

/**
 * Builds one graph over both lifecycles: explicit `addDependency` edges between
 * objects, charts, stacks or any construct, and the implicit edges of
 * `EdgeReason`.
 *
 * A dependency between two constructs that are not themselves stacks or
 * objects goes through two barrier nodes ("everything in B is done", "A may
 * start"), so it costs edges linear in the objects involved, never their product.
 */
export function buildCompositionGraph(input: GraphInput): CompositionGraph {
  const graph = new DependencyGraph<GraphUnit | undefined>();
  const unitNode = new Map<IConstruct, number>();

  const stackIndex = new Map(input.stacks.map((s, index) => [s.stack as IConstruct, index]));
  const objectIndex = new Map(input.objects.map((o, index) => [o.apiObject, index]));
  for (const c of input.constructs) {
    const s = stackIndex.get(c);
    if (s !== undefined) unitNode.set(c, graph.addNode({ kind: 'stack', index: s }, c.node.path));
    const o = objectIndex.get(c);
    if (o !== undefined) unitNode.set(c, graph.addNode({ kind: 'object', index: o }, c.node.path));
  }

  const explicit = new Set<string>();
  const selfDependencies = addExplicitEdges(input.constructs, graph, unitNode, explicit);
  addRuntimeEdges(input.objects, graph, unitNode);
  addReferenceEdges(input, graph, unitNode);
  addHookWeightEdges(input, graph, unitNode);
  addChartEdges(input, graph, unitNode);
  addKindOrder(input, graph, unitNode);
  for (const dep of input.stackDependencies) {
    const { reason, origin } = stackEdge(dep);
    const from = unitNode.get(dep.from)!;
    const to = unitNode.get(dep.to)!;
    // aws-cdk's stack dependency for a node.addDependency between the stacks: the explicit edge, with its call, already says it
    if (reason === EdgeReason.STACK && origin === undefined && explicit.has(pairKey(from, to))) continue;
    graph.addEdge(from, to, reason, false, origin);
  }
  addDeployBeforeRuntimeEdges(input, graph, unitNode);
  addInterfaceEdges(input, graph, unitNode);
  return { graph, selfDependencies };
}

const pairKey = (from: number, to: number) => `${from}>${to}`;

/** The `addDependency` edges, each pair of nodes added to `pairs`; returns the constructs that depend on themselves. */
function addExplicitEdges(constructs: readonly IConstruct[], graph: Graph, unitNode: Map<IConstruct, number>, pairs: Set<string>): string[] {
  const unitOf = (c: IConstruct): number | undefined => {
    for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
      const n = unitNode.get(s);
      if (n !== undefined) return n;
    }
    return undefined;
  };
  const done = new Map<IConstruct, number>();
  const start = new Map<IConstruct, number>();
  const barrier = (map: Map<IConstruct, number>, c: IConstruct): number => {
    let n = map.get(c);
    if (n === undefined) {
      n = graph.addNode(undefined, c.node.path, true);
      map.set(c, n);
    }
    return n;
  };

  const selfDependencies: string[] = [];
  for (const c of constructs) {
    const dependencies = isSelfDependent(c) ? [c, ...c.node.dependencies] : c.node.dependencies;
    for (const d of dependencies) {
      if (d === c) {
        selfDependencies.push(c.node.path);
        continue;
      }
      const from = unitOf(d) ?? barrier(done, d);
      const to = unitOf(c) ?? barrier(start, c);
      if (from === to) continue;
      graph.addEdge(from, to, EdgeReason.EXPLICIT, false, explicitDependencyOrigin(c, d));
      pairs.add(pairKey(from, to));
    }
  }

  if (done.size === 0 && start.size === 0) return selfDependencies;
  for (const [unit, node] of unitNode) {
    for (let s = unit.node.scope; s; s = s.node.scope) {
      const d = done.get(s);
      if (d !== undefined) graph.addEdge(node, d, '');
      const st = start.get(s);
      if (st !== undefined) graph.addEdge(st, node, '');
    }
  }
  return selfDependencies;
}

/** CRD before its custom resources, Namespace before its contents, Role before its bindings. */
function addRuntimeEdges(objects: GraphInput['objects'], graph: Graph, unitNode: Map<IConstruct, number>): void {
  const crds = new Map<string, number>();
  const namespaces = new Map<string, number>();
  const roles = new Map<string, number>();
  for (const { apiObject, fact } of objects) {
    const { group, kind, namespace, name } = fact.identity;
    const node = unitNode.get(apiObject)!;
    if (group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition') {
      crds.set(groupKind(String(fact.manifest.spec?.group ?? ''), String(fact.manifest.spec?.names?.kind ?? '')), node);
    } else if (group === '' && kind === 'Namespace') {
      namespaces.set(name, node);
    } else if (group === 'rbac.authorization.k8s.io' && (kind === 'Role' || kind === 'ClusterRole')) {
      roles.set(`${kind}|${kind === 'Role' ? namespace : ''}|${name}`, node);
    }
  }
  for (const { apiObject, fact } of objects) {
    const { group, kind, namespace } = fact.identity;
    const node = unitNode.get(apiObject)!;
    const crd = crds.get(groupKind(group, kind));
    if (crd !== undefined) graph.addEdge(crd, node, EdgeReason.CRD, false, `apiVersion ${fact.manifest.apiVersion}, kind ${kind}`);
    const ns = namespace ? namespaces.get(namespace) : undefined;
    if (ns !== undefined) graph.addEdge(ns, node, EdgeReason.NAMESPACE, false, `metadata.namespace ${namespace}`);
    if (group === 'rbac.authorization.k8s.io' && (kind === 'RoleBinding' || kind === 'ClusterRoleBinding')) {
      const ref = fact.manifest.roleRef ?? {};
      const refKind = String(ref.kind ?? '');
      const role = roles.get(`${refKind}|${refKind === 'Role' ? namespace : ''}|${ref.name}`);
      if (role !== undefined) graph.addEdge(role, node, EdgeReason.ROLE, false, `roleRef ${refKind} ${ref.name}`);
    }
  }
}

/** Every deployment-time stack of a capability before any of its runtime objects. */
function addDeployBeforeRuntimeEdges(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  const capabilities = new Set(input.stacks.map((s) => s.capability).filter((c): c is string => c !== undefined));
  for (const capability of capabilities) {
    const stacks = input.stacks.filter((s) => s.capability === capability);
    const objects = input.objects.filter((o) => o.fact.capability === capability);
    if (objects.length === 0) continue;
    const gate = graph.addNode(undefined, `${capability} (deployment time)`, true);
    for (const s of stacks) graph.addEdge(unitNode.get(s.stack)!, gate, '');
    for (const o of objects) graph.addEdge(gate, unitNode.get(o.apiObject)!, EdgeReason.DEPLOY_BEFORE_RUNTIME);
  }
}

/** The stack that publishes a contract before every object of each chart that consumes it. */
function addInterfaceEdges(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  for (const contract of input.contracts) {
    for (const stack of contract.publishers) {
      const publisher = unitNode.get(stack);
      if (publisher === undefined) continue;
      for (const chart of contract.consumers) {
        const gate = graph.addNode(undefined, `${contract.path} (published)`, true);
        graph.addEdge(publisher, gate, '');
        for (const o of input.objects) {
          if (o.fact.chart === chart) graph.addEdge(gate, unitNode.get(o.apiObject)!, EdgeReason.INTERFACE);
        }
      }
    }
  }
}

/**
 * Every resolved reference: the referenced object before the referrer
 * (`referenceEdges`). Inside one chart they may share a step, the referenced
 * object first in it (kubectl with the fifo kustomization and Flux apply a
 * step in order, and a reference is not checked when applied); across charts
 * the referrer takes a later step. A reference that only orders is an
 * inferred edge: it gives way where it would close a cycle.
 */
function addReferenceEdges(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  const facts = input.objects.map((o) => o.fact);
  for (const e of referenceEdges(facts, input.references ?? [])) {
    const before = unitNode.get(input.objects[e.before].apiObject);
    const after = unitNode.get(input.objects[e.after].apiObject);
    const sameChart = facts[e.before].chart === facts[e.after].chart;
    if (before === undefined || after === undefined) continue;
    const reason = `${EdgeReason.REFERENCE} (${e.field})`;
    if (e.orderingOnly) graph.addInferredEdge(before, after, reason, sameChart);
    else graph.addEdge(before, after, reason, sameChart);
  }
}

/**
 * The order of the Helm hooks of one Argo CD phase, lighter `helm.sh/hook-weight` first (`hookWeightEdges`): each a
 * step before the next weight, so a sync wave before it in Argo CD's output. An edge that only orders: it gives way
 * where it would close a cycle.
 */
function addHookWeightEdges(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  for (const e of hookWeightEdges(input.objects.map((o) => o.fact))) {
    const before = unitNode.get(input.objects[e.before].apiObject);
    const after = unitNode.get(input.objects[e.after].apiObject);
    if (before === undefined || after === undefined) continue;
    graph.addInferredEdge(before, after, `${EdgeReason.HOOK_WEIGHT} (${e.phase})`, false, `helm.sh/hook-weight ${e.weights[0]} before ${e.weights[1]}`);
  }
}

/**
 * cdk8s' rule: a parent chart after its child charts. Every object under a
 * child chart comes before every object of the parent chart itself, through
 * one barrier per child chart.
 */
function addChartEdges(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  const parentChart = (c: IConstruct): Chart | undefined => {
    for (let s = c.node.scope; s; s = s.node.scope) if (Chart.isChart(s)) return s;
    return undefined;
  };
  const own = new Map<IConstruct, number[]>();
  for (const { apiObject } of input.objects) {
    const chart = Chart.of(apiObject);
    const node = unitNode.get(apiObject);
    if (node === undefined) continue;
    const list = own.get(chart);
    if (list) list.push(node);
    else own.set(chart, [node]);
  }
  const done = new Map<IConstruct, number>();
  for (const [chart, nodes] of own) {
    for (let child: Chart = chart as Chart, parent = parentChart(child); parent; child = parent, parent = parentChart(child)) {
      let barrier = done.get(child);
      if (barrier === undefined) {
        barrier = graph.addNode(undefined, child.node.path, true);
        done.set(child, barrier);
      }
      for (const n of nodes) graph.addEdge(n, barrier, '');
    }
  }
  for (const [child, barrier] of done) {
    for (const n of own.get(parentChart(child)!) ?? []) graph.addEdge(barrier, n, EdgeReason.CHILD_CHART);
  }
}

/** The soft kind order (`kindRank`) among the objects of each chart. */
function addKindOrder(input: GraphInput, graph: Graph, unitNode: Map<IConstruct, number>): void {
  const perChart = new Map<string, { nodes: number[]; ranks: number[] }>();
  for (const { apiObject, fact } of input.objects) {
    const node = unitNode.get(apiObject);
    if (node === undefined || fact.duplicateOf !== undefined) continue;
    let group = perChart.get(fact.chart);
    if (!group) perChart.set(fact.chart, (group = { nodes: [], ranks: [] }));
    group.nodes.push(node);
    group.ranks.push(kindRank(fact.identity.group, fact.identity.kind));
  }
  for (const { nodes, ranks } of perChart.values()) graph.addSoftOrder(nodes, ranks);
}

/**
 * An explicit dependency of `c` on `d` (`c.node.addDependency(d)`) as an edge
 * names it: by the program's file and line, or the library construct that made it.
 */
export function explicitEdge(c: IConstruct, d: IConstruct): { readonly reason: string; readonly origin: string } {
  return { reason: EdgeReason.EXPLICIT, origin: explicitDependencyOrigin(c, d) };
}

/**
 * A stack dependency as an edge names it. One the program made with
 * `addStackDependency` (or `addDependency`) is an explicit dependency, named
 * as an object's is, by its file and line (`'shop/Base'.addDependency('shop/acme')
 * at main.ts:12`); one aws-cdk made for a cross-stack reference keeps the
 * reason it was given, by that reference (`shop/acme -> shop/Base/Origin/Resource.Ref`);
 * any other (one from `node.addDependency`) keeps `dep.reason`. The shared base's keeps its reason, named
 * by the cross-stack reference of the tenant to the base when there is one (the wiring is not recorded).
 */
export function stackEdge(dep: StackDependency): { readonly reason: string; readonly origin?: string } {
  if (dep.reason === EdgeReason.SHARED_BASE) {
    const call = stackDependencyCall(dep.to, dep.from);
    return call?.byLibrary && call.reason !== undefined ? { reason: dep.reason, origin: call.reason } : { reason: dep.reason };
  }
  if (dep.reason !== EdgeReason.STACK) return { reason: dep.reason };
  const call = stackDependencyCall(dep.to, dep.from);
  if (!call) return { reason: dep.reason };
  if (call.byLibrary) return call.reason === undefined ? { reason: dep.reason } : { reason: dep.reason, origin: call.reason };
  const made = dependencyCallText(dep.to, dep.from);
  return { reason: EdgeReason.EXPLICIT, origin: call.site ? `${made} at ${call.site}` : made };
}
