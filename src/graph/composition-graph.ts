import { Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { DependencyGraph } from './dependency-graph';
import { CompositionModel, DeployStack, RuntimeObject } from '../model/composition-model';
import { groupKind } from '../model/object-identity';
import { isSelfDependent } from '../model/self-dependency';
import { violation, Violation, ViolationCode } from '../violation';

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
} as const;

/** What a graph node stands for: a stack or an object; barriers carry `undefined`. */
export type Unit =
  | { readonly kind: 'stack'; readonly stack: DeployStack }
  | { readonly kind: 'object'; readonly object: RuntimeObject };

/** One stack-to-stack dependency, as the cloud assembly records it. */
export interface StackDependency {
  /** The stack deployed first. */
  readonly from: Stack;
  /** The stack that depends on it. */
  readonly to: Stack;
  /** Why. */
  readonly reason: string;
}

/** The dependency graph of a composition and the problems found building it. */
export interface CompositionGraph {
  /** One node per stack and per object, plus barriers for construct-level dependencies. */
  readonly graph: DependencyGraph<Unit | undefined>;
  /** Self-dependencies (`CAP004`). */
  readonly violations: Violation[];
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
export function buildCompositionGraph(model: CompositionModel, stackDependencies: readonly StackDependency[]): CompositionGraph {
  const graph = new DependencyGraph<Unit | undefined>();
  const violations: Violation[] = [];
  const unitNode = new Map<IConstruct, number>();

  const stackOf = new Map(model.stacks.map((s) => [s.stack as IConstruct, s]));
  const objectOf = new Map(model.objects.map((o) => [o.apiObject as IConstruct, o]));
  for (const c of model.constructs) {
    const s = stackOf.get(c);
    if (s) unitNode.set(c, graph.addNode({ kind: 'stack', stack: s }, c.node.path));
    const o = objectOf.get(c);
    if (o) unitNode.set(c, graph.addNode({ kind: 'object', object: o }, c.node.path));
  }

  addExplicitEdges(model, graph, unitNode, violations);
  addRuntimeEdges(model.objects, graph, unitNode);
  for (const dep of stackDependencies) {
    graph.addEdge(unitNode.get(dep.from)!, unitNode.get(dep.to)!, dep.reason);
  }
  addDeployBeforeRuntimeEdges(model, graph, unitNode);
  addInterfaceEdges(model, graph, unitNode);
  return { graph, violations };
}

function addExplicitEdges(
  model: CompositionModel,
  graph: DependencyGraph<Unit | undefined>,
  unitNode: Map<IConstruct, number>,
  violations: Violation[],
): void {
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

  for (const c of model.constructs) {
    const dependencies = isSelfDependent(c) ? [c, ...c.node.dependencies] : c.node.dependencies;
    for (const d of dependencies) {
      if (d === c) {
        violations.push(
          violation(
            ViolationCode.DEPENDENCY_CYCLE,
            `dependency cycle: '${c.node.path}' depends on itself. Remove the addDependency call that names the construct itself.`,
            [c.node.path],
          ),
        );
        continue;
      }
      const from = unitOf(d) ?? barrier(done, d);
      const to = unitOf(c) ?? barrier(start, c);
      if (from !== to) graph.addEdge(from, to, EdgeReason.EXPLICIT);
    }
  }

  if (done.size === 0 && start.size === 0) return;
  for (const [unit, node] of unitNode) {
    for (let s = unit.node.scope; s; s = s.node.scope) {
      const d = done.get(s);
      if (d !== undefined) graph.addEdge(node, d, '');
      const st = start.get(s);
      if (st !== undefined) graph.addEdge(st, node, '');
    }
  }
}

/** CRD before its custom resources, Namespace before its contents, Role before its bindings. */
function addRuntimeEdges(objects: readonly RuntimeObject[], graph: DependencyGraph<Unit | undefined>, unitNode: Map<IConstruct, number>): void {
  const crds = new Map<string, number>();
  const namespaces = new Map<string, number>();
  const roles = new Map<string, number>();
  for (const o of objects) {
    const { group, kind, namespace, name } = o.identity;
    const node = unitNode.get(o.apiObject)!;
    if (group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition') {
      crds.set(groupKind(String(o.manifest.spec?.group ?? ''), String(o.manifest.spec?.names?.kind ?? '')), node);
    } else if (group === '' && kind === 'Namespace') {
      namespaces.set(name, node);
    } else if (group === 'rbac.authorization.k8s.io' && (kind === 'Role' || kind === 'ClusterRole')) {
      roles.set(`${kind}|${kind === 'Role' ? namespace : ''}|${name}`, node);
    }
  }
  for (const o of objects) {
    const { group, kind, namespace } = o.identity;
    const node = unitNode.get(o.apiObject)!;
    const crd = crds.get(groupKind(group, kind));
    if (crd !== undefined) graph.addEdge(crd, node, EdgeReason.CRD);
    const ns = namespace ? namespaces.get(namespace) : undefined;
    if (ns !== undefined) graph.addEdge(ns, node, EdgeReason.NAMESPACE);
    if (group === 'rbac.authorization.k8s.io' && (kind === 'RoleBinding' || kind === 'ClusterRoleBinding')) {
      const ref = o.manifest.roleRef ?? {};
      const refKind = String(ref.kind ?? '');
      const role = roles.get(`${refKind}|${refKind === 'Role' ? namespace : ''}|${ref.name}`);
      if (role !== undefined) graph.addEdge(role, node, EdgeReason.ROLE);
    }
  }
}

/** Every deployment-time stack of a capability before any of its runtime objects. */
function addDeployBeforeRuntimeEdges(model: CompositionModel, graph: DependencyGraph<Unit | undefined>, unitNode: Map<IConstruct, number>): void {
  for (const capability of model.capabilities) {
    const stacks = model.stacks.filter((s) => s.capability === capability);
    const objects = model.objects.filter((o) => o.capability === capability);
    if (stacks.length === 0 || objects.length === 0) continue;
    const gate = graph.addNode(undefined, `${capability.node.path} (deployment time)`, true);
    for (const s of stacks) graph.addEdge(unitNode.get(s.stack)!, gate, '');
    for (const o of objects) graph.addEdge(gate, unitNode.get(o.apiObject)!, EdgeReason.DEPLOY_BEFORE_RUNTIME);
  }
}

/** The stack that publishes a contract before every object of each chart that consumes it. */
function addInterfaceEdges(model: CompositionModel, graph: DependencyGraph<Unit | undefined>, unitNode: Map<IConstruct, number>): void {
  for (const contract of model.contracts) {
    for (const publication of contract.publications) {
      const publisher = unitNode.get(publication.stack);
      if (publisher === undefined) continue;
      for (const consumption of contract.consumptions) {
        const gate = graph.addNode(undefined, `${contract.node.path} (published)`, true);
        graph.addEdge(publisher, gate, '');
        for (const o of model.objects) {
          if (o.chart === consumption.chart) graph.addEdge(gate, unitNode.get(o.apiObject)!, EdgeReason.INTERFACE);
        }
      }
    }
  }
}
