import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject, Duration } from 'cdk8s';
import { parse, parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, Contribution, GitOps, PlanStep, RuntimeRouting, SharedBase } from '../src';
import { schemaProblems } from './k8s-schemas';
import { configMap, removeTempDirs, tempDir } from './util';
import type { SynthesisResult } from '../src/app/synthesize';
import { textOf } from '../src/render/file-content';
import { fluxFiles } from '../src/render/gitops/flux';
import type { RuntimeFile } from '../src/render/plan-steps';

afterAll(removeTempDirs);

/**
 * A capability with a shared base and a runtime of three steps: a CRD and a
 * Namespace; a custom resource in the namespace; a ConfigMap that depends on it.
 */
function threeStepApp(gitops?: GitOps): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops });
  const cdn = new Capability(app, 'cdn');
  new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'Origin', { stringValue: 'origin.example.com' });
  const routing = new RuntimeRouting(cdn, 'Routing');
  const settings = configMap(routing, 'Settings', 'settings', 'edge');
  const widget = new ApiObject(routing, 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'edge' } });
  settings.node.addDependency(widget);
  new ApiObject(routing, 'Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });
  new ApiObject(routing, 'WidgetCrd', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  return app;
}

function accepted(result: SynthesisResult): Map<string, string> {
  if (!result.output) throw new Error(`refused: ${result.violations.map((v) => v.message).join('\n')}`);
  return new Map([...result.output.files].map(([f, c]) => [f, textOf(c)]));
}

function gitopsPaths(files: Map<string, string>): string[] {
  return [...files.keys()].filter((f) => f.startsWith('gitops/')).sort();
}

const FLUX = GitOps.flux({ sourceRef: { name: 'platform' }, path: './clusters/prod/cdn/' });

describe('Flux', () => {
  let result: SynthesisResult;
  let files: Map<string, string>;
  beforeAll(() => {
    result = threeStepApp(FLUX).synthesize();
    files = accepted(result);
  });

  test('the plan has a deploy step and three runtime steps (the fixture is what the other tests assume)', () => {
    expect(result.plan?.steps.map((s) => `${s.lifecycle} ${s.id}`)).toEqual(['deploy cdn/Base', 'runtime cdn/Routing#1', 'runtime cdn/Routing#2', 'runtime cdn/Routing#3']);
  });

  test('writes one Kustomization per runtime step and one folder per step, each with its own kustomization.yaml', () => {
    expect(gitopsPaths(files)).toEqual([
      'gitops/flux/cluster/0001-cdn-routing-1.yaml',
      'gitops/flux/cluster/0002-cdn-routing-2.yaml',
      'gitops/flux/cluster/0003-cdn-routing-3.yaml',
      'gitops/flux/cluster/kustomization.yaml',
      'gitops/flux/steps/cdn-routing-1/0001-cdn-routing-1.yaml',
      'gitops/flux/steps/cdn-routing-1/kustomization.yaml',
      'gitops/flux/steps/cdn-routing-2/0002-cdn-routing-2.yaml',
      'gitops/flux/steps/cdn-routing-2/kustomization.yaml',
      'gitops/flux/steps/cdn-routing-3/0003-cdn-routing-3.yaml',
      'gitops/flux/steps/cdn-routing-3/kustomization.yaml',
    ]);
  });

  test('a Kustomization applies its step folder from the source, prunes, waits for readiness and depends on the step before', () => {
    // WHEN
    const second = parse(files.get('gitops/flux/cluster/0002-cdn-routing-2.yaml')!);

    // THEN
    expect(second).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'cdn-routing-2', namespace: 'flux-system' },
      spec: {
        interval: '10m',
        path: './clusters/prod/cdn/gitops/flux/steps/cdn-routing-2',
        prune: true,
        wait: true,
        sourceRef: { kind: 'GitRepository', name: 'platform' },
        dependsOn: [{ name: 'cdn-routing-1' }],
      },
    });
  });

  test('dependsOn mirrors the plan\'s dependencies between runtime steps; deploy steps are named in a comment', () => {
    // GIVEN the plan's runtime-to-runtime dependencies
    const runtimeIds = new Set(result.plan!.steps.filter((s) => s.lifecycle === 'runtime').map((s) => s.id));
    const planned = result.plan!.steps
      .filter((s) => runtimeIds.has(s.id))
      .map((s) => s.dependsOn.filter((d) => runtimeIds.has(d.step)).map((d) => d.step.replace(/[/#]/g, '-').toLowerCase()));

    // WHEN the Kustomizations are read
    const kustomizations = ['0001-cdn-routing-1', '0002-cdn-routing-2', '0003-cdn-routing-3'].map((f) => files.get(`gitops/flux/cluster/${f}.yaml`)!);

    // THEN
    expect(kustomizations.map((k) => (parse(k).spec.dependsOn ?? []).map((d: { name: string }) => d.name))).toEqual(planned);
    expect(planned).toEqual([[], ['cdn-routing-1'], ['cdn-routing-1', 'cdn-routing-2']]);
    expect(kustomizations[0]).toMatch(/^# Step cdn\/Routing#1 of plan\.json\.\n# Apply after the deploy steps cdn\/Base \(cdk deploy runs them first\)\.\n/);
  });

  test('each step folder holds a copy of the step\'s runtime file, byte-identical when every namespaced object names its namespace, listed by its kustomization.yaml', () => {
    for (const [n, step] of [[1, 'cdn-routing-1'], [2, 'cdn-routing-2'], [3, 'cdn-routing-3']] as const) {
      const file = `000${n}-${step}.yaml`;
      expect(files.get(`gitops/flux/steps/${step}/${file}`)).toBe(files.get(`runtime/${file}`));
      expect(parse(files.get(`gitops/flux/steps/${step}/kustomization.yaml`)!)).toEqual({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        sortOptions: { order: 'fifo' },
        resources: [file],
      });
    }
  });

  test('the cluster folder lists the Kustomizations in plan order', () => {
    expect(parse(files.get('gitops/flux/cluster/kustomization.yaml')!).resources).toEqual([
      '0001-cdn-routing-1.yaml',
      '0002-cdn-routing-2.yaml',
      '0003-cdn-routing-3.yaml',
    ]);
  });

  test('every Kustomization and every manifest it applies validates against the published schemas', () => {
    const docs = gitopsPaths(files)
      .filter((f) => !f.endsWith('/kustomization.yaml'))
      .flatMap((f) => parseAllDocuments(files.get(f)!).map((d) => d.toJS()))
      .filter((m) => m.kind !== 'Widget'); // the fixture's own custom kind has no published schema
    expect(docs.map((m) => m.kind).sort()).toEqual(['ConfigMap', 'CustomResourceDefinition', 'Kustomization', 'Kustomization', 'Kustomization', 'Namespace']);
    expect(schemaProblems(docs)).toEqual([]);
  });

  test('synth writes the files under <outdir>/gitops', () => {
    // GIVEN
    const app = threeStepApp(FLUX);

    // WHEN
    app.synth();

    // THEN
    expect(fs.readdirSync(path.join(app.outdir, 'gitops', 'flux', 'cluster')).sort()).toEqual([
      '0001-cdn-routing-1.yaml',
      '0002-cdn-routing-2.yaml',
      '0003-cdn-routing-3.yaml',
      'kustomization.yaml',
    ]);
  });
});

describe('Flux options', () => {
  test('interval, timeout, prune, wait, namespace and the source are written as given', () => {
    // GIVEN
    const gitops = GitOps.flux({
      sourceRef: { kind: 'OCIRepository', name: 'cdn', namespace: 'sources' },
      interval: Duration.hours(1),
      timeout: Duration.seconds(90),
      prune: false,
      wait: false,
      namespace: 'gitops',
    });

    // WHEN
    const files = accepted(threeStepApp(gitops).synthesize());

    // THEN
    expect(parse(files.get('gitops/flux/cluster/0001-cdn-routing-1.yaml')!)).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'cdn-routing-1', namespace: 'gitops' },
      spec: {
        interval: '1h',
        timeout: '90s',
        path: './dist/gitops/flux/steps/cdn-routing-1',
        prune: false,
        wait: false,
        sourceRef: { kind: 'OCIRepository', name: 'cdn', namespace: 'sources' },
      },
    });
  });

  test('durations are written in the largest whole unit, milliseconds included, as Flux reads them', () => {
    // GIVEN
    const interval = (d: Duration) => {
      const files = accepted(threeStepApp(GitOps.flux({ sourceRef: { name: 'platform' }, interval: d, timeout: d })).synthesize());
      return parse(files.get('gitops/flux/cluster/0001-cdn-routing-1.yaml')!).spec;
    };

    // THEN
    const durations = [Duration.millis(500), Duration.seconds(1.5), Duration.minutes(90), Duration.days(1)];
    expect(durations.map((d) => [interval(d).interval, interval(d).timeout])).toEqual([
      ['500ms', '500ms'],
      ['1500ms', '1500ms'],
      ['90m', '90m'],
      ['24h', '24h'],
    ]);
  });

  test.each([
    [undefined, "GitOps.flux: its options (undefined) must be an object, such as { sourceRef: { name: 'platform' } }"],
    [{ path: './clusters/prod' }, "GitOps.flux: 'sourceRef' is missing: the Flux source that holds the output, such as { name: 'platform' } (a GitRepository)"],
    [{ sourceRef: 'platform' }, 'GitOps.flux: \'sourceRef\' ("platform") must name the Flux source that holds the output, such as { name: \'platform\' } or { kind: \'OCIRepository\', name: \'platform\' }'],
    [
      { sourceRef: { name: 'platform', kind: 'HelmRepository' }, prune: 'false', wait: 0, namespace: 'Flux_System', intervall: Duration.minutes(1) },
      "GitOps.flux: 'intervall' is not an option (did you mean 'interval'?); the options are 'sourceRef', 'path', 'interval', 'timeout', 'prune', 'wait', 'namespace'; " +
        "'sourceRef.kind' (\"HelmRepository\") must be one of 'GitRepository', 'OCIRepository', 'Bucket', 'ExternalArtifact'; " +
        "'prune' (\"false\") must be true or false; 'wait' (0) must be true or false; " +
        "'namespace' (\"Flux_System\") must be a namespace: a DNS-1123 label (lowercase letters, digits and '-', at most 63), such as 'flux-system'",
    ],
    [
      { sourceRef: { name: '', namespace: 'Bad NS', ref: 'main' }, path: 42 },
      "GitOps.flux: 'sourceRef.ref' is not an option; the options are 'sourceRef.kind', 'sourceRef.name', 'sourceRef.namespace'; " +
        "'sourceRef.name' (\"\") must be the source's name: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.'), such as 'platform'; " +
        "'sourceRef.namespace' (\"Bad NS\") must be a namespace: a DNS-1123 label (lowercase letters, digits and '-', at most 63); " +
        "'path' (42) must be the outdir's path in the source, such as './clusters/prod/dist'",
    ],
    [
      { sourceRef: { name: 'platform' }, interval: '5m', timeout: Duration.seconds(0) },
      "GitOps.flux: 'interval' (\"5m\") must be a cdk8s Duration, such as Duration.minutes(10); 'timeout' (0 seconds) must be a whole number of milliseconds, more than zero",
    ],
    [{ sourceRef: { name: 'platform' }, interval: Duration.millis(0.5) }, "GitOps.flux: 'interval' (0.5 millis) must be a whole number of milliseconds, more than zero"],
  ])('GitOps.flux(%j) is refused with one coded CAP010 naming each bad option', (options, message) => {
    expect(() => GitOps.flux(options as any)).toThrow(new Error(`The composition was refused with 1 violation:\nCAP010 invalid object: ${message}`));
  });

  test('GitOps.argoCd given options (from JavaScript) is refused with CAP010, rather than dropping them', () => {
    expect(() => (GitOps.argoCd as (...given: unknown[]) => GitOps)({ namespace: 'argocd' })).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: GitOps.argoCd takes no options, but was given {"namespace":"argocd"}: ' +
        "it would drop them. Call GitOps.argoCd(); Argo CD's own settings go in its Application",
    ));
    expect(GitOps.argoCd().engine).toBe('argocd');
  });

  test('a gitops prop not made by GitOps is refused when the app is made, naming the prop', () => {
    expect(() => new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: 'flux' as any })).toThrow(
      "CAP010 invalid object: CapabilityApp props: 'gitops' (\"flux\") must be made by GitOps.flux({ sourceRef: { name: 'platform' } }) or GitOps.argoCd()",
    );
    expect(() => new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops: GitOps.flux as any })).toThrow("CAP010 invalid object: CapabilityApp props: 'gitops' (the function flux) must be made by");
  });

  test('without the gitops prop no gitops/ folder is written', () => {
    expect(gitopsPaths(accepted(threeStepApp().synthesize()))).toEqual([]);
  });
});

/**
 * A chart without a namespace: a Deployment and a ConfigMap that name none, a ClusterRole, and a custom resource
 * of a cluster-scoped CRD of the composition (in a second step, after its CRD).
 */
function namespaceLessApp(gitops: GitOps): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), gitops });
  const shop = new Capability(app, 'shop');
  const routing = new RuntimeRouting(shop, 'Routing');
  new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  });
  new ApiObject(routing, 'Reader', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] });
  const crd = new ApiObject(routing, 'GadgetCrd', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { kind: 'Gadget', plural: 'gadgets' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  new ApiObject(routing, 'Gadget', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } }).node.addDependency(crd);
  return app;
}

describe('objects that name no namespace', () => {
  const DEPLOYMENT = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  labels:',
    '    app: web',
    '  name: web',
    '  namespace: default',
    'spec:',
    '  selector:',
    '    matchLabels:',
    '      app: web',
    '  template:',
    '    metadata:',
    '      labels:',
    '        app: web',
    '    spec:',
    '      containers:',
    '        - image: nginx:1.27',
    '          name: web',
  ];
  const CLUSTER_ROLE = ['apiVersion: rbac.authorization.k8s.io/v1', 'kind: ClusterRole', 'metadata:', '  name: reader', 'rules: []'];

  test('Flux: a namespaced object names default in the step\'s copy; a ClusterRole and a custom resource of a cluster-scoped CRD stay as in runtime/', () => {
    // WHEN
    const files = accepted(namespaceLessApp(FLUX).synthesize());

    // THEN
    const copy = files.get('gitops/flux/steps/shop-routing-1/0001-shop-routing-1.yaml')!;
    const docs = copy.split('---\n');
    expect(docs.find((d) => d.includes('kind: Deployment'))).toBe([...DEPLOYMENT, ''].join('\n'));
    expect(docs.find((d) => d.includes('kind: ClusterRole'))).toBe([...CLUSTER_ROLE, ''].join('\n'));
    expect(files.get('gitops/flux/steps/shop-routing-2/0002-shop-routing-2.yaml')).toBe('apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n');
    // runtime/ is what the lock and `cdk-capability apply` read: it stays as declared
    expect(files.get('runtime/0001-shop-routing-1.yaml')).toBe(copy.replace('  namespace: default\n', ''));
  });

  test('Argo CD: a namespaced object names default in the copy; a ClusterRole gets the sync wave only', () => {
    // WHEN
    const files = accepted(namespaceLessApp(GitOps.argoCd()).synthesize());

    // THEN
    const docs = files.get('gitops/argocd/0001-shop-routing-1.yaml')!.split('---\n');
    const wave = ['  annotations:', '    argocd.argoproj.io/sync-wave: "0"'];
    expect(docs.find((d) => d.includes('kind: Deployment'))).toBe([...DEPLOYMENT.slice(0, 7), ...wave, ...DEPLOYMENT.slice(7), ''].join('\n'));
    expect(docs.find((d) => d.includes('kind: ClusterRole'))).toBe([...CLUSTER_ROLE.slice(0, 4), ...wave, ...CLUSTER_ROLE.slice(4), ''].join('\n'));
  });
});

describe('docs/gitops.md', () => {
  test('its Argo CD Application applies server-side, as the audit under argocd-controller expects, and names no destination namespace', () => {
    // GIVEN the Application example
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'gitops.md'), 'utf8');
    const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1])).filter((y) => y?.kind === 'Application');

    // THEN
    expect(examples).toHaveLength(1);
    expect(examples[0].spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true']);
    expect(examples[0].spec.destination).toEqual({ server: 'https://kubernetes.default.svc' });
  });
});

describe('fluxFiles (pure)', () => {
  function step(id: string, dependsOn: string[], lifecycle: 'deploy' | 'runtime' = 'runtime'): PlanStep {
    return { id, lifecycle, files: lifecycle === 'runtime' ? [`runtime/${id}.yaml`] : [], dependsOn: dependsOn.map((s) => ({ step: s, reasons: ['r'] })) };
  }
  function runtimeFile(id: string): RuntimeFile {
    const identity = { group: '', kind: 'ConfigMap', namespace: '', name: id };
    return { file: `runtime/${id}.yaml`, objects: [{ identity, manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id } } } as any] };
  }

  test('a diamond of steps keeps both edges into its last step and drops the edges from deploy steps', () => {
    // GIVEN base -> a -> {b, c} -> d
    const steps = [step('base', [], 'deploy'), step('a', ['base']), step('b', ['a']), step('c', ['a', 'base']), step('d', ['b', 'c'])];

    // WHEN
    const files = fluxFiles({ sourceRef: { name: 's' } }, steps, ['a', 'b', 'c', 'd'].map(runtimeFile));

    // THEN
    const dependsOn = (name: string, n: number) => parse(files.get(`gitops/flux/cluster/000${n}-${name}.yaml`)!).spec.dependsOn;
    expect([dependsOn('a', 1), dependsOn('b', 2), dependsOn('c', 3), dependsOn('d', 4)]).toEqual([
      undefined,
      [{ name: 'a' }],
      [{ name: 'a' }],
      [{ name: 'b' }, { name: 'c' }],
    ]);
  });

  test('two step ids with the same slug each add a digest of their id, whatever their order', () => {
    // GIVEN the steps a/b-c and a-b/c, which both slug to a-b-c, declared in either order
    const namesOf = (ids: string[]) => {
      const files = fluxFiles({ sourceRef: { name: 's' } }, ids.map((id) => step(id, [])), ids.map(runtimeFile));
      return ids.map((id, i) => [id, parse(files.get([...files.keys()].find((f) => f.startsWith(`gitops/flux/cluster/000${i + 1}-`))!)!).metadata.name]);
    };

    // THEN each keeps its name in both orders; a step whose slug is its own keeps the plain slug
    expect(namesOf(['a/b-c', 'a-b/c'])).toEqual([['a/b-c', 'a-b-c-b88f83c840'], ['a-b/c', 'a-b-c-4e84717d75']]);
    expect(namesOf(['a-b/c', 'a/b-c'])).toEqual([['a-b/c', 'a-b-c-4e84717d75'], ['a/b-c', 'a-b-c-b88f83c840']]);
    expect(namesOf(['a/b-c'])).toEqual([['a/b-c', 'a-b-c']]);
  });

  test('a dependency on a step whose name carries a digest names it so', () => {
    const files = fluxFiles({ sourceRef: { name: 's' } }, [step('a/b', []), step('a-b', ['a/b'])], [runtimeFile('a/b'), runtimeFile('a-b')]);
    expect(parse(files.get('gitops/flux/cluster/0002-a-b-d44362d67d.yaml')!).spec.dependsOn).toEqual([{ name: 'a-b-c14cddc033' }]);
  });

  test('without runtime steps the cluster folder still has its kustomization.yaml, with no resources', () => {
    const files = fluxFiles({ sourceRef: { name: 's' } }, [step('base', [], 'deploy')], []);
    expect([...files.keys()]).toEqual(['gitops/flux/cluster/kustomization.yaml']);
    expect(parse(files.get('gitops/flux/cluster/kustomization.yaml')!)).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      sortOptions: { order: 'fifo' },
      resources: [],
    });
  });
});

describe('Argo CD', () => {
  test('every runtime manifest carries the sync wave of its step, counted from 0 over the runtime steps', () => {
    // WHEN
    const files = accepted(threeStepApp(GitOps.argoCd()).synthesize());

    // THEN
    expect(gitopsPaths(files)).toEqual(['gitops/argocd/0001-cdn-routing-1.yaml', 'gitops/argocd/0002-cdn-routing-2.yaml', 'gitops/argocd/0003-cdn-routing-3.yaml']);
    const waves = gitopsPaths(files).map((f) =>
      parseAllDocuments(files.get(f)!).map((d) => `${d.toJS().kind}=${d.toJS().metadata.annotations['argocd.argoproj.io/sync-wave']}`),
    );
    expect(waves).toEqual([['Namespace=0', 'CustomResourceDefinition=0'], ['Widget=1'], ['ConfigMap=2']]);
  });

  test('the runtime files themselves stay without the annotation', () => {
    const files = accepted(threeStepApp(GitOps.argoCd()).synthesize());
    expect(files.get('runtime/0001-cdn-routing-1.yaml')).not.toContain('sync-wave');
  });

  test('the annotated manifests validate against the published schemas', () => {
    const files = accepted(threeStepApp(GitOps.argoCd()).synthesize());
    const docs = gitopsPaths(files).flatMap((f) => parseAllDocuments(files.get(f)!).map((d) => d.toJS())).filter((m) => m.kind !== 'Widget');
    expect(schemaProblems(docs)).toEqual([]);
  });

  test('an object that sets the sync-wave annotation itself is refused with CAP002, naming its declarer', () => {
    // GIVEN
    const app = threeStepApp(GitOps.argoCd());
    const routing = app.node.findChild('cdn').node.findChild('Routing');
    new ApiObject(routing, 'Early', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'early', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } } });

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP002 field conflict: ConfigMap early declared by \'cdn/Routing/Early\' writes metadata.annotations["argocd.argoproj.io/sync-wave"] ("-1"), which GitOps.argoCd() writes from the plan. Remove the annotation and order the object with addDependency.',
    ]);
  });

  test('a Contribution that sets the sync-wave annotation is refused with CAP002, naming the Contribution', () => {
    // GIVEN
    const app = threeStepApp(GitOps.argoCd());
    const routing = app.node.findChild('cdn').node.findChild('Routing');
    const target = routing.node.findChild('Settings') as ApiObject;
    new Contribution(routing, 'Team', { target, fields: { metadata: { annotations: { 'argocd.argoproj.io/sync-wave': '3' } } } });

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => `${v.code} ${v.message} [${v.paths?.join(', ')}]`)).toEqual([
      'CAP002 field conflict: ConfigMap edge/settings declared by \'cdn/Routing/Settings\': \'cdn/Routing/Team\' writes metadata.annotations["argocd.argoproj.io/sync-wave"] ("3"), which GitOps.argoCd() writes from the plan. Remove the annotation and order the object with addDependency. [cdn/Routing/Team]',
    ]);
  });
});
