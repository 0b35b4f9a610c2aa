import type { Facts, RuntimeWriterFact } from '../../collect/facts';
import { FieldPath, formatPath, isSetValue } from '../../collect/ledger/field-path';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { compareText } from '../../private/compare';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { listSome } from './text';

/**
 * `CAP002`: two `RuntimeWriter`s of one leaf (or of a leaf and what is below
 * it) of one object, or of every object of one kind: two controllers that
 * would overwrite each other in the cluster. One violation per pair of
 * writers, naming both and every leaf they contest, and what to do when both
 * controllers really write it (KEDA and its HorizontalPodAutoscaler both scale
 * `spec.replicas`): declare it for neither, since the policy lets one identity
 * alone change a leaf. Values of a set (a
 * finalizer) are owned by presence, as in the ledger: two writers of the
 * same value contest nothing.
 */
export const runtimeWriterOverlaps = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'runtime writer overlaps',
  explanation: 'Two controllers declared as writers of the same field overwrite each other in the cluster on every reconcile, and the admission policy can let only one identity change it.',
  run({ facts }) {
    const writers = facts.runtimeWriters;
    const found = [];
    for (let i = 0; i < writers.length; i++) {
      for (let j = i + 1; j < writers.length; j++) {
        const [a, b] = [writers[i], writers[j]];
        const target = sharedTarget(facts, a, b);
        if (target === undefined) continue;
        const fields = contested(a.fields.map((f) => f.path), b.fields.map((f) => f.path));
        if (fields.length === 0) continue;
        const replicas = fields.includes('spec.replicas')
          ? ' (KEDA scales a workload to and from zero through the scale subresource as keda-operator, and the HorizontalPodAutoscaler it creates scales it above one: both write spec.replicas)'
          : '';
        found.push({
          message: `'${a.path}' and '${b.path}' both write ${listSome(fields)} of ${target} at runtime. Give each field one owner: drop it from the fields of the RuntimeWriter whose controller does not write it. `
            + `If both controllers write it${replicas}, drop it from both: the admission policy lets one identity alone change a field, and leaves a field no writer declares unconstrained.`,
          paths: [a.path, b.path],
        });
      }
    }
    return found;
  },
});

/** How messages name what both writers write, or undefined when no object can be written by both. */
function sharedTarget(facts: Facts, a: RuntimeWriterFact, b: RuntimeWriterFact): string | undefined {
  const objectOf = (w: RuntimeWriterFact) => ('object' in w.target ? facts.objects[w.target.object] : undefined);
  const kindOf = (w: RuntimeWriterFact) => {
    const object = objectOf(w);
    const { group, kind } = object ? object.identity : (w.target as { group: string; kind: string });
    return groupKind(group, kind);
  };
  if (kindOf(a) !== kindOf(b)) return undefined;
  const [oa, ob] = [objectOf(a), objectOf(b)];
  if (oa && ob) return oa.key === ob.key ? describeIdentity(oa.identity) : undefined;
  const object = oa ?? ob;
  if (object) return describeIdentity(object.identity);
  const { group, kind } = a.target as { group: string; kind: string };
  return `every ${group ? `${group}/` : ''}${kind}`;
}

/** The leaves (formatted, sorted) where one path is the other or below it, unless both are the same set value. */
function contested(a: readonly FieldPath[], b: readonly FieldPath[]): string[] {
  const found = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
      if (!shorter.every((segment, i) => longer[i] === segment)) continue;
      if (shorter.length === longer.length && isSetValue(shorter[shorter.length - 1] ?? '')) continue;
      found.add(formatPath(shorter));
    }
  }
  return [...found].sort(compareText);
}
