import { apiServerText, PodSpecError } from './pod-spec-errors';
import { claimTemplateNames, podSpecFindings } from './pod-spec-validity';
import { fieldWriters } from './scalar-types';
import { appendAll } from '../../private/append';
import { isMap } from '../../private/maps';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** Where a StatefulSet's pod spec is; its pods are created from it, and validated as pods on create. */
const TEMPLATE_SPEC = { at: ['spec', 'template', 'spec'], isPod: true } as const;

/**
 * `CAP010` warning: what the pod spec rule would refuse, in a StatefulSet's pod template. The Kubernetes 1.30 API
 * server does not validate that template (kubernetes `pkg/apis/apps/validation` `ValidatePodTemplateSpecForStatefulSet`
 * checks its labels and annotations only), so the StatefulSet is accepted; its controller then creates each pod from
 * the template, and the API server refuses the pod (`ValidatePodCreate`): the StatefulSet never gets a pod, and the
 * controller reports `create Pod db-0 in StatefulSet db failed error: Pod "db-0" is invalid: ...` in its events.
 * A mount or a device that names one of the StatefulSet's `volumeClaimTemplates` is fine: the controller adds that
 * claim to each pod as a volume of that name. A warning, not a refusal: the apply itself succeeds.
 */
export const statefulSetPodSpecs = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'stateful set pod specs',
  severity: 'warning',
  explanation: "The API server does not validate a StatefulSet's pod template, so a pod spec it would refuse in a Deployment is accepted in a StatefulSet, and each pod the controller creates from it is refused.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    const found: RuleFinding[] = [];
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== 'apps' || object.identity.kind !== 'StatefulSet') return;
      const claims = claimTemplateNames(object.manifest);
      // the first pod's name: `<name>-<ordinal>`, from spec.ordinals.start (0 unless set)
      const ordinals: unknown = isMap(object.manifest?.spec) ? object.manifest.spec.ordinals : undefined;
      const start = isMap(ordinals) && Number.isInteger(ordinals.start) ? ordinals.start : 0;
      const pod = `${object.identity.name}-${start}`;
      appendAll(found, podSpecFindings(facts, index, TEMPLATE_SPEC, writersAt, {
        // the restart policy is the StatefulSet's own refusal (`statefulSetRestartPolicy`)
        skip: (e) => OWN_CHECKS.has(e.check) || ((e.check === 'mount-name' || e.check === 'device-name') && typeof e.value === 'string' && claims.has(e.value)),
        refusal: (errors) => `the API server accepts the StatefulSet (it does not validate a StatefulSet's pod template) but refuses each pod its controller creates from it: Pod ${JSON.stringify(pod)} is invalid: ${podText(errors)}`,
      }));
    });
    return found;
  },
});

/** What `ValidateStatefulSetSpec` checks of the template itself: refused with the StatefulSet. */
const OWN_CHECKS: ReadonlySet<string> = new Set(['pod-restart-policy', 'active-deadline']);

/** The template as `ValidateStatefulSetSpec` reads it: only its restart policy and `activeDeadlineSeconds`. */
const OWN_SPEC = { at: ['spec', 'template', 'spec'], isPod: false, owner: 'StatefulSet' } as const;

/**
 * `CAP010`: a StatefulSet's pod template with a restart policy other than `Always` or an `activeDeadlineSeconds`, which
 * the Kubernetes 1.30 API server refuses with the StatefulSet (`ValidateStatefulSetSpec` of
 * `pkg/apis/apps/validation/validation.go`: `spec.template.spec.restartPolicy: Unsupported value: "OnFailure":
 * supported values: "Always"`, `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in
 * StatefulSet is not Supported`), though it validates nothing else of the template.
 */
export const statefulSetRestartPolicy = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'stateful set restart policy',
  explanation: "A StatefulSet's pods run until replaced: the API server refuses a StatefulSet whose pod template has a restartPolicy other than Always, or an activeDeadlineSeconds.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    const found: RuleFinding[] = [];
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== 'apps' || object.identity.kind !== 'StatefulSet') return;
      appendAll(found, podSpecFindings(facts, index, OWN_SPEC, writersAt, { skip: (e) => !OWN_CHECKS.has(e.check) }));
    });
    return found;
  },
});

/** The errors as the pod's: paths from the pod (`spec.containers[0].image`), not from the StatefulSet's template. */
function podText(errors: readonly PodSpecError[]): string {
  return errors.map((e) => apiServerText({ ...e, at: ['spec', ...e.at.slice(TEMPLATE_SPEC.at.length)] })).join('; ');
}
