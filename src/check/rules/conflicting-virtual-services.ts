import type { ObjectFact } from '../../collect/facts';
import { describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { tenantHeadersOf } from './tenant-headers';

const ISTIO = 'networking.istio.io';

/** The gateway name Istio reserves for the sidecars of the mesh: a VirtualService without `gateways` binds it. */
const MESH = 'mesh';

/** The cluster domain Istio appends to a short host name (`web` in namespace `shop`: `web.shop.svc.cluster.local`). */
const CLUSTER_DOMAIN = 'svc.cluster.local';

/** One match of one `http` route of a VirtualService, on one gateway and host, as Istio compares them: defaults filled in. */
interface HttpMatch {
  /** The VirtualService. */
  readonly object: ObjectFact;
  /** Its index in `facts.objects`. */
  readonly index: number;
  /** The index of the `http` route in `spec.http`. */
  readonly http: number;
  /** The `http` route as the message names it: `http route tenant-acme`, `http[1]`. */
  readonly route: string;
  /** Where the route sends the requests, as the message names it: `destination web.edge.svc.cluster.local`. */
  readonly destinations: string;
  /** The gateway it binds, `<namespace>/<name>`, or `mesh`. */
  readonly gateway: string;
  /** The host it binds, lowercase, a short name made fully qualified in the VirtualService's namespace. */
  readonly host: string;
  /** The namespaces it is visible to (`exportTo`); undefined for every namespace. */
  readonly scope?: ReadonlySet<string>;
  /** The match with Istio's defaults filled in and its keys sorted. */
  readonly match: Readonly<Record<string, unknown>>;
}

/** Two `http` routes that tie: the first match of each found alike, and the hosts on which they do. */
interface Tie {
  readonly a: HttpMatch;
  readonly b: HttpMatch;
  /** The gateway and the match, without the host. */
  readonly request: string;
  /** The hosts both bind, in the order found. */
  readonly hosts: string[];
}

/**
 * `CAP002`: two `http` routes of the composition's Istio VirtualServices that
 * bind one host on one gateway and match the same requests: two VirtualServices
 * that do (Istio merges the VirtualServices of a host bound to a gateway, in an
 * order it leaves undefined; for the sidecars of the mesh it merges none, and
 * applies one of them), or two `http` routes of one VirtualService (Istio takes
 * the first that matches, so the other receives nothing: istioctl IST0131).
 * Two `addTenantRoute` calls of one tenant under two names make exactly this,
 * with a gateway (two VirtualServices of host `*`) or without one (two routes
 * of the VirtualService of the backend's host).
 *
 * Compared, after Istio's defaults: the gateway (each of `gateways`, a name
 * without a namespace in the VirtualService's; none is `mesh`; a match's own
 * `gateways` in place of the VirtualService's), the host (lowercase; a short
 * name, without a dot, is the Service of that name in the VirtualService's
 * namespace), and the match: every field but `name`, `statPrefix` and
 * `gateways`, `uri` `prefix: /` when absent (an `http` route without `match`
 * matches every request), header names in any case, empty maps and
 * `ignoreUriCase: false` as absent. Hosts tie only when equal: Envoy sends a
 * request to the most specific host that matches it, so `*` or
 * `*.example.com` beside `a.example.com` is no tie. Two VirtualServices whose
 * `exportTo` share no namespace are not compared. Not refused: two mesh
 * VirtualServices of one host whose matches differ (Istio still applies only
 * one; `addTenantRoute` refuses that itself, `CAP010`, and istioctl reports
 * IST0109), TCP and TLS routes, and delegate VirtualServices (no `hosts`).
 * One finding per pair of `http` routes, the first in the composition's order
 * against each later one, for the first gateway and match they share.
 */
export const conflictingVirtualServices = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'conflicting virtual services',
  explanation:
    'Two Istio VirtualService routes that bind one host on one gateway and match the same requests: Istio merges them in an undefined order, applies one VirtualService of a host to the mesh, or takes the first route of one VirtualService, so one of them receives none of the requests.',
  run({ facts }) {
    const tenantHeaders = tenantHeadersOf(facts);
    const earlier = new Map<string, HttpMatch[]>();
    const ties = new Map<string, Tie>();
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== ISTIO || object.identity.kind !== 'VirtualService') return;
      for (const m of matchesOf(object, index)) {
        const request = JSON.stringify([m.gateway, m.match]);
        const key = JSON.stringify([request, m.host]);
        const holders = earlier.get(key) ?? [];
        const first = holders.find((h) => (h.index !== m.index || h.http !== m.http) && overlap(h.scope, m.scope));
        if (!holders.some((h) => h.index === m.index && h.http === m.http)) earlier.set(key, [...holders, m]);
        if (!first) continue;
        const pair = `${first.index}:${first.http} ${m.index}:${m.http}`;
        const tie = ties.get(pair);
        if (!tie) ties.set(pair, { a: first, b: m, request, hosts: [m.host] });
        else if (tie.request === request && !tie.hosts.includes(m.host)) tie.hosts.push(m.host);
      }
    });
    return [...ties.values()].map((tie) => conflict(tie, tenantHeaders));
  },
});

/** The finding of `http` routes `a` (declared first) and `b` that match the request of `b` on the hosts of `tie`. */
function conflict(tie: Tie, tenantHeaders: ReadonlySet<string>): RuleFinding {
  const { a, b, hosts } = tie;
  const tenantHeader = Object.entries((b.match.headers ?? {}) as Record<string, any>)
    .find(([name, value]) => tenantHeaders.has(name) && typeof value?.exact === 'string' && Object.keys(value).length === 1);
  const tenant: string | undefined = tenantHeader?.[1].exact;
  const who = tenant === undefined ? 'these requests' : `the requests of tenant '${tenant}'`;
  const where = `${hosts.length === 1 ? 'host' : 'hosts'} ${hosts.join(', ')} ${b.gateway === MESH ? 'in the mesh (the sidecars)' : `on gateway ${b.gateway}`}`;
  const matches = `match the same requests: ${describeMatch(b.match, tenantHeader?.[0])}`;
  const same = a.index === b.index;
  const other = same ? `the route '${routeName(b)}'` : `'${b.object.declarer}'`;
  const fix = tenant === undefined
    ? 'Give one of them other matches or other hosts, or merge them into one http route whose destinations split the traffic by weight.'
    : `Route tenant '${tenant}' once: to split its traffic between versions, route it to one addVersionedBackend with 'weights'; `
      + `to send another path or host name of it elsewhere, give ${other} its own 'pathPrefix' or 'hostnames'.`;
  const object = (m: HttpMatch) => `${describeIdentity(m.object.identity)} declared by '${m.object.declarer}'`;
  if (same) {
    return {
      message: `the ${a.route} (${a.destinations}) and the ${b.route} (${b.destinations}) of ${object(a)} both bind ${where} and ${matches}. `
        + `Istio takes the first http route of a VirtualService that matches (istioctl IST0131), so the ${b.route} receives none of ${who}. ${fix}`,
      paths: [a.object.declarer],
    };
  }
  const why = b.gateway === MESH
    ? `Istio does not merge the VirtualServices of one host for the sidecars of the mesh but applies one of them (istioctl IST0109), so which destination gets ${who} depends on which one it applies.`
    : `Istio merges the VirtualServices of one host on a gateway in an order it leaves undefined, so which destination gets ${who} depends on the order it merges them in.`;
  const route = (m: HttpMatch) => `${object(m)} (${m.route}: ${m.destinations})`;
  return {
    message: `${route(a)} and ${route(b)} both bind ${where} and ${matches}. ${why} ${fix}`,
    paths: [a.object.declarer, b.object.declarer],
  };
}

/** `tenant-acme`, `http[1]`: the name the fix can tell the user to change. */
function routeName(m: HttpMatch): string {
  return m.route.startsWith('http route ') ? m.route.slice('http route '.length) : m.route;
}

/** `tenant 'acme' (header x-tenant-id: acme), uri prefix /`, naming the tenant of the header `tenantHeader`. */
function describeMatch(match: Readonly<Record<string, unknown>>, tenantHeader: string | undefined): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(match)) {
    if (field === 'headers' || field === 'queryParams' || field === 'withoutHeaders') {
      const what = field === 'headers' ? 'header' : field === 'queryParams' ? 'query' : 'without header';
      for (const [name, m] of Object.entries(value as Record<string, unknown>)) {
        const text = `${what} ${name}${stringMatch(m, ': ')}`;
        parts.push(name === tenantHeader && field === 'headers' ? `tenant '${(m as any).exact}' (${text})` : text);
      }
    } else {
      parts.push(`${field}${stringMatch(value, ' ')}`);
    }
  }
  return parts.join(', ');
}

/** `: acme` (exact), ` prefix /`, ` matching "^a"` (regex), else the value as JSON. */
function stringMatch(m: unknown, exactSeparator: string): string {
  const entries = m !== null && typeof m === 'object' ? Object.entries(m) : [];
  if (entries.length === 1 && typeof entries[0][1] === 'string') {
    const [type, value] = entries[0];
    if (type === 'exact') return `${exactSeparator}${value}`;
    if (type === 'prefix') return ` prefix ${value}`;
    if (type === 'regex') return ` matching ${JSON.stringify(value)}`;
  }
  return ` ${JSON.stringify(m)}`;
}

/** Every match of every `http` route of `object` (a VirtualService) on each gateway and host it binds; none when its spec is not of the shape the API takes. */
function matchesOf(object: ObjectFact, index: number): HttpMatch[] {
  const spec = object.manifest?.spec;
  const namespace = effectiveNamespace(object.identity) ?? 'default';
  const hosts = strings(spec?.hosts)?.map((h) => qualifiedHost(h, namespace));
  const gateways = strings(spec?.gateways);
  const exportTo = strings(spec?.exportTo);
  if (!hosts || !gateways || !exportTo) return [];
  const scope = exportTo.length === 0 || exportTo.includes('*') ? undefined : new Set(exportTo.map((n) => (n === '.' ? namespace : n)));
  const found: HttpMatch[] = [];
  list(spec?.http).forEach((entry, http) => {
    if (entry === null || typeof entry !== 'object') return;
    const route = typeof entry.name === 'string' ? `http route ${entry.name}` : `http[${http}]`;
    const destinations = destinationsOf(entry);
    const given = list(entry.match);
    for (const m of given.length === 0 ? [{}] : given) {
      const match = normalized(m);
      const own = strings(m?.gateways);
      if (!match || !own) continue;
      const bound = (own.length > 0 ? own : gateways.length > 0 ? gateways : [MESH]).map((g) => qualifiedGateway(g, namespace));
      for (const gateway of new Set(bound)) {
        for (const host of new Set(hosts)) found.push({ object, index, http, route, destinations, gateway, host, scope, match });
      }
    }
  });
  return found;
}

/** A host as Istio resolves it: lowercase; a short name (no dot, not `*`) as the Service of that name in `namespace`. */
function qualifiedHost(host: string, namespace: string): string {
  const h = host.toLowerCase();
  return h === '*' || h.includes('.') ? h : `${h}.${namespace}.${CLUSTER_DOMAIN}`;
}

/** A gateway as Istio resolves it: `mesh`, else `<namespace>/<name>`, a name without a namespace in the VirtualService's. */
function qualifiedGateway(gateway: string, namespace: string): string {
  return gateway === MESH || gateway.includes('/') ? gateway : `${namespace}/${gateway}`;
}

/** True when two `exportTo` scopes (undefined: every namespace) share a namespace. */
function overlap(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === undefined) return b === undefined || b.size > 0;
  if (b === undefined) return a.size > 0;
  return [...a].some((n) => b.has(n));
}

/** `destination web.edge.svc.cluster.local`, `destinations web-blue..., web-green...`, `delegate edge/acme`, `no destination`. */
function destinationsOf(entry: any): string {
  const hosts = list(entry.route).map((r) => {
    const d = r?.destination;
    const host = typeof d?.host === 'string' ? d.host : '?';
    return typeof d?.subset === 'string' ? `${host} subset ${d.subset}` : host;
  });
  if (hosts.length > 0) return `${hosts.length === 1 ? 'destination' : 'destinations'} ${hosts.join(', ')}`;
  if (typeof entry.delegate?.name === 'string') return `delegate ${entry.delegate.namespace ? `${entry.delegate.namespace}/` : ''}${entry.delegate.name}`;
  return 'no destination';
}

/** A match with Istio's defaults filled in and its keys sorted; undefined for one of another shape. */
function normalized(m: unknown): Record<string, unknown> | undefined {
  if (!isMap(m)) return undefined;
  const rest: Record<string, unknown> = { ...m };
  for (const ignored of ['name', 'statPrefix', 'gateways']) delete rest[ignored];
  const fields: Record<string, unknown> = { uri: { prefix: '/' }, ...rest };
  if (fields.ignoreUriCase === false) delete fields.ignoreUriCase;
  for (const map of ['headers', 'withoutHeaders']) {
    const value = fields[map];
    if (isMap(value)) fields[map] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
  }
  // an empty map of headers, query parameters or labels matches as none does
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || (isMap(value) && Object.keys(value).length === 0)) delete fields[field];
  }
  return sorted(fields) as Record<string, unknown>;
}

function isMap(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** `x` with the keys of every map sorted, so equal matches give equal JSON. */
function sorted(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sorted);
  if (!isMap(x)) return x;
  return Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)).map(([k, v]) => [k, sorted(v)]));
}

/** A list of strings (absent: empty); undefined for another shape. */
function strings(x: unknown): string[] | undefined {
  if (x === undefined) return [];
  return Array.isArray(x) && x.every((s) => typeof s === 'string') ? x : undefined;
}

function list(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}
