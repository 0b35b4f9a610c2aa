// A multi-tenant CDN as one capability: what a library author would publish to npm as
// `class CdnCapability extends Capability`. README.md in this folder explains the design.
import {
  aws_certificatemanager as acm,
  aws_cloudfront as cloudfront,
  aws_cloudfront_origins as origins,
  aws_route53 as route53,
  aws_route53_targets as targets,
  Duration,
} from 'aws-cdk-lib';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import {
  Backend,
  BackendOptions,
  Capability,
  CapabilityProps,
  DeploymentAggregate,
  Field,
  GatewayReference,
  InterfaceContract,
  RouteStyle,
  RuntimeRouting,
  SharedBase,
} from '../../src';

/** One tenant of the CDN. */
export interface CdnTenant {
  /** The tenant id: a DNS label, the tenant's subdomain of the zone and the value of the tenant header. */
  readonly id: string;
  /** The key of the backend in `backends` that serves the tenant. */
  readonly backend: string;
}

/** Properties of a `CdnCapability`. */
export interface CdnCapabilityProps extends CapabilityProps {
  /** The public hosted zone the tenant domains live in (`<tenant>.<zoneName>`); referenced, never looked up. */
  readonly hostedZone: { readonly hostedZoneId: string; readonly zoneName: string };
  /** The DNS name of the cluster's gateway, which CloudFront fetches from (the origin). */
  readonly originDomainName: string;
  /** The Gateway API Gateway that tenant routes attach to. */
  readonly gateway: GatewayReference;
  /** The backends, by key. */
  readonly backends: Record<string, Omit<BackendOptions, 'namespace'>>;
  /** The tenants. */
  readonly tenants: CdnTenant[];
  /**
   * The namespace of the runtime objects.
   *
   * @default 'edge'
   */
  readonly namespace?: string;
  /**
   * The header the edge function writes the tenant id into.
   *
   * @default 'x-tenant-id'
   */
  readonly tenantHeader?: string;
  /**
   * How tenant routes are rendered.
   *
   * @default RouteStyle.GATEWAY_API
   */
  readonly routeStyle?: RouteStyle;
}

/**
 * A multi-tenant CDN: a CloudFront multi-tenant distribution shared by every
 * tenant (shared base), one distribution tenant with its own certificate and
 * DNS record per tenant (deployment aggregates), and Kubernetes routes that
 * send each tenant's requests to its backend by the header the edge sets
 * (runtime routing). The contract carries the edge's DNS name and the header.
 */
export class CdnCapability extends Capability {
  /** The interface: originDnsName and tenantHeader. */
  public readonly contract: InterfaceContract<{ originDnsName: Field<string>; tenantHeader: Field<string> }>;
  /** The shared base stack. */
  public readonly base: SharedBase;
  /** The multi-tenant distribution. */
  public readonly distribution: cloudfront.Distribution;
  /** The connection group: the DNS endpoint every tenant domain points at. */
  public readonly connectionGroup: cloudfront.CfnConnectionGroup;
  /** The tenant stacks, by tenant id. */
  public readonly tenantStacks: Record<string, DeploymentAggregate> = {};
  /** The runtime chart. */
  public readonly routing: RuntimeRouting;
  /** The backends, by key. */
  public readonly backends: Record<string, Backend> = {};

  constructor(scope: Construct, id: string, props: CdnCapabilityProps) {
    // CloudFront reads its certificates from us-east-1, and a distribution tenant names its certificate by
    // ARN, so every stack of the capability lives there. The account is left to the deploying credentials.
    super(scope, id, { description: props.description, env: props.env ?? { region: 'us-east-1' } });
    const header = props.tenantHeader ?? 'x-tenant-id';
    const namespace = props.namespace ?? 'edge';

    this.contract = new InterfaceContract(this, 'Edge', {
      version: '1.0.0',
      fields: {
        originDnsName: Field.dnsName({ description: 'DNS name of the edge: the connection group endpoint every tenant domain aliases' }),
        tenantHeader: Field.string({ description: 'request header the edge sets to the tenant id' }),
      },
    });

    // Deployment time, shared: the distribution, its cache policy and the edge function.
    this.base = new SharedBase(this, 'Base');
    const cachePolicy = new cloudfront.CachePolicy(this.base, 'CachePolicy', {
      comment: `${id}: the tenant header is part of the cache key, so tenants never share a cached object`,
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList(header),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      defaultTtl: Duration.minutes(5),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const tenantFunction = new cloudfront.Function(this.base, 'TenantHeader', {
      comment: `Sets ${header} from the Host header`,
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(tenantHeaderFunction(header, props.hostedZone.zoneName)),
    });
    this.distribution = new cloudfront.Distribution(this.base, 'Distribution', {
      comment: `${id}: multi-tenant distribution`,
      defaultBehavior: {
        origin: new origins.HttpOrigin(props.originDomainName, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy,
        functionAssociations: [{ function: tenantFunction, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
    });
    // The L2 has no multi-tenant mode yet: switch it on. A plain override (or deletion override) on the resource is
    // the declarer's escape hatch, recorded in plan.json under ownership.overrides when it replaces or removes a value
    // the L2 wrote; a Contribution that wrote the same field would be a second writer, refused (CAP002).
    const cfnDistribution = this.distribution.node.defaultChild as cloudfront.CfnDistribution;
    cfnDistribution.addPropertyOverride('DistributionConfig.ConnectionMode', 'tenant-only');
    this.connectionGroup = new cloudfront.CfnConnectionGroup(this.base, 'ConnectionGroup', { name: `${id}-edge`, ipv6Enabled: true, enabled: true });
    this.contract.publish(this.base, { originDnsName: this.connectionGroup.attrRoutingEndpoint, tenantHeader: header });

    // Deployment time, per tenant: certificate, distribution tenant (the alternate domain), DNS records.
    for (const tenant of props.tenants) {
      const stack = new DeploymentAggregate(this, tenant.id);
      const zone = route53.HostedZone.fromHostedZoneAttributes(stack, 'Zone', props.hostedZone);
      const domainName = `${tenant.id}.${props.hostedZone.zoneName}`;
      const certificate = new acm.Certificate(stack, 'Certificate', { domainName, validation: acm.CertificateValidation.fromDns(zone) });
      new cloudfront.CfnDistributionTenant(stack, 'DistributionTenant', {
        name: `${id}-${tenant.id}`,
        distributionId: this.distribution.distributionId,
        connectionGroupId: this.connectionGroup.attrId,
        domains: [domainName],
        customizations: { certificate: { arn: certificate.certificateArn } },
        enabled: true,
      });
      const target = route53.RecordTarget.fromAlias({
        bind: () => ({ dnsName: this.connectionGroup.attrRoutingEndpoint, hostedZoneId: targets.CloudFrontTarget.CLOUDFRONT_ZONE_ID }),
      });
      new route53.ARecord(stack, 'Alias', { zone, recordName: domainName, target });
      new route53.AaaaRecord(stack, 'AliasIpv6', { zone, recordName: domainName, target });
      this.tenantStacks[tenant.id] = stack;
    }

    // Runtime: one backend per key, one route per tenant, on the header the edge sets.
    this.routing = new RuntimeRouting(this, 'Routing', { gateway: props.gateway, routeStyle: props.routeStyle });
    new kplus.Namespace(this.routing, 'Namespace', { metadata: { name: namespace } });
    const values = this.contract.consume(this.routing, { namespace });
    for (const [key, options] of Object.entries(props.backends)) {
      this.backends[key] = this.routing.addBackend(key, {
        ...options,
        namespace,
        env: { ...options.env, ORIGIN_DNS_NAME: values.originDnsName.envValue(), TENANT_HEADER: values.tenantHeader.envValue() },
      });
    }
    for (const tenant of props.tenants) {
      const backend = this.backends[tenant.backend];
      if (!backend) throw new Error(`CdnCapability '${id}': tenant '${tenant.id}' names the backend '${tenant.backend}', which 'backends' does not declare`);
      this.routing.addTenantRoute(tenant.id, backend);
    }
  }
}

/**
 * A CloudFront Function (JavaScript runtime 2.0) for viewer requests: removes
 * any tenant header the client sent, then sets it from the Host header
 * (`<tenant>.<zone>`); a host outside the zone gets 404 at the edge.
 */
export function tenantHeaderFunction(header: string, zoneName: string): string {
  return `function handler(event) {
  var request = event.request;
  var host = request.headers.host ? request.headers.host.value.toLowerCase() : '';
  var suffix = ${JSON.stringify(`.${zoneName}`)};
  delete request.headers[${JSON.stringify(header)}];
  var tenant = host.length > suffix.length && host.endsWith(suffix) ? host.slice(0, host.length - suffix.length) : '';
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(tenant)) {
    return { statusCode: 404, statusDescription: 'Not Found' };
  }
  request.headers[${JSON.stringify(header)}] = { value: tenant };
  return request;
}
`;
}
