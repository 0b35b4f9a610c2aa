import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * The label selectors of pod affinity terms and topology spread constraints, as the Kubernetes 1.30 API server
 * validates them.
 *
 * Provenance: k8s.io/apimachinery `pkg/apis/meta/v1/validation` (`ValidateLabelSelector`,
 * `ValidateLabelSelectorRequirement`, `ValidateLabels`, `ValidateLabelName`), kubernetes
 * `pkg/apis/core/validation/validation.go` (`ValidatePodAffinityTermSelector`, `validatePodAffinityTerm`,
 * `validateTopologySpreadConstraints`, `validateMatchLabelKeysInTopologySpread`, `validateNodeInclusionPolicy`) at the
 * commit `pod-spec-errors.ts` names. The cases are written here from them, not ported from validation_test.go.
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };
const VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const TERM = 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]';

function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, { at: ['spec'], isPod: true }).map(apiServerText);
}

function antiAffinity(term: Record<string, unknown>): Record<string, unknown> {
  return { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', ...term }] } } };
}

function spread(constraint: Record<string, unknown>): Record<string, unknown> {
  return { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', ...constraint }] };
}

describe('a pod affinity term: ValidatePodAffinityTermSelector', () => {
  test.each([
    ['In without values', { labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }, [
      `${TERM}.labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
    ]],
    ['Exists with values', { labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] } }, [
      `${TERM}.labelSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
    ]],
    ['a node operator (Gt) in a label selector', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Gt', values: ['1'] }] } }, [
      `${TERM}.labelSelector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator`,
    ]],
    ['a value that is no label value', { labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web app'] }] } }, [
      `${TERM}.labelSelector.matchExpressions[0].values[0]: Invalid value: "web app": ${VALUE}`,
    ]],
    ['a key that is no label key', { labelSelector: { matchExpressions: [{ key: 'app name', operator: 'Exists' }] } }, [
      `${TERM}.labelSelector.matchExpressions[0].key: Invalid value: "app name": ${NAME}`,
    ]],
    ['matchLabels of a bad key and a bad value, named by the map', { labelSelector: { matchLabels: { 'app name': 'web', 'tier': '-x' } } }, [
      `${TERM}.labelSelector.matchLabels: Invalid value: "app name": ${NAME}`,
      `${TERM}.labelSelector.matchLabels: Invalid value: "-x": ${VALUE}`,
    ]],
    ['a namespaceSelector too', { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'in', values: ['a'] }] } }, [
      `${TERM}.namespaceSelector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator`,
    ]],
    ['a namespace that is no DNS label, named `namespace`', { namespaces: ['shop', 'Shop'] }, [
      `${TERM}.namespace: Invalid value: "Shop": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]],
  ])('%s', (_name, term, expected) => {
    expect(errorsOf(antiAffinity(term))).toEqual(expected);
  });

  test('valid selectors pass, and matchLabelKeys and mismatchLabelKeys are not judged (their gate is off in 1.30: dropped)', () => {
    expect(errorsOf(antiAffinity({
      labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'web', 'empty': '' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }, { key: 'canary', operator: 'DoesNotExist' }] },
      namespaceSelector: {},
      namespaces: ['shop'],
      matchLabelKeys: ['Bad Key', 'app.kubernetes.io/name'],
      mismatchLabelKeys: ['Bad Key'],
    }))).toEqual([]);
  });
});

describe('a topology spread constraint', () => {
  test('its labelSelector as any selector', () => {
    expect(errorsOf(spread({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }))).toEqual([
      "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
  });

  test('matchLabelKeys: label keys, not in the labelSelector, and only beside one', () => {
    expect(errorsOf(spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash', 'app', 'bad key'] }))).toEqual([
      'spec.topologySpreadConstraints[0].matchLabelKeys[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
      `spec.topologySpreadConstraints[0].matchLabelKeys[2]: Invalid value: "bad key": ${NAME}`,
    ]);
    expect(errorsOf(spread({ matchLabelKeys: ['pod-template-hash'] }))).toEqual([
      'spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
    ]);
    expect(errorsOf(spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] }))).toEqual([]);
  });

  test('nodeAffinityPolicy and nodeTaintsPolicy: Honor or Ignore', () => {
    expect(errorsOf(spread({ nodeAffinityPolicy: 'honor', nodeTaintsPolicy: 'Skip' }))).toEqual([
      'spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "honor": supported values: "Honor", "Ignore"',
      'spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Skip": supported values: "Honor", "Ignore"',
    ]);
    expect(errorsOf(spread({ nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }))).toEqual([]);
  });
});

describe('the published schema takes what the rule refuses', () => {
  test('a Pod of bad selectors validates', () => {
    expect(() => new Pod({
      metadata: { name: 'p' },
      spec: {
        containers: [CONTAINER],
        ...antiAffinity({ labelSelector: { matchExpressions: [{ key: 'app name', operator: 'Gt', values: ['web app'] }] } }),
        ...spread({ matchLabelKeys: ['app'] }),
      },
    }).validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a spread constraint that selects by a value with a space is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [CONTAINER], ...spread({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web app'] }] } }) } },
      },
    });

    expect(podSpecFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.template.spec.topologySpreadConstraints[topologyKey=topology.kubernetes.io/zone,whenUnsatisfiable=DoNotSchedule].labelSelector.matchExpressions[0].values[0]' ("web app") of apps/Deployment shop/web declared by 'shop/Routing/Web' is no label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; the API server refuses it: spec.template.spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values[0]: Invalid value: "web app": ${VALUE}. Write a value a pod label can have.`,
    ]);
  });
});

describe('properties', () => {
  test('a selector value is refused exactly when it is no label value (the oracle: a regex and a length)', () => {
    const value = fc.stringMatching(/^[-a-zA-Z0-9._ ]{0,66}$/);
    fc.assert(fc.property(value, (v) => {
      const label = v.length <= 63 && (v === '' || /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(v));
      expect(errorsOf(spread({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: [v] }] } })).length === 0).toBe(label);
    }), { numRuns: 500 });
  });

  test('any JSON in a selector gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      expect(() => errorsOf(antiAffinity({ labelSelector: a, namespaceSelector: b, namespaces: a }))).not.toThrow();
      const constraint = { labelSelector: { matchLabels: a, matchExpressions: b }, matchLabelKeys: a, nodeAffinityPolicy: b };
      expect(() => errorsOf(spread(constraint))).not.toThrow();
    }), { numRuns: 300 });
  });
});
