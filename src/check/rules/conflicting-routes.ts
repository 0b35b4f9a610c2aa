import type { ObjectFact } from '../../collect/facts';
import { describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { tenantHeadersOf } from './tenant-headers';

const GATEWAY_API = 'gateway.networking.k8s.io';

/** One request an HTTPRoute matches, on one parent, as Gateway API compares them: defaults filled in, names in one case. */
interface RouteMatch {
  /** The route. */
  readonly object: ObjectFact;
  /** The parent it attaches to, as the message names it (`Gateway gateway-system/edge`, `... listener https`). */
  readonly parent: string;
  /** The host names it matches, sorted; empty for every host name of the listener. */
  readonly hostnames: readonly string[];
  /** The headers it matches, sorted, lowercase names: `[type, name, value]`. */
  readonly headers: ReadonlyArray<readonly [string, string, string]>;
  /** The path type and value. */
  readonly path: readonly [string, string];
  /** The query parameters it matches, sorted: `[type, name, value]`. */
  readonly queryParams: ReadonlyArray<readonly [string, string, string]>;
  /** The method it matches; empty for any. */
  readonly method: string;
  /** The Services of the rule it belongs to, as the message names them. */
  readonly backends: readonly string[];
}

/** The host key of a route without `hostnames`: it matches every host name of the listener. */
const EVERY_HOST = '';

/** Two routes that tie: the first match of each found alike, and the host names on which they do. */
interface Tie {
  readonly a: RouteMatch;
  readonly b: RouteMatch;
  /** The request part of the match (parent, headers, path, query, method), without the host name. */
  readonly request: string;
  /** The host names both list, sorted; `[EVERY_HOST]` for two routes without any. */
  readonly hosts: string[];
}

/**
 * `CAP002`: two HTTPRoutes of the composition that match the same requests on
 * one parent. Gateway API resolves such a tie by age: the request goes to the
 * oldest route by `creationTimestamp`, then to the first by namespace/name, so
 * which backend gets it depends on which route the cluster created first, and
 * the other route receives none of it. Two `addTenantRoute` calls of one tenant
 * under two names make exactly this.
 *
 * Two matches are the same when every part is equal after Gateway API's
 * defaults: the parent (group, kind, namespace defaulting to the route's, name,
 * `sectionName`, `port`, as given), the path (type `PathPrefix` and value `/`
 * by default), the headers as a set (type `Exact` by default, names in any
 * case), the query parameters and the method; and the two routes have a host
 * name in common, or neither lists any (every host name of the listener).
 *
 * Host names tie only where they are the same name. Gateway API gives a
 * request to the route with the most characters in a matching precise host
 * name, then in a matching host name, before it looks at age (the
 * `HTTPRouteSpec.hostnames` precedence; `hostnames.md`, "Route precedence
 * resolution", by the original host names): for `a.example.com` a route that
 * lists `a.example.com` beats one that lists `*.example.com`, and
 * `*.a.example.com` beats `*.example.com`, so a precise name and a wildcard
 * that covers it, or two wildcards of different length, are not refused. Two
 * routes whose lists share names (`[a.example.com, b.example.com]` and
 * `[b.example.com]`) tie on those names, which the finding names; a shared
 * wildcard ties on the requests under it that neither route lists more
 * precisely. A route without `hostnames` and one with some are not compared
 * (the rule does not read the listener's hostname, with which they could
 * intersect), nor are matches that only overlap (a path prefix inside the
 * other's, a route with and one without `sectionName`): Gateway API's
 * precedence orders those. One finding per pair of routes, the first in the
 * composition's order against each later one, for the first match they share.
 */
export const conflictingRoutes = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'conflicting routes',
  explanation:
    'Two HTTPRoutes that match the same requests on one gateway: Gateway API gives them to the oldest route, so which backend gets them depends on which route the cluster created first.',
  run({ facts }) {
    const tenantHeaders = tenantHeadersOf(facts);
    const first = new Map<string, { match: RouteMatch; index: number }>();
    const ties = new Map<string, Tie>();
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== GATEWAY_API || object.identity.kind !== 'HTTPRoute') return;
      for (const match of matchesOf(object)) {
        const request = JSON.stringify([match.parent, match.headers, match.path, match.queryParams, match.method]);
        for (const host of match.hostnames.length === 0 ? [EVERY_HOST] : match.hostnames) {
          const key = JSON.stringify([request, host]);
          const earlier = first.get(key);
          if (!earlier) {
            first.set(key, { match, index });
            continue;
          }
          if (earlier.index === index) continue;
          const pair = `${earlier.index} ${index}`;
          const tie = ties.get(pair);
          if (!tie) ties.set(pair, { a: earlier.match, b: match, request, hosts: [host] });
          else if (tie.request === request && !tie.hosts.includes(host)) tie.hosts.push(host);
        }
      }
    });
    return [...ties.values()].map((tie) => conflict(tie, tenantHeaders));
  },
});

/** The finding of two routes `a` (declared first) and `b` that match the request of `b` on the host names of `tie`. */
function conflict(tie: Tie, tenantHeaders: ReadonlySet<string>): RuleFinding {
  const { a, b, hosts } = tie;
  const tenantMatch = b.headers.find(([type, name]) => type === 'Exact' && tenantHeaders.has(name));
  const tenant = tenantMatch?.[2];
  const route = (m: RouteMatch) => `${describeIdentity(m.object.identity)} declared by '${m.object.declarer}' (${backendsOf(m)})`;
  const who = tenant === undefined ? 'these requests' : `the requests of tenant '${tenant}'`;
  // host names that only one route lists go on routing; the fix is to drop the shared ones from one route
  const partial = hosts[0] !== EVERY_HOST && (a.hostnames.length !== hosts.length || b.hostnames.length !== hosts.length);
  const shared = hosts.join(', ');
  let fix: string;
  if (partial && tenant !== undefined) {
    fix = `Route tenant '${tenant}' once on ${shared}: drop ${hosts.length === 1 ? 'it' : 'them'} from the 'hostnames' of one of the routes; `
      + "to split its traffic between versions, route it to one addVersionedBackend with 'weights'.";
  } else if (partial) {
    fix = `Drop ${shared} from the hostnames of one of them, give one of them other matches, or merge them into one route whose backendRefs split the traffic by weight.`;
  } else if (tenant !== undefined) {
    fix = `Route tenant '${tenant}' once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; `
      + `to send another path or host name of it elsewhere, give '${b.object.declarer}' its own 'pathPrefix' or 'hostnames'.`;
  } else {
    fix = 'Give one of them other matches or other hostnames, or merge them into one route whose backendRefs split the traffic by weight.';
  }
  return {
    message: `${route(a)} and ${route(b)} both attach to ${b.parent} and match the same requests: ${describeMatch(b, tenantMatch, hosts, partial)}. `
      + 'Gateway API gives a request that routes match alike to one of them, the oldest by creationTimestamp (then the first by namespace/name), '
      + `so which backend gets ${who} depends on which route the cluster created first. ${fix}`,
    paths: [a.object.declarer, b.object.declarer],
  };
}

/** `backend web`, `backends web-blue, web-green`, `no backend`. */
function backendsOf(m: RouteMatch): string {
  if (m.backends.length === 0) return 'no backend';
  return `${m.backends.length === 1 ? 'backend' : 'backends'} ${m.backends.join(', ')}`;
}

/**
 * `tenant 'acme' (header x-tenant-id: acme), path prefix /, every host name of the listener`, naming the tenant of
 * `tenantMatch` and the host names `hosts` (`, which both routes list` when either route lists others too).
 */
function describeMatch(m: RouteMatch, tenantMatch: RouteMatch['headers'][number] | undefined, hosts: readonly string[], partial: boolean): string {
  const parts: string[] = [];
  for (const h of m.headers) {
    const [type, name, value] = h;
    const header = type === 'Exact' ? `header ${name}: ${value}` : `header ${name} matching ${JSON.stringify(value)}`;
    parts.push(h === tenantMatch ? `tenant '${value}' (${header})` : header);
  }
  const [pathType, pathValue] = m.path;
  parts.push(pathType === 'PathPrefix' ? `path prefix ${pathValue}` : pathType === 'Exact' ? `path ${pathValue}` : `path matching ${JSON.stringify(pathValue)}`);
  for (const [type, name, value] of m.queryParams) parts.push(type === 'Exact' ? `query ${name}=${value}` : `query ${name} matching ${JSON.stringify(value)}`);
  if (m.method) parts.push(`method ${m.method}`);
  if (hosts[0] === EVERY_HOST) parts.push('every host name of the listener');
  else parts.push(`${hosts.length === 1 ? 'host name' : 'host names'} ${hosts.join(', ')}${partial ? ', which both routes list' : ''}`);
  return parts.join(', ');
}

/** Every request `object` (an HTTPRoute) matches on each of its parents; none when its spec is not of the shape the API takes. */
function matchesOf(object: ObjectFact): RouteMatch[] {
  const spec = object.manifest?.spec;
  const namespace = effectiveNamespace(object.identity) ?? 'default';
  const hostnames = stringList(spec?.hostnames);
  if (!hostnames) return [];
  const sortedHosts = [...new Set(hostnames.map((h) => h.toLowerCase()))].sort();
  const found: RouteMatch[] = [];
  for (const ref of list(spec?.parentRefs)) {
    const parent = parentOf(ref, namespace);
    if (!parent) continue;
    for (const rule of list(spec?.rules)) {
      const backends = list(rule?.backendRefs).map((r) => (typeof r?.name === 'string' ? r.name : '?'));
      const given = list(rule?.matches);
      for (const m of given.length === 0 ? [{}] : given) {
        const match = normalized(m);
        if (match) found.push({ object, parent, hostnames: sortedHosts, backends, ...match });
      }
    }
  }
  return found;
}

/** A parent reference as the message names it, defaults filled in; undefined when it names nothing. */
function parentOf(ref: any, routeNamespace: string): string | undefined {
  if (typeof ref?.name !== 'string') return undefined;
  const group = typeof ref.group === 'string' ? ref.group : GATEWAY_API;
  const kind = typeof ref.kind === 'string' ? ref.kind : 'Gateway';
  const namespace = typeof ref.namespace === 'string' ? ref.namespace : routeNamespace;
  const what = group === GATEWAY_API || group === '' ? kind : `${group}/${kind}`;
  const section = ref.sectionName === undefined ? '' : ` listener ${String(ref.sectionName)}`;
  const port = ref.port === undefined ? '' : ` port ${String(ref.port)}`;
  return `${what} ${namespace}/${ref.name}${section}${port}`;
}

/** A match with Gateway API's defaults filled in; undefined for one of another shape. */
function normalized(m: any): Pick<RouteMatch, 'headers' | 'path' | 'queryParams' | 'method'> | undefined {
  if (m === null || typeof m !== 'object') return undefined;
  const path = m.path ?? {};
  const pathType = path.type ?? 'PathPrefix';
  const pathValue = path.value ?? '/';
  if (typeof pathType !== 'string' || typeof pathValue !== 'string') return undefined;
  const headers = triples(m.headers, true);
  const queryParams = triples(m.queryParams, false);
  const method = m.method ?? '';
  if (!headers || !queryParams || typeof method !== 'string') return undefined;
  return { headers, path: [pathType, pathValue], queryParams, method };
}

/** `[type, name, value]` of each header or query parameter match, sorted; undefined for another shape. */
function triples(x: unknown, lowercaseNames: boolean): Array<[string, string, string]> | undefined {
  if (x === undefined) return [];
  if (!Array.isArray(x)) return undefined;
  const out: Array<[string, string, string]> = [];
  for (const h of x) {
    const type = h?.type ?? 'Exact';
    if (typeof type !== 'string' || typeof h?.name !== 'string' || typeof h?.value !== 'string') return undefined;
    out.push([type, lowercaseNames ? h.name.toLowerCase() : h.name, h.value]);
  }
  return out.sort((p, q) => (p.join('\0') < q.join('\0') ? -1 : p.join('\0') > q.join('\0') ? 1 : 0));
}

function stringList(x: unknown): string[] | undefined {
  if (x === undefined) return [];
  return Array.isArray(x) && x.every((h) => typeof h === 'string') ? x : undefined;
}

function list(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}
