/**
 * Helm's kind sorter, ported where test/kind-order.test.ts does not already have it: the case runs through a
 * synth (install: plan.json, runtime/ with its kustomization.yaml, gitops/flux/, gitops/argocd/ and the commands of
 * `cdk-capability apply`) and a teardown (uninstall), not through the kind table alone.
 *
 * Source: helm/helm at commit e9b85e4de16ad45805843fb121748018cf89094b, file pkg/release/v1/util/kind_sorter_test.go
 * (internal/release/v2/util/kind_sorter_test.go has the same cases), the order of pkg/release/v1/util/kind_sorter.go
 * (InstallOrder, UninstallOrder), and pkg/release/v1/util/manifest_sorter.go (SortManifests: one release, every
 * manifest of the chart and its subcharts sorted together by kind). Already in test/kind-order.test.ts, through the
 * kind table alone: TestKindSorter, TestKindSorterKeepOriginalOrder, TestKindSorterNamespaceAgainstUnknown.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { capturingOutput, newApp, removeTempDirs, siteOfNextLine, stepSummary, tempDir } from './util';
import { main } from '../src/cli/main';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

/** Helm's hooks of TestKindSorterForHooks as objects, named by Helm's one-letter names, in Helm's input order. */
function hooks(app: CapabilityApp, all: boolean): void {
  const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
  if (!all) return;
  new ApiObject(chart, 'i', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'i' } });
  new ApiObject(chart, 'j', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'j' } });
  new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'c' } });
  new ApiObject(chart, 'a', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
}

/** The one-letter names of a list of `Kind name` or `group/Kind name` labels. */
const letters = (labels: readonly string[]): string => labels.map((l) => l.slice(l.lastIndexOf(' ') + 1)).join('');

describe('Helm TestKindSorterForHooks', () => {
  // Helm installs "acij": Namespace, LimitRange, ClusterRole, ClusterRoleBinding. The library puts the ClusterRoles
  // with the cluster definitions, before LimitRange (docs/ordering.md, "The kind order": Helm puts the ClusterRoles
  // after the claims). The binding names no role here, so nothing takes a later step.
  test('install: Namespace, ClusterRole, ClusterRoleBinding, LimitRange, in one step ("acij" in Helm)', () => {
    // GIVEN Helm's hooks as objects
    const app = newApp();
    hooks(app, true);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => letters(s.objects!))).toEqual(['aijc']);
  });

  // Helm uninstalls "jica", the reverse of its install order; the library's teardown is the reverse of its own.
  test('uninstall: the reverse of the install order, LimitRange first and the Namespace last ("jica" in Helm)', () => {
    // GIVEN the lock of Helm's hooks as objects
    const series = lockedSeries(hooks, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, hooks, false);

    // THEN one step, the exact reverse of the install order
    expect(plan!.teardown.steps.map((s) => letters(s.units))).toEqual(['cjia']);
  });
});

/**
 * Helm's manifests of TestKindSorter as objects, `[Helm's one-letter name, apiVersion, kind]`, in Helm's input order;
 * less the six kinds the API server serves no object of (SecretList, ClusterRoleList, ClusterRoleBindingList, RoleList,
 * RoleBindingList: lists are no objects; PodSecurityPolicy: removed in Kubernetes 1.25), which the library refuses
 * (CAP010). The custom kind HonkyTonkSet gets a group of its own.
 */
const HELM_OBJECTS: ReadonlyArray<readonly [string, string, string]> = [
  ['U', 'networking.k8s.io/v1', 'IngressClass'], ['i', 'rbac.authorization.k8s.io/v1', 'ClusterRole'],
  ['j', 'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'], ['f', 'v1', 'ConfigMap'], ['u', 'batch/v1', 'CronJob'],
  ['2', 'apiextensions.k8s.io/v1', 'CustomResourceDefinition'], ['n', 'apps/v1', 'DaemonSet'], ['r', 'apps/v1', 'Deployment'],
  ['!', 'example.com/v1', 'HonkyTonkSet'], ['v', 'networking.k8s.io/v1', 'Ingress'], ['t', 'batch/v1', 'Job'], ['c', 'v1', 'LimitRange'],
  ['a', 'v1', 'Namespace'], ['A', 'networking.k8s.io/v1', 'NetworkPolicy'], ['g', 'v1', 'PersistentVolume'],
  ['h', 'v1', 'PersistentVolumeClaim'], ['o', 'v1', 'Pod'], ['3', 'policy/v1', 'PodDisruptionBudget'], ['q', 'apps/v1', 'ReplicaSet'],
  ['p', 'v1', 'ReplicationController'], ['b', 'v1', 'ResourceQuota'], ['k', 'rbac.authorization.k8s.io/v1', 'Role'],
  ['l', 'rbac.authorization.k8s.io/v1', 'RoleBinding'], ['e', 'v1', 'Secret'], ['m', 'v1', 'Service'], ['d', 'v1', 'ServiceAccount'],
  ['s', 'apps/v1', 'StatefulSet'], ['1', 'storage.k8s.io/v1', 'StorageClass'], ['w', 'apiregistration.k8s.io/v1', 'APIService'],
  ['x', 'autoscaling/v2', 'HorizontalPodAutoscaler'], ['F', 'scheduling.k8s.io/v1', 'PriorityClass'],
  ['M', 'admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'], ['V', 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'],
];

/** The object name of a Helm one-letter name (`F` is `f-upper`, `!` is `bang`, `1` is `d1`). */
function objectName(letter: string): string {
  if (letter === '!') return 'bang';
  if (/[0-9]/.test(letter)) return `d${letter}`;
  return letter === letter.toUpperCase() ? `${letter.toLowerCase()}-upper` : letter;
}

/** The Helm letters of object names, each a `Kind name`, `Kind namespace/name` or `group/Kind name` label. */
function helmLetters(labels: readonly string[]): string {
  const byName = new Map(HELM_OBJECTS.map(([letter]) => [objectName(letter), letter]));
  return labels.map((l) => byName.get(l.slice(l.lastIndexOf(' ') + 1).split('/').pop()!) ?? '?').join('');
}

/** Helm's objects of TestKindSorter in one chart, in Helm's input order (none names another). */
function helmRelease(app: CapabilityApp, all: boolean): void {
  const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
  if (!all) return;
  for (const [letter, apiVersion, kind] of HELM_OBJECTS) {
    // a Service needs a port, as the API server requires (spec.ports: Required value), and an Ingress a rule or a
    // default backend (either `defaultBackend` or `rules` must be specified): a rule of a host alone, which names no
    // object (a backend would order the Ingress after its Service, and none names another here)
    const spec = kind === 'Service' ? { spec: { ports: [{ port: 80 }] } }
      : kind === 'Ingress' ? { spec: { rules: [{ host: 'helm.example.com' }] } }
        : {};
    new ApiObject(chart, objectName(letter), { apiVersion, kind, metadata: { name: objectName(letter) }, ...spec });
  }
}

/** The names of the objects of a YAML file, in file order. */
function namesIn(file: string): string[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf-8')).map((d) => d.toJS().metadata.name);
}

/** The `kubectl apply -f <file>` lines `cdk-capability apply --dry-run` prints for an outdir, in order, the outdir cut off. */
function appliedFiles(outdir: string): string[] {
  const { result, stdout } = capturingOutput(() => main(['apply', '--outdir', outdir, '--dry-run']));
  expect(result).toBe(0);
  return stdout.split('\n').filter((l) => / -f \S+\.yaml$/.test(l)).map((l) => path.relative(outdir, l.slice(l.lastIndexOf(' -f ') + 4)));
}

describe('Helm TestKindSorter through a synth', () => {
  // Helm installs "FaAbcC3deEf1gh2iIjJkKlLmnopqrxstuUvwMV!", without the six kinds left out "FaAbc3def1gh2ijklmnopqrxstuUvwMV!".
  // The library's moves (docs/ordering.md, "The kind order"): StorageClass 1, CRD 2, the ClusterRoles i j and
  // IngressClass U with the cluster definitions right after Namespace a; the kind Helm does not know (!) before
  // APIService w and the webhooks M V, which come last. Everything else, ServiceAccount d, Secret e and ConfigMap f
  // before every workload n o p q r s t u among them, is Helm's order.
  test('install: one step in the kind order, kept by runtime/, its kustomization, gitops/argocd/, gitops/flux/ and apply', () => {
    // GIVEN Helm's objects in one chart, written for Argo CD, and again for Flux
    const argo = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    helmRelease(argo, true);
    const flux = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.flux({ sourceRef: { name: 'platform' }, path: './dist' }) });
    helmRelease(flux, true);

    // WHEN synthesized
    const { plan, violations } = argo.synthesize();
    argo.synth();
    flux.synth();

    // THEN one step, in this order, everywhere an applier reads it
    const expected = 'Fa12ijUAbc3defghklmnopqrxstuv!wMV';
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => [s.id, helmLetters(s.objects!)])).toEqual([['c/r', expected]]);
    const runtime = path.join(argo.outdir, 'runtime');
    expect(fs.readFileSync(path.join(runtime, 'kustomization.yaml'), 'utf-8')).toContain('resources:\n  - 0001-c-r.yaml\n');
    expect(helmLetters(namesIn(path.join(runtime, '0001-c-r.yaml')))).toBe(expected);
    expect(helmLetters(namesIn(path.join(argo.outdir, 'gitops', 'argocd', '0001-c-r.yaml')))).toBe(expected);
    expect(helmLetters(namesIn(path.join(flux.outdir, 'gitops', 'flux', 'steps', 'c-r', '0001-c-r.yaml')))).toBe(expected);
    expect(appliedFiles(argo.outdir)).toEqual(['runtime/0001-c-r.yaml']);
  });

  // Helm uninstalls "VMwvUmutsxrqponLlKkJjIi2hg1fEed3CcbAaF!", without the six kinds left out "VMwvUmutsxrqponlkji2hg1fed3cbAaF!".
  // Helm's UninstallOrder is not the reverse of its InstallOrder: it deletes the Service m before the workloads (no
  // new connection is routed to pods being deleted) and IngressClass U right after Ingress v. The library's teardown
  // is one rule, the reverse of its apply order (docs/ordering.md, "Teardown"): the Service after the workloads it was
  // applied before, the cluster definitions (U, the ClusterRoles, 2, 1) after everything of the policy band, and the
  // unknown kind (!) where it was applied, before Ingress, not last. Contents before their Namespace a, the
  // workloads before the ServiceAccount d, Secret e and ConfigMap f they may read, as in Helm.
  test('uninstall: the exact reverse of the install order, one step', () => {
    // GIVEN the lock of Helm's objects
    const series = lockedSeries(helmRelease, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, helmRelease, false);

    // THEN
    expect(plan!.teardown.steps.map((s) => helmLetters(s.units))).toEqual(['VMw!vutsxrqponmlkhgfed3cbAUji21aF']);
  });
});

/**
 * Two subcharts of one Helm release as two sibling charts: `web`, declared first, runs a Deployment that names a
 * PriorityClass, a RuntimeClass, a ConfigMap it mounts and a Secret it reads, each marked `optional: true` where
 * the API allows it; `platform` holds them. Helm sorts every manifest of a release together (SortManifests), so it
 * installs the PriorityClass, the Secret and the ConfigMap before the Deployment (and the RuntimeClass, a kind its
 * InstallOrder does not name, after it, last).
 */
function subcharts(app: CapabilityApp, all: boolean): void {
  const capability = new Capability(app, 'c');
  const web = new RuntimeRouting(capability, 'web');
  const platform = new RuntimeRouting(capability, 'platform');
  if (!all) return;
  new ApiObject(web, 'Deployment', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          priorityClassName: 'high',
          runtimeClassName: 'gvisor',
          volumes: [{ name: 'settings', configMap: { name: 'settings', optional: true } }],
          containers: [{ name: 'web', image: 'nginx:1.27', envFrom: [{ secretRef: { name: 'creds', optional: true } }] }],
        },
      },
    },
  });
  new ApiObject(platform, 'PriorityClass', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
  new ApiObject(platform, 'RuntimeClass', { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' });
  new ApiObject(platform, 'Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'shop' } });
  new ApiObject(platform, 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });
}

describe('Helm SortManifests: subcharts of one release as sibling charts', () => {
  // The defect this port found: a pod's priorityClassName and runtimeClassName, and a reference marked optional,
  // ordered nothing, so the Deployment of the chart declared first took the first step, before the PriorityClass
  // (the API server refuses its pods until it exists), the RuntimeClass (likewise) and the ConfigMap and Secret it
  // reads at start (an optional one missing then is read as empty). Each is now an edge that only orders
  // (docs/ordering.md, "Inferred edges that only order"): the cluster may already have the object, and an optional
  // one need not exist, so nothing is refused without it.
  test('install: the Deployment after the PriorityClass, RuntimeClass, Secret and ConfigMap its pods name, in a later step', () => {
    // GIVEN the two charts, written for Argo CD
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    subcharts(app, true);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();
    app.synth();

    // THEN platform first, web after it, for each field that names one of platform's objects
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      {
        id: 'c/platform',
        objects: ['scheduling.k8s.io/PriorityClass high', 'node.k8s.io/RuntimeClass gvisor', 'Secret shop/creds', 'ConfigMap shop/settings'],
        dependsOn: [],
      },
      {
        id: 'c/web',
        objects: ['apps/Deployment shop/web'],
        dependsOn: [{
          step: 'c/platform',
          reasons: [
            'reference (spec.template.spec.containers[name=web].envFrom)',
            'reference (spec.template.spec.priorityClassName)',
            'reference (spec.template.spec.runtimeClassName)',
            'reference (spec.template.spec.volumes[name=settings].configMap)',
          ],
        }],
      },
    ]);
    // AND the files, the kustomization, the Argo CD sync waves and apply keep it
    const runtime = path.join(app.outdir, 'runtime');
    expect(fs.readFileSync(path.join(runtime, 'kustomization.yaml'), 'utf-8')).toContain('resources:\n  - 0001-c-platform.yaml\n  - 0002-c-web.yaml\n');
    const argo = path.join(app.outdir, 'gitops', 'argocd');
    const waves = fs.readdirSync(argo).sort().flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(argo, f), 'utf-8')).map((d) => d.toJS()))
      .map((o) => `${o.kind} ${o.metadata.name} ${o.metadata.annotations['argocd.argoproj.io/sync-wave']}`);
    expect(waves).toEqual(['PriorityClass high 0', 'RuntimeClass gvisor 0', 'Secret creds 0', 'ConfigMap settings 0', 'Deployment web 1']);
    expect(appliedFiles(app.outdir)).toEqual(['runtime/0001-c-platform.yaml', 'runtime/0002-c-web.yaml']);
  });

  test('install for Flux: the Kustomization of web depends on the one of platform', () => {
    // GIVEN the two charts, written for Flux
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.flux({ sourceRef: { name: 'platform' }, path: './dist' }) });
    subcharts(app, true);

    // WHEN synthesized
    app.synth();

    // THEN
    const cluster = path.join(app.outdir, 'gitops', 'flux', 'cluster');
    const kustomizations = ['0001-c-platform.yaml', '0002-c-web.yaml'].map((f) => parseAllDocuments(fs.readFileSync(path.join(cluster, f), 'utf-8'))[0].toJS());
    expect(kustomizations.map((k) => [k.metadata.name, k.spec.dependsOn ?? []])).toEqual([['c-platform', []], ['c-web', [{ name: 'c-platform' }]]]);
  });

  // Helm uninstalls the Deployment first, then (UninstallOrder) the ConfigMap, the Secret and the PriorityClass, the
  // RuntimeClass last (a kind it does not name); the library deletes web's step first, then platform's, in the
  // reverse of its apply order.
  test('uninstall: the Deployment first, then what its pods named', () => {
    // GIVEN the lock of the two charts
    const series = lockedSeries(subcharts, true);

    // WHEN a release removes everything
    const { plan } = nextRelease(series, subcharts, false);

    // THEN
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['apps/Deployment shop/web'],
      ['ConfigMap shop/settings', 'Secret shop/creds', 'node.k8s.io/RuntimeClass gvisor', 'scheduling.k8s.io/PriorityClass high'],
    ]);
  });

  test('every optional ConfigMap and Secret a pod names orders it: projected sources, secret volumes, env of init containers', () => {
    // GIVEN web's Job naming platform's ConfigMaps and Secrets in each optional way the pod spec has
    const app = newApp();
    const capability = new Capability(app, 'c');
    const web = new RuntimeRouting(capability, 'web');
    const platform = new RuntimeRouting(capability, 'platform');
    new ApiObject(web, 'Job', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'shop' },
      spec: {
        template: {
          spec: {
            restartPolicy: 'Never',
            volumes: [
              { name: 'all', projected: { sources: [{ configMap: { name: 'ca', optional: true } }, { secret: { name: 'tls', optional: true } }] } },
              { name: 'keys', secret: { secretName: 'keys', optional: true } },
            ],
            initContainers: [{
              name: 'wait',
              image: 'busybox:1.36',
              env: [
                { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'modes', key: 'mode', optional: true } } },
                { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'token', key: 'token', optional: true } } },
              ],
            }],
            containers: [{ name: 'main', image: 'busybox:1.36', envFrom: [{ configMapRef: { name: 'env', optional: true } }] }],
          },
        },
      },
    });
    for (const [kind, name] of [['ConfigMap', 'ca'], ['Secret', 'tls'], ['Secret', 'keys'], ['ConfigMap', 'modes'], ['Secret', 'token'], ['ConfigMap', 'env']]) {
      new ApiObject(platform, name, { apiVersion: 'v1', kind, metadata: { name, namespace: 'shop' } });
    }

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN the Job's step waits for platform's, for each of the fields
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => [s.id, s.dependsOn])).toEqual([
      ['c/platform', []],
      ['c/web', [{
        step: 'c/platform',
        reasons: [
          'reference (spec.template.spec.containers[name=main].envFrom)',
          'reference (spec.template.spec.containers[name=wait].env[name=MODE])',
          'reference (spec.template.spec.containers[name=wait].env[name=TOKEN])',
          'reference (spec.template.spec.volumes[name=all].projected.sources)',
          'reference (spec.template.spec.volumes[name=keys].secret)',
        ],
      }]],
    ]);
  });

  test('an optional reference gives way to an addDependency the other way: accepted, and plan.json names the edge left out', () => {
    // GIVEN web's Deployment mounting platform's ConfigMap settings (optional), and the ConfigMap made to depend on it
    const app = newApp();
    subcharts(app, true);
    const deployment = app.node.findChild('c').node.findChild('web').node.findChild('Deployment');
    const settings = app.node.findChild('c').node.findChild('platform').node.findChild('ConfigMap');
    const at = siteOfNextLine();
    settings.node.addDependency(deployment);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN no cycle: the ConfigMap after the Deployment, the optional reference left out
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([
      ['scheduling.k8s.io/PriorityClass high', 'node.k8s.io/RuntimeClass gvisor', 'Secret shop/creds'],
      ['apps/Deployment shop/web'],
      ['ConfigMap shop/settings'],
    ]);
    expect(plan!.droppedOrder).toEqual([{
      before: 'ConfigMap shop/settings',
      after: 'apps/Deployment shop/web',
      reason: 'reference (spec.template.spec.volumes[name=settings].configMap)',
      closes: [`ConfigMap shop/settings => apps/Deployment shop/web: explicit dependency (addDependency), 'c/platform/ConfigMap'.addDependency('c/web/Deployment') at ${at}`],
    }]);
  });

  // A deliberate difference: Helm installs a subchart's ConfigMap before another subchart's Deployment whatever
  // names what; the library's kind order is among the objects of one chart (docs/ordering.md), and across charts
  // only what an object names, or an addDependency, orders it. Charts that name nothing of each other keep creation order.
  test('a ConfigMap of another chart that the Deployment does not name is not ordered before it', () => {
    // GIVEN web's Deployment, naming nothing, declared before the chart config with a ConfigMap
    const app = newApp();
    const capability = new Capability(app, 'c');
    new ApiObject(new RuntimeRouting(capability, 'web'), 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    });
    new ApiObject(new RuntimeRouting(capability, 'config'), 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unrelated', namespace: 'shop' } });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN creation order of the charts, no step waiting on the other
    expect(stepSummary(plan)).toEqual([
      { id: 'c/web', objects: ['apps/Deployment shop/web'], dependsOn: [] },
      { id: 'c/config', objects: ['ConfigMap shop/unrelated'], dependsOn: [] },
    ]);
  });
});

/**
 * Helm's hook weights. Source: helm/helm at commit e9b85e4de16ad45805843fb121748018cf89094b, pkg/action/hooks.go
 * (execHookWithDelayedShutdown: the hooks of one event sorted by `helm.sh/hook-weight`, stable over the kind order,
 * each run and waited for before the next) and pkg/action/hooks_test.go (TestHooksCleanUp: pre-install hooks
 * build-config-1 of weight -5 and build-config-2 of weight 0, run in that order). Argo CD, the one engine the
 * library writes hooks for (GitOps.argoCd(); docs/ordering.md, "Hooks"), reads `helm.sh/hook-weight` as the sync
 * wave of a hook only when it has no `argocd.argoproj.io/sync-wave` (argoproj/gitops-engine pkg/sync/syncwaves/waves.go,
 * `Wave`), which the library writes on every object.
 */
describe('Helm hook weights (TestHooksCleanUp)', () => {
  /** TestHooksCleanUp's hooks, the heavier declared first, written for Argo CD. */
  function weightedHooks(second: { readonly hook: string; readonly weight: string }): CapabilityApp {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const hook = (name: string, events: string, weight: string) => new ApiObject(chart, name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'test', annotations: { 'helm.sh/hook': events, 'helm.sh/hook-weight': weight } },
      data: { foo: 'bar' },
    });
    hook('build-config-2', 'pre-install', '0');
    hook('build-config-1', second.hook, second.weight);
    return app;
  }

  // The defect this port found: both hooks took one step, so one sync wave, and Argo CD, which orders a wave by kind
  // and name, not by the weight the library's sync wave hides, was free to run the heavier first. A lighter Helm hook
  // of an Argo CD phase now comes a step before a heavier one of that phase: an edge that only orders.
  test('a pre-install hook of weight -5 a step, so a sync wave, before one of weight 0', () => {
    // GIVEN the two pre-install hooks
    const app = weightedHooks({ hook: 'pre-install', weight: '-5' });

    // WHEN synthesized
    const { plan, violations } = app.synthesize();
    app.synth();

    // THEN Helm's order, in two waves
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['ConfigMap test/build-config-1'], dependsOn: [] },
      { id: 'c/r#2', objects: ['ConfigMap test/build-config-2'], dependsOn: [{ step: 'c/r#1', reasons: ['Helm hook weight (PreSync)'] }] },
    ]);
    const argo = path.join(app.outdir, 'gitops', 'argocd');
    const waves = fs.readdirSync(argo).sort().flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(argo, f), 'utf-8')).map((d) => d.toJS()))
      .map((o) => `${o.metadata.name} ${o.metadata.annotations['argocd.argoproj.io/sync-wave']}`);
    expect(waves).toEqual(['build-config-1 0', 'build-config-2 1']);
  });

  test('the weights give way to an addDependency the other way: accepted, and plan.json names the order left out', () => {
    // GIVEN the two pre-install hooks, the lighter made to depend on the heavier
    const app = weightedHooks({ hook: 'pre-install', weight: '-5' });
    const chart = app.node.findChild('c').node.findChild('r');
    const at = siteOfNextLine();
    chart.node.findChild('build-config-1').node.addDependency(chart.node.findChild('build-config-2'));

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN the dependency's order, and the weights' named as left out
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([['ConfigMap test/build-config-2'], ['ConfigMap test/build-config-1']]);
    expect(plan!.droppedOrder).toEqual([{
      before: 'ConfigMap test/build-config-1',
      after: 'ConfigMap test/build-config-2',
      reason: 'Helm hook weight (PreSync)',
      closes: [`ConfigMap test/build-config-1 => ConfigMap test/build-config-2: explicit dependency (addDependency), 'c/r/build-config-1'.addDependency('c/r/build-config-2') at ${at}`],
    }]);
  });

  // Argo CD runs a pre-install,post-install hook in PreSync, before every post-install hook (and in PostSync again);
  // Helm runs it in its post-install by weight too. An edge by weight would close a cycle with Argo CD's phases (CAP004
  // of a composition Argo CD and Helm both accept): a hook of two phases is not ordered by weight.
  test('a hook of two phases of Argo CD: not ordered by weight, accepted', () => {
    // GIVEN a post-install hook of weight -5 and a pre-install,post-install hook of weight 0
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    for (const [name, events, weight] of [['x', 'post-install', '-5'], ['y', 'post-install, pre-install', '0']]) {
      new ApiObject(chart, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'test', annotations: { 'helm.sh/hook': events, 'helm.sh/hook-weight': weight } } });
    }

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN one step, in creation order
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([{ id: 'c/r', objects: ['ConfigMap test/x', 'ConfigMap test/y'], dependsOn: [] }]);
  });

  // Argo CD runs pre-install and pre-upgrade hooks alike in PreSync, by their weights: so does the plan.
  test('a pre-upgrade hook of weight -5 a step before a pre-install hook of weight 0: one phase of Argo CD', () => {
    // GIVEN the pre-install hook of weight 0 declared first, and a pre-upgrade hook of weight -5
    const app = weightedHooks({ hook: 'pre-upgrade', weight: '-5' });

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN the pre-upgrade hook a step before
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['ConfigMap test/build-config-1'], dependsOn: [] },
      { id: 'c/r#2', objects: ['ConfigMap test/build-config-2'], dependsOn: [{ step: 'c/r#1', reasons: ['Helm hook weight (PreSync)'] }] },
    ]);
  });

  test('hooks of two phases, or of one weight, are not ordered by their weights', () => {
    // GIVEN a post-install hook of weight -5 beside the pre-install hook of weight 0 (PostSync and PreSync), and two
    // pre-install hooks of weights 0 and "00" (Helm reads both as 0)
    const events = weightedHooks({ hook: 'post-install', weight: '-5' }).synthesize();
    const same = weightedHooks({ hook: 'pre-install', weight: '00' }).synthesize();

    // THEN one step each, in creation order
    for (const { plan } of [events, same]) {
      expect(stepSummary(plan)).toEqual([{ id: 'c/r', objects: ['ConfigMap test/build-config-2', 'ConfigMap test/build-config-1'], dependsOn: [] }]);
    }
  });
});

/**
 * Helm's TestSortManifests (helm/helm at commit e9b85e4de16ad45805843fb121748018cf89094b,
 * pkg/release/v1/util/manifest_sorter_test.go): of its manifests, Helm takes first (Job, pre-install), second
 * (ReplicaSet, post-install), fifth (ReplicaSet, post-delete and post-install) and example-test (Pod, test) for hooks,
 * fourth (Pod) and eighth (ConfigMap) for the release, sorted by kind (eighth, fourth), and skips third (ReplicaSet
 * with the unknown hook no-such-hook) altogether. Its files six (a partial) and seven (empty) hold no object.
 */
describe('Helm TestSortManifests', () => {
  function manifests(app: CapabilityApp): void {
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const pod = { containers: [{ name: 'main', image: 'busybox:1.36' }] };
    const replicaSet = (name: string, hook: string) => new ApiObject(chart, name, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, annotations: { 'helm.sh/hook': hook } },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: pod } },
    });
    new ApiObject(chart, 'first', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'first', labels: { doesnot: 'matter' }, annotations: { 'helm.sh/hook': 'pre-install' } },
      spec: { template: { spec: { ...pod, restartPolicy: 'Never' } } },
    });
    replicaSet('second', 'post-install');
    replicaSet('third', 'no-such-hook');
    new ApiObject(chart, 'fourth', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fourth', annotations: { nothing: 'here' } }, spec: pod });
    replicaSet('fifth', 'post-delete, post-install');
    new ApiObject(chart, 'eighth', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'eighth' }, data: { name: 'value' } });
    new ApiObject(chart, 'example-test', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'example-test', annotations: { 'helm.sh/hook': 'test' } }, spec: pod });
  }

  // For kubectl (cdk-capability apply), which runs no hooks, each hook is refused (docs/ordering.md, "Hooks"), third
  // too: Helm skips a hook it does not know, kubectl would apply it.
  test('for kubectl: each of the five objects with helm.sh/hook refused (CAP010), the unknown hook too', () => {
    // GIVEN Helm's manifests
    const app = newApp();
    manifests(app);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN
    const fix = "Render the chart without its hooks (helmFlags: ['--no-hooks'] of cdk8s' Helm, or ['--skip-tests'] for its tests alone), or remove the annotation "
      + 'and order the object with addDependency; with GitOps.argoCd(), Argo CD runs the hooks it knows.';
    const refused = (object: string, site: string, hook: string) => ({
      code: 'CAP010',
      message: `invalid object: ${object} declared by '${site}' has the annotation helm.sh/hook ${JSON.stringify(hook)}, but kubectl (cdk-capability apply) runs no hooks: `
        + `it would apply the object as an ordinary one, in the plan's order, at every apply. ${fix}`,
      paths: [site],
    });
    expect(violations.map((v) => ({ code: v.code, message: v.message, paths: v.paths }))).toEqual([
      refused('Pod example-test', 'c/r/example-test', 'test'),
      refused('apps/ReplicaSet fifth', 'c/r/fifth', 'post-delete, post-install'),
      refused('apps/ReplicaSet second', 'c/r/second', 'post-install'),
      refused('apps/ReplicaSet third', 'c/r/third', 'no-such-hook'),
      refused('batch/Job first', 'c/r/first', 'pre-install'),
    ]);
  });

  // For Argo CD, which runs Helm's pre-install and post-install hooks in its PreSync and PostSync phases and never a
  // test or an unknown hook, the plan orders every object by kind, as Helm orders its release (eighth before fourth).
  test('for Argo CD: accepted, one step in the kind order', () => {
    // GIVEN Helm's manifests, written for Argo CD
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.argoCd() });
    manifests(app);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([[
      'ConfigMap eighth', 'Pod fourth', 'Pod example-test', 'apps/ReplicaSet second', 'apps/ReplicaSet third', 'apps/ReplicaSet fifth', 'batch/Job first',
    ]]);
  });
});
