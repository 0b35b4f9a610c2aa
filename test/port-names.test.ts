import * as fs from 'fs';
import * as path from 'path';
import { App as AwsApp, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApiObject, App, Chart, Names } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CompositionError, Contribution, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs, tempDir } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { addressOf } from '../src/private/names';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

/** An existing chart class, written for a plain cdk8s App: a cdk8s-plus Deployment exposed by a Service. */
class WebChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new kplus.Deployment(this, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 80, securityContext: { ensureNonRoot: false } }] }).exposeViaService();
  }
}

/** The same chart moved into a capability: only the base class changes. */
class WebRouting extends RuntimeRouting {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new kplus.Deployment(this, 'Web', { containers: [{ image: 'nginx:1.27', portNumber: 80, securityContext: { ensureNonRoot: false } }] }).exposeViaService();
  }
}

describe('porting without renaming', () => {
  test('a chart under RuntimeRouting yields the objects, names, hashes and selector labels the same chart yields under a plain cdk8s App', () => {
    // GIVEN the chart under a plain App, and ported under capability "shop"
    const plain = new WebChart(new App(), 'web');
    const ported = new WebRouting(new Capability(newApp(), 'shop'), 'web');

    // THEN the manifests are equal, names and cdk8s.io/metadata.addr labels included
    expect(ported.toJson()).toEqual(plain.toJson());
    expect(plain.toJson().map((o: any) => o.metadata.name)).toEqual([expect.stringMatching(/^web-c8[0-9a-f]{6}$/), expect.stringMatching(/^web-service-c8[0-9a-f]{6}$/)]);
  });

  test('a plain Chart placed in a capability is named as under a plain App too', () => {
    const plain = new WebChart(new App(), 'web');
    const placed = new WebChart(new Capability(newApp(), 'shop'), 'web');
    expect(placed.toJson()).toEqual(plain.toJson());
  });

  test('generatedNames: \'full-path\' keeps the names earlier releases generated (the capability id first)', () => {
    // GIVEN the ported chart in a capability that keeps the old names
    const ported = new WebRouting(new Capability(newApp(), 'shop', { generatedNames: 'full-path' }), 'web');

    // THEN cdk8s' own names from the whole path
    expect(ported.toJson().map((o: any) => o.metadata.name)).toEqual([expect.stringMatching(/^shop-web-c8[0-9a-f]{6}$/), expect.stringMatching(/^shop-web-service-c8[0-9a-f]{6}$/)]);
    expect(ported.toJson()[0].spec.selector.matchLabels['cdk8s.io/metadata.addr']).toMatch(/^shop-web-Web-c8[0-9a-f]{6}$/);
  });

  test('the address helper agrees with constructs\' own node.addr (the one seam, pinned to constructs 10)', () => {
    const chart = new Chart(new App(), 'web');
    const child = new Construct(new Construct(chart, 'Default'), 'Web');
    expect(addressOf(['', 'web', 'Default', 'Web'])).toBe(child.node.addr);
    expect(Names.toDnsLabel(child)).toBe(`web-web-${child.node.addr.slice(0, 8)}`);
  });

  test('prefixStackNames: false names each stack as under a plain aws-cdk App; the default prefixes the capability id', () => {
    // GIVEN stack Base in a plain aws-cdk App, in a capability, and in a capability without the prefix
    const plain = new Stack(new AwsApp(), 'Base');
    const prefixed = new SharedBase(new Capability(newApp(), 'cdn'), 'Base');
    const kept = new SharedBase(new Capability(newApp(), 'cdn', { prefixStackNames: false }), 'Base');

    // THEN
    expect([plain.stackName, prefixed.stackName, kept.stackName]).toEqual(['Base', 'cdn-Base', 'Base']);
  });
});

describe('types that fit existing code', () => {
  test('RuntimeRouting, SharedBase and DeploymentAggregate take any construct inside a capability as scope', () => {
    const app = newApp();
    const group = new Construct(new Capability(app, 'cdn'), 'Group');
    expect(new RuntimeRouting(group, 'R').capability.node.path).toBe('cdn');
    expect(new SharedBase(group, 'Base').capability.node.path).toBe('cdn');
    expect(new DeploymentAggregate(group, 'acme').tenant).toBe('acme');
  });

  test.each([
    ['RuntimeRouting', (app: App) => new RuntimeRouting(app, 'R')],
    ['SharedBase', (app: App) => new SharedBase(app, 'R')],
    ['DeploymentAggregate', (app: App) => new DeploymentAggregate(app, 'R')],
  ] as const)('%s outside any Capability is refused at construction with CAP015', (what, make) => {
    // WHEN created under a plain app
    let thrown: unknown;
    try {
      make(new App());
    } catch (e) {
      thrown = e;
    }

    // THEN one coded refusal, as a CompositionError carries it (instanceof, as the docs catch it, included)
    expect(CompositionError.isCompositionError(thrown)).toBe(true);
    expect(thrown instanceof CompositionError).toBe(true);
    expect((thrown as CompositionError).violations).toEqual([
      { code: 'CAP015', message: expect.stringMatching(new RegExp(`^misplaced construct: ${what} 'R' is created outside any Capability`)), paths: ['R'] },
    ]);
  });
});

test('a Contribution under a plain cdk8s App is refused at construction with CAP015: no synth there would merge its fields', () => {
  // GIVEN a plain cdk8s app whose chart holds a Deployment
  const app = new App();
  const chart = new Chart(app, 'web', { namespace: 'shop' });
  const web = new ApiObject(chart, 'Api', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api' }, spec: {} });

  // WHEN a Contribution writes an annotation of it
  let thrown: unknown;
  try {
    new Contribution(chart, 'Obs', { target: web, fields: { metadata: { annotations: { 'prometheus.io/scrape': 'true' } } } });
  } catch (e) {
    thrown = e;
  }

  // THEN refused, saying what would be lost and the fix
  expect(thrown instanceof CompositionError).toBe(true);
  expect((thrown as CompositionError).violations).toEqual([{
    code: 'CAP015',
    message: "misplaced construct: Contribution 'web/Obs' is created outside a CapabilityApp, whose synth alone merges its fields and runs its write callback: "
      + "a plain cdk8s or aws-cdk app would drop them without a word. Create the app with new CapabilityApp() (cdk8s' App, with the same props).",
    paths: ['web/Obs'],
  }]);
  expect(chart.node.tryFindChild('Obs')).toBeUndefined();
});

describe('aws-cdk settings: cdk.json context and CDK_CONTEXT_JSON reach every capability', () => {
  function flagIn(dir: string, env: string | undefined): unknown {
    const cwd = process.cwd();
    const saved = process.env.CDK_CONTEXT_JSON;
    process.chdir(dir);
    if (env === undefined) delete process.env.CDK_CONTEXT_JSON;
    else process.env.CDK_CONTEXT_JSON = env;
    try {
      const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
      return new SharedBase(new Capability(app, 'cdn'), 'Base').node.tryGetContext('@aws-cdk/aws-lambda:useCdkManagedLogGroup');
    } finally {
      process.chdir(cwd);
      if (saved === undefined) delete process.env.CDK_CONTEXT_JSON;
      else process.env.CDK_CONTEXT_JSON = saved;
    }
  }

  test('cdk.json\'s context is read when the aws-cdk CLI did not start the program; CDK_CONTEXT_JSON wins when it did', () => {
    // GIVEN a project whose cdk.json sets a feature flag
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: 'npx ts-node main.ts', context: { '@aws-cdk/aws-lambda:useCdkManagedLogGroup': true } }));

    // THEN a stack of a capability sees it, and the CLI's variable replaces the files as in aws-cdk
    expect(flagIn(dir, undefined)).toBe(true);
    expect(flagIn(dir, JSON.stringify({ '@aws-cdk/aws-lambda:useCdkManagedLogGroup': false }))).toBe(false);
    expect(flagIn(tempDir(), undefined)).toBeUndefined();
  });

  test('the context the aws-cdk CLI puts in its overflow file (CONTEXT_OVERFLOW_LOCATION_ENV) reaches every capability, as a plain aws-cdk App reads it', () => {
    // GIVEN what the aws-cdk CLI sets when the context is too large for one variable: part in CDK_CONTEXT_JSON, the rest in a file
    const dir = tempDir();
    const overflow = path.join(dir, 'overflow.json');
    fs.writeFileSync(overflow, JSON.stringify({ 'lookup:big': 'from the file', '@aws-cdk/aws-lambda:useCdkManagedLogGroup': true }));
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ context: { 'from:cdk.json': 'not read: the CLI started the program' } }));
    const keys = ['lookup:big', 'from:env', '@aws-cdk/aws-lambda:useCdkManagedLogGroup', 'from:cdk.json'];
    const saved = { cwd: process.cwd(), json: process.env.CDK_CONTEXT_JSON, overflow: process.env.CONTEXT_OVERFLOW_LOCATION_ENV };
    process.chdir(dir);
    process.env.CDK_CONTEXT_JSON = JSON.stringify({ 'from:env': 'from the variable' });
    process.env.CONTEXT_OVERFLOW_LOCATION_ENV = overflow;
    let plain: unknown[];
    let ours: unknown[];
    try {
      // WHEN a plain aws-cdk App and a capability's stack read the context
      const stack = new Stack(new AwsApp({ outdir: tempDir() }), 'Base');
      plain = keys.map((k) => stack.node.tryGetContext(k));
      const base = new SharedBase(new Capability(new CapabilityApp({ outdir: path.join(tempDir(), 'dist') }), 'cdn'), 'Base');
      ours = keys.map((k) => base.node.tryGetContext(k));
    } finally {
      process.chdir(saved.cwd);
      for (const [name, value] of [['CDK_CONTEXT_JSON', saved.json], ['CONTEXT_OVERFLOW_LOCATION_ENV', saved.overflow]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }

    // THEN both see the variable and the file, and neither reads cdk.json
    expect(plain).toEqual(['from the file', 'from the variable', true, undefined]);
    expect(ours).toEqual(plain);
  });

  test('a feature flag from cdk.json changes the template as it does under a plain aws-cdk App', () => {
    // GIVEN an SSM parameter in a plain aws-cdk App and in a capability, both with the same context
    const context = { '@aws-cdk/core:newStyleStackSynthesis': true, '@aws-cdk/aws-ssm:noStringParameterTier': true };
    const plainStack = new Stack(new AwsApp({ context }), 'Base');
    new ssm.StringParameter(plainStack, 'P', { stringValue: 'x' });
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), context });
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    new ssm.StringParameter(base, 'P', { stringValue: 'x' });

    // THEN the same template
    expect(Template.fromStack(base).toJSON()).toEqual(Template.fromStack(plainStack).toJSON());
  });
});

describe('a rename against the lock is reported in the plan with the fix', () => {
  /** Release 'plain': chart web at the root of the app; 'ported': the same chart in capability shop, with the given names. */
  const build = (app: CapabilityApp, variant: 'plain' | 'ported' | 'ported-full-path') => {
    const scope = variant === 'plain' ? app : new Capability(app, 'shop', { generatedNames: variant === 'ported' ? 'plain' : 'full-path' });
    new WebChart(scope, 'web');
  };

  test('porting with the default names keeps every object: no rename, nothing removed', () => {
    const { plan, violations } = nextRelease(lockedSeries(build, 'plain'), build, 'ported');
    expect(violations).toEqual([]);
    expect(plan!.renames).toBeUndefined();
    expect(plan!.changes.removed).toEqual([]);
  });

  test('names that change (generatedNames: \'full-path\') are listed as renames, each with its fix', () => {
    const { plan } = nextRelease(lockedSeries(build, 'plain'), build, 'ported-full-path');
    expect(plan!.renames).toEqual([
      {
        from: expect.stringMatching(/^apps\/Deployment web-c8[0-9a-f]{6}$/),
        to: expect.stringMatching(/^apps\/Deployment shop-web-c8[0-9a-f]{6}$/),
        path: 'shop/web/Web',
        fix: expect.stringMatching(/^to keep apps\/Deployment web-c8[0-9a-f]{6}, set its metadata\.name to "web-c8[0-9a-f]{6}" in 'shop\/web\/Web'/),
      },
      expect.objectContaining({ from: expect.stringMatching(/^Service /), path: 'shop/web/Web/Service' }),
    ]);
  });

  test('the plan cdk-capability plan prints lists each rename with its fix', () => {
    // GIVEN the release whose names change against the lock
    const { plan } = nextRelease(lockedSeries(build, 'plain'), build, 'ported-full-path');

    // WHEN printed as `cdk-capability plan` prints it
    const text = formatPlan(plan!);

    // THEN a section after the changes names each pair, its construct and the fix
    const [from, to] = [plan!.renames![0].from, plan!.renames![0].to];
    const section = text.slice(text.indexOf('\nRenamed')).split('\n').slice(2, 4);
    expect(section).toEqual([`  ~ ${from} -> ${to} ('shop/web/Web')`, `      fix: ${plan!.renames![0].fix}`]);
    expect(text).toContain('\nRenamed (removed and added again by the same construct, or by one moved to another scope: applying creates the new object beside the old one):\n');
  });
});
