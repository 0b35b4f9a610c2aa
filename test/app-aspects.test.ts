/**
 * Aspects of the app (`Tags.of(app)`, `PermissionsBoundary.of(app)`, `Aspects.of(app)`) reach every
 * capability's stacks as they reach the stacks of a plain aws-cdk App, though a Capability is a Stage and
 * aws-cdk carries no aspect across a Stage boundary.
 */
import { App, AspectPriority, Aspects, IAspect, Stack, Tags } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, IConstruct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, conflict, declares } from './write-fixtures';
import { Capability, CapabilityTesting, SharedBase } from '../src';

/** Sets the Description of every IAM role it visits. */
class Describe implements IAspect {
  constructor(private readonly description: string) {}
  public visit(node: IConstruct) {
    if (node instanceof iam.CfnRole) node.addPropertyOverride('Description', this.description);
  }
}

const role = (scope: Construct) => new iam.Role(scope, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
const resourceOf = (template: any, type: string) => Object.values<any>(template.Resources).find((r) => r.Type === type);

describe("the app's aspects reach every capability's stacks", () => {
  test("the trial's Tag, PermissionsBoundary and aspect on the app reach a role in a capability, as on a plain App", () => {
    // GIVEN a role in a capability's shared base
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop', { prefixStackNames: false }), 'Base');
    role(base);

    // WHEN the app is given a boundary, a tag and an aspect
    iam.PermissionsBoundary.of(app).apply(iam.ManagedPolicy.fromManagedPolicyName(base, 'Boundary', 'org-boundary'));
    Tags.of(app).add('cost-center', '42');
    Aspects.of(app).add(new Describe('guarded'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(resourceOf(result.templates['shop/Base'], 'AWS::IAM::Role').Properties).toEqual(expect.objectContaining({
      Description: 'guarded',
      PermissionsBoundary: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':policy/org-boundary']] },
      Tags: [{ Key: 'cost-center', Value: '42' }],
    }));
  });

  test('a Tag added to the app before the capability exists reaches it, and each of two capabilities', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    Tags.of(app).add('cost-center', '42');

    // WHEN
    new s3.Bucket(new SharedBase(new Capability(app, 'shop'), 'Base'), 'Bucket');
    new s3.Bucket(new SharedBase(new Capability(app, 'dns'), 'Base'), 'Bucket');

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(['shop/Base', 'dns/Base'].map((s) => resourceOf(result.templates[s], 'AWS::S3::Bucket').Properties.Tags)).toEqual([
      [{ Key: 'cost-center', Value: '42' }],
      [{ Key: 'cost-center', Value: '42' }],
    ]);
  });

  test('an aspect of a plain construct between the app and a capability reaches its stacks', () => {
    // GIVEN a capability under a plain construct
    const app = CapabilityTesting.app();
    const group = new Construct(app, 'Group');
    role(new SharedBase(new Capability(group, 'shop'), 'Base'));

    // WHEN
    Aspects.of(group).add(new Describe('grouped'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(resourceOf(result.templates['Group/shop/Base'], 'AWS::IAM::Role').Properties.Description).toBe('grouped');
  });

  test.each([
    ['the app\'s runs first at a lower priority', AspectPriority.MUTATING, AspectPriority.DEFAULT],
    ['the app\'s runs last at a higher priority', AspectPriority.READONLY, AspectPriority.DEFAULT],
    ['the app\'s runs first at an equal priority, as an inherited aspect does', AspectPriority.DEFAULT, AspectPriority.DEFAULT],
  ])('aspects of the app, the capability and the stack run in the order of a plain App: %s', (_, appPriority, ownPriority) => {
    // GIVEN a role under a capability, and one under a plain construct of a plain App
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    const base = new SharedBase(shop, 'Base');
    role(base);
    const plain = new App();
    const plainShop = new Construct(plain, 'shop');
    const plainBase = new Stack(plainShop, 'Base');
    role(plainBase);

    // WHEN each level adds an aspect that logs its visits of the role, the app's with its own priority
    const logs = [[], []] as string[][];
    [[app, shop, base], [plain, plainShop, plainBase]].forEach(([top, middle, bottom], i) => {
      const log = (name: string): IAspect => ({ visit: (node) => { if (node instanceof iam.CfnRole) logs[i].push(name); } });
      Aspects.of(bottom).add(log('stack'), { priority: ownPriority });
      Aspects.of(middle).add(log('capability'), { priority: ownPriority });
      Aspects.of(top).add(log('app'), { priority: appPriority });
    });
    plain.synth();
    CapabilityTesting.synth(app);

    // THEN the same order
    expect(logs[0]).toEqual(logs[1]);
    expect(logs[0]).toHaveLength(3);
  });

  test("a unit test's Template.fromStack of a stack in a capability sees the app's Tags too", () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    new s3.Bucket(base, 'Bucket');

    // WHEN
    Tags.of(app).add('cost-center', '42');

    // THEN
    Template.fromStack(base).hasResourceProperties('AWS::S3::Bucket', { Tags: [{ Key: 'cost-center', Value: '42' }] });
  });

  test('the app\'s aspects are not left on the capability', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    role(new SharedBase(shop, 'Base'));
    Aspects.of(app).add(new Describe('guarded'));

    // WHEN
    CapabilityTesting.synth(app);

    // THEN
    expect(Aspects.of(shop).all).toEqual([]);
  });
});

describe("the app's Tags are writers of the ledger, named by their call", () => {
  test("a capability's Tag of one key over the app's is aws-cdk's layering: its value, recorded as a handover from the app's call", () => {
    // GIVEN a bucket tagged env=prod by the app and env=dev by its capability
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    new s3.Bucket(new SharedBase(shop, 'Base'), 'Bucket');
    const outer = siteOfNextLine();
    Tags.of(app).add('env', 'prod');
    const nearer = siteOfNextLine();
    Tags.of(shop).add('env', 'dev');

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN the nearer value, as on a plain App, and the handover names the app's call
    expect(result.violations).toEqual([]);
    expect(resourceOf(result.templates['shop/Base'], 'AWS::S3::Bucket').Properties.Tags).toEqual([{ Key: 'env', Value: 'dev' }]);
    expect(result.plan!.ownership!.handovers).toEqual([
      { object: 'AWS::S3::Bucket shop/Base/Bucket/Resource', field: 'Tags.env', from: `the app (Tags.of().add at ${outer})`, to: `shop (Tags.of().add at ${nearer})`, reason: 'nearer-scope' },
      { object: 'stack shop/Base', field: 'Tags.env', from: `the app (Tags.of().add at ${outer})`, to: `shop (Tags.of().add at ${nearer})`, reason: 'nearer-scope' },
    ]);
  });

  test("the app's Tag of a higher priority keeps its value over a capability's, which writes nothing, as on a plain App", () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    new s3.Bucket(new SharedBase(shop, 'Base'), 'Bucket');

    // WHEN
    Tags.of(shop).add('env', 'dev');
    Tags.of(app).add('env', 'prod', { priority: 300 });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(resourceOf(result.templates['shop/Base'], 'AWS::S3::Bucket').Properties.Tags).toEqual([{ Key: 'env', Value: 'prod' }]);
    expect(result.plan!.ownership?.handovers ?? []).toEqual([]);
  });

  test("the app's Tag over a tag the resource declares is CAP002 naming the app's call and the declarer, as a stack's Tag is", () => {
    // GIVEN an L1 bucket declared with team=payments
    const app = CapabilityTesting.app();
    new s3.CfnBucket(new SharedBase(new Capability(app, 'shop'), 'Base'), 'Bucket', { tags: [{ key: 'team', value: 'payments' }] });

    // WHEN the whole app is tagged team=obs
    const at = siteOfNextLine();
    Tags.of(app).add('team', 'obs');

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict("'shop/Base/Bucket'", `the app (Tags.of().add at ${at})`, 'Tags.team', 'AWS::S3::Bucket shop/Base/Bucket', declares('shop/Base/Bucket'), calls('', `Tags.of().add at ${at}`)),
    ]);
  });
});
