import { isDNS1123Label, isValidPortName, isValidPortNum } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { podSpecFindings } from './pod-spec-validity';
import { fieldWriters } from './scalar-types';
import { explainServiceAddress, serviceAddressErrors } from './service-spec-addresses';
import { appendAll } from '../../private/append';
import { isMap } from '../../private/maps';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/*
 * What the Kubernetes 1.30 API server refuses in a Service's ports, type and session affinity, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` (`ValidateService`, `validateServicePort`, `ValidatePortNumOrName`) at the
 * commit `pod-spec-errors.ts` names, after `SetDefaults_Service` (pkg/apis/core/v1/defaults.go): a missing `type` is
 * ClusterIP, `sessionAffinity` None, a port's `protocol` TCP, and a `targetPort` left out or 0 is the port.
 *
 * A Service without ports is refused (`spec.ports: Required value`) unless it is headless or an ExternalName; ports a
 * later step adds (a `Contribution`) are in the merged manifest, ports a `RuntimeWriter` writes leave it unjudged.
 *
 * Its cluster IPs and IP families, external IPs, source ranges, traffic policies and the load balancer's fields are
 * `service-spec-addresses.ts`'. Left out: a port without a name beside others (`merged-contradictions` names it), two
 * ports of one port and protocol (server-side apply's duplicate key), and what the API server allocates rather than
 * validates: a node port outside the
 * cluster's `--service-node-port-range` (30000-32767 by default; validation takes any number, the allocator refuses
 * it with "provided port is not in the valid range") and a node port another Service holds.
 */

/** Where a not-found or not-supported value is quoted from: Go's `sets.List`, sorted. */
const PROTOCOLS = '"SCTP", "TCP", "UDP"';
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];

/** The errors the API server returns for the Service `manifest`, in the order it finds them. */
export function serviceErrors(manifest: unknown): PodSpecError[] {
  if (!isMap(manifest)) return [];
  // a Service without a spec is validated as an empty one (and refused for its missing ports)
  const spec = manifest.spec === undefined || manifest.spec === null ? {} : manifest.spec;
  if (!isMap(spec)) return [];
  const found: PodSpecError[] = [];
  const type = typeof spec.type === 'string' && spec.type !== '' ? spec.type : spec.type === undefined || spec.type === null || spec.type === '' ? 'ClusterIP' : undefined;
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  // ValidateService: ports are required but on a headless Service or an ExternalName; a `ports` of another JSON type is scalar-types'
  const noPorts = spec.ports === undefined || spec.ports === null || (Array.isArray(spec.ports) && spec.ports.length === 0);
  const headless = isHeadless(spec);
  if (noPorts && type !== undefined && type !== 'ExternalName' && headless === false) {
    found.push({ at: ['spec', 'ports'], type: 'Required value', check: 'service-ports', depends: [['spec', 'type'], ['spec', 'clusterIP'], ['spec', 'clusterIPs']] });
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    if (!isMap(p)) return;
    const pAt = ['spec', 'ports', String(i)];
    // validateServicePort; a missing name beside other ports is merged-contradictions'
    if (typeof p.name === 'string' && p.name !== '') {
      for (const msg of isDNS1123Label(p.name)) found.push({ at: [...pAt, 'name'], type: 'Invalid value', value: p.name, detail: msg, check: 'service-port-name' });
      if (names.has(p.name)) found.push({ at: [...pAt, 'name'], type: 'Duplicate value', value: p.name, check: 'service-port-name' });
      else names.add(p.name);
    }
    const port = typeof p.port === 'number' ? p.port : p.port === undefined || p.port === null ? 0 : undefined;
    if (port !== undefined) for (const msg of isValidPortNum(port)) found.push({ at: [...pAt, 'port'], type: 'Invalid value', value: port, detail: msg, check: 'service-port' });
    if (typeof p.protocol === 'string' && p.protocol !== '' && !['TCP', 'UDP', 'SCTP'].includes(p.protocol)) {
      found.push({ at: [...pAt, 'protocol'], type: 'Unsupported value', value: p.protocol, detail: `supported values: ${PROTOCOLS}`, check: 'service-protocol' });
    }
    // ValidatePortNumOrName of the targetPort, defaulted to the port when left out, 0 or ""
    const target = p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '' ? port : p.targetPort;
    if (typeof target === 'number') {
      for (const msg of isValidPortNum(target)) found.push({ at: [...pAt, 'targetPort'], type: 'Invalid value', value: target, detail: msg, check: 'service-target-port', depends: [[...pAt, 'port']] });
    } else if (typeof target === 'string') {
      for (const msg of isValidPortName(target)) found.push({ at: [...pAt, 'targetPort'], type: 'Invalid value', value: target, detail: msg, check: 'service-target-port' });
    }
  });
  if (typeof spec.sessionAffinity === 'string' && spec.sessionAffinity !== '' && !AFFINITIES.includes(spec.sessionAffinity)) {
    found.push({ at: ['spec', 'sessionAffinity'], type: 'Unsupported value', value: spec.sessionAffinity, detail: `supported values: ${AFFINITIES.map((a) => JSON.stringify(a)).join(', ')}`, check: 'service-session-affinity' });
  }
  if (type !== undefined && !TYPES.includes(type)) {
    found.push({ at: ['spec', 'type'], type: 'Unsupported value', value: type, detail: `supported values: ${TYPES.map((t) => JSON.stringify(t)).join(', ')}`, check: 'service-type' });
  }
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (isMap(p) && typeof p.nodePort === 'number' && p.nodePort !== 0) {
        found.push({ at: ['spec', 'ports', String(i), 'nodePort'], type: 'Forbidden', detail: "may not be used when `type` is 'ClusterIP'", check: 'service-node-port', depends: [['spec', 'type']] });
      }
    });
  }
  // duplicate node ports, by (protocol, nodePort) with the protocol defaulted to TCP
  const nodePorts = new Map<string, number>();
  ports.forEach((p, i) => {
    if (!isMap(p) || typeof p.nodePort !== 'number' || p.nodePort === 0) return;
    const protocol = p.protocol === undefined || p.protocol === null || p.protocol === '' ? 'TCP' : typeof p.protocol === 'string' ? p.protocol : undefined;
    if (protocol === undefined) return;
    const key = `${protocol}/${p.nodePort}`;
    const first = nodePorts.get(key);
    if (first !== undefined) {
      found.push({ at: ['spec', 'ports', String(i), 'nodePort'], type: 'Duplicate value', value: p.nodePort, check: 'service-node-port', depends: [['spec', 'ports', String(first), 'nodePort']] });
    } else {
      nodePorts.set(key, i);
    }
  });
  return found;
}

/**
 * `isHeadlessService` after the registry's `NormalizeClusterIPs` (pkg/registry/core/service/strategy.go), which on
 * create copies a `clusterIP` into an empty `clusterIPs`: true when the cluster IPs are just "None", undefined when
 * they are of the wrong JSON type (scalar-types' to name).
 */
function isHeadless(spec: Record<string, unknown>): boolean | undefined {
  const { clusterIP, clusterIPs } = spec;
  if (clusterIPs !== undefined && clusterIPs !== null && !Array.isArray(clusterIPs)) return undefined;
  if (Array.isArray(clusterIPs) && clusterIPs.length > 0) return clusterIPs.length === 1 && clusterIPs[0] === 'None';
  if (clusterIP !== undefined && clusterIP !== null && typeof clusterIP !== 'string') return undefined;
  return clusterIP === 'None';
}

/** Where `podSpecFindings` reads a Service: its own errors, not a pod spec's. */
const SERVICE_PLACE = { at: ['spec'], isPod: false } as const;

/** Every error the API server returns for the Service `manifest`: its ports', then the rest of its spec's. */
function allServiceErrors(manifest: unknown): PodSpecError[] {
  return [...serviceErrors(manifest), ...serviceAddressErrors(manifest)];
}

/**
 * `CAP010`: a Service the Kubernetes 1.30 API server refuses for its ports (a name that is no DNS-1123 label or
 * repeats, a port number out of range, a protocol other than TCP, UDP and SCTP, a target port that is no port number
 * or IANA port name), its type or session affinity, a node port on a ClusterIP Service or twice in one Service, or no
 * ports at all on a Service that is neither headless nor an ExternalName. Server-side apply accepts
 * these, so the apply fails at deploy time. A `targetPort` that names no container port is accepted by the API server
 * (the endpoints controller resolves it per pod) and is not refused here.
 */
export const serviceSpecValidity = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'service spec validity',
  explanation: "A Service must pass the API server's validation (its ports, type, cluster IPs and families, external IPs, load balancer fields, traffic policies, external name, selector); server-side apply accepts what validation refuses, so the apply fails at deploy time.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    const found: RuleFinding[] = [];
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== '' || object.identity.kind !== 'Service') return;
      appendAll(found, podSpecFindings(facts, index, SERVICE_PLACE, writersAt, { errors: allServiceErrors, explain: explainServiceAddress }));
    });
    return found;
  },
});
