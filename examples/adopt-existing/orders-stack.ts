// The team's aws-cdk stack as it was (`class OrdersStack extends Stack`), now `extends SharedBase` with the same
// constructor: every resource, property and logical id stays as `cdk deploy` made them.
import { aws_dynamodb as dynamodb, aws_lambda as lambda, aws_s3 as s3, aws_sqs as sqs, aws_ssm as ssm, Duration } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { SharedBase, SharedBaseProps } from '../../src';

/** The orders service's AWS side: a queue, a table, the Lambda that writes it, a reports bucket, its endpoint. */
export class OrdersStack extends SharedBase {
  /** The orders queue. */
  public readonly queue: sqs.Queue;
  /** The orders table. */
  public readonly table: dynamodb.Table;
  /** The handler that reads and writes the table. */
  public readonly handler: lambda.Function;
  /** The reports bucket. */
  public readonly reports: s3.Bucket;

  constructor(scope: Construct, id: string, props?: SharedBaseProps) {
    super(scope, id, props);
    this.queue = new sqs.Queue(this, 'Orders', { visibilityTimeout: Duration.seconds(60) });
    this.table = new dynamodb.Table(this, 'OrdersTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    });
    this.handler = new lambda.Function(this, 'Handler', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ ok: true });'),
      environment: { TABLE: this.table.tableName, QUEUE: this.queue.queueUrl },
    });
    this.table.grantReadWriteData(this.handler);
    this.reports = new s3.Bucket(this, 'Reports', { versioned: true });
    new ssm.StringParameter(this, 'Endpoint', { parameterName: '/orders/endpoint', stringValue: 'https://orders.example.com' });
  }
}
