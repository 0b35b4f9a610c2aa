import {
  ARGO_CD_HOOK_DELETE_POLICY, HELM_HOOK_DELETE_POLICY, hookDeletePolicies, placement, syncRole,
} from '../../cluster/argo-cd-hooks';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** The kinds whose run is over once they completed: applied again, they do not run again. */
const RUN_ONCE: Readonly<Record<string, string>> = {
  'batch/Job': 'a Job that completed does not run again, and the API server refuses a change of its spec.template (immutable), which fails that sync',
  '/Pod': 'a Pod that completed does not run again, and the API server refuses most changes of its spec (immutable), which fails that sync',
};

/**
 * `CAP010` (warning), with `GitOps.argoCd()`: a Job or Pod hook whose delete policies keep it once it succeeded
 * (`HookFailed` alone, as Argo CD's or Helm's policy). By gitops-engine 5baed5604d2dd970619fc9b91e8d31724662ab3e,
 * `pkg/sync/sync_task.go` `deleteBeforeCreation` and `pkg/sync/sync_context.go` `runTasks` / `applyObject`: a
 * hook still in the cluster is deleted before the next sync applies it only with `BeforeHookCreation` (the policy
 * of a hook that names none, `hook.DeletePolicies`); otherwise that sync applies it over the object the last one
 * left (`kubectl apply`, no "already exists"), whose health is already that of a completed run, so the hook does
 * not run again. A hook with no delete policy, or with `HookSucceeded` or `BeforeHookCreation`, is not reported.
 * A warning: the first sync runs it, and a later one fails only when its template changed.
 */
export const hookDeletePolicyWarnings = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'hook delete policies',
  severity: 'warning',
  explanation: 'Argo CD deletes a hook before it applies it again only with BeforeHookCreation (the policy of a hook that names none); a Job or Pod hook whose delete policies keep it once it succeeded (HookFailed alone) is applied over its completed self at the next sync and does not run again.',
  run: ({ facts, gitops }) => {
    if (gitops !== 'argocd') return [];
    return facts.objects.flatMap((o): RuleFinding[] => {
      const runOnce = RUN_ONCE[groupKind(o.identity.group, o.identity.kind)];
      if (o.duplicateOf !== undefined || runOnce === undefined || syncRole(o.manifest) !== 'hook') return [];
      const { policies } = hookDeletePolicies(o.manifest);
      if (policies.includes('BeforeHookCreation') || policies.includes('HookSucceeded')) return [];
      const hook = placement(o.manifest).hook!;
      const annotations = o.manifest?.metadata?.annotations ?? {};
      const written = [ARGO_CD_HOOK_DELETE_POLICY, HELM_HOOK_DELETE_POLICY]
        .filter((k) => typeof annotations[k] === 'string')
        .map((k) => `${k} ${JSON.stringify(annotations[k])}`);
      return [{
        message: `${describeIdentity(o.identity)} declared by '${o.declarer}' is an Argo CD hook (${hook.key} ${JSON.stringify(hook.value)}) whose delete policies (${written.join(', ')}) keep it once it succeeded: `
          + `the next sync applies it over the one the last sync left and counts that run as its own, so ${runOnce}. `
          + `Add BeforeHookCreation to its ${ARGO_CD_HOOK_DELETE_POLICY} (Argo CD then deletes it before it applies it again), or remove its delete policies: a hook with none has BeforeHookCreation.`,
        paths: [o.declarer],
      }];
    });
  },
});
