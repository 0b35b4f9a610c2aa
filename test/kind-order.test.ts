import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs, stepSummary, tempDir } from './util';
import { DependencyGraph } from '../src/collect/graph/dependency-graph';
import { kindRank } from '../src/collect/graph/kind-order';
import type { Lock } from '../src/release/lock';
import { teardownOf } from '../src/render/teardown';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

/** The API group of each kind Helm's kind sorter knows (Helm matches the kind alone). */
const GROUP: Record<string, string> = {
  PriorityClass: 'scheduling.k8s.io',
  NetworkPolicy: 'networking.k8s.io',
  IngressClass: 'networking.k8s.io',
  Ingress: 'networking.k8s.io',
  PodSecurityPolicy: 'policy',
  PodDisruptionBudget: 'policy',
  StorageClass: 'storage.k8s.io',
  CustomResourceDefinition: 'apiextensions.k8s.io',
  ClusterRole: 'rbac.authorization.k8s.io',
  ClusterRoleList: 'rbac.authorization.k8s.io',
  ClusterRoleBinding: 'rbac.authorization.k8s.io',
  ClusterRoleBindingList: 'rbac.authorization.k8s.io',
  Role: 'rbac.authorization.k8s.io',
  RoleList: 'rbac.authorization.k8s.io',
  RoleBinding: 'rbac.authorization.k8s.io',
  RoleBindingList: 'rbac.authorization.k8s.io',
  DaemonSet: 'apps',
  ReplicaSet: 'apps',
  Deployment: 'apps',
  StatefulSet: 'apps',
  HorizontalPodAutoscaler: 'autoscaling',
  Job: 'batch',
  CronJob: 'batch',
  APIService: 'apiregistration.k8s.io',
  MutatingWebhookConfiguration: 'admissionregistration.k8s.io',
  ValidatingWebhookConfiguration: 'admissionregistration.k8s.io',
};

/** Sorts `[name, kind]` pairs with the library's soft order alone (one group, no edges) and returns the names joined. */
function installOrder(manifests: ReadonlyArray<readonly [string, string]>): string {
  const graph = new DependencyGraph<string>();
  const nodes = manifests.map(([name]) => graph.addNode(name, name));
  graph.addSoftOrder(nodes, manifests.map(([, kind]) => kindRank(GROUP[kind] ?? '', kind)));
  return graph.sort().order.map((n) => graph.value(n)).join('');
}

/** A lock of the given objects (no stack, no edge), for the teardown order. */
function lockOf(manifests: ReadonlyArray<readonly [string, string]>): Lock {
  return {
    formatVersion: 1,
    interfaces: [],
    barriers: [],
    edges: [],
    units: manifests.map(([name, kind]) => ({
      id: `object:${GROUP[kind] ?? ''}|${kind}||${name}`,
      label: name,
      path: `app/${name}`,
      digest: '0',
      groupKind: `${GROUP[kind] ?? ''}/${kind}`,
    })),
  };
}

// Ported from helm/helm pkg/release/v1/util/kind_sorter_test.go (TestKindSorter, commit e9b85e4de16a): the same 39 manifests.
const HELM_MANIFESTS: ReadonlyArray<readonly [string, string]> = [
  ['U', 'IngressClass'], ['E', 'SecretList'], ['i', 'ClusterRole'], ['I', 'ClusterRoleList'], ['j', 'ClusterRoleBinding'],
  ['J', 'ClusterRoleBindingList'], ['f', 'ConfigMap'], ['u', 'CronJob'], ['2', 'CustomResourceDefinition'], ['n', 'DaemonSet'],
  ['r', 'Deployment'], ['!', 'HonkyTonkSet'], ['v', 'Ingress'], ['t', 'Job'], ['c', 'LimitRange'], ['a', 'Namespace'],
  ['A', 'NetworkPolicy'], ['g', 'PersistentVolume'], ['h', 'PersistentVolumeClaim'], ['o', 'Pod'], ['3', 'PodDisruptionBudget'],
  ['C', 'PodSecurityPolicy'], ['q', 'ReplicaSet'], ['p', 'ReplicationController'], ['b', 'ResourceQuota'], ['k', 'Role'],
  ['K', 'RoleList'], ['l', 'RoleBinding'], ['L', 'RoleBindingList'], ['e', 'Secret'], ['m', 'Service'], ['d', 'ServiceAccount'],
  ['s', 'StatefulSet'], ['1', 'StorageClass'], ['w', 'APIService'], ['x', 'HorizontalPodAutoscaler'], ['F', 'PriorityClass'],
  ['M', 'MutatingWebhookConfiguration'], ['V', 'ValidatingWebhookConfiguration'],
];

describe('the kind order, against Helm\'s kind sorter', () => {
  test('install order (TestKindSorter "install"), with the library\'s deliberate differences', () => {
    // GIVEN Helm's manifests; Helm expects "FaAbcC3deEf1gh2iIjJkKlLmnopqrxstuUvwMV!"
    // WHEN sorted by the kind order alone
    const order = installOrder(HELM_MANIFESTS);

    // THEN Helm's order except, on purpose: StorageClass 1, CRD 2, the ClusterRoles i I j J and IngressClass U
    // come with the cluster definitions right after Namespace (kapp puts CRDs first; a class is what other
    // objects name); a kind Helm does not know (!) before the APIService and webhooks w M V, which come last.
    // Service m before the workloads n o p q r, as Helm has it
    expect(order).toBe('Fa12iIjJUAbcC3deEfghkKlLmnopqrxstuv!wMV');
  });

  test('uninstall order (TestKindSorter "uninstall") is the teardown: the reverse of the install order', () => {
    // GIVEN a lock holding Helm's manifests; Helm expects "VMwvUmutsxrqponLlKkJjIi2hg1fEed3CcbAaF!"
    // WHEN a release removes them all
    const teardown = teardownOf(lockOf(HELM_MANIFESTS), { ...lockOf([]), units: [] });

    // THEN one step, the exact reverse of the install order (Helm keeps unknown kinds last in both)
    expect(teardown.steps.map((s) => s.units.join(''))).toEqual(['VMw!vutsxrqponmLlKkhgfEed3CcbAUJjIi21aF']);
  });

  test('objects of one kind keep their order (TestKindSorterKeepOriginalOrder)', () => {
    // GIVEN Helm's case; Helm expects "01aAz!u2u1t3"
    const order = installOrder([
      ['a', 'ClusterRole'], ['A', 'ClusterRole'], ['0', 'ConfigMap'], ['1', 'ConfigMap'], ['z', 'ClusterRoleBinding'],
      ['!', 'ClusterRoleBinding'], ['u2', 'Unknown'], ['u1', 'Unknown'], ['t3', 'Unknown2'],
    ]);

    // THEN creation order inside each kind; the ClusterRoles and bindings first (cluster definitions)
    expect(order).toBe('aAz!01u2u1t3');
  });

  test('a Namespace before an unknown kind (TestKindSorterNamespaceAgainstUnknown)', () => {
    expect(installOrder([['a', 'Unknown'], ['b', 'Namespace']])).toBe('ba');
  });
});

describe('the kind order, against Argo CD gitops-engine\'s sync tasks', () => {
  // Ported from argoproj/gitops-engine pkg/sync/sync_tasks_test.go (Test_syncTasks_kindOrder): Namespace is
  // first, APIService the last known kind, a custom kind after every known one. The library puts custom
  // kinds before APIService and the webhooks on purpose (a webhook applied before what it admits can refuse it).
  test('Namespace first; a custom kind after workloads and Ingress, before APIService (Test_syncTasks_kindOrder)', () => {
    expect(kindRank('', 'Namespace')).toBeLessThan(kindRank('apps', 'Deployment'));
    expect(kindRank('networking.k8s.io', 'Ingress')).toBeLessThan(kindRank('example.com', 'MyCRD'));
    expect(kindRank('example.com', 'MyCRD')).toBeLessThan(kindRank('apiregistration.k8s.io', 'APIService'));
  });

  // Ported from argoproj/gitops-engine pkg/sync/sync_tasks_test.go (TestSortSyncTask, commit 5baed5604d2d): of its
  // tasks, those with a kind sort ConfigMap, PersistentVolume, Service, Pod, and a task without a known kind after them.
  test('ConfigMap, PersistentVolume, Service, Pod, then an unknown kind (TestSortSyncTask)', () => {
    // GIVEN gitops-engine's unsorted tasks with a kind: Pod, Service, PersistentVolume, an unknown kind, ConfigMap
    const order = installOrder([['p', 'Pod'], ['s', 'Service'], ['v', 'PersistentVolume'], ['?', 'Unknown'], ['c', 'ConfigMap']]);

    // THEN gitops-engine's sorted order
    expect(order).toBe('cvsp?');
  });

  test('a Service before every workload kind, as Helm\'s InstallOrder and gitops-engine\'s kindOrder have it', () => {
    // GIVEN each workload kind of Helm's list
    const workloads = ['DaemonSet', 'Pod', 'ReplicationController', 'ReplicaSet', 'Deployment', 'StatefulSet', 'Job', 'CronJob'];

    // THEN the Service ranks lower than each, and after every pod-related kind (RoleBindingList is the last)
    for (const kind of workloads) expect(kindRank('', 'Service')).toBeLessThan(kindRank(GROUP[kind] ?? '', kind));
    expect(kindRank('rbac.authorization.k8s.io', 'RoleBindingList')).toBeLessThan(kindRank('', 'Service'));
  });

  // Ported from argoproj/gitops-engine pkg/sync/sync_tasks_test.go (TestSyncNamespaceAgainstCRD).
  test('a Namespace before a custom resource (TestSyncNamespaceAgainstCRD)', () => {
    expect(installOrder([['w', 'Workflow'], ['n', 'Namespace']])).toBe('nw');
  });

  // Ported from argoproj/gitops-engine pkg/sync/sync_tasks_test.go (TestSyncTasksSort_CRDAndCR): Argo CD sorts
  // the CRD before the CR inside one wave; the library puts them in two steps, so two sync waves, because
  // one apply of both is refused by a cluster that does not know the kind yet.
  test('a CRD before its custom resource, in an earlier sync wave (TestSyncTasksSort_CRDAndCR)', () => {
    // GIVEN Workflow w declared before the CRD of argoproj.io/Workflow, with the Argo CD output
    const app = new CapabilityApp({ outdir: `${tempDir()}/dist`, gitops: GitOps.argoCd() });
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    new ApiObject(chart, 'Cr', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow', metadata: { name: 'w', namespace: 'argo' } });
    new ApiObject(chart, 'Crd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'workflows.argoproj.io' },
      spec: { group: 'argoproj.io', scope: 'Namespaced', names: { kind: 'Workflow', plural: 'workflows', singular: 'workflow' }, versions: [{ name: 'v1alpha1', served: true, storage: true }] },
    });

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN two steps, and in gitops/argocd/ the CRD in wave 0, the Workflow in wave 1
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([['apiextensions.k8s.io/CustomResourceDefinition workflows.argoproj.io'], ['argoproj.io/Workflow argo/w']]);
    app.synth();
    const argo = path.join(app.outdir, 'gitops', 'argocd');
    const waves = fs.readdirSync(argo).sort().flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(argo, f), 'utf-8')).map((d) => d.toJS()))
      .map((o) => `${o.kind} ${o.metadata.annotations['argocd.argoproj.io/sync-wave']}`);
    expect(waves).toEqual(['CustomResourceDefinition 0', 'Workflow 1']);
  });

  // Ported from argoproj/gitops-engine pkg/sync/sync_tasks_test.go (TestSyncTasksSort_NamespaceAndObjectInNamespace),
  // without the hooks and sync-wave annotations (the library sets the waves itself): each Job after its Namespace.
  test('Namespaces before the Jobs in them, though declared after them (TestSyncTasksSort_NamespaceAndObjectInNamespace)', () => {
    // GIVEN Jobs in myns1 and myns2 declared before the Namespaces
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    for (const n of [1, 2]) {
      new ApiObject(chart, `Job${n}`, {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: `mysynchookjob${n}`, namespace: `myns${n}` },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } },
      });
    }
    for (const n of [1, 2]) new ApiObject(chart, `Ns${n}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `myns${n}` } });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN the Namespaces take the first step, the Jobs the next
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([['Namespace myns1', 'Namespace myns2'], ['batch/Job myns1/mysynchookjob1', 'batch/Job myns2/mysynchookjob2']]);
  });
});

describe('the kind order, against kapp\'s default change groups', () => {
  // Ported from carvel-dev/kapp pkg/kapp/diffgraph/change_graph_test.go (TestChangeGraphWithNamespaceAndCRDs):
  // secrets wait for their namespace, custom resources for their CRD, nothing else waits.
  test('namespaces, secrets and CRDs first; secrets in a namespace and custom resources after (TestChangeGraphWithNamespaceAndCRDs)', () => {
    // GIVEN kapp's resources, in kapp's order
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    for (const ns of ['kapp-namespace-1', 'kapp-namespace-2', 'app']) new ApiObject(chart, ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const [name, ns] of [['kapp-secret-1', 'kapp-namespace-2'], ['kapp-secret-2', 'kapp-namespace-2'], ['kapp-secret-3', 'default']]) {
      new ApiObject(chart, name, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns } });
    }
    for (const n of [1, 2, 3]) {
      new ApiObject(chart, `crd-${n}`, {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `kappcrd${n}s.appgroup.example.com` },
        spec: { group: 'appgroup.example.com', scope: 'Cluster', names: { kind: `KappCRD${n}`, plural: `kappcrd${n}s` }, versions: [{ name: 'v1', served: true, storage: true }] },
      });
    }
    for (const n of [1, 2]) new ApiObject(chart, `cr-${n}`, { apiVersion: 'appgroup.example.com/v1', kind: `KappCRD${n}`, metadata: { name: `kapp-cr-${n}` } });

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN what kapp waits on takes a later step; the rest is in kind order (kapp keeps input order there)
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([
      [
        'Namespace kapp-namespace-1',
        'Namespace kapp-namespace-2',
        'Namespace app',
        'apiextensions.k8s.io/CustomResourceDefinition kappcrd1s.appgroup.example.com',
        'apiextensions.k8s.io/CustomResourceDefinition kappcrd2s.appgroup.example.com',
        'apiextensions.k8s.io/CustomResourceDefinition kappcrd3s.appgroup.example.com',
        'Secret default/kapp-secret-3',
      ],
      ['Secret kapp-namespace-2/kapp-secret-1', 'Secret kapp-namespace-2/kapp-secret-2', 'appgroup.example.com/KappCRD1 kapp-cr-1', 'appgroup.example.com/KappCRD2 kapp-cr-2'],
    ]);
  });

  // Ported from carvel-dev/kapp pkg/kapp/diffgraph/change_graph_test.go (TestChangeGraphWithConfDefaults), without
  // kapp's custom change-rule annotation on the Job: the Deployment after the ConfigMap (kapp: pod-related first).
  test('CRD and Namespace, then the ConfigMap, then the Deployment (TestChangeGraphWithConfDefaults)', () => {
    // GIVEN kapp's resources
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    new ApiObject(chart, 'Crd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'appkinds.app-group.example.com' },
      spec: { group: 'app-group.example.com', scope: 'Namespaced', names: { kind: 'AppKind', plural: 'appkinds' }, versions: [{ name: 'v1', served: true, storage: true }] },
    });
    new ApiObject(chart, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app1' } });
    new ApiObject(chart, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'app1' } });
    new ApiObject(chart, 'Dep', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app', namespace: 'app1' },
      spec: { selector: { matchLabels: { app: 'app' } }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([
      ['Namespace app1', 'apiextensions.k8s.io/CustomResourceDefinition appkinds.app-group.example.com'],
      ['ConfigMap app1/app-config', 'apps/Deployment app1/app'],
    ]);
  });

  // Ported from carvel-dev/kapp pkg/kapp/diffgraph/change_graph_test.go (TestChangeGraphWithNamespaceAndSA), a delete:
  // kapp deletes each namespace after its service accounts; the teardown deletes every content first.
  test('a teardown deletes service accounts and other contents before their namespaces (TestChangeGraphWithNamespaceAndSA)', () => {
    // GIVEN the lock of kapp's resources
    const build = (app: CapabilityApp, all: boolean) => {
      const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
      if (!all) return;
      const obj = (id: string, kind: string, name: string, namespace?: string) =>
        new ApiObject(chart, id, { apiVersion: 'v1', kind, metadata: namespace ? { name, namespace } : { name } });
      obj('Ns1', 'Namespace', 'test1');
      obj('Sa1', 'ServiceAccount', 'default-sa1', 'test1');
      obj('Ns2', 'Namespace', 'test2');
      obj('Sa2', 'ServiceAccount', 'default-sa2', 'test2');
      obj('Cm', 'ConfigMap', 'simple-cm', 'test2');
      obj('Sa3', 'ServiceAccount', 'default-sa3', 'default');
    };
    const series = lockedSeries(build, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, build, false);

    // THEN contents first (reverse kind order, ServiceAccount default-sa3 with them), then the namespaces
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['ConfigMap test2/simple-cm', 'ServiceAccount test2/default-sa2', 'ServiceAccount test1/default-sa1'],
      ['ServiceAccount default/default-sa3', 'Namespace test2', 'Namespace test1'],
    ]);
  });
});
