import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Capability, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { configMap, newApp, removeTempDirs, stepSummary } from './util';
import { textOf } from '../src/render/file-content';

afterAll(removeTempDirs);

const SHARED_BASE_REASON = 'shared base before tenant aggregate';
const DEPLOY_BEFORE_RUNTIME_REASON = 'deployment time before runtime';
const EXPLICIT_REASON = 'explicit dependency (addDependency)';

describe('deployment-time ordering', () => {
  test('the shared base is deployed before each tenant aggregate, even when declared after them', () => {
    // GIVEN two tenant aggregates declared before the shared base
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    new DeploymentAggregate(cdn, 'acme');
    new DeploymentAggregate(cdn, 'globex');
    const base = new SharedBase(cdn, 'Base');
    new ssm.StringParameter(base, 'Origin', { parameterName: '/cdn/origin', stringValue: 'origin.example.com' });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Base', objects: undefined, dependsOn: [] },
      { id: 'cdn/acme', objects: undefined, dependsOn: [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }] },
      { id: 'cdn/globex', objects: undefined, dependsOn: [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }] },
    ]);
  });

  test('the cloud assembly records each tenant aggregate\'s dependency on the shared base', () => {
    // GIVEN a shared base and one tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const base = new SharedBase(cdn, 'Base');

    // WHEN synthesized
    const { output } = app.synthesize();

    // THEN `cdk deploy --all` would deploy the base first
    const manifest = JSON.parse(textOf(output!.files.get('deploy/manifest.json')!));
    expect(manifest.artifacts[acme.artifactId].dependencies).toContain(base.artifactId);
    expect(manifest.artifacts[base.artifactId].dependencies).not.toContain(acme.artifactId);
  });

  test('every stack of a capability is deployed before its runtime steps', () => {
    // GIVEN a runtime chart declared before the stacks
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const routing = new RuntimeRouting(cdn, 'Routing');
    configMap(routing, 'Settings', 'settings');
    new SharedBase(cdn, 'Base');
    new DeploymentAggregate(cdn, 'acme');

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN the runtime step waits for both stacks
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Base', objects: undefined, dependsOn: [] },
      { id: 'cdn/acme', objects: undefined, dependsOn: [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }] },
      {
        id: 'cdn/Routing',
        objects: ['ConfigMap settings'],
        dependsOn: [
          { step: 'cdn/Base', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
          { step: 'cdn/acme', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
        ],
      },
    ]);
  });

  test('each capability\'s tenants wait for their own shared base only', () => {
    // GIVEN two capabilities, each with a base and a tenant
    const app = newApp();
    for (const name of ['dns', 'cdn']) {
      const capability = new Capability(app, name);
      new SharedBase(capability, 'Base');
      new DeploymentAggregate(capability, 'acme');
    }

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'dns/Base', objects: undefined, dependsOn: [] },
      { id: 'cdn/Base', objects: undefined, dependsOn: [] },
      { id: 'dns/acme', objects: undefined, dependsOn: [{ step: 'dns/Base', reasons: [SHARED_BASE_REASON] }] },
      { id: 'cdn/acme', objects: undefined, dependsOn: [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }] },
    ]);
  });

  test('an explicit dependency between two tenant aggregates of one capability orders them, with its reason', () => {
    // GIVEN globex must deploy after acme
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const globex = new DeploymentAggregate(cdn, 'globex');
    globex.node.addDependency(acme);

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN globex waits for acme, once, as the explicit dependency (the cloud assembly's is the same one)
    expect(violations).toEqual([]);
    expect(plan!.steps.map((s) => s.id)).toEqual(['cdn/Base', 'cdn/acme', 'cdn/globex']);
    expect(plan!.steps[2].dependsOn).toEqual([
      { step: 'cdn/Base', reasons: [SHARED_BASE_REASON] },
      { step: 'cdn/acme', reasons: [EXPLICIT_REASON] },
    ]);
  });

  test('a tenant aggregate made to depend on another with addStackDependency waits for it as an explicit dependency', () => {
    // GIVEN globex must deploy after acme, the aws-cdk way
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const globex = new DeploymentAggregate(cdn, 'globex');
    globex.addStackDependency(acme);

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN the program's call is named as an explicit dependency, not as the cloud assembly's
    expect(violations).toEqual([]);
    expect(plan!.steps[2].dependsOn).toEqual([
      { step: 'cdn/Base', reasons: [SHARED_BASE_REASON] },
      { step: 'cdn/acme', reasons: [EXPLICIT_REASON] },
    ]);
  });

  test('a stack dependency aws-cdk adds for a cross-stack reference keeps its reason, and is named by the reference', () => {
    // GIVEN tenant globex reads a parameter of tenant acme, which makes aws-cdk add the stack dependency at synth
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const globex = new DeploymentAggregate(cdn, 'globex');
    const origin = new ssm.StringParameter(acme, 'Origin', { parameterName: '/cdn/acme/origin', stringValue: 'acme.example.com' });
    new ssm.StringParameter(globex, 'Copy', { parameterName: '/cdn/globex/origin', stringValue: origin.stringValue });

    // WHEN synthesized
    const { violations, plan, facts } = app.synthesize();

    // THEN the step waits for the cloud assembly's dependency, named by the reference behind it, as the graph's edge names it
    expect(violations).toEqual([]);
    expect(plan!.steps[2].dependsOn).toEqual([
      { step: 'cdn/Base', reasons: [SHARED_BASE_REASON] },
      { step: 'cdn/acme', reasons: ['stack dependency (cloud assembly), cdn/globex -> cdn/acme/Origin/Resource.Value'] },
    ]);
    const graph = facts!.graph;
    expect([...graph.edges()].filter((e) => graph.label(e.from) === 'cdn/acme' && graph.label(e.to) === 'cdn/globex').map((e) => [e.reason, e.origin])).toEqual([
      ['stack dependency (cloud assembly)', 'cdn/globex -> cdn/acme/Origin/Resource.Value'],
    ]);
  });

  test('a tenant that reads a value of its shared base waits for it, named by the reference', () => {
    // GIVEN tenant acme reads a parameter of the shared base, which makes aws-cdk add the dependency the base wiring also makes
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const origin = new ssm.StringParameter(base, 'Origin', { parameterName: '/cdn/origin', stringValue: 'example.com' });
    new ssm.StringParameter(acme, 'Copy', { parameterName: '/cdn/acme/origin', stringValue: origin.stringValue });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN the tenant's step waits for the base, for the wiring and the reference it names
    expect(violations).toEqual([]);
    expect(plan!.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['cdn/Base', []],
      ['cdn/acme', [{ step: 'cdn/Base', reasons: [`${SHARED_BASE_REASON}, cdn/acme -> cdn/Base/Origin/Resource.Value`] }]],
    ]);
  });

  test('a dependency between stacks of two capabilities is refused with advice, since each capability deploys on its own', () => {
    // GIVEN a platform app: the cdn tenant wants the dns capability's base first
    const app = newApp();
    const dnsBase = new SharedBase(new Capability(app, 'dns'), 'Base');
    const cdn = new Capability(app, 'cdn');
    new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    acme.node.addDependency(dnsBase);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is refused with a coded violation that says what to do instead
    expect(violations.map((v) => v.code)).toEqual(['CAP010']);
    expect(violations[0].message).toMatch(
      /^invalid object: the stacks of capability 'cdn' could not be synthesized: .*cross stage boundaries.*\. Each capability deploys on its own; share values between capabilities through an InterfaceContract, or put stacks that depend on each other in one capability\.$/,
    );
    expect(violations[0].paths).toEqual(['cdn']);
  });

  test("an environment-specific tenant that references its environment-agnostic base: aws-cdk's words quoted, and the fix", () => {
    // GIVEN a tenant with an account and region, reading a parameter of a base without
    const app = newApp();
    const shop = new Capability(app, 'shop');
    const parameter = new ssm.CfnParameter(new SharedBase(shop, 'Base'), 'P', { type: 'String', value: 'x' });
    const acme = new DeploymentAggregate(shop, 'acme', { env: { account: '111111111111', region: 'eu-west-1' } });
    new ssm.CfnParameter(acme, 'Q', { type: 'String', value: parameter.ref });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: the stacks of capability 'shop' could not be synthesized: aws-cdk says \"Stack \"shop/acme\" cannot reference {shop/Base/P[Ref]} in stack \"shop/Base\". "
        + 'Cross stack/region references are only supported for stacks with an explicit region defined." '
        + "Give stack 'shop/Base' the same env as stack 'shop/acme' (env: { account, region }), so both deploy to one account and region; "
        + 'or pass the value through an InterfaceContract (publish and consume) or an SSM parameter read by its name, not a token of the other stack.',
    ]);
  });

  test('a capability\'s runtime does not wait for another capability\'s stacks', () => {
    // GIVEN capability "dns" with only a stack, then capability "cdn" with only a chart
    const app = newApp();
    new SharedBase(new Capability(app, 'dns'), 'Base');
    configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', 'settings');

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN the two steps are independent, in creation order
    expect(stepSummary(plan)).toEqual([
      { id: 'dns/Base', objects: undefined, dependsOn: [] },
      { id: 'cdn/Routing', objects: ['ConfigMap settings'], dependsOn: [] },
    ]);
  });
});
