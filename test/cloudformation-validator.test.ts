import * as fs from 'fs';
import * as path from 'path';
import { App, cloudformation_include as include, LegacyStackSynthesizer, Stack } from 'aws-cdk-lib';
import { newApp, removeTempDirs, tempDir } from './util';
import { CdnCapability } from '../examples/cdn/cdn-capability';

afterAll(removeTempDirs);

/**
 * The one integration test with aws-cdk-lib's built-in CloudFormation validator
 * on (everywhere else it is off: it costs seconds per synth). Our stacks live
 * under a Stage, where aws-cdk never runs it, so each synthesized template is
 * included into a stack of a plain aws-cdk App that does, with the feature
 * flag that makes its findings errors.
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
