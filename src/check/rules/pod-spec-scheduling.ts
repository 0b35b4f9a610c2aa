import { isQualifiedName, isValidLabelValue } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { validatePodAffinityTermSelectors, validateSpreadConstraintSelector } from './pod-spec-label-selectors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in where a pod may run: its `tolerations`, `topologySpreadConstraints`
 * and `affinity`, ported from kubernetes `pkg/apis/core/validation/validation.go` (`ValidateTolerations`,
 * `validateTaintEffect`, `validateTopologySpreadConstraints`, `ValidateMaxSkew`, `ValidateTopologyKey`,
 * `ValidateWhenUnsatisfiable`, `validateMinDomains`, `validateAffinity`, `ValidateNodeSelector`,
 * `ValidateNodeSelectorRequirement`, `ValidateNodeFieldSelectorRequirement`, `ValidatePreferredSchedulingTerms`,
 * `validatePodAffinityTerm`, `validateWeightedPodAffinityTerms`) at the commit `pod-spec-errors.ts` names, with
 * k8s.io/apimachinery v0.30.14's `ValidateLabelName` and `IsValidLabelValue`. On create a required node affinity's
 * values must be label values (`AllowInvalidLabelValueInRequiredNodeAffinity` is false); a preferred one's need not.
 *
 * The label selectors of a spread constraint and of a pod affinity term, a spread constraint's `matchLabelKeys` and
 * node inclusion policies are `pod-spec-label-selectors.ts`'s. Left out: a second spread constraint of one
 * `topologyKey` and `whenUnsatisfiable` (server-side apply's duplicate key).
 */

type Found = PodSpecError[];

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `ValidateLabelName`: a qualified name. */
function labelName(value: unknown, at: readonly string[], check: PodSpecError['check'], found: Found): void {
  if (typeof value !== 'string' && value !== undefined && value !== null) return;
  const name = str(value);
  for (const msg of isQualifiedName(name)) found.push({ at, type: 'Invalid value', value: name, detail: msg, check });
}

/** Go's `%#v` of a `*int64`: its address when set, known only in the API server, written `0xc000000000` here. */
function pointer(value: unknown): string {
  return value === undefined || value === null ? '(*int64)(nil)' : '(*int64)(0xc000000000)';
}

/** `ValidateTolerations` of the pod spec's `tolerations` at `at`. */
export function validateTolerations(value: unknown, at: readonly string[], found: Found): void {
  list(value).forEach((t, i) => {
    if (!isMap(t)) return;
    const tAt = [...at, String(i)];
    const key = str(t.key);
    const operator = str(t.operator);
    const tolerationValue = str(t.value);
    const effect = str(t.effect);
    if (key) labelName(key, [...tAt, 'key'], 'toleration', found);
    if (!key && operator !== 'Exists') {
      found.push({ at: [...tAt, 'operator'], type: 'Invalid value', value: operator, detail: 'operator must be Exists when `key` is empty, which means "match all values and all keys"', check: 'toleration', depends: [[...tAt, 'key']] });
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      found.push({ at: [...tAt, 'effect'], type: 'Invalid value', value: effect, detail: "effect must be 'NoExecute' when `tolerationSeconds` is set", check: 'toleration', depends: [[...tAt, 'tolerationSeconds']] });
    }
    if (operator === 'Equal' || operator === '') {
      const errs = isValidLabelValue(tolerationValue);
      // the API server names the operator, not the value
      if (errs.length > 0) found.push({ at: [...tAt, 'operator'], type: 'Invalid value', value: tolerationValue, detail: errs.join(';'), check: 'toleration', field: [...tAt, 'value'], depends: [[...tAt, 'value']] });
    } else if (operator === 'Exists') {
      if (tolerationValue) {
        const dump = `core.Toleration{Key:${JSON.stringify(key)}, Operator:"Exists", Value:${JSON.stringify(tolerationValue)}, Effect:${JSON.stringify(effect)}, TolerationSeconds:${pointer(t.tolerationSeconds)}}`;
        found.push({ at: [...tAt, 'operator'], type: 'Invalid value', value: dump, raw: true, detail: "value must be empty when `operator` is 'Exists'", check: 'toleration', field: [...tAt, 'value'], depends: [[...tAt, 'value'], [...tAt, 'operator']] });
      }
    } else {
      found.push({ at: [...tAt, 'operator'], type: 'Unsupported value', value: operator, detail: 'supported values: "Equal", "Exists"', check: 'toleration' });
    }
    if (effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
      found.push({ at: [...tAt, 'effect'], type: 'Unsupported value', value: effect, detail: 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"', check: 'toleration' });
    }
  });
}

/** `validateTopologySpreadConstraints` of the pod spec's `topologySpreadConstraints` at `at` (see the file's comment). */
export function validateTopologySpreadConstraints(value: unknown, at: readonly string[], found: Found): void {
  list(value).forEach((c, i) => {
    if (!isMap(c)) return;
    const cAt = [...at, String(i)];
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : c.maxSkew === undefined || c.maxSkew === null ? 0 : undefined;
    if (maxSkew !== undefined && maxSkew <= 0) found.push({ at: [...cAt, 'maxSkew'], type: 'Invalid value', value: maxSkew, detail: 'must be greater than zero', check: 'topology-spread' });
    if (c.topologyKey === undefined || c.topologyKey === null || c.topologyKey === '') {
      found.push({ at: [...cAt, 'topologyKey'], type: 'Required value', detail: 'can not be empty', check: 'topology-spread' });
    }
    const action = typeof c.whenUnsatisfiable === 'string' ? c.whenUnsatisfiable : c.whenUnsatisfiable === undefined || c.whenUnsatisfiable === null ? '' : undefined;
    if (action !== undefined && action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') {
      found.push({ at: [...cAt, 'whenUnsatisfiable'], type: 'Unsupported value', value: action, detail: 'supported values: "DoNotSchedule", "ScheduleAnyway"', check: 'topology-spread' });
    }
    if (typeof c.minDomains === 'number') {
      const minAt = [...cAt, 'minDomains'];
      if (c.minDomains <= 0) found.push({ at: minAt, type: 'Invalid value', value: c.minDomains, detail: 'must be greater than zero', check: 'topology-spread' });
      if (action !== undefined && action !== 'DoNotSchedule') {
        found.push({ at: minAt, type: 'Invalid value', value: c.minDomains, detail: `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`, check: 'topology-spread', depends: [[...cAt, 'whenUnsatisfiable']] });
      }
    }
    validateSpreadConstraintSelector(c, cAt, found);
  });
}

/** `validateAffinity` of the pod spec's `affinity` at `at` (see the file's comment). */
export function validateAffinity(value: unknown, at: readonly string[], found: Found): void {
  if (!isMap(value)) return;
  const node = value.nodeAffinity;
  if (isMap(node)) {
    const nodeAt = [...at, 'nodeAffinity'];
    const required = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (isMap(required)) {
      const termsAt = [...nodeAt, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'];
      const terms = list(required.nodeSelectorTerms);
      if (terms.length === 0) found.push({ at: termsAt, type: 'Required value', detail: 'must have at least one node selector term', check: 'affinity' });
      terms.forEach((term, i) => nodeSelectorTerm(term, [...termsAt, String(i)], false, found));
    }
    list(node.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      if (!isMap(term)) return;
      const termAt = [...nodeAt, 'preferredDuringSchedulingIgnoredDuringExecution', String(i)];
      weight(term.weight, [...termAt, 'weight'], found);
      nodeSelectorTerm(term.preference, [...termAt, 'preference'], true, found);
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pod = value[kind];
    if (!isMap(pod)) continue;
    const podAt = [...at, kind];
    list(pod.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => podAffinityTerm(term, [...podAt, 'requiredDuringSchedulingIgnoredDuringExecution', String(i)], found));
    list(pod.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      if (!isMap(term)) return;
      const termAt = [...podAt, 'preferredDuringSchedulingIgnoredDuringExecution', String(i)];
      weight(term.weight, [...termAt, 'weight'], found);
      podAffinityTerm(term.podAffinityTerm, [...termAt, 'podAffinityTerm'], found);
    });
  }
}

/** A preferred term's weight: 1 to 100 (left out, it is 0). */
function weight(value: unknown, at: readonly string[], found: Found): void {
  const w = typeof value === 'number' ? value : value === undefined || value === null ? 0 : undefined;
  if (w !== undefined && (w <= 0 || w > 100)) found.push({ at, type: 'Invalid value', value: w, detail: 'must be in the range 1-100', check: 'affinity' });
}

/** `ValidateNodeSelectorTerm`: its label expressions and its field expressions. */
function nodeSelectorTerm(term: unknown, at: readonly string[], allowInvalidValues: boolean, found: Found): void {
  if (!isMap(term)) return;
  list(term.matchExpressions).forEach((rq, j) => {
    if (!isMap(rq)) return;
    const rqAt = [...at, 'matchExpressions', String(j)];
    const values = list(rq.values);
    const operator = str(rq.operator);
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) found.push({ at: [...rqAt, 'values'], type: 'Required value', detail: "must be specified when `operator` is 'In' or 'NotIn'", check: 'affinity', depends: [[...rqAt, 'operator']] });
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) found.push({ at: [...rqAt, 'values'], type: 'Forbidden', detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", check: 'affinity', depends: [[...rqAt, 'operator']] });
    } else if (operator === 'Gt' || operator === 'Lt') {
      if (values.length !== 1) found.push({ at: [...rqAt, 'values'], type: 'Required value', detail: "must be specified single value when `operator` is 'Lt' or 'Gt'", check: 'affinity', depends: [[...rqAt, 'operator']] });
    } else if (typeof rq.operator === 'string' || rq.operator === undefined || rq.operator === null) {
      found.push({ at: [...rqAt, 'operator'], type: 'Invalid value', value: operator, detail: 'not a valid selector operator', check: 'affinity' });
    }
    labelName(rq.key, [...rqAt, 'key'], 'affinity', found);
    if (!allowInvalidValues) {
      values.forEach((v, k) => {
        if (typeof v !== 'string') return;
        for (const msg of isValidLabelValue(v)) found.push({ at: [...rqAt, 'values', String(k)], type: 'Invalid value', value: v, detail: msg, check: 'affinity' });
      });
    }
  });
  list(term.matchFields).forEach((rq, j) => {
    if (!isMap(rq)) return;
    const rqAt = [...at, 'matchFields', String(j)];
    const operator = str(rq.operator);
    if (operator === 'In' || operator === 'NotIn') {
      if (list(rq.values).length !== 1) {
        found.push({ at: [...rqAt, 'values'], type: 'Required value', detail: "must be only one value when `operator` is 'In' or 'NotIn' for node field selector", check: 'affinity', depends: [[...rqAt, 'operator']] });
      }
    } else if (typeof rq.operator === 'string' || rq.operator === undefined || rq.operator === null) {
      found.push({ at: [...rqAt, 'operator'], type: 'Invalid value', value: operator, detail: 'not a valid selector operator', check: 'affinity' });
    }
    if (rq.key !== 'metadata.name' && (typeof rq.key === 'string' || rq.key === undefined || rq.key === null)) {
      found.push({ at: [...rqAt, 'key'], type: 'Invalid value', value: str(rq.key), detail: 'not a valid field selector key', check: 'affinity' });
    }
  });
}

/** `validatePodAffinityTerm`: its selectors and namespaces (`pod-spec-label-selectors.ts`), a topology key. */
function podAffinityTerm(term: unknown, at: readonly string[], found: Found): void {
  if (!isMap(term)) return;
  validatePodAffinityTermSelectors(term, at, found);
  const keyAt = [...at, 'topologyKey'];
  if (term.topologyKey === undefined || term.topologyKey === null || term.topologyKey === '') {
    found.push({ at: keyAt, type: 'Required value', detail: 'can not be empty', check: 'affinity' });
  }
  labelName(term.topologyKey, keyAt, 'affinity', found);
}
