// An app of another team: it installs @acme/queue-worker-capability from npm (here: the folder beside it)
// and composes it twice, for orders and for billing.
import { aws_sqs as sqs } from 'aws-cdk-lib';
import { ApiObject, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-30';
import { CapabilityApp } from '../../../src';
import { QueueWorkerCapability } from '../queue-worker/src';

const app = new CapabilityApp();
// two instances in one app: each its own namespace, and names generated from the whole path
const orders = new QueueWorkerCapability(app, 'orders', {
  tenants: ['acme', 'globex'], image: 'ghcr.io/acme/worker:2.0.0', namespace: 'orders', generatedNames: 'full-path',
  maxReplicas: 4, // a default overridden through props
});
const billing = new QueueWorkerCapability(app, 'billing', {
  tenants: ['acme'], image: 'ghcr.io/acme/worker:2.0.0', namespace: 'billing', generatedNames: 'full-path',
});
// a default overridden on a child: the worker's memory limit (a cdk8s-plus Deployment takes the Quantity class)
ApiObject.of(orders.workers.acme).addJsonPatch(
  JsonPatch.add('/spec/template/spec/containers/0/resources', { limits: { memory: k8s.Quantity.fromString('256Mi') } }),
);
// and on a CloudFormation resource of the package
(billing.queue.node.defaultChild as sqs.CfnQueue).addPropertyOverride('VisibilityTimeout', 120);
app.synth();
