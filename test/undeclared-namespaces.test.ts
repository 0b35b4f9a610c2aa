import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Plan, Reference, RuntimeRouting } from '../src';
import { appOf, coded, lockedSeries, newSeries, nextRelease, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, configMap } from './util';
import { formatPlan, hasChanges } from '../src/cli/format-plan';
import { main } from '../src/cli/main';
import { readPlanFile } from '../src/cli/plan-file';

afterAll(removeReleaseDirs);

const FIX_SHOP =
  "declare it in the composition, new ApiObject(scope, id, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }); "
  + "or, when it exists outside the release, say so: Reference.external(scope, id, { apiVersion: 'v1', kind: 'Namespace', name: 'shop' })";

/** What says namespace shop exists, if anything: its Namespace object, or a Reference.external of it. */
type ShopNamespace = 'none' | 'declared' | 'external';

/** GIVEN-side builder: chart shop/Routing with Deployment shop/web and ConfigMap shop/settings. */
function shop(app: CapabilityApp, namespace: ShopNamespace): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  if (namespace === 'declared') new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  if (namespace === 'external') Reference.external(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', name: 'shop' });
  new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1.0' }] } } },
  });
  configMap(routing, 'Settings', 'settings', 'shop');
}

/** The plan of a first release built by `build`; fails when it is refused. */
function firstPlan(build: (app: CapabilityApp) => void): Plan {
  const app = appOf(newSeries());
  build(app);
  const { violations, plan } = app.synthesize();
  expect(coded(violations)).toEqual([]);
  return plan!;
}

/** The lines of the printed plan's note on namespaces, from its heading to the next blank line; empty when it has none. */
function noteLines(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const from = lines.findIndex((l) => l.startsWith('Namespaces the composition does not declare'));
  return from < 0 ? [] : lines.slice(from, lines.indexOf('', from));
}

describe('the plan notes a namespace that objects are in and nothing declares', () => {
  test('names the namespace, its objects and the fix, in the text and in plan.json', () => {
    const plan = firstPlan((app) => shop(app, 'none'));

    expect(noteLines(plan)).toEqual([
      'Namespaces the composition does not declare (applying fails in a cluster without them):',
      '  shop: 2 objects (apps/Deployment shop/web, ConfigMap shop/settings)',
      `      fix: ${FIX_SHOP}`,
    ]);
    expect(plan.undeclaredNamespaces).toEqual([{ namespace: 'shop', objects: 2, first: ['apps/Deployment shop/web', 'ConfigMap shop/settings'], fix: FIX_SHOP }]);
  });

  test('names the first three objects and counts the rest, one line per namespace by name', () => {
    const plan = firstPlan((app) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      for (const name of ['a', 'b', 'c', 'd', 'e']) configMap(routing, name, name, 'zeta');
      configMap(routing, 'One', 'one', 'alpha');
    });

    expect(noteLines(plan).filter((l) => !l.startsWith('      fix: '))).toEqual([
      'Namespaces the composition does not declare (applying fails in a cluster without them):',
      '  alpha: 1 object (ConfigMap alpha/one)',
      '  zeta: 5 objects (ConfigMap zeta/a, ConfigMap zeta/b, ConfigMap zeta/c and 2 more)',
    ]);
    expect(plan.undeclaredNamespaces!.map((n) => [n.namespace, n.objects, n.first.length])).toEqual([['alpha', 1, 1], ['zeta', 5, 3]]);
  });

  test.each<[string, (app: CapabilityApp) => void]>([
    ['its Namespace is declared', (app) => shop(app, 'declared')],
    ['a Reference.external says it exists', (app) => shop(app, 'external')],
    ['they are in default, kube-system, kube-public or kube-node-lease, or cluster-scoped', (app) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      configMap(routing, 'Bare', 'bare');
      ['default', 'kube-system', 'kube-public', 'kube-node-lease'].forEach((ns, i) => configMap(routing, `In${i}`, 'settings', ns));
      new ApiObject(routing, 'Reader', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] });
    }],
  ])('nothing is noted when %s', (_, build) => {
    const plan = firstPlan(build);

    expect(plan.undeclaredNamespaces).toBeUndefined();
    expect(noteLines(plan)).toEqual([]);
  });

  test('it is a note: a release with nothing else to change still exits 0, and plan --plan prints the note', () => {
    // GIVEN the lock of the same release, and its plan.json written by synth
    const series = lockedSeries(shop, 'none');
    const app = appOf(series);
    shop(app, 'none');
    withUpdateLock(undefined, () => app.synth());
    const file = path.join(app.outdir, 'plan.json');

    // WHEN the user prints it
    const { result, stdout } = capturingOutput(() => main(['plan', '--plan', file]));

    // THEN no change, and the note with its fix
    expect(nextRelease(series, shop, 'none').plan!.changes.changed).toEqual([]);
    expect(hasChanges(JSON.parse(fs.readFileSync(file, 'utf-8')))).toBe(false);
    expect(result).toBe(0);
    expect(stdout).toContain([
      '',
      'Namespaces the composition does not declare (applying fails in a cluster without them):',
      '  shop: 2 objects (apps/Deployment shop/web, ConfigMap shop/settings)',
      `      fix: ${FIX_SHOP}`,
      '',
    ].join('\n'));
    // AND plan.json is valid against its JSON Schema
    const read = readPlanFile(file);
    expect('problems' in read ? read.problems : []).toEqual([]);
  });

  test('docs/releases.md shows what the plan prints', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'releases.md'), 'utf-8');
    const section = doc.slice(doc.indexOf('### Namespaces the composition does not declare'));
    const shown = /```text\n([\s\S]*?)```/.exec(section)![1].trimEnd().split('\n');

    expect(shown).toEqual(noteLines(firstPlan((app) => shop(app, 'none'))));
  });
});
