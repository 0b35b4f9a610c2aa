import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, GitOps, Plan, Reference, RuntimeRouting } from '../src';
import { configMap, newApp, removeTempDirs, siteOfNextLine, stepSummary, tempDir, widgetCrd } from './util';
import { collect } from '../src/collect/collect';
import { kindRank } from '../src/collect/graph/kind-order';

/** The call site on the line after `at`. */
const next = (at: string): string => at.replace(/:(\d+)$/, (_m, line) => `:${Number(line) + 1}`);

afterAll(removeTempDirs);

const ref = (field: string) => `reference (${field})`;

/** A Deployment `name` in `namespace` whose pods carry `app: <name>` and the given pod spec fields. */
function deployment(scope: Construct, id: string, name: string, namespace: string, pod: Record<string, unknown> = {}): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }], ...pod } },
    },
  });
}

function object(
  scope: Construct, id: string, apiVersion: string, kind: string, name: string, namespace?: string, rest: Record<string, unknown> = {},
): ApiObject {
  return new ApiObject(scope, id, { apiVersion, kind, metadata: namespace === undefined ? { name } : { name, namespace }, ...rest });
}

function planOf(app: CapabilityApp): Plan {
  const { violations, plan } = app.synthesize();
  expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([]);
  return plan!;
}

/** The objects of every runtime step, flattened, in apply order. */
function applyOrder(plan: Plan): string[] {
  return plan.steps.flatMap((s) => s.objects ?? []);
}

describe('references order: the referenced object first', () => {
  test('a Deployment comes after the ServiceAccount, ConfigMaps, Secrets and claim its pods name, in the same step, each edge named', () => {
    // GIVEN, all in namespace web and declared before what they name: a Deployment reading
    // ServiceAccount runner, ConfigMap files (volume), ConfigMap env (envFrom), Secret key (env), Secret pull
    // (imagePullSecrets) and claim data; the claim naming StorageClass fast
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    deployment(chart, 'Web', 'web', 'web', {
      serviceAccountName: 'runner',
      imagePullSecrets: [{ name: 'pull' }],
      volumes: [{ name: 'files', configMap: { name: 'files' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      containers: [{
        name: 'main',
        image: 'nginx:1.27',
        envFrom: [{ configMapRef: { name: 'env' } }],
        env: [{ name: 'KEY', valueFrom: { secretKeyRef: { name: 'key', key: 'k' } } }],
      }],
    });
    object(chart, 'Data', 'v1', 'PersistentVolumeClaim', 'data', 'web', { spec: { storageClassName: 'fast', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    object(chart, 'Runner', 'v1', 'ServiceAccount', 'runner', 'web');
    configMap(chart, 'Files', 'files', 'web');
    configMap(chart, 'Env', 'env', 'web');
    object(chart, 'Key', 'v1', 'Secret', 'key', 'web');
    object(chart, 'Pull', 'v1', 'Secret', 'pull', 'web');
    object(chart, 'Fast', 'storage.k8s.io/v1', 'StorageClass', 'fast', undefined, { provisioner: 'ebs.csi.aws.com' });

    // WHEN synthesized
    const plan = planOf(app);

    // THEN one step: the StorageClass (a cluster definition), the pod-related objects in kind order, then the Deployment
    expect(stepSummary(plan)).toEqual([{
      id: 'c/r',
      objects: [
        'storage.k8s.io/StorageClass fast',
        'ServiceAccount web/runner',
        'Secret web/key',
        'Secret web/pull',
        'ConfigMap web/files',
        'ConfigMap web/env',
        'PersistentVolumeClaim web/data',
        'apps/Deployment web/web',
      ],
      dependsOn: [],
    }]);
    // and plan.json names every edge inside the step
    const at = 'spec.template.spec';
    expect(plan.steps[0].orderInStep).toEqual([
      { before: 'ServiceAccount web/runner', after: 'apps/Deployment web/web', reasons: [ref(`${at}.serviceAccountName`)] },
      { before: 'Secret web/pull', after: 'apps/Deployment web/web', reasons: [ref(`${at}.imagePullSecrets`)] },
      { before: 'ConfigMap web/files', after: 'apps/Deployment web/web', reasons: [ref(`${at}.volumes[name=files].configMap`)] },
      { before: 'PersistentVolumeClaim web/data', after: 'apps/Deployment web/web', reasons: [ref(`${at}.volumes[name=data].persistentVolumeClaim`)] },
      { before: 'ConfigMap web/env', after: 'apps/Deployment web/web', reasons: [ref(`${at}.containers[name=main].envFrom`)] },
      { before: 'Secret web/key', after: 'apps/Deployment web/web', reasons: [ref(`${at}.containers[name=main].env[name=KEY]`)] },
      { before: 'storage.k8s.io/StorageClass fast', after: 'PersistentVolumeClaim web/data', reasons: [ref('spec.storageClassName')] },
    ]);
  });

  test('a reference across charts takes a later step, and the step names the reference', () => {
    // GIVEN chart c/apps with a Deployment reading ConfigMap settings of chart c/config, created later
    const app = newApp();
    const cap = new Capability(app, 'c');
    deployment(new Chart(cap, 'apps'), 'Web', 'web', 'web', { volumes: [{ name: 's', configMap: { name: 'settings' } }] });
    configMap(new Chart(cap, 'config'), 'Settings', 'settings', 'web');

    // WHEN synthesized
    const plan = planOf(app);

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'c/config', objects: ['ConfigMap web/settings'], dependsOn: [] },
      { id: 'c/apps', objects: ['apps/Deployment web/web'], dependsOn: [{ step: 'c/config', reasons: [ref('spec.template.spec.volumes[name=s].configMap')] }] },
    ]);
  });

  test('a Service before the workloads it selects (a selector is no reference); Ingress after its Service and IngressClass; a route after its Gateway, a Gateway after its class', () => {
    // GIVEN, declared in reverse: an HTTPRoute on Gateway edge and Service web, the Gateway on class public,
    // an Ingress of class nginx to Service web, the Service selecting app=web, Deployments web and other
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const gw = 'gateway.networking.k8s.io/v1';
    object(chart, 'Route', gw, 'HTTPRoute', 'web', 'web', { spec: { parentRefs: [{ name: 'edge' }], rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] } });
    object(chart, 'Gateway', gw, 'Gateway', 'edge', 'web', { spec: { gatewayClassName: 'public', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] } });
    object(chart, 'Class', gw, 'GatewayClass', 'public', undefined, { spec: { controllerName: 'example.com/gateway' } });
    object(chart, 'Ingress', 'networking.k8s.io/v1', 'Ingress', 'web', 'web', {
      spec: { ingressClassName: 'nginx', rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    });
    object(chart, 'Nginx', 'networking.k8s.io/v1', 'IngressClass', 'nginx', undefined, { spec: { controller: 'k8s.io/ingress-nginx' } });
    object(chart, 'Service', 'v1', 'Service', 'web', 'web', { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    deployment(chart, 'Web', 'web', 'web');
    deployment(chart, 'Other', 'other', 'web');

    // WHEN synthesized
    const plan = planOf(app);

    // THEN one step in this order (Service before the Deployments: Helm's and Argo CD's kind order), and each edge named
    expect(applyOrder(plan)).toEqual([
      'networking.k8s.io/IngressClass nginx',
      'gateway.networking.k8s.io/GatewayClass public',
      'Service web/web',
      'apps/Deployment web/web',
      'apps/Deployment web/other',
      'networking.k8s.io/Ingress web/web',
      'gateway.networking.k8s.io/Gateway web/edge',
      'gateway.networking.k8s.io/HTTPRoute web/web',
    ]);
    expect(plan.steps[0].orderInStep).toEqual([
      { before: 'Service web/web', after: 'gateway.networking.k8s.io/HTTPRoute web/web', reasons: [ref('spec.rules.backendRefs')] },
      { before: 'Service web/web', after: 'networking.k8s.io/Ingress web/web', reasons: [ref('spec.rules[host=web.example.com].http.paths')] },
      { before: 'gateway.networking.k8s.io/Gateway web/edge', after: 'gateway.networking.k8s.io/HTTPRoute web/web', reasons: [ref('spec.parentRefs')] },
      { before: 'gateway.networking.k8s.io/GatewayClass public', after: 'gateway.networking.k8s.io/Gateway web/edge', reasons: [ref('spec.gatewayClassName')] },
      { before: 'networking.k8s.io/IngressClass nginx', after: 'networking.k8s.io/Ingress web/web', reasons: [ref('spec.ingressClassName')] },
    ]);
  });

  test('admission webhooks and APIServices come after the Services they call', () => {
    // GIVEN a ValidatingWebhookConfiguration and an APIService calling Service hooks/api, declared before it
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    object(chart, 'Hook', 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'policy', undefined, {
      webhooks: [{ name: 'policy.example.com', clientConfig: { service: { name: 'api', namespace: 'hooks' } }, admissionReviewVersions: ['v1'], sideEffects: 'None' }],
    });
    object(chart, 'Api', 'apiregistration.k8s.io/v1', 'APIService', 'v1.metrics.example.com', undefined, {
      spec: { group: 'metrics.example.com', version: 'v1', service: { name: 'api', namespace: 'hooks' }, groupPriorityMinimum: 100, versionPriority: 10 },
    });
    object(chart, 'Service', 'v1', 'Service', 'api', 'hooks', { spec: { ports: [{ port: 443 }] } });

    // WHEN synthesized
    const plan = planOf(app);

    // THEN
    expect(applyOrder(plan)).toEqual(['Service hooks/api', 'apiregistration.k8s.io/APIService v1.metrics.example.com', 'admissionregistration.k8s.io/ValidatingWebhookConfiguration policy']);
    expect(plan.steps[0].orderInStep?.map((o) => o.reasons)).toEqual([[ref('webhooks[name=policy.example.com].clientConfig.service')], [ref('spec.service')]]);
  });

  test('Reference.byName between custom resources orders the named one first', () => {
    // GIVEN FMSPolicy edge naming NetworkRuleSet baseline with spec.ruleSetRef, declared first
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const fms = object(chart, 'Policy', 'fms.example.com/v1', 'FMSPolicy', 'edge', 'shop', { spec: { ruleSetRef: 'baseline' } });
    Reference.byName(chart, 'PolicyRules', { source: fms, field: 'spec.ruleSetRef', target: { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' } });
    object(chart, 'Baseline', 'fms.example.com/v1', 'NetworkRuleSet', 'baseline', 'shop', { spec: { rules: [] } });

    // WHEN synthesized
    const plan = planOf(app);

    // THEN
    expect(applyOrder(plan)).toEqual(['fms.example.com/NetworkRuleSet shop/baseline', 'fms.example.com/FMSPolicy shop/edge']);
    expect(plan.steps[0].orderInStep).toEqual([{ before: 'fms.example.com/NetworkRuleSet shop/baseline', after: 'fms.example.com/FMSPolicy shop/edge', reasons: [ref('spec.ruleSetRef')] }]);
  });

  test('an explicit dependency against a reference is a cycle, named once per object, with each edge\'s origin', () => {
    // GIVEN ConfigMap settings made to depend on the Deployment that mounts it
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const web = deployment(chart, 'Web', 'web', 'web', { volumes: [{ name: 's', configMap: { name: 'settings' } }] });
    const at = siteOfNextLine();
    configMap(chart, 'Settings', 'settings', 'web').addDependency(web);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP004
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP004 dependency cycle: c/r/Web => c/r/Settings => c/r/Web (c/r/Web => c/r/Settings: reference (spec.template.spec.volumes[name=s].configMap); '
        + `c/r/Settings => c/r/Web: explicit 'c/r/Settings'.addDependency('c/r/Web') at ${at}). Remove one of these dependencies (addDependency, or the reference that implies it).`,
    ]);
  });
});

describe('the Flux deadlock of issue 14', () => {
  /**
   * Deployment web/web reads ConfigMap web/web-config. The Deployment waits only
   * for Namespace web (step #2); the ConfigMap also waits for Secret web/seed
   * (explicitly), which put it one step later (#3) before references ordered: with
   * Flux's `wait: true`, the Kustomization of #2 waited for a rollout that
   * cannot finish before #3. Failed before the reference edges, passes after.
   */
  function deadlockApp(outdir: string): CapabilityApp {
    const app = new CapabilityApp({ outdir, gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    object(chart, 'Ns', 'v1', 'Namespace', 'web');
    deployment(chart, 'Web', 'web', 'web', { containers: [{ name: 'main', image: 'nginx:1.27', envFrom: [{ configMapRef: { name: 'web-config' } }] }] });
    const seed = object(chart, 'Seed', 'v1', 'Secret', 'seed', 'web');
    configMap(chart, 'Config', 'web-config', 'web').addDependency(seed);
    return app;
  }

  test('no Flux Kustomization applies an object before what it references', () => {
    // GIVEN the composition above with GitOps.flux
    const outdir = path.join(tempDir(), 'dist');
    const app = deadlockApp(outdir);

    // WHEN synthesized to disk
    app.synth();

    // THEN the Kustomization that applies the Deployment also applies the ConfigMap (before it), or depends on the one that does
    const cluster = path.join(outdir, 'gitops', 'flux', 'cluster');
    const kustomizations = fs.readdirSync(cluster).filter((f) => /^\d{4}-/.test(f)).sort().map((f) => parseAllDocuments(fs.readFileSync(path.join(cluster, f), 'utf-8'))[0].toJS());
    const objectsOf = (name: string): string[] => {
      const folder = path.join(outdir, 'gitops', 'flux', 'steps', name);
      return fs.readdirSync(folder).filter((f) => f !== 'kustomization.yaml').flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(folder, f), 'utf-8')).map((d) => {
        const o = d.toJS();
        return `${o.kind} ${o.metadata.name}`;
      }));
    };
    const waitsFor = (name: string): Set<string> => {
      const seen = new Set<string>();
      const stack = [name];
      while (stack.length > 0) {
        const k = kustomizations.find((x) => x.metadata.name === stack.pop())!;
        for (const d of k.spec.dependsOn ?? []) if (!seen.has(d.name)) seen.add(d.name), stack.push(d.name);
      }
      return seen;
    };
    const holder = (wanted: string) => kustomizations.find((k) => objectsOf(k.metadata.name).includes(wanted))!.metadata.name;
    const deploymentStep = holder('Deployment web');
    const configStep = holder('ConfigMap web-config');
    expect(kustomizations.every((k) => k.spec.wait === true)).toBe(true);
    if (deploymentStep === configStep) {
      const inStep = objectsOf(deploymentStep);
      expect(inStep.indexOf('ConfigMap web-config')).toBeLessThan(inStep.indexOf('Deployment web'));
    } else {
      expect([...waitsFor(deploymentStep)]).toContain(configStep);
    }
    // and, as it is now: the ConfigMap's step, the Deployment after it
    expect(stepSummary(app.synthesize().plan).map((s) => [s.id, s.objects])).toEqual([
      ['c/r#1', ['Namespace web']],
      ['c/r#2', ['Secret web/seed']],
      ['c/r#3', ['ConfigMap web/web-config', 'apps/Deployment web/web']],
    ]);
  });

  test("a projected volume's Secret and ConfigMap and a CSI volume's Secret take a later step across charts", () => {
    // GIVEN chart c/apps with a Deployment projecting Secret tls and ConfigMap settings and mounting a CSI volume with
    // Secret csi-creds, all three in chart c/config, created later
    const app = newApp();
    const cap = new Capability(app, 'c');
    deployment(new Chart(cap, 'apps'), 'Web', 'web', 'web', {
      volumes: [
        { name: 'p', projected: { sources: [{ secret: { name: 'tls' } }, { configMap: { name: 'settings' } }] } },
        { name: 's', csi: { driver: 'secrets-store.csi.k8s.io', nodePublishSecretRef: { name: 'csi-creds' } } },
      ],
    });
    const config = new Chart(cap, 'config');
    configMap(config, 'Settings', 'settings', 'web');
    object(config, 'Tls', 'v1', 'Secret', 'tls', 'web');
    object(config, 'Creds', 'v1', 'Secret', 'csi-creds', 'web');

    // WHEN synthesized
    const plan = planOf(app);

    // THEN the Deployment's step waits for the config step, for each reference
    const at = 'spec.template.spec.volumes';
    expect(stepSummary(plan)).toEqual([
      { id: 'c/config', objects: ['Secret web/tls', 'Secret web/csi-creds', 'ConfigMap web/settings'], dependsOn: [] },
      {
        id: 'c/apps',
        objects: ['apps/Deployment web/web'],
        dependsOn: [{ step: 'c/config', reasons: [ref(`${at}[name=p].projected.sources`), ref(`${at}[name=s].csi.nodePublishSecretRef`)] }],
      },
    ]);
  });

  test('the same across charts: only the reference edge (the kind order is per chart) puts the reader after it', () => {
    // GIVEN Deployment web/web in chart c/apps reading ConfigMap web/web-config of chart c/config,
    // where the ConfigMap waits (explicitly) for Secret web/seed
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    const cap = new Capability(app, 'c');
    deployment(new Chart(cap, 'apps'), 'Web', 'web', 'web', { containers: [{ name: 'main', image: 'nginx:1.27', envFrom: [{ configMapRef: { name: 'web-config' } }] }] });
    const config = new Chart(cap, 'config');
    const seed = object(config, 'Seed', 'v1', 'Secret', 'seed', 'web');
    configMap(config, 'Config', 'web-config', 'web').addDependency(seed);

    // WHEN synthesized
    const plan = planOf(app);

    // THEN the Deployment's step waits for the ConfigMap's, for the reference (before: c/apps came first)
    expect(stepSummary(plan)).toEqual([
      { id: 'c/config#1', objects: ['Secret web/seed'], dependsOn: [] },
      { id: 'c/config#2', objects: ['ConfigMap web/web-config'], dependsOn: [{ step: 'c/config#1', reasons: ['explicit dependency (addDependency)'] }] },
      { id: 'c/apps', objects: ['apps/Deployment web/web'], dependsOn: [{ step: 'c/config#2', reasons: [ref('spec.template.spec.containers[name=main].envFrom')] }] },
    ]);
  });

  test('an ExternalSecret comes before the pods that read the Secret it makes', () => {
    // GIVEN Deployment web/web reading Secret creds, which ExternalSecret web/creds makes, declared after
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    deployment(chart, 'Web', 'web', 'web', { containers: [{ name: 'main', image: 'nginx:1.27', envFrom: [{ secretRef: { name: 'creds' } }] }] });
    object(chart, 'Creds', 'external-secrets.io/v1beta1', 'ExternalSecret', 'creds', 'web', {
      spec: { secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' }, data: [{ secretKey: 'password', remoteRef: { key: '/creds' } }] },
    });

    // WHEN synthesized
    const plan = planOf(app);

    // THEN one step, the ExternalSecret first, for the reference
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([['external-secrets.io/ExternalSecret web/creds', 'apps/Deployment web/web']]);
    expect(plan.steps[0].orderInStep).toEqual([
      { before: 'external-secrets.io/ExternalSecret web/creds', after: 'apps/Deployment web/web', reasons: [ref('spec.template.spec.containers[name=main].envFrom')] },
    ]);
  });

  test('every Flux dependsOn names an earlier Kustomization', () => {
    // GIVEN the same composition plus a CRD and its custom resource
    const outdir = path.join(tempDir(), 'dist');
    const app = deadlockApp(outdir);
    const chart = app.node.findAll().find((c): c is RuntimeRouting => RuntimeRouting.isRuntimeRouting(c))!;
    new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'web' } });
    widgetCrd(chart, 'Crd');

    // WHEN synthesized
    app.synth();

    // THEN each dependsOn is a Kustomization of an earlier file
    const cluster = path.join(outdir, 'gitops', 'flux', 'cluster');
    const names = fs.readdirSync(cluster).filter((f) => /^\d{4}-/.test(f)).sort().map((f) => parseAllDocuments(fs.readFileSync(path.join(cluster, f), 'utf-8'))[0].toJS());
    names.forEach((k, i) => {
      for (const d of k.spec.dependsOn ?? []) expect(names.slice(0, i).map((x) => x.metadata.name)).toContain(d.name);
    });
  });
});

describe('cdk8s compatibility: charts', () => {
  // Ported from cdk8s-team/cdk8s-core test/chart.test.ts and src/app.ts (resolveDependencies:
  // "create an explicit chart dependency from nested chart relationships"): a parent chart
  // depends on its child charts, so the child's objects come first.
  test('a parent chart comes after its child charts', () => {
    // GIVEN chart c/parent with a ConfigMap, and its child chart c/parent/child with another, declared after
    const app = newApp();
    const parent = new Chart(new Capability(app, 'c'), 'parent');
    configMap(parent, 'P', 'p');
    configMap(new Chart(parent, 'child'), 'C', 'c');

    // WHEN synthesized
    const plan = planOf(app);

    // THEN the child's step first, the parent's waits for it
    expect(stepSummary(plan)).toEqual([
      { id: 'c/parent/child', objects: ['ConfigMap c'], dependsOn: [] },
      { id: 'c/parent', objects: ['ConfigMap p'], dependsOn: [{ step: 'c/parent/child', reasons: ['child chart before its parent chart (cdk8s)'] }] },
    ]);
  });

  // Ported from cdk8s-team/cdk8s-core test/dependency.test.ts (cycle detection: "chart1 => chart2 => chart1"):
  // cdk8s names each chart once.
  test('a cycle between two charts names each chart once, in "depends on" order', () => {
    // GIVEN charts c/r and c/r2, each depending on the other
    const app = newApp();
    const cap = new Capability(app, 'c');
    const r = new Chart(cap, 'r');
    const r2 = new Chart(cap, 'r2');
    configMap(r, 'a', 'a');
    configMap(r2, 'b', 'b');
    const at = siteOfNextLine();
    r.addDependency(r2);
    r2.addDependency(r);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN (before: c/r/a => c/r => c/r2 => c/r2/b => c/r2 => c/r => c/r/a)
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: c/r => c/r2 => c/r (c/r => c/r2: explicit 'c/r'.addDependency('c/r2') at ${at}; c/r2 => c/r: explicit 'c/r2'.addDependency('c/r') at ${next(at)}). `
        + 'Remove one of these dependencies (addDependency, or the reference that implies it).',
    ]);
  });
});

describe('cdk8s compatibility: dependencies between charts through what they hold', () => {
  // Ported from cdk8s-team/cdk8s-core test/app.test.ts ("app with chart dependencies via custom constructs", at
  // 6e6c8be5): a dependency between two plain constructs, each holding an object of its own chart, orders the charts.
  test('a dependency between custom constructs in two charts puts the chart of the dependency first', () => {
    // GIVEN charts c/chart1 and c/chart2, each with a plain construct holding a ConfigMap, the first made to depend on the second
    const app = newApp();
    const cap = new Capability(app, 'c');
    const microService = new Construct(new Chart(cap, 'chart1'), 'MicroService');
    configMap(microService, 'Obj', 'micro-service');
    const dataBase = new Construct(new Chart(cap, 'chart2'), 'DataBase');
    configMap(dataBase, 'Obj', 'data-base');
    microService.node.addDependency(dataBase);

    // WHEN synthesized
    const plan = planOf(app);

    // THEN chart2's step first, chart1's waits for it for the explicit dependency
    expect(stepSummary(plan)).toEqual([
      { id: 'c/chart2', objects: ['ConfigMap data-base'], dependsOn: [] },
      { id: 'c/chart1', objects: ['ConfigMap micro-service'], dependsOn: [{ step: 'c/chart2', reasons: ['explicit dependency (addDependency)'] }] },
    ]);
  });

  // Ported from cdk8s-team/cdk8s-core test/app.test.ts ("app with charts indirectly dependant", at 6e6c8be5): objects
  // that depend on objects of other charts order the charts, through a chain.
  test('objects that depend on objects of other charts order those charts, along the chain', () => {
    // GIVEN three charts, declared 1, 2, 3, whose objects depend 1 on 2 and 2 on 3
    const app = newApp();
    const cap = new Capability(app, 'c');
    const [obj1, obj2, obj3] = [1, 2, 3].map((i) => configMap(new Chart(cap, `chart${i}`), `obj${i}`, `obj${i}`));
    obj1.node.addDependency(obj2);
    obj2.node.addDependency(obj3);

    // WHEN synthesized
    const plan = planOf(app);

    // THEN chart3, chart2, chart1, each after the one before
    expect(stepSummary(plan)).toEqual([
      { id: 'c/chart3', objects: ['ConfigMap obj3'], dependsOn: [] },
      { id: 'c/chart2', objects: ['ConfigMap obj2'], dependsOn: [{ step: 'c/chart3', reasons: ['explicit dependency (addDependency)'] }] },
      { id: 'c/chart1', objects: ['ConfigMap obj1'], dependsOn: [{ step: 'c/chart2', reasons: ['explicit dependency (addDependency)'] }] },
    ]);
  });
});

describe('property: random compositions', () => {
  interface Spec {
    readonly kind: 'ConfigMap' | 'Secret' | 'ServiceAccount' | 'Deployment' | 'Service' | 'Namespace' | 'Crd' | 'Widget';
    readonly chart: number;
    readonly name: number;
    readonly refs: number[];
    readonly dependsOn: number[];
  }
  const KINDS: Array<Spec['kind']> = ['ConfigMap', 'Secret', 'ServiceAccount', 'Deployment', 'Service', 'Namespace', 'Crd', 'Widget'];
  const specs = fc.array(
    fc.record({
      kind: fc.constantFrom(...KINDS),
      chart: fc.nat(1),
      name: fc.nat(2),
      refs: fc.array(fc.nat(2), { maxLength: 3 }),
      dependsOn: fc.array(fc.nat(9), { maxLength: 1 }),
    }),
    { minLength: 1, maxLength: 10 },
  );

  /**
   * Builds the composition: object i named `o<i>` in namespace `ns` (the first Namespace is `ns`, the
   * first Crd the Widget CRD; later ones are unrelated); a Deployment reads the ConfigMaps (volume),
   * Secrets (envFrom) and ServiceAccount its `refs` point at, a Service selects the Deployment
   * `refs[0]` points at, so every reference resolves.
   */
  function build(app: CapabilityApp, list: readonly Spec[]): void {
    const cap = new Capability(app, 'c');
    const charts = [new RuntimeRouting(cap, 'r0'), new RuntimeRouting(cap, 'r1')];
    const made: ApiObject[] = [];
    const target = (r: number) => r % list.length;
    const firstOf = (kind: Spec['kind']) => list.findIndex((x) => x.kind === kind);
    list.forEach((s, i) => {
      const chart = charts[s.chart];
      const name = `o${i}`;
      const refsOf = (kind: Spec['kind']) => [...new Set(s.refs.map(target))].filter((r) => list[r].kind === kind);
      let o: ApiObject;
      switch (s.kind) {
        case 'Namespace': o = object(chart, `X${i}`, 'v1', 'Namespace', firstOf('Namespace') === i ? 'ns' : name); break;
        case 'Crd': o = firstOf('Crd') === i ? widgetCrd(chart, `X${i}`) : configMap(chart, `X${i}`, name, 'ns'); break;
        case 'Widget': o = object(chart, `X${i}`, 'example.com/v1', 'Widget', name, 'ns'); break;
        case 'Service': {
          const selected = refsOf('Deployment');
          o = object(chart, `X${i}`, 'v1', 'Service', name, 'ns', { spec: { ...(selected.length > 0 ? { selector: { app: `o${selected[0]}` } } : {}), ports: [{ port: 80 }] } });
          break;
        }
        case 'Deployment': {
          const accounts = refsOf('ServiceAccount');
          o = deployment(chart, `X${i}`, name, 'ns', {
            volumes: refsOf('ConfigMap').map((r) => ({ name: `v${r}`, configMap: { name: `o${r}` } })),
            containers: [{ name: 'main', image: 'nginx:1.27', envFrom: refsOf('Secret').map((r) => ({ secretRef: { name: `o${r}` } })) }],
            ...(accounts.length > 0 ? { serviceAccountName: `o${accounts[0]}` } : {}),
          });
          break;
        }
        default: o = object(chart, `X${i}`, 'v1', s.kind, name, 'ns');
      }
      for (const d of s.dependsOn) if (d < made.length) o.addDependency(made[d]);
      made.push(o);
    });
  }

  test('every referenced object is applied before its referrer (an earlier step, or earlier in the same step); no step holds a CRD and a custom resource of it', () => {
    fc.assert(
      fc.property(specs, (list) => {
        // GIVEN a random composition
        const app = newApp();
        build(app, list);

        // WHEN synthesized
        const { violations, plan } = app.synthesize();

        // THEN when accepted (a random addDependency against a reference is a cycle, refused with CAP004 only)
        if (violations.length > 0) {
          expect([...new Set(violations.map((v) => v.code))]).toEqual(['CAP004']);
          return;
        }
        const facts = collect(app);
        const position = new Map<string, [number, number]>();
        plan!.steps.forEach((s, i) => (s.objects ?? []).forEach((o, k) => position.set(o, [i, k])));
        const label = (i: number) => {
          const { group, kind, namespace, name } = facts.objects[i].identity;
          return `${group ? `${group}/` : ''}${kind} ${namespace ? `${namespace}/` : ''}${name}`;
        };
        const byKey = new Map(facts.objects.map((o, i) => [o.key, i]));
        const before = (a: string, b: string) => {
          const [sa, ka] = position.get(a)!;
          const [sb, kb] = position.get(b)!;
          return sa < sb || (sa === sb && ka < kb);
        };
        for (const r of facts.references) {
          const target = byKey.get(`${r.target.group}|${r.target.kind}|${r.target.namespace ?? ''}|${r.target.name}`);
          if (target !== undefined && target !== r.from && facts.objects[r.from].duplicateOf === undefined) {
            expect({ ref: `${label(r.from)} -> ${label(target)}`, before: before(label(target), label(r.from)) }).toEqual({ ref: `${label(r.from)} -> ${label(target)}`, before: true });
          }
        }
        for (const s of plan!.steps) {
          const objects = s.objects ?? [];
          expect(objects.includes('apiextensions.k8s.io/CustomResourceDefinition widgets.example.com') && objects.some((o) => o.startsWith('example.com/Widget '))).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('a kind pair of one chart is out of order only where keeping it would close a cycle', () => {
    fc.assert(
      fc.property(specs, (list) => {
        // GIVEN a random composition that is accepted
        const app = newApp();
        build(app, list);
        const { violations, plan } = app.synthesize();
        if (violations.length > 0) return;

        // WHEN its graph and plan order are read
        const facts = collect(app);
        const g = facts.graph;
        const nodeOf = new Map<number, number>();
        for (let n = 0; n < g.size; n++) {
          const u = g.value(n);
          if (u?.kind === 'object') nodeOf.set(u.index, n);
        }
        const order = plan!.steps.flatMap((s) => s.objects ?? []);
        const describe = (i: number) => {
          const { group, kind, namespace, name } = facts.objects[i].identity;
          return `${group ? `${group}/` : ''}${kind} ${namespace ? `${namespace}/` : ''}${name}`;
        };
        const at = (i: number) => order.indexOf(describe(i));
        const edges: Array<[number, number]> = [...g.edges()].map((e) => [e.from, e.to]);
        const firsts = facts.objects.map((_, i) => i).filter((i) => facts.objects[i].duplicateOf === undefined);
        const pairs: Array<[number, number]> = [];
        for (const u of firsts) {
          for (const v of firsts) {
            const [a, b] = [facts.objects[u], facts.objects[v]];
            if (a.chart === b.chart && kindRank(a.identity.group, a.identity.kind) < kindRank(b.identity.group, b.identity.kind)) pairs.push([u, v]);
          }
        }
        const honoured = pairs.filter(([u, v]) => at(u) < at(v)).map(([u, v]): [number, number] => [nodeOf.get(u)!, nodeOf.get(v)!]);
        const reaches = (from: number, to: number) => {
          const all = [...edges, ...honoured];
          const seen = new Set([from]);
          const stack = [from];
          while (stack.length > 0) {
            const x = stack.pop()!;
            if (x === to) return true;
            for (const [a, b] of all) if (a === x && !seen.has(b)) seen.add(b), stack.push(b);
          }
          return false;
        };

        // THEN each violated pair closes a cycle through edges and honoured pairs
        for (const [u, v] of pairs.filter(([a, b]) => at(a) > at(b))) {
          expect({ pair: `${describe(u)} < ${describe(v)}`, closesCycle: reaches(nodeOf.get(v)!, nodeOf.get(u)!) }).toEqual({ pair: `${describe(u)} < ${describe(v)}`, closesCycle: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
