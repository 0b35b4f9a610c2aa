import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, CapabilityTesting, RuntimeRouting } from '../src';
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
