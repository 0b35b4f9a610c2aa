// What the policies cost the API server: every expression's estimate (./cel-cost.ts, the API
// server's cost model) for the objects of the benchmark's runtime scenarios, printed, and kept under
// the per-expression limit and the per-policy budget.
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { estimate, PER_CALL_LIMIT, policyCost, RUNTIME_COST_BUDGET, SizeModel } from './cel-cost';
import { DEPLOYER, seedApp } from './fixtures';
import { runtimeShapes } from '../../bench/scenarios/runtime-shapes';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting } from '../../src';
import { apiGroup } from '../../src/collect/object-identity';
import { guessResource } from '../../src/collect/resource-names';
import { CrdTopologies } from '../../src/collect/topology/crd-topology';
import { topologyOf } from '../../src/collect/topology/field-topology';

describe('the cost model, on the API server\'s own cases', () => {
  // kubernetes/apiserver pkg/admission/plugin/cel/condition_test.go TestRuntimeCELCostBudget at 24a394e51:
  // "test RuntimeCELCostBudge exactly covers" (budget 6 for the first two), "Extended library cost: join" (7);
  // and "expression exceed RuntimeCELCostBudget at last expression" (over 5 for the third and second together).
  const endpoints = topologyOf('v1', 'Endpoints');
  const sizes: SizeModel = { list: 1, map: 3, string: 10 };
  test.each([
    ['oldObject != null', 2],
    ['object.subsets.size() > 2', 4],
    ['has(object.subsets) && object.subsets.size() < 2', 5],
    ['true', 0],
    ["size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0", 7],
  ])('%s costs at most %d', (expression, cost) => {
    expect(estimate(expression, { topology: endpoints, sizes, variables: new Map() }).cost).toBe(cost);
  });
});

/** The sizes of the largest values among some manifests: list length, map entries, string length. */
function sizesOf(manifests: readonly any[]): SizeModel {
  let list = 1;
  let map = 1;
  let string = 1;
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      list = Math.max(list, v.length);
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      map = Math.max(map, entries.length);
      for (const [k, x] of entries) {
        string = Math.max(string, [...k].length);
        walk(x);
      }
    } else if (typeof v === 'string') {
      string = Math.max(string, [...v].length);
    }
  };
  manifests.forEach(walk);
  return { list, map, string };
}

/** The benchmark's runtime scenario at a size, with `enforce`: its objects and policies. */
function scenario(name: string, size: number): { objects: any[]; policies: any[] } {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const capability = new Capability(app, 'bench');
  runtimeShapes[name](
    {
      chart: (id: string) => new RuntimeRouting(capability, id),
      contribute: (writer: Construct, id: string, target: ApiObject, fields: Record<string, unknown>) =>
        new Contribution(writer, id, { target, fields }),
      writeThrough: (writer: Construct, id: string, target: ApiObject, write: (t: ApiObject) => void) =>
        new Contribution(writer, id, { target, write }),
    },
    size,
  );
  const result = CapabilityTesting.synth(app);
  expect(result.violations).toEqual([]);
  const policies = result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
  return { objects: result.runtimeObjects.filter((o) => !policies.includes(o)), policies };
}

/** Each policy with the objects it protects (by group and resource), its sizes and its estimated cost. */
function costs(objects: readonly any[], policies: readonly any[]) {
  const crds = CrdTopologies.fromManifests(objects);
  return policies
    .filter((p) => p.kind === 'ValidatingAdmissionPolicy')
    .map((p) => {
      const rule = p.spec.matchConstraints.resourceRules[0];
      const protectedObjects = objects.filter((o) => apiGroup(o.apiVersion) === rule.apiGroups[0] && guessResource(o.kind) === rule.resources[0]);
      const sizes = sizesOf(protectedObjects);
      return { name: p.metadata.name, sizes, cost: policyCost(p, topologyOf(protectedObjects[0].apiVersion, protectedObjects[0].kind, crds), sizes) };
    });
}

// The benchmark's scenarios (bench/suite.ts) at the size where their objects are largest: `charts`
// and `refs` objects do not grow with the size, `contributions` is one ConfigMap with `size` keys
// (1,000 at most), `writers` ConfigMaps with 12 keys.
describe.each([
  ['charts', 100],
  ['refs', 400],
  ['contributions', 1000],
  ['writers', 1000],
])('the %s scenario at %d', (name, size) => {
  test('every expression of every policy is under the per-expression limit, every policy under the per-request budget', () => {
    // GIVEN
    const { objects, policies } = scenario(name, size);

    // WHEN
    const report = costs(objects, policies);

    // THEN
    const lines = report.map((r) => `${r.name} (lists <= ${r.sizes.list}, maps <= ${r.sizes.map}, strings <= ${r.sizes.string}): ` +
      `${r.cost.expressions.length} expressions, most ${r.cost.maxPerExpression} each (limit ${PER_CALL_LIMIT}), ${r.cost.total} per request (budget ${RUNTIME_COST_BUDGET})`);
    process.stdout.write(`CEL cost, ${name} at ${size}:\n  ${lines.join('\n  ')}\n`);
    expect(report.length).toBeGreaterThan(0);
    for (const r of report) {
      expect(r.cost.maxPerExpression).toBeLessThan(PER_CALL_LIMIT);
      expect(r.cost.total).toBeLessThan(RUNTIME_COST_BUDGET);
    }
  });
});

test('the seed policy stays far under the limits on objects much larger than it declares: every expression and its estimate, printed', () => {
  // GIVEN the seed composition, and objects far larger than it declares: lists of 100, maps of 100, strings of 1,000
  const objects = CapabilityTesting.synth(seedApp().app).runtimeObjects;
  const policy = objects.find((p) => p.metadata.name === 'platform.field-owners.applicationdeployments.apps.example.com' && p.kind === 'ValidatingAdmissionPolicy');
  const topology = topologyOf('apps.example.com/v1', 'ApplicationDeployment', CrdTopologies.fromManifests(objects));

  // WHEN
  const cost = policyCost(policy, topology, { list: 100, map: 100, string: 1000 });

  // THEN
  process.stdout.write(`CEL cost of ${policy.metadata.name}:\n  ${cost.expressions.map((e) => `${e.what}: ${e.cost}`).join('\n  ')}\n  total ${cost.total}\n`);
  expect(cost.maxPerExpression).toBeLessThan(PER_CALL_LIMIT / 10);
  expect(cost.total).toBeLessThan(RUNTIME_COST_BUDGET / 100);
});
