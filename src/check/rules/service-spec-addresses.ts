import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPortNum } from './apimachinery-names';
import { isIPv6String, isValidCIDR, isValidIP, nonSpecialIP, parseIP } from './ip-syntax';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a Service beside its ports (`service-spec-validity.ts`): its cluster
 * IPs and IP families, external IPs, load balancer fields, traffic policies, health check node port, external name,
 * session affinity config, selector and ports' `appProtocol`. Ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names: `ValidateService`,
 * `ValidateServiceClusterIPsRelatedFields`, `validateServiceExternalTrafficPolicy`,
 * `validateServiceInternalTrafficFieldsValue`, `validateLoadBalancerClassField`, `validateClientIPAffinityConfig`,
 * `ValidateNonSpecialIP`, `validateServicePort` (its `appProtocol`); and `pkg/registry/core/service/storage/alloc.go`
 * `initIPFamilyFields` (a SingleStack policy beside two cluster IPs or two families), which the registry runs before
 * validation. Its 1.31 `trafficDistribution` check is left out (1.30: alpha, gated off, the field dropped).
 *
 * Read after the API server's steps before validation: `SetDefaults_Service` (pkg/apis/core/v1/defaults.go: no `type`
 * is ClusterIP; an externally reachable Service gets `externalTrafficPolicy: Cluster`; a ClusterIP, NodePort or
 * LoadBalancer one `internalTrafficPolicy: Cluster`; a LoadBalancer `allocateLoadBalancerNodePorts: true`; ClientIP
 * affinity without a timeout 10800 seconds) and `NormalizeClusterIPs` (pkg/registry/core/service/strategy.go: on create,
 * a `clusterIP` without `clusterIPs` is copied to it). What only the cluster knows is not judged: whether it is
 * dual-stack (RequireDualStack on a single-stack cluster), the service CIDRs a cluster IP must fall in, the health
 * check node port the allocator gives. `loadBalancerIP` is not validated by the API server (deprecated), so neither
 * here. Two ports of one port and protocol are server-side apply's duplicate key, refused before validation.
 */

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** `ports.KubeletPort`, which a LoadBalancer may not expose. */
const KUBELET_PORT = 10250;
/** `core.MaxClientIPServiceAffinitySeconds`. */
const MAX_AFFINITY_SECONDS = 86400;

function supported(values: readonly string[]): string {
  return `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/** A string field as Go reads it: "" when missing or of another JSON type (scalar-types names a wrong type). */
function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A Go `[]string` as `%#v` prints it. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** The errors of the Service `manifest` beside its ports', in the order the API server finds them. */
export function serviceAddressErrors(manifest: unknown): PodSpecError[] {
  if (!isMap(manifest)) return [];
  const spec = manifest.spec === undefined || manifest.spec === null ? {} : manifest.spec;
  if (!isMap(spec)) return [];
  const found: PodSpecError[] = [];
  const type = spec.type === undefined || spec.type === null || spec.type === '' ? 'ClusterIP' : str(spec.type);
  const clusterIP = str(spec.clusterIP);
  // NormalizeClusterIPs on create
  const clusterIPs = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0 ? strings(spec.clusterIPs) : clusterIP ? [clusterIP] : [];
  const clusterIPsGiven = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0;
  const headless = clusterIPs.length === 1 && clusterIPs[0] === 'None';
  const ipFamilies = strings(spec.ipFamilies);
  const policy = spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null ? undefined : str(spec.ipFamilyPolicy);
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const ipsAt = clusterIPsGiven ? ['spec', 'clusterIPs'] : ['spec', 'clusterIP'];

  // ValidateService, by type
  if (type === 'LoadBalancer') {
    ports.forEach((p, i) => {
      if (isMap(p) && p.port === KUBELET_PORT) {
        found.push({ at: ['spec', 'ports', String(i)], field: ['spec', 'ports', String(i), 'port'], type: 'Invalid value', value: KUBELET_PORT, detail: `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`, check: 'service-load-balancer', depends: [['spec', 'type']] });
      }
    });
  }
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    found.push({ at: ['spec', 'clusterIPs', '0'], field: ipsAt, type: 'Invalid value', value: 'None', detail: `may not be set to 'None' for ${type} services`, check: 'service-cluster-ip', depends: [['spec', 'type']] });
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0) found.push({ at: ['spec', 'clusterIPs'], field: ipsAt, type: 'Forbidden', detail: 'may not be set for ExternalName services', check: 'service-external-name', depends: [['spec', 'type']] });
    if (ipFamilies.length > 0) found.push({ at: ['spec', 'ipFamilies'], type: 'Forbidden', detail: 'may not be set for ExternalName services', check: 'service-external-name', depends: [['spec', 'type']] });
    if (policy !== undefined) found.push({ at: ['spec', 'ipFamilyPolicy'], type: 'Forbidden', detail: 'may not be set for ExternalName services', check: 'service-external-name', depends: [['spec', 'type']] });
    // a CNAME may end with a dot, as a fully qualified name
    const cname = str(spec.externalName).replace(/\.$/, '');
    if (cname.length > 0) {
      for (const msg of isDNS1123Subdomain(cname)) found.push({ at: ['spec', 'externalName'], type: 'Invalid value', value: cname, detail: msg, check: 'service-external-name' });
    } else {
      found.push({ at: ['spec', 'externalName'], type: 'Required value', check: 'service-external-name', depends: [['spec', 'type']] });
    }
  }

  // validateServicePort: appProtocol
  ports.forEach((p, i) => {
    if (!isMap(p) || typeof p.appProtocol !== 'string') return;
    for (const msg of isQualifiedName(p.appProtocol)) found.push({ at: ['spec', 'ports', String(i), 'appProtocol'], type: 'Invalid value', value: p.appProtocol, detail: msg, check: 'service-app-protocol' });
  });

  // unversionedvalidation.ValidateLabels: both messages at spec.selector
  if (isMap(spec.selector)) {
    for (const [key, value] of Object.entries(spec.selector)) {
      for (const msg of isQualifiedName(key)) found.push({ at: ['spec', 'selector'], field: ['spec', 'selector', key], type: 'Invalid value', value: key, detail: msg, check: 'service-selector' });
      if (typeof value !== 'string') continue;
      for (const msg of isValidLabelValue(value)) found.push({ at: ['spec', 'selector'], field: ['spec', 'selector', key], type: 'Invalid value', value, detail: msg, check: 'service-selector' });
    }
  }

  // session affinity: a ClientIP timeout (defaulted when left out), no config beside None
  const affinity = spec.sessionAffinity === undefined || spec.sessionAffinity === null || spec.sessionAffinity === '' ? 'None' : str(spec.sessionAffinity);
  const config = spec.sessionAffinityConfig;
  if (affinity === 'ClientIP' && isMap(config) && isMap(config.clientIP) && typeof config.clientIP.timeoutSeconds === 'number') {
    const timeout = config.clientIP.timeoutSeconds;
    if (timeout <= 0 || timeout > MAX_AFFINITY_SECONDS) {
      found.push({ at: ['spec', 'sessionAffinityConfig', 'clientIP', 'timeoutSeconds'], type: 'Invalid value', value: timeout, detail: `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`, check: 'service-affinity-config' });
    }
  } else if (affinity === 'None' && config !== undefined && config !== null) {
    found.push({ at: ['spec', 'sessionAffinityConfig'], type: 'Forbidden', detail: 'must not be set when session affinity is None', check: 'service-affinity-config', depends: [['spec', 'sessionAffinity']] });
  }

  if (type !== 'ExternalName') clusterIPErrors(clusterIP, clusterIPs, clusterIPsGiven, ipFamilies, policy, found);

  // external IPs: an address, and none of the special ones
  strings(spec.externalIPs).forEach((ip, i) => {
    const at = ['spec', 'externalIPs', String(i)];
    const msgs = isValidIP(ip);
    for (const msg of msgs.length > 0 ? msgs : nonSpecialIP(ip)) found.push({ at, type: 'Invalid value', value: ip, detail: msg, check: 'service-external-ip' });
  });

  // load balancer source ranges (the API server names the field with a capital L)
  const ranges = strings(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    if (type !== 'LoadBalancer') {
      found.push({ at: ['spec', 'LoadBalancerSourceRanges'], field: ['spec', 'loadBalancerSourceRanges'], type: 'Forbidden', detail: "may only be used when `type` is 'LoadBalancer'", check: 'service-load-balancer', depends: [['spec', 'type']] });
    }
    ranges.forEach((range, i) => {
      // space-padded values are allowed, for the annotation's sake
      const value = range.trim();
      for (const msg of isValidCIDR(value)) found.push({ at: ['spec', 'LoadBalancerSourceRanges', String(i)], field: ['spec', 'loadBalancerSourceRanges', String(i)], type: 'Invalid value', value, detail: msg, check: 'service-source-range' });
    });
  }
  if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && type !== 'LoadBalancer') {
    found.push({ at: ['spec', 'allocateLoadBalancerNodePorts'], type: 'Forbidden', detail: "may only be used when `type` is 'LoadBalancer'", check: 'service-load-balancer', depends: [['spec', 'type']] });
  }
  if (typeof spec.loadBalancerClass === 'string') {
    if (type === 'LoadBalancer') {
      for (const msg of isQualifiedName(spec.loadBalancerClass)) found.push({ at: ['spec', 'loadBalancerClass'], type: 'Invalid value', value: spec.loadBalancerClass, detail: msg, check: 'service-load-balancer' });
    } else {
      found.push({ at: ['spec', 'loadBalancerClass'], type: 'Forbidden', detail: "may only be used when `type` is 'LoadBalancer'", check: 'service-load-balancer', depends: [['spec', 'type']] });
    }
  }

  // validateServiceExternalTrafficPolicy, after defaulting (a missing policy of a reachable Service is Cluster)
  const reachable = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && strings(spec.externalIPs).length > 0);
  const external = str(spec.externalTrafficPolicy);
  if (!reachable) {
    if (external !== '') found.push({ at: ['spec', 'externalTrafficPolicy'], type: 'Invalid value', value: external, detail: 'may only be set for externally-accessible services', check: 'service-traffic-policy', depends: [['spec', 'type'], ['spec', 'externalIPs']] });
  } else if (external !== '' && !TRAFFIC_POLICIES.includes(external)) {
    found.push({ at: ['spec', 'externalTrafficPolicy'], type: 'Unsupported value', value: external, detail: supported(TRAFFIC_POLICIES), check: 'service-traffic-policy' });
  }
  const healthCheck = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  const needsHealthCheck = type === 'LoadBalancer' && external === 'Local';
  if (!needsHealthCheck && healthCheck !== 0) {
    found.push({ at: ['spec', 'healthCheckNodePort'], type: 'Invalid value', value: healthCheck, detail: "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'", check: 'service-health-check', depends: [['spec', 'type'], ['spec', 'externalTrafficPolicy']] });
  } else if (needsHealthCheck && healthCheck !== 0) {
    for (const msg of isValidPortNum(healthCheck)) found.push({ at: ['spec', 'healthCheckNodePort'], type: 'Invalid value', value: healthCheck, detail: msg, check: 'service-health-check' });
  }

  // validateServiceInternalTrafficFieldsValue (a missing policy is defaulted)
  const internal = spec.internalTrafficPolicy;
  if (typeof internal === 'string' && !TRAFFIC_POLICIES.includes(internal)) {
    found.push({ at: ['spec', 'internalTrafficPolicy'], type: 'Unsupported value', value: internal, detail: supported(TRAFFIC_POLICIES), check: 'service-traffic-policy' });
  }
  return found;
}

/** `initIPFamilyFields`' policy check and `ValidateServiceClusterIPsRelatedFields`, for a Service that is no ExternalName. */
function clusterIPErrors(
  clusterIP: string, clusterIPs: readonly string[], clusterIPsGiven: boolean,
  ipFamilies: readonly string[], policy: string | undefined, found: PodSpecError[],
): void {
  const ipsAt = clusterIPsGiven ? ['spec', 'clusterIPs'] : ['spec', 'clusterIP'];
  if (policy === 'SingleStack') {
    if (clusterIPs.length === 2) found.push({ at: ['spec', 'ipFamilyPolicy'], type: 'Invalid value', value: policy, detail: "must be RequireDualStack or PreferDualStack when multiple 'clusterIPs' are specified", check: 'service-ip-family', depends: [ipsAt] });
    if (ipFamilies.length === 2) found.push({ at: ['spec', 'ipFamilyPolicy'], type: 'Invalid value', value: policy, detail: "must be RequireDualStack or PreferDualStack when multiple 'ipFamilies' are specified", check: 'service-ip-family', depends: [['spec', 'ipFamilies']] });
  }
  if (clusterIP !== '') {
    if (clusterIPs[0] !== clusterIP) found.push({ at: ['spec', 'clusterIPs'], type: 'Invalid value', value: goStrings(clusterIPs), raw: true, detail: 'first value must match `clusterIP`', check: 'service-cluster-ip', depends: [['spec', 'clusterIP']] });
  } else if (clusterIPs.length > 0) {
    found.push({ at: ['spec', 'clusterIPs'], type: 'Invalid value', value: goStrings(clusterIPs), raw: true, detail: 'must be empty when `clusterIP` is not specified', check: 'service-cluster-ip', depends: [['spec', 'clusterIP']] });
  }
  const seen = new Set<string>();
  ipFamilies.forEach((family, i) => {
    const at = ['spec', 'ipFamilies', String(i)];
    if (!IP_FAMILIES.includes(family)) found.push({ at, type: 'Unsupported value', value: family, detail: supported(IP_FAMILIES), check: 'service-ip-family' });
    if (seen.has(family)) found.push({ at, type: 'Duplicate value', value: family, check: 'service-ip-family' });
    seen.add(family);
  });
  if (policy !== undefined && !IP_FAMILY_POLICIES.includes(policy)) {
    found.push({ at: ['spec', 'ipFamilyPolicy'], type: 'Unsupported value', value: policy, detail: supported(IP_FAMILY_POLICIES), check: 'service-ip-family' });
  }
  let invalid = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalid = true;
        found.push({ at: ['spec', 'clusterIPs'], type: 'Invalid value', value: goStrings(clusterIPs), raw: true, detail: "'None' must be the first and only value", check: 'service-cluster-ip' });
      }
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length > 0) invalid = true;
    const at = clusterIPsGiven ? ['spec', 'clusterIPs', String(i)] : ['spec', 'clusterIPs', '0'];
    for (const msg of msgs) found.push({ at, field: clusterIPsGiven ? undefined : ['spec', 'clusterIP'], type: 'Invalid value', value: ip, detail: msg, check: 'service-cluster-ip' });
  });
  if (clusterIPs.length > 2) found.push({ at: ['spec', 'clusterIPs'], type: 'Invalid value', value: goStrings(clusterIPs), raw: true, detail: 'may only hold up to 2 values', check: 'service-cluster-ip' });
  if (invalid) return;
  if (clusterIPs.length > 1) {
    const v6 = clusterIPs.filter(isIPv6String).length;
    if (v6 === 0 || v6 === clusterIPs.length) found.push({ at: ['spec', 'clusterIPs'], type: 'Invalid value', value: goStrings(clusterIPs), raw: true, detail: 'may specify no more than one IP for each IP family', check: 'service-cluster-ip' });
  }
  const headless = clusterIPs.length === 1 && clusterIPs[0] === 'None';
  if (!headless && clusterIPs.length > 0 && ipFamilies.length > 0) {
    clusterIPs.slice(0, ipFamilies.length).forEach((ip, i) => {
      const v6 = parseIP(ip) !== undefined && isIPv6String(ip);
      const want = ipFamilies[i] === 'IPv4' && v6 ? 'IPv4' : ipFamilies[i] === 'IPv6' && !v6 ? 'IPv6' : undefined;
      if (want === undefined) return;
      const at = clusterIPsGiven ? ['spec', 'clusterIPs', String(i)] : ['spec', 'clusterIPs', '0'];
      found.push({ at, field: clusterIPsGiven ? undefined : ['spec', 'clusterIP'], type: 'Invalid value', value: ip, detail: `expected an ${want} value as indicated by \`ipFamilies[${i}]\``, check: 'service-ip-family', depends: [['spec', 'ipFamilies', String(i)]] });
    });
  }
}

/** What the Service rule says about an error of `serviceAddressErrors`: what is wrong, and what to write instead. */
export function explainServiceAddress(e: PodSpecError): { summary: string; fix: string } | undefined {
  const detail = e.detail ?? '';
  switch (e.check) {
    case 'service-cluster-ip':
      if (detail.startsWith("may not be set to 'None'")) return { summary: 'is None (a headless Service) on a Service that opens node ports, which need a cluster IP', fix: "Drop clusterIP: 'None', or use type: 'ClusterIP'." };
      if (detail === INVALID_IP_DETAIL) return { summary: 'must be an IP address (or None, for a headless Service)', fix: 'Write an address of the cluster\'s service range, such as 10.96.0.10, or drop it to have one allocated.' };
      if (detail.startsWith('first value')) return { summary: "must start with the Service's clusterIP", fix: 'Give clusterIPs the clusterIP first, or drop one of them.' };
      if (detail.startsWith('must be empty')) return { summary: 'is set without clusterIP: the API server takes clusterIPs only beside clusterIP, its first value', fix: 'Write clusterIP too, the first of clusterIPs.' };
      if (detail.startsWith("'None'")) return { summary: 'holds None beside addresses: a headless Service has None alone', fix: "Write clusterIPs: ['None'], or addresses only." };
      return { summary: 'must hold at most one IPv4 and one IPv6 address', fix: 'Keep one address of each family.' };
    case 'service-ip-family':
      if (e.type === 'Unsupported value') return { summary: e.at[1] === 'ipFamilies' ? 'must be "IPv4" or "IPv6"' : 'must be "SingleStack", "PreferDualStack" or "RequireDualStack"', fix: 'Write one of them (case matters), or drop it.' };
      if (e.type === 'Duplicate value') return { summary: 'names a family twice: a Service has at most one address of each family', fix: 'Drop the repeated family.' };
      if (detail.startsWith('expected an')) return { summary: `is no ${detail.includes('IPv4') ? 'IPv4' : 'IPv6'} address, the family ipFamilies gives it`, fix: 'Order ipFamilies as clusterIPs, or write an address of that family.' };
      return { summary: 'is SingleStack beside two addresses or two families', fix: "Write ipFamilyPolicy: 'PreferDualStack' (or 'RequireDualStack'), or keep one address and family." };
    case 'service-external-ip':
      return detail === INVALID_IP_DETAIL
        ? { summary: 'must be an IP address', fix: 'Write the address, such as 203.0.113.10 (no port, no CIDR).' }
        : { summary: `${detail}: an external IP is an address nodes receive traffic on`, fix: 'Use a routable address.' };
    case 'service-source-range':
      return { summary: 'must be a CIDR: an address, \'/\' and a prefix length', fix: 'Write it as 203.0.113.0/24 (or 203.0.113.10/32 for one address).' };
    case 'service-load-balancer':
      if (e.type === 'Forbidden') return { summary: 'is set on a Service that is no LoadBalancer', fix: "Write type: 'LoadBalancer', or drop it." };
      if (detail.includes('kubelet')) return { summary: 'is 10250, the kubelet\'s port, which a LoadBalancer may not expose', fix: 'Expose another port.' };
      return { summary: 'must be a qualified name: an optional DNS subdomain and \'/\', then at most 63 letters, digits, \'-\', \'_\' and \'.\'', fix: 'Write a class such as example.com/internal-vip.' };
    case 'service-traffic-policy':
      if (e.type === 'Unsupported value') return { summary: 'must be "Cluster" or "Local"', fix: 'Write one of them (case matters), or drop it for Cluster.' };
      return { summary: 'is set on a Service reachable only inside the cluster (a ClusterIP without externalIPs, or an ExternalName)', fix: "Drop externalTrafficPolicy, or write type: 'NodePort' or 'LoadBalancer'." };
    case 'service-health-check':
      return detail.startsWith('may only')
        ? { summary: 'is set on a Service that is not a LoadBalancer with externalTrafficPolicy: Local, which alone has a health check', fix: "Drop healthCheckNodePort, or write type: 'LoadBalancer' and externalTrafficPolicy: 'Local'." }
        : { summary: 'must be a port number from 1 to 65535', fix: 'Drop it to have one allocated.' };
    case 'service-external-name':
      if (e.type === 'Forbidden') return { summary: 'is set on an ExternalName Service, which is a DNS alias without an address', fix: 'Drop it.' };
      if (e.type === 'Required value') return { summary: 'is missing: an ExternalName Service is a DNS alias of that name', fix: "Write externalName: 'db.example.com'." };
      return { summary: 'must be a DNS-1123 subdomain of at most 253 characters (lowercase letters, digits, \'-\' and \'.\'); a trailing dot is allowed', fix: 'Write the host name the alias points to, such as db.example.com (no scheme, port or path).' };
    case 'service-affinity-config':
      return e.type === 'Forbidden'
        ? { summary: 'is set while sessionAffinity is None', fix: "Write sessionAffinity: 'ClientIP', or drop sessionAffinityConfig." }
        : { summary: `must be from 1 to ${MAX_AFFINITY_SECONDS} seconds (a day)`, fix: 'Write a timeout from 1 to 86400, or drop it for 10800.' };
    case 'service-selector':
      return { summary: 'is no label selector entry: a key must be a qualified name and a value a label value (at most 63 letters, digits, \'-\', \'_\' and \'.\')', fix: "Select the pods' labels as they are written on the pods." };
    case 'service-app-protocol':
      return { summary: 'must be a qualified name, such as http, kubernetes.io/h2c or example.com/custom', fix: 'Write a protocol name without spaces or other characters.' };
    default:
      return undefined;
  }
}

const INVALID_IP_DETAIL = isValidIP('')[0];
