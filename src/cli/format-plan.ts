import type { Plan } from '../render/writers/plan-json';

/**
 * Renders a plan readably, as `terraform plan` does: a summary line, the steps
 * in apply order with what each waits for and why, and the changes against
 * the lock.
 */
export function formatPlan(plan: Plan): string {
  const c = plan.changes;
  const lines: string[] = [];
  const summary = `${c.added.length} to add, ${c.changed.length} to change, ${c.removed.length} to remove`;
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
    for (const m of c.changed) lines.push(`  ~ ${m}`);
    for (const r of c.removed) lines.push(`  - ${r}`);
  }
  if (c.interface.length > 0) {
    lines.push('', 'Interface:');
    for (const change of c.interface) lines.push(`  ~ ${change.contract} field '${change.field}' ${change.change} (needs ${change.needs})`);
  }
  return lines.join('\n') + '\n';
}
