import { DependencyGraph } from '../collect/graph/dependency-graph';
import { kindRank } from '../collect/graph/kind-order';
import { DEFAULT_NAMESPACE, isClusterScoped } from '../collect/object-identity';
import { shellWord } from '../private/shell-word';
import type { Lock, LockedUnit } from '../release/lock';
import { ADMISSION_GROUP, fieldOwnershipUnitIds } from '../release/locked-policies';

/**
 * When a teardown step runs, against applying the release that removes what it deletes: `after-field-ownership`
 * for the field-ownership policies and bindings the release no longer has (once the release's own policies are
 * applied, before anything they protect: `cdk-capability apply` runs it right after its field-ownership step),
 * `after-apply` for everything else (the previous release, live until this one is applied, may still use it: a
 * workload reading a removed Secret, a kept stack importing a removed stack's export). `before-apply` is what
 * plans written before `after-field-ownership` said of the field-ownership step: before the release is applied.
 */
export type TeardownTiming = 'before-apply' | 'after-field-ownership' | 'after-apply';

/** A GitOps engine the output can be written for: `flux` (`GitOps.flux`) or `argocd` (`GitOps.argoCd`). */
export type GitOpsEngine = 'flux' | 'argocd';

/** One step of the teardown: stacks or objects to delete together, and the commands that do it. */
export interface TeardownStep {
  /** `deploy` (a CloudFormation stack) or `runtime` (Kubernetes objects). */
  readonly lifecycle: 'deploy' | 'runtime';
  /**
   * When to run it: `after-field-ownership` (the field-ownership step: once the release's own policies are
   * applied and before anything they protect, which `cdk-capability apply` does itself) or `after-apply` (once
   * the release is applied, so nothing live still uses what it deletes). `before-apply` in plans written
   * before `after-field-ownership`, for the field-ownership step; absent in plans written before it was
   * recorded, which read as `before-apply` for the field-ownership step and `after-apply` for every other.
   */
  readonly when: TeardownTiming;
  /** What the step deletes, as the plan names it (`stack cdn/acme`, `Kind ns/name`), in deletion order. */
  readonly units: string[];
  /** The commands that carry the step out, one after the other. */
  readonly commands: string[];
  /**
   * True for the step that deletes the field-ownership policies and bindings the release no longer has
   * (`enforce`), the first: `cdk-capability apply` runs it right after the release's field-ownership step, so
   * that every object protected before and after the release stays protected, and no removed policy judges the
   * release's writes. Absent for every other step.
   */
  readonly fieldOwnership?: true;
  /**
   * For a stack: the region its commands pass as `--region`, as the lock records it. Absent when the lock
   * records none (an environment-agnostic stack, or a lock written before regions were recorded): the commands
   * then pass `--region <region>`, for the user to replace with the region the stack was deployed to, rather
   * than delete in the default region of the shell that runs them.
   */
  readonly region?: string;
  /** For a stack whose `env` names its account: that account, whose credentials the commands need. */
  readonly account?: string;
}

/** What deleting the removed part of a release takes, in `plan.json` as `teardown`. */
export interface Teardown {
  /** The steps, in deletion order: the reverse of the locked release's apply order, restricted to what this release removes. */
  readonly steps: TeardownStep[];
  /**
   * The GitOps engine the release's output is written for (`CapabilityApp` prop `gitops`): with `flux`, the
   * engine prunes removed runtime objects itself (`prune: true`), in its own order. Absent without `gitops`, and
   * in plans written before it was recorded.
   */
  readonly gitops?: GitOpsEngine;
  /** What the locked release had and this release keeps: stacks by label, and how many objects. */
  readonly kept: {
    /** The stacks kept, as `stack <path>`. */
    readonly stacks: string[];
    /** How many objects are kept. */
    readonly objects: number;
  };
}

/**
 * The teardown of what `next` removes from `previous`: the reverse of the
 * apply order of the locked release (its graph, as the lock records it, plus
 * the kind order: webhooks and custom resources before what they serve,
 * workloads before what they mount), restricted to the removed units. So
 * custom resources are deleted before their CRD, the contents of a Namespace
 * before it, the runtime objects before the stacks they consume and tenant
 * stacks before their shared base. Objects deleted in one step share a level
 * of that order; every stack is a step of its own.
 *
 * The field-ownership policies and bindings the release no longer has come first, in a step of their own
 * (the bindings, then the policies): a policy judges writes, and nothing needs it to exist, so it goes
 * before anything it protected is deleted or changes hands, and none of those writes meets a policy the
 * release no longer has. That step runs once the release's own policies are applied, right after its
 * field-ownership step and before any other (`when: 'after-field-ownership'`; `cdk-capability apply` runs
 * it there): a policy renamed (a kind's policies are named in the order of their shapes, so one object
 * changing shape renames another's) or one whose objects move to another policy keeps protecting them
 * until the policy that protects them now is in force. Every other step runs after the release is applied
 * (`after-apply`), since the previous release stays live until then and may still use what the step deletes.
 *
 * @param previous the locked release, if any (none: nothing to tear down)
 * @param next the lock of this release
 * @param gitops the GitOps engine the output is written for, if any
 */
export function teardownOf(previous: Lock | undefined, next: Lock, gitops?: GitOpsEngine): Teardown {
  const engine = gitops !== undefined ? { gitops } : {};
  if (!previous) return { steps: [], ...engine, kept: { stacks: [], objects: 0 } };
  const keep = new Set(next.units.map((u) => u.id));
  const units = previous.units;
  const kept = units.filter((u) => keep.has(u.id));
  // nothing removed (the common release): no step, and no need to order the previous release's graph
  if (kept.length === units.length) return { steps: [], ...engine, kept: keptOf(kept) };
  const policies = fieldOwnershipUnitIds(previous);
  const graph = new DependencyGraph<LockedUnit | undefined>();
  units.forEach((u) => graph.addNode(u, u.label));
  previous.barriers.forEach((b) => graph.addNode(undefined, b, true));
  for (const [from, to, reason] of previous.edges) graph.addEdge(from, to, reason);
  const objects = units.map((_, i) => i).filter((i) => units[i].id.startsWith('object:') && !policies.has(units[i].id));
  graph.addSoftOrder(objects, objects.map((i) => kindRankOf(units[i])));
  const sorted = graph.sort();
  const applyOrder = sorted.cycles.length === 0 ? sorted.order.filter((n) => n < units.length) : units.map((_, i) => i);

  const steps: TeardownStep[] = [];
  const removedPolicies = units.filter((u) => policies.has(u.id) && !keep.has(u.id));
  if (removedPolicies.length > 0) {
    const bindingsFirst = [...removedPolicies.filter(isBinding), ...removedPolicies.filter((u) => !isBinding(u))];
    steps.push({ ...runtimeStep(bindingsFirst, 'after-field-ownership'), fieldOwnership: true });
  }
  let open: { level: number; nodes: number[] } | undefined;
  const close = () => {
    if (open) steps.push(runtimeStep(open.nodes.map((n) => units[n]), 'after-apply'));
    open = undefined;
  };
  for (const n of [...applyOrder].reverse()) {
    const unit = units[n];
    if (keep.has(unit.id) || policies.has(unit.id)) continue;
    if (unit.id.startsWith('stack:')) {
      close();
      steps.push(stackStep(unit));
      continue;
    }
    if (open && open.level !== sorted.levels[n]) close();
    open ??= { level: sorted.levels[n], nodes: [] };
    open.nodes.push(n);
  }
  close();
  return { steps, ...engine, kept: keptOf(kept) };
}

/** What a teardown says the release keeps: its stacks by label, and how many objects. */
function keptOf(kept: readonly LockedUnit[]): Teardown['kept'] {
  return { stacks: kept.filter((u) => u.id.startsWith('stack:')).map((u) => u.label), objects: kept.filter((u) => u.id.startsWith('object:')).length };
}

/**
 * When a step runs: as it says, or, in a plan written before steps said it, `before-apply` for the
 * field-ownership step (what those plans told) and `after-apply` for every other.
 */
export function teardownTiming(step: Pick<TeardownStep, 'fieldOwnership'> & { readonly when?: TeardownTiming }): TeardownTiming {
  return step.when ?? (step.fieldOwnership ? 'before-apply' : 'after-apply');
}

function isBinding(u: LockedUnit): boolean {
  return u.groupKind === `${ADMISSION_GROUP}/ValidatingAdmissionPolicyBinding`;
}

function kindRankOf(u: LockedUnit): number {
  const [group, kind] = splitGroupKind(u.groupKind ?? '');
  return kindRank(group, kind);
}

/** `apps/Deployment` to `['apps', 'Deployment']`, `ConfigMap` to `['', 'ConfigMap']`. */
function splitGroupKind(groupKind: string): [string, string] {
  const slash = groupKind.lastIndexOf('/');
  return slash === -1 ? ['', groupKind] : [groupKind.slice(0, slash), groupKind.slice(slash + 1)];
}

/** The object's identity from its lock id, `object:<group>|<kind>|<namespace>|<name>`. */
function identityOf(u: LockedUnit): { group: string; kind: string; namespace: string; name: string } {
  const [group = '', kind = '', namespace = '', ...name] = u.id.slice('object:'.length).split('|');
  return { group, kind, namespace, name: name.join('|') };
}

/**
 * One `kubectl delete` per namespace, waiting until each object is gone. A namespaced object whose manifest
 * named no namespace is deleted in `default`, where `apply` put it, not in the namespace of kubectl's context;
 * so is one of a kind whose scope is not known here (a custom resource), which `--namespace` does not harm if
 * it is cluster-scoped: kubectl ignores it for such a kind.
 */
function runtimeStep(step: LockedUnit[], when: TeardownTiming): TeardownStep {
  const perNamespace = new Map<string, string[]>();
  for (const u of step) {
    const id = identityOf(u);
    const resource = `${id.kind.toLowerCase()}${id.group ? `.${id.group}` : ''}/${id.name}`;
    const namespace = id.namespace || (isClusterScoped(id.group, id.kind) ? '' : DEFAULT_NAMESPACE);
    const list = perNamespace.get(namespace);
    if (list) list.push(shellWord(resource));
    else perNamespace.set(namespace, [shellWord(resource)]);
  }
  const commands = [...perNamespace].map(
    ([namespace, resources]) => `kubectl delete --wait=true --ignore-not-found${namespace ? ` --namespace ${shellWord(namespace)}` : ''} ${resources.join(' ')}`,
  );
  return { lifecycle: 'runtime', when, units: step.map((u) => u.label), commands };
}

/** What a stack step's commands pass as `--region` when the lock records no region: a placeholder a shell refuses. */
export const REGION_PLACEHOLDER = '<region>';

/**
 * `aws cloudformation delete-stack`, then wait until it is deleted, in the stack's region: `delete-stack` of a
 * stack that is not in the region it is sent to succeeds silently, and would delete a stack of that name there.
 */
function stackStep(u: LockedUnit): TeardownStep {
  const name = shellWord(u.stackName ?? u.path.replace(/\//g, '-'));
  const region = u.region !== undefined ? shellWord(u.region) : REGION_PLACEHOLDER;
  return {
    lifecycle: 'deploy',
    when: 'after-apply',
    units: [u.label],
    commands: [
      `aws cloudformation delete-stack --stack-name ${name} --region ${region}`,
      `aws cloudformation wait stack-delete-complete --stack-name ${name} --region ${region}`,
    ],
    ...(u.region !== undefined ? { region: u.region } : {}),
    ...(u.account !== undefined ? { account: u.account } : {}),
  };
}
