import { gitopsLeftBehind, gitopsSection } from './gitops-lines';
import { handBackNotes, handoverLines } from './hand-back-advice';
import { orderLines } from './order-lines';
import { failureSentence, ProgramFailure, relativeSite } from './program-failure';
import type { ReportedFinding } from './report-findings';
import { runtimeWriterLines } from './runtime-writer-lines';
import { showValue, terseFields } from './terse-fields';
import type { ContractChange } from '../release/release-diff';
import { displayPath } from '../release/update-lock';
import type { PlanOverride } from '../render/ownership-records';
import type { SynthReport } from '../render/report-file';
import { teardownTiming } from '../render/teardown';
import type { Plan } from '../render/writers/plan-json';

/** What the plan says under removed field-ownership policies: they go on refusing until deleted, and who deletes them when. */
const POLICIES_REMOVED =
  'the field-ownership policies and bindings removed go on refusing writes until they are deleted: cdk-capability apply deletes them right after its field-ownership step (step 1 of cdk-capability plan --teardown)';
/** The same, for a plan written before `after-field-ownership`: it told to delete them before the release is applied. */
const POLICIES_REMOVED_BEFORE =
  'the field-ownership policies and bindings removed go on refusing writes until they are deleted: run step 1 of cdk-capability plan --teardown before the release is applied';

/** The counts of the summary line: stacks and objects to add, change and remove. */
export function planCounts(plan: Plan): { add: number; change: number; remove: number } {
  const c = plan.changes;
  return { add: c.added.length, change: c.changed.length, remove: c.removed.length };
}

/**
 * What a plan changes beside stacks and objects, each counted with how the summary line names it: fields'
 * owners, contract versions, interface fields, runtime writers, dependencies (the apply order).
 */
function otherCounts(plan: Plan): Array<{ readonly count: number; readonly one: string; readonly many: string }> {
  const c = plan.changes;
  return [
    { count: c.handovers?.length ?? 0, one: 'handover of field ownership', many: 'handovers of field ownership' },
    { count: c.contracts?.length ?? 0, one: 'contract change', many: 'contract changes' },
    { count: c.interface.length, one: 'interface field change', many: 'interface field changes' },
    { count: c.runtimeWriters?.length ?? 0, one: 'runtime writer change', many: 'runtime writer changes' },
    { count: c.order?.length ?? 0, one: 'order change', many: 'order changes' },
    // output left behind (another engine, Kustomizations no longer made) is one; objects that only move between Flux Kustomizations are counted as such
    { count: c.gitops && gitopsLeftBehind(c.gitops) ? 1 : 0, one: 'GitOps output left behind', many: 'GitOps outputs left behind' },
    { count: c.gitops?.moved?.length ?? 0, one: 'object that changes Flux Kustomization', many: 'objects that change Flux Kustomization' },
  ];
}

/**
 * True when the plan changes anything: a stack or object, a field's owner, a contract version, an interface
 * field, a runtime writer, or a dependency between stacks and objects (what the summary line counts). A first release changes something unless the
 * composition is empty (no step): then there is nothing to apply, as `apply` says.
 */
export function hasChanges(plan: Plan): boolean {
  const n = planCounts(plan);
  const others = otherCounts(plan).reduce((sum, o) => sum + o.count, 0);
  return (plan.changes.firstRelease && plan.steps.length > 0) || n.add + n.change + n.remove + others > 0;
}

/**
 * The summary line's counts: stacks and objects to add, change and remove, then each other change there is
 * against the lock (a first release adds everything, and says so).
 */
function summaryOf(plan: Plan): string {
  const n = planCounts(plan);
  const others = plan.changes.firstRelease ? [] : otherCounts(plan).filter((o) => o.count > 0).map((o) => `, ${o.count} ${o.count === 1 ? o.one : o.many}`);
  return `${n.add} to add, ${n.change} to change, ${n.remove} to remove${others.join('')}`;
}

/**
 * Renders a plan readably, as `terraform plan` does: a summary line with the
 * `+ ~ -` counts (and the count of each other change there is: handovers, contracts, interface fields,
 * runtime writers), the steps in apply order with what each waits for and why,
 * and the changes against the lock: each changed stack and object with its
 * changed fields (old -> new, secrets and tokens masked), under removed field-ownership policies that the
 * teardown's first step deletes them, the namespaces objects are in that nothing declares (each with its
 * objects and the fix), the objects renamed with their fix, the
 * inferred edges left out of the order with the cycle each would close, traffic shifts
 * between backend versions, handovers of field ownership (and whether each moves between deploy time and
 * runtime), dependencies added or dropped between stacks and objects of both releases, runtime writers added, changed or removed, contract versions and parameter paths, and
 * interface fields with the bump each needs; then this release's escape hatches over what their own
 * objects declare (`field: rendered -> patched`) and its handovers (`force`, tag layering).
 */
export function formatPlan(plan: Plan): string {
  const c = plan.changes;
  const lines: string[] = [];
  // every change that makes `plan` exit 2 is counted, so a plan that only hands fields over does not read as none
  lines.push(`Plan: ${summaryOf(plan)}${c.firstRelease ? ' (first release: no lock file)' : ''}.`, '');
  lines.push('Steps, in apply order:');
  if (plan.steps.length === 0) lines.push('  (none: the composition declares no stack and no Kubernetes object, so there is nothing to apply)');
  const width = String(plan.steps.length).length;
  plan.steps.forEach((step, i) => {
    const what = step.lifecycle === 'deploy' ? `stack ${step.stackName}` : `${step.objects?.length ?? 0} object${step.objects?.length === 1 ? '' : 's'}`;
    lines.push(`  ${String(i + 1).padStart(width)}. ${step.lifecycle.padEnd(7)} ${step.id}  (${what}: ${step.files.join(', ')})`);
    for (const d of step.dependsOn) lines.push(`  ${' '.repeat(width)}    after ${d.step}: ${d.reasons.join('; ')}`);
  });
  if (!c.firstRelease) {
    lines.push('', 'Changes against the lock:');
    if (c.added.length + c.changed.length + c.removed.length === 0) lines.push('  (none)');
    for (const a of c.added) lines.push(`  + ${a}`);
    const details = new Map((c.fields ?? []).map((f) => [f.unit, f]));
    for (const m of c.changed) {
      lines.push(`  ~ ${m}`);
      const unit = details.get(m);
      for (const f of terseFields(unit?.fields ?? [])) lines.push(`      ${f.sign} ${f.path}${f.text}`);
      if (unit?.note) lines.push(`      (${unit.note})`);
    }
    for (const r of c.removed) lines.push(`  - ${r}`);
    const removedPolicies = plan.teardown?.steps[0];
    if (removedPolicies?.fieldOwnership) lines.push(`  (${teardownTiming(removedPolicies) === 'before-apply' ? POLICIES_REMOVED_BEFORE : POLICIES_REMOVED})`);
    const secrets = c.sensitiveNotCompared;
    if (secrets) lines.push(`  (sensitive values not compared, ${secrets.reason}: ${secrets.units.join(', ')})`);
  }
  if ((plan.undeclaredNamespaces ?? []).length > 0) {
    lines.push('', 'Namespaces the composition does not declare (applying fails in a cluster without them):');
    for (const n of plan.undeclaredNamespaces!) {
      const more = n.objects > n.first.length ? ` and ${n.objects - n.first.length} more` : '';
      lines.push(`  ${n.namespace}: ${n.objects} object${n.objects === 1 ? '' : 's'} (${n.first.join(', ')}${more})`, `      fix: ${n.fix}`);
    }
  }
  if ((plan.renames ?? []).length > 0) {
    lines.push('', 'Renamed (removed and added again by the same construct, or by one moved to another scope: applying creates the new object beside the old one):');
    for (const r of plan.renames!) lines.push(`  ~ ${r.from} -> ${r.to} ('${r.path}')`, `      fix: ${r.fix}`);
  }
  if ((plan.droppedOrder ?? []).length > 0) {
    lines.push('', 'Order left out (an inferred edge that would close a cycle with these edges):');
    for (const d of plan.droppedOrder!) {
      lines.push(`  ${d.before} before ${d.after}: ${d.reason}`);
      for (const e of d.closes) lines.push(`      ${e}`);
    }
  }
  // only the weights that move, and the backends the route gains or drops, as terraform lists only what changes
  const moved = (c.traffic ?? []).map((t) => ({ route: t.route, backends: weightChanges(t.before, t.after) })).filter((t) => t.backends.length > 0);
  if (moved.length > 0) {
    lines.push('', 'Traffic:');
    for (const t of moved) lines.push(`  ~ ${t.route}: ${t.backends.join(', ')}`);
  }
  if ((c.handovers ?? []).length > 0) {
    lines.push('', 'Handovers of field ownership:');
    const writersNow = new Map(plan.writers.map((o) => [o.label, o.writers.map((w) => w.writer)]));
    for (const line of handoverLines(c.handovers, (unit) => writersNow.get(unit))) lines.push(`  ${line}`);
    for (const note of handBackNotes(plan)) lines.push(`  (${note})`);
  }
  if ((c.order ?? []).length > 0) {
    lines.push('', 'Order (dependencies between stacks and objects of both releases):');
    for (const line of orderLines(c.order!)) lines.push(`  ${line}`);
  }
  for (const line of gitopsSection(plan)) lines.push(line);
  if ((c.runtimeWriters ?? []).length > 0) {
    lines.push('', 'Runtime writers:');
    for (const line of runtimeWriterLines(c.runtimeWriters!)) lines.push(`  ${line}`);
  }
  const overrides = plan.ownership?.overrides ?? [];
  if (overrides.length > 0) {
    lines.push('', 'Overrides (escape hatches over what their own object declares):');
    for (const o of overrides) lines.push(`  ~ ${o.object} ${o.field}: ${shown(o, 'rendered')} -> ${shown(o, 'patched')} (${o.by}${o.over ? `, over ${o.over}` : ''})`);
  }
  const handovers = plan.ownership?.handovers ?? [];
  if (handovers.length > 0) {
    lines.push('', 'Handovers in this release:');
    for (const h of handovers) lines.push(`  ~ ${h.object} ${h.field}: '${h.from}' -> '${h.to}' (${h.reason})`);
  }
  if ((c.contracts ?? []).length > 0) {
    lines.push('', 'Contracts:');
    for (const change of c.contracts) lines.push(`  ${contractLine(change)}`);
  }
  if (c.interface.length > 0) {
    lines.push('', 'Interface:');
    for (const change of c.interface) lines.push(`  ~ ${change.contract} field '${change.field}' ${change.change} (needs ${change.needs})`);
  }
  return lines.join('\n') + '\n';
}

/**
 * The document of `plan --json` and `plan --format json` (one shape):
 * whether the composition was accepted, its findings, and when accepted the
 * summary counts, whether anything changes, which lock it was compared
 * against, and the plan as `plan.json` holds it. docs/plan-output.schema.json
 * is its JSON Schema.
 */
export function formatPlanJson(report: SynthReport, findings: readonly ReportedFinding[]): string {
  const plan = report.accepted ? report.plan : undefined;
  const output = {
    formatVersion: 1,
    accepted: plan !== undefined,
    ...(plan ? { summary: { ...planCounts(plan), changes: hasChanges(plan) } } : {}),
    findings,
    ...(report.lock ? { lock: { ...report.lock, file: displayPath(report.lock.file) } } : {}),
    ...(plan ? { plan } : {}),
  };
  return JSON.stringify(output, undefined, 2) + '\n';
}

/**
 * The document of `plan --json` (and `plan --teardown --json`) for an app that failed: not accepted, no findings,
 * and `failure`, what docs/plan-output.schema.json describes: when it failed (`before-synth`, `after-synth`,
 * `no-report`), the command, its exit code or signal, the program's own message, `summary` (the sentence the other
 * formats print) and, when known, the program's frame (`location`, relative to `root`).
 *
 * @param root the folder the location's file is relative to (where `plan` runs)
 */
export function formatFailureJson(failure: ProgramFailure, root: string): string {
  const output = {
    formatVersion: 1,
    accepted: false,
    findings: [],
    failure: {
      kind: failure.kind,
      app: failure.app,
      ...('code' in failure.exit ? { exitCode: failure.exit.code } : { signal: failure.exit.signal }),
      ...(failure.timeout !== undefined ? { timeout: failure.timeout } : {}),
      message: failure.message,
      summary: failureSentence(failure),
      ...(failure.site ? { location: relativeSite(failure.site, root) } : {}),
    },
  };
  return JSON.stringify(output, undefined, 2) + '\n';
}

/**
 * Each backend whose weight moves (`web-blue 100 -> 90`), and each the route drops or gains, as such:
 * `web-green 0 -> (removed)`, `web-red (new) -> 10`, never as a weight of 0 it does not have.
 */
function weightChanges(before: Record<string, number>, after: Record<string, number>): string[] {
  const backends = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return backends.flatMap((b) => {
    if (!(b in after)) return [`${b} ${before[b]} -> (removed)`];
    if (!(b in before)) return [`${b} (new) -> ${after[b]}`];
    return before[b] === after[b] ? [] : [`${b} ${before[b]} -> ${after[b]}`];
  });
}

function contractLine(c: ContractChange): string {
  if (c.change === 'added') return `+ ${c.contract} ${c.after!.version} at ${c.after!.parameter}`;
  if (c.change === 'retired') return `- ${c.contract} ${c.before!.version} at ${c.before!.parameter} (retired)`;
  const param = c.before!.parameter === c.after!.parameter ? `at ${c.after!.parameter}` : `parameter ${c.before!.parameter} -> ${c.after!.parameter}`;
  return `~ ${c.contract} ${c.before!.version} -> ${c.after!.version}, ${param}`;
}

/** An override's value before or after, or what its absence means. */
function shown(o: PlanOverride, which: 'rendered' | 'patched'): string {
  if (which in o) return showValue(o[which]);
  return which === 'patched' ? '(removed)' : '(none)';
}
