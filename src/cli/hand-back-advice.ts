import type { Handover, OwnershipMove } from '../release/release-diff';
import type { GitOpsEngine } from '../render/teardown';
import type { Plan } from '../render/writers/plan-json';

/** How the text names a leaf's move between the release and a controller in the cluster. */
const MOVES: Readonly<Record<OwnershipMove, string>> = {
  'deploy-time-to-runtime': 'deploy time -> runtime: the release stops applying it',
  'runtime-to-deploy-time': 'runtime -> deploy time: the release applies it',
};

/**
 * One handover of field ownership as `plan` and `apply --dry-run` list it:
 * `~ <object> <field>: '<from>' -> '<to>'`, and its move between deploy time
 * and runtime when it has one.
 */
export function handoverLine(h: Handover): string {
  return `~ ${h.unit} ${h.path}: '${h.from}' -> '${h.to}'${h.moves ? ` (${MOVES[h.moves]})` : ''}`;
}

/**
 * The handovers as `plan` lists them: one line per leaf, except that the leaves of one object whose writer only
 * moved to another scope, keeping its id, are one line at the place of the first. Every leaf of writer `web/Web`
 * now `shop/web/Web`'s, as when a plain chart moves into a capability and each field manager, named after the
 * construct path, changes: `~ <object>: 14 fields from 'web/Web' to 'shop/web/Web' (moved under 'shop')`; every
 * leaf of `shop/Routing/Cfg` now `orders/Routing/Cfg`'s, as when a capability is renamed:
 * `~ <object>: 14 fields from 'shop/Routing/Cfg' to 'orders/Routing/Cfg' (moved from 'shop' to 'orders')`.
 * So are those of a writer that is gone from the object, when `writersNow` names the object's writers now (a
 * construct renamed): `~ <object>: declared by 'shop/Routing/Settings' -> 'shop/Routing/Config' (3 fields)` for
 * its declarer, `~ <object>: 2 fields from 'shop/Routing/Team' to 'shop/Routing/Squad' ('shop/Routing/Team'
 * writes nothing of it now)` for another writer. `plan.json` keeps every leaf.
 *
 * @param writersNow the construct paths of the writers of an object (by the plan's name for it) in this release,
 *   its declarer first; undefined for one the plan does not record (a stack's resources)
 */
export function handoverLines(handovers: readonly Handover[], writersNow?: (unit: string) => readonly string[] | undefined): string[] {
  const groups = new Map<string, Handover[]>();
  for (const h of handovers) {
    const key = JSON.stringify([h.unit, h.from]);
    const group = groups.get(key);
    if (group) group.push(h);
    else groups.set(key, [h]);
  }
  const lines: string[] = [];
  const done = new Set<string>();
  for (const h of handovers) {
    const key = JSON.stringify([h.unit, h.from]);
    const group = groups.get(key)!;
    const move = scopeMove(group);
    const gone = move === undefined ? writerGone(group, writersNow) : undefined;
    if (move === undefined && gone === undefined) {
      lines.push(handoverLine(h));
    } else if (!done.has(key)) {
      done.add(key);
      lines.push(gone === 'declarer'
        ? `~ ${h.unit}: declared by '${h.from}' -> '${h.to}' (${group.length} fields)`
        : `~ ${h.unit}: ${group.length} fields from '${h.from}' to '${h.to}' (${move ?? `'${h.from}' writes nothing of it now`})`);
    }
  }
  return lines;
}

/**
 * Whether the one writer of these handovers (of one object, from one writer, all to one writer, none between deploy
 * time and runtime) is gone from the object, as when its construct was renamed: `declarer` when the writer they go
 * to declares the object now (the line `declared by '<from>' -> '<to>'`, also for one field), `writer` for another
 * writer of two or more. Undefined when the writers of the object now are not known (`writersNow`), or the old writer still
 * writes some of it: a Contribution that takes fields from the declarer with `force` is listed leaf by leaf.
 */
function writerGone(group: readonly Handover[], writersNow?: (unit: string) => readonly string[] | undefined): 'declarer' | 'writer' | undefined {
  const [first] = group;
  if (group.some((h) => h.to !== first.to || h.moves !== undefined)) return undefined;
  const writers = writersNow?.(first.unit);
  if (writers === undefined || writers.includes(first.from) || !writers.includes(first.to)) return undefined;
  if (writers[0] === first.to) return 'declarer';
  return group.length < 2 ? undefined : 'writer';
}

/**
 * How the one writer of these handovers (two or more, of one object, from one writer, none between deploy time
 * and runtime) moved, when all of them go to one writer with the same construct id in another scope:
 * `moved under 'shop'` when the new path is the old one below another construct, else
 * `moved out of 'shop/Team'` when it is the old one without some scopes, else `moved from 'shop' to 'orders'`,
 * naming the scopes of each. Undefined otherwise: a field taken by another construct is listed leaf by leaf.
 */
function scopeMove(group: readonly Handover[]): string | undefined {
  const [first] = group;
  if (group.length < 2 || group.some((h) => h.to !== first.to || h.moves !== undefined)) return undefined;
  const from = first.from.split('/');
  const to = first.to.split('/');
  let same = 0;
  while (same < from.length && same < to.length && from[from.length - 1 - same] === to[to.length - 1 - same]) same++;
  if (same === 0) return undefined;
  const [left, entered] = [from.slice(0, from.length - same), to.slice(0, to.length - same)];
  let shared = 0;
  while (shared < left.length && shared < entered.length && left[shared] === entered[shared]) shared++;
  if (shared === entered.length) return `moved out of '${left.join('/')}'`;
  if (shared === left.length) return `moved under '${entered.join('/')}'`;
  return `moved from '${left.join('/')}' to '${entered.join('/')}'`;
}

/** The handovers of the plan that hand a field back from a runtime writer to a writer of the release. */
function handBacks(plan: Plan): Handover[] {
  return (plan.changes.handovers ?? []).filter((h) => h.moves === 'runtime-to-deploy-time');
}

/**
 * What the operator must do around the plan's moves between the release and a controller, as `plan` prints
 * them under its handovers: the hand-back notes ({@link controllerHandBackNotes}), then, for a release a GitOps
 * engine applies, the hand-over notes ({@link gitOpsHandOverNotes}).
 */
export function handBackNotes(plan: Plan): string[] {
  return [...controllerHandBackNotes(plan), ...gitOpsHandOverNotes(plan)];
}

/**
 * What the operator must do for each controller a field is handed back from (`runtime-to-deploy-time`): the
 * release applies the field from now on, but server-side apply keeps the controller's field manager an owner
 * until it stops writing the field and releases it. One note per runtime writer, naming its field manager when
 * the plan's runtime writer changes record it; `plan` prints them under its handovers and `apply --dry-run`
 * before its commands.
 */
function controllerHandBackNotes(plan: Plan): string[] {
  const c = plan.changes;
  const from = [...new Set(handBacks(plan).map((h) => h.from))];
  return from.map((writer) => {
    const record = (c.runtimeWriters ?? []).map((r) => r.before).find((r) => r !== undefined && `${r.writer} (RuntimeWriter)` === writer);
    const manager = record ? `its field manager ${record.manager}` : 'its field manager';
    const apply = record ? `kubectl apply --server-side --field-manager=${record.manager}` : 'kubectl apply --server-side under that manager';
    return `handed back from '${writer}': stop its controller writing these fields before the release is applied. ` +
      `The release's apply takes a field with force only where the controller's value differs; where it holds the same value, ${manager} stays an owner ` +
      `until the controller applies without the field (${apply} with what it still writes of the object, its identity alone when nothing) ` +
      'or, for a controller that updates, until the value next changes; cdk-capability audit reports it as stale-owner until then';
  });
}

/**
 * The hand-backs of the plan and what the operator must do for each, as `apply --dry-run` prints them before
 * its commands: shell comments, so what it prints stays a script; none when nothing is handed back.
 */
export function handBackComments(plan: Plan): string[] {
  const back = handBacks(plan);
  if (back.length === 0) return [];
  return [
    '# Handovers of field ownership from a runtime writer back to the release:',
    ...back.map((h) => `#   ${handoverLine(h)}`),
    ...controllerHandBackNotes(plan).map((note) => `#   (${note})`),
  ];
}

/** The GitOps engines' names and the one field manager each applies every object with (docs/gitops.md). */
const ENGINES: Readonly<Record<GitOpsEngine, { readonly name: string; readonly manager: string }>> = {
  flux: { name: 'Flux', manager: 'kustomize-controller' },
  argocd: { name: 'Argo CD', manager: 'argocd-controller' },
};

/**
 * For a release a GitOps engine applies (`plan.teardown.gitops`), what `cdk-capability apply` does itself at its
 * step 0 and the engine does not: each leaf moving from the release to a `RuntimeWriter` (the plan's `handOver`)
 * applied first under the controller's field manager. Without it the engine's apply of the release, the field's
 * only owner, removes the field (an autoscaled Deployment falls back to one replica), and with `enforce` the
 * API server refuses that apply, since the defaulted value changes the runtime writer's leaf. One note per
 * runtime writer and object, with the command (the object as JSON, which kubectl reads as YAML). First, when a
 * field passes between writers of the release (a construct renamed), that the engine's one manager sees no change.
 */
export function gitOpsHandOverNotes(plan: Plan): string[] {
  const engine = plan.teardown?.gitops;
  if (engine === undefined) return [];
  const { name, manager } = ENGINES[engine];
  const enforced = plan.steps.some((s) => s.id === 'field-ownership');
  // a field passing between writers of the release (a construct renamed, a Contribution taking it) is one manager's before and after
  const between = (plan.changes.handovers ?? []).some((h) => h.moves === undefined)
    ? [`${name} applies every writer's fields under its one field manager, ${manager}: a handover between writers of the release changes no field manager in the cluster, ` +
      'and no value but those the changes against the lock list']
    : [];
  return [...between, ...plan.writers.flatMap((o) => (o.handOver ?? []).map((h) =>
    `handed to '${h.writer}': ${name} applies this release without the field, and removes it where ${manager} is its only owner` +
    `${enforced ? ' (with enforce, the API server refuses that apply instead)' : ''}. ` +
    `Before committing the release, hand it over under the controller's field manager: echo ${shellQuoted(JSON.stringify(h.object))} | ` +
    `kubectl apply --server-side --field-manager=${h.manager} -f - ` +
    "(the value is the previous release's: where the controller changed it already, it owns it and the apply conflicts, harmlessly)"))];
}

/** `text` as one single-quoted shell word. */
function shellQuoted(text: string): string {
  return `'${text.split("'").join("'\\''")}'`;
}
