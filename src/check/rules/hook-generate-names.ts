import { hookDeletePolicies, syncRole } from '../../cluster/argo-cd-hooks';
import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: an object with `metadata.generateName` and no `metadata.name` (cdk8s' `ApiObject` always sets a
 * name; a JSON patch removes it). Every applier of the output applies by name: kubectl (`cdk-capability apply`)
 * and Flux refuse an object without one (`generateName` names an object only when it is created, `kubectl
 * create`), and so does Argo CD for an object of the Sync phase. Argo CD names a hook itself at each sync
 * (gitops-engine 5baed5604d2dd970619fc9b91e8d31724662ab3e, `pkg/sync/sync_context.go` `getSyncTasks`:
 * `<generateName><revision>-<phase>-<unix time>`), but the release keys every object by its name (the lock,
 * `audit/objects.list`, the admission policies, the teardown), and cannot follow a name made at each sync; a named
 * hook runs at every sync too (Argo CD deletes it before it applies it again, `BeforeHookCreation`).
 */
export const hookGenerateNames = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'generated names',
  explanation: 'An object with metadata.generateName and no name cannot be applied (kubectl apply, Flux and an Argo CD sync apply by name), and a release cannot track a hook that Argo CD names anew at each sync: give it a name.',
  run: ({ facts, gitops }) => facts.objects.flatMap((o): RuleFinding[] => {
    const generateName = generatedName(o);
    if (generateName === undefined) return [];
    const object = `${describeIdentity({ ...o.identity, name: '(no name)' })} declared by '${o.declarer}'`;
    const has = `${object} has metadata.generateName ${JSON.stringify(generateName)} and no metadata.name`;
    const setName = 'Set metadata.name (drop the JSON patch that removes it)';
    if (gitops !== 'argocd') {
      const applier = gitops === 'flux' ? 'Flux (GitOps.flux({ sourceRef }))' : 'kubectl (cdk-capability apply)';
      return [{ message: `${has}, but ${applier} applies objects by name and refuses one without: generateName names an object only when it is created (kubectl create). ${setName}.`, paths: [o.declarer] }];
    }
    if (syncRole(o.manifest) !== 'hook') {
      return [{ message: `${has}, but with GitOps.argoCd() Argo CD applies an object that is no hook by name, and refuses one without: it names only a hook itself. ${setName}.`, paths: [o.declarer] }];
    }
    const { policies, defaulted } = hookDeletePolicies(o.manifest);
    const fix = !policies.includes('BeforeHookCreation')
      ? `${setName}, and add BeforeHookCreation to its argocd.argoproj.io/hook-delete-policy: Argo CD then deletes the named hook before it applies it again at the next sync, so it still runs at every sync.`
      : `${setName}: Argo CD deletes a named hook before it applies it again at the next sync (BeforeHookCreation${defaulted ? ', the delete policy of a hook that names none' : ''}), so it still runs at every sync.`;
    return [{
      message: `${has}: Argo CD names such a hook anew at each sync (<generateName><revision>-<phase>-<time>), but the release keeps every object by its name (the lock, audit/objects.list, the admission policies, the teardown) and cannot follow it. ${fix}`,
      paths: [o.declarer],
    }];
  }),
});

/** The object's `metadata.generateName` when it has one and no `metadata.name`; undefined otherwise. */
export function generatedName(o: ObjectFact): string | undefined {
  const metadata = o.manifest?.metadata;
  if (metadata === null || typeof metadata !== 'object' || metadata.name !== undefined) return undefined;
  return typeof metadata.generateName === 'string' ? metadata.generateName : undefined;
}
