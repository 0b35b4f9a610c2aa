/**
 * A grant made in a write callback into a policy that exists already (aws-cdk's `DefaultPolicy` of a role that
 * an earlier grant made): each statement the callback adds is its Contribution's write, one value of the
 * policy's set of statements; any other change to that policy is still CAP010.
 */
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { siteOfNextLine } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, DeploymentAggregate, SharedBase } from '../src';
import { bucketStatement, defaultPolicyStatements, LOGS_WRITE, POLICY, READ, shop as withLogs, statementField, writesOf } from './grant-fixtures';

/** The grant fixtures' shop, with a second bucket `Archive`. */
function shop(app?: CapabilityApp, capability?: Capability) {
  const built = withLogs(app, capability);
  return { ...built, archive: new s3.Bucket(built.acme, 'Archive') };
}

describe('a grant in a write callback into a policy that exists', () => {
  test('is accepted, and the template has the declarer\'s statement and the callback\'s', () => {
    // GIVEN a role with a DefaultPolicy that grants writing Logs
    const { app, acme, fn, data } = shop();

    // WHEN another team grants reading Data in a callback
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(defaultPolicyStatements(result.templates['shop/acme'])).toEqual([
      bucketStatement(LOGS_WRITE, 'Logs6819BB44'),
      bucketStatement(READ, 'Data666C94C7'),
    ]);
  });

  test('the ledger credits the new statement to the Contribution and the old one to the declarer', () => {
    // GIVEN
    const { app, acme, fn, data } = shop();

    // WHEN
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN each statement is one value of the set, written by whoever added it; the other properties are the declarer's
    expect(writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      [POLICY, 'PolicyDocument.Version'],
      [POLICY, 'PolicyName'],
      [POLICY, 'Roles'],
      ['shop/acme/DataAccess', statementField(bucketStatement(READ, 'Data666C94C7'))],
    ]);
  });

  test('a grant of a bucket in another stack is credited with the statement as the template has it (an import)', () => {
    // GIVEN the bucket in the shared base, the function's role with its DefaultPolicy in acme
    const app = CapabilityTesting.app();
    const capability = new Capability(app, 'shop');
    const shared = new s3.Bucket(new SharedBase(capability, 'Base'), 'Shared');
    const { acme, fn } = shop(app, capability);

    // WHEN
    new Contribution(acme, 'SharedAccess', { target: shared, write: (b) => { b.grantRead(fn); } });

    // THEN the credited value is the template's second statement, which reads the bucket's ARN through an import
    const statements = defaultPolicyStatements(CapabilityTesting.synth(app).templates['shop/acme']);
    expect(JSON.stringify(statements[1])).toContain('"Fn::ImportValue":"shop-Base:ExportsOutputFnGetAttShared');
    expect(writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`).filter(([writer]) => writer === 'shop/acme/SharedAccess')).toEqual([
      ['shop/acme/SharedAccess', statementField(statements[1])],
    ]);
  });

  test('two callbacks granting different things are both credited, each with its own statement', () => {
    // GIVEN
    const { app, acme, fn, data, archive } = shop();

    // WHEN two teams grant in callbacks of their own
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });
    new Contribution(acme, 'ArchiveAccess', { target: archive, write: (b) => { b.grantPut(fn); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
    expect(writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`).filter(([writer]) => writer !== POLICY)).toEqual([
      ['shop/acme/DataAccess', statementField(bucketStatement(READ, 'Data666C94C7'))],
      ['shop/acme/ArchiveAccess', statementField({
        Action: ['s3:PutObject', 's3:PutObjectLegalHold', 's3:PutObjectRetention', 's3:PutObjectTagging', 's3:PutObjectVersionTagging', 's3:Abort*'],
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['ArchiveDA4CB258', 'Arn'] }, '/*']] },
      })],
    ]);
  });

  test('the same statement from two writers is one value of the set that both write, and no conflict', () => {
    // GIVEN a DefaultPolicy that grants reading Data already
    const { app, acme, fn, data } = shop();
    data.grantRead(fn);

    // WHEN two callbacks grant reading Data again
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });
    new Contribution(acme, 'DataAgain', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN accepted, the statement once in the template, written by all three
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(defaultPolicyStatements(result.templates['shop/acme'])).toEqual([bucketStatement(LOGS_WRITE, 'Logs6819BB44'), bucketStatement(READ, 'Data666C94C7')]);
    const read = statementField(bucketStatement(READ, 'Data666C94C7'));
    expect(writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`).filter(([, field]) => field === read)).toEqual([
      [POLICY, read],
      ['shop/acme/DataAccess', read],
      ['shop/acme/DataAgain', read],
    ]);
  });

  test('a statement added to a topic\'s policy, whose statements aws-cdk numbers, is credited with its number', () => {
    // GIVEN a topic whose policy exists (a first statement, Sid "0")
    const app = CapabilityTesting.app();
    const acme = new DeploymentAggregate(new Capability(app, 'shop'), 'acme');
    const topic = new sns.Topic(acme, 'Events');
    topic.addToResourcePolicy(new iam.PolicyStatement({ actions: ['sns:Publish'], principals: [new iam.ServicePrincipal('s3.amazonaws.com')], resources: ['*'] }));
    const data = new s3.Bucket(acme, 'Data');

    // WHEN a callback adds a second statement
    new Contribution(acme, 'Subscribe', {
      target: data,
      write: () => { topic.addToResourcePolicy(new iam.PolicyStatement({ actions: ['sns:Subscribe'], principals: [new iam.AccountRootPrincipal()], resources: ['*'] })); },
    });

    // THEN it is the Contribution's, as the template numbers it
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const [, policy] = Object.entries(Template.fromJSON(result.templates['shop/acme']).findResources('AWS::SNS::TopicPolicy'))[0];
    const added = policy.Properties.PolicyDocument.Statement[1];
    expect(added.Sid).toBe('1');
    expect(writesOf(app, 'AWS::SNS::TopicPolicy shop/acme/Events/Policy/Resource').filter(([writer]) => writer === 'shop/acme/Subscribe')).toEqual([
      ['shop/acme/Subscribe', statementField(added)],
    ]);
  });

  test('a second synth of the same app credits the statement again', () => {
    // GIVEN
    const { app, acme, fn, data } = shop();
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });
    const first = writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`);

    // WHEN
    const second = writesOf(app, `AWS::IAM::Policy ${POLICY}/Resource`);

    // THEN
    expect(second).toEqual(first);
    expect(second.map(([writer]) => writer)).toContain('shop/acme/DataAccess');
  });

  test('a plain override of the statements replaces the callback\'s too: CAP002 naming the Contribution', () => {
    // GIVEN
    const { app, acme, fn, data } = shop();
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // WHEN the statements are overridden whole
    const cfnPolicy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
    const at = siteOfNextLine();
    cfnPolicy.addPropertyOverride('PolicyDocument.Statement', [{ Action: 's3:*', Effect: 'Allow', Resource: '*' }]);

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'shop/acme/DataAccess', '${POLICY}' and '${POLICY}/Resource' (addPropertyOverride at ${at}) all write PolicyDocument.Statement of AWS::IAM::Policy ${POLICY}/Resource. ` +
        `Give each field one owner: drop it from all of them but one (${contributes('write callback', 'shop/acme/DataAccess')}; ${declares(POLICY)}; ${calls(`${POLICY}/Resource`, `addPropertyOverride at ${at}`)}).`,
    ]);
  });
});

describe('a write callback that changes a policy that exists in any other way', () => {
  const refusal = (changed: string) =>
    `CAP010 invalid object: Contribution 'shop/acme/DataAccess': its write callback changed the resource '${changed}', which is not its target, ` +
    "so what it wrote there would be taken for its declarer's and could replace a value the declarer set without a conflict. " +
    "A callback may add statements to a policy that exists (a grant): each is its own write; it may not change or remove the statements already there, or the policy's other properties. " +
    'Make only the grant in the callback, or write the policy where it is declared.';

  test('renaming it (PolicyName) beside a grant is CAP010', () => {
    // GIVEN
    const { app, acme, fn, data } = shop();
    const cfnPolicy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;

    // WHEN the callback grants and renames the policy
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); cfnPolicy.policyName = 'renamed'; } });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([refusal(`${POLICY}/Resource`)]);
  });

  test('a grant that aws-cdk merges into a statement already there (minimized policies) is CAP010: it changes that statement', () => {
    // GIVEN policies minimized, and a DefaultPolicy that grants reading Reports
    const app = CapabilityTesting.app({ context: { '@aws-cdk/aws-iam:minimizePolicies': true } });
    const { acme, fn, data } = shop(app);
    new s3.Bucket(acme, 'Reports').grantRead(fn);

    // WHEN a callback grants reading Data: the same actions, which aws-cdk merges into the statement that reads Reports
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([refusal(`${POLICY}/Resource`)]);
  });

  test('replacing its document with one of the same statements and one more is CAP010: the statements were not added', () => {
    // GIVEN
    const { app, acme, fn, data } = shop();
    const cfnPolicy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;

    // WHEN the callback writes the L1's document as plain JSON
    new Contribution(acme, 'DataAccess', {
      target: data,
      write: (b) => {
        cfnPolicy.policyDocument = {
          Version: '2012-10-17',
          Statement: [bucketStatement(LOGS_WRITE, 'Logs6819BB44'), { Action: 's3:GetObject', Effect: 'Allow', Resource: b.arnForObjects('*') }],
        };
      },
    });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([refusal(`${POLICY}/Resource`)]);
  });
});
