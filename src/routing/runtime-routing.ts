import { ApiObject, Chart, ChartProps, Include } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { addBackend, addVersionedBackend, Backend, BackendOptions, VersionedBackend, VersionedBackendOptions } from './backend';
import { includeCrds } from './crds';
import { routeNameRefusal } from './route-name-refusal';
import { tenantHeaderOf } from './tenant-header';
import { addTenantRoute, GatewayReference, MeshVirtualService, RouteStyle, TenantRouteOptions } from './tenant-route';
import { RuntimeCapability } from '../constructs/runtime-capability';
import { brand, hasBrand } from '../private/brand';
import { propsObject, refuseUnknownKeys, requireChildId } from '../private/invalid-input';
import { requireCapability } from '../private/misplaced';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

/** Properties of a `RuntimeRouting`. */
export interface RuntimeRoutingProps extends ChartProps {
  /**
   * How `addTenantRoute` renders routes.
   *
   * @default RouteStyle.GATEWAY_API
   */
  readonly routeStyle?: RouteStyle;
  /**
   * The gateway tenant routes attach to: the `parentRefs` of an `HTTPRoute`, the
   * `gateways` of a `VirtualService`.
   *
   * Without one, Istio routes apply to the mesh, where Istio applies one
   * VirtualService per host (several conflict, istioctl IST0109): the tenant
   * routes of the same hosts and namespace share one VirtualService, named by
   * the first of them, with one `http` route per tenant in declaration order.
   * A mesh route that shares only some hosts with another, or lives in another
   * namespace, is refused at synth (CAP010).
   *
   * @default - none: Gateway API routes are refused, Istio routes apply to the mesh
   */
  readonly gateway?: GatewayReference;
}

/**
 * The runtime aggregate of a capability: the Kubernetes objects that route
 * traffic once the deployment-time aggregates exist.
 *
 * A cdk8s `Chart`. Synth applies it after every deployment-time stack of its
 * capability, and orders its objects by their dependencies (CRDs before custom
 * resources, namespaces before their contents, roles before bindings).
 * `addBackend` and `addTenantRoute` route each tenant on the header the edge
 * sets (Gateway API `HTTPRoute`s, or Istio `VirtualService`s).
 *
 * @example
 * const routing = new RuntimeRouting(cdn, 'Routing', { gateway: { name: 'edge', namespace: 'gateway-system' } });
 * const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080, namespace: 'edge' });
 * routing.addTenantRoute('acme', web);   // HTTPRoute edge/tenant-acme: x-tenant-id = acme -> Service web
 */
export class RuntimeRouting extends Chart {
  /** True when `x` is a `RuntimeRouting`, also across duplicate installs of this package. */
  public static isRuntimeRouting(x: unknown): x is RuntimeRouting {
    return hasBrand(x, 'RuntimeRouting');
  }

  /** The capability this routing belongs to. */
  public readonly capability: RuntimeCapability;
  /** How tenant routes are rendered. */
  public readonly routeStyle: RouteStyle;
  /** The gateway tenant routes attach to, if any. */
  public readonly gateway?: GatewayReference;
  /**
   * The routes `addTenantRoute` declared: each renders the published tenant header.
   *
   * @internal
   */
  public readonly tenantRoutes: ApiObject[] = [];
  /** The mesh VirtualServices the tenant routes share, one per set of hosts. */
  private readonly meshServices: MeshVirtualService[] = [];
  /** The tenant of each route `addTenantRoute` declared, by its name (its construct id). */
  private readonly routeTenants = new Map<string, string>();

  /**
   * @param scope the capability, or any construct inside one (checked at construction: `CAP015` otherwise)
   * @param id the construct id
   * @param props chart options (namespace, labels)
   */
  constructor(scope: Construct, id: string, props: RuntimeRoutingProps = {}) {
    super(requireChildId(requireCapability(scope, id, 'RuntimeRouting'), id, 'RuntimeRouting', 'Routing'), id, propsObject(props));
    // cdk8s adds chart props across versions: one it does not know passes, unless it misspells one it knows
    refuseUnknownKeys(`RuntimeRouting '${this.node.path}' props`, props, ROUTING_PROPS, this.node.path, true);
    brand(this, 'RuntimeRouting');
    this.capability = RuntimeCapability.of(this);
    this.routeStyle = propsObject(props).routeStyle ?? RouteStyle.GATEWAY_API;
    this.gateway = propsObject(props).gateway;
    // from JavaScript, anything: refused at synth (CAP010), each naming the prop
    const problems = routingPropsProblems(props);
    if (problems.length > 0) this.node.addValidation(ownValidation({ validate: () => problems }));
    this.node.addValidation(ownValidation({ validate: () => (this.tenantRoutes.length > 0 ? tenantHeaderProblems(this.capability) : []) }));
  }

  /**
   * The header tenant routes match on: the literal `tenantHeader` published by
   * the capability's interface contract, else `x-tenant-id`.
   */
  public get tenantHeader(): string {
    return tenantHeaderOf(this.capability).name;
  }

  /**
   * Declares a backend: a cdk8s-plus `Deployment` and a `Service` in front of it.
   *
   * @param id the construct id; its lowercase form names both objects unless `name` is given
   * @returns the backend, to pass to `addTenantRoute`
   */
  public addBackend(id: string, options: BackendOptions): Backend {
    return addBackend(this, id, options);
  }

  /**
   * Declares a backend that runs several versions at once (blue and green, say):
   * per version a Deployment and a Service named `<name>-<version>`. A tenant
   * route splits traffic between them with `weights`; shifting and rolling back
   * are weight changes only.
   *
   * @param id the construct id; its lowercase form names the backend unless `name` is given
   * @returns the backend, to pass to `addTenantRoute` with `weights`
   * @example
   * const web = routing.addVersionedBackend('Web', { port: 8080, versions: {
   *   blue: { image: 'ghcr.io/example/web:1.4.2' }, green: { image: 'ghcr.io/example/web:1.5.0' } } });
   * routing.addTenantRoute('acme', web, { weights: { blue: 90, green: 10 } });
   */
  public addVersionedBackend(id: string, options: VersionedBackendOptions): VersionedBackend {
    return addVersionedBackend(this, id, options);
  }

  /**
   * Routes the requests whose tenant header (see `tenantHeader`) equals `tenant`
   * to `backend`: one Gateway API `HTTPRoute`, or one Istio `VirtualService`
   * with `routeStyle: RouteStyle.ISTIO`. For a versioned backend, `weights`
   * split the traffic between its versions.
   *
   * In the mesh (Istio without a `gateway`), the tenants of one backend host
   * share one VirtualService, one `http` route each (see `RuntimeRoutingProps.gateway`).
   *
   * Route a tenant once: a second route of a name the routing already has is
   * refused as it is created (`CAP001`), and two routes that match the same
   * requests on one gateway (same header value and path prefix, and a host
   * name in common) are refused at synth (`CAP002`), Gateway API routes and
   * Istio routes alike (in the mesh, two `http` routes of one VirtualService
   * too). To split a tenant's traffic, route
   * it to a versioned backend with `weights`; to send one path or host of it
   * elsewhere, give that route its own `name` and `pathPrefix` or `hostnames`.
   * Malformed options are refused as the route is created (`CAP010`).
   *
   * @param tenant the tenant id the edge writes into the header; a DNS-1123 label (`CAP010` otherwise, suggesting one: `"acme-corp"` for `"Acme Corp"`)
   * @returns the route object, named `tenant-<tenant>` unless `name` is given; in the mesh, the VirtualService the tenant's `http` route joined
   * @example
   * const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.4.2', port: 8080 });
   * routing.addTenantRoute('acme', web);
   */
  public addTenantRoute(tenant: string, backend: Backend<IConstruct, IConstruct> | VersionedBackend, options: TenantRouteOptions = {}): ApiObject {
    const id = options.name ?? `tenant-${tenant}`;
    const existing = this.node.tryFindChild(id);
    if (existing) {
      const pathPrefix = typeof options.pathPrefix === 'string' ? options.pathPrefix : '/';
      const holder = `'${existing.node.path}'`;
      throw routeNameRefusal({ path: `${this.node.path}/${id}`, tenant, name: id, pathPrefix, holder, holderTenant: this.routeTenants.get(id) });
    }
    const context = { style: this.routeStyle, gateway: this.gateway, header: () => this.tenantHeader, meshServices: this.meshServices };
    const route = addTenantRoute(this, id, tenant, backend, options, context);
    if (!this.tenantRoutes.includes(route)) this.tenantRoutes.push(route);
    this.routeTenants.set(id, tenant);
    return route;
  }

  /**
   * Includes the CustomResourceDefinitions of a file you supply (this library
   * ships none), as their own step before the custom resources that need them.
   *
   * @param file a YAML file of CRDs: a path relative to the working directory, or a URL
   */
  public includeCrds(file: string): Include {
    return includeCrds(this, file);
  }
}

/** Why the published tenant header cannot be routed on, if it cannot. */
function tenantHeaderProblems(capability: RuntimeCapability): string[] {
  const problem = tenantHeaderOf(capability).problem;
  return problem ? [problem] : [];
}

/** Why `routeStyle` or `gateway` is refused: empty when both are fine. */
/** The props `RuntimeRouting` takes: its own and cdk8s' `ChartProps` (the compiler holds the list to both). */
const ROUTING_PROPS = keysOf<RuntimeRoutingProps>({
  routeStyle: true, gateway: true, labels: true, namespace: true, disableResourceNameHashes: true,
});

function routingPropsProblems(props: RuntimeRoutingProps): string[] {
  // from JavaScript, anything: a string or a list would be read as no props at all, and dropped without a word
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    return [`its props (${valueText(props)}) must be an object, such as { gateway: { name: 'edge', namespace: 'gateways' } }`];
  }
  const problems: string[] = [];
  const labels: unknown = props.labels;
  // cdk8s spreads them into each object's labels: a list or a string would become labels "0", "1", ...
  if (labels !== undefined && (labels === null || typeof labels !== 'object' || Array.isArray(labels))) {
    problems.push(`'labels' (${valueText(labels)}) must be a map of label keys to values, such as { team: 'edge' }`);
  }
  // cdk8s reads them as it finds them: 'yes' or 'no' would turn the hashes off alike, and a number for the namespace
  // reaches only the objects the chart declares (each then refused as an object), none when it declares none yet
  const hashes: unknown = props.disableResourceNameHashes;
  if (hashes !== undefined && typeof hashes !== 'boolean') {
    problems.push(`'disableResourceNameHashes' (${valueText(hashes)}) must be true or false`);
  }
  const namespace: unknown = props.namespace;
  if (namespace !== undefined && typeof namespace !== 'string') {
    problems.push(`'namespace' (${valueText(namespace)}) must be a namespace's name, such as 'edge'`);
  }
  const styles: unknown[] = Object.values(RouteStyle);
  if (props.routeStyle !== undefined && !styles.includes(props.routeStyle)) {
    problems.push(`'routeStyle' (${valueText(props.routeStyle)}) must be RouteStyle.GATEWAY_API or RouteStyle.ISTIO`);
  }
  const gateway = props.gateway as { name?: unknown; namespace?: unknown } | undefined;
  if (gateway !== undefined) {
    const named = gateway !== null && typeof gateway === 'object' && typeof gateway.name === 'string' && gateway.name !== '';
    if (!named || (gateway.namespace !== undefined && typeof gateway.namespace !== 'string')) {
      problems.push(`'gateway' (${valueText(gateway)}) must be { name } or { name, namespace }, such as { name: 'edge', namespace: 'gateways' }`);
    }
  }
  return problems;
}
