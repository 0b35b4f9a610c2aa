import { releaseEntryCommand } from '../cluster/previous-applier';
import type { LockedGitOps } from '../release/lock';
import { FIELD_OWNERSHIP_STEP } from '../release/locked-policies';
import type { FluxMove, GitOpsChange } from '../release/release-diff';
import type { Plan } from '../render/writers/plan-json';

/** The heading of the section of the GitOps output left behind, in the plan and its teardown. */
const GITOPS_HEADING = 'GitOps (what the previous release\'s GitOps output left in the cluster, which this release does not make again and nothing deletes):';
/** The heading of the section when the previous release's GitOps output is all made again, only some objects move between Flux Kustomizations. */
const MOVES_HEADING = 'GitOps (objects this release moves from one Flux step Kustomization to another):';

/**
 * The section of a plan (and of its teardown) on the previous release's GitOps output this release does not make
 * again (`gitopsLines`): a blank line, the heading, and each line indented; none when there is nothing. When nothing
 * is left behind (the same engine, every Flux Kustomization made again) and only objects move between Kustomizations,
 * the heading says that.
 */
export function gitopsSection(plan: Plan): string[] {
  const unrecorded = plan.changes.gitopsUnrecorded;
  const lines = unrecorded ? [unrecordedLine(unrecorded)] : gitopsLines(plan);
  const change = plan.changes.gitops;
  const heading = !unrecorded && change && !gitopsLeftBehind(change) ? MOVES_HEADING : GITOPS_HEADING;
  return lines.length === 0 ? [] : ['', heading, ...lines.map((l) => `  ${l}`)];
}

/**
 * True when the previous release's GitOps output is not all made again: another engine (or none), or Flux
 * Kustomizations this release does not make. False when the change is only objects moving between Kustomizations.
 */
export function gitopsLeftBehind(change: GitOpsChange): boolean {
  return change.after?.engine !== change.before.engine || change.kustomizations.length > 0;
}

/**
 * True when the GitOps change asks something of the user: output left behind to remove, or an object that moves to
 * another Flux Kustomization which the one it leaves may prune first (or the lock cannot tell). False for moves that
 * are all safe (`FluxMove.safe`), and without a change.
 */
export function gitopsNeedsWork(change: GitOpsChange | undefined): boolean {
  return change !== undefined && (gitopsLeftBehind(change) || (change.moved ?? []).some((m) => m.safe !== true));
}

/**
 * The one line of a plan whose lock records no GitOps engine while this release writes one (`changes.gitopsUnrecorded`):
 * the previous release was applied by `cdk-capability apply`, or its lock was written before the engine was recorded,
 * and nothing in such a lock tells which (its units, writers and managers are the same either way). So the line says
 * the previous engine is unknown to the lock and how to check in the cluster; it guesses nothing.
 */
export function unrecordedLine(after: LockedGitOps): string {
  return `? engine: unknown to the lock -> ${engineName(after)} (the lock records no GitOps engine: the previous release was applied by cdk-capability apply, `
    + 'or its lock was written before the engine was recorded, and this plan cannot tell which, nor name what a previous engine left. '
    + 'Check in the cluster: kubectl get kustomizations.kustomize.toolkit.fluxcd.io -A and kubectl get applications.argoproj.io -A list what Flux and Argo CD hold '
    + '(an error saying the server has no such resource type: that engine is not installed), and '
    + 'kubectl get -f <outdir>/audit/objects.list --ignore-not-found -o jsonpath=\'{.items[*].metadata.managedFields[*].manager}\' names who applied the release\'s objects '
    + '(kustomize-controller: Flux; argocd-controller: Argo CD; cdk-capability: cdk-capability apply); then see docs/gitops.md#switching-engines. '
    + 'The lock this release writes records its engine, so the next plan names what it leaves)';
}

/** How the plan names an engine, or no engine (`cdk-capability apply`). */
function engineName(g: LockedGitOps | undefined): string {
  if (g === undefined) return 'none (cdk-capability apply)';
  return g.engine === 'flux' ? 'Flux' : 'Argo CD';
}

/** What applies this release, in a sentence: "Argo CD has synced", "Flux has applied", "cdk-capability apply has applied". */
function takenOver(g: LockedGitOps | undefined): string {
  if (g === undefined) return 'cdk-capability apply has applied this release';
  return g.engine === 'flux' ? 'Flux has applied this release' : 'Argo CD has synced this release';
}

/** The names as one shell line's words, each name a Kubernetes name (no quoting needed). */
function words(names: readonly string[]): string {
  return names.join(' ');
}

/**
 * The plan's lines of the previous release's GitOps output that this release does not make again (`changes.gitops`):
 * a heading line, one line naming what is left behind, and a note in parentheses with what happens to it and the
 * commands that remove it without deleting what it applied.
 *
 * Flux (kustomize-controller's `finalize`): deleting a Kustomization whose `prune` is true deletes every object its
 * inventory holds that carries its owner labels, unless it is suspended (`spec.suspend`); a Kustomization whose path
 * is gone from its source fails to build and prunes nothing. Argo CD: an Application whose path is gone fails to
 * render (`ComparisonError`, app path does not exist) and syncs nothing; deleting it with the finalizer
 * `resources-finalizer.argocd.argoproj.io` (what `argocd app delete` adds by default) deletes every object it manages.
 */
export function gitopsLines(plan: Plan): string[] {
  const change = plan.changes.gitops;
  if (!change) return [];
  const { before, after } = change;
  const lines: string[] = [];
  if (after?.engine !== before.engine) lines.push(`~ engine: ${engineName(before)} -> ${engineName(after)}`);
  if (before.engine === 'flux') {
    if (change.kustomizations.length > 0) lines.push(`- Flux Kustomizations in ${before.namespace}: ${change.kustomizations.join(', ')}`);
    const moved = change.moved ?? [];
    if (moved.length > 0) lines.push(`~ objects that change Flux Kustomization in ${before.namespace}: ${moved.map((m) => `${m.object} (${m.from} -> ${m.to})`).join(', ')}`);
    if (after?.engine !== 'flux') lines.push(`(${fluxLeftNote(change)})`);
    else if (change.kustomizations.length > 0) lines.push(`(${fluxDroppedNote(change)})`);
    const unsafe = moved.filter((m) => m.safe !== true);
    const safe = moved.filter((m) => m.safe === true);
    if (after?.engine === 'flux' && unsafe.length > 0) lines.push(`(${fluxMovedNote(unsafe)})`);
    if (after?.engine === 'flux' && safe.length > 0) lines.push(`(${fluxSafeMoveNote(safe, unsafe.length > 0)})`);
  } else if (after?.engine !== before.engine) {
    lines.push(`(${argoLeftNote(change)})`);
  }
  const enforced = plan.steps.some((s) => s.id === FIELD_OWNERSHIP_STEP);
  if (enforced && after !== undefined && after.engine !== before.engine) {
    lines.push(`(with enforce, check that enforce's deployer is the identity ${engineName(after)} applies as `
      + `(${after.engine === 'flux' ? 'system:serviceaccount:flux-system:kustomize-controller' : 'system:serviceaccount:argocd:argocd-application-controller'} by default): `
      + `the field-ownership policies let only the deployer change the release's fields, and otherwise refuse ${engineName(after)}'s ${after.engine === 'flux' ? 'apply' : 'sync'} `
      + 'of any release that changes one (one that changes none passes, so the first may succeed and a later one fail))');
  }
  return lines;
}

/** How to remove Flux Kustomizations without deleting what they applied: suspend each, then delete them. */
function removeFluxCommand(names: readonly string[], namespace: string): string {
  return `for k in ${words(names)}; do flux suspend kustomization "$k" -n ${namespace}; done && kubectl delete kustomizations.kustomize.toolkit.fluxcd.io -n ${namespace} ${words(names)}`;
}

/** Flux's output left behind by a release written for another engine, or none. */
function fluxLeftNote(change: GitOpsChange): string {
  const ns = change.before.namespace ?? 'flux-system';
  const names = change.kustomizations;
  const deletes = change.before.prune === false
    ? 'Their prune is false, so deleting them keeps what they applied'
    : 'Nothing deletes them; deleting one whose prune is true deletes every object it applied, unless it is suspended first';
  return 'this release writes no gitops/flux/: those Kustomizations, and the one you pointed at gitops/flux/cluster, fail to reconcile once their paths are gone '
    + `from the source, and keep what they applied. ${deletes}. `
    + `Once ${takenOver(change.after)}, remove them: ${removeFluxCommand(names, ns)}; `
    + 'then suspend and delete the Kustomization you pointed at gitops/flux/cluster the same way (deleted unsuspended, it deletes the step Kustomizations it applied, '
    + `and, where they are not suspended, what they applied). ${oldManagerAdvice('kustomize-controller', 'its owner labels', change.after)}`;
}

/** The annotation that makes kustomize-controller's prune skip an object (its `Exclusions`). */
const PRUNE_DISABLED = 'kustomize.toolkit.fluxcd.io/prune';

/** The kubectl arguments that name an object the plan names `Kind namespace/name` (or `Kind name`, cluster-scoped). */
function kubectlTarget(object: string): string {
  const space = object.indexOf(' ');
  const kind = object.slice(0, space);
  const rest = object.slice(space + 1);
  const slash = rest.indexOf('/');
  return slash < 0 ? `${kind} ${rest}` : `${kind} ${rest.slice(slash + 1)} -n ${rest.slice(0, slash)}`;
}

/**
 * What Flux does with objects that move from one step Kustomization to another, and how to keep them. kustomize-controller
 * prunes, when a Kustomization applies a revision, the objects of its previous inventory that the new one lacks
 * (`inventory.Diff`), and its delete skips an object whose live labels are not its owner labels or that carries
 * `kustomize.toolkit.fluxcd.io/prune: disabled` (fluxcd/pkg ssa `DeleteAll` with the Kustomization's `Inclusions` and
 * `Exclusions`); the Kustomization an object moves to sets its own owner labels when it applies it. So the object is
 * deleted when the one it leaves applies first, until the other applies it again. With both locks' `dependsOn`, the
 * moves named here are those whose Kustomization left does not wait for the one they move to (`FluxMove.safe`
 * false), and the note says so; without it (a lock written before it was recorded), every move, and the note says when.
 */
function fluxMovedNote(moved: readonly FluxMove[]): string {
  const targets = moved.map((m) => kubectlTarget(m.object));
  const annotate = (value: string) => targets.map((t) => `kubectl annotate ${t} ${PRUNE_DISABLED}${value}`).join(' && ');
  const when = moved.every((m) => m.safe === false)
    ? 'The Kustomization each of these leaves may apply before the one it moves to (it does not depend on it by dependsOn, directly or through others, in both this release '
      + 'and the previous one, and Flux may reconcile it with either\'s), and then the object is deleted until the Kustomization it moves to applies it again: '
    : 'So an object is deleted, until the Kustomization it moves to applies it again, when the one it leaves applies first (it comes earlier by dependsOn, or the two run at once): ';
  return 'with prune: true, each Kustomization an object leaves prunes it when it applies this release, while the object still carries that Kustomization\'s owner labels '
    + '(kustomize.toolkit.fluxcd.io/name); the one it moves to sets its own labels when it applies it, after which the prune skips it. '
    + when
    + 'a Deployment\'s pods restart from nothing, a PersistentVolumeClaim takes its volume with it. '
    + `To keep them, before committing the release: ${annotate('=disabled --overwrite')}; `
    + `once the Kustomizations they move to have applied the release, remove the annotation (or they are never pruned): ${annotate('-')}`;
}

/**
 * The moves no prune reaches (`FluxMove.safe`): the Kustomization each object leaves waits, by dependsOn in both
 * releases, for the one it moves to, and kustomize-controller applies (and then prunes) a Kustomization only once each
 * one it depends on is Ready at the same revision of the source (`checkDependencies`), by which time that one has set
 * its own owner labels on the object, so the prune skips it.
 *
 * @param others whether other moves are named as unsafe, so this note names its objects
 */
function fluxSafeMoveNote(safe: readonly FluxMove[], others: boolean): string {
  const which = others ? `${safe.map((m) => m.object).join(', ')}: ` : '';
  return `${which}safe, nothing to do: the Kustomization ${safe.length === 1 && !others ? 'the object' : 'each object'} leaves depends on the one it moves to (by dependsOn, directly or through others, `
    + 'in this release and the previous one), and Flux applies a Kustomization, and prunes with it, only once each one it depends on is ready at the same revision '
    + 'of the source; by then the Kustomization the object moves to has applied it and set its own owner labels, so the prune skips it';
}

/** Flux Kustomizations a release written for Flux no longer makes (a step renamed, renumbered or removed). */
function fluxDroppedNote(change: GitOpsChange): string {
  const ns = change.before.namespace ?? 'flux-system';
  if (change.before.prune === false) {
    return 'the Kustomization you pointed at gitops/flux/cluster deletes them when it applies this release; their prune is false, so what they applied stays: '
      + 'objects this release removes are left to cdk-capability plan --teardown';
  }
  return 'the Kustomization you pointed at gitops/flux/cluster deletes them when it applies this release, and each, with prune: true, deletes what it applied: '
    + 'an object this release keeps under another Kustomization (a step renamed or renumbered) may be deleted before that one applies it again. '
    + 'To keep such objects, suspend these before committing the release (a suspended Kustomization deleted keeps its objects): '
    + `for k in ${words(change.kustomizations)}; do flux suspend kustomization "$k" -n ${ns}; done; the objects this release removes are then left to cdk-capability plan --teardown`;
}

/**
 * What the previous engine's field manager keeps in each object, and how to release it: removing the engine's
 * objects leaves its `managedFields` entries, which the audit for the new applier reports (`undeclared-manager`);
 * applying each object's identity alone under that manager (`audit/objects.list`) releases every field it owns,
 * removing those no other manager owns (test/gitops2-engine-switch.test.ts replays it on structured-merge-diff).
 */
function oldManagerAdvice(manager: string, bookkeeping: string, after: LockedGitOps | undefined): string {
  const auditedBy = after === undefined ? '' : ` --applied-by ${after.engine === 'flux' ? 'kustomize-controller' : 'argocd-controller'}`;
  return `Removing them leaves ${manager}'s entries in each object's metadata.managedFields, which cdk-capability audit${auditedBy} reports as undeclared-manager '${manager}'. `
    + `Only once ${takenOver(after)}, release them: ${releaseEntryCommand(manager)}, `
    + `which applies each object's identity alone under ${manager}, so it owns no other field: ${bookkeeping} go, and the fields this release applied stay `
    + '(applied before, it removes every field no other manager owns)';
}

/** Argo CD's output left behind by a release written for another engine, or none. */
function argoLeftNote(change: GitOpsChange): string {
  return 'this release writes no gitops/argocd/: the Argo CD Application you pointed at it fails to render (ComparisonError: app path does not exist), '
    + 'and syncs and prunes nothing; what it applied stays. '
    + 'Deleting the Application deletes every object it manages when it carries the finalizer resources-finalizer.argocd.argoproj.io (argocd app delete adds it by default). '
    + `Once ${takenOver(change.after)}, delete it without cascading: argocd app delete <application> --cascade=false, or `
    + 'kubectl patch application <application> -n argocd --type merge -p \'{"metadata":{"finalizers":null}}\' && kubectl delete application <application> -n argocd. '
    + oldManagerAdvice('argocd-controller', 'its sync-wave and tracking annotations', change.after);
}
