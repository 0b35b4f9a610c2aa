// An existing app adopted: a folder of Kubernetes YAML that `kubectl apply -f k8s/` applied, and an aws-cdk app
// that `cdk deploy` deployed (OrdersStack). docs/adoption.md ("From a folder of YAML and a `cdk deploy` app") and
// README.md in this folder walk through it; run it from the repository root with
// `npx cdk8s synth --no-check-upgrade` in this folder, or `npx ts-node --transpile-only examples/adopt-existing/main.ts`.
import * as path from 'path';
import { aws_iam as iam, aws_s3 as s3, aws_sqs as sqs } from 'aws-cdk-lib';
import { ApiObject, Cron, Include, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Quantity } from 'cdk8s-plus-30/lib/imports/k8s';
import { OrdersStack } from './orders-stack';
import { Capability, CapabilityApp, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, RuntimeWriter } from '../../src';

const app = new CapabilityApp();
const shop = new Capability(app, 'shop');

// 1. The YAML, as it is: Include reads each file (a path, resolved here from this file's folder rather than from
// the folder the program runs in, so `cdk-capability plan --app` from the repository root reads the same files).
const routing = new RuntimeRouting(shop, 'Routing');
const k8sFile = (name: string) => path.join(__dirname, 'k8s', name);
new Include(routing, 'Namespace', { url: k8sFile('namespace.yaml') });
new Include(routing, 'Crd', { url: k8sFile('crd.yaml') });
const included = new Include(routing, 'App', { url: k8sFile('app.yaml') });
// An object still in the YAML takes patches as any cdk8s object does: the ConfigMap gains a key.
const config = included.apiObjects.find((o) => o.kind === 'ConfigMap' && o.name === 'orders-config')!;
config.addJsonPatch(JsonPatch.add('/data/REGION', 'eu-west-1'));

// 2. The aws-cdk stack, same class, now a SharedBase; an escape hatch on one of its L2s. It keeps the name
// `cdk deploy` gave it: under a capability it would be 'shop-Orders', a second stack beside the deployed one
// (whose fixed parameterName '/orders/endpoint' already exists). New stacks take the capability's prefix.
const base = new OrdersStack(shop, 'Orders', { stackName: 'Orders' });
(base.queue.node.defaultChild as sqs.CfnQueue).addPropertyOverride('MessageRetentionPeriod', 1209600);

// 3. The contract: what the runtime reads of the stack, one SSM parameter that External Secrets turns into a Secret.
// A construct id is unique among its siblings: the contract cannot be 'Orders' beside the stack 'Orders'.
const contract = new InterfaceContract(shop, 'OrdersContract', {
  name: 'orders',
  version: '1.0.0',
  fields: { tableName: Field.string(), queueUrl: Field.url() },
});
contract.publish(base, { tableName: base.table.tableName, queueUrl: base.queue.queueUrl });
const values = contract.consume(routing, { namespace: 'shop' });

// 4. The workloads, moved out of the YAML into cdk8s-plus one by one, keeping their names and their selectors
// (a Deployment's spec.selector is immutable): select: false, the old labels, and the old selector.
const serviceAccount = kplus.ServiceAccount.fromServiceAccountName(routing, 'OrdersServiceAccount', 'orders');
const orders = new kplus.Deployment(routing, 'OrdersApi', {
  metadata: { name: 'orders', namespace: 'shop', labels: { app: 'orders' } },
  select: false,
  podMetadata: { labels: { app: 'orders' } },
  serviceAccount,
  // it reads ConfigMaps through the API server (the Role in the YAML): cdk8s-plus mounts no token by default
  automountServiceAccountToken: true,
  containers: [{
    name: 'orders',
    image: 'ghcr.io/acme/orders:1.4.2',
    ports: [{ number: 8080 }],
    envFrom: [kplus.Env.fromConfigMap(kplus.ConfigMap.fromConfigMapName(routing, 'OrdersConfig', 'orders-config'))],
    envVariables: { TABLE_NAME: values.tableName.envValue(), QUEUE_URL: values.queueUrl.envValue() },
    resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(128) } },
  }],
});
orders.select(kplus.LabelSelector.of({ labels: { app: 'orders' } }));
// The HorizontalPodAutoscaler (still in the YAML) owns spec.replicas: no replicas here, and the autoscaler declared.
orders.markHasAutoscaler();
new RuntimeWriter(routing, 'Autoscaler', {
  target: orders,
  fields: ['spec.replicas'],
  identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
  manager: 'kube-controller-manager',
});

const ordersService = new kplus.Service(routing, 'OrdersService', {
  metadata: { name: 'orders', namespace: 'shop' },
  ports: [{ port: 80, targetPort: 8080 }],
});
ordersService.selectLabel('app', 'orders');
new kplus.Ingress(routing, 'OrdersIngress', {
  metadata: { name: 'orders', namespace: 'shop' },
  className: 'nginx',
  rules: [{ host: 'orders.example.com', path: '/', pathType: kplus.HttpIngressPathType.PREFIX, backend: kplus.IngressBackend.fromService(ordersService, { port: 80 }) }],
});

new kplus.CronJob(routing, 'Report', {
  metadata: { name: 'orders-report', namespace: 'shop' },
  schedule: Cron.schedule({ minute: '0', hour: '3' }),
  restartPolicy: kplus.RestartPolicy.ON_FAILURE,
  serviceAccount,
  containers: [{
    name: 'report',
    image: 'ghcr.io/acme/orders-report:1.0.0',
    args: ['--since', '24h'],
    resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(128) } },
  }],
});

// The database: its headless Service given to the StatefulSet, which otherwise creates one of its own; postgres runs
// as root and writes its root file system, which cdk8s-plus forbids by default.
const dbService = new kplus.Service(routing, 'DbService', {
  metadata: { name: 'orders-db', namespace: 'shop' },
  clusterIP: 'None',
  ports: [{ port: 5432 }],
});
const db = new kplus.StatefulSet(routing, 'Db', {
  metadata: { name: 'orders-db', namespace: 'shop' },
  select: false,
  podMetadata: { labels: { app: 'orders-db' } },
  service: dbService,
  securityContext: { ensureNonRoot: false },
  containers: [{
    name: 'postgres',
    image: 'postgres:16',
    ports: [{ number: 5432 }],
    securityContext: { ensureNonRoot: false, readOnlyRootFilesystem: false },
    resources: { cpu: { request: kplus.Cpu.millis(250) }, memory: { request: Size.mebibytes(512) } },
  }],
});
db.select(kplus.LabelSelector.of({ labels: { app: 'orders-db' } }));
// cdk8s-plus-30's StatefulSet has no volumeClaimTemplates: add the field with a JSON patch. Its values go through
// the generated class's serializer after the patch, so a quantity is a Quantity: a plain '10Gi' renders as null.
ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/volumeClaimTemplates', [{
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: Quantity.fromString('10Gi') } } },
}]));
ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/volumeMounts', [{ name: 'data', mountPath: '/var/lib/postgresql/data' }]));

// 5. A stack and a worker per tenant. A tenant's bucket grants to the base's role as seen from the tenant stack, so
// the reference points from the tenant to the base, which deploys first.
for (const tenant of ['acme', 'globex']) {
  const aggregate = new DeploymentAggregate(shop, tenant);
  const uploads = new s3.Bucket(aggregate, 'Uploads', { versioned: true });
  uploads.grantRead(iam.Role.fromRoleArn(aggregate, 'HandlerRole', base.handler.role!.roleArn));
  new kplus.Deployment(routing, `Worker-${tenant}`, {
    metadata: { name: `worker-${tenant}`, namespace: 'shop' },
    serviceAccount,
    containers: [{
      name: 'worker',
      image: 'ghcr.io/acme/orders-worker:1.0.0',
      envVariables: { TENANT: kplus.EnvValue.fromValue(tenant), QUEUE_URL: values.queueUrl.envValue(), TABLE_NAME: values.tableName.envValue() },
      resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(128) } },
    }],
  });
}

app.synth();
