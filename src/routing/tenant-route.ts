import { ApiObject, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Backend, isVersioned, VersionedBackend } from './backend';
import { HttpRoute } from './http-route';
import { routeNameRefusal } from './route-name-refusal';
import { isTenantHeaderName } from './tenant-header';
import type { VirtualService, VirtualServiceSpecHttp, VirtualServiceSpecHttpMatch } from '../imports/virtualservice-networking.istio.io';
import { DNS1123_LABEL } from '../private/dns-names';
import { dnsLabelLike, invalidInput, refuseUnknownKeys } from '../private/invalid-input';
import { istio } from '../private/lazy';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

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
   * The name of the route object; in a mesh VirtualService that tenants share
   * (Istio without a gateway), the name of the tenant's `http` route.
   *
   * @default `tenant-<tenant>`
   */
  readonly name?: string;
  /**
   * The namespace of the route object.
   *
   * A Gateway API route in another namespace than the backend's refers to the
   * backend's Services with `backendRefs[].namespace`, and comes with the
   * `ReferenceGrant` (`gateway.networking.k8s.io/v1beta1`) that allows it: in
   * the backend's namespace, named `<route name>-from-<route namespace>`, from
   * `HTTPRoute`s in the route's namespace to those Services, applied before the
   * route. An Istio route names the backend by its fully qualified host and
   * needs no grant.
   *
   * @default - the backend's namespace (a Gateway API route then needs no ReferenceGrant)
   */
  readonly namespace?: string;
  /**
   * Host names the route also matches on: each lowercase, at most 253
   * characters, with no port or trailing dot, and a leading `*.` only as a
   * wildcard label (the Gateway API hostname pattern; Istio also takes `*`).
   *
   * @default - Gateway API: every host name of the listener; Istio: `*` behind a gateway, the backend's Service host in the mesh
   */
  readonly hostnames?: string[];
  /**
   * The path prefix the route matches: an absolute path of RFC 3986
   * characters or %-escapes, at most 1024 characters, without `//`, `/./`,
   * `/../`, `%2f`, `#` or `?`, and not ending in `/.` or `/..` (the Gateway
   * API path rules).
   *
   * @default '/'
   */
  readonly pathPrefix?: string;
  /**
   * For a versioned backend: the weight of each version, by name (Gateway API
   * `backendRefs[].weight`, Istio route `weight`): the share of the tenant's
   * requests it gets is its weight over the sum. A version left out gets 0 and
   * stays listed, so shifting and rolling back are weight changes only. Each
   * weight is an integer from 0 to 1000000, and at least one is above 0.
   *
   * @default - required for a versioned backend; not allowed for another
   */
  readonly weights?: Record<string, number>;
  /**
   * The header to match the tenant id on, when it must differ from the
   * published one (synth refuses a header that the capability's contract does
   * not publish as `tenantHeader`: the edge would set one header and the
   * routes match another). An HTTP header name (an RFC 9110 token); in
   * lowercase for Istio, which matches header keys in lowercase only.
   *
   * @default - the published `tenantHeader`, else `x-tenant-id`
   */
  readonly header?: string;
}

/** What a tenant route needs from its chart. */
export interface TenantRouteContext {
  /** Gateway API or Istio. */
  readonly style: RouteStyle;
  /** The gateway to attach to; required for Gateway API. */
  readonly gateway?: GatewayReference;
  /** The tenant header, read when the route renders (so a contract published later still counts). */
  readonly header: () => string;
  /** The chart's mesh VirtualServices (Istio without a gateway) so far, in declaration order: one per set of hosts. */
  readonly meshServices: MeshVirtualService[];
}

/** A mesh VirtualService and the tenant routes it holds, one `http` entry each, in declaration order. */
export interface MeshVirtualService {
  readonly object: VirtualService;
  readonly hosts: readonly string[];
  readonly namespace?: string;
  readonly routes: Route[];
}


/** A Gateway API `Hostname` (`HTTPRoute` `spec.hostnames[]`): lowercase DNS labels, optionally behind one `*.`. */
const GATEWAY_HOSTNAME = /^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_HOSTNAME = 253;
const ROUTE_OPTIONS = keysOf<TenantRouteOptions>({ name: true, namespace: true, hostnames: true, pathPrefix: true, weights: true, header: true });

/** The characters a Gateway API path match takes (RFC 3986 path characters and %-escapes). */
const PATH_CHARACTERS = /^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})+$/;
const MAX_PATH = 1024;

/** Why `pathPrefix` is no path a Gateway API route matches (its CRD's validation rules), if it is not. */
function pathPrefixProblem(pathPrefix: string): string | undefined {
  if (!pathPrefix.startsWith('/')) return 'must start with "/"';
  if (pathPrefix.length > MAX_PATH) return `must be at most ${MAX_PATH} characters`;
  for (const part of ['//', '/./', '/../', '%2f', '%2F', '#']) {
    if (pathPrefix.includes(part)) return `must not contain ${JSON.stringify(part)}`;
  }
  for (const end of ['/.', '/..']) {
    if (pathPrefix.endsWith(end)) return `must not end with ${JSON.stringify(end)}`;
  }
  if (!PATH_CHARACTERS.test(pathPrefix)) return 'must hold only RFC 3986 path characters (letters, digits, -._~!$&\'()*+,;=:@/) and %-escapes';
  return undefined;
}

/**
 * Declares the route that sends requests whose tenant header equals `tenant`
 * to `backend`: a Gateway API `HTTPRoute` or an Istio `VirtualService`, one
 * object per tenant, so each tenant's route has one owner (in the mesh, one
 * VirtualService per host, one `http` route per tenant).
 *
 * @param scope the chart (or a construct in it)
 * @param id the construct id
 * @param tenant the tenant id, the value the edge writes into the header; a DNS-1123 label
 * @param backend where the tenant's requests go
 * @returns the route object
 * @throws CompositionError `CAP010` when the tenant id, the backend or an option is malformed (a Gateway API route without a gateway is
 *   CAP010 at synth); `CAP001` when a route of the mesh VirtualService it joins has its name
 */
export function addTenantRoute(
  scope: Construct,
  id: string,
  tenant: string,
  backend: Backend<IConstruct, IConstruct> | VersionedBackend,
  options: TenantRouteOptions,
  context: TenantRouteContext,
): ApiObject {
  const path = `${scope.node.path}/${id}`;
  const refused = (problem: string) => invalidInput(`addTenantRoute '${path}': ${problem}`, path);
  // from JavaScript, anything: a regular expression would take the number 5 for "5"
  if (typeof tenant !== 'string' || !DNS1123_LABEL.test(tenant)) throw tenantRefusal(scope, tenant);
  if (backend === null || typeof backend !== 'object' || !('deployment' in backend || 'versions' in backend)) {
    throw refused(`'backend' (${valueText(backend)}) must be what addBackend or addVersionedBackend returned`);
  }
  refuseUnknownKeys(`addTenantRoute '${path}'`, options, ROUTE_OPTIONS, path);
  const hostnames: unknown = options.hostnames;
  if (hostnames !== undefined && !(Array.isArray(hostnames) && hostnames.every((h) => typeof h === 'string' && h !== ''))) {
    throw refused(`'hostnames' (${valueText(hostnames)}) must be a list of host names, such as ["acme.example.com"]`);
  }
  for (const host of (hostnames as string[] | undefined) ?? []) {
    const istioAny = context.style === RouteStyle.ISTIO && host === '*';
    if (!istioAny && (host.length > MAX_HOSTNAME || !GATEWAY_HOSTNAME.test(host))) {
      throw refused(`'hostnames' holds ${JSON.stringify(host)}, which must be a lowercase DNS name of at most ${MAX_HOSTNAME} characters, without port or trailing dot, optionally behind "*.", such as "acme.example.com" or "*.example.com"`);
    }
  }
  const pathPrefix = options.pathPrefix ?? '/';
  const pathProblem = typeof pathPrefix === 'string' ? pathPrefixProblem(pathPrefix) : 'must start with "/"';
  if (pathProblem) {
    throw refused(`'pathPrefix' (${JSON.stringify(pathPrefix)}) ${pathProblem}, such as "/api"`);
  }
  if (options.header !== undefined) {
    // the lowercase check of the published tenantHeader; Gateway API matches header names in any case, Istio in lowercase only
    const lowercaseOnly = context.style === RouteStyle.ISTIO;
    const header: unknown = options.header;
    if (typeof header !== 'string' || !isTenantHeaderName(lowercaseOnly ? header : header.toLowerCase())) {
      const expected = lowercaseOnly ? 'a lowercase HTTP header name (Istio matches header keys in lowercase only)' : 'an HTTP header name (an RFC 9110 token)';
      throw refused(`'header' (${valueText(header)}) must be ${expected}, such as "x-tenant-id"`);
    }
  }
  if (options.namespace !== undefined && (typeof options.namespace !== 'string' || !DNS1123_LABEL.test(options.namespace))) {
    throw refused(`'namespace' (${valueText(options.namespace)}) must be a DNS-1123 label such as "tenants"`);
  }
  if (options.namespace !== undefined && backend.namespace === undefined) {
    throw refused(`'namespace' (${JSON.stringify(options.namespace)}) is given, but backend '${backend.name}' has no namespace to route across to. Give the backend (or its chart) a namespace, or drop the route's 'namespace'`);
  }
  const name = options.name ?? `tenant-${tenant}`;
  const namespace = options.namespace ?? backend.namespace;
  const metadata = { name, ...(namespace ? { namespace } : {}) };
  const header = options.header !== undefined ? () => options.header! : context.header;
  const targets = targetsOf(backend, options.weights);
  const route = { name, tenant, targets, pathPrefix, hostnames: options.hostnames, header };

  let object: ApiObject;
  if (context.style === RouteStyle.ISTIO && !context.gateway) {
    object = meshVirtualService(scope, id, path, metadata, route, context.meshServices);
  } else if (context.style === RouteStyle.ISTIO) {
    object = virtualService(scope, id, metadata, [route], context.gateway);
  } else {
    object = httpRoute(scope, id, metadata, route, context.gateway);
    const grant = referenceGrant(scope, id, metadata, route.targets);
    if (grant) object.addDependency(grant);
  }
  // refused at synth as one coded line (CAP010, naming the route), never a stack trace at the call
  const noGateway = context.style !== RouteStyle.ISTIO && !context.gateway
    ? ["Gateway API routes attach to a Gateway, but the RuntimeRouting has no 'gateway' prop. Set gateway: { name, namespace } or routeStyle: RouteStyle.ISTIO"]
    : [];
  object.node.addValidation(ownValidation({ validate: () => [...noGateway, ...weightProblems(backend, options.weights)] }));
  return object;
}

/**
 * The `CAP010` refusal of a tenant id that is no DNS-1123 label, naming the routing, the tenant, the rule and a
 * tenant that keeps to it (`"Acme Corp"`: `"acme-corp"`).
 */
function tenantRefusal(scope: Construct, tenant: unknown): Error {
  // suggested from a string only: undefined or a list would suggest "undefined" or "a-b"
  const like = typeof tenant === 'string' ? dnsLabelLike(tenant) : typeof tenant === 'number' ? dnsLabelLike(String(tenant)) : '';
  return invalidInput(
    `addTenantRoute of '${scope.node.path}': the tenant ${valueText(tenant)} must be a DNS-1123 label (lowercase letters, digits and '-', `
      + 'starting and ending with a letter or digit, at most 63 characters): it is the value the edge writes into the tenant header, and it names '
      + `the route 'tenant-<tenant>'. Route a tenant id such as ${JSON.stringify(like === '' ? 'acme' : like)}, and have the edge write that value.`,
    scope.node.path,
  );
}

/** The largest weight Gateway API accepts (`backendRefs[].weight` maximum). */
const MAX_WEIGHT = 1_000_000;

/** Where a route sends traffic: each Service with its weight (undefined: a plain backend, no weight rendered). */
interface Target {
  readonly backend: Backend<IConstruct, IConstruct>;
  readonly weight?: number;
}

function targetsOf(backend: Backend<IConstruct, IConstruct> | VersionedBackend, weights: Record<string, number> | undefined): Target[] {
  if (!isVersioned(backend)) return [{ backend }];
  return Object.entries(backend.versions).map(([version, b]) => ({ backend: b, weight: weights?.[version] ?? 0 }));
}

/** Why the weights of a route cannot be rendered as given (`CAP010` at synth), if they cannot. */
function weightProblems(backend: Backend<IConstruct, IConstruct> | VersionedBackend, weights: Record<string, number> | undefined): string[] {
  if (!isVersioned(backend)) {
    return weights ? [`'weights' are given, but backend '${backend.name}' has one version. Declare it with addVersionedBackend, or drop 'weights'`] : [];
  }
  const versions = Object.keys(backend.versions);
  const listed = versions.join(', ');
  if (!weights) {
    return [`backend '${backend.name}' runs versions ${listed}, but the route gives no 'weights'. Give each version a weight, such as { ${versions.map((v, i) => `${v}: ${i === 0 ? 100 : 0}`).join(', ')} }`];
  }
  const problems: string[] = [];
  for (const [version, weight] of Object.entries(weights)) {
    if (!versions.includes(version)) {
      problems.push(`'weights' gives version '${version}' a weight, but backend '${backend.name}' has no such version (versions: ${listed}). Weigh only its versions, or declare the version`);
    } else if (!Number.isInteger(weight) || weight < 0 || weight > MAX_WEIGHT) {
      problems.push(`the weight of version '${version}' (${weight}) must be an integer from 0 to ${MAX_WEIGHT}`);
    }
  }
  if (problems.length === 0 && versions.every((v) => (weights[v] ?? 0) === 0)) {
    problems.push(`'weights' route nothing: every version of backend '${backend.name}' has weight 0 (${versions.map((v) => `${v}: ${weights[v] ?? 0}`).join(', ')}). Give at least one version a weight above 0`);
  }
  return problems;
}

/** A route object's metadata. */
interface Metadata {
  readonly name: string;
  readonly namespace?: string;
}

interface Route {
  /** The route's name: the object's, or its `http` entry's in a shared mesh VirtualService. */
  readonly name: string;
  readonly tenant: string;
  readonly targets: readonly Target[];
  readonly pathPrefix: string;
  readonly hostnames?: string[];
  readonly header: () => string;
}

function httpRoute(scope: Construct, id: string, metadata: Metadata, route: Route, gateway: GatewayReference | undefined): HttpRoute {
  // the values of the generated enums HttpRouteSpecRulesMatchesHeadersType.EXACT and ...PathType.PATH_PREFIX
  const matches = Lazy.any({
    produce: () => [
      {
        headers: [{ type: 'Exact', name: route.header(), value: route.tenant }],
        path: { type: 'PathPrefix', value: route.pathPrefix },
      },
    ],
  });
  return new HttpRoute(scope, id, {
    metadata,
    spec: {
      parentRefs: gateway
        ? [
          {
            name: gateway.name,
            ...(gateway.namespace ? { namespace: gateway.namespace } : {}),
            ...(gateway.sectionName ? { sectionName: gateway.sectionName } : {}),
          },
        ]
        : [],
      ...(route.hostnames ? { hostnames: route.hostnames } : {}),
      rules: [
        {
          matches,
          backendRefs: route.targets.map((t) => ({
            name: t.backend.name,
            ...(t.backend.namespace !== metadata.namespace ? { namespace: t.backend.namespace } : {}),
            port: t.backend.port,
            ...(t.weight !== undefined ? { weight: t.weight } : {}),
          })),
        },
      ],
    },
  });
}

/**
 * The `ReferenceGrant` that lets a Gateway API route refer to Services in the
 * backend's namespace when it lives in another, if it does.
 */
function referenceGrant(scope: Construct, id: string, metadata: Metadata, targets: readonly Target[]): ApiObject | undefined {
  const backendNamespace = targets[0].backend.namespace;
  if (!metadata.namespace || !backendNamespace || backendNamespace === metadata.namespace) return undefined;
  return new ApiObject(scope, `${id}-reference-grant`, {
    apiVersion: 'gateway.networking.k8s.io/v1beta1',
    kind: 'ReferenceGrant',
    metadata: { name: `${metadata.name}-from-${metadata.namespace}`, namespace: backendNamespace },
    spec: {
      from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: metadata.namespace }],
      to: targets.map((t) => ({ group: '', kind: 'Service', name: t.backend.name })),
    },
  });
}

function serviceHost(backend: Backend<IConstruct, IConstruct>): string {
  return backend.namespace ? `${backend.name}.${backend.namespace}.svc.cluster.local` : backend.name;
}

/**
 * The mesh VirtualService (Istio without a gateway) that routes `route`:
 * Istio applies one mesh VirtualService per host (several conflict, istioctl
 * IST0109), so the tenants of the same hosts in the same namespace share the
 * first one's, one `http` entry each; a route that shares only some hosts, or
 * lives in another namespace, is refused at synth (CAP010).
 */
function meshVirtualService(
  scope: Construct, id: string, path: string, metadata: Metadata, route: Route, services: MeshVirtualService[],
): VirtualService {
  const hosts = route.hostnames ?? [serviceHost(route.targets[0].backend)];
  const same = services.find((m) => sameHosts(m.hosts, hosts) && m.namespace === metadata.namespace);
  if (same) {
    const taken = same.routes.find((r) => r.name === route.name);
    if (taken) {
      const holder = `an http route of the mesh VirtualService '${same.object.node.path}' that routes its hosts`;
      throw routeNameRefusal({ path, tenant: route.tenant, name: route.name, pathPrefix: route.pathPrefix, holder, holderTenant: taken.tenant });
    }
    same.routes.push(route);
    return same.object;
  }
  const routes = [route];
  const object = virtualService(scope, id, metadata, routes);
  const conflicts = services.filter((m) => m.hosts.some((h) => hosts.includes(h)));
  object.node.addValidation(ownValidation({
    validate: () => conflicts.map((m) => `the mesh VirtualService routes hosts ${hosts.join(', ')}${metadata.namespace ? ` in namespace '${metadata.namespace}'` : ''}, and '${m.object.node.path}' routes ${m.hosts.join(', ')}${m.namespace ? ` in namespace '${m.namespace}'` : ''}: Istio applies one mesh VirtualService per host (istioctl IST0109). Give both routes the same 'hostnames' and 'namespace', so that they share one VirtualService, or route behind a gateway`),
  }));
  services.push({ object, hosts, namespace: metadata.namespace, routes });
  return object;
}

function sameHosts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().every((h, i) => h === [...b].sort()[i]);
}

/** A VirtualService with one `http` entry per route, rendered when it synthesizes (routes may still be added). */
function virtualService(scope: Construct, id: string, metadata: Metadata, routes: Route[], gateway?: GatewayReference): VirtualService {
  const { VirtualService } = istio();
  const first = routes[0];
  const http = Lazy.any({
    produce: (): VirtualServiceSpecHttp[] => routes.map((route) => ({
      name: route.name,
      match: [{ headers: { [route.header()]: { exact: route.tenant } }, uri: { prefix: route.pathPrefix } }] as VirtualServiceSpecHttpMatch[],
      route: route.targets.map((t) => ({
        destination: { host: serviceHost(t.backend), port: { number: t.backend.port } },
        ...(t.weight !== undefined ? { weight: t.weight } : {}),
      })),
    })),
  });
  return new VirtualService(scope, id, {
    metadata,
    spec: {
      hosts: first.hostnames ?? (gateway ? ['*'] : [serviceHost(first.targets[0].backend)]),
      ...(gateway ? { gateways: [gateway.namespace ? `${gateway.namespace}/${gateway.name}` : gateway.name] } : {}),
      http,
    },
  });
}
