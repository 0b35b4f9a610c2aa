import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP002`: an object that sets an annotation an output format writes on every
 * runtime object (with `GitOps.argoCd()`, `argocd.argoproj.io/sync-wave`).
 */
export const outputAnnotations = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'annotations the output writes',
  explanation: "Some output formats write an annotation on every runtime object (Argo CD's sync wave); a construct that writes the same annotation would be silently overwritten.",
  run: ({ facts, claims }) =>
    claims.flatMap((claim) =>
      facts.objects.flatMap((o) => {
        const existing = o.manifest?.metadata?.annotations?.[claim.annotation];
        if (existing === undefined || o.duplicateOf !== undefined) return [];
        return [
          {
            message: `${describeIdentity(o.identity)} declared by '${o.declarer}' writes metadata.annotations.${claim.annotation} (${JSON.stringify(existing)}), which ${claim.writer} writes from the plan. Remove the annotation and order the object with addDependency.`,
            paths: [o.declarer],
          },
        ];
      }),
    ),
});
