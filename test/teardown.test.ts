import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, DeploymentAggregate, Plan, RuntimeRouting, SharedBase } from '../src';
import { lockedSeries, nextRelease, releaseDir, removeReleaseDirs } from './release-fixtures';
import { configMap, WIDGET_CRD } from './util';
import { formatTeardown } from '../src/cli/format-teardown';
import { main } from '../src/cli/main';
import { DependencyGraph } from '../src/collect/graph/dependency-graph';
import { loadLock } from '../src/release/lock';
import { teardownOf } from '../src/render/teardown';

afterAll(removeReleaseDirs);

interface Variant {
  readonly crd: boolean;
  readonly widgets: string[];
  readonly tenants: string[];
  readonly base?: boolean;
}

/** GIVEN-side builder: capability cdn (region eu-west-1) with shared base cdn/Base, tenants, and chart cdn/Routing with Namespace shop, a ConfigMap, the Widget CRD and Widgets. */
function shop(app: CapabilityApp, v: Variant): void {
  const cdn = new Capability(app, 'cdn', { env: { region: 'eu-west-1' } });
  if (v.base ?? true) new SharedBase(cdn, 'Base');
  for (const t of v.tenants) new DeploymentAggregate(cdn, t);
  const routing = new RuntimeRouting(cdn, 'Routing');
  new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  configMap(routing, 'Settings', 'settings', 'shop');
  if (v.crd) new ApiObject(routing, 'WidgetCrd', structuredClone(WIDGET_CRD));
  for (const w of v.widgets) new ApiObject(routing, `Widget-${w}`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: w, namespace: 'shop' } });
}

const FULL: Variant = { crd: true, widgets: ['w1', 'w2'], tenants: ['acme', 'globex'] };

function planOf(v: Variant, previous: Variant = FULL): Plan {
  const series = lockedSeries(shop, previous);
  const { violations, plan } = nextRelease(series, shop, v);
  if (violations.length > 0 || !plan) throw new Error(`refused: ${violations.map((x) => x.message).join('\n')}`);
  return plan;
}

/** The teardown example of docs/ordering.md: the text between the markers. */
function documentedExample(): string {
  const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'ordering.md'), 'utf-8');
  const match = /<!-- teardown-example -->\n```text\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/ordering.md has no teardown example');
  return match[1];
}

describe('teardown: deleting what a release removes, in order', () => {
  test('a release that removes the CRD with its custom resources and a tenant deletes the custom resources, then the CRD, then the tenant stack', () => {
    // GIVEN the lock of cdn with Base, acme, globex, Namespace shop, ConfigMap settings, the Widget CRD and w1, w2
    // WHEN the next release drops the CRD, both Widgets and the tenant globex
    const plan = planOf({ crd: false, widgets: [], tenants: ['acme'] });

    // THEN custom resources first (reverse of creation inside the step), then the CRD, then the stack in its region; the rest is kept
    expect(plan.teardown).toEqual({
      steps: [
        {
          lifecycle: 'runtime',
          when: 'after-apply',
          units: ['example.com/Widget shop/w2', 'example.com/Widget shop/w1'],
          commands: ['kubectl delete --wait=true --ignore-not-found --namespace shop widget.example.com/w2 widget.example.com/w1'],
        },
        {
          lifecycle: 'runtime',
          when: 'after-apply',
          units: ['apiextensions.k8s.io/CustomResourceDefinition widgets.example.com'],
          commands: ['kubectl delete --wait=true --ignore-not-found customresourcedefinition.apiextensions.k8s.io/widgets.example.com'],
        },
        {
          lifecycle: 'deploy',
          when: 'after-apply',
          units: ['stack cdn/globex'],
          region: 'eu-west-1',
          commands: [
            'aws cloudformation delete-stack --stack-name cdn-globex --region eu-west-1',
            'aws cloudformation wait stack-delete-complete --stack-name cdn-globex --region eu-west-1',
          ],
        },
      ],
      kept: { stacks: ['stack cdn/Base', 'stack cdn/acme'], objects: 2 },
    });
  });

  test('docs/ordering.md shows exactly what `cdk-capability plan --teardown` prints for that release', () => {
    // GIVEN the plan of the release above, written to a file
    const plan = planOf({ crd: false, widgets: [], tenants: ['acme'] });
    const file = path.join(releaseDir(), 'plan.json');
    fs.writeFileSync(file, JSON.stringify(plan));

    // WHEN the command prints its teardown
    const chunks: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
    let code: number;
    try {
      code = main(['plan', '--teardown', '--plan', file]);
    } finally {
      out.mockRestore();
    }

    // THEN it exits 2 (something to delete, as every plan format), prints formatTeardown's text, and the docs show that text
    expect(code).toBe(2);
    expect(chunks.join('')).toBe(formatTeardown(plan));
    expect(documentedExample()).toBe(formatTeardown(plan));
  });

  test('removing the whole capability deletes contents before their Namespace, runtime before stacks, tenants before the base', () => {
    // GIVEN the full lock
    // WHEN the next release holds none of it (only another capability)
    const series = lockedSeries(shop, FULL);
    const app = new CapabilityApp({ outdir: path.join(series.dir, 'dist-other'), lockFile: series.lockFile });
    configMap(new RuntimeRouting(new Capability(app, 'other'), 'Routing'), 'X', 'x', 'elsewhere');
    const { plan, violations } = app.synthesize();
    expect(violations).toEqual([]);

    // THEN in deletion order
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['example.com/Widget shop/w2', 'example.com/Widget shop/w1', 'ConfigMap shop/settings'],
      ['apiextensions.k8s.io/CustomResourceDefinition widgets.example.com', 'Namespace shop'],
      ['stack cdn/globex'],
      ['stack cdn/acme'],
      ['stack cdn/Base'],
    ]);
    expect(plan!.teardown.kept).toEqual({ stacks: [], objects: 0 });
  });

  test('a release that removes nothing has an empty teardown, and says so', () => {
    // GIVEN the full lock, WHEN the same release is built again
    const plan = planOf(FULL);

    // THEN
    expect(plan.teardown.steps).toEqual([]);
    expect(formatTeardown(plan)).toBe('Teardown: nothing to delete (this release removes nothing from the lock).\n');
  });

  test('a release that removes nothing keeps every stack and object, and does not order the locked graph to find none to delete', () => {
    // GIVEN the full lock, and the locked graph's order watched
    const lock = loadLock(lockedSeries(shop, FULL).lockFile).lock!;
    const sort = jest.spyOn(DependencyGraph.prototype, 'sort');
    try {
      // WHEN the same release's teardown is made from it
      const teardown = teardownOf(lock, lock);

      // THEN every unit is kept, nothing is deleted, and the graph was never ordered
      expect(teardown).toEqual({
        steps: [],
        kept: { stacks: ['stack cdn/Base', 'stack cdn/acme', 'stack cdn/globex'], objects: lock.units.filter((u) => u.id.startsWith('object:')).length },
      });
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
  });

  test('a first release has nothing to tear down', () => {
    // GIVEN no lock
    const app = new CapabilityApp({ outdir: path.join(releaseDir(), 'dist'), lockFile: path.join(releaseDir(), 'none.lock.json') });
    shop(app, FULL);

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(plan!.teardown).toEqual({ steps: [], kept: { stacks: [], objects: 0 } });
    expect(formatTeardown(plan!)).toBe('Teardown: nothing to delete (first release: no lock file).\n');
  });
});

describe('teardown of objects that name no namespace', () => {
  /** ConfigMaps plain (no namespace) and pinned (default), a ClusterRole and ConfigMap edge/far; `keep` only ConfigMap kept. */
  function defaults(app: CapabilityApp, keep: boolean): void {
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    if (keep) {
      configMap(routing, 'Kept', 'kept', 'edge');
      return;
    }
    configMap(routing, 'Plain', 'plain');
    configMap(routing, 'Pinned', 'pinned', 'default');
    configMap(routing, 'Far', 'far', 'edge');
    new ApiObject(routing, 'Reader', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] });
  }

  test('deletes a namespaced object without a namespace in default, with the ones in default, where apply put it; a cluster-scoped one without', () => {
    // GIVEN the lock of that release
    const series = lockedSeries(defaults, false);

    // WHEN the next release removes all four
    const { plan, violations } = nextRelease(series, defaults, true);
    expect(violations).toEqual([]);

    // THEN the ConfigMaps of default are deleted with --namespace default, not in the namespace of kubectl's context
    expect(plan!.teardown.steps.flatMap((s) => s.commands)).toEqual([
      'kubectl delete --wait=true --ignore-not-found --namespace edge configmap/far',
      'kubectl delete --wait=true --ignore-not-found --namespace default configmap/pinned configmap/plain',
      'kubectl delete --wait=true --ignore-not-found clusterrole.rbac.authorization.k8s.io/reader',
    ]);
  });
});
