import { Aspects, IAspect, aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { IConstruct } from 'constructs';
import { appFolder, cli, cliInProcess, CliRun, readWorkflowCommand, RUN_TS, sarifErrors, schemaErrors } from './cifail-cli';
import { HANG_GUARD_MS, removeTempDirs, lineOf as lineIn } from './util';
import { Capability, Contribution, RuntimeRouting, SharedBase } from '../src';
import { placementOf } from '../src/check/finding';
import { CapabilityTesting } from '../src/testing';

// A new user's try: a cdk8s-plus Deployment, then ApiObject.of(deployment).addJsonPatch(JsonPatch.add(
// '/spec/template/spec/dnsPolicy', 'None')). Synth refused it (CAP010, dnsPolicy None without dnsConfig), but the
// finding named the Deployment's declarer and its construction line, not the addJsonPatch call that wrote the value,
// and the user fixed the wrong line. A finding about a field (or, for a missing companion field, the field that
// asks for it) that something other than the declarer's props wrote is now placed at that write, in every format.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);

/** The line of this file that is `statement` (once, indentation aside), as a message's `file:line` names it. */
const lineOf = (statement: string): number => lineIn(__filename, statement);

const HERE = 'test/finding-placement.test.ts';
const NO_DNS_CONFIG = "is missing: a pod of dnsPolicy: None resolves names only through its dnsConfig's nameservers; the API server refuses it: "
  + 'spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None. '
  + "Give it dnsConfig: { nameservers: ['10.0.0.10'] } (one to three), or drop dnsPolicy for the cluster's DNS (ClusterFirst).";
const KEEP_OUT = 'would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString '
  + 'and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.';

/** A plain Deployment whose props write no dnsPolicy, or the one given. */
function plainDeployment(scope: IConstruct, id: string, dnsPolicy?: string): ApiObject {
  const pod = { containers: [{ name: 'api', image: 'nginx:1.27' }], ...(dnsPolicy ? { dnsPolicy } : {}) };
  return new ApiObject(scope, id, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api' },
    spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: pod } },
  });
}

describe('the message of a finding about a field another writer than the declarer wrote says which write it was', () => {
  test("the user's try: a cdk8s-plus Deployment's dnsPolicy None by addJsonPatch names the call, and still the declarer", () => {
    // GIVEN a cdk8s-plus Deployment whose pod spec a JSON patch gives dnsPolicy: None, and no dnsConfig
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/dnsPolicy', 'None'));
    // WHEN it is synthesized
    const { violations } = CapabilityTesting.synth(app);
    // THEN the CAP010 names the object by its declarer, and the addJsonPatch call that wrote dnsPolicy
    expect(violations).toEqual([{
      code: 'CAP010',
      message: `invalid object: 'spec.template.spec.dnsConfig' of apps/Deployment routing-web-c802ecf1 declared by 'shop/Routing/Web' ${NO_DNS_CONFIG} `
        + `'spec.template.spec.dnsPolicy' was written by 'shop/Routing/Web/Resource' (addJsonPatch at ${HERE}:${lineOf("ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/dnsPolicy', 'None'));")}), `
        + "not by the props of 'shop/Routing/Web'.",
      paths: ['shop/Routing/Web'],
    }]);
  });

  test("a Contribution's field names the Contribution", () => {
    // GIVEN a plain Deployment without dnsPolicy, and a Contribution that writes dnsPolicy: None into it
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const api = plainDeployment(routing, 'Api');
    new Contribution(routing, 'Dns', { target: api, fields: { spec: { template: { spec: { dnsPolicy: 'None' } } } } });
    // WHEN it is synthesized
    const { violations } = CapabilityTesting.synth(app);
    // THEN the CAP010 says the Contribution wrote it
    expect(violations).toEqual([{
      code: 'CAP010',
      message: `invalid object: 'spec.template.spec.dnsConfig' of apps/Deployment api declared by 'shop/Routing/Api' ${NO_DNS_CONFIG} `
        + "'spec.template.spec.dnsPolicy' was written by the Contribution 'shop/Routing/Dns', not by the props of 'shop/Routing/Api'.",
      paths: ['shop/Routing/Api'],
    }]);
  });

  test('an addPropertyOverride on a CloudFormation resource names the call', () => {
    // GIVEN an SSM parameter whose Description an override sets to an access key id
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const key = new ssm.CfnParameter(base, 'Key', { type: 'String', value: 'x' });
    key.addPropertyOverride('Description', 'AKIAIOSFODNN7EXAMPLE');
    // WHEN it is synthesized
    const { warnings } = CapabilityTesting.synth(app);
    // THEN the CAP012 warning names the override call
    expect(warnings).toEqual([{
      code: 'CAP012',
      message: 'possible secret: an AWS access key id ("AKIA...MPLE") in Resources.Key.Properties.Description of the template of stack \'shop/Base\' '
        + `(from 'shop/Base/Key') ${KEEP_OUT} 'Description' was written by 'shop/Base/Key' `
        + `(addPropertyOverride at ${HERE}:${lineOf("key.addPropertyOverride('Description', 'AKIAIOSFODNN7EXAMPLE');")}), not by the props of 'shop/Base/Key'.`,
      paths: ['shop/Base/Key'],
    }]);
  });

  test('an aspect that sets a property names the Aspects.of().add call', () => {
    // GIVEN an aspect, added to the base, that sets an SSM parameter's Description to an access key id
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const token = new ssm.CfnParameter(base, 'Token', { type: 'String', value: 'y' });
    class Describe implements IAspect {
      public visit(node: IConstruct): void {
        if (node === token) token.description = 'AKIAIOSFODNN7EXAMPL2';
      }
    }
    Aspects.of(base).add(new Describe());
    // WHEN it is synthesized
    const { warnings } = CapabilityTesting.synth(app);
    // THEN the CAP012 warning names the aspect and where it was added
    expect(warnings).toEqual([{
      code: 'CAP012',
      message: 'possible secret: an AWS access key id ("AKIA...MPL2") in Resources.Token.Properties.Description of the template of stack \'shop/Base\' '
        + `(from 'shop/Base/Token') ${KEEP_OUT} 'Description' was written by an aspect added to 'shop/Base' `
        + `(Aspects.of().add at ${HERE}:${lineOf('Aspects.of(base).add(new Describe());')}), not by the props of 'shop/Base/Token'.`,
      paths: ['shop/Base/Token'],
    }]);
  });

  test("a field the declarer's props wrote keeps its message as it was", () => {
    // GIVEN a plain Deployment whose own props give dnsPolicy: None
    const app = CapabilityTesting.app();
    plainDeployment(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Api', 'None');
    // WHEN it is synthesized, THEN the CAP010 names the declarer alone
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP010',
      message: `invalid object: 'spec.template.spec.dnsConfig' of apps/Deployment api declared by 'shop/Routing/Api' ${NO_DNS_CONFIG}`,
      paths: ['shop/Routing/Api'],
    }]);
  });
});

describe('plan places such a finding at the write in every format', () => {
  const APP = `${RUN_TS} main.ts`;
  const MAIN = [
    "import { ApiObject, JsonPatch } from 'cdk8s';",
    "import * as kplus from 'cdk8s-plus-30';",
    "import { Aspects, IAspect, aws_ssm as ssm } from 'aws-cdk-lib';",
    "import { IConstruct } from 'constructs';",
    "import { Capability, CapabilityApp, Contribution, RuntimeRouting, SharedBase } from 'cdk-capability';",
    '',
    'const app = new CapabilityApp();',
    "const shop = new Capability(app, 'shop');",
    "const routing = new RuntimeRouting(shop, 'Routing');",
    "const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });",
    "ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/dnsPolicy', 'None'));", // line 11
    "const pod = { containers: [{ name: 'api', image: 'nginx:1.27' }] };",
    "const api = new ApiObject(routing, 'Api', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api' }, spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: pod } } });",
    "new Contribution(routing, 'Dns', { target: api, fields: { spec: { template: { spec: { dnsPolicy: 'None' } } } } });", // line 14
    "const base = new SharedBase(shop, 'Base');",
    "const key = new ssm.CfnParameter(base, 'Key', { type: 'String', value: 'x' });",
    "key.addPropertyOverride('Description', 'AKIAIOSFODNN7EXAMPLE');", // line 17
    "const token = new ssm.CfnParameter(base, 'Token', { type: 'String', value: 'y' });",
    "class Describe implements IAspect { visit(n: IConstruct) { if (n === token) token.description = 'AKIAIOSFODNN7EXAMPL2'; } }",
    'Aspects.of(base).add(new Describe());', // line 20
    'app.synth();',
    '',
  ].join('\n');
  /** Each finding's code, the object or stack it is about, and the write it is placed at. */
  const PLACED = [
    { code: 'CAP010', about: 'routing-api', path: 'shop/Routing/Dns', line: 14, column: 1, field: 'spec.template.spec.dnsPolicy', how: 'a Contribution (its fields)' },
    { code: 'CAP010', about: 'routing-web', path: 'shop/Routing/Web/Resource', line: 11, column: 1, field: 'spec.template.spec.dnsPolicy', how: 'addJsonPatch' },
    { code: 'CAP012', about: 'Resources.Token', path: 'shop/Base', line: 20, column: 1, field: 'Description', how: 'an aspect (Aspects.of().add)' },
    { code: 'CAP012', about: 'Resources.Key', path: 'shop/Base/Key', line: 17, column: 1, field: 'Description', how: 'addPropertyOverride' },
  ];
  let runs: Record<'text' | 'json' | 'github' | 'sarif', CliRun>;

  beforeAll(() => {
    // GIVEN the user's try, a Contribution's dnsPolicy on a plain Deployment, an override and an aspect writing access key ids
    const dir = appFolder({ 'main.ts': MAIN });
    // WHEN plan runs in each format (text as the real command line, to prove the wiring)
    runs = {
      text: cli(dir, ['plan', '--app', APP]),
      json: cliInProcess(dir, ['plan', '--app', APP, '--format', 'json']),
      github: cliInProcess(dir, ['plan', '--app', APP, '--format', 'github']),
      sarif: cliInProcess(dir, ['plan', '--app', APP, '--format', 'sarif']),
    };
  });

  test('text (stderr): the refusal names the write first, where it was made, then where the declarer was created', () => {
    expect(runs.text.code).toBe(1);
    const lines = runs.text.stderr.split('\n');
    const after = (message: string) => lines.slice(lines.findIndex((l) => l.startsWith('CAP010') && l.includes(message)) + 1).slice(0, 2);
    expect(after('of apps/Deployment routing-web-c802ecf1')).toEqual([
      "  'shop/Routing/Web/Resource' wrote 'spec.template.spec.dnsPolicy' by addJsonPatch at main.ts:11:1",
      "  'shop/Routing/Web' created at main.ts:10:13",
    ]);
    expect(after('of apps/Deployment api')).toEqual([
      "  'shop/Routing/Dns' wrote 'spec.template.spec.dnsPolicy' by a Contribution (its fields) at main.ts:14:1",
      "  'shop/Routing/Api' created at main.ts:13:13",
    ]);
    expect(lines.filter((l) => l.startsWith('CAP010'))).toHaveLength(2);
  });

  test('JSON: the location is the write, and the first writer says what it wrote and how; valid against the schema', () => {
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document.findings.map((f: any) => ({ code: f.code, location: f.location, first: f.writers[0] }))).toEqual(PLACED.map((p) => ({
      code: p.code,
      location: { file: 'main.ts', line: p.line, column: p.column },
      first: { path: p.path, location: { file: 'main.ts', line: p.line, column: p.column }, wrote: { field: p.field, how: p.how } },
    })));
  });

  test('GitHub: one annotation each, on the write, saying what wrote the field', () => {
    const commands = runs.github.stdout.trimEnd().split('\n').map(readWorkflowCommand);
    expect(commands.map((c) => ({ ...c!.properties, note: / \[written by [^\]]*\]$/.exec(c!.message)?.[0] }))).toEqual(PLACED.map((p) => ({
      file: 'main.ts',
      line: String(p.line),
      col: String(p.column),
      title: p.code === 'CAP010' ? 'CAP010 invalid object' : 'CAP012 possible secret',
      note: ` [written by ${p.how}: '${p.path}' wrote '${p.field}']`,
    })));
  });

  test("SARIF: each result's physical location is the write, and the message names it", () => {
    const log = JSON.parse(runs.sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    const results = log.runs[0].results;
    expect(results.map((r: any) => r.locations[0].physicalLocation)).toEqual(PLACED.map((p) => ({
      artifactLocation: { uri: 'main.ts', uriBaseId: 'SRCROOT' },
      region: { startLine: p.line, startColumn: p.column },
    })));
    expect(results[1].message.text).toContain("'spec.template.spec.dnsPolicy' was written by 'shop/Routing/Web/Resource' (addJsonPatch at main.ts:11), not by the props of 'shop/Routing/Web'.");
  });
});

describe('the rules that judge a field of an object give it for placing', () => {
  test('a label value a JSON patch wrote on a cdk8s-plus Deployment names the call (object validity)', () => {
    // GIVEN a cdk8s-plus Deployment whose JSON patch adds a label value with a space
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/metadata/labels', { team: 'web shop' }));
    // WHEN it is synthesized, THEN the CAP010 ends naming the call
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP010',
      message: 'invalid object: \'metadata.labels.team\' ("web shop") of apps/Deployment routing-web-c802ecf1 declared by \'shop/Routing/Web\' must be empty or a label value '
        + 'of at most 63 characters (letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit) such as "web-shop", but it contains " ". '
        + 'Shorten or clean the value; put free text in an annotation. '
        + `'metadata.labels.team' was written by 'shop/Routing/Web/Resource' (addJsonPatch at ${HERE}:${lineOf("ApiObject.of(web).addJsonPatch(JsonPatch.add('/metadata/labels', { team: 'web shop' }));")}), `
        + "not by the props of 'shop/Routing/Web'.",
      paths: ['shop/Routing/Web'],
    }]);
  });

  test('a reference by name a JSON patch wrote names the call (dangling reference)', () => {
    // GIVEN a cdk8s-plus Deployment whose JSON patch names a ServiceAccount the composition lacks
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/serviceAccountName', 'builder'));
    // WHEN it is synthesized, THEN the CAP005 ends naming the call
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP005',
      message: "dangling reference: apps/Deployment routing-web-c802ecf1 declared by 'shop/Routing/Web' refers to ServiceAccount builder at spec.template.spec.serviceAccountName, "
        + 'which is not in the composition. Declare the target in the composition, fix the name, or mark it external with '
        + 'Reference.external(scope, id, { apiVersion, kind, name, namespace }). '
        + `'spec.template.spec.serviceAccountName' was written by 'shop/Routing/Web/Resource' (addJsonPatch at ${HERE}:`
        + `${lineOf("ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/serviceAccountName', 'builder'));")}), not by the props of 'shop/Routing/Web'.`,
      paths: ['shop/Routing/Web'],
    }]);
  });

  test('a finding whose message names the writer already is placed at the write, its message unchanged (scalar types)', () => {
    // GIVEN a ConfigMap whose data.level a JSON patch on itself sets to a number
    const app = CapabilityTesting.app();
    const settings = new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    settings.addJsonPatch(JsonPatch.add('/data', { level: 3 }));
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    const line = lineOf("settings.addJsonPatch(JsonPatch.add('/data', { level: 3 }));");
    // THEN the message says it once, as the rule words it, and the finding is placed at the call
    expect(violation.message).toBe(
      `invalid object: 'data.level' (3) of ConfigMap settings declared by 'shop/Routing/Settings', written by 'shop/Routing/Settings' (addJsonPatch at ${HERE}:${line}), `
      + 'must be a string, as Kubernetes 1.30\'s schema types it; the API server refuses a number there. Write "3", not 3.',
    );
    expect(placementOf(violation)).toEqual({ field: 'data.level', path: 'shop/Routing/Settings', how: 'addJsonPatch', site: `${HERE}:${line}` });
  });
});
