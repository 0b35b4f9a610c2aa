import * as fs from 'fs';
import { CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as eks from 'aws-cdk-lib/aws-eks';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Capability, CapabilityApp, DeploymentAggregate } from '../src';
import { coded, lockedSeries, nextRelease, ReleaseSeries, removeReleaseDirs } from './release-fixtures';
import { findNamedReplacements } from '../src/check/rules/named-replacements';
import { loadLock } from '../src/release/lock';
import { REPLACEMENT_PROPERTIES } from '../src/release/replacement-properties.generated';

afterAll(removeReleaseDirs);

/** One release of tenant shop/acme: a DynamoDB table, an SQS queue or an S3 bucket, as a user writes them. */
interface Variant {
  readonly table?: { readonly tableName?: string; readonly partitionKey: string; readonly sortKey?: string; readonly billing?: dynamodb.BillingMode };
  readonly queue?: { readonly queueName?: string; readonly fifo?: boolean };
  readonly bucket?: { readonly bucketName?: string; readonly objectLockEnabled?: boolean };
  readonly role?: { readonly roleName: string; readonly path?: string };
  /** An EKS cluster (the L1) named "shop" in these subnets, version `version`. */
  readonly cluster?: { readonly subnetIds: string[]; readonly version: string };
}

/** What the builder made last, to read aws-cdk's own logical ids. */
const built: { table?: dynamodb.Table; queue?: sqs.Queue; bucket?: s3.Bucket; role?: iam.Role } = {};

function shop(app: CapabilityApp, v: Variant): void {
  const acme = new DeploymentAggregate(new Capability(app, 'shop'), 'acme');
  if (v.table) {
    built.table = new dynamodb.Table(acme, 'Orders', {
      ...(v.table.tableName ? { tableName: v.table.tableName } : {}),
      partitionKey: { name: v.table.partitionKey, type: dynamodb.AttributeType.STRING },
      ...(v.table.sortKey ? { sortKey: { name: v.table.sortKey, type: dynamodb.AttributeType.STRING } } : {}),
      ...(v.table.billing ? { billingMode: v.table.billing } : {}),
    });
  }
  if (v.queue) {
    built.queue = new sqs.Queue(acme, 'Jobs', {
      ...(v.queue.queueName ? { queueName: v.queue.queueName } : {}),
      ...(v.queue.fifo !== undefined ? { fifo: v.queue.fifo } : {}),
    });
  }
  if (v.bucket) {
    built.bucket = new s3.Bucket(acme, 'Archive', {
      ...(v.bucket.bucketName ? { bucketName: v.bucket.bucketName } : {}),
      ...(v.bucket.objectLockEnabled ? { objectLockEnabled: true } : {}),
    });
  }
  if (v.role) {
    built.role = new iam.Role(acme, 'Deployer', {
      roleName: v.role.roleName,
      assumedBy: new iam.ServicePrincipal('codebuild.amazonaws.com'),
      ...(v.role.path ? { path: v.role.path } : {}),
    });
  }
  if (v.cluster) {
    new eks.CfnCluster(acme, 'Cluster', {
      name: 'shop',
      roleArn: 'arn:aws:iam::111111111111:role/eks-cluster',
      version: v.cluster.version,
      resourcesVpcConfig: { subnetIds: v.cluster.subnetIds },
    });
  }
}

function logicalIdOf(construct: dynamodb.Table | sqs.Queue | s3.Bucket | iam.Role): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** The template of shop/acme in a release, for aws-cdk's assertions. */
function acmeTemplate(result: ReturnType<typeof nextRelease>): Template {
  return Template.fromJSON(result.facts!.stacks.find((s) => s.path === 'shop/acme')!.template);
}

/** Edits the locked leaves of stack shop/acme, as a lock written with them masked holds them. */
function editLockedLeaves(series: ReleaseSeries, edit: (values: Record<string, unknown>) => void): void {
  const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
  edit(lock.units.find((u: any) => u.id === 'stack:shop/acme').values);
  delete lock.contentDigest; // an edited lock, read as one an earlier version wrote
  fs.writeFileSync(series.lockFile, JSON.stringify(lock, null, 2));
}

const REFUSAL = (taken: string, stack = 'shop/acme') =>
  `so CloudFormation refuses the update ("CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${taken} and update the stack again") and the update of stack ${stack} rolls back. `;

describe('CAP008: a custom-named resource whose change requires replacement', () => {
  test('a DynamoDB table that keeps its tableName while its partitionKey changes is refused, naming the table, both key schemas and the fixes', () => {
    // GIVEN the real lock of a release with table Orders named "orders", partition key "id"
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });

    // WHEN the next release changes the partition key to "orderId", keeping the name
    const result = nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'orderId' } });

    // THEN the template keeps the logical id and the name, with the new key schema
    const id = logicalIdOf(built.table!);
    expect(id).toBe('OrdersA9B65338');
    acmeTemplate(result).hasResource('AWS::DynamoDB::Table', {
      Properties: { TableName: 'orders', KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }] },
      DeletionPolicy: 'Retain',
    });
    // AND one CAP008 names the resource, the name, the change with both values, and the fixes
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: 'custom-named resource replaced: this release changes KeySchema (from [{"AttributeName":"id","KeyType":"HASH"}] to [{"AttributeName":"orderId","KeyType":"HASH"}]) '
          + `of AWS::DynamoDB::Table 'shop/acme/Orders' (logical id ${id} in stack shop/acme), whose TableName "orders" stays: `
          + 'a change of KeySchema makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds orders, '
          + REFUSAL('orders')
          + 'Drop the explicit TableName and let CloudFormation generate one, or give it a new TableName in this release, '
          + `or replace it in two releases (remove ${id} in one release and delete the resource its DeletionPolicy Retain leaves behind, then add it back in the next) `
          + '(docs/releases.md#replacing-a-resource-that-has-a-physical-name).',
        paths: ['shop/acme/Orders'],
      },
    ]);
  });

  test('an S3 bucket that keeps its bucketName while Object Lock is turned on is refused, from unset to true', () => {
    // GIVEN the real lock of a release with bucket Archive named "shop-archive-1234"
    const series = lockedSeries(shop, { bucket: { bucketName: 'shop-archive-1234' } });

    // WHEN the next release enables Object Lock, keeping the name
    const result = nextRelease(series, shop, { bucket: { bucketName: 'shop-archive-1234', objectLockEnabled: true } });

    // THEN the template sets ObjectLockEnabled under the same name
    const id = logicalIdOf(built.bucket!);
    acmeTemplate(result).hasResourceProperties('AWS::S3::Bucket', { BucketName: 'shop-archive-1234', ObjectLockEnabled: true });
    // AND one CAP008 says the property went from unset to true
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: `custom-named resource replaced: this release changes ObjectLockEnabled (from unset to true) of AWS::S3::Bucket 'shop/acme/Archive' (logical id ${id} in stack shop/acme), `
          + 'whose BucketName "shop-archive-1234" stays: '
          + 'a change of ObjectLockEnabled makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds shop-archive-1234, '
          + REFUSAL('shop-archive-1234')
          + 'Drop the explicit BucketName and let CloudFormation generate one, or give it a new BucketName in this release, '
          + `or replace it in two releases (remove ${id} in one release and delete the resource its DeletionPolicy Retain leaves behind, then add it back in the next) `
          + '(docs/releases.md#replacing-a-resource-that-has-a-physical-name).',
        paths: ['shop/acme/Archive'],
      },
    ]);
  });

  test('an IAM role that keeps its roleName while its path changes is refused; without a retaining policy, the two releases need no cleanup', () => {
    // GIVEN the real lock of a release with role Deployer named "shop-deployer" at the default path
    const series = lockedSeries(shop, { role: { roleName: 'shop-deployer' } });

    // WHEN the next release gives it the path /shop/
    const result = nextRelease(series, shop, { role: { roleName: 'shop-deployer', path: '/shop/' } });

    // THEN the template has the path, under the same name and logical id, with no deletion policy
    const id = logicalIdOf(built.role!);
    acmeTemplate(result).hasResource('AWS::IAM::Role', { Properties: { RoleName: 'shop-deployer', Path: '/shop/' }, DeletionPolicy: Match.absent() });
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: `custom-named resource replaced: this release changes Path (from unset to "/shop/") of AWS::IAM::Role 'shop/acme/Deployer' (logical id ${id} in stack shop/acme), `
          + 'whose RoleName "shop-deployer" stays: '
          + 'a change of Path makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds shop-deployer, '
          + REFUSAL('shop-deployer')
          + 'Drop the explicit RoleName and let CloudFormation generate one, or give it a new RoleName in this release, '
          + `or replace it in two releases (remove ${id} in one release, add it back in the next) `
          + '(docs/releases.md#replacing-a-resource-that-has-a-physical-name).',
        paths: ['shop/acme/Deployer'],
      },
    ]);
  });

  test('a nested property that replaces on its own (an EKS cluster\'s ResourcesVpcConfig.SubnetIds) is refused by its path; the version beside it, updated in place, is not listed', () => {
    const series = lockedSeries(shop, { cluster: { subnetIds: ['subnet-a', 'subnet-b'], version: '1.30' } });

    const result = nextRelease(series, shop, { cluster: { subnetIds: ['subnet-a', 'subnet-c'], version: '1.31' } });

    acmeTemplate(result).hasResourceProperties('AWS::EKS::Cluster', { Name: 'shop', Version: '1.31', ResourcesVpcConfig: { SubnetIds: ['subnet-a', 'subnet-c'] } });
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: 'custom-named resource replaced: this release changes ResourcesVpcConfig.SubnetIds (from ["subnet-a","subnet-b"] to ["subnet-a","subnet-c"]) '
          + 'of AWS::EKS::Cluster \'shop/acme/Cluster\' (logical id Cluster in stack shop/acme), whose Name "shop" stays: '
          + 'a change of ResourcesVpcConfig.SubnetIds makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds shop, '
          + REFUSAL('shop')
          + 'Drop the explicit Name and let CloudFormation generate one, or give it a new Name in this release, '
          + 'or replace it in two releases (remove Cluster in one release, add it back in the next) '
          + '(docs/releases.md#replacing-a-resource-that-has-a-physical-name).',
        paths: ['shop/acme/Cluster'],
      },
    ]);
  });

  test('a lock that masked part of the key schema still shows a change of its shape, as changed, without values', () => {
    // GIVEN a lock whose partition key attribute name is masked
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });
    editLockedLeaves(series, (values) => {
      values['Resources.OrdersA9B65338.Properties.KeySchema[0].AttributeName'] = '(sensitive)';
    });

    // WHEN the next release adds a sort key (a second element of KeySchema)
    const result = nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'id', sortKey: 'at' } });

    // THEN the change is refused, its values not shown
    acmeTemplate(result).hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }, { AttributeName: 'at', KeyType: 'RANGE' }] });
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: 'custom-named resource replaced: this release changes KeySchema (changed) '
          + 'of AWS::DynamoDB::Table \'shop/acme/Orders\' (logical id OrdersA9B65338 in stack shop/acme), whose TableName "orders" stays: '
          + 'a change of KeySchema makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds orders, '
          + REFUSAL('orders')
          + 'Drop the explicit TableName and let CloudFormation generate one, or give it a new TableName in this release, '
          + 'or replace it in two releases (remove OrdersA9B65338 in one release and delete the resource its DeletionPolicy Retain leaves behind, then add it back in the next) '
          + '(docs/releases.md#replacing-a-resource-that-has-a-physical-name).',
        paths: ['shop/acme/Orders'],
      },
    ]);
  });

  test('a new value shaped like a secret, which the lock would mask, is not shown either', () => {
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });

    // WHEN the new partition key is shaped like an AWS access key id
    const result = nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'AKIAIOSFODNN7EXAMPLE' } });

    // THEN the refusal says only that KeySchema changed
    expect(coded(result.violations).map((v) => v.message.slice(0, v.message.indexOf(' of AWS::')))).toEqual(['custom-named resource replaced: this release changes KeySchema (changed)']);
    expect(result.violations[0].message).not.toContain('AKIA');
  });
});

describe('accepted: no replacement of a custom-named resource', () => {
  test('a change of a property updated in place (billing mode) with the name kept', () => {
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });

    const result = nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'id', billing: dynamodb.BillingMode.PAY_PER_REQUEST } });

    acmeTemplate(result).hasResourceProperties('AWS::DynamoDB::Table', { TableName: 'orders', BillingMode: 'PAY_PER_REQUEST' });
    expect(coded(result.violations)).toEqual([]);
  });

  test('an SQS queue made FIFO, which aws-cdk only allows with a name ending in .fifo: a new name, a new queue', () => {
    // GIVEN the real lock of a release with a standard queue named "jobs"
    const series = lockedSeries(shop, { queue: { queueName: 'jobs' } });

    // WHEN the next release makes it FIFO (aws-cdk refuses fifo with a name that keeps "jobs": the name changes too)
    expect(() => nextRelease(series, shop, { queue: { queueName: 'jobs', fifo: true } })).toThrow(/FIFO queue names must end in '.fifo'/);
    const result = nextRelease(series, shop, { queue: { queueName: 'jobs.fifo', fifo: true } });

    // THEN FifoQueue changes together with QueueName, and nothing is refused
    acmeTemplate(result).hasResourceProperties('AWS::SQS::Queue', { QueueName: 'jobs.fifo', FifoQueue: true });
    expect(coded(result.violations)).toEqual([]);
  });

  test('a DynamoDB table whose partitionKey changes along with its tableName', () => {
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });

    const result = nextRelease(series, shop, { table: { tableName: 'orders-v2', partitionKey: 'orderId' } });

    acmeTemplate(result).hasResourceProperties('AWS::DynamoDB::Table', { TableName: 'orders-v2', KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }] });
    expect(coded(result.violations)).toEqual([]);
  });

  test('a DynamoDB table without an explicit name whose partitionKey changes (CloudFormation names the replacement)', () => {
    const series = lockedSeries(shop, { table: { partitionKey: 'id' } });

    const result = nextRelease(series, shop, { table: { partitionKey: 'orderId' } });

    expect(acmeTemplate(result).findResources('AWS::DynamoDB::Table', { Properties: { TableName: {} } })).toEqual({});
    expect(coded(result.violations)).toEqual([]);
  });

  test('a property whose change requires replacement only sometimes (maybe) is not judged', () => {
    // GIVEN the key-schema change that is refused with the generated table (KeySchema: yes)
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });
    const lock = loadLock(series.lockFile).lock!;
    const result = nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'orderId' } });
    expect(findNamedReplacements(lock, result.facts!).length).toBe(1);

    // WHEN the table says KeySchema replaces the table only sometimes
    const maybe = { ...REPLACEMENT_PROPERTIES, 'AWS::DynamoDB::Table': { yes: ['ImportSourceSpecification'], maybe: ['KeySchema'] } };

    // THEN nothing is found
    expect(findNamedReplacements(lock, result.facts!, maybe)).toEqual([]);
  });

  test('a lock that masked the changed property whole, or the name, is not judged', () => {
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });
    editLockedLeaves(series, (values) => {
      values['Resources.OrdersA9B65338.Properties.KeySchema[0].AttributeName'] = '(sensitive)';
    });
    expect(coded(nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'orderId' } }).violations)).toEqual([]);

    const named = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });
    editLockedLeaves(named, (values) => {
      values['Resources.OrdersA9B65338.Properties.TableName'] = '(sensitive)';
    });
    expect(coded(nextRelease(named, shop, { table: { tableName: 'orders', partitionKey: 'orderId' } }).violations)).toEqual([]);
  });

  test('a lock written before values were recorded is not judged', () => {
    const series = lockedSeries(shop, { table: { tableName: 'orders', partitionKey: 'id' } });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    for (const unit of lock.units) delete unit.values;
    delete lock.contentDigest;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock, null, 2));

    expect(coded(nextRelease(series, shop, { table: { tableName: 'orders', partitionKey: 'orderId' } }).violations)).toEqual([]);
  });
});

