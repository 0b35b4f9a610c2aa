import { createHash } from 'crypto';
import { APP_NAMESPACE, IMAGE, PORT, SMALL_APP_GROUP } from './sizes';

/**
 * The objects of the floor scenarios as plain JavaScript objects, key for key
 * and in the order cdk8s, cdk8s-plus and aws-cdk emit them, so their files are
 * byte-identical to the bare side's (test/bench-smoke.test.ts compares them).
 * Loads nothing but `crypto`.
 */

/** A construct's address as `constructs` computes it from the ids of its scopes, root (`''`) first. */
export function constructAddress(ids: readonly string[]): string {
  const hash = createHash('sha1');
  for (const id of ['', ...ids]) {
    if (id === 'Default') continue;
    hash.update(id);
    hash.update('\n');
  }
  return `c8${hash.digest('hex')}`;
}

/** cdk8s' `Names.toDnsLabel` of a construct at `ids`, as cdk8s names a chart's file. */
export function dnsLabel(ids: readonly string[]): string {
  if (ids.length === 1 && /^[0-9a-z-]+$/.test(ids[0]) && ids[0].length <= 63) return ids[0];
  const parts = ids.map((c) => c.toLocaleLowerCase().replace(/[^0-9a-zA-Z-_.]/g, '').slice(0, 63));
  return humanForm([...parts, constructAddress(ids).slice(0, 8)]);
}

/** cdk8s' `Names.toLabelValue`, as cdk8s-plus labels a workload's pods (`cdk8s.io/metadata.addr`). */
export function labelValue(ids: readonly string[]): string {
  const parts = ids.map((c) => c.replace(/[^0-9a-zA-Z-_.]/g, '').slice(0, 63));
  return humanForm([...parts, constructAddress(ids).slice(0, 8)]).replace(/^[^0-9a-zA-Z]+/, '');
}

function humanForm(components: string[]): string {
  return components
    .reverse()
    .filter((c, i, all) => c !== all[i - 1])
    .join('/')
    .slice(0, 63)
    .split('/')
    .reverse()
    .filter((x) => x)
    .join('-')
    .split('-')
    .filter((x) => x && x.toLowerCase() !== 'resource' && x.toLowerCase() !== 'default')
    .join('-');
}

/** An aws-cdk logical id of a resource at `ids` inside its stack (`makeUniqueId`, `Resource` hidden from the readable part). */
export function logicalId(ids: readonly string[]): string {
  const hash = createHash('md5').update(ids.join('/')).digest('hex').slice(0, 8).toUpperCase();
  return ids.filter((c) => c !== 'Resource').map((c) => c.replace(/[^A-Za-z0-9]/g, '')).join('') + hash;
}

/** What cdk8s-plus emits for a container with these parts. */
interface ContainerParts {
  readonly name: string;
  readonly env?: Array<{ name: string; valueFrom: { secretKeyRef: { key: string; name: string } } }>;
  readonly envFrom?: Array<{ configMapRef: { name: string } }>;
}

/** What the scenarios add to a Deployment's defaults. */
interface DeploymentExtras {
  readonly annotations?: Record<string, string>;
  readonly serviceAccountName?: string;
}

/** A cdk8s-plus `Deployment` with its defaults, as it is emitted. */
export function plusDeployment(name: string, selector: string, container: ContainerParts, extra: DeploymentExtras = {}) {
  // fresh objects, never shared: the YAML writer would turn a shared object into an anchor and an alias
  const labels = () => ({ 'cdk8s.io/metadata.addr': selector });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...(extra.annotations ? { annotations: extra.annotations } : {}), name, namespace: APP_NAMESPACE },
    spec: {
      minReadySeconds: 0,
      progressDeadlineSeconds: 600,
      replicas: 2,
      selector: { matchLabels: labels() },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: labels() },
        spec: {
          automountServiceAccountToken: false,
          containers: [
            {
              ...(container.env ? { env: container.env } : {}),
              ...(container.envFrom ? { envFrom: container.envFrom } : {}),
              image: IMAGE,
              imagePullPolicy: 'Always',
              name: container.name,
              ports: [{ containerPort: PORT, name: 'http' }],
              resources: { limits: { cpu: '1500m', memory: '2048Mi' }, requests: { cpu: '1000m', memory: '512Mi' } },
              securityContext: { allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: true },
            },
          ],
          dnsPolicy: 'ClusterFirst',
          hostNetwork: false,
          restartPolicy: 'Always',
          securityContext: { fsGroupChangePolicy: 'Always', runAsNonRoot: true },
          ...(extra.serviceAccountName ? { serviceAccountName: extra.serviceAccountName } : {}),
          setHostnameAsFQDN: false,
          shareProcessNamespace: false,
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  };
}

/** A cdk8s-plus `Service` selecting a workload's pods. */
export function plusService(name: string, selector: string) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: APP_NAMESPACE },
    spec: {
      externalIPs: [],
      ports: [{ name: 'http', port: PORT, targetPort: PORT }],
      selector: { 'cdk8s.io/metadata.addr': selector },
      type: 'ClusterIP',
    },
  };
}

/** The `small` scenario's objects, in declaration order. */
export function smallAppObjects(chartIds: readonly string[], size: number): object[] {
  const objects: object[] = [];
  for (let a = 0; a < size / SMALL_APP_GROUP; a++) {
    const name = `app-${a}`;
    const metadata = () => ({ name, namespace: APP_NAMESPACE });
    const selector = labelValue([...chartIds, `App${a}`]);
    objects.push(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(), data: { APP: name, LOG_LEVEL: 'info' }, immutable: false },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata(), automountServiceAccountToken: false },
      plusDeployment(name, selector, { name, envFrom: [{ configMapRef: { name } }] }, { serviceAccountName: name }),
      plusService(name, selector),
    );
  }
  return objects;
}

const INTERFACE_PARAMETER = '/cdk-capability/bench/edge/v1';
const INTERFACE_SECRET = 'bench-edge-interface';

/** The `tenants` scenario's runtime objects, in declaration order. */
export function tenantObjects(chartIds: readonly string[], size: number): object[] {
  const objects: object[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: APP_NAMESPACE } },
    {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { annotations: { 'cdk-capability.io/contract-version': '1.0.0' }, name: INTERFACE_SECRET, namespace: APP_NAMESPACE },
      spec: {
        dataFrom: [{ extract: { key: INTERFACE_PARAMETER } }],
        refreshInterval: '1h',
        secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws-parameter-store' },
        target: { creationPolicy: 'Owner', name: INTERFACE_SECRET },
      },
    },
  ];
  for (let t = 0; t < size; t++) {
    const name = `tenant${t}`;
    const selector = labelValue([...chartIds, `Tenant${t}`]);
    objects.push(
      plusDeployment(name, selector, { name, env: [{ name: 'TENANT_HEADER', valueFrom: { secretKeyRef: { key: 'tenantHeader', name: INTERFACE_SECRET } } }] }, { annotations: { 'platform.example.com/on-call': `team-${t % 7}` } }),
      plusService(name, selector),
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: `tenant-${name}`, namespace: APP_NAMESPACE },
        spec: {
          parentRefs: [{ name: 'edge', namespace: 'gateway-system' }],
          rules: [
            {
              backendRefs: [{ name, port: PORT }],
              matches: [{ headers: [{ name: 'x-tenant-id', type: 'Exact', value: name }], path: { type: 'PathPrefix', value: '/' } }],
            },
          ],
        },
      },
    );
  }
  return objects;
}

/** What the default stack synthesizer adds to every template. */
const BOOTSTRAP = {
  Parameters: {
    BootstrapVersion: {
      Type: 'AWS::SSM::Parameter::Value<String>',
      Default: '/cdk-bootstrap/hnb659fds/version',
      Description: 'Version of the CDK Bootstrap resources in this environment, automatically retrieved from SSM Parameter Store. [cdk:skip]',
    },
  },
  Rules: {
    CheckBootstrapVersion: {
      Assertions: [
        {
          Assert: { 'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }] },
          AssertDescription: "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
        },
      ],
    },
  },
};

const QUEUE = { Type: 'AWS::SQS::Queue', UpdateReplacePolicy: 'Delete', DeletionPolicy: 'Delete' };

/** The `tenants` scenario's CloudFormation templates: `[stack name, template]`, the base first. */
export function tenantTemplates(size: number): Array<[string, object]> {
  const queue = logicalId(['Events', 'Resource']);
  const parameter = logicalId(['EdgeInterface', 'Resource']);
  const output = `ExportsOutputFnGetAtt${queue}Arn${createHash('md5').update(`Exports/Output{"Fn::GetAtt":["${queue}","Arn"]}`).digest('hex').slice(0, 8).toUpperCase()}`;
  const exportName = `bench-Base:${output}`;
  const base = {
    Resources: {
      [queue]: QUEUE,
      [parameter]: {
        Type: 'AWS::SSM::Parameter',
        Properties: { Description: 'cdk-capability interface bench/Edge 1.0.0', Name: INTERFACE_PARAMETER, Type: 'String', Value: '{"tenantHeader":"x-tenant-id"}' },
      },
      [logicalId(['EdgeInterfaceReader', 'Resource'])]: {
        Type: 'AWS::IAM::ManagedPolicy',
        Properties: {
          Description: `Read the cdk-capability interface ${INTERFACE_PARAMETER}`,
          Path: '/',
          PolicyDocument: {
            Statement: [
              {
                Action: 'ssm:GetParameter',
                Effect: 'Allow',
                Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':parameter', { Ref: parameter }]] },
              },
            ],
            Version: '2012-10-17',
          },
        },
      },
    },
    Outputs: { [output]: { Value: { 'Fn::GetAtt': [queue, 'Arn'] }, Export: { Name: exportName } } },
    ...BOOTSTRAP,
  };
  const templates: Array<[string, object]> = [['bench-Base', base]];
  const config = logicalId(['Config', 'Resource']);
  const events = logicalId(['Events', 'Resource']);
  const tenantQueue = logicalId(['Queue', 'Resource']);
  for (let t = 0; t < size; t++) {
    const tenant = `tenant${t}`;
    templates.push([
      `bench-${tenant}`,
      {
        Resources: {
          [config]: { Type: 'AWS::SSM::Parameter', Properties: { Name: `/bench/${tenant}/config`, Type: 'String', Value: `{"tenant":"${tenant}","tier":"standard"}` } },
          [events]: { Type: 'AWS::SSM::Parameter', Properties: { Name: `/bench/${tenant}/events`, Type: 'String', Value: { 'Fn::ImportValue': exportName } } },
          [tenantQueue]: QUEUE,
        },
        ...BOOTSTRAP,
      },
    ]);
  }
  return templates;
}
