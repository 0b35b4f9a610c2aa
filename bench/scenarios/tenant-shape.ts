import { aws_sqs as sqs, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { APP_NAMESPACE, IMAGE, PORT } from './sizes';

/** What the tenant shape reads of a backend: our `Backend` has these members, and so does the bare one. */
export interface TenantBackend {
  readonly name: string;
  readonly namespace?: string;
  readonly port: number;
  readonly deployment: kplus.Deployment;
  readonly service: kplus.Service;
}

/** Options of one tenant's backend, as `RuntimeRouting.addBackend` takes them. */
export interface TenantBackendOptions {
  readonly name: string;
  readonly image: string;
  readonly port: number;
  readonly namespace: string;
  readonly env: Record<string, kplus.EnvValue>;
}

/**
 * How one side builds what the tenant shape needs. Ours: `SharedBase`,
 * `DeploymentAggregate`, `RuntimeRouting` with `addBackend` and
 * `addTenantRoute`, an `InterfaceContract` and `Contribution`s. Bare: aws-cdk
 * `Stack`s with `addStackDependency`, a cdk8s `Chart`, cdk8s-plus objects, an
 * `ApiObject` route, the same SSM parameter, policy and `ExternalSecret` the
 * contract makes, and JSON patches.
 */
export interface TenantSide<C extends Chart = Chart> {
  /** The stack every tenant shares. */
  base(id: string): Stack;
  /** One tenant's stack, deployed after the base. */
  aggregate(tenant: string): Stack;
  /** The runtime chart. */
  routing(id: string): C;
  /** Publishes the tenant header from `base`, binds it into `routing`, and returns it as an environment value. */
  tenantHeader(base: Stack, routing: C, header: string): kplus.EnvValue;
  /** A Deployment and a Service in front of it. */
  backend(routing: C, id: string, options: TenantBackendOptions): TenantBackend;
  /** The HTTPRoute that sends the tenant's requests (header = tenant) to its backend. */
  route(routing: C, tenant: string, backend: TenantBackend): ApiObject;
  /** Writes `fields` into `target` on behalf of `writer`. */
  contribute(writer: Construct, id: string, target: Construct, fields: Record<string, unknown>): void;
}

/** The gateway tenant routes attach to. */
export const GATEWAY = { name: 'edge', namespace: 'gateway-system' };

/** The header the edge writes the tenant id into. */
export const TENANT_HEADER = 'x-tenant-id';

/**
 * The `tenants` scenario: `size` tenants of one capability. The base holds a
 * queue and the published tenant header; each tenant has a stack of three
 * resources (two SSM parameters, one naming the base queue's ARN across
 * stacks, and a queue), a cdk8s-plus Deployment and Service, an HTTPRoute on
 * the tenant header, and an annotation on its Deployment written by a second
 * team. Plus one Namespace for the runtime objects.
 */
export function buildTenants<C extends Chart>(side: TenantSide<C>, size: number): void {
  const base = side.base('Base');
  const events = new sqs.Queue(base, 'Events');
  const routing = side.routing('Routing');
  new ApiObject(routing, 'Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: APP_NAMESPACE } });
  const header = side.tenantHeader(base, routing, TENANT_HEADER);
  const platformTeam = new Construct(routing, 'PlatformTeam');
  for (let t = 0; t < size; t++) {
    const tenant = `tenant${t}`;
    const stack = side.aggregate(tenant);
    new ssm.StringParameter(stack, 'Config', { parameterName: `/bench/${tenant}/config`, stringValue: `{"tenant":"${tenant}","tier":"standard"}` });
    new ssm.StringParameter(stack, 'Events', { parameterName: `/bench/${tenant}/events`, stringValue: events.queueArn });
    new sqs.Queue(stack, 'Queue');
    const backend = side.backend(routing, `Tenant${t}`, { name: tenant, image: IMAGE, port: PORT, namespace: APP_NAMESPACE, env: { TENANT_HEADER: header } });
    side.route(routing, tenant, backend);
    side.contribute(platformTeam, `Tenant${t}`, backend.deployment, { metadata: { annotations: { 'platform.example.com/on-call': `team-${t % 7}` } } });
  }
}
