import { GITOPS_APPLIERS, isOurFieldManager } from './field-manager';

/** The GitOps engines whose managers `GITOPS_APPLIERS` names, by manager. */
const ENGINE_OF: ReadonlyMap<string, string> = new Map([
  ['kustomize-controller', 'Flux'],
  ['helm-controller', 'Flux'],
  ['argocd-controller', 'Argo CD'],
  ['argocd-application-controller', 'Argo CD'],
]);

/** The GitOps engine a field manager is one of (`Flux`, `Argo CD`), or undefined. */
export function engineOf(manager: string): string | undefined {
  return GITOPS_APPLIERS.includes(manager) ? ENGINE_OF.get(manager) : undefined;
}

/**
 * The command that releases what a previous applier's manager still owns in each object of the release: each object's
 * identity alone (`audit/objects.list`) applied server-side under that manager, so it owns no other field; what only it
 * owned leaves the object, what the new applier also applied stays. The plan of an engine switch gives the same.
 */
export function releaseEntryCommand(manager: string): string {
  return `kubectl apply --server-side --field-manager=${manager} -f <outdir>/audit/objects.list`;
}

/**
 * Who a manager that no writer declares is, when the release is audited as applied by `appliedBy` and that manager is
 * another applier's: another GitOps engine's (the previous engine), or, audited for an engine, `cdk-capability apply`'s
 * (the previous deployer). Undefined for any other manager, and without `--applied-by` (the applier is then
 * `cdk-capability apply`, and an engine's manager may be the release's own: audit says to pass `--applied-by`).
 */
export function previousApplier(manager: string, appliedBy: string | undefined): string | undefined {
  if (appliedBy === undefined) return undefined;
  const engine = engineOf(manager);
  if (engine !== undefined) return engine === engineOf(appliedBy) ? undefined : `the previous engine's (${engine}'s ${manager})`;
  return isOurFieldManager(manager) && engineOf(appliedBy) !== undefined ? "the previous deployer's (cdk-capability apply's)" : undefined;
}

/**
 * The advice for fields a previous applier's manager still owns (`previousApplier`): its entry stays in each object it
 * applied after its own objects (Flux Kustomizations, the Argo CD Application) are removed, and no apply of the new
 * applier removes it; applying each object's identity alone under that manager, once the new applier has applied the
 * release, releases it (test/switch2-audit.test.ts replays it on structured-merge-diff).
 *
 * @param who what `previousApplier` says the manager is
 * @param applier what applies the release now: the `--applied-by` manager, or `cdk-capability apply`
 */
export function previousApplierAdvice(manager: string, who: string, applier: string, its: string): string {
  return `this is ${who} entry, left when the release switched to ${applier}: no writer needs a RuntimeWriter for ${its}, and applying the release does not remove the entry. `
    + `Only once ${applier} has applied the release, release ${its}: ${releaseEntryCommand(manager)}, which applies each object's identity alone under ${manager}, `
    + 'so it owns no other field: what only it owned leaves the object, and the fields the release applied stay (applied before, it removes every field no other manager owns).';
}
