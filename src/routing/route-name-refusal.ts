import { dnsLabelLike } from '../private/invalid-input';
import { constructionRefusal } from '../private/misplaced';

/** The code of a second declaration of one identity (`ViolationCode.DUPLICATE_OBJECT`): here, of one route name. */
export const DUPLICATE_OBJECT = 'CAP001';

/** A tenant route whose name another route (or construct) of the routing already has. */
export interface RouteNameClash {
  /** The construct path the route would have (`cdn/Routing/tenant-acme`). */
  readonly path: string;
  /** The tenant it routes. */
  readonly tenant: string;
  /** The name it needs: its `name` option, else `tenant-<tenant>`. */
  readonly name: string;
  /** The path prefix it matches. */
  readonly pathPrefix: string;
  /** What has the name already, as the message names it (`'cdn/Routing/tenant-acme'`). */
  readonly holder: string;
  /** The tenant of the route that has the name, when a tenant route has it. */
  readonly holderTenant?: string;
}

/**
 * The `CAP001` refusal of a tenant route whose name is taken, as it is created: a second declaration of one
 * route name, which would replace the first (or, in the mesh, be a second `http` route of that name).
 *
 * For a second route of the same tenant, the fix is not just another name: a route of another name with the
 * same matches (same gateway, header value, path prefix and host names) takes the tenant's requests in an
 * order Gateway API leaves to the routes' age (`CAP002`), so the message says to route the tenant once
 * (splitting its traffic with a versioned backend's weights) or to give the route its own path prefix or
 * host names with the name.
 */
export function routeNameRefusal(clash: RouteNameClash): Error {
  const { path, tenant, name, holder } = clash;
  const fix = clash.holderTenant === tenant
    ? `Route a tenant once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; to send another path or host name of it elsewhere, give this route a distinct 'name' with its own 'pathPrefix' or 'hostnames', such as ${splitExample(name, clash.pathPrefix)}`
    : `Give this route a distinct 'name', such as { name: '${name === `tenant-${tenant}` ? `${name}-2` : `tenant-${tenant}`}' }`;
  return constructionRefusal(
    DUPLICATE_OBJECT,
    `duplicate object: addTenantRoute '${path}': tenant '${tenant}' needs a route named '${name}', but ${holder} already has that name. ${fix}`,
    path,
  );
}

/** `{ name: 'tenant-acme-api', pathPrefix: '/api' }`: a name and path prefix of their own, from the path prefix given unless it is '/'. */
function splitExample(name: string, pathPrefix: string): string {
  const prefix = dnsLabelLike(pathPrefix) === '' ? '/api' : pathPrefix;
  return `{ name: '${name}-${dnsLabelLike(prefix)}', pathPrefix: '${prefix}' }`;
}
