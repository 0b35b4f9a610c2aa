import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, CapabilityTesting, RuntimeRouting } from '../src';
import { ViolationCode } from '../src/check/finding';
import { defineRule, RuleFinding } from '../src/check/rule';
import { overlappingWorkloads } from '../src/check/rules/overlapping-workloads';
import type { Facts, ObjectFact } from '../src/collect/facts';
import { describeIdentity, effectiveNamespace } from '../src/collect/object-identity';
import * as podSpec from '../src/collect/pod-spec';
import { podLabelsOf, selects } from '../src/collect/pod-spec';
import type { GeneratedNames } from '../src/private/names';

/** Two teams' capabilities routing in one namespace, each with a cdk8s-plus Deployment `Web` of its own name and a Service for it. */
function twoTeams(generatedNames?: GeneratedNames) {
  const app = new CapabilityApp();
  for (const team of ['alpha', 'beta']) {
    const routing = new RuntimeRouting(new Capability(app, team, generatedNames ? { generatedNames } : {}), 'Routing', { namespace: 'shared' });
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: `${team}-web` }, containers: [{ image: `ghcr.io/${team}/web:1`, portNumber: 8080 }] });
    web.exposeViaService({ name: `${team}-web` });
  }
  return app;
}

/** A Deployment of `namespace` with `selector` (matchLabels) and pods labelled `pods`. */
function deployment(routing: RuntimeRouting, id: string, namespace: string, selector: Record<string, unknown>, pods: Record<string, string>) {
  return new ApiObject(routing, id, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: id.toLowerCase(), namespace },
    spec: { selector, template: { metadata: { labels: pods }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  });
}

describe('two workloads whose selectors claim the same pods', () => {
  test('two capabilities of one structure in one namespace: cdk8s-plus generates one selector for both, CAP002 naming both and the fix', () => {
    // GIVEN the labels cdk8s-plus generates (the construct path below the capability)
    const result = CapabilityTesting.synth(twoTeams());

    // THEN
    expect(result.violations.map((v) => [v.code, v.message, v.paths])).toEqual([[
      'CAP002',
      "field conflict: 'alpha/Routing/Web' and 'beta/Routing/Web' both claim the pods of namespace shared: each selects the pods of the other (cdk8s.io/metadata.addr=Routing-Web-c84c2584), "
        + 'so their controllers fight over those pods and a Service of one sends traffic to both. '
        + "cdk8s generated the cdk8s.io/metadata.addr label from the construct path below the capability, which is the same in capabilities 'alpha' and 'beta': "
        + "set generatedNames: 'full-path' on the capabilities, or give the workloads different ids or labels of their own.",
      ['alpha/Routing/Web', 'beta/Routing/Web'],
    ]]);
  });

  test("with generatedNames: 'full-path' the labels differ and the composition is accepted", () => {
    const result = CapabilityTesting.synth(twoTeams('full-path'));
    expect(result.violations).toEqual([]);
    const selectors = result.runtimeObjects.filter((o) => o.kind === 'Deployment').map((o) => (o as any).spec.selector.matchLabels['cdk8s.io/metadata.addr']);
    expect(new Set(selectors).size).toBe(2);
  });

  test('a selector that matches the pods of another workload, one way, is CAP002 naming which selects which', () => {
    // GIVEN web selects app=web, and canary's pods carry app=web too
    const app = new CapabilityApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    deployment(routing, 'Web', 'shop', { matchLabels: { app: 'web' } }, { app: 'web', track: 'stable' });
    deployment(routing, 'Canary', 'shop', { matchLabels: { app: 'web', track: 'canary' } }, { app: 'web', track: 'canary' });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      "field conflict: 'shop/Routing/Web' and 'shop/Routing/Canary' both claim the pods of namespace shop: apps/Deployment shop/web selects the pods of apps/Deployment shop/canary (app=web), "
        + 'so their controllers fight over those pods and a Service of one sends traffic to both. Give each workload labels and a selector of its own.',
    ]);
  });

  test('blue and green selecting by version, other namespaces, and selectors with matchExpressions are accepted', () => {
    const app = new CapabilityApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    deployment(routing, 'Blue', 'shop', { matchLabels: { app: 'web', version: 'blue' } }, { app: 'web', version: 'blue' });
    deployment(routing, 'Green', 'shop', { matchLabels: { app: 'web', version: 'green' } }, { app: 'web', version: 'green' });
    deployment(routing, 'Other', 'lab', { matchLabels: { app: 'web', version: 'blue' } }, { app: 'web', version: 'blue' });
    deployment(routing, 'Expr', 'shop', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'version', operator: 'In', values: ['red'] }] }, { app: 'web', version: 'red' });
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});

/** The rule as it was before it indexed the pods' labels: every pair of one namespace's workloads compared. The oracle of the property below. */
function pairwiseOverlaps(objects: readonly ObjectFact[]): RuleFinding[] {
  const ADDR = 'cdk8s.io/metadata.addr';
  const controllers = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', '/ReplicationController']);
  type Selecting = { object: ObjectFact; namespace: string; selector: Record<string, string>; pods: Record<string, string> };
  const isLabels = (x: unknown): x is Record<string, string> =>
    typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string');
  const selecting = (object: ObjectFact): Selecting | undefined => {
    if (object.duplicateOf !== undefined) return undefined;
    const { group, kind } = object.identity;
    if (!controllers.has(`${group}/${kind}`)) return undefined;
    const namespace = effectiveNamespace(object.identity);
    const spec = object.manifest?.spec;
    const selector: unknown = kind === 'ReplicationController' ? spec?.selector : spec?.selector?.matchExpressions === undefined ? spec?.selector?.matchLabels : undefined;
    const pods = podLabelsOf(group, kind, object.manifest);
    if (namespace === undefined || !isLabels(selector) || Object.keys(selector).length === 0 || !pods) return undefined;
    return { object, namespace, selector, pods };
  };
  const capabilitiesOf = (a: Selecting, b: Selecting) => {
    const [x, y] = [a.object.capability, b.object.capability];
    if (x === undefined || y === undefined) return 'both';
    return x === y ? `capability '${x}'` : `capabilities '${x}' and '${y}'`;
  };
  const byNamespace = new Map<string, Selecting[]>();
  for (const object of objects) {
    const w = selecting(object);
    if (w) byNamespace.set(w.namespace, [...(byNamespace.get(w.namespace) ?? []), w]);
  }
  const found: RuleFinding[] = [];
  for (const workloads of byNamespace.values()) {
    for (let i = 0; i < workloads.length; i++) {
      for (let j = i + 1; j < workloads.length; j++) {
        const [a, b] = [workloads[i], workloads[j]];
        const aTakesB = selects(a.selector, b.pods);
        const bTakesA = selects(b.selector, a.pods);
        if (!aTakesB && !bTakesA) continue;
        const labels = Object.entries(aTakesB ? a.selector : b.selector).map(([k, v]) => `${k}=${v}`).join(', ');
        const which = aTakesB && bTakesA
          ? `each selects the pods of the other (${labels})`
          : `${describeIdentity((aTakesB ? a : b).object.identity)} selects the pods of ${describeIdentity((aTakesB ? b : a).object.identity)} (${labels})`;
        const fix = ADDR in a.selector || ADDR in b.selector
          ? `cdk8s generated the ${ADDR} label from the construct path below the capability, which is the same in ${capabilitiesOf(a, b)}: `
            + "set generatedNames: 'full-path' on the capabilities, or give the workloads different ids or labels of their own."
          : 'Give each workload labels and a selector of its own.';
        found.push({
          message: `'${a.object.declarer}' and '${b.object.declarer}' both claim the pods of namespace ${a.namespace}: ${which}, so their controllers fight over those pods and a Service of one sends traffic to both. ${fix}`,
          paths: [a.object.declarer, b.object.declarer],
        });
      }
    }
  }
  return found;
}

/** The oracle as a rule of the same code and title, so its findings are made as the rule's are. */
const pairwise = defineRule({ code: ViolationCode.FIELD_CONFLICT, title: 'overlapping workloads', explanation: '', run: ({ facts }) => pairwiseOverlaps(facts.objects) });

/** The facts the rule reads: only `objects`. */
const factsOf = (objects: readonly ObjectFact[]) => ({ facts: { objects } as unknown as Facts, claims: [] });

describe('overlapping workloads found through an index of pod labels', () => {
  // a few label sets that pods share and selectors are taken from, so that selectors often match other workloads' pods
  const key = fc.constantFrom('app', 'track', 'tier', 'cdk8s.io/metadata.addr', 'constructor', 'toString', '__proto__', 'length', '0');
  const value = fc.constantFrom('web', 'api', 'canary', 'x');
  const labelSet = fc.dictionary(key, value, { minKeys: 1, maxKeys: 3, noNullPrototype: false });
  // some labels of a set (a selector taken from it), and a set's labels as own properties no enumeration shows
  const pick = (labels: Record<string, string>, keep: readonly boolean[]) => Object.fromEntries(Object.entries(labels).filter((_, k) => keep[k]));
  const hidden = (labels: Record<string, string>) =>
    Object.defineProperties({}, Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, { value: v, enumerable: false }])));
  const some = fc.array(fc.boolean(), { minLength: 3, maxLength: 3 });
  const oneMore = fc.option(fc.tuple(key, value).map((label) => [label]));
  const mixedValues = fc.dictionary(key, fc.oneof(value, fc.integer(), fc.constant(null)), { maxKeys: 3 });
  const workload = (pool: ReadonlyArray<Record<string, string>>) => fc.record({
    kind: fc.constantFrom('apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', '/ReplicationController', 'batch/Job', '/Pod', 'apps/ReplicationController'),
    namespace: fc.constantFrom('shop', 'lab', '', 'default', undefined),
    capability: fc.constantFrom('alpha', 'beta', undefined),
    // the selector: some of the labels of one set of the pool, or something else
    selector: fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fc.nat(pool.length - 1), some).map(([q, keep]) => pick(pool[q], keep)) },
      { weight: 1, arbitrary: fc.dictionary(key, fc.oneof(value, fc.integer()), { maxKeys: 2 }) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'app=web', ['web']) },
    ),
    selectorShape: fc.constantFrom('matchLabels', 'matchLabels', 'matchLabels', 'with matchExpressions'),
    // the pods' labels: one set of the pool, maybe with one label more, or something that is no plain map of strings
    pods: fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fc.nat(pool.length - 1), oneMore).map(([p, more]) => ({ ...pool[p], ...Object.fromEntries(more ?? []) })) },
      { weight: 1, arbitrary: fc.nat(pool.length - 1).map((p) => Object.create(pool[p])) },
      { weight: 1, arbitrary: fc.nat(pool.length - 1).map((p) => hidden(pool[p])) },
      { weight: 1, arbitrary: fc.oneof(fc.array(value, { maxLength: 3 }), fc.constantFrom('web', 'x'), mixedValues) },
    ),
  });
  // a ReplicationController's selector is the labels map itself
  const selectorOf = (kind: string, labels: unknown, shape: string) => {
    if (kind === 'ReplicationController') return labels;
    return shape === 'matchLabels' ? { matchLabels: labels } : { matchLabels: labels, matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] };
  };
  const composition = fc.array(labelSet, { minLength: 1, maxLength: 4 }).chain((pool) => fc.array(workload(pool), { maxLength: 40, size: 'max' }));

  test('many workloads of several namespaces give exactly the findings of every pair compared, in the same order', () => {
    let withOverlaps = 0;
    fc.assert(
      fc.property(composition, fc.array(fc.nat(39), { maxLength: 3 }), (workloads, duplicates) => {
        const objects: ObjectFact[] = workloads.map((w, i) => {
          const [group, kind] = w.kind.split('/');
          const identity = { group, kind, namespace: w.namespace, name: `w${i}` };
          const manifest = {
            apiVersion: group ? `${group}/v1` : 'v1',
            kind,
            metadata: { name: `w${i}`, labels: w.pods },
            spec: { selector: selectorOf(kind, w.selector, w.selectorShape), template: { metadata: { labels: w.pods }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
          };
          const duplicateOf = duplicates.includes(i) && i > 0 ? 0 : undefined;
          return { path: `app/W${i}/Resource`, declarer: `app/W${i}`, chart: 'app', capability: w.capability, identity, key: `${w.kind}/${w.namespace}/w${i}`, manifest, duplicateOf };
        });
        const found = overlappingWorkloads.run(factsOf(objects));
        expect(found).toEqual(pairwise.run(factsOf(objects)));
        if (found.length > 0) withOverlaps++;
      }),
      { numRuns: 400 },
    );
    // and the property was not vacuous: most compositions had overlaps
    expect(withOverlaps).toBeGreaterThan(100);
  });

  test('2,000 Deployments of one namespace with selectors of their own, two of them overlapping: each compared with the few that share its labels, not with all', () => {
    // GIVEN cdk8s-plus' shape: app=web on every pod, and an address label per workload (w7 and w8 share one)
    const objects = Array.from({ length: 2000 }, (_, i): ObjectFact => {
      const selector = { 'app': 'web', 'cdk8s.io/metadata.addr': i === 8 ? 'w7' : `w${i}` };
      return {
        path: `app/W${i}/Resource`,
        declarer: `app/W${i}`,
        chart: 'app',
        capability: 'alpha',
        key: `apps/Deployment/shop/w${i}`,
        identity: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: `w${i}` },
        manifest: { spec: { selector: { matchLabels: selector }, template: { metadata: { labels: { ...selector } }, spec: { containers: [] } } } },
      };
    });
    const compared = jest.spyOn(podSpec, 'selects');
    try {
      // WHEN
      const found = overlappingWorkloads.run(factsOf(objects));

      // THEN the one pair, found with about two comparisons per workload (every pair would be 1,999,000)
      expect(found.map((f) => f.paths)).toEqual([['app/W7', 'app/W8']]);
      expect(compared.mock.calls.length).toBeLessThanOrEqual(2 * objects.length + 2);
    } finally {
      compared.mockRestore();
    }
  });
});
