/**
 * The pure check behind a grant in a write callback: whether the callbacks did nothing to a policy but add
 * statements, read off its properties before and after them; and the topology that makes its statements a set.
 */
import { ownedLeaves } from '../src/collect/ledger/leaves';
import { findStatement, statementsAdded, statementsOnlyAdded, withoutStatements } from '../src/collect/ledger/statement-grants';
import { policyTopologyOf, statementsPathOf } from '../src/collect/topology/cloudformation-topology';

const PATH = ['PolicyDocument', 'Statement'];
const READ = { Action: 's3:GetObject', Effect: 'Allow', Resource: '*' };
const WRITE = { Action: 's3:PutObject', Effect: 'Allow', Resource: '*' };
const LIST = { Action: 's3:ListBucket', Effect: 'Allow', Resource: '*' };
const policy = (...statements: unknown[]) => ({ PolicyDocument: { Statement: statements, Version: '2012-10-17' }, PolicyName: 'p', Roles: [{ Ref: 'R' }] });

describe('statementsAdded', () => {
  test('statements added after those there are accepted, each marked whether the policy held it', () => {
    expect(statementsAdded(policy(READ), policy(READ, WRITE), PATH, [WRITE])).toEqual([false]);
  });

  test('a statement the policy held already is accepted and marked as held', () => {
    expect(statementsAdded(policy(READ), policy(READ), PATH, [READ])).toEqual([true]);
  });

  test('a policy that had no statements and has some now, its document as it was otherwise, is accepted', () => {
    expect(statementsAdded({ PolicyDocument: { Version: '2012-10-17' }, PolicyName: 'p', Roles: [{ Ref: 'R' }] }, policy(WRITE), PATH, [WRITE])).toEqual([false]);
  });

  test('a statement there before and gone after is refused', () => {
    expect(statementsAdded(policy(READ, LIST), policy(READ, WRITE), PATH, [WRITE])).toBeUndefined();
  });

  test('another property changed beside the statements is refused', () => {
    expect(statementsAdded(policy(READ), { ...policy(READ, WRITE), PolicyName: 'renamed' }, PATH, [WRITE])).toBeUndefined();
  });

  test('a new statement that none of those added renders as is refused', () => {
    expect(statementsAdded(policy(READ), policy(READ, WRITE, LIST), PATH, [WRITE])).toBeUndefined();
  });

  test('an added statement the policy does not render is refused (aws-cdk merged it into another)', () => {
    const merged = { Action: ['s3:GetObject', 's3:PutObject'], Effect: 'Allow', Resource: '*' };
    expect(statementsAdded(policy(READ), policy(merged), PATH, [WRITE])).toBeUndefined();
  });

  test('statements that are not a list are refused', () => {
    expect(statementsAdded(policy(READ), { PolicyDocument: { Statement: { Ref: 'Doc' } } }, PATH, [WRITE])).toBeUndefined();
  });
});

describe('statementsOnlyAdded', () => {
  test('statements added beside another property changed are accepted: the other property is not compared', () => {
    expect(statementsOnlyAdded(policy(READ), { ...policy(READ, WRITE), PolicyName: 'renamed' }, PATH, [WRITE])).toEqual([false]);
  });

  test('an added statement is the declarer\'s too only when the properties it was given as held hold it', () => {
    // a statement another writer added between: in before, not in what the declarer held
    expect(statementsOnlyAdded(policy(READ, WRITE), policy(READ, WRITE, LIST), PATH, [WRITE, LIST], policy(READ))).toEqual([false, false]);
    expect(statementsOnlyAdded(policy(READ, WRITE), policy(READ, WRITE), PATH, [READ], policy(READ))).toEqual([true]);
  });

  test('a statement there before and gone after is refused', () => {
    expect(statementsOnlyAdded(policy(READ, LIST), { ...policy(READ, WRITE), PolicyName: 'renamed' }, PATH, [WRITE])).toBeUndefined();
  });
});

describe('withoutStatements', () => {
  test('leaves out the statements and keeps the rest of the document', () => {
    const doc = policy(READ) as { PolicyDocument: Record<string, unknown> };
    const withId = { ...doc, PolicyDocument: { ...doc.PolicyDocument, Id: 'doc' } };
    expect(withoutStatements(withId, PATH)).toEqual({ PolicyDocument: { Version: '2012-10-17', Id: 'doc' }, PolicyName: 'p', Roles: [{ Ref: 'R' }] });
  });

  test('leaves out a document left with nothing but its Version, which aws-cdk renders only with a statement', () => {
    expect(withoutStatements(policy(READ), PATH)).toEqual({ PolicyName: 'p', Roles: [{ Ref: 'R' }] });
    expect(withoutStatements(policy(READ), PATH)).toEqual(withoutStatements({ PolicyName: 'p', Roles: [{ Ref: 'R' }] }, PATH));
  });
});

describe('findStatement', () => {
  test('finds the statement with the same JSON', () => {
    expect(findStatement([READ, WRITE], { ...WRITE })).toBe(WRITE);
  });

  test('finds a statement without a Sid where its document numbered it', () => {
    const numbered = { ...WRITE, Sid: '1' };
    expect(findStatement([{ ...READ, Sid: '0' }, numbered], WRITE)).toBe(numbered);
  });

  test('a statement with a Sid of its own must match it', () => {
    expect(findStatement([{ ...WRITE, Sid: '1' }], { ...WRITE, Sid: 'Mine' })).toBeUndefined();
  });

  test('keys in another order are another statement, as aws-cdk compares them', () => {
    expect(findStatement([{ Effect: 'Allow', Action: 's3:PutObject', Resource: '*' }], WRITE)).toBeUndefined();
  });
});

describe('policyTopologyOf', () => {
  test('makes a policy\'s statements a set of whole statements, the rest deduced', () => {
    expect(ownedLeaves(policy(READ, WRITE), policyTopologyOf('AWS::IAM::Policy')!)).toEqual([
      { path: [...PATH, `v:${JSON.stringify(READ)}`], presence: true },
      { path: [...PATH, `v:${JSON.stringify(WRITE)}`], presence: true },
      { path: ['PolicyDocument', 'Version'] },
      { path: ['PolicyName'] },
      { path: ['Roles'] },
    ]);
  });

  test('knows the five types that hold one policy document, and no other', () => {
    const types = ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy', 'AWS::S3::BucketPolicy', 'AWS::SQS::QueuePolicy', 'AWS::SNS::TopicPolicy', 'AWS::IAM::Role', 'AWS::S3::Bucket'];
    expect(types.map((t) => statementsPathOf(t))).toEqual([PATH, PATH, PATH, PATH, PATH, undefined, undefined]);
    expect(policyTopologyOf('AWS::IAM::Role')).toBeUndefined();
  });
});
