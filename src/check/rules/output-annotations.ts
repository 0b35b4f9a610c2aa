import type { Facts, ObjectFact } from '../../collect/facts';
import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP002`: an object that sets an annotation an output format writes on every
 * runtime object (with `GitOps.argoCd()`, `argocd.argoproj.io/sync-wave`).
 * The message names whoever wrote it, as the field ledger records them: the
 * declarer, a `Contribution`, or an escape hatch and its call site.
 */
export const outputAnnotations = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'annotations the output writes',
  explanation: "Some output formats write an annotation on every runtime object (Argo CD's sync wave); a construct that writes the same annotation would be silently overwritten.",
  run: ({ facts, claims }) => {
    const writersOf = annotationWriters(facts);
    return claims.flatMap((claim) =>
      facts.objects.flatMap((o) => {
        const existing = o.manifest?.metadata?.annotations?.[claim.annotation];
        if (existing === undefined || o.duplicateOf !== undefined) return [];
        const writers = writersOf(o, claim.annotation).filter((w) => w.kind !== 'declaration' || w.path !== o.declarer);
        const object = `${describeIdentity(o.identity)} declared by '${o.declarer}'`;
        const who = writers.length === 0 ? `${object} writes` : `${object}: ${writers.map(describeWriter).join(' and ')} ${writers.length > 1 ? 'write' : 'writes'}`;
        return [
          {
            message: `${who} ${formatPath(['metadata', 'annotations', claim.annotation])} (${JSON.stringify(existing)}), which ${claim.writer} writes from the plan. Remove the annotation and order the object with addDependency.`,
            paths: writers.length > 0 ? [...new Set(writers.map((w) => w.path))] : [o.declarer],
          },
        ];
      }),
    );
  },
});

/** The writers the ledger records for one annotation of an object, in the ledger's order, each once. */
function annotationWriters(facts: Facts): (o: ObjectFact, annotation: string) => Writer[] {
  let byLabel: Map<string, Facts['ledger']['objects'][number]> | undefined;
  return (o, annotation) => {
    byLabel ??= new Map(facts.ledger.objects.filter((w) => w.kind === 'k8s').map((w) => [w.label, w]));
    const writes = byLabel.get(describeIdentity(o.identity))?.writes ?? [];
    const writers = writes.filter((w) => w.path.length === 3 && w.path[0] === 'metadata' && w.path[1] === 'annotations' && w.path[2] === annotation).map((w) => w.writer);
    return [...new Map(writers.map((w) => [describeWriter(w), w])).values()];
  };
}
