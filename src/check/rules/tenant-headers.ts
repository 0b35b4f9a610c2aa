import type { Facts } from '../../collect/facts';
import { DEFAULT_TENANT_HEADER, TENANT_HEADER_FIELD } from '../../routing/tenant-header';

/**
 * The header names tenant routes match the tenant on, lowercase: the default and every literal `tenantHeader`
 * a contract of the composition publishes. A route's exact match on one of them names the tenant in a message.
 */
export function tenantHeadersOf(facts: Facts): ReadonlySet<string> {
  const names = new Set([DEFAULT_TENANT_HEADER]);
  for (const contract of facts.contracts) {
    const published = contract.publications[0]?.values[TENANT_HEADER_FIELD];
    if (published && !published.deployTime && typeof published.literal === 'string') names.add(published.literal.toLowerCase());
  }
  return names;
}
