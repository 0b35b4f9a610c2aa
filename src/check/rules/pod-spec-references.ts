import { isDNS1123Subdomain, isQualifiedName } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in the names a pod spec refers to and its gates, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names: in `ValidatePodSpec`, a
 * `serviceAccountName` and a `nodeName` that are no DNS subdomain (`ValidateServiceAccountName`, `ValidateNodeName`,
 * both `NameIsDNSSubdomain`), a `runtimeClassName` that is no DNS subdomain, the empty string too
 * (`ValidateRuntimeClassName`), a `preemptionPolicy` other than PreemptLowerPriority and Never
 * (`ValidatePreemptionPolicy`), a readiness gate's `conditionType` and a scheduling gate's `name` that are no qualified
 * name (`validateReadinessGates`, `validateSchedulingGates`; two gates of one name are server-side apply's duplicate
 * key); and in `ValidatePodCreate`, a Pod's `nodeName` beside scheduling gates.
 */

const PREEMPTION = ['PreemptLowerPriority', 'Never'];

/** The checks above of the pod spec `spec` at `at`; a Pod's (`isPod`) nodeName beside scheduling gates too. */
export function validatePodReferences(spec: Record<string, unknown>, at: readonly string[], isPod: boolean, found: PodSpecError[]): void {
  const readiness = spec.readinessGates;
  if (Array.isArray(readiness)) {
    readiness.forEach((gate, i) => {
      const type = isMap(gate) ? gate.conditionType : undefined;
      const value = type === undefined || type === null ? '' : type;
      if (typeof value !== 'string') return;
      for (const msg of isQualifiedName(value)) found.push({ at: [...at, 'readinessGates', String(i), 'conditionType'], type: 'Invalid value', value, detail: msg, check: 'pod-gates' });
    });
  }
  const scheduling = spec.schedulingGates;
  const gated = Array.isArray(scheduling) && scheduling.length > 0;
  if (Array.isArray(scheduling)) {
    scheduling.forEach((gate, i) => {
      const name = isMap(gate) ? gate.name : undefined;
      const value = name === undefined || name === null ? '' : name;
      if (typeof value !== 'string') return;
      for (const msg of isQualifiedName(value)) found.push({ at: [...at, 'schedulingGates', String(i)], field: [...at, 'schedulingGates', String(i), 'name'], type: 'Invalid value', value, detail: msg, check: 'pod-gates' });
    });
  }
  for (const f of ['serviceAccountName', 'nodeName']) {
    const value = spec[f];
    if (typeof value !== 'string' || value === '') continue;
    for (const msg of isDNS1123Subdomain(value)) found.push({ at: [...at, f], type: 'Invalid value', value, detail: msg, check: 'pod-references' });
  }
  if (typeof spec.runtimeClassName === 'string') {
    for (const msg of isDNS1123Subdomain(spec.runtimeClassName)) found.push({ at: [...at, 'runtimeClassName'], type: 'Invalid value', value: spec.runtimeClassName, detail: msg, check: 'pod-references' });
  }
  const preemption = spec.preemptionPolicy;
  if (preemption === '') {
    found.push({ at: [...at, 'preemptionPolicy'], type: 'Required value', check: 'pod-references' });
  } else if (typeof preemption === 'string' && !PREEMPTION.includes(preemption)) {
    found.push({ at: [...at, 'preemptionPolicy'], type: 'Unsupported value', value: preemption, detail: 'supported values: "PreemptLowerPriority", "Never"', check: 'pod-references' });
  }
  if (isPod && gated && typeof spec.nodeName === 'string' && spec.nodeName !== '') {
    found.push({ at: [...at, 'nodeName'], type: 'Forbidden', detail: 'cannot be set until all schedulingGates have been cleared', check: 'pod-gates', depends: [[...at, 'schedulingGates']] });
  }
}

/** The summary and fix of an error of `validatePodReferences`. */
export function explainPodReferences(e: PodSpecError): { summary: string; fix: string } {
  const last = e.field?.[e.field.length - 1] ?? e.at[e.at.length - 1];
  if (e.type === 'Forbidden') return { summary: 'is set on a Pod that still has scheduling gates: a gated Pod is not yet bound to a node', fix: 'Drop nodeName (the scheduler binds the Pod once its gates are cleared), or drop schedulingGates.' };
  if (last === 'conditionType' || last === 'name') {
    return { summary: "must be a qualified name: an optional DNS subdomain and '/', then at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit", fix: `Write a ${last === 'name' ? 'gate' : 'condition type'} such as example.com/${last === 'name' ? 'quota-check' : 'load-balancer-ready'}.` };
  }
  if (last === 'preemptionPolicy') return { summary: 'must be "PreemptLowerPriority" or "Never"', fix: 'Write one of them (case matters), or drop it for PreemptLowerPriority.' };
  const what = last === 'serviceAccountName' ? 'a ServiceAccount' : last === 'nodeName' ? 'a Node' : 'a RuntimeClass';
  return { summary: `must be the name of ${what}: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)`, fix: `Write the ${what.slice(2)}'s metadata.name as it is.` };
}
