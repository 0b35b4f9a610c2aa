import { gitopsLines, gitopsNeedsWork, gitopsSection } from './gitops-lines';
import { FIELD_OWNERSHIP_STEP } from '../release/locked-policies';
import { REGION_PLACEHOLDER, Teardown, TeardownStep, teardownTiming, TeardownTiming } from '../render/teardown';
import type { Plan } from '../render/writers/plan-json';

/** The heading of each group of steps: when to run them, against applying the release. */
const TIMING_HEADINGS: Readonly<Record<TeardownTiming, string>> = {
  'before-apply': 'Before applying this release:',
  'after-field-ownership': 'Right after this release\'s field-ownership step (cdk-capability apply runs it):',
  'after-apply': 'After applying this release:',
};

/**
 * Renders the teardown of a plan: what the release removes, in deletion
 * order, each step with the commands that carry it out, and what is kept.
 */
export function formatTeardown(plan: Plan): string {
  if (plan.changes.firstRelease) return 'Teardown: nothing to delete (first release: no lock file).\n';
  // what the previous engine's output left (an engine switch, Flux step Kustomizations no longer made): no step of the
  // teardown deletes it, so the teardown names it and how to remove it as the plan does
  return [...teardownLines(plan), ...gitopsSection(plan)].join('\n') + '\n';
}

/** The teardown's own lines: its steps, what is kept, and the notes on when to run them. */
function teardownLines(plan: Plan): string[] {
  const teardown = plan.teardown ?? { steps: [], kept: { stacks: [], objects: 0 } };
  const lines: string[] = [];
  if (teardown.steps.length === 0) return ['Teardown: nothing to delete (this release removes nothing from the lock).'];
  const count = teardownCount(plan);
  lines.push(`Teardown: ${count} to delete, in ${teardown.steps.length} step${teardown.steps.length === 1 ? '' : 's'}, in this order:`);
  const width = String(teardown.steps.length).length;
  let group: TeardownTiming | undefined;
  teardown.steps.forEach((step, i) => {
    const when = teardownTiming(step);
    if (when !== group) lines.push('', TIMING_HEADINGS[when]);
    group = when;
    lines.push(`  ${String(i + 1).padStart(width)}. ${step.lifecycle.padEnd(7)} ${step.units.join(', ')}`);
    const indent = `  ${' '.repeat(width)}    `;
    for (const note of stackNotes(step)) lines.push(`${indent}# ${note}`);
    for (const c of step.commands) lines.push(`${indent}$ ${c}`);
  });
  const kept = teardown.kept;
  lines.push('', `Kept: ${kept.stacks.length > 0 ? kept.stacks.join(', ') : 'no stack'}; ${kept.objects} object${kept.objects === 1 ? '' : 's'}.`);
  if (teardown.steps[0].fieldOwnership) {
    const enforced = plan.steps.some((s) => s.id === FIELD_OWNERSHIP_STEP && s.lifecycle === 'runtime');
    for (const line of ['', ...fieldOwnershipNote(teardown.steps[0], teardown.gitops, enforced)]) lines.push(line);
  }
  const after = teardown.steps.filter((s) => teardownTiming(s) === 'after-apply');
  if (after.length === 0) {
    lines.push('', 'Run the steps in order, each after the one before has finished.');
    return lines;
  }
  lines.push(
    '',
    'Run the steps in order, each after the one before has finished. Until this release is applied the',
    'previous one runs, and may still use what the steps after applying delete (a workload reading a',
    'removed Secret, a stack importing a removed stack\'s export): run those only once cdk-capability',
    'apply has finished, or your GitOps engine has applied this release.',
  );
  // an engine's pruning only for a release written for it (its Kustomizations' prune, default true; the Application of
  // docs/gitops.md, automated with prune): cdk-capability apply never prunes
  if (teardown.gitops === 'flux' && after.some((s) => s.lifecycle === 'runtime')) {
    lines.push(
      'With Flux (prune: true), Flux prunes the removed runtime objects itself as it applies this release,',
      'each Kustomization on its own: not in this order, and maybe before the Kustomizations that stop',
      'using them have applied it. The runtime steps then delete what is left.',
    );
  }
  if (teardown.gitops === 'argocd' && after.some((s) => s.lifecycle === 'runtime')) {
    lines.push(
      'With Argo CD (an automated sync with prune: true, as docs/gitops.md sets it), Argo CD prunes the removed',
      'runtime objects itself in the sync that applies this release, among its waves, higher waves first:',
      'not in this order, and maybe before the waves that stop using them are applied, unless the',
      'Application sets the sync option PruneLast=true. The runtime steps then delete what is left.',
    );
  }
  // the note on stacks only when the teardown deletes one: a runtime-only release has none
  if (after.some((s) => s.lifecycle === 'deploy')) {
    lines.push(
      'Stacks are deleted with CloudFormation, since this release no longer synthesizes them (or',
      '`cdk destroy` with the previous release\'s dist/deploy).',
    );
  }
  return lines;
}

/**
 * What the teardown says of its field-ownership step: when it runs, who runs it, and why then; `enforced` when
 * the release has a field-ownership step of its own. A plan written before `after-field-ownership` told to run
 * it before the release is applied, and still says so.
 */
function fieldOwnershipNote(step: TeardownStep, gitops: Teardown['gitops'], enforced: boolean): string[] {
  if (teardownTiming(step) === 'before-apply') {
    return [
      'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce): run it',
      'before the release is applied (cdk-capability apply, or the commit your GitOps engine applies). Until',
      'they are gone they still judge every write to what they protected, and refuse a leaf written by any',
      'identity but the owner they name (docs/enforcement.md).',
    ];
  }
  const lines = enforced
    ? [
      'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce).',
      'cdk-capability apply runs it itself, right after the release\'s field-ownership step has put the',
      'release\'s own policies in force, and before it writes any object: until then the old ones protect what',
      'they protected (an object whose policy this release renames included), and from then on none of them',
      'judges a write of the release (docs/enforcement.md). Do not run it before the release is applied.',
    ]
    : [
      'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce).',
      'cdk-capability apply runs it itself, at the start of its first runtime step, before it writes any',
      'object: from then on none of them judges a write of the release (docs/enforcement.md).',
    ];
  if (gitops === 'flux' && enforced) {
    lines.push(
      'With Flux (prune: true), the field-ownership Kustomization prunes them itself once it has applied the',
      'release\'s policies, and the Kustomizations that depend on it wait for that: nothing to run.',
    );
  }
  if (gitops === 'flux' && !enforced) {
    lines.push(
      'With Flux (prune: true), Flux deletes them with the field-ownership Kustomization this release no',
      'longer has, not before the other Kustomizations apply it: a write they refuse is retried at its interval.',
    );
  }
  if (gitops === 'argocd') {
    lines.push(
      'With Argo CD (prune: true), the sync prunes them itself, not at this point: in the first wave, just',
      'before it applies the release\'s policies, or later when it prunes objects of later waves too',
      '(docs/enforcement.md, "Renamed policies and GitOps engines").',
    );
  }
  return lines;
}

/**
 * The comment lines before a stack step's commands: the account whose credentials they need, when the stack's
 * `env` names one, and what to pass as its region when the lock records none, or when the plan was written
 * before teardowns named regions (its commands would run in the shell's default region). None for a runtime step.
 */
function stackNotes(step: TeardownStep): string[] {
  if (step.lifecycle !== 'deploy') return [];
  const notes: string[] = [];
  if (step.account !== undefined) notes.push(`with credentials of AWS account ${step.account} (aws sts get-caller-identity shows yours)`);
  if (step.region !== undefined) return notes;
  if (step.commands.some((c) => c.endsWith(`--region ${REGION_PLACEHOLDER}`))) {
    notes.push(
      'the lock records no region for it (an environment-agnostic stack, or a lock written before regions',
      `were recorded): replace ${REGION_PLACEHOLDER} with the region it was deployed to`,
    );
  } else if (!step.commands.some((c) => c.includes(' --region '))) {
    notes.push('this plan was written before teardowns named the region: add --region with the region it was deployed to');
  }
  return notes;
}

/**
 * True when the teardown of a plan has something to do: stacks or objects to delete, or the previous release's GitOps
 * output to remove or objects to keep from Flux's prune (`changes.gitops`, `gitopsNeedsWork`), which `plan --teardown`
 * names with its commands (exit code 2).
 */
export function teardownHasWork(plan: Plan): boolean {
  return teardownCount(plan) > 0 || gitopsNeedsWork(plan.changes.gitops);
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
  const read = plan.teardown ?? { steps: [], kept: { stacks: [], objects: 0 } };
  // a plan written before steps said when to run them: each as teardownTiming reads it
  const teardown = { ...read, steps: read.steps.map((s) => ({ ...s, when: teardownTiming(s) })) };
  const left = plan.changes.gitops;
  const output = {
    formatVersion: 1,
    firstRelease: plan.changes.firstRelease,
    summary: { delete: teardownCount(plan), steps: teardown.steps.length },
    teardown,
    // the previous release's GitOps output no step deletes, with the plan's notes on removing it
    ...(left ? { gitops: { ...left, notes: gitopsLines(plan) } } : {}),
  };
  return JSON.stringify(output, undefined, 2) + '\n';
}
