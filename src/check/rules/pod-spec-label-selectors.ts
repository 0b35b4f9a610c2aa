import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * The label selectors of a pod spec (a pod affinity term's `labelSelector` and `namespaceSelector`, a topology spread
 * constraint's `labelSelector`) as the Kubernetes 1.30 API server validates them, ported from k8s.io/apimachinery
 * v0.30.14 `pkg/apis/meta/v1/validation` (`ValidateLabelSelector`, `ValidateLabelSelectorRequirement`, `ValidateLabels`,
 * `ValidateLabelName`) and from kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts`
 * names (`ValidatePodAffinityTermSelector`, `validatePodAffinityTerm`'s namespaces,
 * `validateMatchLabelKeysInTopologySpread`, `validateNodeInclusionPolicy`). On create a selector's values must be label
 * values (`AllowInvalidLabelValueInSelector` and `AllowInvalidTopologySpreadConstraintLabelSelector` are false).
 *
 * Not refused: a pod affinity term's `matchLabelKeys` and `mismatchLabelKeys`, whatever they say: the
 * `MatchLabelKeysInPodAffinity` gate is alpha and off in 1.30, and the API server drops both fields before it validates
 * (a spread constraint's `matchLabelKeys`, of the `MatchLabelKeysInPodTopologySpread` gate, beta and on, is validated).
 */

type Found = PodSpecError[];

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `ValidateLabelSelector` of the selector at `at` (values must be label values). */
export function validateLabelSelector(selector: unknown, at: readonly string[], found: Found): void {
  if (!isMap(selector)) return;
  const labelsAt = [...at, 'matchLabels'];
  if (isMap(selector.matchLabels)) {
    for (const [key, value] of Object.entries(selector.matchLabels)) {
      // the API server names the map, not the key
      for (const msg of isQualifiedName(key)) found.push({ at: labelsAt, type: 'Invalid value', value: key, detail: msg, check: 'label-selector' });
      if (typeof value !== 'string') continue;
      for (const msg of isValidLabelValue(value)) found.push({ at: labelsAt, type: 'Invalid value', value, detail: msg, check: 'label-selector', field: [...labelsAt, key] });
    }
  }
  list(selector.matchExpressions).forEach((rq, i) => {
    if (!isMap(rq)) return;
    const rqAt = [...at, 'matchExpressions', String(i)];
    const values = list(rq.values);
    const operator = rq.operator === undefined || rq.operator === null ? '' : rq.operator;
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) found.push({ at: [...rqAt, 'values'], type: 'Required value', detail: "must be specified when `operator` is 'In' or 'NotIn'", check: 'label-selector', depends: [[...rqAt, 'operator']] });
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) found.push({ at: [...rqAt, 'values'], type: 'Forbidden', detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", check: 'label-selector', depends: [[...rqAt, 'operator']] });
    } else if (typeof operator === 'string') {
      found.push({ at: [...rqAt, 'operator'], type: 'Invalid value', value: operator, detail: 'not a valid selector operator', check: 'label-selector' });
    }
    const key = rq.key === undefined || rq.key === null ? '' : rq.key;
    if (typeof key === 'string') for (const msg of isQualifiedName(key)) found.push({ at: [...rqAt, 'key'], type: 'Invalid value', value: key, detail: msg, check: 'label-selector' });
    values.forEach((v, k) => {
      if (typeof v !== 'string') return;
      for (const msg of isValidLabelValue(v)) found.push({ at: [...rqAt, 'values', String(k)], type: 'Invalid value', value: v, detail: msg, check: 'label-selector' });
    });
  });
}

/** `ValidatePodAffinityTermSelector` and the term's `namespaces`, which the API server names `namespace`. */
export function validatePodAffinityTermSelectors(term: Record<string, unknown>, at: readonly string[], found: Found): void {
  validateLabelSelector(term.labelSelector, [...at, 'labelSelector'], found);
  validateLabelSelector(term.namespaceSelector, [...at, 'namespaceSelector'], found);
  list(term.namespaces).forEach((name, i) => {
    if (typeof name !== 'string') return;
    for (const msg of isDNS1123Label(name)) found.push({ at: [...at, 'namespace'], type: 'Invalid value', value: name, detail: msg, check: 'label-selector', field: [...at, 'namespaces', String(i)] });
  });
}

/** The node inclusion policies, `matchLabelKeys` and `labelSelector` of the spread constraint `c` at `at`. */
export function validateSpreadConstraintSelector(c: Record<string, unknown>, at: readonly string[], found: Found): void {
  for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
    const policy = c[f];
    if (typeof policy === 'string' && policy !== 'Honor' && policy !== 'Ignore') {
      found.push({ at: [...at, f], type: 'Unsupported value', value: policy, detail: 'supported values: "Honor", "Ignore"', check: 'topology-spread' });
    }
  }
  const keys = list(c.matchLabelKeys);
  if (keys.length > 0) {
    const keysAt = [...at, 'matchLabelKeys'];
    const selector = c.labelSelector;
    const selected = new Set<string>();
    if (isMap(selector)) {
      if (isMap(selector.matchLabels)) Object.keys(selector.matchLabels).forEach((k) => selected.add(k));
      list(selector.matchExpressions).forEach((rq) => { if (isMap(rq) && typeof rq.key === 'string') selected.add(rq.key); });
    } else if (selector === undefined || selector === null) {
      found.push({ at: keysAt, type: 'Forbidden', detail: 'must not be specified when labelSelector is not set', check: 'label-selector', depends: [[...at, 'labelSelector']] });
    }
    keys.forEach((key, i) => {
      if (typeof key !== 'string') return;
      const keyAt = [...keysAt, String(i)];
      for (const msg of isQualifiedName(key)) found.push({ at: keyAt, type: 'Invalid value', value: key, detail: msg, check: 'label-selector' });
      if (selected.has(key)) found.push({ at: keyAt, type: 'Invalid value', value: key, detail: 'exists in both matchLabelKeys and labelSelector', check: 'label-selector', depends: [[...at, 'labelSelector']] });
    });
  }
  validateLabelSelector(c.labelSelector, [...at, 'labelSelector'], found);
}

/** The summary and fix of a label selector's error. */
export function explainLabelSelector(e: PodSpecError): { summary: string; fix: string } {
  const d = e.detail ?? '';
  const last = e.at[e.at.length - 1];
  if (d.startsWith("must be specified when `operator` is 'In'")) return { summary: 'is missing or empty: In and NotIn compare the label with a list of values', fix: "Give values, or write operator: 'Exists'." };
  if (d.startsWith('may not be specified when')) return { summary: 'is set with Exists or DoesNotExist, which test only that the label is there', fix: "Drop the values, or write operator: 'In'." };
  if (d === 'not a valid selector operator') return { summary: 'must be "In", "NotIn", "Exists" or "DoesNotExist"', fix: 'Write one of them (case matters).' };
  if (d === 'must not be specified when labelSelector is not set') return { summary: 'is set on a spread constraint without a labelSelector', fix: 'Give the constraint the labelSelector of its pods, or drop matchLabelKeys.' };
  if (d === 'exists in both matchLabelKeys and labelSelector') return { summary: 'is a key the labelSelector selects on already', fix: 'Drop the key from matchLabelKeys or from the labelSelector.' };
  if (last === 'namespace') return { summary: 'is no namespace name (a DNS-1123 label)', fix: 'Write the name of a namespace, such as shop.' };
  if (last === 'matchLabels' && e.field === undefined) return { summary: `has the key ${JSON.stringify(e.value)}, which is no label key (a qualified name)`, fix: 'Write a label key, such as app or app.kubernetes.io/name.' };
  if (last === 'key' || e.at[e.at.length - 2] === 'matchLabelKeys') return { summary: 'is no label key (a qualified name: an optional DNS prefix and \'/\', then letters, digits, \'-\', \'_\' and \'.\')', fix: 'Write a label key, such as app or app.kubernetes.io/name.' };
  return { summary: 'is no label value: at most 63 letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit', fix: 'Write a value a pod label can have.' };
}
