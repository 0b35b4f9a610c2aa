import * as fs from 'fs';
import { aws_iam as iam, aws_s3 as s3, aws_sqs as sqs, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { configMap, newApp, removeTempDirs, siteOfNextLine } from './util';

afterAll(removeTempDirs);

const FIX_CYCLE = 'Remove one of these dependencies (addDependency, or the reference that implies it).';
/** The origins of the explicit edges between ConfigMaps a, b and c, as a cycle message names them. */
/** `x.addDependency(y)`: the cycles below are made on this one line, which their messages name as its call site. */
function depend(x: { addDependency(...deps: IConstruct[]): void }, y: IConstruct): void {
  x.addDependency(y); // the call site
}
const SITE = `test/dependency-cycles.test.ts:${fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.endsWith('x.addDependency(y); // the call site')) + 1}`;
const AB = `cdn/R/a => cdn/R/b: explicit 'cdn/R/a'.addDependency('cdn/R/b') at ${SITE}`;
const BA = `cdn/R/b => cdn/R/a: explicit 'cdn/R/b'.addDependency('cdn/R/a') at ${SITE}`;
const BC = `cdn/R/b => cdn/R/c: explicit 'cdn/R/b'.addDependency('cdn/R/c') at ${SITE}`;
const CA = `cdn/R/c => cdn/R/a: explicit 'cdn/R/c'.addDependency('cdn/R/a') at ${SITE}`;
const FIX_SELF = 'Remove the addDependency call that names the construct itself.';

/** Runs `app.synth()` and returns what it threw; fails the test when it does not throw a CompositionError. */
function refusal(app: CapabilityApp): CompositionError {
  try {
    app.synth();
  } catch (e) {
    if (e instanceof CompositionError) return e;
    throw e;
  }
  throw new Error('expected synth() to refuse the composition');
}

/** An app with capability "cdn" and chart "R" holding ConfigMaps a, b, c. */
function chartWithThree() {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'R');
  const a = configMap(routing, 'a', 'a');
  const b = configMap(routing, 'b', 'b');
  const c = configMap(routing, 'c', 'c');
  return { app, routing, a, b, c };
}

describe('CAP004 dependency cycles', () => {
  test('two objects that depend on each other are refused with the full cycle path', () => {
    // GIVEN a depends on b and b on a
    const { app, a, b } = chartWithThree();
    depend(a, b);
    depend(b, a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN one CAP004 names the whole path
    expect(error.violations).toEqual([
      { code: 'CAP004', message: `dependency cycle: cdn/R/a => cdn/R/b => cdn/R/a (${AB}; ${BA}). ${FIX_CYCLE}`, paths: ['cdn/R/a', 'cdn/R/b'] },
    ]);
  });

  test('the refusal message starts with the count and lists the violation with its code first', () => {
    // GIVEN a two-object cycle
    const { app, a, b } = chartWithThree();
    depend(a, b);
    depend(b, a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.name).toBe('CompositionError');
    expect(error.message).toBe(`The composition was refused with 1 violation:\nCAP004 dependency cycle: cdn/R/a => cdn/R/b => cdn/R/a (${AB}; ${BA}). ${FIX_CYCLE}`);
  });

  test('a three-object cycle is reported in "depends on" order', () => {
    // GIVEN a -> b -> c -> a (each depends on the next)
    const { app, a, b, c } = chartWithThree();
    depend(a, b);
    depend(b, c);
    depend(c, a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.violations.map((v) => v.message)).toEqual([`dependency cycle: cdn/R/a => cdn/R/b => cdn/R/c => cdn/R/a (${AB}; ${BC}; ${CA}). ${FIX_CYCLE}`]);
  });

  test('an object that depends on itself is refused, not dropped', () => {
    // GIVEN a depends on a
    const { app, a } = chartWithThree();
    a.addDependency(a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.violations).toEqual([{ code: 'CAP004', message: `dependency cycle: 'cdn/R/a' depends on itself. ${FIX_SELF}`, paths: ['cdn/R/a'] }]);
  });

  test('a chart that depends on itself is refused', () => {
    // GIVEN the chart depends on itself
    const { app, routing } = chartWithThree();
    routing.addDependency(routing);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.violations).toEqual([{ code: 'CAP004', message: `dependency cycle: 'cdn/R' depends on itself. ${FIX_SELF}`, paths: ['cdn/R'] }]);
  });

  test('a stack that depends on itself (node.addDependency) is refused', () => {
    // GIVEN the shared base depends on itself
    const app = newApp();
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    base.node.addDependency(base);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.violations).toEqual([{ code: 'CAP004', message: `dependency cycle: 'cdn/Base' depends on itself. ${FIX_SELF}`, paths: ['cdn/Base'] }]);
  });

  test('a stack that depends on itself through addStackDependency is refused, not dropped', () => {
    // GIVEN the shared base depends on itself the aws-cdk way (aws-cdk itself ignores it silently)
    const app = newApp();
    const base = new SharedBase(new Capability(app, 'cdn'), 'Base');
    base.addStackDependency(base);

    // WHEN synthesized
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => ({ code: v.code, message: v.message, paths: v.paths }))).toEqual([
      { code: 'CAP004', message: expect.stringMatching(/^dependency cycle: 'cdn\/Base' depends on itself\. /), paths: ['cdn/Base'] },
    ]);
  });

  test('a shared base made to depend on its own tenant aggregate is refused naming the call by its file and line', () => {
    // GIVEN a capability with a shared base and a tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');

    // WHEN the base is made to depend on the tenant
    const at = siteOfNextLine();
    base.addDependency(acme);

    // THEN the cycle names the call as an object's addDependency is named, and the tenant's edge by its rule
    expect(refusal(app).violations).toEqual([{
      code: 'CAP004',
      message: `dependency cycle: cdn/Base => cdn/acme => cdn/Base (cdn/Base => cdn/acme: explicit 'cdn/Base'.addDependency('cdn/acme') at ${at}; `
        + 'cdn/acme => cdn/Base: shared base before tenant aggregate). Remove the dependency of the shared base on the tenant aggregate.',
      paths: ['cdn/Base', 'cdn/acme'],
    }]);
  });

  test('a shared base that depends on its tenant through another stack names both addStackDependency calls by file and line', () => {
    // GIVEN the base depends on a plain aws-cdk stack of the capability, which depends on the tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const dns = new Stack(cdn, 'Dns');

    // WHEN
    const first = siteOfNextLine();
    base.addStackDependency(dns);
    const second = siteOfNextLine();
    dns.addStackDependency(acme);

    // THEN the path runs base, dns, tenant, base, each call with its line
    expect(refusal(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: cdn/Base => cdn/Dns => cdn/acme => cdn/Base (cdn/Base => cdn/Dns: explicit 'cdn/Base'.addDependency('cdn/Dns') at ${first}; `
        + `cdn/Dns => cdn/acme: explicit 'cdn/Dns'.addDependency('cdn/acme') at ${second}; cdn/acme => cdn/Base: shared base before tenant aggregate). `
        + 'Remove the dependency of the shared base on the tenant aggregate.',
    ]);
  });

  test('a shared base made to depend on its own tenant aggregate through node.addDependency is refused naming the call by its file and line', () => {
    // GIVEN a capability with a shared base and a tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    const acme = new DeploymentAggregate(cdn, 'acme');

    // WHEN the base is made to depend on the tenant at the constructs level, which aws-cdk makes a stack dependency at synth
    const at = siteOfNextLine();
    base.node.addDependency(acme);

    // THEN the cycle is named as one of addStackDependency is, not in aws-cdk's words
    expect(refusal(app).violations).toEqual([{
      code: 'CAP004',
      message: `dependency cycle: cdn/Base => cdn/acme => cdn/Base (cdn/Base => cdn/acme: explicit 'cdn/Base'.addDependency('cdn/acme') at ${at}; `
        + 'cdn/acme => cdn/Base: shared base before tenant aggregate). Remove the dependency of the shared base on the tenant aggregate.',
      paths: ['cdn/Base', 'cdn/acme'],
    }]);
  });

  test('a shared base made to depend on a construct of its tenant aggregate names that construct and the call', () => {
    // GIVEN a bucket of the tenant
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    const bucket = new s3.Bucket(new DeploymentAggregate(cdn, 'acme'), 'Bucket');

    // WHEN the base is made to depend on the bucket
    const at = siteOfNextLine();
    base.node.addDependency(bucket);

    // THEN the stacks are on the path, the call names the bucket
    expect(refusal(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: cdn/Base => cdn/acme => cdn/Base (cdn/Base => cdn/acme: explicit 'cdn/Base'.addDependency('cdn/acme/Bucket') at ${at}; `
        + 'cdn/acme => cdn/Base: shared base before tenant aggregate). Remove the dependency of the shared base on the tenant aggregate.',
    ]);
  });

  test('a node.addDependency that closes a cycle with an addStackDependency names both calls by file and line', () => {
    // GIVEN a tenant that depends on a plain aws-cdk stack
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const dns = new Stack(cdn, 'Dns');
    const first = siteOfNextLine();
    acme.addStackDependency(dns);

    // WHEN the stack is made to depend on the tenant at the constructs level
    const second = siteOfNextLine();
    dns.node.addDependency(acme);

    // THEN
    expect(refusal(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: cdn/Dns => cdn/acme => cdn/Dns (cdn/Dns => cdn/acme: explicit 'cdn/Dns'.addDependency('cdn/acme') at ${second}; `
        + `cdn/acme => cdn/Dns: explicit 'cdn/acme'.addDependency('cdn/Dns') at ${first}). ${FIX_CYCLE}`,
    ]);
  });

  test('two stacks that depend on each other through node.addDependency are one CAP004, without aws-cdk\'s words beside it', () => {
    // GIVEN two tenants made to depend on each other at the constructs level
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const globex = new DeploymentAggregate(cdn, 'globex');
    const first = siteOfNextLine();
    acme.node.addDependency(globex);
    const second = siteOfNextLine();
    globex.node.addDependency(acme);

    // WHEN synthesized
    const error = refusal(app);

    // THEN the graph's cycle alone
    expect(error.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: cdn/acme => cdn/globex => cdn/acme (cdn/acme => cdn/globex: explicit 'cdn/acme'.addDependency('cdn/globex') at ${first}; `
        + `cdn/globex => cdn/acme: explicit 'cdn/globex'.addDependency('cdn/acme') at ${second}). ${FIX_CYCLE}`,
    ]);
  });

  test('a tenant aggregate made to depend on a construct of its shared base through node.addDependency is no cycle', () => {
    // GIVEN the tenant depends on a bucket of its base, as it deploys after it anyway
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    acme.node.addDependency(new s3.Bucket(new SharedBase(cdn, 'Base'), 'Bucket'));

    // WHEN synthesized
    const result = app.synthesize();

    // THEN nothing is refused, and the assembly has the tenant after its base
    expect(result.violations).toEqual([]);
    expect(acme.dependencies.map((s) => s.node.path)).toEqual(['cdn/Base']);
  });

  test('a stack dependency that closes a cycle is refused as it is made, CAP004 naming each call on the cycle by file and line', () => {
    // GIVEN a tenant that depends on a plain aws-cdk stack, which depends on another tenant
    const cdn = new Capability(newApp(), 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const globex = new DeploymentAggregate(cdn, 'globex');
    const dns = new Stack(cdn, 'Dns');
    const first = siteOfNextLine();
    acme.addDependency(dns);
    const second = siteOfNextLine();
    dns.addStackDependency(globex);

    // WHEN the other tenant is made to depend on the first
    let error: unknown;
    const third = siteOfNextLine();
    try { globex.addDependency(acme); } catch (e) { error = e; }

    // THEN a CompositionError names the cycle and every call on it, as synth names a cycle of objects
    expect(CompositionError.isCompositionError(error)).toBe(true);
    expect((error as CompositionError).violations).toEqual([{
      code: 'CAP004',
      message: `dependency cycle: cdn/globex => cdn/acme => cdn/Dns => cdn/globex (cdn/globex => cdn/acme: explicit 'cdn/globex'.addDependency('cdn/acme') at ${third}; `
        + `cdn/acme => cdn/Dns: explicit 'cdn/acme'.addDependency('cdn/Dns') at ${first}; cdn/Dns => cdn/globex: explicit 'cdn/Dns'.addDependency('cdn/globex') at ${second}). `
        + 'Remove one of these dependencies (addDependency, or the reference that implies it).',
      paths: ['cdn/globex'],
    }]);
  });

  test('a cycle a cross-stack reference closes during synth is one CAP004 on one line, named by the call and by the reference', () => {
    // GIVEN (a user trial: the message held a second refusal inside it, over two lines) zeta's bucket granted to alpha's role
    // (alpha depends on zeta), and zeta's bucket policy naming alpha's role (zeta depends on alpha)
    const app = newApp();
    const cap = new Capability(app, 'shop');
    const zeta = new DeploymentAggregate(cap, 'zeta');
    const bucket = new s3.Bucket(zeta, 'B');
    const alpha = new DeploymentAggregate(cap, 'alpha');
    const role = new iam.Role(alpha, 'R', { assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com') });
    bucket.grantRead(role);
    new s3.CfnBucketPolicy(zeta, 'P', {
      bucket: bucket.bucketName,
      policyDocument: { Statement: [{ Effect: 'Allow', Principal: { AWS: role.roleArn }, Action: 's3:GetObject', Resource: '*' }] },
    });

    // WHEN
    const violations = refusal(app).violations;

    // THEN one line, naming both stacks and the references that made the dependencies
    expect(violations).toEqual([{
      code: 'CAP004',
      message: 'dependency cycle: shop/alpha => shop/zeta => shop/alpha (shop/alpha => shop/zeta: shop/alpha -> shop/zeta/B/Resource.Arn; '
        + 'shop/zeta => shop/alpha: shop/zeta -> shop/alpha/R/Resource.Arn). Remove one of these dependencies (addDependency, or the reference that implies it).',
      paths: ['shop/alpha'],
    }]);
  });

  test('a grant of a tenant resource to a principal of the shared base is refused naming the base-before-tenant order, the grant and how to turn it round', () => {
    // GIVEN (a user trial: the tenant's edge was "stack dependency", and the fix offered to remove it) a role of the shared base
    const app = newApp();
    const cap = new Capability(app, 'files');
    const role = new iam.Role(new SharedBase(cap, 'Base'), 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const queue = new sqs.Queue(new DeploymentAggregate(cap, 'acme'), 'Queue');

    // WHEN the tenant's queue is granted to it: the grant writes the queue's ARN into the role's policy, in the base
    queue.grantConsumeMessages(role);

    // THEN the tenant's edge is named by its rule, and the fix is the grant's reference, turned round
    expect(refusal(app).violations).toEqual([{
      code: 'CAP004',
      message: 'dependency cycle: files/Base => files/acme => files/Base (files/Base => files/acme: files/Base -> files/acme/Queue/Resource.Arn; '
        + "files/acme => files/Base: shared base before tenant aggregate). Remove the reference of 'files/Base' to 'files/acme' "
        + "('files/Base/Role/DefaultPolicy/Resource' reads files/acme/Queue/Resource.Arn): a grant wrote it (a grant* method of a resource of 'files/acme' "
        + "to a principal of 'files/Base' adds its statement to the principal's policy, in 'files/Base'). Grant to the principal as seen from 'files/acme' instead "
        + "(iam.Role.fromRoleArn(<a construct of 'files/acme'>, id, role.roleArn)), so the policy and the reference are in 'files/acme'.",
      paths: ['files/Base'],
    }]);
  });

  test('when the tenant also reads the shared base, its edge names the order by its rule and that reference', () => {
    // GIVEN a queue of the tenant tagged with the name of a role of the base (the tenant, declared first, reads the base:
    // aws-cdk resolves its references first)
    const app = newApp();
    const cap = new Capability(app, 'files');
    const acme = new DeploymentAggregate(cap, 'acme');
    const role = new iam.Role(new SharedBase(cap, 'Base'), 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    new sqs.CfnQueue(acme, 'Raw', { tags: [{ key: 'role', value: role.roleName }] });

    // WHEN the tenant's queue is granted to the base's role
    new sqs.Queue(acme, 'Queue').grantConsumeMessages(role);

    // THEN the tenant's edge is the package's order, with the reference behind it; the fix is the base's reference
    expect(refusal(app).violations.map((v) => v.message.split('). ')[0])).toEqual([
      'dependency cycle: files/Base => files/acme => files/Base (files/Base => files/acme: files/Base -> files/acme/Queue/Resource.Arn; '
        + 'files/acme => files/Base: shared base before tenant aggregate, files/acme -> files/Base/Role/Resource.Ref',
    ]);
    expect(refusal(app).violations[0].message).toContain("Remove the reference of 'files/Base' to 'files/acme' ('files/Base/Role/DefaultPolicy/Resource' reads files/acme/Queue/Resource.Arn)");
  });

  test('the grant made to the role as seen from the tenant, as the CAP004 fix says, synthesizes', () => {
    // GIVEN a role of the shared base and a queue of the tenant
    const app = newApp();
    const cap = new Capability(app, 'files');
    const role = new iam.Role(new SharedBase(cap, 'Base'), 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const acme = new DeploymentAggregate(cap, 'acme');
    const queue = new sqs.Queue(acme, 'Queue');

    // WHEN granted to the role imported into the tenant
    queue.grantConsumeMessages(iam.Role.fromRoleArn(acme, 'BaseRole', role.roleArn));

    // THEN no refusal: the tenant reads the base, in the order the package deploys them
    expect(() => app.synth()).not.toThrow();
  });

  test('a shared base that reads an attribute of a tenant resource is refused naming the reader and the order', () => {
    // GIVEN a bucket of the tenant
    const app = newApp();
    const shop = new Capability(app, 'shop');
    const base = new SharedBase(shop, 'Base');
    const assets = new s3.Bucket(new DeploymentAggregate(shop, 'acme'), 'Assets');

    // WHEN a parameter of the base holds its name
    new ssm.StringParameter(base, 'P', { stringValue: assets.bucketName });

    // THEN the reader is named, and the fix moves it
    expect(refusal(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP004 dependency cycle: shop/Base => shop/acme => shop/Base (shop/Base => shop/acme: shop/Base -> shop/acme/Assets/Resource.Ref; '
        + "shop/acme => shop/Base: shared base before tenant aggregate). Remove the reference of 'shop/Base' to 'shop/acme' "
        + "('shop/Base/P/Resource' reads shop/acme/Assets/Resource.Ref): 'shop/Base' deploys before 'shop/acme', so it cannot read its values: "
        + "move the reader into 'shop/acme', or have 'shop/acme' read from 'shop/Base' instead.",
    ]);
  });

  test("a plain aws-cdk Stack's call that closes a cycle keeps aws-cdk's own error", () => {
    const cdn = new Capability(newApp(), 'cdn');
    const acme = new DeploymentAggregate(cdn, 'acme');
    const dns = new Stack(cdn, 'Dns');
    acme.addDependency(dns);
    expect(() => dns.addStackDependency(acme)).toThrow(
      "'cdn/acme' depends on 'cdn/Dns' (<cdn/acme>.addStackDependency(<cdn/Dns>)). Adding this dependency (<cdn/Dns>.addStackDependency(<cdn/acme>)) would create a cyclic reference.",
    );
  });

  test('an object that depends on its own chart is a cycle through the chart', () => {
    // GIVEN a depends on the chart that holds it
    const { app, routing, a } = chartWithThree();
    depend(a, routing);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.violations.map((v) => `${v.code} ${v.message}`)).toEqual([`CAP004 dependency cycle: cdn/R/a => cdn/R => cdn/R/a (cdn/R/a => cdn/R: explicit 'cdn/R/a'.addDependency('cdn/R') at ${SITE}). ${FIX_CYCLE}`]);
  });

  test('a stack that depends on its capability\'s runtime object is a cycle across lifecycles', () => {
    // GIVEN the base stack depends on a runtime object, which must wait for the capability's stacks
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    new ssm.StringParameter(base, 'Origin', { parameterName: '/cdn/origin', stringValue: 'origin.example.com' });
    const a = configMap(new RuntimeRouting(cdn, 'R'), 'a', 'a');
    depend(base.node, a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN the path names the deployment-time gate of the capability
    expect(error.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: cdn/Base => cdn/R/a => cdn (deployment time) => cdn/Base (cdn/Base => cdn/R/a: explicit 'cdn/Base'.addDependency('cdn/R/a') at ${SITE}; cdn/R/a => cdn (deployment time): deployment time before runtime). ${FIX_CYCLE}`,
    ]);
  });

  test('the message lists every violation on its own line, code first, sorted', () => {
    // GIVEN a three-object cycle and a self-dependency
    const { app, a, b, c } = chartWithThree();
    depend(a, b);
    depend(b, c);
    depend(c, a);
    c.addDependency(c);

    // WHEN synthesized
    const error = refusal(app);

    // THEN
    expect(error.message).toBe(
      [
        'The composition was refused with 2 violations:',
        `CAP004 dependency cycle: 'cdn/R/c' depends on itself. ${FIX_SELF}`,
        `CAP004 dependency cycle: cdn/R/a => cdn/R/b => cdn/R/c => cdn/R/a (${AB}; ${BC}; ${CA}). ${FIX_CYCLE}`,
      ].join('\n'),
    );
  });

  test('the error carries no stack trace into synth internals', () => {
    // GIVEN a cycle
    const { app, a, b } = chartWithThree();
    depend(a, b);
    depend(b, a);

    // WHEN synthesized
    const error = refusal(app);

    // THEN the stack is the report alone
    expect(error.stack).toBe(`CompositionError: ${error.message}`);
    expect(error.stack).not.toMatch(/^\s+at /m);
  });

  test('synthesize() returns the violations without throwing, and no plan or output', () => {
    // GIVEN a cycle
    const { app, a, b } = chartWithThree();
    depend(a, b);
    depend(b, a);

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations.map((v) => v.code)).toEqual(['CAP004']);
    expect(result.plan).toBeUndefined();
    expect(result.runtimeFiles).toBeUndefined();
    expect(result.output).toBeUndefined();
  });

  test('a refused synth into a fresh outdir creates nothing', () => {
    // GIVEN a cycle and an outdir that does not exist yet
    const { app, a, b } = chartWithThree();
    depend(a, b);
    depend(b, a);

    // WHEN synthesized
    refusal(app);

    // THEN
    expect(fs.existsSync(app.outdir)).toBe(false);
  });
});
