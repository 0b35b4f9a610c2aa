// The CRD-before-CR demonstration (moved here from examples/cdn, which is now the full CDN capability):
// a small capability whose runtime chart declares a custom resource, a Deployment, its CRD and a Namespace
// in the wrong order; synth applies the Namespace and the CRD first. Run it with `cdk8s synth` in this
// folder; the output lands in examples/crd-order/dist.
import { aws_cloudfront as cloudfront, aws_cloudfront_origins as origins, aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../../src';

const app = new CapabilityApp();
const cdn = new Capability(app, 'cdn', { description: 'multi-tenant CDN: edge tags the tenant, runtime routes on it' });

// The one interface that crosses from deployment time to runtime.
const edge = new InterfaceContract(cdn, 'Edge', {
  version: '1.0.0',
  fields: {
    originDnsName: Field.dnsName({ description: 'DNS name of the edge distribution' }),
    tenantHeader: Field.string({ description: 'request header the edge sets to the tenant id' }),
  },
});

// Deployment time: the shared base first, then one aggregate per tenant.
const base = new SharedBase(cdn, 'Base');
const distribution = new cloudfront.Distribution(base, 'Edge', {
  defaultBehavior: { origin: new origins.HttpOrigin('origin.cdn.example.com') },
});
edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
for (const tenant of ['acme', 'globex']) {
  const aggregate = new DeploymentAggregate(cdn, tenant);
  new ssm.StringParameter(aggregate, 'Domain', {
    parameterName: `/cdn/tenants/${tenant}/domain`,
    stringValue: `${tenant}.cdn.example.com`,
  });
}

// Runtime: declared in the wrong order on purpose (custom resource, Deployment,
// CRD, Namespace). Synth applies the Namespace and the CRD first.
const routing = new RuntimeRouting(cdn, 'Routing');
new ApiObject(routing, 'TenantRoute', {
  apiVersion: 'routing.cdn.example.com/v1',
  kind: 'TenantRoute',
  metadata: { name: 'acme', namespace: 'edge' },
  spec: { header: 'x-tenant-id', value: 'acme', backend: 'web' },
});
const values = edge.consume(routing, { namespace: 'edge' });
new kplus.Deployment(routing, 'Web', {
  metadata: { name: 'web', namespace: 'edge' },
  containers: [{
    image: 'nginx:1.27',
    portNumber: 8080,
    securityContext: { ensureNonRoot: false },
    envVariables: { ORIGIN_DNS_NAME: values.originDnsName.envValue(), TENANT_HEADER: values.tenantHeader.envValue() },
  }],
});
new ApiObject(routing, 'TenantRouteCrd', {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'tenantroutes.routing.cdn.example.com' },
  spec: {
    group: 'routing.cdn.example.com',
    scope: 'Namespaced',
    names: { kind: 'TenantRoute', plural: 'tenantroutes', singular: 'tenantroute', listKind: 'TenantRouteList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});
new ApiObject(routing, 'EdgeNamespace', {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'edge' },
});

app.synth();
