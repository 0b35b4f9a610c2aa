import { ARGO_CD_HOOK, hookAnnotations } from '../../cluster/argo-cd-hooks';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP010`, without `GitOps.argoCd()`: an object annotated as a hook (`helm.sh/hook`, other than `crd-install`,
 * or `argocd.argoproj.io/hook`). The runtime output is applied by kubectl (`cdk-capability apply`) or Flux,
 * which run no hooks: each would apply the object as an ordinary one, in the plan's order, at every apply, and
 * ignore its delete policy (`helm.sh/hook-delete-policy`), so a chart's `test` Pod or `pre-delete` Job rendered by cdk8s' `Helm` (or `Include`)
 * would run at install. Refused rather than dropped: which hooks to keep, and where, is the author's choice.
 */
export const unkeptHooks = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'hooks no applier runs',
  explanation: 'kubectl and Flux run no hooks: an object annotated as a Helm or Argo CD hook would be applied as an ordinary object at every apply, in the plan\'s order, its delete policy ignored (a chart\'s test Pod or pre-delete Job would run at install).',
  run: ({ facts, gitops }) => {
    if (gitops === 'argocd') return [];
    const applier = gitops === 'flux' ? 'Flux (GitOps.flux({ sourceRef }))' : 'kubectl (cdk-capability apply)';
    return facts.objects.flatMap((o) => {
      if (o.duplicateOf !== undefined) return [];
      return hookAnnotations(o.manifest).map((hook) => {
        const object = `${describeIdentity(o.identity)} declared by '${o.declarer}'`;
        const fix = hook.key === ARGO_CD_HOOK
          ? 'Write the output for Argo CD (GitOps.argoCd()), or remove the annotation and order the object with addDependency.'
          : "Render the chart without its hooks (helmFlags: ['--no-hooks'] of cdk8s' Helm, or ['--skip-tests'] for its tests alone), or remove the annotation and order the object with addDependency; with GitOps.argoCd(), Argo CD runs the hooks it knows.";
        return {
          message: `${object} has the annotation ${hook.key} ${JSON.stringify(hook.value)}, but ${applier} runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply${deletePolicy(o.manifest, hook.key)}. ${fix}`,
          paths: [o.declarer],
        };
      });
    });
  },
});

/** What a message says of the object's delete policy, when it has one: `, and ignore its helm.sh/hook-delete-policy "hook-succeeded"`. */
function deletePolicy(manifest: any, hook: string): string {
  const key = `${hook}-delete-policy`;
  const value = manifest?.metadata?.annotations?.[key];
  return typeof value === 'string' ? `, and ignore its ${key} ${JSON.stringify(value)}` : '';
}
