import { isDNS1123Subdomain } from './apimachinery-names';
import { INVALID_IP, isSloppyIP } from './ip-syntax';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's DNS settings, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names: `validateDNSPolicy` (a policy left
 * out or empty is defaulted to ClusterFirst first) and `validatePodDNSConfig`: a pod of `dnsPolicy: None` needs a
 * `dnsConfig` with at least one nameserver (the API server then returns that error alone); at most 3 nameservers
 * (`MaxDNSNameservers`), each an IP address (`IsValidIP`, `ip-syntax.ts`); at most 32 search domains
 * (`MaxDNSSearchPaths`) of at most 2048 characters together, spaces between them included (`MaxDNSSearchListChars`),
 * each a DNS subdomain once a trailing '.' is cut; an option's name not empty.
 */

const POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;

/** Go's `%#v` of a `[]string`. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** `validateDNSPolicy` and `validatePodDNSConfig`, for the pod spec at `at`. */
export function validatePodDNSConfig(spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  const policyAt = [...at, 'dnsPolicy'];
  if (typeof spec.dnsPolicy === 'string' && spec.dnsPolicy !== '' && !POLICIES.includes(spec.dnsPolicy)) {
    found.push({ at: policyAt, type: 'Unsupported value', value: spec.dnsPolicy, detail: `supported values: ${POLICIES.map((p) => `"${p}"`).join(', ')}`, check: 'dns-policy' });
  }
  const configAt = [...at, 'dnsConfig'];
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    const depends = [policyAt];
    if (config === undefined || config === null) {
      found.push({ at: configAt, type: 'Required value', detail: 'must provide `dnsConfig` when `dnsPolicy` is None', check: 'dns-config', depends });
      return;
    }
    if (!isMap(config)) return;
    const nameservers = config.nameservers;
    if (nameservers === undefined || nameservers === null || (Array.isArray(nameservers) && nameservers.length === 0)) {
      found.push({ at: [...configAt, 'nameservers'], type: 'Required value', detail: 'must provide at least one DNS nameserver when `dnsPolicy` is None', check: 'dns-config', depends });
      return;
    }
  }
  if (!isMap(config)) return;
  const nameservers = strings(config.nameservers);
  if (nameservers) {
    const nsAt = [...configAt, 'nameservers'];
    if (nameservers.length > MAX_NAMESERVERS) {
      found.push({ at: nsAt, type: 'Invalid value', raw: true, value: goStrings(nameservers), detail: `must not have more than ${MAX_NAMESERVERS} nameservers`, check: 'dns-nameservers' });
    }
    nameservers.forEach((ns, i) => {
      if (!isSloppyIP(ns)) found.push({ at: [...nsAt, String(i)], type: 'Invalid value', value: ns, detail: INVALID_IP, check: 'dns-nameservers' });
    });
  }
  const searches = strings(config.searches);
  if (searches) {
    const searchesAt = [...configAt, 'searches'];
    if (searches.length > MAX_SEARCHES) {
      found.push({ at: searchesAt, type: 'Invalid value', raw: true, value: goStrings(searches), detail: `must not have more than ${MAX_SEARCHES} search paths`, check: 'dns-searches' });
    }
    if (Buffer.byteLength(searches.join(' ')) > MAX_SEARCH_CHARS) {
      found.push({ at: searchesAt, type: 'Invalid value', raw: true, value: goStrings(searches), detail: `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`, check: 'dns-searches' });
    }
    searches.forEach((search, i) => {
      // a trailing dot is fine
      const domain = search.endsWith('.') ? search.slice(0, -1) : search;
      for (const msg of isDNS1123Subdomain(domain)) found.push({ at: [...searchesAt, String(i)], type: 'Invalid value', value: domain, detail: msg, check: 'dns-searches' });
    });
  }
  if (Array.isArray(config.options)) {
    config.options.forEach((option, i) => {
      if (!isMap(option)) return;
      if (option.name === undefined || option.name === null || option.name === '') {
        found.push({ at: [...configAt, 'options', String(i)], type: 'Required value', detail: 'must not be empty', check: 'dns-options' });
      }
    });
  }
}

/** The summary and fix of a DNS error (but `dns-config`'s). */
export function explainDNS(e: PodSpecError): { summary: string; fix: string } {
  const d = e.detail ?? '';
  switch (e.check) {
    case 'dns-policy': {
      const near = POLICIES.find((p) => p.toLowerCase() === String(e.value ?? '').toLowerCase());
      return { summary: 'must be "ClusterFirst", "ClusterFirstWithHostNet", "Default" or "None"', fix: near ? `Write "${near}".` : 'Write one of them (case matters), or drop it for ClusterFirst.' };
    }
    case 'dns-nameservers':
      return d.startsWith('must not have more than')
        ? { summary: 'has more than 3 nameservers: the resolver reads at most 3', fix: 'Keep at most 3 nameservers.' }
        : { summary: 'is no IP address', fix: "Write the nameserver's IPv4 or IPv6 address, such as '10.0.0.10' (a name cannot be resolved before a nameserver is known)." };
    case 'dns-searches':
      if (d.startsWith('must not have more than 32')) return { summary: 'has more than 32 search domains', fix: 'Keep at most 32 search domains.' };
      if (d.startsWith('must not have more than')) return { summary: 'is longer than 2048 characters, spaces between the domains included', fix: 'Keep fewer or shorter search domains.' };
      return { summary: 'is no DNS subdomain: lowercase letters, digits, \'-\' and \'.\', at most 253 characters (a trailing \'.\' is fine)', fix: "Write a domain such as 'svc.cluster.local'." };
    default:
      return { summary: 'has no name', fix: "Name the resolver option, such as { name: 'ndots', value: '2' }." };
  }
}
