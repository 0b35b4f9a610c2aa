/**
 * CAP002 over a value the declarer has only from cdk8s-plus's defaults: the message says it is a default and
 * offers the fixes (set it in the declarer, `force: true`, and for replicas cdk8s-plus's autoscaler mark). The
 * table of defaults is pinned to what cdk8s-plus 30 and 33 render.
 */
import * as path from 'path';
import { ApiObject, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as kplus33 from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { capturingOutput, newApp, removeTempDirs } from './util';
import { contributes, declares } from './write-fixtures';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, Violation } from '../src';
import { main } from '../src/cli/main';
import { formatPath } from '../src/collect/ledger/field-path';
import { CDK8S_PLUS_DEFAULTS, libraryDefaultsOf } from '../src/collect/ledger/library-defaults';
import { topologyOf } from '../src/collect/topology/field-topology';

afterAll(removeTempDirs);

/** GIVEN-side helper: a cdk8s-plus Deployment `shop/web` with container `web`, declared by `shop/Routing/Web`, and a team. */
function fixture(props: Partial<kplus.DeploymentProps> = {}, container: Partial<kplus.ContainerProps> = {}) {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' }, ...props });
  web.addContainer({ name: 'web', image: 'nginx:1.27', ...container });
  return { app, web, team: new Construct(routing, 'Platform') };
}

const codeLines = (violations: readonly Violation[]) => violations.map((v) => `${v.code} ${v.message}`);
const CONTAINER = 'spec.template.spec.containers[name=web]';
const container = (fields: Record<string, unknown>) => ({ spec: { template: { spec: { containers: [{ name: 'web', ...fields }] } } } });

describe('the table of cdk8s-plus defaults', () => {
  test.each([
    ['cdk8s-plus-30', (c: Construct) => new kplus.Deployment(c, 'Web')],
    ['cdk8s-plus-33', (c: Construct) => new kplus33.Deployment(c, 'Web')],
  ] as const)('is what %s renders for a Deployment with one container and no props', (_major, make) => {
    // GIVEN a Deployment with nothing set
    const chart = Testing.chart();
    const d = make(chart);
    d.addContainer({ name: 'web', image: 'nginx' });
    const apiObject = d.node.findChild('Resource') as ApiObject;

    // WHEN
    const manifest = Testing.synth(chart)[0];
    const found = libraryDefaultsOf(apiObject, manifest, topologyOf('apps/v1', 'Deployment'));

    // THEN every entry of the table is found, with the value rendered
    const paths = found.map((f) => formatPath(f.path));
    expect(paths).toEqual([
      'spec.replicas',
      'spec.strategy.type',
      'spec.strategy.rollingUpdate.maxSurge',
      'spec.strategy.rollingUpdate.maxUnavailable',
      'spec.template.spec.securityContext.fsGroupChangePolicy',
      'spec.template.spec.securityContext.runAsNonRoot',
      ...CDK8S_PLUS_DEFAULTS.container.map(([p]) => `${CONTAINER}.${p.join('.')}`),
    ]);
    expect(found[0].value).toBe(2);
  });

  test('a value set in props is not a default, even when it equals one (replicas), nor one that differs', () => {
    const chart = Testing.chart();
    const d = new kplus.Deployment(chart, 'Web', { replicas: 2, strategy: kplus.DeploymentStrategy.recreate() });
    d.addContainer({ name: 'web', image: 'nginx', imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT, securityContext: { readOnlyRootFilesystem: false } });
    const found = libraryDefaultsOf(d.node.findChild('Resource') as ApiObject, Testing.synth(chart)[0], topologyOf('apps/v1', 'Deployment'));

    expect(found.map((f) => formatPath(f.path)).filter((p) => /replicas|strategy|imagePullPolicy|readOnlyRootFilesystem/.test(p))).toEqual([]);
  });
});

describe('CAP002 against a cdk8s-plus default', () => {
  test('a Contribution of spec.replicas over the default says so and offers force and the autoscaler mark', () => {
    // GIVEN a Deployment that never set replicas
    const { app, web, team } = fixture();

    // WHEN the platform team contributes replicas
    new Contribution(team, 'Scale', { target: web, fields: { spec: { replicas: 5 } } });

    // THEN
    expect(codeLines(app.synthesize().violations)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Platform/Scale' writes spec.replicas of apps/Deployment shop/web, which 'shop/Routing/Web' has only from cdk8s-plus's default (spec.replicas: 2). " +
        "Hand the field over: set the value in the props of 'shop/Routing/Web' and drop it from the other writer, or give 'shop/Routing/Platform/Scale' force: true to take it, " +
        "or call markHasAutoscaler() on 'shop/Routing/Web' so that cdk8s-plus leaves replicas to the autoscaler.",
    ]);
  });

  test.each([
    ['resources.limits.memory', container({ resources: { limits: { memory: '4Gi' } } }), `${CONTAINER}.resources.limits.memory: "2048Mi"`],
    ['imagePullPolicy', container({ imagePullPolicy: 'IfNotPresent' }), `${CONTAINER}.imagePullPolicy: "Always"`],
    ['strategy.type', { spec: { strategy: { type: 'Recreate' } } }, 'spec.strategy.type: "RollingUpdate"'],
    ['securityContext.readOnlyRootFilesystem', container({ securityContext: { readOnlyRootFilesystem: false } }), `${CONTAINER}.securityContext.readOnlyRootFilesystem: true`],
  ])('a Contribution of %s over the default says so and offers force', (_field, fields, shown) => {
    const { app, web, team } = fixture();
    new Contribution(team, 'Tune', { target: web, fields });

    const field = shown.split(':')[0];
    expect(codeLines(app.synthesize().violations)).toEqual([
      `CAP002 field conflict: 'shop/Routing/Platform/Tune' writes ${field} of apps/Deployment shop/web, which 'shop/Routing/Web' has only from cdk8s-plus's default (${shown}). ` +
        "Hand the field over: set the value in the props of 'shop/Routing/Web' and drop it from the other writer, or give 'shop/Routing/Platform/Tune' force: true to take it.",
    ]);
  });

  test('replicas set in props keep the message of an explicit value', () => {
    const { app, web, team } = fixture({ replicas: 2 });
    new Contribution(team, 'Scale', { target: web, fields: { spec: { replicas: 5 } } });

    expect(codeLines(app.synthesize().violations)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Platform/Scale' and 'shop/Routing/Web' both write spec.replicas of apps/Deployment shop/web. "
        + `Give each field one owner: drop it from one of them (${contributes('fields', 'shop/Routing/Platform/Scale')}; ${declares('shop/Routing/Web')}).`,
    ]);
  });

  test('a write callback over a default names the callback\'s Contribution the same way', () => {
    const { app, web, team } = fixture();
    new Contribution(team, 'Pull', { target: web, write: (d) => ApiObject.of(d).addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/imagePullPolicy', 'Never')) });

    expect(codeLines(app.synthesize().violations)[0]).toMatch(/^CAP002 field conflict: 'shop\/Routing\/Platform\/Pull' writes spec\.template\.spec\.containers\[name=web\]\.imagePullPolicy of apps\/Deployment shop\/web, which 'shop\/Routing\/Web' has only from cdk8s-plus's default/);
  });
});

describe('force: true hands a field over', () => {
  test('a forced Contribution of replicas takes them from the declarer: the output has its value, plan.json and `cdk-capability plan` record the handover', () => {
    // GIVEN / WHEN
    const { app, web, team } = fixture();
    new Contribution(team, 'Scale', { target: web, fields: { spec: { replicas: 5 } }, force: true });

    // THEN accepted, with the contribution's value
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'Deployment')?.spec.replicas).toBe(5);
    expect(result.plan!.ownership!.handovers).toEqual([{ object: 'apps/Deployment shop/web', field: 'spec.replicas', from: 'shop/Routing/Web', to: 'shop/Routing/Platform/Scale', reason: 'force' }]);

    // AND the plan command prints it from plan.json on disk
    app.synth();
    const { result: code, stdout } = capturingOutput(() => main(['plan', '--plan', path.join(app.outdir, 'plan.json')]));
    expect(code).toBe(2);
    expect(stdout).toContain("\nHandovers in this release:\n  ~ apps/Deployment shop/web spec.replicas: 'shop/Routing/Web' -> 'shop/Routing/Platform/Scale' (force)\n");
  });

  test('two forced Contributions of one leaf are a CAP002; each took its other leaves from the declarer, not from each other', () => {
    const { app, web, team } = fixture();
    new Contribution(team, 'Limits', { target: web, fields: container({ resources: { limits: { cpu: '2', memory: '1Gi' } } }), force: true });
    new Contribution(team, 'Memory', { target: web, fields: container({ resources: { limits: { memory: '4Gi' } } }), force: true });

    expect(codeLines(CapabilityTesting.synth(app).violations)).toEqual([
      `CAP002 field conflict: 'shop/Routing/Platform/Limits' and 'shop/Routing/Platform/Memory' both write ${CONTAINER}.resources.limits.memory of apps/Deployment shop/web with force: true `
      + `('shop/Routing/Platform/Limits' writes ${CONTAINER}.resources.limits.memory: "1Gi"; 'shop/Routing/Platform/Memory' writes ${CONTAINER}.resources.limits.memory: "4Gi"). `
      + "force: true takes a field from its owner, not from another writer with force: true, so only the last one's value would reach the output. "
      + 'Give each field one owner: drop the field from one of them, or make them one Contribution.',
    ]);
  });

  test('markHasAutoscaler() leaves replicas to the Contribution: no conflict, no handover', () => {
    const { app, web, team } = fixture();
    web.markHasAutoscaler();
    new Contribution(team, 'Scale', { target: web, fields: { spec: { replicas: 5 } } });

    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'Deployment')?.spec.replicas).toBe(5);
    expect(result.plan!.ownership?.handovers ?? []).toEqual([]);
  });
});
