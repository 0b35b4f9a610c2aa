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

/**
 * The advice for fields of the release that a previous applier's manager alone owns (a `taken-over` finding): the
 * release switched applier, and the new one has not applied it yet, or it would own them too. Releasing the old entry
 * first would remove them from the object (no other manager owns them), so the new applier applies first.
 *
 * @param who what `previousApplier` says the manager is
 * @param applier what applies the release now: the `--applied-by` (or lock's) manager, or `cdk-capability apply`
 */
export function previousApplierNotYet(manager: string, who: string, applier: string, its: string): string {
  const how = applier === 'cdk-capability apply'
    ? 'run cdk-capability apply'
    : `let ${applier} apply the release (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it)`;
  return `this is ${who} entry, and the release switched to ${applier}, which has not applied it yet (it would own ${its} too). `
    + `First ${how}; then release the old entry: ${releaseEntryCommand(manager)}, which applies each object's identity alone under ${manager}. `
    + `Not before: released now, ${its} would leave the object, as no other manager owns ${its}.`;
}

/** The call a program writes for Flux, as it must: `GitOps.flux` takes the source of the output (docs/gitops.md). */
const FLUX_CALL = "GitOps.flux({ sourceRef: { name: '<the GitRepository Flux reads the output from>' } })";

/** The field manager each GitOps engine of the lock (`LockedGitOps.engine`) applies a release under. */
const ENGINE_MANAGER: Readonly<Record<'flux' | 'argocd', { readonly manager: string; readonly name: string; readonly gitops: string }>> = {
  flux: { manager: 'kustomize-controller', name: 'Flux', gitops: 'GitOps.flux({ sourceRef })' },
  argocd: { manager: 'argocd-controller', name: 'Argo CD', gitops: 'GitOps.argoCd()' },
};

/** The field manager a lock's GitOps engine applies the release under: `kustomize-controller` or `argocd-controller`. */
export function engineManager(engine: 'flux' | 'argocd'): string {
  return ENGINE_MANAGER[engine].manager;
}

/**
 * What applied the release, as audit compares with it (`auditApplier`): a GitOps engine's one manager, or, with
 * `manager` undefined, `cdk-capability apply` (each writer under its own manager).
 */
export interface AuditApplier {
  /** The one field manager that applied every deploy-time leaf; undefined for `cdk-capability apply`. */
  readonly manager?: string;
  /** Where audit took it from: `--applied-by`, the lock's `gitops` record, or neither (`cdk-capability apply`). */
  readonly source: 'flag' | 'lock' | 'none';
  /** What audit says of its choice: the lock's engine it used, or the lock's engine the flag overrides; none otherwise. */
  readonly note?: string;
}

/**
 * The applier audit compares the cluster with: `--applied-by` when given (`cdk-capability` names `cdk-capability
 * apply`), else the manager of the GitOps engine the lock records (`Lock.gitops`), else `cdk-capability apply`. A flag
 * naming another engine than the lock's wins, and the note says the lock names another engine, with the fix.
 *
 * @param flag the `--applied-by` value, if given
 * @param engine the GitOps engine the lock records, if any
 * @param plainApplier the field manager that names `cdk-capability apply` (`APPLIER_FIELD_MANAGER`)
 */
export function auditApplier(flag: string | undefined, engine: 'flux' | 'argocd' | undefined, plainApplier: string): AuditApplier {
  const locked = engine === undefined ? undefined : ENGINE_MANAGER[engine];
  if (flag === undefined) {
    if (locked === undefined) return { source: 'none' };
    return {
      manager: locked.manager,
      source: 'lock',
      note: `Audited as applied by ${locked.manager}: the lock records the release's output as written for ${locked.name} (gitops: ${locked.gitops}). `
        + `If something else applied it, pass --applied-by with its field manager (--applied-by ${plainApplier} for cdk-capability apply).`,
    };
  }
  const manager = flag === plainApplier ? undefined : flag;
  const source = 'flag';
  if (locked === undefined || (manager !== undefined && engineOf(manager) === locked.name)) return { ...(manager ? { manager } : {}), source };
  const flagged = manager === undefined ? 'cdk-capability apply' : flag;
  return {
    ...(manager ? { manager } : {}),
    source,
    note: `Audited as applied by ${flagged} (--applied-by ${flag}), but the lock records the release's output as written for ${locked.name}, which applies it as ${locked.manager}: `
      + `the flag wins. If ${locked.name} applied this release, audit without --applied-by; if ${flagged} did, this lock is not the one of the release applied: `
      + `give that release's lock with --lock, or synthesize the release for the applier it has${manager !== undefined && engineOf(manager) !== undefined ? ` (gitops: ${engineOf(manager) === 'Flux' ? FLUX_CALL : 'GitOps.argoCd()'})` : ' (without gitops)'} and commit its lock.`,
  };
}
