import { DEDUCED_AND_NESTED_CASES } from './smd/cases/deduced-and-nested';
import { HARNESS_CASES } from './smd/cases/harness';
import { KEY_CASES } from './smd/cases/keys';
import { KUBERNETES_CASES } from './smd/cases/kubernetes';
import { MULTIPLE_APPLIERS_CASES } from './smd/cases/multiple-appliers';
import { SET_AND_LEAF_CASES } from './smd/cases/set-and-leaf';
import type { SmdTestCase } from './smd/cases/smd-test-case';
import type { SmdResult } from './smd/smd';
import { SmdUnavailableError } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';

/** Every case, each checked against its exact expectation; the ported ones prove the harness runs SMD faithfully. */
const CASES: readonly SmdTestCase[] = [
  ...MULTIPLE_APPLIERS_CASES,
  ...KEY_CASES,
  ...SET_AND_LEAF_CASES,
  ...DEDUCED_AND_NESTED_CASES,
  ...KUBERNETES_CASES,
  ...HARNESS_CASES,
];

/** The case as the oracle reads it, without our expectation and provenance. */
function toSmdCase({ name, schema, typeName, apiVersion, applies }: SmdTestCase): NamedSmdCase {
  return { name, schema, typeName, apiVersion, applies };
}

/** Cases on the oracle's output itself, run in the same batch as the others. */
const FIELDS_V1_CASE: NamedSmdCase = {
  name: 'oracle: a manager\'s set in the fieldsV1 form',
  typeName: 'io.k8s.api.apps.v1.Deployment',
  apiVersion: 'apps/v1',
  applies: [{ manager: 'team-a', object: { spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } } } }],
};
const UNKNOWN_TYPE_CASE: NamedSmdCase = { name: 'oracle: an unknown type', typeName: 'nope', applies: [] };
const AFTER_ERROR_CASE: NamedSmdCase = {
  name: 'oracle: a case after an error',
  typeName: 'io.k8s.api.core.v1.ConfigMap',
  applies: [{ manager: 'a', object: { data: { k: 'v' } } }],
};
const ORACLE_CASES = [FIELDS_V1_CASE, UNKNOWN_TYPE_CASE, AFTER_ERROR_CASE];

function sorted(record: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, [...v].sort()]));
}

function pick(result: SmdResult, key: 'fields' | 'leaves' | 'apiVersion'): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result.managers).map(([m, set]) => [m, set[key]]));
}

let results: SmdResult[] = [];
let oracleResults: SmdResult[] = [];

beforeAll(() => {
  // One oracle process for every case when Go is here (CI installs it: .ci/run), else the recorded vectors;
  // a case without a vector fails here with the command that records it.
  const all = smdVerdicts('harness', [...CASES.map(toSmdCase), ...ORACLE_CASES]);
  results = all.slice(0, CASES.length);
  oracleResults = all.slice(CASES.length);
});

describe('the structured-merge-diff oracle', () => {
  test('answers every case in order', () => {
    expect(results.map((r) => r.name)).toEqual(CASES.map((c) => c.name));
  });

  test('has at least 25 cases ported from structured-merge-diff, each naming its upstream test', () => {
    const ported = CASES.filter((c) => c.provenance.startsWith('kubernetes-sigs/structured-merge-diff@v4.1.2 '));
    expect(ported.length).toBeGreaterThanOrEqual(25);
    for (const c of ported) expect(c.provenance).toMatch(/ merge\/[a-z_]+_test\.go Test\w+\/\S+$/);
  });

  test('reports a manager\'s set in the managedFields fieldsV1 form', () => {
    const [result] = oracleResults;
    expect(result.managers['team-a']).toEqual({
      apiVersion: 'apps/v1',
      operation: 'apply',
      fieldsV1: {
        'f:spec': {
          'f:replicas': {},
          'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      },
      fields: ['.spec.replicas', '.spec.template.spec.containers[name="web"]', '.spec.template.spec.containers[name="web"].image', '.spec.template.spec.containers[name="web"].name'],
      leaves: ['.spec.replicas', '.spec.template.spec.containers[name="web"].image', '.spec.template.spec.containers[name="web"].name'],
    });
  });

  test('an error in one case leaves the cases after it running', () => {
    const out = oracleResults.slice(1);
    expect(out.map((r) => r.error)).toEqual(['type "nope" is not in the schema', undefined]);
    expect(out[1].managers.a.fields).toEqual(['.data.k']);
  });

  test('the unavailable error says how to install', () => {
    expect(new SmdUnavailableError('`go` is not on PATH').message).toBe(
      'structured-merge-diff oracle unavailable: `go` is not on PATH; install it with `bash test/smd/install.sh` (as root or with sudo; it installs the Debian packages golang-go and golang-k8s-sigs-structured-merge-diff-dev)',
    );
  });
});

describe.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', (_name, c, i) => {
  const result = (): SmdResult => results[i];
  const { expected } = c;

  test(expected.error ? 'fails with the expected error' : 'runs without error', () => {
    if (expected.error) expect(result().error).toMatch(expected.error);
    else expect(result().error).toBeUndefined();
  });
  if (expected.conflicts) {
    test('has the expected conflicts per write', () => {
      expect(result().applies.map((a) => a.conflicts)).toEqual(expected.conflicts);
    });
  }
  if (expected.fields) {
    test('leaves each manager the expected owned set', () => {
      expect(pick(result(), 'fields')).toEqual(sorted(expected.fields!));
    });
  }
  if (expected.leaves) {
    test('leaves each manager the expected owned leaves', () => {
      expect(pick(result(), 'leaves')).toEqual(sorted(expected.leaves!));
    });
  }
  if (expected.apiVersions) {
    test("records each manager's API version", () => {
      expect(pick(result(), 'apiVersion')).toEqual(expected.apiVersions);
    });
  }
  if (expected.object !== undefined) {
    test('ends with the expected object', () => {
      expect(result().object).toEqual(expected.object);
    });
  }
});
