/**
 * The shop both grant suites build (callback-grants, policy-target-callbacks): a function in the aggregate
 * `acme` whose role has its DefaultPolicy already (a grant to write `Logs`), a bucket `Data`, and the helpers
 * that read the role's statements back from the template and the ledger.
 */
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Capability, CapabilityApp, CapabilityTesting, DeploymentAggregate } from '../src';
import { formatPath, setValueKey } from '../src/collect/ledger/field-path';
import { writerName } from '../src/collect/ledger/writer';

/** The DefaultPolicy's construct path. */
export const POLICY = 'shop/acme/Fn/ServiceRole/DefaultPolicy';
/** The DefaultPolicy's label in the ledger. */
export const POLICY_LABEL = `AWS::IAM::Policy ${POLICY}/Resource`;
/** The actions of aws-cdk's `grantWrite` of a bucket. */
export const LOGS_WRITE = ['s3:DeleteObject*', 's3:PutObject', 's3:PutObjectLegalHold', 's3:PutObjectRetention', 's3:PutObjectTagging', 's3:PutObjectVersionTagging', 's3:Abort*'];
/** The actions of aws-cdk's `grantRead` of a bucket. */
export const READ = ['s3:GetObject*', 's3:GetBucket*', 's3:List*'];

/**
 * A function whose role has its DefaultPolicy (a grant to write `Logs`, or `logs` when given), and a bucket
 * `Data`, in the aggregate `acme` of the capability `shop`.
 */
export function shop(app: CapabilityApp = CapabilityTesting.app(), capability = new Capability(app, 'shop'), logs?: s3.IBucket) {
  const acme = new DeploymentAggregate(capability, 'acme');
  const fn = new lambda.Function(acme, 'Fn', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler=async()=>1'),
  });
  (logs ?? new s3.Bucket(acme, 'Logs')).grantWrite(fn);
  const policy = fn.role!.node.findChild('DefaultPolicy') as iam.Policy;
  return { app, capability, acme, fn, policy, cfnPolicy: policy.node.defaultChild as iam.CfnPolicy, data: new s3.Bucket(acme, 'Data') };
}

/** A bucket's statement as aws-cdk renders it in the same stack: `actions` on the bucket and its objects. */
export function bucketStatement(actions: string[], logicalId: string) {
  const arn = { 'Fn::GetAtt': [logicalId, 'Arn'] };
  return { Action: actions, Effect: 'Allow', Resource: [arn, { 'Fn::Join': ['', [arn, '/*']] }] };
}

/** The statements of the role's DefaultPolicy in the template of `shop/acme`. */
export function defaultPolicyStatements(template: any): unknown[] {
  const policies = Template.fromJSON(template).findResources('AWS::IAM::Policy');
  const [id] = Object.keys(policies).filter((k) => k.startsWith('FnServiceRoleDefaultPolicy'));
  return policies[id].Properties.PolicyDocument.Statement;
}

/** The ledger's writes of one resource (the DefaultPolicy unless named), as [writer, field] in the order recorded. */
export function writesOf(app: CapabilityApp, label: string = POLICY_LABEL): Array<[string, string]> {
  const object = app.synthesize().facts!.ledger.objects.find((o) => o.label === label);
  return (object?.writes ?? []).map((w) => [writerName(w.writer), formatPath(w.path)]);
}

/** How the ledger prints one statement of a policy: a value of the set `PolicyDocument.Statement`. */
export const statementField = (statement: unknown) => formatPath(['PolicyDocument', 'Statement', setValueKey(statement)]);
