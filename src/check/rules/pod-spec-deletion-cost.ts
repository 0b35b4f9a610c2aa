import { podAnnotations } from './pod-spec-apparmor-annotations';
import type { PodSpecError, PodSpecPlace } from './pod-spec-errors';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's `controller.kubernetes.io/pod-deletion-cost` annotation,
 * ported from kubernetes `pkg/apis/core/validation/validation.go` `ValidatePodSpecificAnnotations` (for a Pod and every
 * pod template; its `AllowInvalidPodDeletionCost` option is off on create while the `PodDeletionCost` gate, beta since
 * 1.22, is on) and `pkg/apis/core/helper/helpers.go` `GetDeletionCostFromPodAnnotations` at the commit
 * `pod-spec-errors.ts` names: a decimal 32-bit integer, without a '+' sign or leading zeros.
 */

export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const INT32 = /^-?(0|[1-9][0-9]*)$/;

/** True when `value` is a deletion cost `GetDeletionCostFromPodAnnotations` reads (`validFirstDigit`, `strconv.ParseInt(value, 10, 32)`). */
export function isDeletionCost(value: string): boolean {
  if (!INT32.test(value) || value.length > 11) return false;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647;
}

/** The deletion cost annotation's error of the pod at `place` in `manifest`, if any. */
export function validateDeletionCost(manifest: unknown, place: PodSpecPlace, found: PodSpecError[]): void {
  const annotations = podAnnotations(manifest, place);
  const value = annotations?.[DELETION_COST];
  if (typeof value !== 'string' || isDeletionCost(value)) return;
  const parent = place.at.slice(0, -1);
  const at = place.isPod ? ['metadata', 'annotations', DELETION_COST] : [...parent, 'annotations', DELETION_COST];
  found.push({ at, keyed: true, field: [...parent, 'metadata', 'annotations', DELETION_COST], type: 'Invalid value', value, detail: 'must be a 32bit integer', check: 'deletion-cost' });
}

/** The summary and fix of a deletion cost's error. */
export function explainDeletionCost(): { summary: string; fix: string } {
  return {
    summary: "must be a decimal 32-bit integer (-2147483648 to 2147483647) without '+' or leading zeros: the ReplicaSet controller deletes pods of lower cost first",
    fix: "Write it as a quoted number, such as '100' or '-5'.",
  };
}
