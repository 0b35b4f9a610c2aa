/**
 * A write callback whose target is a policy and that adds statements to it: each statement it adds is its
 * Contribution's write, one value of the policy's set of statements, beside the declarer's; and a grant into that
 * policy by another callback, whose target is something else, is that callback's, not the declarer's.
 */
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Capability, CapabilityTesting, Contribution, DeploymentAggregate, SharedBase } from '../src';
import { bucketStatement, defaultPolicyStatements, LOGS_WRITE, POLICY, POLICY_LABEL as LABEL, READ, shop, statementField, writesOf } from './grant-fixtures';
import { contributes, declares } from './write-fixtures';

const QUEUES = { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: '*' };
const TOPICS = { Action: 'sns:Publish', Effect: 'Allow', Resource: '*' };

/** A statement allowing `action` on every resource. */
function allow(action: string): iam.PolicyStatement {
  return new iam.PolicyStatement({ actions: [action], resources: ['*'] });
}

/** The declarer's writes of the DefaultPolicy besides its statements. */
const DECLARER_REST: Array<[string, string]> = [[POLICY, 'PolicyDocument.Version'], [POLICY, 'PolicyName'], [POLICY, 'Roles']];

describe('a write callback that adds statements to the policy it targets', () => {
  test('is accepted, and the template has the declarer\'s statement and the callback\'s', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();

    // WHEN another team adds its own statement to the L1 policy it targets
    new Contribution(acme, 'ExtraPerms', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(defaultPolicyStatements(result.templates['shop/acme'])).toEqual([bucketStatement(LOGS_WRITE, 'Logs6819BB44'), QUEUES]);
  });

  test('the ledger credits the added statement to the Contribution and the one there to the declarer', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();

    // WHEN
    new Contribution(acme, 'ExtraPerms', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });

    // THEN
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      ...DECLARER_REST,
      ['shop/acme/ExtraPerms', statementField(QUEUES)],
    ]);
  });

  test('a statement the role adds to its DefaultPolicy (addToPrincipalPolicy) in a callback targeting that policy is the Contribution\'s', () => {
    // GIVEN
    const { app, acme, fn, cfnPolicy } = shop();

    // WHEN
    new Contribution(acme, 'ExtraPerms', { target: cfnPolicy, write: () => { fn.role!.addToPrincipalPolicy(allow('sns:Publish')); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
    expect(writesOf(app).filter(([writer]) => writer !== POLICY)).toEqual([['shop/acme/ExtraPerms', statementField(TOPICS)]]);
  });

  test('a callback given the L2 policy as its target adds to it through the target', () => {
    // GIVEN
    const { app, acme, policy } = shop();

    // WHEN
    new Contribution(acme, 'ExtraPerms', { target: policy, write: (p) => { p.addStatements(allow('sqs:SendMessage')); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
    expect(writesOf(app).filter(([writer]) => writer !== POLICY)).toEqual([['shop/acme/ExtraPerms', statementField(QUEUES)]]);
  });

  test('two callbacks adding different statements are both credited, each with its own', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();

    // WHEN
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });
    new Contribution(acme, 'Topics', { target: cfnPolicy, write: () => { policy.addStatements(allow('sns:Publish')); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(defaultPolicyStatements(result.templates['shop/acme'])).toEqual([bucketStatement(LOGS_WRITE, 'Logs6819BB44'), QUEUES, TOPICS]);
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      ...DECLARER_REST,
      ['shop/acme/Queues', statementField(QUEUES)],
      ['shop/acme/Topics', statementField(TOPICS)],
    ]);
  });

  test('statements that reference another stack\'s buckets are credited as the template has them (imports)', () => {
    // GIVEN the declarer's DefaultPolicy grants writing a bucket of the shared base
    const app = CapabilityTesting.app();
    const capability = new Capability(app, 'shop');
    const base = new SharedBase(capability, 'Base');
    const logs = new s3.Bucket(base, 'Logs');
    const shared = new s3.Bucket(base, 'Shared');
    const { acme, policy, cfnPolicy } = shop(app, capability, logs);

    // WHEN a callback adds a statement reading another bucket of the shared base
    new Contribution(acme, 'SharedRead', {
      target: cfnPolicy,
      write: () => { policy.addStatements(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [shared.arnForObjects('*')] })); },
    });

    // THEN both statements read the base's buckets through imports, and each is credited in that form
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const [declared, added] = defaultPolicyStatements(result.templates['shop/acme']);
    expect(JSON.stringify(declared)).toContain('"Fn::ImportValue":"shop-Base:ExportsOutputFnGetAttLogs');
    expect(JSON.stringify(added)).toContain('"Fn::ImportValue":"shop-Base:ExportsOutputFnGetAttShared');
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(declared)],
      ...DECLARER_REST,
      ['shop/acme/SharedRead', statementField(added)],
    ]);
  });

  test('a statement added to the topic policy it targets, whose statements aws-cdk numbers, is credited with its number', () => {
    // GIVEN a topic whose policy exists (a first statement, Sid "0")
    const app = CapabilityTesting.app();
    const acme = new DeploymentAggregate(new Capability(app, 'shop'), 'acme');
    const topic = new sns.Topic(acme, 'Events');
    topic.addToResourcePolicy(new iam.PolicyStatement({ actions: ['sns:Publish'], principals: [new iam.ServicePrincipal('s3.amazonaws.com')], resources: ['*'] }));
    const topicPolicy = topic.node.findChild('Policy') as sns.TopicPolicy;

    // WHEN a callback on the topic's policy adds a second statement
    new Contribution(acme, 'Subscribe', {
      target: topicPolicy,
      write: () => { topic.addToResourcePolicy(new iam.PolicyStatement({ actions: ['sns:Subscribe'], principals: [new iam.AccountRootPrincipal()], resources: ['*'] })); },
    });

    // THEN it is the Contribution's as the template numbers it, the first the declarer's
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const [, policy] = Object.entries(Template.fromJSON(result.templates['shop/acme']).findResources('AWS::SNS::TopicPolicy'))[0];
    const [first, added] = policy.Properties.PolicyDocument.Statement;
    expect([first.Sid, added.Sid]).toEqual(['0', '1']);
    expect(writesOf(app, 'AWS::SNS::TopicPolicy shop/acme/Events/Policy/Resource').filter(([, field]) => field.startsWith('PolicyDocument.Statement'))).toEqual([
      ['shop/acme/Events/Policy', statementField(first)],
      ['shop/acme/Subscribe', statementField(added)],
    ]);
  });

  test('a second synth of the same app credits the statement again', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();
    new Contribution(acme, 'ExtraPerms', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });
    const first = writesOf(app);

    // WHEN
    const second = writesOf(app);

    // THEN
    expect(second).toEqual(first);
    expect(second).toContainEqual(['shop/acme/ExtraPerms', statementField(QUEUES)]);
  });

  test('a callback that also renames its target writes the name too, beside its statement', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();

    // WHEN
    new Contribution(acme, 'ExtraPerms', {
      target: cfnPolicy,
      write: (p) => { policy.addStatements(allow('sqs:SendMessage')); p.policyName = 'extra'; },
    });

    // THEN the name is a field both write
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP002 field conflict: 'shop/acme/ExtraPerms' and '${POLICY}' both write PolicyName of ${LABEL}. ` +
        `Give each field one owner: drop it from one of them (${contributes('write callback', 'shop/acme/ExtraPerms')}; ${declares(POLICY)}).`,
    ]);
  });

  test('a callback that replaces the document, dropping the declarer\'s statement, is CAP002 over the statements', () => {
    // GIVEN
    const { app, acme, cfnPolicy } = shop();

    // WHEN the callback writes the L1's document as plain JSON, with another statement instead of the declarer's
    new Contribution(acme, 'ExtraPerms', {
      target: cfnPolicy,
      write: (p) => { p.policyDocument = { Version: '2012-10-17', Statement: [QUEUES] }; },
    });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP002 field conflict: 'shop/acme/ExtraPerms' and '${POLICY}' both write PolicyDocument.Statement of ${LABEL}. ` +
        `Give each field one owner: drop it from one of them (${contributes('write callback', 'shop/acme/ExtraPerms')}; ${declares(POLICY)}).`,
    ]);
  });

  test('a callback that adds a statement and also replaces the declarer\'s is CAP002 with the declarer and every statement\'s writer', () => {
    // GIVEN
    const { app, acme, policy, cfnPolicy } = shop();

    // WHEN one callback adds a statement, and another writes the document with the declarer's statement changed
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });
    new Contribution(acme, 'Narrow', {
      target: cfnPolicy,
      write: (p) => { p.policyDocument = { Version: '2012-10-17', Statement: [{ ...bucketStatement(['s3:PutObject'], 'Logs6819BB44') }, QUEUES] }; },
    });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP002 field conflict: '${POLICY}', 'shop/acme/Narrow' and 'shop/acme/Queues' all write PolicyDocument.Statement of ${LABEL}. ` +
        `Give each field one owner: drop it from all of them but one (${declares(POLICY)}; ${contributes('write callback', 'shop/acme/Narrow', 'shop/acme/Queues')}).`,
    ]);
  });
});

describe('a grant into a policy that a write callback targets, made by another callback', () => {
  test('made after the callback on the policy, is credited to its own Contribution, not the declarer', () => {
    // GIVEN a callback that adds to the policy
    const { app, acme, fn, policy, cfnPolicy, data } = shop();
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });

    // WHEN another team grants reading Data in a callback whose target is the bucket
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(defaultPolicyStatements(result.templates['shop/acme'])).toEqual([bucketStatement(LOGS_WRITE, 'Logs6819BB44'), QUEUES, bucketStatement(READ, 'Data666C94C7')]);
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      ...DECLARER_REST,
      ['shop/acme/Queues', statementField(QUEUES)],
      ['shop/acme/DataAccess', statementField(bucketStatement(READ, 'Data666C94C7'))],
    ]);
  });

  test('made before the callback on the policy, is credited to its own Contribution, not the declarer', () => {
    // GIVEN a grant in a callback whose target is the bucket
    const { app, acme, fn, policy, cfnPolicy, data } = shop();
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // WHEN a later callback adds to the policy
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      ...DECLARER_REST,
      ['shop/acme/DataAccess', statementField(bucketStatement(READ, 'Data666C94C7'))],
      ['shop/acme/Queues', statementField(QUEUES)],
    ]);
  });

  test('made between two callbacks on the policy, is credited to its own Contribution', () => {
    // GIVEN
    const { app, acme, fn, policy, cfnPolicy, data } = shop();

    // WHEN
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });
    new Contribution(acme, 'Topics', { target: cfnPolicy, write: () => { policy.addStatements(allow('sns:Publish')); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
    expect(writesOf(app)).toEqual([
      [POLICY, statementField(bucketStatement(LOGS_WRITE, 'Logs6819BB44'))],
      ...DECLARER_REST,
      ['shop/acme/Queues', statementField(QUEUES)],
      ['shop/acme/DataAccess', statementField(bucketStatement(READ, 'Data666C94C7'))],
      ['shop/acme/Topics', statementField(TOPICS)],
    ]);
  });

  test('that also renames the policy is CAP010, on every synth: what it wrote there cannot be told from the declarer\'s', () => {
    // GIVEN
    const { app, acme, fn, policy, cfnPolicy, data } = shop();
    new Contribution(acme, 'Queues', { target: cfnPolicy, write: () => { policy.addStatements(allow('sqs:SendMessage')); } });

    // WHEN another callback grants and renames the policy
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); cfnPolicy.policyName = 'renamed'; } });

    // THEN
    const refusals = () => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
    expect(refusals()).toEqual(refusals());
    expect(refusals()).toEqual([
      `CAP010 invalid object: Contribution 'shop/acme/DataAccess': its write callback changed the resource '${POLICY}/Resource', which is not its target, ` +
        "so what it wrote there would be taken for its declarer's and could replace a value the declarer set without a conflict. " +
        "A callback may add statements to a policy that exists (a grant): each is its own write; it may not change or remove the statements already there, or the policy's other properties. " +
        'Make only the grant in the callback, or write the policy where it is declared.',
    ]);
  });
});
