import * as path from 'path';
import { inspect } from 'util';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, CompositionError, Plan, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { removeTempDirs, TEARDOWN_AFTER_APPLY, tempDir, thrownBy } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { formatTeardown } from '../src/cli/format-teardown';
import { terseFields } from '../src/cli/terse-fields';
import * as runtime from '../src/runtime';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

/** The plan of the next release `variant` against the lock of `previous`; fails when it is refused. */
function planOf<V>(build: (app: CapabilityApp, v: V) => void, previous: V, variant: V): Plan {
  const { violations, plan } = nextRelease(lockedSeries(build, previous), build, variant);
  expect(violations).toEqual([]);
  return plan!;
}

describe('a refusal logged with console.error (util.inspect) prints as its report, code first, without brackets', () => {
  test('the refusal synth throws', () => {
    // GIVEN a composition synth refuses
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new ApiObject(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Edge_Settings' } });
    const error = thrownBy(() => app.synth());
    expect(error).toBeInstanceOf(CompositionError);

    // WHEN inspected as console.error(error) does, THEN the report alone
    expect(inspect(error)).toBe(`CompositionError: ${(error as Error).message}`);
    expect(inspect(error)).toMatch(/^CompositionError: The composition was refused with 1 violation:\nCAP010 invalid object: /);
  });

  test('the refusal of a construct as it is created', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const error = thrownBy(() => new Capability(app, 'a b'));

    expect(inspect(error)).toBe(
      'CompositionError: The composition was refused with 1 violation:\n'
        + "CAP010 invalid object: Capability 'a b' has the id \"a b\", which no capability may have: a capability id is letters, digits, '-', '_' and '.', "
        + 'starting with a letter (the id aws-cdk takes for a Stage). Give it an id such as "a-b".',
    );
  });
});

describe('teardown', () => {
  /** A runtime-only capability (cdk-capability/runtime) with a ConfigMap per name. */
  const configMaps = (app: CapabilityApp, names: string[]) => {
    const routing = new runtime.RuntimeRouting(new runtime.Capability(app, 'web'), 'Routing');
    for (const n of names) new ApiObject(routing, n, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: 'web' } });
  };

  test('of a runtime-only release says nothing of stacks and CloudFormation', () => {
    // GIVEN a runtime-only release whose next release drops a ConfigMap
    const plan = planOf(configMaps, ['settings', 'limits'], ['settings']);

    // WHEN the teardown is printed, THEN its note ends with the runtime steps
    expect(formatTeardown(plan)).toBe([
      'Teardown: 1 to delete, in 1 step, in this order:',
      '',
      'After applying this release:',
      '  1. runtime ConfigMap web/limits',
      '       $ kubectl delete --wait=true --ignore-not-found --namespace web configmap/limits',
      '',
      'Kept: no stack; 1 object.',
      '',
      ...TEARDOWN_AFTER_APPLY,
      '',
    ].join('\n'));
  });
});

describe('a changed intrinsic function that reads the same on both sides', () => {
  test('shows the leaves inside it that differ, by their path in it', () => {
    // GIVEN an Fn::Join whose second part changed from AWS::Partition to AWS::Region
    const lines = terseFields([
      { path: 'Resources.P.Properties.Res["Fn::Join"][0]', before: '', after: '' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][1].Ref', before: 'AWS::Partition', after: 'AWS::Region' },
    ]);

    // THEN not "Fn::Join(...) -> Fn::Join(...)"
    expect(lines).toEqual([
      { sign: '~', path: 'Resources.P.Properties.Res', text: ': Fn::Join(...), changed at [1][1].Ref: "AWS::Partition" -> "AWS::Region"' },
    ]);
  });

  test('shows leaves added and removed inside it, and at most three, then how many more', () => {
    const lines = terseFields([
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][0]', before: 'a', after: 'b' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][1]', before: 'c', after: 'd' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][2]', before: 'e' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][3]', after: 'f' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][4]', after: 'g' },
    ]);

    expect(lines).toEqual([
      { sign: '~', path: 'Resources.P.Properties.Res', text: ': Fn::Join(...), changed at [1][0]: "a" -> "b"; [1][1]: "c" -> "d"; [1][2]: "e" -> (none) and 2 more' },
    ]);
  });

  test('a function that reads differently keeps its two sides', () => {
    expect(terseFields([{ path: 'Resources.P.Properties.Role.Ref', before: 'RoleA', after: 'RoleB' }])).toEqual([
      { sign: '~', path: 'Resources.P.Properties.Role', text: ': Ref(RoleA) -> Ref(RoleB)' },
    ]);
  });
});

describe('traffic when a backend version is removed', () => {
  /** Backend web with the versions given (blue, green), routed for tenant acme with their weights. */
  const blueGreen = (app: CapabilityApp, weights: Record<string, number>) => {
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing', { gateway: { name: 'edge', namespace: 'gateways' } });
    const versions = Object.fromEntries(Object.keys(weights).map((v) => [v, { image: `ghcr.io/example/web:${v}` }]));
    const web = routing.addVersionedBackend('Web', { port: 8080, namespace: 'shop', versions });
    routing.addTenantRoute('acme', web, { weights });
  };

  test('says the version was removed, where it was left out as a weight that did not move', () => {
    // GIVEN a release that shifted all traffic to blue (green at 0), and a next release without green
    const plan = planOf(blueGreen, { blue: 100, green: 0 }, { blue: 100 });

    // WHEN the plan is printed, THEN the route's line names green as removed
    expect(plan.changes.traffic).toEqual([{ route: 'gateway.networking.k8s.io/HTTPRoute shop/tenant-acme', before: { 'web-blue': 100, 'web-green': 0 }, after: { 'web-blue': 100 } }]);
    expect(formatPlan(plan)).toContain('\nTraffic:\n  ~ gateway.networking.k8s.io/HTTPRoute shop/tenant-acme: web-green 0 -> (removed)\n');
  });

  test('a version added says so, beside a weight that moves', () => {
    const plan = planOf(blueGreen, { blue: 100 }, { blue: 90, green: 10 });

    expect(formatPlan(plan)).toContain('\nTraffic:\n  ~ gateway.networking.k8s.io/HTTPRoute shop/tenant-acme: web-blue 100 -> 90, web-green (new) -> 10\n');
  });
});
