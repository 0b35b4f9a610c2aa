import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from './apimachinery-names';
import { parseIP } from './ip-syntax';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in an Ingress (networking.k8s.io/v1) spec, ported from kubernetes
 * `pkg/apis/networking/validation/validation.go` (`ValidateIngressCreate`, `ValidateIngressSpec`,
 * `validateIngressRules`, `validateHTTPIngressRuleValue`, `validateHTTPIngressPath`, `validateIngressBackend`,
 * `validateIngressTypedLocalObjectReference`, `validateIngressTLS`; the class annotation's agreement with
 * `ingressClassName`, at the path `annotations.kubernetes.io/ingress.class` as the API server prints it), read in a later copy whose functions are 1.30's
 * but for two later options, taken at their 1.30 behaviour: a backend Service's name is a DNS-1035 label
 * (`ValidateServiceName`; the 1.34 `RelaxedServiceNameValidation` gate takes a DNS-1123 label). A TLS entry's
 * `secretName`, when given, is a Secret's name, a DNS-1123 subdomain (`validateTLSSecretName`; its
 * `AllowInvalidSecretName` option is for an update of an Ingress that already had one). The v1 API defaults nothing in these fields (no `pathType`), so the manifest is read
 * as written. A path of `pathType: ImplementationSpecific` is only required to be absolute, if given: what else it may
 * hold (a regular expression) is the controller's. Two rules or paths alike are accepted by the API server.
 */

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
/** The class annotation `ingressClassName` replaced. */
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The errors of the Ingress `manifest`, in the order the API server finds them. */
export function ingressErrors(manifest: unknown): PodSpecError[] {
  if (!isMap(manifest)) return [];
  const spec = manifest.spec === undefined || manifest.spec === null ? {} : manifest.spec;
  if (!isMap(spec)) return [];
  const found: PodSpecError[] = [];
  const rules = Array.isArray(spec.rules) ? spec.rules : [];
  const defaultBackend = isMap(spec.defaultBackend) ? spec.defaultBackend : undefined;
  if (rules.length === 0 && defaultBackend === undefined && (spec.rules === undefined || spec.rules === null || Array.isArray(spec.rules))) {
    const value = Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)';
    found.push({ at: ['spec'], type: 'Invalid value', value, raw: true, detail: 'either `defaultBackend` or `rules` must be specified', check: 'ingress-rules' });
  }
  if (defaultBackend) validateBackend(defaultBackend, ['spec', 'defaultBackend'], found);
  rules.forEach((rule, i) => {
    if (!isMap(rule)) return;
    const at = ['spec', 'rules', String(i)];
    const host = str(rule.host);
    if (host.length > 0) {
      if (parseIP(host) !== undefined) found.push({ at: [...at, 'host'], type: 'Invalid value', value: host, detail: 'must be a DNS name, not an IP address', check: 'ingress-host' });
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const msg of msgs) found.push({ at: [...at, 'host'], type: 'Invalid value', value: host, detail: msg, check: 'ingress-host' });
    }
    if (!isMap(rule.http)) return;
    const paths = Array.isArray(rule.http.paths) ? rule.http.paths : [];
    if (paths.length === 0) found.push({ at: [...at, 'http', 'paths'], type: 'Required value', check: 'ingress-path' });
    paths.forEach((p, j) => {
      if (isMap(p)) validatePath(p, [...at, 'http', 'paths', String(j)], found);
    });
  });
  const tls = Array.isArray(spec.tls) ? spec.tls : [];
  tls.forEach((entry, i) => {
    if (!isMap(entry)) return;
    if (Array.isArray(entry.hosts)) {
      entry.hosts.forEach((host, j) => {
        if (typeof host !== 'string') return;
        const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
        for (const msg of msgs) found.push({ at: ['spec', 'tls', String(i), 'hosts', String(j)], type: 'Invalid value', value: host, detail: msg, check: 'ingress-tls' });
      });
    }
    const secretName = str(entry.secretName);
    if (secretName !== '') {
      for (const msg of isDNS1123Subdomain(secretName)) found.push({ at: ['spec', 'tls', String(i), 'secretName'], type: 'Invalid value', value: secretName, detail: msg, check: 'ingress-tls' });
    }
  });
  if (typeof spec.ingressClassName === 'string') {
    for (const msg of isDNS1123Subdomain(spec.ingressClassName)) found.push({ at: ['spec', 'ingressClassName'], type: 'Invalid value', value: spec.ingressClassName, detail: msg, check: 'ingress-class' });
  }
  // ValidateIngressCreate: the deprecated class annotation, when beside ingressClassName, names the same class
  const annotations = isMap(manifest.metadata) && isMap(manifest.metadata.annotations) ? manifest.metadata.annotations : {};
  const annotated = annotations[CLASS_ANNOTATION];
  if (typeof annotated === 'string' && typeof spec.ingressClassName === 'string' && annotated !== spec.ingressClassName) {
    found.push({
      at: ['annotations', CLASS_ANNOTATION],
      field: ['metadata', 'annotations', CLASS_ANNOTATION],
      type: 'Invalid value',
      value: annotated,
      detail: 'must match `ingressClassName` when both are specified',
      check: 'ingress-class',
      depends: [['spec', 'ingressClassName']],
    });
  }
  return found;
}

/** `validateHTTPIngressPath`. */
function validatePath(p: Record<string, unknown>, at: string[], found: PodSpecError[]): void {
  if (p.pathType === undefined || p.pathType === null) {
    found.push({ at: [...at, 'pathType'], type: 'Required value', detail: 'pathType must be specified', check: 'ingress-path' });
    return;
  }
  const pathType = str(p.pathType);
  const path = str(p.path);
  const pathAt = [...at, 'path'];
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!path.startsWith('/')) found.push({ at: pathAt, type: 'Invalid value', value: path, detail: 'must be an absolute path', check: 'ingress-path', depends: [[...at, 'pathType']] });
    for (const seq of INVALID_SEQUENCES) if (path.includes(seq)) found.push({ at: pathAt, type: 'Invalid value', value: path, detail: `must not contain '${seq}'`, check: 'ingress-path', depends: [[...at, 'pathType']] });
    for (const suffix of INVALID_SUFFIXES) if (path.endsWith(suffix)) found.push({ at: pathAt, type: 'Invalid value', value: path, detail: `cannot end with '${suffix}'`, check: 'ingress-path', depends: [[...at, 'pathType']] });
  } else if (pathType === 'ImplementationSpecific') {
    if (path.length > 0 && !path.startsWith('/')) found.push({ at: pathAt, type: 'Invalid value', value: path, detail: 'must be an absolute path', check: 'ingress-path', depends: [[...at, 'pathType']] });
  } else {
    found.push({ at: [...at, 'pathType'], type: 'Unsupported value', value: pathType, detail: `supported values: ${PATH_TYPES.map((t) => JSON.stringify(t)).join(', ')}`, check: 'ingress-path' });
  }
  validateBackend(isMap(p.backend) ? p.backend : {}, [...at, 'backend'], found);
}

/** `validateIngressBackend`: a Service (by name, and port name or number) or a resource, not both. */
function validateBackend(backend: Record<string, unknown>, at: string[], found: PodSpecError[]): void {
  const resource = isMap(backend.resource) ? backend.resource : undefined;
  const service = isMap(backend.service) ? backend.service : undefined;
  if (resource && service) {
    found.push({ at, type: 'Invalid value', value: '', detail: 'cannot set both resource and service backends', check: 'ingress-backend' });
    return;
  }
  if (resource) {
    if (typeof resource.apiGroup === 'string') {
      for (const msg of isDNS1123Subdomain(resource.apiGroup)) found.push({ at: [...at, 'resource', 'apiGroup'], type: 'Invalid value', value: resource.apiGroup, detail: msg, check: 'ingress-backend' });
    }
    for (const key of ['kind', 'name']) {
      const value = str(resource[key]);
      if (value === '') found.push({ at: [...at, 'resource', key], type: 'Required value', check: 'ingress-backend' });
      for (const msg of value === '' ? [] : isValidPathSegmentName(value)) found.push({ at: [...at, 'resource', key], type: 'Invalid value', value, detail: msg, check: 'ingress-backend' });
    }
    return;
  }
  if (!service) {
    found.push({ at, type: 'Invalid value', value: '', detail: 'resource or service backend is required', check: 'ingress-backend' });
    return;
  }
  const name = str(service.name);
  if (name === '') found.push({ at: [...at, 'service', 'name'], type: 'Required value', check: 'ingress-backend' });
  for (const msg of name === '' ? [] : isDNS1035Label(name)) found.push({ at: [...at, 'service', 'name'], type: 'Invalid value', value: name, detail: msg, check: 'ingress-backend' });
  const port = isMap(service.port) ? service.port : {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) {
    found.push({ at, field: [...at, 'service', 'port'], type: 'Invalid value', value: '', detail: 'cannot set both port name & port number', check: 'ingress-backend' });
  } else if (portName !== '') {
    for (const msg of isValidPortName(portName)) found.push({ at: [...at, 'service', 'port', 'name'], type: 'Invalid value', value: portName, detail: msg, check: 'ingress-backend' });
  } else if (portNumber !== 0) {
    for (const msg of isValidPortNum(portNumber)) found.push({ at: [...at, 'service', 'port', 'number'], type: 'Invalid value', value: portNumber, detail: msg, check: 'ingress-backend' });
  } else {
    found.push({ at, field: [...at, 'service', 'port'], type: 'Required value', detail: 'port name or number is required', check: 'ingress-backend' });
  }
}
