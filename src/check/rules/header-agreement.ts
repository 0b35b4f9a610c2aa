import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** The contract field the edge's tenant header is published in. */
const TENANT_HEADER_FIELD = 'tenantHeader';

/**
 * `CAP009`: edge and runtime disagree on the tenant header: a tenant route
 * (a reader of the published `tenantHeader`) matches on a header that the
 * contract does not carry, as when the edge renamed its header and the routes
 * still match the old one (a route's `header` option). Names both sides.
 */
export const headerAgreement = defineRule({
  code: ViolationCode.CONTRACT_MISUSE,
  title: 'header agreement',
  explanation: 'The edge and the routes must agree on the tenant header the contract publishes; a route matching another header receives no traffic.',
  run({ facts }) {
    const found: RuleFinding[] = [];
    for (const contract of facts.contracts) {
      const published = contract.publications[0]?.values[TENANT_HEADER_FIELD];
      if (!published || published.deployTime || typeof published.literal !== 'string') continue;
      const header = published.literal.toLowerCase();
      const readers = new Set(contract.readers.filter((r) => r.field === TENANT_HEADER_FIELD).map((r) => r.reader));
      for (const o of facts.objects) {
        if (!readers.has(o.declarer)) continue;
        const matched = matchedHeaders(o);
        if (matched.length === 0 || matched.includes(header)) continue;
        found.push({
          message:
            `${describeIdentity(o.identity)} declared by '${o.declarer}' matches on header ${matched.map((h) => `'${h}'`).join(', ')}, ` +
            `but '${contract.path}' ${contract.version} publishes tenantHeader '${published.literal}', the header the edge sets, so the route would match no request. ` +
            'Match on the published header (drop the route\'s \'header\' option), or publish the header the routes match on.',
          paths: [o.declarer, contract.path],
        });
      }
    }
    return found;
  },
});

/** The header names a Gateway API `HTTPRoute` or an Istio `VirtualService` matches on, lowercase. */
function matchedHeaders(o: ObjectFact): string[] {
  const { group, kind } = o.identity;
  const names = new Set<string>();
  if (group === 'gateway.networking.k8s.io' && kind === 'HTTPRoute') {
    for (const rule of asList(o.manifest?.spec?.rules)) {
      for (const match of asList(rule?.matches)) for (const h of asList(match?.headers)) if (typeof h?.name === 'string') names.add(h.name.toLowerCase());
    }
  } else if (group === 'networking.istio.io' && kind === 'VirtualService') {
    for (const http of asList(o.manifest?.spec?.http)) {
      for (const match of asList(http?.match)) {
        const headers = match?.headers;
        if (headers && typeof headers === 'object') for (const name of Object.keys(headers)) names.add(name.toLowerCase());
      }
    }
  }
  return [...names];
}

function asList(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}
