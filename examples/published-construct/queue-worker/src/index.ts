// The package @acme/queue-worker-capability, as its team publishes it to npm (README.md in the folder above).
// In the package this file imports 'cdk-capability'; here, in the repository, it imports the source.
import { aws_dynamodb as dynamodb, aws_sqs as sqs, aws_ssm as ssm } from 'aws-cdk-lib';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import {
  Capability, CapabilityProps, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, RuntimeWriter, SharedBase,
} from '../../../../src';

/** Properties of a `QueueWorkerCapability`. */
export interface QueueWorkerCapabilityProps extends CapabilityProps {
  /** The tenants: each gets a stack of its own and a worker. */
  readonly tenants: string[];
  /** The worker image. */
  readonly image: string;
  /**
   * The most replicas the autoscaler gives each worker.
   *
   * @default 10
   */
  readonly maxReplicas?: number;
  /**
   * The namespace of the workers; give each instance in one app its own.
   *
   * @default 'workers'
   */
  readonly namespace?: string;
}

/**
 * A job queue and a results table shared by every tenant, a worker per tenant
 * reading the queue URL through the contract, and an autoscaler per worker.
 *
 * Release 2.0.0 of the package: major 2 of the contract (without `tableName`)
 * is published beside major 1, which the workers of release 1.1.0 read, and
 * the workers move to it. Release 3.0.0 retires major 1 (docs/package-releases.md).
 */
export class QueueWorkerCapability extends Capability {
  /** Major 1 of the contract, kept for the readers of package release 1.x until 3.0.0. */
  public readonly contractV1: InterfaceContract<{ queueUrl: Field<string>; tableName: Field<string>; deadLetterQueueUrl: Field<string> }>;
  /** The contract the workers read. */
  public readonly contract: InterfaceContract<{ queueUrl: Field<string>; deadLetterQueueUrl: Field<string> }>;
  /** The shared base stack. */
  public readonly base: SharedBase;
  /** The job queue. */
  public readonly queue: sqs.Queue;
  /** The results table. */
  public readonly table: dynamodb.Table;
  /** The runtime chart. */
  public readonly routing: RuntimeRouting;
  /** The worker of each tenant. */
  public readonly workers: Record<string, kplus.Deployment> = {};

  constructor(scope: Construct, id: string, props: QueueWorkerCapabilityProps) {
    super(scope, id, props);
    const namespace = props.namespace ?? 'workers';
    this.contractV1 = new InterfaceContract(this, 'Queue', {
      version: '1.1.0',
      fields: { queueUrl: Field.string(), tableName: Field.string(), deadLetterQueueUrl: Field.string() },
    });
    this.contract = new InterfaceContract(this, 'QueueV2', {
      name: 'Queue',
      version: '2.0.0',
      fields: { queueUrl: Field.string(), deadLetterQueueUrl: Field.string() },
    });

    this.base = new SharedBase(this, 'Base');
    const deadLetters = new sqs.Queue(this.base, 'DeadLetters');
    this.queue = new sqs.Queue(this.base, 'Jobs', { deadLetterQueue: { queue: deadLetters, maxReceiveCount: 3 } });
    this.table = new dynamodb.Table(this.base, 'Results', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
    this.contractV1.publish(this.base, { queueUrl: this.queue.queueUrl, tableName: this.table.tableName, deadLetterQueueUrl: deadLetters.queueUrl });
    this.contract.publish(this.base, { queueUrl: this.queue.queueUrl, deadLetterQueueUrl: deadLetters.queueUrl });

    for (const tenant of props.tenants) {
      const stack = new DeploymentAggregate(this, tenant);
      new ssm.StringParameter(stack, 'TenantConfig', { stringValue: JSON.stringify({ tenant }) });
    }

    this.routing = new RuntimeRouting(this, 'Routing');
    new kplus.Namespace(this.routing, 'Namespace', { metadata: { name: namespace } });
    const values = this.contract.consume(this.routing, { namespace });
    for (const tenant of props.tenants) {
      const worker = new kplus.Deployment(this.routing, `Worker-${tenant}`, {
        metadata: { namespace },
        containers: [{
          name: 'worker',
          image: props.image,
          envVariables: { QUEUE_URL: values.queueUrl.envValue(), DLQ_URL: values.deadLetterQueueUrl.envValue(), TENANT: kplus.EnvValue.fromValue(tenant) },
          securityContext: { ensureNonRoot: false },
        }],
      });
      new kplus.HorizontalPodAutoscaler(this.routing, `Hpa-${tenant}`, {
        metadata: { namespace }, target: worker, minReplicas: 1, maxReplicas: props.maxReplicas ?? 10,
      });
      // the HPA's controller writes the replicas: the release never applies them
      new RuntimeWriter(this.routing, `Autoscaler-${tenant}`, {
        target: worker,
        fields: ['spec.replicas'],
        identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
        manager: 'kube-controller-manager',
      });
      this.workers[tenant] = worker;
    }
  }
}
