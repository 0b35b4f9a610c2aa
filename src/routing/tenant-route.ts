import { ApiObject, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Backend } from './backend';
import {
  HttpRoute,
  HttpRouteSpecRulesMatches,
  HttpRouteSpecRulesMatchesHeadersType,
  HttpRouteSpecRulesMatchesPathType,
} from '../imports/httproute-gateway.networking.k8s.io';
import { VirtualService, VirtualServiceSpecHttpMatch } from '../imports/virtualservice-networking.istio.io';

/** How tenant routes are rendered. */
export enum RouteStyle {
  /** Gateway API `HTTPRoute`s (`gateway.networking.k8s.io/v1`), attached to a Gateway by `parentRefs`. */
  GATEWAY_API = 'gateway-api',
  /** Istio `VirtualService`s (`networking.istio.io/v1`), bound to an Istio gateway. */
  ISTIO = 'istio',
}

/** The gateway tenant routes attach to. */
export interface GatewayReference {
  /** The gateway's name. */
  readonly name: string;
  /**
   * The gateway's namespace.
   *
   * @default - the route's namespace
   */
  readonly namespace?: string;
  /**
   * The listener to attach to (Gateway API `sectionName`; ignored for Istio).
   *
   * @default - every listener of the Gateway that allows the route
   */
  readonly sectionName?: string;
}

/** Options of `RuntimeRouting.addTenantRoute`. */
export interface TenantRouteOptions {
  /**
   * The name of the route object.
   *
   * @default `tenant-<tenant>`
   */
  readonly name?: string;
  /**
   * The namespace of the route object.
   *
   * @default - the backend's namespace (a Gateway API route then needs no ReferenceGrant)
   */
  readonly namespace?: string;
  /**
   * Host names the route also matches on.
   *
   * @default - Gateway API: every host name of the listener; Istio: `*` behind a gateway, the backend's Service host in the mesh
   */
  readonly hostnames?: string[];
  /**
   * The path prefix the route matches.
   *
   * @default '/'
   */
  readonly pathPrefix?: string;
}

/** What a tenant route needs from its chart. */
export interface TenantRouteContext {
  /** Gateway API or Istio. */
  readonly style: RouteStyle;
  /** The gateway to attach to; required for Gateway API. */
  readonly gateway?: GatewayReference;
  /** The tenant header, read when the route renders (so a contract published later still counts). */
  readonly header: () => string;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Declares the route that sends requests whose tenant header equals `tenant`
 * to `backend`: a Gateway API `HTTPRoute` or an Istio `VirtualService`, one
 * object per tenant, so each tenant's route has one owner.
 *
 * @param scope the chart (or a construct in it)
 * @param id the construct id
 * @param tenant the tenant id, the value the edge writes into the header; a DNS-1123 label
 * @param backend where the tenant's requests go
 * @returns the route object
 * @throws when the tenant id or path prefix is malformed, or a Gateway API route has no gateway
 */
export function addTenantRoute(
  scope: Construct,
  id: string,
  tenant: string,
  backend: Backend<IConstruct, IConstruct>,
  options: TenantRouteOptions,
  context: TenantRouteContext,
): ApiObject {
  const where = `addTenantRoute '${scope.node.path}/${id}'`;
  if (!DNS1123_LABEL.test(tenant)) {
    throw new Error(`${where}: 'tenant' (${JSON.stringify(tenant)}) must be a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters) such as "acme"`);
  }
  const pathPrefix = options.pathPrefix ?? '/';
  if (!pathPrefix.startsWith('/')) {
    throw new Error(`${where}: 'pathPrefix' (${JSON.stringify(pathPrefix)}) must start with "/", such as "/api"`);
  }
  const name = options.name ?? `tenant-${tenant}`;
  const namespace = options.namespace ?? backend.namespace;
  const metadata = { name, ...(namespace ? { namespace } : {}) };
  const route = { tenant, backend, pathPrefix, hostnames: options.hostnames, header: context.header };

  if (context.style === RouteStyle.ISTIO) return virtualService(scope, id, metadata, route, context.gateway);
  if (!context.gateway) {
    throw new Error(`${where}: Gateway API routes attach to a Gateway, but the RuntimeRouting has no 'gateway' prop. Set gateway: { name, namespace } or routeStyle: RouteStyle.ISTIO`);
  }
  return httpRoute(scope, id, metadata, route, context.gateway);
}

/** A route object's metadata. */
interface Metadata {
  readonly name: string;
  readonly namespace?: string;
}

interface Route {
  readonly tenant: string;
  readonly backend: Backend<IConstruct, IConstruct>;
  readonly pathPrefix: string;
  readonly hostnames?: string[];
  readonly header: () => string;
}

function httpRoute(scope: Construct, id: string, metadata: Metadata, route: Route, gateway: GatewayReference): HttpRoute {
  const matches = Lazy.any({
    produce: (): HttpRouteSpecRulesMatches[] => [
      {
        headers: [{ type: HttpRouteSpecRulesMatchesHeadersType.EXACT, name: route.header(), value: route.tenant }],
        path: { type: HttpRouteSpecRulesMatchesPathType.PATH_PREFIX, value: route.pathPrefix },
      },
    ],
  });
  return new HttpRoute(scope, id, {
    metadata,
    spec: {
      parentRefs: [
        {
          name: gateway.name,
          ...(gateway.namespace ? { namespace: gateway.namespace } : {}),
          ...(gateway.sectionName ? { sectionName: gateway.sectionName } : {}),
        },
      ],
      ...(route.hostnames ? { hostnames: route.hostnames } : {}),
      rules: [{ matches, backendRefs: [{ name: route.backend.name, port: route.backend.port }] }],
    },
  });
}

function virtualService(scope: Construct, id: string, metadata: Metadata, route: Route, gateway?: GatewayReference): VirtualService {
  const service = route.backend.namespace ? `${route.backend.name}.${route.backend.namespace}.svc.cluster.local` : route.backend.name;
  const match = Lazy.any({
    produce: (): VirtualServiceSpecHttpMatch[] => [
      { headers: { [route.header()]: { exact: route.tenant } }, uri: { prefix: route.pathPrefix } },
    ],
  });
  return new VirtualService(scope, id, {
    metadata,
    spec: {
      hosts: route.hostnames ?? (gateway ? ['*'] : [service]),
      ...(gateway ? { gateways: [gateway.namespace ? `${gateway.namespace}/${gateway.name}` : gateway.name] } : {}),
      http: [
        {
          name: metadata.name,
          match,
          route: [{ destination: { host: service, port: { number: route.backend.port } } }],
        },
      ],
    },
  });
}
