import * as fs from 'fs';
import { CfnElement, CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

/** Which stack of capability `shop` holds the parameter. */
type Where = 'Base' | 'acme' | 'globex';

interface ParameterVariant {
  /** The stack the parameter is declared in. */
  readonly stack: Where;
  /** Its construct id. */
  readonly id: string;
  /** Its `parameterName`; absent: CloudFormation names it. */
  readonly name?: string;
  /** A logical id kept with `overrideLogicalId`. */
  readonly logicalId?: string;
  /** `RemovalPolicy.RETAIN` (DeletionPolicy Retain). */
  readonly retain?: boolean;
  /** A second parameter, `Kept` in shop/acme, with this `parameterName`. */
  readonly kept?: string;
  /** Tenant shop/acme is declared; default true. */
  readonly acme?: boolean;
}

/** What the builder made, to read aws-cdk's own logical id of the parameter. */
let built: ssm.StringParameter | undefined;

/** GIVEN-side builder: capability `shop` with shared base `shop/Base` and tenants `shop/acme`, `shop/globex`, one parameter in one of them. */
function shop(app: CapabilityApp, v: ParameterVariant): void {
  const cap = new Capability(app, 'shop');
  const stacks = {
    Base: new SharedBase(cap, 'Base'),
    ...(v.acme === false ? {} : { acme: new DeploymentAggregate(cap, 'acme') }),
    globex: new DeploymentAggregate(cap, 'globex'),
  } as Record<Where, Stack>;
  built = new ssm.StringParameter(stacks[v.stack], v.id, { stringValue: 'origin.example.com', ...(v.name ? { parameterName: v.name } : {}) });
  if (v.logicalId) (built.node.defaultChild as CfnResource).overrideLogicalId(v.logicalId);
  if (v.retain) built.applyRemovalPolicy(RemovalPolicy.RETAIN);
  if (v.kept) new ssm.StringParameter(stacks.acme, 'Kept', { stringValue: 'kept', parameterName: v.kept });
}

/** aws-cdk's logical id of the parameter the builder made last. */
function builtLogicalId(): string {
  return Stack.of(built!).getLogicalId(built!.node.defaultChild as CfnElement);
}

/** The logical ids of the SSM parameters named `name` in the synthesized template of `stack`, read with aws-cdk's assertions. */
function parametersNamed(result: ReturnType<typeof nextRelease>, stack: string, name: string): string[] {
  const template = result.facts!.stacks.find((s) => s.path === stack)!.template;
  return Object.keys(Template.fromJSON(template).findResources('AWS::SSM::Parameter', { Properties: { Name: name } }));
}

const FIXES_ONE_STACK = (oldId: string, newId: string) =>
  `Keep the old logical id: (resource.node.defaultChild as CfnResource).overrideLogicalId('${oldId}'), or Stack.of(resource).renameLogicalId('${newId}', '${oldId}'); `
  + `or release in two steps (remove ${oldId} in one release, add the new resource in the next); `
  + 'or drop the explicit Name and let CloudFormation generate one (docs/releases.md#renaming-a-resource-that-has-a-physical-name).';

describe('CAP008: a physical name that moves to another resource between releases', () => {
  test('renaming a named SSM parameter in one stack is refused, naming the name, both logical ids and the fixes', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    const acme = lock.units.find((u: any) => u.id === 'stack:shop/acme');
    expect(acme.values['Resources.OriginBCF5A9D0.Properties.Name']).toBe('/shop/origin');

    // WHEN the next release renames the construct to Source, keeping the name
    const result = nextRelease(series, shop, { stack: 'acme', id: 'Source', name: '/shop/origin' });

    // THEN aws-cdk gives it a new logical id with the same Name
    const newId = builtLogicalId();
    expect(parametersNamed(result, 'shop/acme', '/shop/origin')).toEqual([newId]);
    expect(newId).toBe('Source71E471F1');
    // AND one CAP008 names the name, the new resource, the old one and the fixes
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: `physical name moved: this release gives AWS::SSM::Parameter Name "/shop/origin" to 'shop/acme/Source' (logical id ${newId} in stack shop/acme), `
          + 'but OriginBCF5A9D0 in stack shop/acme held it in the locked release (which this release removes): '
          + 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update), '
          + 'so creating it fails because /shop/origin already exists, and the update of stack shop/acme rolls back. '
          + FIXES_ONE_STACK('OriginBCF5A9D0', newId),
        paths: ['shop/acme', 'shop/acme/Source'],
      },
    ]);
  });

  /** The CAP008 of parameter Origin of `from` moved to `to` as Origin, `why` its reason. */
  const moved = (from: string, to: string, newId: string, why: string) =>
    `physical name moved: this release gives AWS::SSM::Parameter Name "/shop/origin" to '${to}/Origin' (logical id ${newId} in stack ${to}), `
    + `but OriginBCF5A9D0 in stack ${from} held it in the locked release (which this release removes): ${why}, `
    + `so creating it fails because /shop/origin already exists, and the update of stack ${to} rolls back${why.includes('Retain') ? ' in any deploy order' : ''}. `
    + `Keep the resource in stack ${from} under logical id OriginBCF5A9D0; `
    + (why.includes('Retain')
      ? 'or release in two steps (remove OriginBCF5A9D0 in one release and delete the resource it leaves behind, then add the new one in the next); '
      : 'or release in two steps (remove OriginBCF5A9D0 in one release, add the new resource in the next); ')
    + 'or drop the explicit Name and let CloudFormation generate one (docs/releases.md#renaming-a-resource-that-has-a-physical-name).';

  test('moving it to another tenant, in no order with its stack, is refused, saying the plan sets no order between them', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in tenant shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release moves it to tenant shop/globex
    const result = nextRelease(series, shop, { stack: 'globex', id: 'Origin', name: '/shop/origin' });

    // THEN the template of shop/globex has it
    expect(parametersNamed(result, 'shop/globex', '/shop/origin')).toEqual([builtLogicalId()]);
    expect(parametersNamed(result, 'shop/acme', '/shop/origin')).toEqual([]);
    // AND one CAP008 says why the order fails
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: moved('shop/acme', 'shop/globex', builtLogicalId(),
          'the plan does not deploy stack shop/globex, which creates the new resource, after stack shop/acme, whose update deletes the old one (neither depends on the other, so they may deploy in either order)'),
        paths: ['shop/acme', 'shop/globex/Origin'],
      },
    ]);
  });

  test('moving it from a tenant to the shared base, which deploys first, is refused, naming that order', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in tenant shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release moves it to the shared base shop/Base
    const result = nextRelease(series, shop, { stack: 'Base', id: 'Origin', name: '/shop/origin' });

    // THEN one CAP008: the base deploys before the tenant that deletes the old one
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: moved('shop/acme', 'shop/Base', builtLogicalId(), 'the plan deploys stack shop/Base, which creates the new resource, before stack shop/acme, whose update deletes the old one'),
        paths: ['shop/Base/Origin', 'shop/acme'],
      },
    ]);
  });

  test('moving it from the shared base to a tenant deployed after it is accepted: the base\'s update deletes the old one first', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in the shared base
    const series = lockedSeries(shop, { stack: 'Base', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release moves it to tenant shop/acme
    const result = nextRelease(series, shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // THEN the plan's step of shop/acme depends on shop/Base's, and nothing is refused
    const acme = result.plan!.steps.find((step) => step.id === 'shop/acme')!;
    expect(acme.dependsOn.map((d) => d.step)).toContain('shop/Base');
    expect(result.violations).toEqual([]);
  });

  test('with DeletionPolicy Retain on the old resource, moving it is refused in that order too', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in the shared base, retained
    const series = lockedSeries(shop, { stack: 'Base', id: 'Origin', name: '/shop/origin', retain: true });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    expect(lock.units.find((u: any) => u.id === 'stack:shop/Base').values['Resources.OriginBCF5A9D0.DeletionPolicy']).toBe('Retain');

    // WHEN the next release moves it to tenant shop/acme
    const result = nextRelease(series, shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // THEN one CAP008 says the old one is never deleted
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: moved('shop/Base', 'shop/acme', builtLogicalId(), 'the old resource has DeletionPolicy Retain: CloudFormation never deletes it, and /shop/origin stays taken'),
        paths: ['shop/Base', 'shop/acme/Origin'],
      },
    ]);
  });

  test('renaming a parameter without a parameterName is accepted: CloudFormation generates a new name', () => {
    // GIVEN the real lock of a release with an unnamed parameter Origin
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin' });

    // WHEN the next release renames it
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Source' });

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('renaming the construct while overrideLogicalId keeps the old logical id is accepted', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release renames the construct and keeps the logical id
    const result = nextRelease(series, shop, { stack: 'acme', id: 'Source', name: '/shop/origin', logicalId: 'OriginBCF5A9D0' });

    // THEN the template keeps the old logical id, and nothing is refused
    expect(parametersNamed(result, 'shop/acme', '/shop/origin')).toEqual(['OriginBCF5A9D0']);
    expect(result.violations).toEqual([]);
  });

  test('renaming the construct and its parameterName together is accepted', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release renames both
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Source', name: '/shop/source' });

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('a new parameter taking the name while the old one keeps it is CAP002 of this release alone', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release keeps it and adds Kept with the same name
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Origin', name: '/shop/origin', kept: '/shop/origin' });

    // THEN only the physical-names CAP002
    expect(violations.map((v) => v.code)).toEqual(['CAP002']);
  });

  test('a lock written before values were recorded holds no names: the rename is not judged', () => {
    // GIVEN the lock of a release with parameter Origin named /shop/origin, without the units' values (an older lock)
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    for (const u of lock.units) delete u.values;
    delete lock.contentDigest; // an edited lock, read as one an earlier version wrote
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN the next release renames the construct
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Source', name: '/shop/origin' });

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test.each(['(sensitive)', '(known after deploy)'])('a name the lock masked as %s is no name: the rename is not judged', (masked) => {
    // GIVEN the lock of a release with parameter Origin, its Name masked
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    lock.units.find((u: any) => u.id === 'stack:shop/acme').values['Resources.OriginBCF5A9D0.Properties.Name'] = masked;
    delete lock.contentDigest;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN the next release renames the construct
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Source', name: '/shop/origin' });

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('moving it out of a tenant that this release removes is refused: the teardown deletes that stack after the release', () => {
    // GIVEN the real lock of a release with parameter Origin named /shop/origin in tenant shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin' });

    // WHEN the next release removes shop/acme and declares the parameter in shop/globex
    const result = nextRelease(series, shop, { stack: 'globex', id: 'Origin', name: '/shop/origin', acme: false });

    // THEN one CAP008 says the removed stack is deleted only after the release
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: moved('shop/acme', 'shop/globex', builtLogicalId(),
          'stack shop/acme is removed in this release and deleted only by the teardown after the release is deployed (plan.json teardown)'),
        paths: ['shop/acme', 'shop/globex/Origin'],
      },
    ]);
  });

  test('swapping the names of two parameters is refused twice: each is replaced while the other holds its new name', () => {
    // GIVEN the real lock of a release with Origin named /shop/origin and Kept named /shop/kept in shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin', kept: '/shop/kept' });

    // WHEN the next release swaps their names
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Origin', name: '/shop/kept', kept: '/shop/origin' });

    // THEN one CAP008 per name, each naming the other resource's new name
    expect(violations.map((v) => v.message.replace(/\. Keep the old logical id.*/, ''))).toEqual([
      'physical name moved: this release gives AWS::SSM::Parameter Name "/shop/kept" to \'shop/acme/Origin\' (logical id OriginBCF5A9D0 in stack shop/acme), '
        + 'but Kept118DB03B in stack shop/acme held it in the locked release (which this release gives Name "/shop/origin"): '
        + 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update), '
        + 'so creating it fails because /shop/kept already exists, and the update of stack shop/acme rolls back',
      'physical name moved: this release gives AWS::SSM::Parameter Name "/shop/origin" to \'shop/acme/Kept\' (logical id Kept118DB03B in stack shop/acme), '
        + 'but OriginBCF5A9D0 in stack shop/acme held it in the locked release (which this release gives Name "/shop/kept"): '
        + 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update), '
        + 'so creating it fails because /shop/origin already exists, and the update of stack shop/acme rolls back',
    ]);
  });

  test('giving the name to a new parameter while the old one drops its explicit name is refused: the old one is replaced, and deleted only after', () => {
    // GIVEN the real lock of a release with Origin named /shop/origin and Kept named /shop/kept in shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Origin', name: '/shop/origin', kept: '/shop/kept' });

    // WHEN the next release drops Origin's name and gives /shop/origin to Kept
    const { violations } = nextRelease(series, shop, { stack: 'acme', id: 'Origin', kept: '/shop/origin' });

    // THEN one CAP008 says what became of the old one
    expect(violations.map((v) => v.message.replace(/: CloudFormation creates.*/, ''))).toEqual([
      'physical name moved: this release gives AWS::SSM::Parameter Name "/shop/origin" to \'shop/acme/Kept\' (logical id Kept118DB03B in stack shop/acme), '
        + 'but OriginBCF5A9D0 in stack shop/acme held it in the locked release (which this release gives another Name)',
    ]);
  });

  describe('a bucket, retained by default', () => {
    /** GIVEN-side builder: bucket `id` named `shop-acme-logs` in tenant shop/acme. */
    function logs(app: CapabilityApp, id: string): void {
      new s3.Bucket(new DeploymentAggregate(new Capability(app, 'shop'), 'acme'), id, { bucketName: 'shop-acme-logs' });
    }

    test('renaming it in one stack is refused, saying the old bucket is never deleted', () => {
      // GIVEN the real lock of a release with bucket Logs named shop-acme-logs (DeletionPolicy Retain, aws-cdk's default for a bucket)
      const series = lockedSeries(logs, 'Logs');

      // WHEN the next release renames the construct to AccessLogs
      const result = nextRelease(series, logs, 'AccessLogs');

      // THEN the template holds the new bucket with the name, retained, and one CAP008 names both ids and the retention
      const template = Template.fromJSON(result.facts!.stacks.find((st) => st.path === 'shop/acme')!.template);
      const buckets = template.findResources('AWS::S3::Bucket', { Properties: { BucketName: 'shop-acme-logs' } });
      const [newId] = Object.keys(buckets);
      expect(buckets[newId].DeletionPolicy).toBe('Retain');
      expect(newId).not.toBe('Logs6819BB44');
      expect(coded(result.violations)).toEqual([
        {
          code: 'CAP008',
          message: `physical name moved: this release gives AWS::S3::Bucket BucketName "shop-acme-logs" to 'shop/acme/AccessLogs' (logical id ${newId} in stack shop/acme), `
            + 'but Logs6819BB44 in stack shop/acme held it in the locked release (which this release removes): '
            + 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update); '
            + 'and the old resource has DeletionPolicy Retain: CloudFormation never deletes it, and shop-acme-logs stays taken: '
            + 'creating it fails because shop-acme-logs already exists, and the update rolls back. '
            + `Keep the old logical id: (resource.node.defaultChild as CfnResource).overrideLogicalId('Logs6819BB44'), or Stack.of(resource).renameLogicalId('${newId}', 'Logs6819BB44'); `
            + 'or release in two steps (remove Logs6819BB44 in one release and delete the resource it leaves behind, then add the new one in the next); '
            + 'or drop the explicit BucketName and let CloudFormation generate one (docs/releases.md#renaming-a-resource-that-has-a-physical-name).',
          paths: ['shop/acme', 'shop/acme/AccessLogs'],
        },
      ]);
    });
  });
});
