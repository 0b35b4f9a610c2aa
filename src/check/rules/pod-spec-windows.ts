import { isDNS1123Subdomain } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's and a container's `securityContext.windowsOptions`, ported
 * from kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names:
 * `validateWindowsSecurityContextOptions` (called by `validatePodSpecSecurityContext` and `ValidateSecurityContext`):
 * a `gmsaCredentialSpecName` that is no DNS-1123 subdomain, a `gmsaCredentialSpec` that is empty or over 64 KiB, and a
 * `runAsUserName` that is empty, holds a control character or two backslashes, whose domain (before the backslash) is
 * 256 bytes or more or neither a NetBIOS name nor a DNS name, or whose user is empty, over 104 bytes, only dots and
 * spaces, or holds one of `"/\:;|=,+*?<>@[]`; and `validateWindowsHostProcessPod` (called by `ValidatePodSpec`): a
 * container whose `hostProcess` differs from the pod's, some but not all containers (init and ephemeral ones too)
 * host-process containers, and host-process containers in a pod without `hostNetwork: true`.
 *
 * Lengths are Go's `len`, UTF-8 bytes. Left out: "hostProcess containers are disallowed by cluster policy", which
 * depends on the API server's `--allow-privileged` flag, a setting of the cluster (as `privileged` in
 * `pod-spec-security-context.ts`).
 */

/** `maxGMSACredentialSpecLengthInKiB`, `maxRunAsUserNameDomainLength`, `maxRunAsUserNameUserLength`. */
const MAX_GMSA_KIB = 64;
const MAX_DOMAIN = 256;
const MAX_USER = 104;
/** `ctrlRegex`: POSIX `[[:cntrl:]]`, ASCII control characters. */
const CONTROL = /[\x00-\x1f\x7f]/;
/** `validNetBiosRegex`: not starting with a dot, 1 to 15 characters, none of `\ / : * ? " < > |`. */
const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
/** `validWindowsUserDomainDNSRegex`: DNS labels of letters (either case), digits and '-', split by '.'. */
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DOMAIN_DNS = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
/** `invalidUserNameCharsRegex`, `invalidUserNameDotsSpacesRegex`. */
const USER_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const DOTS_SPACES = /^[. ]+$/;

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** `validateWindowsSecurityContextOptions` of the `windowsOptions` at `at` (a pod's or a container's). */
export function validateWindowsOptions(options: unknown, at: readonly string[], found: PodSpecError[]): void {
  if (!isMap(options)) return;
  const name = options.gmsaCredentialSpecName;
  if (typeof name === 'string') {
    for (const msg of isDNS1123Subdomain(name)) found.push({ at: [...at, 'gmsaCredentialSpecName'], type: 'Invalid value', value: name, detail: msg, check: 'windows-options' });
  }
  const spec = options.gmsaCredentialSpec;
  if (typeof spec === 'string') {
    const specAt = [...at, 'gmsaCredentialSpec'];
    if (spec === '') found.push({ at: specAt, type: 'Invalid value', value: spec, detail: 'gmsaCredentialSpec cannot be an empty string', check: 'windows-options' });
    else if (bytes(spec) > MAX_GMSA_KIB * 1024) found.push({ at: specAt, type: 'Invalid value', value: spec, detail: `gmsaCredentialSpec size must be under ${MAX_GMSA_KIB} KiB`, check: 'windows-options' });
  }
  const user = options.runAsUserName;
  if (typeof user === 'string') {
    for (const detail of runAsUserNameErrors(user)) found.push({ at: [...at, 'runAsUserName'], type: 'Invalid value', value: user, detail, check: 'windows-options' });
  }
}

/** The API server's messages for a `runAsUserName`, in its order. */
export function runAsUserNameErrors(name: string): string[] {
  if (name === '') return ['runAsUserName cannot be an empty string'];
  if (CONTROL.test(name)) return ['runAsUserName cannot contain control characters'];
  const parts = name.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0] : '';
  const user = hasDomain ? parts[1] : parts[0];
  const out: string[] = [];
  if (bytes(domain) >= MAX_DOMAIN) out.push(`runAsUserName's Domain length must be under ${MAX_DOMAIN} characters`);
  if (hasDomain && !(NETBIOS.test(domain) || DOMAIN_DNS.test(domain))) out.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  if (user === '') out.push("runAsUserName's User cannot be empty");
  else if (bytes(user) > MAX_USER) out.push(`runAsUserName's User length must not be longer than ${MAX_USER} characters`);
  if (DOTS_SPACES.test(user)) out.push("runAsUserName's User cannot contain only periods or spaces");
  if (USER_CHARS.test(user)) out.push('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
  return out;
}

/** A container's `securityContext.windowsOptions.hostProcess`, or undefined when it is not a boolean. */
function hostProcessOf(holder: unknown): boolean | undefined {
  const sc = isMap(holder) ? holder.securityContext : undefined;
  const wo = isMap(sc) ? sc.windowsOptions : undefined;
  const hp = isMap(wo) ? wo.hostProcess : undefined;
  return typeof hp === 'boolean' ? hp : undefined;
}

/**
 * `validateWindowsHostProcessPod` of the pod spec `spec` at `at`, its containers visited as `VisitContainersWithPath`
 * does: init containers, containers, ephemeral containers. Reads nothing more when no `hostProcess` is written.
 */
export function validateHostProcess(spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  const podHostProcess = hostProcessOf(spec);
  const lists = ['initContainers', 'containers', 'ephemeralContainers'] as const;
  // the common case, no hostProcess anywhere, allocates nothing
  let any = podHostProcess !== undefined;
  for (let l = 0; l < lists.length && !any; l++) {
    const value = spec[lists[l]];
    if (Array.isArray(value)) any = value.some((c) => hostProcessOf(c) !== undefined);
  }
  if (!any) return;
  const podAt = [...at, 'securityContext', 'windowsOptions', 'hostProcess'];
  let containerCount = 0;
  let hostProcessCount = 0;
  let firstOther: readonly string[] | undefined;
  for (const list of lists) {
    const value = spec[list];
    if (!Array.isArray(value)) continue;
    value.forEach((c, i) => {
      containerCount++;
      const hostProcess = hostProcessOf(c);
      const cAt = [...at, list, String(i), 'securityContext', 'windowsOptions', 'hostProcess'];
      if (podHostProcess !== undefined && hostProcess !== undefined && hostProcess !== podHostProcess) {
        found.push({ at: cAt, type: 'Invalid value', raw: true, value: String(hostProcess), detail: `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`, check: 'host-process', depends: [podAt] });
      }
      if (hostProcess ?? podHostProcess) hostProcessCount++;
      else firstOther ??= cAt;
    });
  }
  if (hostProcessCount === 0) return;
  if (hostProcessCount !== containerCount && firstOther) {
    found.push({ at, field: firstOther, type: 'Invalid value', value: '', detail: 'If pod contains any hostProcess containers then all containers must be HostProcess containers', check: 'host-process', depends: [podAt] });
  }
  if (spec.hostNetwork !== true) {
    found.push({ at: [...at, 'hostNetwork'], type: 'Invalid value', raw: true, value: 'false', detail: 'hostNetwork must be true if pod contains any hostProcess containers', check: 'host-process' });
  }
}

/** The summary and fix of an error of this file. */
export function explainWindows(e: PodSpecError): { summary: string; fix: string } {
  const detail = e.detail ?? '';
  const last = e.at[e.at.length - 1];
  if (e.check === 'host-process') {
    if (detail.startsWith('pod hostProcess')) return { summary: "differs from the pod's securityContext.windowsOptions.hostProcess: a container may repeat the pod's value, not change it", fix: "Drop the container's hostProcess (it takes the pod's), or give both the same value." };
    if (detail.startsWith('If pod contains')) return { summary: 'is not a host-process container in a pod that has some: a Windows pod runs all its containers (init and ephemeral ones too) as host processes, or none', fix: 'Set windowsOptions.hostProcess: true on the pod\'s securityContext, or drop it from every container.' };
    return { summary: 'is not true in a pod of host-process containers, which run in the node\'s network namespace', fix: 'Write hostNetwork: true, or drop hostProcess.' };
  }
  if (last === 'gmsaCredentialSpecName') return { summary: "must be the name of a GMSACredentialSpec: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)", fix: 'Write the GMSACredentialSpec\'s metadata.name.' };
  if (last === 'gmsaCredentialSpec') return detail.includes('empty') ? { summary: 'is empty', fix: 'Drop it, or write the credential spec\'s JSON (gmsaCredentialSpecName names one the webhook fills in).' } : { summary: `is over ${MAX_GMSA_KIB} KiB`, fix: 'Write the credential spec\'s JSON without padding, or name it with gmsaCredentialSpecName.' };
  return {
    summary: `is no Windows user name: ${detail.replace(/^runAsUserName('s)? ?/, '')}`,
    fix: "Write 'USER' or 'DOMAIN\\USER' (one backslash; a NetBIOS or DNS domain; a user of at most 104 bytes without \"/\\:;|=,+*?<>@[] and not only dots or spaces), such as 'ContainerUser' or 'NT AUTHORITY\\NETWORK SERVICE'.",
  };
}
