import type { Plan } from '../render/writers/plan-json';

/**
 * Renders the teardown of a plan: what the release removes, in deletion
 * order, each step with the commands that carry it out, and what is kept.
 */
export function formatTeardown(plan: Plan): string {
  const teardown = plan.teardown ?? { steps: [], kept: { stacks: [], objects: 0 } };
  const lines: string[] = [];
  if (plan.changes.firstRelease) {
    lines.push('Teardown: nothing to delete (first release: no lock file).');
    return lines.join('\n') + '\n';
  }
  if (teardown.steps.length === 0) {
    lines.push('Teardown: nothing to delete (this release removes nothing from the lock).');
    return lines.join('\n') + '\n';
  }
  const count = teardownCount(plan);
  lines.push(`Teardown: ${count} to delete, in ${teardown.steps.length} step${teardown.steps.length === 1 ? '' : 's'}, in this order:`, '');
  const width = String(teardown.steps.length).length;
  teardown.steps.forEach((step, i) => {
    lines.push(`  ${String(i + 1).padStart(width)}. ${step.lifecycle.padEnd(7)} ${step.units.join(', ')}`);
    for (const c of step.commands) lines.push(`  ${' '.repeat(width)}    $ ${c}`);
  });
  const kept = teardown.kept;
  lines.push('', `Kept: ${kept.stacks.length > 0 ? kept.stacks.join(', ') : 'no stack'}; ${kept.objects} object${kept.objects === 1 ? '' : 's'}.`);
  if (teardown.steps[0].fieldOwnership) {
    lines.push(
      '',
      'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce): run it',
      'before the release is applied (cdk-capability apply, or the commit your GitOps engine applies). Until',
      'they are gone they still judge every write to what they protected, and refuse a leaf written by any',
      'identity but the owner they name (docs/enforcement.md).',
    );
  }
  lines.push(
    '',
    'Run the steps in order, each after the one before has finished. With Flux (prune: true),',
    'committing this release prunes the runtime objects, each Kustomization on its own and not in',
  );
  // the note on stacks only when the teardown deletes one: a runtime-only release has none
  if (teardown.steps.some((s) => s.lifecycle === 'deploy')) {
    lines.push(
      'this order: run the runtime steps first. Stacks are deleted with CloudFormation, since this',
      'release no longer synthesizes them (or `cdk destroy` with the previous release\'s dist/deploy).',
    );
  } else {
    lines.push('this order: run the runtime steps first.');
  }
  return lines.join('\n') + '\n';
}

/** How many stacks and objects the teardown of a plan deletes. */
export function teardownCount(plan: Plan): number {
  return (plan.teardown?.steps ?? []).reduce((n, s) => n + s.units.length, 0);
}

/**
 * The teardown for machines (`plan --teardown --json`): how much it deletes,
 * whether the release is a first one, and the steps in deletion order with
 * their commands and what is kept. docs/teardown-output.schema.json is its
 * JSON Schema.
 */
export function formatTeardownJson(plan: Plan): string {
  const teardown = plan.teardown ?? { steps: [], kept: { stacks: [], objects: 0 } };
  const output = {
    formatVersion: 1,
    firstRelease: plan.changes.firstRelease,
    summary: { delete: teardownCount(plan), steps: teardown.steps.length },
    teardown,
  };
  return JSON.stringify(output, undefined, 2) + '\n';
}
