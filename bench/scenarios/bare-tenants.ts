import * as path from 'path';
import { App, aws_iam as iam, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { ApiObject, App as Cdk8sApp, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Builder } from './builder';
import { buildTenants, GATEWAY, TENANT_HEADER, TenantBackend, TenantBackendOptions } from './tenant-shape';

/**
 * The bare side of the `tenants` scenario: the same objects with plain aws-cdk
 * and plain cdk8s, each app synthesized by its own `synth()` (aws-cdk into
 * `deploy/`, cdk8s into `runtime/`). What our constructs add is written out by
 * hand: each tenant stack's `addStackDependency` on the base, the contract's
 * SSM parameter, reader policy and `ExternalSecret`, the HTTPRoute, and the
 * second team's annotation (`metadata.addAnnotation`).
 */
export const bareTenants: Record<string, Builder> = {
  tenants(outdir, size) {
    // same as ours: the template validator only when the run asks for it (the `validated` scenario), no analytics metadata resource
    const aws = new App({ outdir: path.join(outdir, 'deploy'), builtinCloudFormationValidation: process.env.CDK_VALIDATION !== 'false', analyticsReporting: false });
    const k8s = new Cdk8sApp({ outdir: path.join(outdir, 'runtime') });
    let base: Stack | undefined;
    buildTenants(
      {
        base: (id) => (base = new Stack(aws, `bench-${id}`)),
        aggregate: (tenant) => {
          const stack = new Stack(aws, `bench-${tenant}`);
          stack.addStackDependency(base!, 'shared base before tenant aggregate');
          return stack;
        },
        // a chart at the root, as the program was before it was ported: names below a capability are these names
        routing: (id) => new Chart(k8s, id),
        tenantHeader: (stack, routing, header) => publishAndBind(stack, routing, header),
        backend: (routing, id, options) => backend(routing, id, options),
        route: (routing, tenant, to) => httpRoute(routing, tenant, to),
        contribute: (_writer, _id, target, fields) => {
          const annotations = (fields.metadata as { annotations: Record<string, string> }).annotations;
          for (const [key, value] of Object.entries(annotations)) ApiObject.of(target).metadata.addAnnotation(key, value);
        },
      },
      size,
    );
    aws.synth();
    k8s.synth();
  },
};

/** `validated`: the `tenants` objects, built the same way; the run turns aws-cdk's template validator on. */
bareTenants.validated = bareTenants.tenants;

/** What `InterfaceContract` publish + consume make: one SSM parameter of JSON, its reader policy, an ExternalSecret. */
function publishAndBind(stack: Stack, routing: Chart, header: string): kplus.EnvValue {
  const parameterName = '/cdk-capability/bench/edge/v1';
  const parameter = new ssm.StringParameter(stack, 'EdgeInterface', {
    parameterName,
    description: 'cdk-capability interface bench/Edge 1.0.0',
    stringValue: stack.toJsonString({ tenantHeader: header }),
  });
  new iam.ManagedPolicy(stack, 'EdgeInterfaceReader', {
    description: `Read the cdk-capability interface ${parameterName}`,
    statements: [new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter.parameterArn] })],
  });
  const secretName = 'bench-edge-interface';
  new ApiObject(routing, 'EdgeInterface', {
    apiVersion: 'external-secrets.io/v1',
    kind: 'ExternalSecret',
    metadata: { name: secretName, namespace: 'tenants', annotations: { 'cdk-capability.io/contract-version': '1.0.0' } },
    spec: {
      refreshInterval: '1h',
      secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws-parameter-store' },
      target: { name: secretName, creationPolicy: 'Owner' },
      dataFrom: [{ extract: { key: parameterName } }],
    },
  });
  const secret = kplus.Secret.fromSecretName(routing, 'EdgeInterfaceSecret', secretName);
  return kplus.EnvValue.fromSecretValue({ secret, key: 'tenantHeader' });
}

/** What `RuntimeRouting.addBackend` makes: a cdk8s-plus Deployment and a Service in front of it. */
function backend(scope: Construct, id: string, options: TenantBackendOptions): TenantBackend {
  const metadata = { name: options.name, namespace: options.namespace };
  const deployment = new kplus.Deployment(scope, id, {
    metadata,
    containers: [{ name: options.name, image: options.image, ports: [{ number: options.port, name: 'http' }], envVariables: options.env }],
  });
  const service = new kplus.Service(scope, `${id}Service`, { metadata, selector: deployment, ports: [{ name: 'http', port: options.port, targetPort: options.port }] });
  return { name: options.name, namespace: options.namespace, port: options.port, deployment, service };
}

/** What `RuntimeRouting.addTenantRoute` makes: an HTTPRoute on the tenant header, attached to the gateway. */
function httpRoute(scope: Construct, tenant: string, to: TenantBackend): ApiObject {
  return new ApiObject(scope, `tenant-${tenant}`, {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: `tenant-${tenant}`, namespace: to.namespace },
    spec: {
      parentRefs: [{ name: GATEWAY.name, namespace: GATEWAY.namespace }],
      rules: [
        {
          matches: [{ headers: [{ type: 'Exact', name: TENANT_HEADER, value: tenant }], path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: to.name, port: to.port }],
        },
      ],
    },
  });
}
