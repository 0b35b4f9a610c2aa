/**
 * How Argo CD treats an object annotated as a hook, as gitops-engine decides it: in which phases of a sync it
 * applies it, whether it applies it at all, and which delete policies it keeps. Read from gitops-engine at
 * commit 5baed5604d2dd970619fc9b91e8d31724662ab3e (github.com/argoproj/gitops-engine): `pkg/sync/hook/hook.go`
 * (`IsHook`, `Skip`, `Types`), `pkg/sync/hook/delete_policy.go` (`DeletePolicies`), `pkg/sync/hook/helm/`,
 * `pkg/sync/common/types.go`, `pkg/sync/sync_phase.go` (`syncPhases`), `pkg/sync/ignore/ignore.go` and
 * `pkg/sync/sync_context.go` (`getSyncTasks`, `runTasks`, `deleteHooks`).
 *
 * What a sync leaves in the cluster, by that source:
 *
 * - an object that is no hook is applied in the Sync phase and stays, as any applied object;
 * - an object annotated `argocd.argoproj.io/hook: Skip` alone is no hook and is never applied (`syncPhases`
 *   returns no phase), and a hook of no type gitops-engine runs (a Helm `test` or `pre-delete` hook, an Argo CD
 *   type it does not know) is dropped from the sync (`ignore.Ignore`): neither is ever in the cluster by a sync;
 * - a hook is applied in its phases at every sync (`ApplyResource`, server-side with `ServerSideApply=true`),
 *   with the finalizer `argocd.argoproj.io/hook-finalizer` added, which Argo CD removes by an update once the
 *   hook completed; with `HookSucceeded` it is deleted once the sync succeeded, with `HookFailed` once it failed,
 *   and with `BeforeHookCreation` (the policy of a hook that names none) it stays until the next sync deletes it
 *   just before applying it again. A `SyncFail` hook runs only when a sync fails; a hook of a phase a failed sync
 *   did not reach did not run. So a hook is in the cluster or not depending on syncs the lock cannot know of.
 */

/** Argo CD's hook annotation (gitops-engine `common.AnnotationKeyHook`). */
export const ARGO_CD_HOOK = 'argocd.argoproj.io/hook';

/** Helm's hook annotation, which Argo CD maps in part to its own phases. */
export const HELM_HOOK = 'helm.sh/hook';

/** Argo CD's hook delete policy annotation (gitops-engine `common.AnnotationKeyHookDeletePolicy`). */
export const ARGO_CD_HOOK_DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';

/** Helm's hook delete policy annotation, which gitops-engine reads beside Argo CD's (`helm.DeletePolicies`). */
export const HELM_HOOK_DELETE_POLICY = 'helm.sh/hook-delete-policy';

/** The finalizer gitops-engine adds to every hook it applies and removes once the hook completed (`hook.HookFinalizer`). */
export const HOOK_FINALIZER = 'argocd.argoproj.io/hook-finalizer';

/** The phases of an Argo CD sync that run in every sync, in the order Argo CD runs them, whatever the sync waves. */
export const ORDERED_PHASES = ['PreSync', 'Sync', 'PostSync'] as const;

/** A phase of an Argo CD sync: the three that every sync runs, and `SyncFail`, which runs only when a sync fails. */
export type SyncPhase = (typeof ORDERED_PHASES)[number] | 'SyncFail';

/** The Helm hooks Argo CD runs, and as which phase (gitops-engine `pkg/sync/hook/helm/type.go`); it ignores the others. */
const HELM_HOOK_PHASES: Readonly<Record<string, SyncPhase>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};

/** The values of `argocd.argoproj.io/hook` that gitops-engine knows (`common.NewHookType`). */
const ARGO_CD_HOOK_TYPES = new Set(['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip']);

/** A delete policy of a hook, as gitops-engine names it (`common.HookDeletePolicy`). */
export type HookDeletePolicy = 'BeforeHookCreation' | 'HookSucceeded' | 'HookFailed';

const ARGO_CD_DELETE_POLICIES = new Set<string>(['BeforeHookCreation', 'HookSucceeded', 'HookFailed']);

/** Helm's delete policies and the policy gitops-engine reads each as (`pkg/sync/hook/helm/delete_policy.go`). */
const HELM_DELETE_POLICIES: Readonly<Record<string, HookDeletePolicy>> = {
  'before-hook-creation': 'BeforeHookCreation',
  'hook-succeeded': 'HookSucceeded',
  'hook-failed': 'HookFailed',
};

/** The hook annotation of an object, as written. */
export interface HookAnnotation {
  /** `argocd.argoproj.io/hook` or `helm.sh/hook`. */
  readonly key: string;
  /** Its value, as written (`PreSync`, `pre-install,pre-upgrade`). */
  readonly value: string;
}

/** Where Argo CD applies an object in a sync: its phases, and the hook annotation that put it there. */
export interface Placement {
  /** The phases Argo CD applies it in; none when a sync never applies it (`Skip`, a Helm `test` hook, `PostDelete`). */
  readonly phases: readonly SyncPhase[];
  /** The annotation that makes it a hook (or skipped); absent for an ordinary object, which Argo CD applies in the Sync phase. */
  readonly hook?: HookAnnotation;
}

/** The values of a comma-separated annotation, trimmed, each once (gitops-engine `GetAnnotationCSVs`). */
export function annotationCsv(value: string): string[] {
  return [...new Set(value.split(',').map((v) => v.trim()).filter((v) => v !== ''))];
}

/** The string annotations of a manifest, or none. */
function annotationsOf(manifest: any): Readonly<Record<string, unknown>> {
  const annotations = manifest?.metadata?.annotations;
  return annotations !== null && typeof annotations === 'object' && !Array.isArray(annotations) ? annotations : {};
}

/**
 * The hook annotations of a manifest that some applier reads: `argocd.argoproj.io/hook`, and `helm.sh/hook`
 * other than `crd-install` (which Helm used for CRDs, and Argo CD does not take for a hook).
 */
export function hookAnnotations(manifest: any): HookAnnotation[] {
  const annotations = annotationsOf(manifest);
  const found: HookAnnotation[] = [];
  const argo = annotations[ARGO_CD_HOOK];
  if (typeof argo === 'string') found.push({ key: ARGO_CD_HOOK, value: argo });
  const helm = annotations[HELM_HOOK];
  if (typeof helm === 'string' && helm !== 'crd-install') found.push({ key: HELM_HOOK, value: helm });
  return found;
}

/**
 * Where Argo CD applies an object in a sync, as gitops-engine decides it (`syncPhases`, `hook.IsHook`,
 * `hook.Types`): an `argocd.argoproj.io/hook` wins over `helm.sh/hook` when it names a type Argo CD knows;
 * `Skip` alone, a hook of no type Argo CD runs (`PostDelete`, a Helm `test`), is applied in no phase of a sync;
 * an object that is no hook, in the Sync phase.
 */
export function placement(manifest: any): Placement {
  const hooks = hookAnnotations(manifest);
  if (hooks.length === 0) return { phases: ['Sync'] };
  const argo = hooks.find((h) => h.key === ARGO_CD_HOOK);
  const argoTypes = argo ? annotationCsv(argo.value).filter((t) => ARGO_CD_HOOK_TYPES.has(t)) : [];
  if (argoTypes.length > 0) {
    const phases = argoTypes.filter((t): t is SyncPhase => t !== 'Skip');
    return { phases: argoTypes.length === 1 && argoTypes[0] === 'Skip' ? [] : phases, hook: argo };
  }
  const helm = hooks.find((h) => h.key === HELM_HOOK);
  const helmTypes = helm ? annotationCsv(helm.value) : [];
  const helmPhases = [...new Set(helmTypes.map((t) => HELM_HOOK_PHASES[t]).filter((p): p is SyncPhase => p !== undefined))];
  // an Argo CD hook of no type gitops-engine knows (PostDelete) falls back to the Helm hook's types, which then place it
  return { phases: helmPhases, hook: helmPhases.length > 0 ? helm : argo ?? helm };
}

/**
 * What an Argo CD sync does with an object: `object`, no hook, applied in the Sync phase and kept; `hook`,
 * applied in its phases at every sync and deleted by Argo CD by its delete policies, so that the cluster holds
 * it or not depending on the syncs that ran; `never`, applied by no sync (`Skip` alone, a hook of no type
 * gitops-engine runs).
 */
export function syncRole(manifest: any): 'object' | 'hook' | 'never' {
  const p = placement(manifest);
  if (!p.hook) return 'object';
  return p.phases.length === 0 ? 'never' : 'hook';
}

/**
 * The delete policies gitops-engine reads for a hook (`hook.DeletePolicies`): those of
 * `argocd.argoproj.io/hook-delete-policy` it knows, then those of `helm.sh/hook-delete-policy`; a hook with
 * none it knows has `BeforeHookCreation` (`defaulted`).
 */
export function hookDeletePolicies(manifest: any): { readonly policies: readonly HookDeletePolicy[]; readonly defaulted: boolean } {
  const annotations = annotationsOf(manifest);
  const policies: HookDeletePolicy[] = [];
  const argo = annotations[ARGO_CD_HOOK_DELETE_POLICY];
  if (typeof argo === 'string') for (const p of annotationCsv(argo)) if (ARGO_CD_DELETE_POLICIES.has(p)) policies.push(p as HookDeletePolicy);
  const helm = annotations[HELM_HOOK_DELETE_POLICY];
  if (typeof helm === 'string') for (const p of annotationCsv(helm)) if (HELM_DELETE_POLICIES[p] !== undefined) policies.push(HELM_DELETE_POLICIES[p]);
  if (policies.length === 0) return { policies: ['BeforeHookCreation'], defaulted: true };
  return { policies: [...new Set(policies)], defaulted: false };
}
