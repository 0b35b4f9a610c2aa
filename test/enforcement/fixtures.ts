// The seed incident as a composition: the deployment pipeline declares an ApplicationDeployment
// (with its CRD) and writes `timers` and `entityConfigurations`; NetOp, a controller, writes
// `domains` and `routeTables` at runtime; both through one object.
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, EnforceOptions, RuntimeRouting, RuntimeWriter } from '../../src';

export const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';
export const NETOP = 'system:serviceaccount:netop-system:netop';
export const STRANGER = 'system:serviceaccount:tools:fixer';

/** The ApplicationDeployment CRD: `timers` a struct, `entityConfigurations` a keyed list, `domains` a set, `routeTables` atomic. */
export const APPLICATION_DEPLOYMENT_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'applicationdeployments.apps.example.com' },
  spec: {
    group: 'apps.example.com',
    scope: 'Namespaced',
    names: { kind: 'ApplicationDeployment', plural: 'applicationdeployments', singular: 'applicationdeployment', listKind: 'ApplicationDeploymentList' },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                applicationId: { type: 'string' },
                image: { type: 'string' },
                timers: { type: 'object', properties: { publishTimeout: { type: 'string' }, rolloutTimeout: { type: 'string' } } },
                entityConfigurations: {
                  'type': 'array',
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['name'],
                  'items': { type: 'object', required: ['name'], properties: { name: { type: 'string' }, replicas: { type: 'integer' }, region: { type: 'string' } } },
                },
                domains: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
                routeTables: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, cidr: { type: 'string' } } } },
              },
            },
            status: { type: 'object', properties: { phase: { type: 'string' } } },
          },
        },
      },
    }],
  },
};

/** The ApplicationDeployment as the pipeline declares it. */
export const APP1 = {
  apiVersion: 'apps.example.com/v1',
  kind: 'ApplicationDeployment',
  metadata: { name: 'app1', namespace: 'apps' },
  spec: {
    applicationId: 'app1',
    image: 'ghcr.io/example/app:1.0.0',
    timers: { publishTimeout: '5m', rolloutTimeout: '10m' },
    entityConfigurations: [{ name: 'orders', replicas: 2 }, { name: 'billing', replicas: 1 }],
  },
};

/** The seed composition and its parts. */
export interface SeedApp {
  readonly app: CapabilityApp;
  readonly routing: RuntimeRouting;
  readonly object: ApiObject;
  readonly netop: RuntimeWriter;
}

/** The seed composition: the CRD, the object, and NetOp declared as the runtime writer of `domains` and `routeTables`. */
export function seedApp(enforce: Partial<EnforceOptions> = {}): SeedApp {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER, ...enforce } });
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  new ApiObject(routing, 'Crd', APPLICATION_DEPLOYMENT_CRD);
  const pipeline = new Construct(routing, 'DeploymentPipeline');
  const object = new ApiObject(pipeline, 'App1', APP1);
  const netop = new RuntimeWriter(routing, 'NetOp', {
    target: object,
    fields: ['spec.domains', 'spec.routeTables'],
    identity: NETOP,
    manager: 'network-operator',
  });
  return { app, routing, object, netop };
}

/** The policies and bindings of a synthesized app (its `field-ownership` step). */
export function policiesOf(app: CapabilityApp): any[] {
  const result = CapabilityTesting.synth(app);
  if (result.violations.length > 0) throw new Error(result.violations.map((v) => `${v.code} ${v.message}`).join('\n'));
  return result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
}

/** The object as the cluster holds it after the pipeline applied it and NetOp wrote its fields. */
export function live(): any {
  const object = structuredClone(APP1) as any;
  object.spec.domains = ['app1.example.com', 'www.app1.example.com'];
  object.spec.routeTables = [{ name: 'main', cidr: '10.0.0.0/16' }];
  object.status = { phase: 'Ready' };
  return object;
}
