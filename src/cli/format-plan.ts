import type { ContractChange, FieldChange } from '../release/release-diff';
import type { Plan } from '../render/writers/plan-json';

/** Exit codes of `cdk-capability plan`, as `terraform plan -detailed-exitcode` has them. */
export const PlanExit = {
  /** Accepted, and nothing changes against the lock. */
  NO_CHANGES: 0,
  /** Refused (coded violations), a usage error, or an internal error. */
  ERROR: 1,
  /** Accepted, with changes to apply (a first release always has some). */
  CHANGES: 2,
} as const;

/** The counts of the summary line: stacks and objects to add, change and remove. */
export function planCounts(plan: Plan): { add: number; change: number; remove: number } {
  const c = plan.changes;
  return { add: c.added.length, change: c.changed.length, remove: c.removed.length };
}

/** True when the plan changes anything: a stack or object, a field's owner, a contract version, or an interface field. */
export function hasChanges(plan: Plan): boolean {
  const c = plan.changes;
  const units = c.added.length + c.changed.length + c.removed.length;
  return c.firstRelease || units + (c.handovers?.length ?? 0) + (c.contracts?.length ?? 0) + c.interface.length > 0;
}

/**
 * Renders a plan readably, as `terraform plan` does: a summary line with the
 * `+ ~ -` counts, the steps in apply order with what each waits for and why,
 * and the changes against the lock: each changed stack and object with its
 * changed fields (old -> new, secrets and tokens masked), traffic shifts
 * between backend versions, handovers of field ownership, contract versions and parameter paths, and
 * interface fields with the bump each needs.
 */
export function formatPlan(plan: Plan): string {
  const c = plan.changes;
  const lines: string[] = [];
  const n = planCounts(plan);
  const summary = `${n.add} to add, ${n.change} to change, ${n.remove} to remove`;
  lines.push(`Plan: ${summary}${c.firstRelease ? ' (first release: no lock file)' : ''}.`, '');
  lines.push('Steps, in apply order:');
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
      for (const f of unit?.fields ?? []) lines.push(`      ${fieldLine(f)}`);
      if (unit?.note) lines.push(`      (${unit.note})`);
    }
    for (const r of c.removed) lines.push(`  - ${r}`);
    const secrets = c.sensitiveNotCompared;
    if (secrets) lines.push(`  (sensitive values not compared, ${secrets.reason}: ${secrets.units.join(', ')})`);
  }
  if ((c.traffic ?? []).length > 0) {
    lines.push('', 'Traffic:');
    for (const t of c.traffic) {
      const backends = [...new Set([...Object.keys(t.before), ...Object.keys(t.after)])];
      lines.push(`  ~ ${t.route}: ${backends.map((b) => `${b} ${t.before[b] ?? 0} -> ${t.after[b] ?? 0}`).join(', ')}`);
    }
  }
  if ((c.handovers ?? []).length > 0) {
    lines.push('', 'Handovers of field ownership:');
    for (const h of c.handovers) lines.push(`  ~ ${h.unit} ${h.path}: '${h.from}' -> '${h.to}'`);
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
 * The plan for machines (`--json`): the summary counts, whether anything
 * changes, and the plan as `plan.json` holds it. docs/plan-output.schema.json
 * is its JSON Schema.
 */
export function formatPlanJson(plan: Plan): string {
  const output = { formatVersion: 1, summary: { ...planCounts(plan), changes: hasChanges(plan) }, plan };
  return JSON.stringify(output, undefined, 2) + '\n';
}

function fieldLine(f: FieldChange): string {
  if (!('before' in f)) return `+ ${f.path}: ${show(f.after)}`;
  if (!('after' in f)) return `- ${f.path}: ${show(f.before)}`;
  return `~ ${f.path}: ${show(f.before)} -> ${show(f.after)}`;
}

function contractLine(c: ContractChange): string {
  if (c.change === 'added') return `+ ${c.contract} ${c.after!.version} at ${c.after!.parameter}`;
  if (c.change === 'retired') return `- ${c.contract} ${c.before!.version} at ${c.before!.parameter} (retired)`;
  const param = c.before!.parameter === c.after!.parameter ? `at ${c.after!.parameter}` : `parameter ${c.before!.parameter} -> ${c.after!.parameter}`;
  return `~ ${c.contract} ${c.before!.version} -> ${c.after!.version}, ${param}`;
}

/** A value as the plan shows it: JSON, except the masks (`(sensitive)`, `(sensitive, changed)`, `(known after deploy)`), which are shown as they are. */
function show(v: unknown): string {
  if (typeof v === 'string' && /^\((sensitive|known after deploy)(, [a-z ]+)?\)$/.test(v)) return v;
  return JSON.stringify(v);
}
