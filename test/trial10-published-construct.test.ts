import * as fs from 'fs';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import * as jsyaml from 'js-yaml';
import * as ts from 'typescript';
import { RETIRE_V1 } from './published-construct-fixtures';
import { removeTempDirs, synthExample, tempDir } from './util';
import { CapabilityApp, CapabilityTesting } from '../src';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'published-construct');
const PACKAGE = path.join(EXAMPLE, 'queue-worker');
const SOURCE = fs.readFileSync(path.join(PACKAGE, 'src', 'index.ts'), 'utf-8');
const LOCK = path.join(PACKAGE, 'interface', 'capability.lock.json');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'package-releases.md'), 'utf-8');

/** Every fenced code block of docs/package-releases.md, with its language. */
const BLOCKS = [...PAGE.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));

/**
 * Another release of the package: its source (`src/index.ts` of the example) with each `[from, to]` replaced, each
 * `from` found exactly once (so an edit of the example that moves a line fails here, named), loaded as a module.
 */
function release(edits: Array<[string, string]>): { QueueWorkerCapability: new (scope: any, id: string, props: any) => any } {
  let code = SOURCE;
  for (const [from, to] of edits) {
    expect({ from, occurrences: code.split(from).length - 1 }).toEqual({ from, occurrences: 1 });
    code = code.replace(from, to);
  }
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(code, { compilerOptions }).outputText;
  const module = { exports: {} as any };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the release's own imports, resolved as the example resolves them
  const load = (name: string) => (name === '../../../../src' ? require('../src') : require(name));
  new Function('require', 'exports', 'module', js)(load, module.exports, module);
  return module.exports;
}

/** The package's interface check (`interface/release.ts` against the committed lock) of a release: its violations, one line each. */
function checkAgainstLock(pkg: ReturnType<typeof release>): string[] {
  const app = CapabilityTesting.app({ lockFile: LOCK, builtinCloudFormationValidation: false });
  new pkg.QueueWorkerCapability(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

/** Release 2.0.0 made the other way: major 1 bumped in place to 2.0.0. */
const IN_PLACE: Array<[string, string]> = [
  ...RETIRE_V1,
  ["new InterfaceContract(this, 'QueueV2', {\n      name: 'Queue',", "new InterfaceContract(this, 'Queue', {"],
];

/** Accepts a release of the package as its team does when publishing it: the lock `interface/release.ts` writes, in a temporary folder. */
function acceptedLock(pkg: ReturnType<typeof release>): string {
  const dir = tempDir();
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'capability.lock.json'), builtinCloudFormationValidation: false });
  new pkg.QueueWorkerCapability(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });
  const saved = process.env.CDK_CAPABILITY_UPDATE_LOCK;
  process.env.CDK_CAPABILITY_UPDATE_LOCK = '1';
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    app.synth();
  } finally {
    stderr.mockRestore();
    if (saved === undefined) delete process.env.CDK_CAPABILITY_UPDATE_LOCK;
    else process.env.CDK_CAPABILITY_UPDATE_LOCK = saved;
  }
  return path.join(dir, 'capability.lock.json');
}

/** The text blocks of the page, in order. */
const TEXTS = BLOCKS.filter((b) => b.lang === 'text').map((b) => b.code);

/** A file of the example as the page shows it: importing the published `cdk-capability`, not the repository's source. */
function asPublished(file: string): string {
  return fs.readFileSync(path.join(PACKAGE, file), 'utf-8').replace("from '../../../../src'", "from 'cdk-capability'");
}

describe('examples/published-construct: the package, checked against the lock of its release published last', () => {
  // the package's own test, test/interface.test.ts, as its CI runs it
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- registers the example package's test here
  require('../examples/published-construct/queue-worker/test/interface.test');

  test('a major bumped in place, while the readers of the locked release move to it, is the CAP008 the page shows', () => {
    expect(checkAgainstLock(release(IN_PLACE))).toEqual([TEXTS[1].trim()]);
  });

  test('an app that skips package 2.x (from a lock of 1.x straight to 3.0.0, major 1 retired) gets that same CAP008', () => {
    expect(checkAgainstLock(release(RETIRE_V1))).toEqual([TEXTS[1].trim()]);
  });

  test('from a lock of 2.0.0, release 3.0.0 retires major 1: accepted, the plan lists it retired', () => {
    // GIVEN the lock of package 2.0.0 (the example's source), accepted
    const lock = acceptedLock(release([]));

    // WHEN release 3.0.0 is synthesized against it
    const app = CapabilityTesting.app({ lockFile: lock, builtinCloudFormationValidation: false });
    new (release(RETIRE_V1).QueueWorkerCapability)(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(result.violations).toEqual([]);
    expect(result.plan!.changes.contracts).toEqual([{
      contract: 'jobs/Queue', change: 'retired', before: { version: '1.1.0', parameter: '/cdk-capability/jobs/queue/v1' },
    }]);
  });

  test('a field added to the contract without its version bump is the CAP007 the page shows, as an app sees it', () => {
    // GIVEN the lock of package 2.0.0, and a release 2.1.0 whose contract gains a field but keeps 2.0.0
    const lock = acceptedLock(release([]));
    const unbumped = release([
      ['fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string() },', 'fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string(), region: Field.string() },'],
      ['this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl });', "this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl, region: 'eu-west-1' });"],
    ]);

    // WHEN
    const app = CapabilityTesting.app({ lockFile: lock, builtinCloudFormationValidation: false });
    new unbumped.QueueWorkerCapability(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });
    const violations = CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

    // THEN the page's block is the refusal as plan prints it: the header, the violation, the app's line
    const [header, violation, site] = TEXTS[0].trim().split('\n');
    // (the page shows the app's view, the app's remedy before the package's fix: test/advice2-package-contracts.test.ts;
    // a composition of the package's own source, as here, gets the package's fix alone)
    expect([header, violation.replace(/ The contract comes from the installed package .*? For them:/, '')]).toEqual(['The composition was refused with 1 violation:', ...violations]);
    // (the package after the app's line: test/trial10-package-sites.test.ts)
    expect(site).toEqual("  'jobs/Queue' created at main.ts:5:1, inside the installed package @acme/queue-worker-capability@2.1.0");
  });
});

describe('examples/published-construct: an app that composes the package twice', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = synthExample('published-construct/app');
  });
  const objects = () => fs.readdirSync(path.join(outdir, 'runtime')).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => jsyaml.loadAll(fs.readFileSync(path.join(outdir, 'runtime', f), 'utf-8')) as any[]);

  test('each instance has its namespace, its names, its contract parameter and binding', () => {
    expect(objects().map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort()).toEqual([
      'Deployment billing/billing-routing-worker-acme-c8cd5407',
      'Deployment orders/orders-routing-worker-acme-c89a5669',
      'Deployment orders/orders-routing-worker-globex-c889e122',
      'ExternalSecret billing/billing-queuev2-interface',
      'ExternalSecret orders/orders-queuev2-interface',
      'HorizontalPodAutoscaler billing/billing-routing-hpa-acme-c87345b4',
      'HorizontalPodAutoscaler orders/orders-routing-hpa-acme-c81fe532',
      'HorizontalPodAutoscaler orders/orders-routing-hpa-globex-c80b6e05',
      'Namespace /billing',
      'Namespace /orders',
    ]);
    const interfaceJson = JSON.parse(fs.readFileSync(path.join(outdir, 'interface.json'), 'utf-8'));
    expect(interfaceJson.interfaces.map((i: any) => i.parameter.name).sort()).toEqual([
      '/cdk-capability/billing/queue/v1', '/cdk-capability/billing/queue/v2', '/cdk-capability/orders/queue/v1', '/cdk-capability/orders/queue/v2',
    ]);
  });

  test('a default overridden through props (maxReplicas), by addJsonPatch on a worker and by addPropertyOverride on a queue', () => {
    const byName = (name: string) => objects().find((o) => o.metadata.name === name);
    expect(byName('orders-routing-hpa-acme-c81fe532').spec.maxReplicas).toEqual(4);
    expect(byName('billing-routing-hpa-acme-c87345b4').spec.maxReplicas).toEqual(10);
    expect(byName('orders-routing-worker-acme-c89a5669').spec.template.spec.containers[0].resources).toEqual({ limits: { memory: '256Mi' } });
    // the patch is the declarer's escape hatch, recorded with the app's line (the page names it from the app's folder)
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    const writers = JSON.stringify(plan.writers);
    expect(writers).toContain('"writer":"orders/Routing/Worker-acme/Resource (addJsonPatch at examples/published-construct/app/main.ts:19)","kind":"json-patch"');
    expect(PAGE).toContain('`orders/Routing/Worker-acme/Resource (addJsonPatch at main.ts:19)`');
    const billingBase = fs.readdirSync(path.join(outdir, 'deploy')).find((f) => f.startsWith('billingBase') && f.endsWith('.template.json'))!;
    Template.fromJSON(JSON.parse(fs.readFileSync(path.join(outdir, 'deploy', billingBase), 'utf-8')))
      .hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: 120 });
  });

  test('the same app with the package\'s defaults (no generatedNames, one namespace) is refused with the CAP001 the page quotes', () => {
    const pkg = release([]);
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    new pkg.QueueWorkerCapability(app, 'orders', { tenants: ['acme'], image: 'ghcr.io/acme/worker:2.0.0' });
    new pkg.QueueWorkerCapability(app, 'billing', { tenants: ['acme'], image: 'ghcr.io/acme/worker:2.0.0' });
    const messages = CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
    const quoted = "apps/Deployment workers/routing-worker-acme-c835f29d is declared by 'orders/Routing/Worker-acme' and 'billing/Routing/Worker-acme'. cdk8s generated the name from the construct path below the capability";
    expect(messages.filter((m) => m.includes(quoted))).toHaveLength(1);
    expect(PAGE.replace(/\s+/g, ' ')).toContain(quoted.replace(/^apps/, '`apps').replace(/\s+/g, ' '));
    expect(messages.filter((m) => m.startsWith('CAP001'))).toHaveLength(3);
  });
});

describe('docs/package-releases.md', () => {
  test('its code blocks are the example package\'s files, importing the published cdk-capability', () => {
    const snippets = BLOCKS.filter((b) => b.lang === 'ts').map((b) => b.code);
    expect(snippets).toEqual([asPublished('interface/release.ts'), asPublished('test/interface.test.ts')]);
  });

  test('is linked from docs/packaging.md', () => {
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'packaging.md'), 'utf-8')).toContain('](package-releases.md)');
  });
});
