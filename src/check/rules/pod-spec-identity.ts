import { isDNS1123Label, isDNS1123Subdomain } from './apimachinery-names';
import { INVALID_IP, isSloppyIP } from './ip-syntax';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in the names a pod goes by, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` `ValidatePodSpec` at the commit `pod-spec-errors.ts` names: a `hostname` and
 * a `subdomain` that are no DNS-1123 label, a `priorityClassName` that is no DNS subdomain
 * (`ValidatePriorityClassName`), and `ValidateHostAliases` (each alias's `ip` an IP address, `IsValidIP`; each of its
 * `hostnames` a DNS subdomain).
 */

/** `ValidatePodSpec`'s checks of `hostname`, `subdomain`, `hostAliases` and `priorityClassName`, in its order. */
export function validatePodIdentity(spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  for (const f of ['hostname', 'subdomain']) {
    const value = spec[f];
    if (typeof value !== 'string' || value === '') continue;
    for (const msg of isDNS1123Label(value)) found.push({ at: [...at, f], type: 'Invalid value', value, detail: msg, check: 'pod-hostname' });
  }
  if (Array.isArray(spec.hostAliases)) {
    spec.hostAliases.forEach((alias, i) => {
      if (!isMap(alias)) return;
      const aliasAt = [...at, 'hostAliases', String(i)];
      const ip = alias.ip === undefined || alias.ip === null ? '' : alias.ip;
      if (typeof ip === 'string' && !isSloppyIP(ip)) found.push({ at: [...aliasAt, 'ip'], type: 'Invalid value', value: ip, detail: INVALID_IP, check: 'host-alias' });
      if (!Array.isArray(alias.hostnames)) return;
      alias.hostnames.forEach((hostname, j) => {
        if (typeof hostname !== 'string') return;
        for (const msg of isDNS1123Subdomain(hostname)) found.push({ at: [...aliasAt, 'hostnames', String(j)], type: 'Invalid value', value: hostname, detail: msg, check: 'host-alias' });
      });
    });
  }
  const priority = spec.priorityClassName;
  if (typeof priority === 'string' && priority !== '') {
    for (const msg of isDNS1123Subdomain(priority)) found.push({ at: [...at, 'priorityClassName'], type: 'Invalid value', value: priority, detail: msg, check: 'priority-class-name' });
  }
}

/** The summary and fix of an error of `validatePodIdentity`. */
export function explainPodIdentity(e: PodSpecError): { summary: string; fix: string } {
  const last = e.at[e.at.length - 1];
  if (e.check === 'pod-hostname') {
    return {
      summary: 'must be a DNS-1123 label: at most 63 lowercase letters, digits and \'-\', starting and ending with a letter or digit, without \'.\'',
      fix: last === 'subdomain'
        ? "Write the name of the headless Service the pod's DNS name is under, such as subdomain: 'web'."
        : "Write a label such as hostname: 'web-0'; for a longer name, set subdomain to a headless Service's name.",
    };
  }
  if (e.check === 'priority-class-name') {
    return { summary: "must be the name of a PriorityClass: a DNS subdomain of at most 253 lowercase letters, digits, '-' and '.'", fix: "Write the PriorityClass's name, such as 'high-priority'." };
  }
  if (last === 'ip') return { summary: 'is no IP address', fix: "Write the IPv4 or IPv6 address the hostnames resolve to, such as ip: '10.1.2.3'." };
  return { summary: "is no DNS subdomain: lowercase letters, digits, '-' and '.', at most 253 characters", fix: "Write a host name such as 'db.internal'." };
}
