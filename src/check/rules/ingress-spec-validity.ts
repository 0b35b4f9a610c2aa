import { ingressErrors } from './ingress-errors';
import type { PodSpecError } from './pod-spec-errors';
import { podSpecFindings } from './pod-spec-validity';
import { fieldWriters } from './scalar-types';
import { appendAll } from '../../private/append';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** Where `podSpecFindings` reads an Ingress: its own errors, not a pod spec's. */
const INGRESS_PLACE = { at: ['spec'], isPod: false } as const;

/** What the rule says about an error of `ingressErrors`: what is wrong, and what to write instead. */
export function explainIngress(e: PodSpecError): { summary: string; fix: string } | undefined {
  const detail = e.detail ?? '';
  switch (e.check) {
    case 'ingress-rules':
      return { summary: 'has neither rules nor a defaultBackend, so it routes nothing', fix: 'Add a rule (cdk8s-plus: ingress.addRule(\'/\', IngressBackend.fromService(service))) or a defaultBackend.' };
    case 'ingress-host':
      if (detail.startsWith('must be a DNS name')) return { summary: 'is an IP address: a rule matches the Host header by DNS name', fix: 'Write the DNS name clients use, or leave host out to match every host.' };
      return { summary: "must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.'), or '*.' and one: a wildcard only as the whole first label", fix: 'Write a host such as shop.example.com or *.example.com, without a scheme, port or path.' };
    case 'ingress-tls':
      if (e.at[e.at.length - 1] === 'secretName') return { summary: "must be a Secret's name: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)", fix: 'Name the Secret that holds the certificate (type kubernetes.io/tls) as it is named, such as shop-tls.' };
      return { summary: "must be a DNS-1123 subdomain, or '*.' and one (a wildcard only as the whole first label)", fix: 'Write the host name the certificate covers, such as shop.example.com or *.example.com.' };
    case 'ingress-class':
      if (detail.startsWith('must match')) return { summary: 'names another class than spec.ingressClassName, which replaces this annotation', fix: 'Drop the kubernetes.io/ingress.class annotation, or give it the same class.' };
      return { summary: "must be a DNS-1123 subdomain: the name of an IngressClass (lowercase letters, digits, '-' and '.')", fix: 'Name the IngressClass as it is in the cluster, such as nginx.' };
    case 'ingress-path':
      if (e.type === 'Required value' && e.at[e.at.length - 1] === 'paths') return { summary: 'is missing or empty: an http rule needs at least one path', fix: "Add a path, such as { path: '/', pathType: 'Prefix', backend }." };
      if (e.type === 'Required value') return { summary: 'is missing: every path of an Ingress (networking.k8s.io/v1) needs a pathType', fix: "Write pathType: 'Prefix' (or 'Exact', or 'ImplementationSpecific' for the controller's own matching)." };
      if (e.type === 'Unsupported value') return { summary: 'must be "Exact", "Prefix" or "ImplementationSpecific"', fix: 'Write one of them (case matters).' };
      if (detail === 'must be an absolute path') return { summary: "must be an absolute path, starting with '/'", fix: 'Write the path with a leading \'/\'.' };
      return { summary: `${detail} in a path of pathType Exact or Prefix, which is matched as it is written`, fix: "Write the path without '//', '.' or '..' segments or an encoded '/', or use pathType: 'ImplementationSpecific'." };
    case 'ingress-backend':
      if (detail === 'cannot set both resource and service backends') return { summary: 'names both a service and a resource', fix: 'Keep one of service and resource.' };
      if (detail === 'resource or service backend is required') return { summary: 'names neither a service nor a resource', fix: 'Give it service: { name, port: { number } } (cdk8s-plus: IngressBackend.fromService(service)).' };
      if (detail === 'cannot set both port name & port number') return { summary: 'has both a name and a number', fix: 'Keep one of port.name and port.number.' };
      if (detail === 'port name or number is required') return { summary: 'is missing: a service backend names the Service\'s port by name or number', fix: 'Write port: { number: 80 } or port: { name: \'http\' }.' };
      if (e.at[e.at.length - 1] === 'name' && e.at[e.at.length - 2] === 'service') {
        return e.type === 'Required value'
          ? { summary: 'is missing: a service backend names its Service', fix: 'Write the name of the Service.' }
          : { summary: "must be a Service's name: a DNS-1035 label (lowercase letters, digits and '-', starting with a letter, at most 63 characters)", fix: 'Name the Service as it is named.' };
      }
      if (e.at[e.at.length - 1] === 'number') return { summary: 'must be a port number from 1 to 65535', fix: "Write the Service's port number." };
      if (e.at[e.at.length - 1] === 'name' && e.at[e.at.length - 2] === 'port') return { summary: "must be an IANA service name: at most 15 lowercase letters, digits and '-'", fix: "Write the name of the Service's port, or its number." };
      return { summary: e.type === 'Required value' ? 'is missing' : `${detail}: a resource backend names a kind and a name`, fix: 'Write the kind and name of the resource.' };
    default:
      return undefined;
  }
}

/**
 * `CAP010`: an Ingress (networking.k8s.io/v1) the Kubernetes 1.30 API server refuses (`ingressErrors`): no rules and
 * no default backend, a path without a `pathType` or of an unknown one, a relative path (or one with `//`, `.` or `..`
 * segments) of pathType Exact or Prefix, a backend with both or neither of a service and a resource, a service port
 * with both or neither of a name and a number, a host that is an IP address or no DNS name (a wildcard only as the
 * whole first label), a TLS host likewise, a TLS `secretName` that is no Secret name, and an `ingressClassName` that is no DNS-1123 subdomain. Server-side apply
 * accepts these, so the apply fails at deploy time. A backend's Service name that is a Service of the composition is
 * refused once, as that Service's name (`object-validity`), not again in each Ingress that names it; so is a TLS
 * `secretName` that is a Secret of the composition.
 */
export const ingressSpecValidity = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'ingress spec validity',
  explanation: "An Ingress must pass the API server's validation (rules or a default backend, a pathType on every path, absolute paths, one backend per path with a port name or number, DNS host names); server-side apply accepts what validation refuses, so the apply fails at deploy time.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    const found: RuleFinding[] = [];
    // a Service of the composition whose name is refused is refused once, as the Service (object-validity)
    const services = new Set(facts.objects.filter((o) => o.identity.group === '' && o.identity.kind === 'Service').map((o) => `${o.identity.namespace ?? ''}/${o.identity.name}`));
    // so is a Secret of the composition whose name a TLS entry gives
    const secrets = new Set(facts.objects.filter((o) => o.identity.group === '' && o.identity.kind === 'Secret').map((o) => `${o.identity.namespace ?? ''}/${o.identity.name}`));
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined || object.identity.group !== 'networking.k8s.io' || object.identity.kind !== 'Ingress') return;
      if (object.manifest?.apiVersion !== 'networking.k8s.io/v1') return;
      const key = (e: PodSpecError) => `${object.identity.namespace ?? ''}/${String(e.value)}`;
      const declared = (e: PodSpecError) => (e.check === 'ingress-backend' && e.type === 'Invalid value' && e.at[e.at.length - 2] === 'service' && services.has(key(e)))
        || (e.check === 'ingress-tls' && e.at[e.at.length - 1] === 'secretName' && secrets.has(key(e)));
      appendAll(found, podSpecFindings(facts, index, INGRESS_PLACE, writersAt, { errors: ingressErrors, explain: explainIngress, skip: declared }));
    });
    return found;
  },
});
