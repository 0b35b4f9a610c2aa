import type { RuntimeWriterChange } from '../release/release-diff';
import type { RuntimeWriterRecord } from '../release/runtime-writer-record';

/**
 * The plan's lines of the runtime writers added, changed or removed: one per writer, what it writes, as whom and under
 * which manager, for a changed one what changed; then, for each field manager renamed, what the cluster sees of that
 * (a note in parentheses, as the handovers have theirs), once for every writer renamed from one name to another.
 */
export function runtimeWriterLines(changes: readonly RuntimeWriterChange[]): string[] {
  const renamed = new Map<string, RuntimeWriterChange[]>();
  for (const c of changes) {
    if (c.change !== 'changed' || c.before!.manager === c.after!.manager) continue;
    const key = JSON.stringify([c.before!.manager, c.after!.manager]);
    renamed.set(key, [...(renamed.get(key) ?? []), c]);
  }
  return [...changes.map(runtimeWriterLine), ...[...renamed.values()].map((group) => `(${managerRenamedNote(group)})`)];
}

/** Writers' fields named in a note before the rest are counted. */
const SHOWN_WRITES = 3;

function runtimeWriterLine(c: RuntimeWriterChange): string {
  if (c.change !== 'changed') {
    const w = (c.after ?? c.before)!;
    return `${c.change === 'added' ? '+' : '-'} ${w.writer}: ${w.fields.join(', ')} of ${targetOf(w)}, as ${w.identity} (field manager ${w.manager})`;
  }
  const before = c.before!;
  const after = c.after!;
  const parts: string[] = [];
  if (targetOf(before) !== targetOf(after)) parts.push(`target ${targetOf(before)} -> ${targetOf(after)}`);
  if (before.fields.join(', ') !== after.fields.join(', ')) parts.push(`fields ${before.fields.join(', ')} -> ${after.fields.join(', ')}`);
  if (before.identity !== after.identity) parts.push(`identity ${before.identity} -> ${after.identity}`);
  if (before.manager !== after.manager) parts.push(`field manager ${before.manager} -> ${after.manager}`);
  return `~ ${c.writer}: ${parts.join('; ')}`;
}

/**
 * What a runtime writer's new field manager changes in the cluster: nothing until its controller writes under it.
 * A manager is the name a write records in `managedFields`; no release applies under a runtime writer's, so the
 * old name's entry keeps the fields until a write changes their values (structured-merge-diff: an update that
 * leaves a value as it is records nothing, an apply of the same value shares it; test/gitops2-manager-rename.test.ts
 * replays each), and the audit, which expects the new name, reports the old one meanwhile.
 */
function managerRenamedNote(group: readonly RuntimeWriterChange[]): string {
  const [was, now] = [group[0].before!.manager, group[0].after!.manager];
  const writes = group.map((c) => `${c.before!.fields.join(', ')} of ${targetOf(c.before!)}`);
  const more = writes.length > SHOWN_WRITES ? ` and ${writes.length - SHOWN_WRITES} more` : '';
  return `the cluster sees nothing of the new field manager until the controller writes under ${now}: no release applies under a runtime writer's manager. `
    + `Until then ${was}'s entries in metadata.managedFields keep ${writes.slice(0, SHOWN_WRITES).join(', ')}${more}, and cdk-capability audit reports them `
    + `owned by '${was}' (taken-over, or overwritten-by-update when it wrote by an update) with the advice to declare manager: '${was}': expected until the `
    + `controller writes, so keep ${now}. A write gives them to ${now} only where it changes a value: an update that leaves a value as it is records nothing, `
    + `and an apply of the same value shares it with ${was}, which audit then reports as undeclared-manager '${was}' `
    + `(pass --ignore-manager ${was}, or remove ${was}'s entry from metadata.managedFields)`;
}

/** How the plan names what a runtime writer writes: its object, or every object of its kind. */
function targetOf(w: RuntimeWriterRecord): string {
  return 'object' in w.target ? w.target.label : `every ${w.target.groupKind}`;
}
