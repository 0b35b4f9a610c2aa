/**
 * switch2: `plan --teardown` of a release that switched GitOps engines names what the previous engine's output left
 * in the cluster (Flux Kustomizations, the Argo CD Application), with the plan's own lines and commands, in its text
 * and in its JSON (docs/teardown-output.schema.json), and exits 2: there is something to remove.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { schemaErrors } from './cifail-cli';
import { coded, newSeries, releaseDir, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { formatPlan } from '../src/cli/format-plan';
import { formatTeardown, formatTeardownJson } from '../src/cli/format-teardown';
import { main } from '../src/cli/main';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

const FLUX = GitOps.flux({ sourceRef: { name: 'platform' } });
const HEADING = 'GitOps (what the previous release\'s GitOps output left in the cluster, which this release does not make again and nothing deletes):';

/** The plans of a series of releases of the shop (a chart per tenant's ConfigMap), each against the lock of the one before. */
function plans(releases: ReadonlyArray<{ gitops?: GitOps; tenants: string[] }>): Plan[] {
  const s = newSeries();
  let n = 0;
  return releases.map((r) => {
    const app = new CapabilityApp({ outdir: path.join(s.dir, `dist-${++n}`), lockFile: s.lockFile, ...(r.gitops ? { gitops: r.gitops } : {}) });
    const shop = new Capability(app, 'shop');
    for (const t of r.tenants) {
      new ApiObject(new RuntimeRouting(shop, `Routing-${t}`), `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'default' }, data: { tenant: t } });
    }
    const { violations, plan } = app.synthesize();
    expect(coded(violations)).toEqual([]);
    capturingOutput(() => withUpdateLock('1', () => app.synth()));
    return plan!;
  });
}

/** `cdk-capability plan --teardown [--json] --plan <file>` of a plan: its exit code and what it printed. */
function teardownCommand(plan: Plan, extra: string[] = []): { code: number; stdout: string } {
  const file = path.join(releaseDir(), 'plan.json');
  fs.writeFileSync(file, JSON.stringify(plan));
  const run = capturingOutput(() => main(['plan', '--teardown', ...extra, '--plan', file]));
  return { code: run.result, stdout: run.stdout };
}

/** The plan's GitOps section: from its heading to the next blank line. */
function planSection(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const at = lines.indexOf(HEADING);
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at, end < 0 ? undefined : end);
}

describe('Flux -> Argo CD, nothing removed from the lock', () => {
  let plan: Plan;
  beforeAll(() => {
    [, plan] = plans([{ gitops: FLUX, tenants: ['acme', 'globex'] }, { gitops: GitOps.argoCd(), tenants: ['acme', 'globex'] }]);
  });

  test('the text says nothing is deleted, then names the Flux Kustomizations left, with the plan\'s lines and commands', () => {
    const lines = formatTeardown(plan).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Teardown: nothing to delete (this release removes nothing from the lock).',
      '',
      HEADING,
      '  ~ engine: Flux -> Argo CD',
      '  - Flux Kustomizations in flux-system: shop-routing-acme, shop-routing-globex',
    ]);
    expect(lines[5]).toContain('Once Argo CD has synced this release, remove them: for k in shop-routing-acme shop-routing-globex; do flux suspend kustomization "$k" -n flux-system; done '
      + '&& kubectl delete kustomizations.kustomize.toolkit.fluxcd.io -n flux-system shop-routing-acme shop-routing-globex; ');
    expect(lines[5]).toContain('kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list');
    expect(lines.slice(2, -1)).toEqual(planSection(plan));
    expect(lines).toHaveLength(7);
  });

  test('plan --teardown exits 2 (something to remove) and prints that text', () => {
    expect(teardownCommand(plan)).toEqual({ code: 2, stdout: formatTeardown(plan) });
  });

  test('the JSON holds the plan\'s changes.gitops and its lines as notes, valid against docs/teardown-output.schema.json', () => {
    const document = JSON.parse(formatTeardownJson(plan));
    expect(document.summary).toEqual({ delete: 0, steps: 0 });
    expect(document.gitops).toEqual({
      before: { engine: 'flux', namespace: 'flux-system', kustomizations: ['shop-routing-acme', 'shop-routing-globex'], prune: true, objects: { 'shop-routing-acme': ['ConfigMap default/cfg-acme'], 'shop-routing-globex': ['ConfigMap default/cfg-globex'] }, dependsOn: { 'shop-routing-acme': [], 'shop-routing-globex': [] } },
      after: { engine: 'argocd' },
      kustomizations: ['shop-routing-acme', 'shop-routing-globex'],
      notes: planSection(plan).slice(1).map((l) => l.slice(2)),
    });
    expect(schemaErrors('teardown-output.schema.json', document)).toEqual([]);
    const command = teardownCommand(plan, ['--json']);
    expect(command.code).toBe(2);
    expect(JSON.parse(command.stdout)).toEqual(document);
  });
});

describe('Argo CD -> Flux, a tenant removed', () => {
  let plan: Plan;
  beforeAll(() => {
    [, plan] = plans([{ gitops: GitOps.argoCd(), tenants: ['acme', 'globex'] }, { gitops: FLUX, tenants: ['acme'] }]);
  });

  test('the steps come first, then the Argo CD Application left, with the command that deletes it without cascading', () => {
    const text = formatTeardown(plan);
    expect(text).toMatch(/^Teardown: 1 to delete, in 1 step, in this order:\n/);
    const lines = text.split('\n');
    const at = lines.indexOf(HEADING);
    expect(lines[at - 1]).toBe('');
    expect(lines[at + 1]).toBe('  ~ engine: Argo CD -> Flux');
    expect(lines[at + 2]).toContain('Once Flux has applied this release, delete it without cascading: argocd app delete <application> --cascade=false, or '
      + 'kubectl patch application <application> -n argocd --type merge -p \'{"metadata":{"finalizers":null}}\' && kubectl delete application <application> -n argocd. ');
    expect(lines.slice(at, -1)).toEqual(planSection(plan));
    const document = JSON.parse(formatTeardownJson(plan));
    expect(document.gitops.notes).toEqual(lines.slice(at + 1, -1).map((l) => l.slice(2)));
    expect(schemaErrors('teardown-output.schema.json', document)).toEqual([]);
  });
});

test('without an engine switch the teardown has no GitOps section and its JSON no gitops: nothing to remove exits 0', () => {
  const [, plan] = plans([{ gitops: FLUX, tenants: ['acme'] }, { gitops: FLUX, tenants: ['acme'] }]);
  expect(formatTeardown(plan)).toBe('Teardown: nothing to delete (this release removes nothing from the lock).\n');
  expect(JSON.parse(formatTeardownJson(plan)).gitops).toBeUndefined();
  expect(teardownCommand(plan).code).toBe(0);
});
