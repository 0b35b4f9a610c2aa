import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's DNS settings, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` `validatePodDNSConfig` at the commit `pod-spec-errors.ts` names: a pod
 * of `dnsPolicy: None` needs a `dnsConfig` with at least one nameserver (the API server returns that error alone).
 *
 * Left out: the policy's own values, the nameservers' count and addresses, the searches' count and length, options.
 */

/** `validatePodDNSConfig`'s DNSNone case, for the pod spec at `at`. */
export function validatePodDNSConfig(spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  if (spec.dnsPolicy !== 'None') return;
  const configAt = [...at, 'dnsConfig'];
  const depends = [[...at, 'dnsPolicy']];
  const config = spec.dnsConfig;
  if (config === undefined || config === null) {
    found.push({ at: configAt, type: 'Required value', detail: 'must provide `dnsConfig` when `dnsPolicy` is None', check: 'dns-config', depends });
    return;
  }
  if (!isMap(config)) return;
  const nameservers = config.nameservers;
  if (nameservers === undefined || nameservers === null || (Array.isArray(nameservers) && nameservers.length === 0)) {
    found.push({ at: [...configAt, 'nameservers'], type: 'Required value', detail: 'must provide at least one DNS nameserver when `dnsPolicy` is None', check: 'dns-config', depends });
  }
}
