import { isDeepStrictEqual } from 'util';
import { appliedLeaves } from './apply-sequence';
import { HOOK_FINALIZER } from './argo-cd-hooks';
import { auditMessage, BEFORE_FIRST_APPLY_MANAGER, PolicyState } from './audit-messages';
import { APPLIER_FIELD_MANAGER, GITOPS_APPLIERS, isOurFieldManager } from './field-manager';
import { elementOf } from './fields-v1';
import type { LiveObject, ManagedFieldsEntry } from './live-objects';
import { ledgerLeaves, pathKey } from './managed-leaves';
import { previousApplier } from './previous-applier';
import { FieldPath, formatPath } from '../collect/ledger/field-path';
import type { OwnedLeaf } from '../collect/ledger/leaves';
import { appliedKey, effectiveNamespace, identityKey, ObjectIdentity } from '../collect/object-identity';
import { appendAll } from '../private/append';
import { compareText } from '../private/compare';

/** One writer of an object and the leaves it owns, as the lock records it. */
export interface WriterLeaves {
  /** The writer, as messages name it: its construct path. */
  readonly writer: string;
  /**
   * Its field manager in the cluster; undefined only for a runtime writer of a lock written before runtime
   * writers' managers were recorded (its leaves are then not checked: any client may write them).
   */
  readonly manager?: string;
  /** Its leaves, as the ledger records them (presence marked). */
  readonly leaves: readonly OwnedLeaf[];
  /** True for a controller that writes in the cluster (`RuntimeWriter`): `apply` does not write its leaves. */
  readonly runtime?: boolean;
}

/** An object of the composition, as the lock records it, with who writes which leaves. */
export interface ExpectedObject {
  /**
   * Its identity as declared: a namespace of `''` (declared without one) is a cluster-scoped object or a
   * namespaced one in `default`, whichever the cluster has.
   */
  readonly identity: ObjectIdentity;
  /** How messages name it. */
  readonly label: string;
  /** Its id in the lock (`object:...`), to point at it. */
  readonly unitId?: string;
  /** Its writers. */
  readonly writers: readonly WriterLeaves[];
  /**
   * True for an object the release applies whole and records no writers of (a field-ownership policy or
   * binding): the audit finds it there or missing, and does not compare its fields.
   */
  readonly whole?: boolean;
  /**
   * Field managers of runtime writers of an earlier release that may still own leaves handed back from them to
   * a writer of the object (`LockedUnit.handedBack`): what such a manager owns there is a `stale-owner` of a
   * handed-back field, not an `undeclared-manager`.
   */
  readonly handedBack?: readonly HandedBackLeaves[];
  /**
   * What an Argo CD sync does with it, for an object annotated as a hook (`argocd.argoproj.io/hook`, or a
   * `helm.sh/hook` Argo CD runs; synth refuses them in output that no Argo CD applies): `hook`, applied at every
   * sync and deleted by Argo CD by its delete policies, so the cluster may or may not hold it; `never`, applied by
   * no sync (`Skip` alone, a hook of no type gitops-engine runs), so the audit does not look for it
   * (`cluster/argo-cd-hooks.ts`).
   *
   * @default - an object the release keeps in the cluster
   */
  readonly argoCd?: 'hook' | 'never';
}

/** Leaves handed back from a runtime writer to a writer of the release, with that runtime writer's field manager. */
export interface HandedBackLeaves {
  /** The runtime writer the leaves were handed back from, as the lock names it. */
  readonly writer: string;
  /** Its field manager. */
  readonly manager: string;
  /** The leaves. */
  readonly leaves: readonly OwnedLeaf[];
}

/** What `auditCluster` can find; each is a difference between the cluster and the lock. */
export type AuditFindingKind =
  | 'undeclared-manager'
  | 'taken-over'
  | 'overwritten-by-update'
  | 'stripped'
  | 'unowned'
  | 'stale-owner'
  | 'missing-object'
  | 'unknown-object';

/** One difference between the cluster and the lock. */
export interface AuditFinding {
  /** What kind of difference. */
  readonly kind: AuditFindingKind;
  /** The object, as messages name it. */
  readonly object: string;
  /** The object's id in the lock, when the lock has it. */
  readonly unitId?: string;
  /** The fields concerned, in the ledger's path form, sorted; empty for a whole object. */
  readonly fields: readonly FieldPath[];
  /** The manager the cluster names: the one that took the fields, owns them undeclared, or last updated. */
  readonly manager?: string;
  /** That manager's operation. */
  readonly operation?: 'Apply' | 'Update';
  /** The writer of the composition the fields belong to (the one displaced). */
  readonly writer?: string;
  /** That writer's field manager. */
  readonly writerManager?: string;
  /** What it means and what to do, in one sentence or two. */
  readonly message: string;
}

/** Options of `auditCluster`. */
export interface AuditOptions {
  /**
   * The one field manager that applied every deploy-time leaf (a GitOps engine that applies with one manager,
   * such as Flux's `kustomize-controller`): it stands for every writer's own manager.
   * @default - each writer's own manager, as `cdk-capability apply` uses them
   */
  readonly appliedBy?: string;
  /**
   * Labels that mark an object as ours: a live object carrying all of them that the lock does not know is an
   * `unknown-object`, as is one that a manager of ours wrote.
   * @default - only the managers tell
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Managers to leave out of the comparison (known controllers the composition does not declare). @default - none */
  readonly ignoreManagers?: readonly string[];
}

/** A live entry with its leaves in the ledger's sense. */
interface Entry {
  readonly entry: ManagedFieldsEntry;
  readonly leaves: ReadonlySet<string>;
}

/**
 * Compares the objects of the cluster, with their `managedFields`, with the lock, and returns every
 * difference:
 *
 * - `undeclared-manager`: a manager that no writer of the object declares owns fields (drift, or a controller
 *   the composition does not declare); status and subresource writes are the controllers' and not reported;
 * - `taken-over`: a leaf of a writer is owned only by other managers, which took it with an apply;
 * - `overwritten-by-update`: a leaf of a writer is owned by a manager whose last write was an `Update` (a
 *   `kubectl edit`, a controller's full-object `Update()`), no longer by the writer's manager;
 * - `stripped`: a leaf of a writer is gone from the object and nobody owns it: a full-object `Update()`
 *   that did not carry it (the seed incident), naming the latest update;
 * - `unowned`: a leaf of a writer is in the object but owned by nobody;
 * - `stale-owner`: a manager of ours owns a leaf the lock gives to another writer or to none (a handover
 *   whose release did not run, an apply stopped inside a step), or the manager of a runtime writer a leaf was
 *   handed back from still owns it (its controller still writes it, or never released it);
 * - `missing-object`: an object of the lock is not in the cluster;
 * - `unknown-object`: an object written by a manager of ours, or carrying our labels, that the lock does
 *   not know.
 *
 * A runtime writer's manager is declared, and its leaf covers what lies below it (the values of a set, the
 * keys of a map its controller writes whole): what that manager owns there is the controller's own, what
 * another manager alone owns there displaces it, and a leaf nobody owns yet is no finding.
 *
 * @param expected the objects of the lock, with their writers
 * @param live the objects read from the cluster (only those the lock knows, or that look ours, matter)
 * @returns the findings, sorted by object, kind, manager and writer
 */
export function auditCluster(expected: readonly ExpectedObject[], live: readonly LiveObject[], options: AuditOptions = {}): AuditFinding[] {
  const ignored = new Set(options.ignoreManagers ?? []);
  const byKey = new Map(live.map((o) => [o.key, o]));
  const policies = policyState(expected, byKey);
  const known = new Set<string>();
  const findings: AuditFinding[] = [];
  for (const e of expected) {
    // declared without a namespace: cluster-scoped, or namespaced and in `default`
    const keys = e.identity.namespace === '' ? [identityKey({ ...e.identity, namespace: undefined }), appliedKey(e.identity)] : [appliedKey(e.identity)];
    const key = keys.find((k) => byKey.has(k)) ?? keys[keys.length - 1];
    known.add(key);
    const object = byKey.get(key);
    // a sync never applies it; a hook Argo CD deleted (its delete policy), or has not run (a SyncFail hook, a phase a failed sync did not reach)
    if (e.argoCd === 'never' || (!object && e.argoCd === 'hook')) continue;
    if (!object) {
      findings.push({
        kind: 'missing-object',
        object: e.label,
        ...(e.unitId ? { unitId: e.unitId } : {}),
        fields: [],
        message: options.appliedBy === undefined
          ? `${e.label} is in the lock but not in the cluster: apply the release (cdk-capability apply), or check that the input holds every object of the release.`
          : `${e.label} is in the lock but not in the cluster: let ${options.appliedBy} apply the release (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it), or check that the input holds every object of the release.`,
      });
      continue;
    }
    if (!e.whole) appendAll(findings, auditObject(e, object, { ignored, appliedBy: options.appliedBy, policies }));
  }
  for (const o of live) {
    if (known.has(o.key)) continue;
    const ourManager = o.managedFields.find((m) => isOurFieldManager(m.manager))?.manager;
    const labels = options.labels && Object.keys(options.labels).length > 0 ? options.labels : undefined;
    const labelled = labels !== undefined && Object.entries(labels).every(([k, v]) => o.manifest?.metadata?.labels?.[k] === v);
    if (!ourManager && !labelled) continue;
    const why = ourManager ? `its field manager '${ourManager}' is one of ours` : `it carries ${Object.entries(labels!).map(([k, v]) => `${k}=${v}`).join(', ')}`;
    findings.push({
      kind: 'unknown-object',
      object: o.label,
      fields: [],
      ...(ourManager ? { manager: ourManager } : {}),
      message: `${o.label} looks like ours (${why}) but the lock does not know it: a release removed it and nothing deleted it (cdk-capability plan --teardown prints how), or it was applied from another composition.`,
    });
  }
  return findings.sort(compareFindings);
}

const KIND_ORDER: readonly AuditFindingKind[] = [
  'missing-object',
  'stripped',
  'overwritten-by-update',
  'taken-over',
  'unowned',
  'stale-owner',
  'undeclared-manager',
  'unknown-object',
];

function compareFindings(a: AuditFinding, b: AuditFinding): number {
  return (
    compareText(a.object, b.object)
    || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)
    || compareText(a.manager ?? '', b.manager ?? '')
    || compareText(a.writer ?? '', b.writer ?? '')
  );
}

/** A leaf of ours: its path, writer and manager, and whether that manager applies it (`appliedLeaves`). */
interface OurLeaf {
  readonly path: FieldPath;
  readonly writer: WriterLeaves;
  readonly manager?: string;
  readonly applied: boolean;
}

/** The fields of one finding being gathered. */
interface Group {
  readonly kind: AuditFindingKind;
  readonly fields: FieldPath[];
  readonly manager?: ManagedFieldsEntry;
  readonly writer?: WriterLeaves;
  readonly writerManager?: string;
  /** The runtime writer the fields were handed back from, when `manager` is its field manager. */
  readonly handedBackFrom?: string;
}

/** What the findings of one object are made with, beside the object. */
interface ObjectAudit {
  /** The managers left out. */
  readonly ignored: ReadonlySet<string>;
  /** The one manager that applied the release (`--applied-by`), when given. */
  readonly appliedBy?: string;
  /** The release's admission policies, as the cluster shows them. */
  readonly policies: PolicyState;
}

/**
 * The release's field-ownership policies (the lock's objects applied whole) as the cluster shows them: none,
 * some missing, bindings that do not deny, or every one there and denying.
 */
function policyState(expected: readonly ExpectedObject[], byKey: ReadonlyMap<string, LiveObject>): PolicyState {
  const policies = expected.filter((e) => e.whole);
  if (policies.length === 0) return { state: 'none' };
  // cluster-scoped: the lock records them without a namespace
  const liveOf = (e: ExpectedObject) => byKey.get(identityKey({ ...e.identity, namespace: undefined }));
  const missing = policies.filter((e) => !liveOf(e)).map((e) => e.label);
  if (missing.length > 0) return { state: 'missing', objects: missing };
  const bindings = policies
    .filter((e) => e.identity.kind === 'ValidatingAdmissionPolicyBinding')
    .map((e) => ({ label: e.label, actions: liveOf(e)!.manifest?.spec?.validationActions as unknown }));
  const notDeny = bindings.filter((b) => Array.isArray(b.actions) && !b.actions.includes('Deny'));
  if (notDeny.length > 0) return { state: 'not-deny', bindings: notDeny };
  return bindings.every((b) => Array.isArray(b.actions)) ? { state: 'deny' } : { state: 'present' };
}

/** The findings of one object that is in both the lock and the cluster. */
function auditObject(e: ExpectedObject, object: LiveObject, { ignored, appliedBy, policies }: ObjectAudit): AuditFinding[] {
  const entries: Entry[] = object.managedFields
    .filter((m) => !ignored.has(m.manager))
    .map((entry) => ({ entry, leaves: new Set(ledgerLeaves(entry.members).map(pathKey)) }));
  // `apply` keeps `cdk-capability` owning the whole merged object beside each writer; a GitOps engine owns it alone
  const applier = appliedBy ?? APPLIER_FIELD_MANAGER;
  const managerOf = (w: WriterLeaves) => (w.runtime ? w.manager : appliedBy ?? w.manager);
  const declared = new Set(e.writers.map(managerOf).filter((m): m is string => m !== undefined));
  /** The managers of the writers of the object that apply (every one but a runtime writer's). */
  const appliers = new Set(e.writers.filter((w) => !w.runtime).map(managerOf));
  if (e.writers.some((w) => !w.runtime)) declared.add(applier);

  /** The runtime writer a manager is declared for, to name it where its controller's update is the cause. */
  const runtimeOf = (manager: string | undefined) => e.writers.find((w) => w.runtime && w.manager !== undefined && w.manager === manager);

  /** Each leaf of ours: its path, writer and manager, and whether that manager applies it (`appliedLeaves`). */
  const ours = new Map<string, OurLeaf>();
  for (const w of e.writers) {
    const applied = new Set((w.runtime ? w.leaves : appliedLeaves(w.leaves)).map((l) => pathKey(l.path)));
    for (const leaf of w.leaves) {
      const key = pathKey(leaf.path);
      ours.set(key, { path: leaf.path, writer: w, manager: managerOf(w), applied: applied.has(key) });
    }
  }
  /**
   * The members above a leaf a manager applies (the elements and maps that hold it), by manager, the applier's
   * being those of every writer it applies for: structured-merge-diff keeps an element (`.`) in an applier's set
   * when an update took every field of it the applier owned, so that element is the applier's own, no stale owner.
   */
  const holders = new Map<string, Set<string>>();
  for (const { path, writer, manager, applied } of ours.values()) {
    if (!applied || manager === undefined) continue;
    for (const m of writer.runtime ? [manager] : [manager, applier]) {
      let keys = holders.get(m);
      if (!keys) holders.set(m, (keys = new Set()));
      for (let n = 1; n < path.length; n++) keys.add(pathKey(path.slice(0, n)));
    }
  }

  /** Each hand-back's leaves, by the field manager of the runtime writer they were handed back from. */
  const handBacks = new Map(
    (e.handedBack ?? []).map((h) => [h.manager, { writer: h.writer, keys: new Set(h.leaves.map((l) => pathKey(l.path))) }]),
  );
  /** The runtime writer a leaf (or a leaf above it) was handed back from, when `manager` is its field manager. */
  const handedBackFrom = (manager: string, key: string): string | undefined => {
    const h = handBacks.get(manager);
    if (!h) return undefined;
    const path: FieldPath = JSON.parse(key);
    for (let n = path.length; n >= 1; n--) if (h.keys.has(pathKey(path.slice(0, n)))) return h.writer;
    return undefined;
  };

  const misnamed = misnamedManagers(e.writers, entries, object.managedFields, declared);

  const groups = new Map<string, Group>();
  const report = (
    kind: AuditFindingKind, path: FieldPath, manager?: ManagedFieldsEntry, writer?: WriterLeaves, writerManager?: string, from?: string,
  ) => {
    const id = JSON.stringify([kind, manager?.manager ?? '', writer?.writer ?? '', from ?? '']);
    let g = groups.get(id);
    if (!g) {
      g = { kind, fields: [], manager, writer, writerManager, ...(from !== undefined ? { handedBackFrom: from } : {}) };
      groups.set(id, g);
    }
    g.fields.push(path);
  };
  /** Leaves of ours reported as taken by a manager, so its undeclared-manager finding does not repeat them. */
  const taken = new Set<string>();

  /**
   * The leaf of ours a live leaf counts as: its own, else a runtime writer's leaf above it (a controller
   * writes its leaf whole: the values of a set, the keys of a map, the fields of an element).
   */
  const oursAt = (key: string): { key: string; leaf: OurLeaf } | undefined => {
    const own = ours.get(key);
    if (own) return { key, leaf: own };
    const path: FieldPath = JSON.parse(key);
    for (let n = path.length - 1; n >= 1; n--) {
      const above = pathKey(path.slice(0, n));
      const leaf = ours.get(above);
      if (leaf?.writer.runtime) return { key: above, leaf };
    }
    return undefined;
  };

  for (const [key, { path, writer, manager, applied }] of ours) {
    if (manager === undefined || !applied) continue;
    const covering = entries.filter((x) => ownsOrCovers(x.leaves, path) || (writer.runtime === true && ownsBelow(x.leaves, key)));
    // a manager that owns the leaf itself holds it, not one that owns only an element or map above it (its `.`)
    const exact = covering.filter((x) => x.leaves.has(key) || (writer.runtime === true && ownsBelow(x.leaves, key)));
    const owners = exact.length > 0 ? exact : covering;
    if (owners.some((x) => x.entry.manager === manager)) continue;
    const others = owners.filter((x) => x.entry.manager !== applier);
    if (others.length === 0) {
      if (writer.runtime) continue; // its controller has not written it yet
      if (!isPresent(object.manifest, path)) report('stripped', path, latestUpdate(entries), writer, manager);
      else report('unowned', path, owners[0]?.entry, writer, manager);
      continue;
    }
    // held by the manager of another writer of the object that applies: a hand-over that did not run (stale-owner, below)
    if (others.every((x) => appliers.has(x.entry.manager))) continue;
    const updater = others.find((x) => x.entry.operation === 'Update');
    const by = updater ?? [...others].sort((a, b) => compareText(a.entry.manager, b.entry.manager))[0];
    report(updater ? 'overwritten-by-update' : 'taken-over', path, by.entry, writer, manager, writer.runtime ? undefined : handedBackFrom(by.entry.manager, key));
    taken.add(JSON.stringify([by.entry.manager, key]));
  }

  for (const x of entries) {
    const m = x.entry.manager;
    for (const key of x.leaves) {
      if (!ours.has(key) && isEngineBookkeeping(e, key, m === applier ? appliedBy ?? applier : undefined)) continue;
      const at = oursAt(key);
      const mine = at?.leaf;
      if (taken.has(JSON.stringify([m, at?.key ?? key]))) continue;
      if (mine?.writer.runtime && mine.manager === undefined) continue; // any client may write it
      // written through a subresource (status, scale) and no writer's: the controller's own bookkeeping, such as the
      // revision annotation the Deployment controller writes with the status, under a manager a RuntimeWriter may share
      if (x.entry.subresource !== undefined && mine === undefined) continue;
      // a leaf handed back from a runtime writer to a writer of the release, still owned by that controller's manager
      const from = mine && !mine.writer.runtime ? handedBackFrom(m, at!.key) : undefined;
      if (from !== undefined) {
        report('stale-owner', JSON.parse(key), x.entry, mine!.writer, mine!.manager, from);
        continue;
      }
      if (declared.has(m) && !ours.has(key) && holders.get(m)?.has(key)) continue;
      if (m === applier && declared.has(m)) {
        if (mine && !mine.writer.runtime) continue;
        report('stale-owner', JSON.parse(key), x.entry, mine?.writer, mine?.manager);
      } else if (declared.has(m)) {
        if (mine && mine.manager === m) continue;
        report('stale-owner', JSON.parse(key), x.entry, mine?.writer, mine?.manager);
      } else if (m === APPLIER_FIELD_MANAGER && previousApplier(m, appliedBy) === undefined) {
        report('stale-owner', JSON.parse(key), x.entry, mine?.writer, mine?.manager);
      } else if (!x.entry.subresource) {
        report('undeclared-manager', JSON.parse(key), x.entry, undefined);
      }
    }
  }

  return [...groups.values()].map((g): AuditFinding => {
    const fields = [...g.fields].sort((a, b) => compareText(formatPath(a), formatPath(b)));
    return {
      kind: g.kind,
      object: e.label,
      ...(e.unitId ? { unitId: e.unitId } : {}),
      fields,
      ...(g.manager ? { manager: g.manager.manager, operation: g.manager.operation } : {}),
      ...(g.writer ? { writer: g.writer.writer } : {}),
      ...(g.writerManager ? { writerManager: g.writerManager } : {}),
      message: auditMessage({
        object: e.label,
        kind: g.kind,
        fields,
        manager: g.manager,
        writer: g.writer,
        writerManager: g.writerManager,
        managerWriter: runtimeOf(g.manager?.manager),
        misnamedWriter: misnamedOf(misnamed, g),
        handedBackFrom: g.handedBackFrom,
        appliedBy,
        policies,
        target: kubectlTarget(e.identity),
      }),
    };
  });
}

/**
 * Runtime writers whose declared manager owns nothing on the object while one manager that no writer declares
 * holds every one of their fields (and maybe more), by that manager: most likely the name the controller writes
 * under, the RuntimeWriter's `manager` being another. A client's manager (kubectl's, a GitOps engine's, ours) is
 * no controller's name, and a write through a subresource has its own advice (the scale subresource's).
 */
function misnamedManagers(
  writers: readonly WriterLeaves[], entries: readonly Entry[], all: readonly ManagedFieldsEntry[], declared: ReadonlySet<string>,
): Map<string, WriterLeaves> {
  const leavesBy = new Map<string, Set<string>>();
  for (const x of entries) {
    const m = x.entry.manager;
    if (x.entry.subresource !== undefined || declared.has(m) || !mayBeController(m)) continue;
    let leaves = leavesBy.get(m);
    if (!leaves) leavesBy.set(m, (leaves = new Set()));
    for (const leaf of x.leaves) leaves.add(leaf);
  }
  const misnamed = new Map<string, WriterLeaves>();
  for (const w of writers) {
    if (!w.runtime || w.manager === undefined || w.leaves.length === 0) continue;
    if (all.some((m) => m.manager === w.manager)) continue;
    const holders = [...leavesBy].filter(([, leaves]) => w.leaves.every((l) => ownsOrCovers(leaves, l.path) || ownsBelow(leaves, pathKey(l.path))));
    if (holders.length === 1 && !misnamed.has(holders[0][0])) misnamed.set(holders[0][0], w);
  }
  return misnamed;
}

/** False for a manager that is a client's, never a controller's: kubectl's, Helm's, a GitOps engine's, ours. */
function mayBeController(manager: string): boolean {
  return !manager.startsWith('kubectl') && manager !== 'helm' && manager !== BEFORE_FIRST_APPLY_MANAGER && !GITOPS_APPLIERS.includes(manager) && !isOurFieldManager(manager);
}

/**
 * The runtime writer a finding's manager is likely the real manager of (`misnamedManagers`): for the fields of
 * that writer it displaces, and for what else it owns undeclared.
 */
function misnamedOf(misnamed: ReadonlyMap<string, WriterLeaves>, g: Group): WriterLeaves | undefined {
  const w = g.manager ? misnamed.get(g.manager.manager) : undefined;
  if (!w) return undefined;
  if (g.kind === 'undeclared-manager') return w;
  return (g.kind === 'taken-over' || g.kind === 'overwritten-by-update') && g.writer === w ? w : undefined;
}

/** Argo CD's sync wave annotation, which the Argo CD copies of the runtime files carry and the lock does not (`GitOps.argoCd()`). */
const SYNC_WAVE = pathKey(['metadata', 'annotations', 'argocd.argoproj.io/sync-wave']);
/** The finalizer gitops-engine adds to a hook it applies, and the list that holds it. */
const HOOK_FINALIZERS = new Set([pathKey(['metadata', 'finalizers', `v:${JSON.stringify(HOOK_FINALIZER)}`]), pathKey(['metadata', 'finalizers'])]);

/** Argo CD's own field managers, as `--applied-by` names them: with `ServerSideApply=true`, and without. */
const ARGO_CD_MANAGERS = new Set(['argocd-controller', 'argocd-application-controller']);
/**
 * What Argo CD writes into every object it applies to track it (argo-cd `util/argo/resource_tracking.go`
 * `SetAppInstance`): the annotation `argocd.argoproj.io/tracking-id` (tracking by annotation, Argo CD 3's default),
 * the label `app.kubernetes.io/instance` (by label, before 3), and `argocd.argoproj.io/installation-id`.
 */
const ARGO_CD_TRACKING = new Set([
  pathKey(['metadata', 'annotations', 'argocd.argoproj.io/tracking-id']),
  pathKey(['metadata', 'annotations', 'argocd.argoproj.io/installation-id']),
  pathKey(['metadata', 'labels', 'app.kubernetes.io/instance']),
]);

/** Flux's kustomize-controller, as `--applied-by` names it. */
const FLUX_MANAGER = 'kustomize-controller';
/**
 * The labels kustomize-controller applies to every object of a Kustomization, naming it (fluxcd/pkg
 * `ssa.ResourceManager.SetOwnerLabels`, called with the Kustomization's name and namespace before it applies).
 */
const FLUX_OWNER_LABELS = new Set([
  pathKey(['metadata', 'labels', 'kustomize.toolkit.fluxcd.io/name']),
  pathKey(['metadata', 'labels', 'kustomize.toolkit.fluxcd.io/namespace']),
]);

/**
 * True for a leaf no writer of the lock has that the GitOps engine that applied the release writes itself: the
 * owner labels Flux's manager (`--applied-by kustomize-controller`) applies to every object, and what Argo CD writes
 * ({@link isArgoCdBookkeeping}).
 *
 * @param applier the manager that owns the leaf, when it is the one that applied the release
 */
function isEngineBookkeeping(e: ExpectedObject, key: string, applier: string | undefined): boolean {
  return (applier === FLUX_MANAGER && FLUX_OWNER_LABELS.has(key)) || isArgoCdBookkeeping(e, key, applier);
}

/**
 * True for a leaf no writer of the lock has that Argo CD writes itself: the sync wave `GitOps.argoCd()` writes
 * into its copies of the manifests, owned by the manager that applied them; what Argo CD's manager (`--applied-by
 * argocd-controller`) applies to track the object; and, on a hook, the finalizer gitops-engine adds to the hook it
 * applies and removes once the hook completed (`hook.HookFinalizer`, `sync_context.go` `getSyncTasks` and
 * `removeHookFinalizer`), whoever owns it.
 *
 * @param applier the manager that owns the leaf, when it is the one that applied the release
 */
function isArgoCdBookkeeping(e: ExpectedObject, key: string, applier: string | undefined): boolean {
  if (applier !== undefined && (key === SYNC_WAVE || (ARGO_CD_MANAGERS.has(applier) && ARGO_CD_TRACKING.has(key)))) return true;
  return e.argoCd === 'hook' && HOOK_FINALIZERS.has(key);
}

/** The object as kubectl's arguments name it: `Deployment.apps/web -n shop`. */
function kubectlTarget(id: ObjectIdentity): string {
  const namespace = effectiveNamespace(id);
  return `${id.kind}${id.group ? `.${id.group}` : ''}/${id.name}${namespace === undefined ? '' : ` -n ${namespace}`}`;
}

/** True when the set owns something below the path (`key` is the path's `pathKey`): a value of a set, a key of a map. */
function ownsBelow(leaves: ReadonlySet<string>, key: string): boolean {
  const below = `${key.slice(0, -1)},`;
  for (const leaf of leaves) if (leaf.startsWith(below)) return true;
  return false;
}

/** True when the set owns the path itself or an ancestor of it (an atomic value that holds it). */
function ownsOrCovers(leaves: ReadonlySet<string>, path: FieldPath): boolean {
  for (let n = path.length; n >= 1; n--) if (leaves.has(pathKey(path.slice(0, n)))) return true;
  return false;
}

/**
 * The latest `Update` of the object itself (not of a subresource), by time when recorded, else the last
 * printed: the full-object update that dropped what is gone, whether its manager is declared or not.
 */
function latestUpdate(entries: readonly Entry[]): ManagedFieldsEntry | undefined {
  const updates = entries.map((x) => x.entry).filter((m) => m.operation === 'Update' && m.subresource === undefined);
  let latest: ManagedFieldsEntry | undefined;
  for (const m of updates) if (!latest || (m.time ?? '') >= (latest.time ?? '')) latest = m;
  return latest;
}

/** True when the object holds the path: keyed elements matched by their keys, set values by value. */
function isPresent(manifest: unknown, path: FieldPath): boolean {
  let node: any = manifest;
  for (const segment of path) {
    if (node === undefined || node === null) return false;
    const element = elementOf(segment);
    if (element.kind === 'field') {
      if (typeof node !== 'object' || Array.isArray(node) || !(segment in node)) return false;
      node = node[segment];
    } else if (!Array.isArray(node)) {
      return false;
    } else if (element.kind === 'key') {
      // a key field the element leaves out holds its default (protocol TCP) in the key: an exact match first
      const exact = (x: any) => element.fields.every(([k, v]) => isDeepStrictEqual(x?.[k], v));
      const defaulted = (x: any) => element.fields.every(([k, v]) => x?.[k] === undefined || isDeepStrictEqual(x[k], v));
      node = node.find(exact) ?? node.find(defaulted);
      if (node === undefined) return false;
    } else if (element.kind === 'value') {
      return node.some((x: unknown) => isDeepStrictEqual(x, element.value));
    } else {
      node = node[element.index];
    }
  }
  return node !== undefined;
}
