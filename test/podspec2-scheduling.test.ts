import { ApiObject, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * Tolerations, topology spread constraints and affinity, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation_test.go` (the copy the index holds, and the
 * lines a verbatim port cites at 1467b588: `TestValidateTolerations` error cases "invalid toleration key", "invalid
 * toleration operator", "value must be empty when `operator` is 'Exists'", "operator must be 'Exists' when `key` is
 * empty", "effect must be 'NoExecute' when `TolerationSeconds` is set"; `TestValidateTopologySpreadConstraints`;
 * `TestValidateAffinity`'s node selector cases). The Go tests assert the error type and field; the texts are those of
 * validation.go at the commit `pod-spec-errors.ts` names (see `pod-spec-scheduling.ts`), with apimachinery v0.30.14's
 * messages. A struct the API server quotes with `%#v` (a toleration) prints a pointer field's address, known only in
 * the API server, as `0xc000000000`.
 */

afterAll(removeTempDirs);

const NOT_ROOT = { ensureNonRoot: false };

/** The errors of a Pod whose spec has one container and `spec`'s fields, named from the pod spec. */
function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [{ name: 'c', image: 'i' }], ...spec } }, { at: ['spec'], isPod: true }).map((e) => apiServerText(e).replace(/^spec\./, ''));
}

describe('TestValidateTolerations', () => {
  test.each([
    ['invalid toleration key', { key: 'nospecialchars^=@', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, [
      "tolerations[0].key: Invalid value: \"nospecialchars^=@\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['invalid toleration operator', { key: 'foo', operator: 'In', value: 'bar', effect: 'NoSchedule' }, [
      'tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
    ]],
    ['value must be empty when `operator` is \'Exists\'', { key: 'foo', operator: 'Exists', value: 'bar', effect: 'NoSchedule' }, [
      "tolerations[0].operator: Invalid value: core.Toleration{Key:\"foo\", Operator:\"Exists\", Value:\"bar\", Effect:\"NoSchedule\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'",
    ]],
    ['operator must be \'Exists\' when `key` is empty', { operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, [
      'tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ]],
    ['effect must be \'NoExecute\' when `TolerationSeconds` is set', { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 20 }, [
      "tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    ]],
    ['an effect that is no taint effect', { key: 'foo', operator: 'Exists', effect: 'NoScheduling' }, [
      'tolerations[0].effect: Unsupported value: "NoScheduling": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]],
    ['a value that is no label value, named at the operator', { key: 'foo', value: 'a b' }, [
      "tolerations[0].operator: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
  ])('%s', (_name, toleration, expected) => {
    expect(errorsOf({ tolerations: [toleration] })).toEqual(expected);
  });

  test('the success cases: populate forgiveness tolerations, an empty key with Exists, an empty operator and effect', () => {
    expect(errorsOf({
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { operator: 'Exists' },
        { key: 'foo', value: 'bar' },
        { key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' },
      ],
    })).toEqual([]);
  });
});

describe('TestValidateTopologySpreadConstraints', () => {
  const ok = { maxSkew: 1, topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule' };

  test.each([
    ['missing MaxSkew', { topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule' }, ['topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero']],
    ['invalid MaxSkew', { ...ok, maxSkew: -1 }, ['topologySpreadConstraints[0].maxSkew: Invalid value: -1: must be greater than zero']],
    ['missing TopologyKey', { maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }, ['topologySpreadConstraints[0].topologyKey: Required value: can not be empty']],
    ['missing scheduling mode', { maxSkew: 1, topologyKey: 'k8s.io/zone' }, ['topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"']],
    ['unsupported scheduling mode', { ...ok, whenUnsatisfiable: 'N/A' }, ['topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "N/A": supported values: "DoNotSchedule", "ScheduleAnyway"']],
    ['invalid MinDomains', { ...ok, minDomains: 0 }, ['topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero']],
    ['MinDomains with ScheduleAnyway', { ...ok, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 10 }, [
      'topologySpreadConstraints[0].minDomains: Invalid value: 10: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    ]],
  ])('%s', (_name, constraint, expected) => {
    expect(errorsOf({ topologySpreadConstraints: [constraint] })).toEqual(expected);
  });

  test('all required fields ok, and minDomains with DoNotSchedule', () => {
    expect(errorsOf({ topologySpreadConstraints: [ok, { ...ok, topologyKey: 'kubernetes.io/hostname', minDomains: 3 }] })).toEqual([]);
  });
});

describe('TestValidateAffinity: node selector requirements and weights', () => {
  const required = (matchExpressions: unknown[]) => ({
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } } },
  });
  const at = 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]';

  test.each([
    ['In without values', { key: 'zone', operator: 'In' }, [`${at}.values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`]],
    ['Exists with values', { key: 'zone', operator: 'Exists', values: ['a'] }, [`${at}.values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`]],
    ['Gt with two values', { key: 'cores', operator: 'Gt', values: ['1', '2'] }, [`${at}.values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`]],
    ['an operator of a label selector\'s case', { key: 'zone', operator: 'in', values: ['a'] }, [`${at}.operator: Invalid value: "in": not a valid selector operator`]],
    ['a value that is no label value (required terms only)', { key: 'zone', operator: 'In', values: ['eu west'] }, [
      `${at}.values[0]: Invalid value: "eu west": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]],
  ])('%s', (_name, rq, expected) => {
    expect(errorsOf(required([rq]))).toEqual(expected);
  });

  test('an empty required node affinity, a preferred term of weight 0, a pod affinity term without topologyKey', () => {
    expect(errorsOf({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu west'] }] } }],
        },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: '' }] },
      },
    })).toEqual([
      'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
      'affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      'affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      'affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
      "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  test('a node field selector: metadata.name with one value, nothing else', () => {
    const fields = (matchFields: unknown[]) => ({
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields }] } } },
    });
    expect(errorsOf(fields([{ key: 'metadata.name', operator: 'In', values: ['node-1'] }]))).toEqual([]);
    expect(errorsOf(fields([{ key: 'metadata.namespace', operator: 'In', values: ['a', 'b'] }]))).toEqual([
      "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
      'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key',
    ]);
  });
});

describe('in a synth', () => {
  test('a toleration with Exists and a value is refused, naming the toleration, the API server\'s text and the fix', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'web:1' }], tolerations: [{ key: 'dedicated', operator: 'Exists', value: 'gpu', effect: 'NoSchedule' }] },
        },
      },
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.tolerations[0].value' (\"gpu\") of apps/Deployment shop/web declared by 'shop/Routing/Web' is set in a toleration whose operator is Exists, which matches any value; the API server refuses it: spec.template.spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"dedicated\", Operator:\"Exists\", Value:\"gpu\", Effect:\"NoSchedule\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'. Drop the value, or write operator: 'Equal'.",
    ]);
  });

  test('what cdk8s-plus writes for tolerations, node attraction, colocation and separation passes', () => {
    const { app, chart } = routing();
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'web', image: 'web:1', securityContext: NOT_ROOT }] });
    const db = new kplus.Deployment(chart, 'Db', { metadata: { name: 'db', namespace: 'shop' }, containers: [{ name: 'db', image: 'db:1', securityContext: NOT_ROOT }] });
    web.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.is('dedicated', 'web', { effect: kplus.TaintEffect.NO_EXECUTE, evictAfter: Duration.minutes(5) }), kplus.NodeTaintQuery.any()));
    web.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('zone', 'eu-west-1a'), kplus.NodeLabelQuery.exists('ssd')));
    web.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.in('tier', ['a', 'b'])), { weight: 50 });
    web.scheduling.colocate(db);
    web.scheduling.separate(db, { weight: 10 });

    expect(podSpecFindings(app)).toEqual([]);
  });

  test('the published schema takes what the rule refuses', () => {
    const pod = new Pod({
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'c', image: 'i' }],
        tolerations: [{ key: 'foo', operator: 'Exists', value: 'bar' }],
        topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }] } } },
      },
    });
    expect(() => pod.validate()).not.toThrow();
  });
});

describe('properties', () => {
  const labelKey = fc.stringMatching(/^([a-z0-9]([-a-z0-9]{0,8}[a-z0-9])?\.)?[a-z0-9]([-a-z0-9]{0,8}[a-z0-9])?\/?[A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?$/)
    .filter((k) => !k.endsWith('/'));
  const labelValue = fc.stringMatching(/^([A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?)?$/);

  test('tolerations, spread constraints and node affinity made valid give no error', () => {
    const toleration = fc.oneof(
      fc.record({ key: labelKey, operator: fc.constant('Equal'), value: labelValue, effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', '') }),
      fc.record({ key: labelKey, operator: fc.constant('Exists'), effect: fc.constant('NoExecute'), tolerationSeconds: fc.nat() }),
      fc.constant({ operator: 'Exists' }),
    );
    const spread = fc.record({ maxSkew: fc.integer({ min: 1, max: 10 }), topologyKey: labelKey, whenUnsatisfiable: fc.constant('DoNotSchedule'), minDomains: fc.integer({ min: 1, max: 5 }) });
    const requirement = fc.oneof(
      fc.record({ key: labelKey, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(labelValue, { minLength: 1, maxLength: 3 }) }),
      fc.record({ key: labelKey, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
      fc.record({ key: labelKey, operator: fc.constantFrom('Gt', 'Lt'), values: fc.nat().map((n) => [String(n)]) }),
    );
    const requirements = fc.array(requirement, { minLength: 1, maxLength: 3 });
    fc.assert(fc.property(fc.array(toleration, { maxLength: 4 }), fc.array(spread, { maxLength: 3 }), requirements, fc.integer({ min: 1, max: 100 }),
      (tolerations, constraints, matchExpressions, w) => {
        expect(errorsOf({
          tolerations,
          topologySpreadConstraints: constraints,
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] },
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: w, preference: { matchExpressions } }],
            },
          },
        })).toEqual([]);
      }));
  });

  test('any JSON as tolerations, spread constraints or affinity gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (tolerations, constraints, affinity) => {
      expect(() => errorsOf({ tolerations, topologySpreadConstraints: constraints, affinity })).not.toThrow();
      const affinities = { nodeAffinity: affinity, podAffinity: affinity };
      const inside = { tolerations: [tolerations], topologySpreadConstraints: [constraints], affinity: affinities };
      expect(() => errorsOf(inside)).not.toThrow();
    }), { numRuns: 300 });
  });
});
