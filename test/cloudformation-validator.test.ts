import * as fs from 'fs';
import * as path from 'path';
import { App, aws_ssm as ssm, cloudformation_include as include, CloudFormationValidatePlugin, LegacyStackSynthesizer, Stack, Stage } from 'aws-cdk-lib';
import { CdnCapability } from '../examples/cdn/cdn-capability';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { ResourceOverridesExample } from './fixtures/corpus/aws-cdk/resource-overrides';
import { ResourceOverridesExample as PortedResourceOverrides } from './fixtures/corpus/aws-cdk/resource-overrides/ported';
import { newApp, removeTempDirs, tempDir } from './util';

// The one test file with aws-cdk's built-in template validator on: test/setup-env.ts turns it off everywhere.
const saved = process.env.CDK_VALIDATION;
beforeAll(() => delete process.env.CDK_VALIDATION);
afterAll(() => {
  process.env.CDK_VALIDATION = saved;
  removeTempDirs();
});

/**
 * The one integration test with aws-cdk-lib's built-in CloudFormation validator
 * on (everywhere else it is off: it costs seconds per synth). Here each
 * synthesized template is included into a stack of a plain aws-cdk App, which
 * runs it, as the oracle of what aws-cdk reports; the tests below check that a
 * CapabilityApp reports the same, with the same severities and switches.
 */
function validate(templates: string[]): { findings: string[]; report: any } {
  const outdir = tempDir('cfn-validate-');
  const app = new App({ outdir, builtinCloudFormationValidation: true, context: { '@aws-cdk/core:validateAgainstDefaultRules': false } });
  templates.forEach((file, i) => {
    const stack = new Stack(app, `Template${i}`, { synthesizer: new LegacyStackSynthesizer() });
    new include.CfnInclude(stack, 'Included', { templateFile: file });
  });
  app.synth();
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf-8'));
  const findings = report.pluginReports.flatMap((p: any) => p.violations.map((v: any) => `${v.ruleName}: ${v.description}`));
  return { findings, report };
}

function cdnTemplates(): string[] {
  const app = newApp();
  new CdnCapability(app, 'cdn', {
    hostedZone: { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'cdn.example.com' },
    originDomainName: 'origin.cdn.example.com',
    gateway: { name: 'edge', namespace: 'gateway-system' },
    backends: { web: { image: 'ghcr.io/example/cdn-web:1.4.2', port: 8080 } },
    tenants: [{ id: 'acme', backend: 'web' }, { id: 'globex', backend: 'web' }],
  });
  app.synth();
  const deploy = path.join(app.outdir, 'deploy');
  return fs.readdirSync(deploy).filter((f) => f.endsWith('.template.json')).sort().map((f) => path.join(deploy, f));
}

test('the CDN capability\'s templates pass aws-cdk-lib\'s built-in CloudFormation validator with no finding', () => {
  // GIVEN the templates of the bundled CDN capability, synthesized by cdk-capability
  const templates = cdnTemplates();
  expect(templates).toHaveLength(3);

  // WHEN the real validator reads them
  const { findings, report } = validate(templates);

  // THEN it ran (it always writes its report) and found nothing
  expect(report.title).toEqual('Validation Report');
  expect(findings).toEqual([]);
});

test('the same validator reports a template property CloudFormation does not know, so the check above can fail', () => {
  // GIVEN a template with a property AWS::SSM::Parameter does not have
  const file = path.join(tempDir('bad-template-'), 'bad.template.json');
  fs.writeFileSync(file, JSON.stringify({ Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x', Bogus: 1 } } } }));

  // WHEN validated
  const { findings } = validate([file]);

  // THEN the finding names the property
  expect(findings).toEqual(["F3002: Bogus: Additional properties are not allowed ('Bogus' was unexpected)"]);
});

describe('a CapabilityApp runs aws-cdk\'s template validator on each capability\'s stacks, as an aws-cdk App does', () => {
  /** A capability whose shared base holds an SSM parameter with a property CloudFormation does not know (F3002). */
  function badApp(props: ConstructorParameters<typeof CapabilityApp>[0] = {}): CapabilityApp {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), ...props });
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    (new ssm.StringParameter(base, 'P', { stringValue: 'x' }).node.defaultChild as ssm.CfnParameter).addPropertyOverride('Bogus', 1);
    return app;
  }

  test('by default its findings are warnings, as aws-cdk reports them, and the composition is accepted', () => {
    // WHEN synthesized
    const result = badApp().synthesize();

    // THEN accepted, with the validator's finding as a CAP010 warning naming the stack, resource and rule
    expect(result.violations).toEqual([]);
    expect(result.warnings.map((w) => `${w.code} ${w.message}`)).toEqual([
      expect.stringMatching(/^CAP010 template validator finding: the template of stack 'cdn\/Base', resource P[0-9A-F]{8} \('cdn\/Base\/P\/Resource'\): F3002 Bogus: Additional properties are not allowed \('Bogus' was unexpected\)\. aws-cdk reports this as a warning; set the feature flag "@aws-cdk\/core:validateAgainstDefaultRules" to true/),
    ]);
  });

  test('with aws-cdk\'s own feature flag the same finding is an error that refuses the composition', () => {
    // WHEN synthesized with @aws-cdk/core:validateAgainstDefaultRules, as cdk.json would set it
    const result = badApp({ context: { '@aws-cdk/core:validateAgainstDefaultRules': true } }).synthesize();

    // THEN refused with CAP010
    expect(result.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      expect.stringMatching(/^CAP010 template validator finding: the template of stack 'cdn\/Base', resource P[0-9A-F]{8} .*: F3002 Bogus: .* aws-cdk's template validator refuses it/),
    ]);
  });

  test('a stack without resources (F0001) is told to declare one or drop the stack, not to fix a property', () => {
    // GIVEN (a user trial: the README's tenant stacks were empty) a shared base with a parameter, a tenant stack with nothing
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const cdn = new Capability(app, 'cdn');
    new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'P', { stringValue: 'x' });
    new DeploymentAggregate(cdn, 'acme');

    // WHEN
    const result = app.synthesize();

    // THEN one warning, for the empty stack
    expect(result.warnings.map((w) => `${w.code} ${w.message}`)).toEqual([
      "CAP010 template validator finding: stack 'cdn/acme' declares no resource (the validator's F0001: Resources section must exist and be non-empty), "
        + "and CloudFormation refuses a template without one at deploy. Declare a resource in stack 'cdn/acme', or drop the stack.",
    ]);
  });

  test('a SharedBase with no resource is a warning that says what it is and the fix, with no flag to turn', () => {
    // GIVEN a capability whose base declares nothing yet
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new SharedBase(new Capability(app, 'shop'), 'Base');

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([{
      code: 'CAP010',
      message: "template validator finding: stack 'shop/Base' declares no resource (the validator's F0001: Resources section must exist and be non-empty), "
        + "and CloudFormation refuses a template without one at deploy. Declare a resource in stack 'shop/Base', or drop the stack.",
      paths: ['shop/Base'],
    }]);
  });

  test('the same template gives the same finding in a plain aws-cdk App (the oracle)', () => {
    // GIVEN the template the CapabilityApp wrote
    const app = badApp();
    app.synth();
    const deploy = path.join(app.outdir, 'deploy');
    const templates = fs.readdirSync(deploy).filter((f) => f.endsWith('.template.json')).map((f) => path.join(deploy, f));

    // WHEN aws-cdk validates it
    const { findings } = validate(templates);

    // THEN the same rule and text
    expect(findings).toEqual(["F3002: Bogus: Additional properties are not allowed ('Bogus' was unexpected)"]);
  });

  test('one validator call covers every stack of every capability, as an aws-cdk App makes it, and each stack gets its own finding', () => {
    // GIVEN two capabilities, three stacks, each with the same bad property (the validator merges one finding of several templates)
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    for (const [capability, stacks] of [['cdn', ['Base', 'Edge']], ['api', ['Base']]] as const) {
      const c = new Capability(app, capability);
      for (const id of stacks) {
        const stack = id === 'Base' ? new SharedBase(c, id) : new DeploymentAggregate(c, id);
        (new ssm.StringParameter(stack, 'P', { stringValue: 'x' }).node.defaultChild as ssm.CfnParameter).addPropertyOverride('Bogus', 1);
      }
    }
    const calls = jest.spyOn(CloudFormationValidatePlugin.prototype, 'validate');

    // WHEN synthesized twice
    let first, second, validated;
    try {
      first = app.synthesize();
      second = app.synthesize();
      validated = calls.mock.calls.map(([context]) => context.stackTemplates.map((t) => t.stackConstructPath));
    } finally {
      calls.mockRestore();
    }

    // THEN one call per synth, over all three templates; one warning per stack, naming its own resource
    expect(validated).toEqual([
      ['cdn/Base', 'cdn/Edge', 'api/Base'],
      ['cdn/Base', 'cdn/Edge', 'api/Base'],
    ]);
    for (const result of [first, second]) {
      expect(result.violations).toEqual([]);
      expect(result.warnings.map((w) => w.message.replace(/P[0-9A-F]{8}/, 'P*').split(': F3002')[0]).sort()).toEqual([
        "template validator finding: the template of stack 'api/Base', resource P* ('api/Base/P/Resource')",
        "template validator finding: the template of stack 'cdn/Base', resource P* ('cdn/Base/P/Resource')",
        "template validator finding: the template of stack 'cdn/Edge', resource P* ('cdn/Edge/P/Resource')",
      ]);
    }
  });

  test('CDK_VALIDATION=false and the app prop builtinCloudFormationValidation: false turn it off', () => {
    // WHEN synthesized with the prop off
    const offByProp = badApp({ builtinCloudFormationValidation: false }).synthesize();
    // AND with the variable off
    process.env.CDK_VALIDATION = 'false';
    let offByEnv;
    try {
      offByEnv = badApp().synthesize();
    } finally {
      delete process.env.CDK_VALIDATION;
    }

    // THEN neither reports a finding
    expect(offByProp.warnings).toEqual([]);
    expect(offByEnv.warnings).toEqual([]);
  });
});

describe('aws-cdk-examples resource-overrides (test/fixtures/corpus) under the validator', () => {
  const dir = path.join(__dirname, 'fixtures', 'corpus', 'aws-cdk', 'resource-overrides');

  /** Runs `build` in the example's folder (it reads files relative to the working directory). */
  function inExample<T>(build: () => T): T {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      return build();
    } finally {
      process.chdir(cwd);
    }
  }

  test('a CapabilityApp reports, as warnings, the findings plain aws-cdk reports for the same template, and accepts it with its overrides', () => {
    // GIVEN the example's stack ported into a capability, and the same stack under a plain aws-cdk App in a Stage named as the capability
    const ours = inExample(() => {
      const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
      new PortedResourceOverrides(new Capability(app, 'shop', { prefixStackNames: false }), 'resource-overrides');
      return app.synthesize();
    });
    const outdir = tempDir('plain-validate-');
    inExample(() => {
      const context = JSON.parse(fs.readFileSync('cdk.json', 'utf-8')).context; // what the aws-cdk CLI passes from cdk.json
      const app = new App({ outdir, builtinCloudFormationValidation: true, context });
      new ResourceOverridesExample(new Stage(app, 'shop', { stageName: '' }) as unknown as App, 'resource-overrides');
      const quiet = (['log', 'warn', 'error'] as const).map((stream) => jest.spyOn(console, stream).mockImplementation(() => undefined));
      try {
        app.synth(); // aws-cdk prints its report; the test reads validation-report.json
      } finally {
        quiet.forEach((spy) => spy.mockRestore());
      }
    });
    const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf-8'));
    const plain: string[] = report.pluginReports.flatMap((p: any) => p.violations.map((v: any) => `${v.ruleName} ${v.description}`)).sort();

    // THEN accepted, its overrides in the plan, and one CAP010 warning per finding of plain aws-cdk, with its rule and text
    expect(ours.violations).toEqual([]);
    expect(ours.plan!.ownership!.overrides.map((o) => o.field)).toContain('CorsConfiguration.Bar');
    expect(plain.map((f) => f.split(' ')[0])).toEqual(['E3001', 'E3016', 'F3002', 'F3006']); // Transform, UpdatePolicy, Foo, the type AWS::S3::Bucketeer
    const warned = ours.warnings.map((w) => w.message);
    expect(warned).toHaveLength(plain.length);
    for (const finding of plain) expect(warned.some((m) => m.includes(`: ${finding}. aws-cdk reports this as a warning`))).toBe(true);
  });
});
