import { Tags, aws_s3 as s3, aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject, Include, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { IConstruct } from 'constructs';
import { appFolder, cli, cliInProcess, CliRun, readWorkflowCommand, RUN_TS } from './cifail-cli';
import { HANG_GUARD_MS, removeTempDirs, lineOf as lineIn } from './util';
import { Capability, CapabilityApp, Contribution, RuntimeRouting, SharedBase } from '../src';
import { placementOf } from '../src/check/finding';
import { objectField, placeFinding } from '../src/check/placement';
import { CapabilityTesting } from '../src/testing';

// The writes finding placement (test/finding-placement.test.ts) did not reach: a field missing from a list element
// another writer added, a field a JSON patch removed, a value JSON has no form for, and a Contribution's write callback
// that sets fields on an Include'd or a cdk8s-plus object directly. Each finding is placed at the write, and says
// "removed by" for a removal.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);

/** The line of this file that is `statement` (once, indentation aside), as a message's `file:line` names it. */
const lineOf = (statement: string): number => lineIn(__filename, statement);

const HERE = 'test/finding-placement-writes.test.ts';
const NO_IMAGE = "is missing: every container and init container needs an image; the API server refuses it: spec.template.spec.containers[1].image: Required value. Set the image, such as image: 'nginx:1.27'.";
const NO_DNS_CONFIG = "is missing: a pod of dnsPolicy: None resolves names only through its dnsConfig's nameservers; the API server refuses it: "
  + 'spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None. '
  + "Give it dnsConfig: { nameservers: ['10.0.0.10'] } (one to three), or drop dnsPolicy for the cluster's DNS (ClusterFirst).";
const NAN = 'is NaN, which JSON has no form for: cdk8s writes it as .nan, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string.';
const LABEL = 'must be empty or a label value of at most 63 characters (letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit) such as "a-b", '
  + 'but it contains " ". Shorten or clean the value; put free text in an annotation.';

/** The routing of a capability 'shop' of a fresh app. */
function routingOf(app: CapabilityApp): RuntimeRouting {
  return new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
}

/** A plain Deployment 'api' of one container 'api'. */
function plainDeployment(scope: IConstruct, id: string): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api' },
    spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'nginx:1.27' }] } } },
  });
}

describe('a field missing from a list element another writer added is placed at that write', () => {
  test('a container a Contribution added without an image: at the Contribution, the element named', () => {
    // GIVEN a plain Deployment, and a Contribution that adds a container without an image
    const app = CapabilityTesting.app();
    const routing = routingOf(app);
    new Contribution(routing, 'Sidecar', { target: plainDeployment(routing, 'Api'), fields: { spec: { template: { spec: { containers: [{ name: 'side' }] } } } } });
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    // THEN the CAP010 names the Contribution, and is placed at it, at the element it wrote
    expect(violation.message).toBe(`invalid object: 'spec.template.spec.containers[name=side].image' of apps/Deployment api declared by 'shop/Routing/Api', written by 'shop/Routing/Sidecar', ${NO_IMAGE}`);
    expect(placementOf(violation)).toEqual({ field: 'spec.template.spec.containers[name=side]', path: 'shop/Routing/Sidecar', how: 'a Contribution (its fields)' });
  });

  test('a port a JSON patch added without its number: at the addJsonPatch call', () => {
    // GIVEN a plain Deployment whose JSON patch gives its container a port with a name only
    const app = CapabilityTesting.app();
    const api = plainDeployment(routingOf(app), 'Api');
    api.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/ports', [{ name: 'http' }]));
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    // THEN it is placed at the call
    expect(placementOf(violation)).toEqual({
      field: 'spec.template.spec.containers[name=api].ports[containerPort=0,protocol=TCP]',
      path: 'shop/Routing/Api',
      how: 'addJsonPatch',
      site: `${HERE}:${lineOf("api.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/ports', [{ name: 'http' }]));")}`,
    });
  });
});

describe('a field a JSON patch removed says "removed by"', () => {
  test("a cdk8s-plus Deployment's dnsConfig removed by addJsonPatch: the message says removed, placed at the call", () => {
    // GIVEN a cdk8s-plus Deployment of dnsPolicy None and nameservers, whose JSON patch removes the dnsConfig
    const app = CapabilityTesting.app();
    const web = new kplus.Deployment(routingOf(app), 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }], dns: { policy: kplus.DnsPolicy.NONE, nameservers: ['10.0.0.1'] } });
    ApiObject.of(web).addJsonPatch(JsonPatch.remove('/spec/template/spec/dnsConfig'));
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    const site = `${HERE}:${lineOf("ApiObject.of(web).addJsonPatch(JsonPatch.remove('/spec/template/spec/dnsConfig'));")}`;
    // THEN
    expect(violation.message).toBe('invalid object: \'spec.template.spec.dnsConfig\' of apps/Deployment routing-web-c802ecf1 declared by \'shop/Routing/Web\', '
      + `removed by 'shop/Routing/Web/Resource' (addJsonPatch at ${site}), ${NO_DNS_CONFIG}`);
    expect(placementOf(violation)).toEqual({ field: 'spec.template.spec.dnsConfig', path: 'shop/Routing/Web/Resource', how: 'addJsonPatch', site, removed: true });
  });

  test('the sentence a placed finding adds says the field was removed, not written', () => {
    // GIVEN a plain Deployment whose JSON patch removes its container's image
    const app = CapabilityTesting.app();
    const api = plainDeployment(routingOf(app), 'Api');
    api.addJsonPatch(JsonPatch.remove('/spec/template/spec/containers/0/image'));
    const facts = app.synthesize().facts!;
    const object = facts.objects.find((o) => o.path === 'shop/Routing/Api')!;
    // WHEN a finding about the image is placed
    const placed = placeFinding(facts, objectField(object, ['spec', 'template', 'spec', 'containers', 'k:{"name":"api"}', 'image']));
    // THEN its sentence says what removed it
    const site = `${HERE}:${lineOf("api.addJsonPatch(JsonPatch.remove('/spec/template/spec/containers/0/image'));")}`;
    expect(placed?.sentence).toBe(` 'spec.template.spec.containers[name=api].image' was removed by 'shop/Routing/Api' (addJsonPatch at ${site}).`);
    expect(placed?.removed).toBe(true);
  });
});

describe('a value JSON has no form for is placed where it was written (JSON values)', () => {
  test("a NaN annotation a Contribution's write callback added names the Contribution", () => {
    // GIVEN a ConfigMap, and a Contribution whose write callback adds an annotation of NaN
    const app = CapabilityTesting.app();
    const routing = routingOf(app);
    const cm = new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
    new Contribution(routing, 'Size', { target: cm, write: (o) => o.metadata.addAnnotation('size', NaN as any) });
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    // THEN the CAP010 ends naming the Contribution, and is placed at it
    expect(violation.message).toBe(`invalid object: 'metadata.annotations.size' of ConfigMap cm declared by 'shop/Routing/Cm' ${NAN} `
      + "'metadata.annotations.size' was written by the Contribution 'shop/Routing/Size', not by the props of 'shop/Routing/Cm'.");
    expect(placementOf(violation)).toEqual({ field: 'metadata.annotations.size', path: 'shop/Routing/Size', how: 'a Contribution (its write callback)' });
  });
});

describe("a Contribution's write callback that sets fields directly is attributed and placed", () => {
  test("on an Include'd object", () => {
    // GIVEN an Include'd ConfigMap, and a Contribution whose callback adds a label with a space through its metadata
    const app = CapabilityTesting.app();
    const routing = routingOf(app);
    const included = new Include(routing, 'App', { url: 'test/fixtures/adopt2/config.yaml' });
    new Contribution(routing, 'Team', { target: included.apiObjects[0], write: (o) => o.metadata.addLabel('team', 'a b') });
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    // THEN
    expect(violation.message).toBe(`invalid object: 'metadata.labels.team' ("a b") of ConfigMap shop/orders-config declared by 'shop/Routing/App/orders-config-configmap-shop' ${LABEL} `
      + "'metadata.labels.team' was written by the Contribution 'shop/Routing/Team', not by the props of 'shop/Routing/App/orders-config-configmap-shop'.");
    expect(placementOf(violation)).toEqual({ field: 'metadata.labels.team', path: 'shop/Routing/Team', how: 'a Contribution (its write callback)' });
  });

  test('on a cdk8s-plus Deployment', () => {
    // GIVEN a cdk8s-plus Deployment, and a Contribution whose callback adds a label with a space through its metadata
    const app = CapabilityTesting.app();
    const routing = routingOf(app);
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }] });
    new Contribution(routing, 'Team', { target: web, write: (d) => d.metadata.addLabel('team', 'a b') });
    // WHEN it is synthesized
    const [violation] = CapabilityTesting.synth(app).violations;
    // THEN
    expect(violation.message).toBe(`invalid object: 'metadata.labels.team' ("a b") of apps/Deployment routing-web-c802ecf1 declared by 'shop/Routing/Web' ${LABEL} `
      + "'metadata.labels.team' was written by the Contribution 'shop/Routing/Team', not by the props of 'shop/Routing/Web'.");
    expect(placementOf(violation)).toEqual({ field: 'metadata.labels.team', path: 'shop/Routing/Team', how: 'a Contribution (its write callback)' });
  });
});

describe('a tag a Tags.of().add call wrote is placed at the call', () => {
  const KEEP_OUT = 'would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString '
    + 'and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.';

  test('a tag in a list of tags (a bucket) and in a map of tags (an SSM parameter), nothing else writing them', () => {
    // GIVEN a bucket and an SSM parameter of a shared base, and a tag of an access key id added to the base
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    new s3.CfnBucket(base, 'Bucket');
    new ssm.CfnParameter(base, 'Key', { type: 'String', value: 'x' });
    Tags.of(base).add('token', 'AKIAIOSFODNN7EXAMPLE');
    // WHEN it is synthesized
    const { warnings } = CapabilityTesting.synth(app);
    // THEN each CAP012 names the Tags call, and is placed at it
    const site = `${HERE}:${lineOf("Tags.of(base).add('token', 'AKIAIOSFODNN7EXAMPLE');")}`;
    const tagged = (at: string, id: string) => `possible secret: an AWS access key id ("AKIA...MPLE") in Resources.${at} of the template of stack 'shop/Base' (from 'shop/Base/${id}') `
      + `${KEEP_OUT} 'Tags.token' was written by 'shop/Base' (Tags.of().add at ${site}), not by the props of 'shop/Base/${id}'.`;
    expect(warnings.map((w) => w.message)).toEqual([tagged('Bucket.Properties.Tags[0].Value', 'Bucket'), tagged('Key.Properties.Tags.token', 'Key')]);
    expect(warnings.map(placementOf)).toEqual([1, 2].map(() => ({ field: 'Tags.token', path: 'shop/Base', how: 'Tags.of().add', site })));
  });
});

describe('plan places these findings at the write in every format', () => {
  const APP = `${RUN_TS} main.ts`;
  const MAIN = [
    "import { ApiObject, JsonPatch } from 'cdk8s';",
    "import * as kplus from 'cdk8s-plus-30';",
    "import { Annotations, Aspects, IAspect, Tags, aws_s3 as s3 } from 'aws-cdk-lib';",
    "import { IConstruct } from 'constructs';",
    "import { Capability, CapabilityApp, Contribution, RuntimeRouting, SharedBase } from 'cdk-capability';",
    'const app = new CapabilityApp();',
    "const shop = new Capability(app, 'shop');",
    "const routing = new RuntimeRouting(shop, 'Routing');",
    "const api = new ApiObject(routing, 'Api', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api' }, spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'nginx:1.27' }] } } } });",
    "new Contribution(routing, 'Sidecar', { target: api, fields: { spec: { template: { spec: { containers: [{ name: 'side' }] } } } } });", // line 10
    "const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 8080 }], dns: { policy: kplus.DnsPolicy.NONE, nameservers: ['10.0.0.1'] } });",
    "ApiObject.of(web).addJsonPatch(JsonPatch.remove('/spec/template/spec/dnsConfig'));", // line 12
    "const cm = new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });",
    "new Contribution(routing, 'Size', { target: cm, write: (o) => { o.metadata.addAnnotation('size', NaN as any); } });", // line 14
    "const base = new SharedBase(shop, 'Base');",
    "new s3.Bucket(base, 'Bucket');", // line 16
    "class Policy implements IAspect { visit(n: IConstruct) { if (n instanceof s3.CfnBucket) Annotations.of(n).addError('buckets need encryption keys'); } }",
    'Aspects.of(app).add(new Policy());',
    "Tags.of(base).add('token', 'AKIAIOSFODNN7EXAMPLE');", // line 19
    'app.synth();',
    '',
  ].join('\n');
  /** Each finding's code, where it is placed, and the write named first (none for the annotation, at its construct). */
  const PLACED = [
    { code: 'CAP010', line: 14, column: 1, path: 'shop/Routing/Size', wrote: { field: 'metadata.annotations.size', how: 'a Contribution (its write callback)' } },
    { code: 'CAP010', line: 10, column: 1, path: 'shop/Routing/Sidecar', wrote: { field: 'spec.template.spec.containers[name=side]', how: 'a Contribution (its fields)' } },
    { code: 'CAP010', line: 12, column: 1, path: 'shop/Routing/Web/Resource', wrote: { field: 'spec.template.spec.dnsConfig', how: 'addJsonPatch' } },
    { code: 'CAP018', line: 16, column: 1, path: 'shop/Base/Bucket/Resource' },
    { code: 'CAP012', line: 19, column: 1, path: 'shop/Base', wrote: { field: 'Tags.token', how: 'Tags.of().add' } },
  ];
  const TITLES: Readonly<Record<string, string>> = { CAP010: 'CAP010 invalid object', CAP012: 'CAP012 possible secret', CAP018: 'CAP018 construct error' };
  let runs: Record<'text' | 'json' | 'github', CliRun>;

  beforeAll(() => {
    // GIVEN a Contribution's container without an image, a removed dnsConfig, a NaN annotation, an Aspect's error annotation, and a Tag of an access key id
    const dir = appFolder({ 'main.ts': MAIN });
    // WHEN plan runs in each format (text as the real command line)
    runs = {
      text: cli(dir, ['plan', '--app', APP]),
      json: cliInProcess(dir, ['plan', '--app', APP, '--format', 'json']),
      github: cliInProcess(dir, ['plan', '--app', APP, '--format', 'github']),
    };
  });

  test('text (stderr): each refusal names its write and where it was made; the annotation, where its construct was created', () => {
    expect(runs.text.code).toBe(1);
    const lines = runs.text.stderr.split('\n');
    const after = (start: string) => lines[lines.findIndex((l) => l.startsWith(start)) + 1];
    expect(after("CAP010 invalid object: 'metadata.annotations.size'")).toBe("  'shop/Routing/Size' wrote 'metadata.annotations.size' by a Contribution (its write callback) at main.ts:14:1");
    expect(after("CAP010 invalid object: 'spec.template.spec.containers[name=side].image'")).toBe("  'shop/Routing/Sidecar' wrote 'spec.template.spec.containers[name=side]' by a Contribution (its fields) at main.ts:10:1");
    expect(after("CAP010 invalid object: 'spec.template.spec.dnsConfig'")).toBe("  'shop/Routing/Web/Resource' wrote 'spec.template.spec.dnsConfig' by addJsonPatch at main.ts:12:1");
    expect(lines.find((l) => l.startsWith("CAP010 invalid object: 'spec.template.spec.dnsConfig'"))).toContain(", removed by 'shop/Routing/Web/Resource' (addJsonPatch at main.ts:12), is missing");
    expect(after('CAP018 construct error:')).toBe("  'shop/Base/Bucket/Resource' created at main.ts:16:1");
  });

  test('JSON: the location is the write (the annotated construct for CAP018, the Tags call for a tag)', () => {
    const document = JSON.parse(runs.json.stdout);
    expect(document.findings.map((f: any) => ({ code: f.code, location: f.location, first: f.writers[0] }))).toEqual(PLACED.map((p) => ({
      code: p.code,
      location: { file: 'main.ts', line: p.line, column: p.column },
      first: { path: p.path, location: { file: 'main.ts', line: p.line, column: p.column }, ...(p.wrote ? { wrote: p.wrote } : {}) },
    })));
  });

  test('GitHub: one annotation each, at the write', () => {
    const commands = runs.github.stdout.trimEnd().split('\n').map(readWorkflowCommand);
    expect(commands.map((c) => ({ file: c!.properties.file, line: c!.properties.line, title: c!.properties.title }))).toEqual(PLACED.map((p) => ({
      file: 'main.ts',
      line: String(p.line),
      title: TITLES[p.code],
    })));
  });
});
