import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * The restart policy a pod spec may have, as Kubernetes 1.30 validates it: `validateRestartPolicy` of
 * `pkg/apis/core/validation/validation.go` (any pod spec), and what the workload that holds the template adds:
 * `ValidatePodTemplateSpecForReplicaSet` (a ReplicaSet's, a Deployment's) and `ValidateDaemonSetSpec` of
 * `pkg/apis/apps/validation/validation.go`, `ValidatePodTemplateSpecForRC` of core, and `validateJobSpec` of
 * `pkg/apis/batch/validation/validation.go` (a Job's, a CronJob's), and `ValidateStatefulSetSpec` of apps (a StatefulSet's,
 * whose pod spec is otherwise not validated: only these two checks of its template are its own). A missing or empty `restartPolicy` is defaulted
 * to `Always` before validation (`SetDefaults_PodSpec`), which is why a Job must write one.
 */

/** The controller whose validation adds to its pod template's: the kind its message names. */
export type PodTemplateOwner = 'ReplicaSet' | 'ReplicationController' | 'DaemonSet' | 'Job' | 'StatefulSet';

/**
 * The restart policy errors of the pod spec `spec` at `at`, held by `owner` (none for a Pod or a PodTemplate); a Job's
 * `podFailurePolicy` is read two levels up, in the Job spec.
 */
export function validateRestartPolicy(
  spec: Record<string, unknown>, at: readonly string[], owner: PodTemplateOwner | undefined, jobSpec: unknown, found: PodSpecError[],
): void {
  const written = spec.restartPolicy;
  if (written !== undefined && written !== null && typeof written !== 'string') return;
  const policy = written || 'Always';
  const policyAt = [...at, 'restartPolicy'];
  // a StatefulSet's pod spec is not validated (`podSpecPlace`): only its owner's check runs
  if (owner !== 'StatefulSet' && !['Always', 'OnFailure', 'Never'].includes(policy)) {
    found.push({ at: policyAt, type: 'Unsupported value', value: policy, detail: 'supported values: "Always", "OnFailure", "Never"', check: 'pod-restart-policy' });
  }
  if (owner === 'Job') {
    if (policy === 'Always') {
      found.push({ at: policyAt, type: 'Required value', detail: 'valid values: "OnFailure", "Never"', check: 'pod-restart-policy' });
    } else if (policy !== 'OnFailure' && policy !== 'Never') {
      found.push({ at: policyAt, type: 'Unsupported value', value: policy, detail: 'supported values: "OnFailure", "Never"', check: 'pod-restart-policy' });
    } else if (isMap(jobSpec) && jobSpec.podFailurePolicy !== undefined && jobSpec.podFailurePolicy !== null && policy !== 'Never') {
      const failurePolicyAt = [...at.slice(0, -2), 'podFailurePolicy'];
      found.push({ at: policyAt, type: 'Invalid value', value: policy, detail: 'only "Never" is supported when podFailurePolicy is specified', check: 'pod-restart-policy', depends: [failurePolicyAt] });
    }
  } else if (owner) {
    if (policy !== 'Always') found.push({ at: policyAt, type: 'Unsupported value', value: policy, detail: 'supported values: "Always"', check: 'pod-restart-policy' });
    if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
      found.push({ at: [...at, 'activeDeadlineSeconds'], type: 'Forbidden', detail: `activeDeadlineSeconds in ${owner} is not Supported`, check: 'active-deadline' });
    }
  }
}
