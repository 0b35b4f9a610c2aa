/**
 * A policy declared empty, which a write callback fills, cannot be rendered before the callbacks run (an IAM
 * policy with no statement: aws-cdk refuses CfnPolicy props without a policyDocument), so between-runs watches
 * it only from its first run. A change another callback makes to it before that run is then in the render that
 * opens the run, and is taken for the declarer's: a known misattribution, not fixed yet (`test.failing` until it
 * is; see the report of branch fix/forced).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { fixture } from './write-fixtures';
import { CapabilityTesting, Contribution } from '../src';
import { formatPath } from '../src/collect/ledger/field-path';
import { writerName } from '../src/collect/ledger/writer';

const POLICY = 'AWS::IAM::Policy cdn/Base/Storage/Empty/Resource';

/** GIVEN: the empty policy `Empty`, a role, a bucket X; B (target X, runs first) attaches the policy to the role and adds a statement; A fills the policy. */
function emptyPolicyChangedBeforeItsCallback() {
  const { app, security, storage } = fixture();
  const role = new iam.Role(storage, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const policy = new iam.Policy(storage, 'Empty');
  const x = new s3.Bucket(storage, 'X');
  new Contribution(security, 'B', {
    target: x,
    write: () => {
      policy.attachToRole(role);
      policy.addStatements(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['*'] }));
    },
  });
  new Contribution(security, 'A', { target: policy, write: (p) => p.addStatements(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['*'] })) });
  return app;
}

describe('a policy declared empty, changed by another callback before its own callback runs', () => {
  // today the ledger has the declarer write Roles and B's statement, and the synth is a false CAP002 naming
  // 'cdn/Base/Security/A' and 'cdn/Base/Storage/Empty' over PolicyDocument.Statement
  test.failing('what that callback wrote there is its write: the role it attached the policy to is B\'s, not the declarer\'s', () => {
    const app = emptyPolicyChangedBeforeItsCallback();
    const policy = app.synthesize().facts!.ledger.objects.find((o) => o.label === POLICY)!;
    const writes = policy.writes.map((w) => [writerName(w.writer), formatPath(w.path)]);
    expect(writes).toContainEqual(['cdn/Base/Security/B', 'Roles']);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});
