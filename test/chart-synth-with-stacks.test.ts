import { aws_lambda as lambda, Stack } from 'aws-cdk-lib';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { Capability, CapabilityApp, CapabilityTesting, DeploymentAggregate, SharedBase } from '../src';

afterAll(() => removeTempDirs());

/** A Lambda in `scope`: aws-cdk makes the function depend on its role (`node.addDependency`). */
function lambdaIn(scope: Construct): lambda.Function {
  return new lambda.Function(scope, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.h', code: lambda.Code.fromInline('exports.h=async()=>1') });
}

/**
 * Two charts under `scope` (`shop`): 'Web' with a ConfigMap and a Deployment that depends on it, declared first,
 * and 'Jobs', which depends on 'Web', with one Job: the YAML orders objects and charts by their dependencies.
 */
function charts(scope: Construct): { web: Chart; jobs: Chart } {
  const web = new Chart(scope, 'Web');
  const deploy = new ApiObject(web, 'Deploy', { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2 } });
  const cm = new ApiObject(web, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });
  deploy.addDependency(cm);
  const jobs = new Chart(scope, 'Jobs');
  new ApiObject(jobs, 'Migrate', { apiVersion: 'batch/v1', kind: 'Job', spec: { backoffLimit: 1 } });
  jobs.addDependency(web);
  return { web, jobs };
}

/** The same charts in a plain cdk8s app (a capability is no part of a generated name: the same names). */
function plainCdk8s(): { app: App; web: Chart; jobs: Chart } {
  const app = new App({ outdir: tempDir() });
  return { app, ...charts(app) };
}

/** The charts in a capability 'shop' whose shared base holds a Lambda, and a tenant aggregate too. */
function withStacks(): { app: CapabilityApp; cap: Capability; base: SharedBase; web: Chart; jobs: Chart } {
  const app = new CapabilityApp({ outdir: tempDir() });
  const cap = new Capability(app, 'shop');
  const base = new SharedBase(cap, 'Base');
  lambdaIn(base);
  lambdaIn(new DeploymentAggregate(cap, 'acme'));
  return { app, cap, base, ...charts(cap) };
}

const WEB_YAML = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-cm-c854c3b3' }, data: { a: '1' } },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web-deploy-c819c3d7' }, spec: { replicas: 2 } },
];

const APP_YAML = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-cm-c854c3b3
data:
  a: "1"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-deploy-c819c3d7
spec:
  replicas: 2
---
apiVersion: batch/v1
kind: Job
metadata:
  name: jobs-migrate-c85e7ec4
spec:
  backoffLimit: 1
`;

describe("cdk8s' Testing.synth on a chart of a CapabilityApp with stacks", () => {
  test('a chart beside a stack that holds a Lambda renders as in a plain cdk8s app', () => {
    const { web, jobs } = withStacks();
    const plain = plainCdk8s();

    expect(Testing.synth(web)).toEqual(Testing.synth(plain.web));
    expect(Testing.synth(web)).toEqual(WEB_YAML);
    expect(Testing.synth(jobs)).toEqual(Testing.synth(plain.jobs));
  });

  test('the reproduction: one ConfigMap in a chart beside a shared base with a Lambda', () => {
    const app = new CapabilityApp({ outdir: tempDir() });
    const cap = new Capability(app, 'shop');
    lambdaIn(new SharedBase(cap, 'Base'));
    const chart = new Chart(cap, 'Web');
    new ApiObject(chart, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });

    expect(Testing.synth(chart)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-cm-c854c3b3' }, data: { a: '1' } }]);
  });

  test('a dependency between a stack and a chart is left out of the chart, not a crash', () => {
    const { base, web } = withStacks();
    web.node.addDependency(base);
    base.node.addDependency(web);

    expect(Testing.synth(web)).toEqual(WEB_YAML);
  });

  test("the constructs' dependencies are as they were afterwards, and the composition is still checked", () => {
    const { app, base } = withStacks();
    const fn = base.node.findChild('Fn').node.findChild('Resource');
    const before = fn.node.dependencies.map((d) => d.node.path);

    Testing.synth(app.node.findChild('shop').node.findChild('Web') as Chart);
    app.synthYaml();

    expect(before).toEqual(['shop/Base/Fn/ServiceRole']);
    expect(fn.node.dependencies.map((d) => d.node.path)).toEqual(before);
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.map((o) => `${o.kind} ${o.metadata.name}`)).toEqual(['ConfigMap web-cm-c854c3b3', 'Deployment web-deploy-c819c3d7', 'Job jobs-migrate-c85e7ec4']);
  });
});

describe('CapabilityApp.synthYaml', () => {
  test('with stacks holding Lambdas: the YAML of a plain cdk8s app with the same charts, byte for byte', () => {
    const { app } = withStacks();

    const yaml = app.synthYaml();

    expect(yaml).toBe(plainCdk8s().app.synthYaml());
    expect(yaml).toBe(APP_YAML);
  });

  test('of a runtime-only app: byte-identical to plain cdk8s', () => {
    const app = new CapabilityApp({ outdir: tempDir() });
    charts(new Capability(app, 'shop'));

    expect(app.synthYaml()).toBe(plainCdk8s().app.synthYaml());
  });
});

describe("a stack's addDependency on a chart", () => {
  const FIX = 'Remove one of these dependencies (addDependency, or the reference that implies it).';
  /** The CAP004 of a stack that depends on chart 'shop/Web' (or its ConfigMap): the call is named by the program's line. */
  const cycle = (stack: string, target: string, site: string) =>
    `CAP004 dependency cycle: shop (deployment time) => shop/${stack} => shop/Web => shop (deployment time) (shop/Web/Cm => shop (deployment time): deployment time before runtime; `
    + `shop/${stack} => shop/Web: explicit 'shop/${stack}'.addDependency('${target}') at ${site}). ${FIX}`;

  /** A capability 'shop' with a chart 'Web' holding a ConfigMap 'Cm'. */
  function shop(): { app: CapabilityApp; cap: Capability; web: Chart; cm: ApiObject } {
    const app = new CapabilityApp({ outdir: tempDir() });
    const cap = new Capability(app, 'shop');
    const web = new Chart(cap, 'Web');
    const cm = new ApiObject(web, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });
    return { app, cap, web, cm };
  }

  test("a shared base's (deprecated) addDependency on a chart is the cycle base.node.addDependency(chart) is", () => {
    const { app, cap, web } = shop();
    const base = new SharedBase(cap, 'Base');
    const site = siteOfNextLine();
    base.addDependency(web as unknown as Stack);

    const result = CapabilityTesting.synth(app);

    expect(result.violations.map((v) => `${v.code} ${v.message}`)).toEqual([cycle('Base', 'shop/Web', site)]);
  });

  test("a plain aws-cdk stack's addDependency, and addStackDependency on an object of a chart, are refused alike", () => {
    const { app, cap, cm } = shop();
    const plain = new Stack(cap, 'Plain');
    const site = siteOfNextLine();
    plain.addStackDependency(cm as unknown as Stack);

    const result = CapabilityTesting.synth(app);

    expect(result.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP004 dependency cycle: shop/Web/Cm => shop (deployment time) => shop/Plain => shop/Web/Cm (shop/Web/Cm => shop (deployment time): deployment time before runtime; '
      + `shop/Plain => shop/Web/Cm: explicit 'shop/Plain'.addDependency('shop/Web/Cm') at ${site}). ${FIX}`,
    ]);
  });

  test("a plain stack's deprecated addDependency is named by the program's line, not aws-cdk's", () => {
    const { app, cap, web } = shop();
    const plain = new Stack(cap, 'Plain');
    const site = siteOfNextLine();
    plain.addDependency(web as unknown as Stack);

    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([cycle('Plain', 'shop/Web', site)]);
  });
});
