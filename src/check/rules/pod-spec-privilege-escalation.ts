import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * A container that may not gain privileges but is privileged anyway, as the Kubernetes 1.30 API server refuses it,
 * ported from kubernetes `pkg/apis/core/validation/validation.go` `ValidateSecurityContext` at the commit
 * `pod-spec-errors.ts` names: `allowPrivilegeEscalation: false` beside `privileged: true`, and beside each
 * `capabilities.add` entry that is exactly `CAP_SYS_ADMIN` (the condition is that string: `SYS_ADMIN`, the spelling
 * the container runtimes take, passes the API server). The API server names the whole security context and prints it
 * with Go's `%#v`, its fields as pointers whose addresses vary (written `0x…` here).
 */

/**
 * The fields of `core.SecurityContext`, in order, with the Go types of their pointers: read in kubernetes
 * `pkg/apis/core/types.go` (a stored copy older than 1.30, which ends at `SeccompProfile`; 1.30 adds `AppArmorProfile`
 * after it, as its v1 protobuf tag 12 after seccomp's 11 shows).
 */
const FIELDS: ReadonlyArray<readonly [string, string, string]> = [
  ['Capabilities', 'capabilities', 'core.Capabilities'],
  ['Privileged', 'privileged', 'bool'],
  ['SELinuxOptions', 'seLinuxOptions', 'core.SELinuxOptions'],
  ['WindowsOptions', 'windowsOptions', 'core.WindowsSecurityContextOptions'],
  ['RunAsUser', 'runAsUser', 'int64'],
  ['RunAsGroup', 'runAsGroup', 'int64'],
  ['RunAsNonRoot', 'runAsNonRoot', 'bool'],
  ['ReadOnlyRootFilesystem', 'readOnlyRootFilesystem', 'bool'],
  ['AllowPrivilegeEscalation', 'allowPrivilegeEscalation', 'bool'],
  ['ProcMount', 'procMount', 'core.ProcMountType'],
  ['SeccompProfile', 'seccompProfile', 'core.SeccompProfile'],
  ['AppArmorProfile', 'appArmorProfile', 'core.AppArmorProfile'],
];

/** Go's `%#v` of the security context `sc`. */
export function securityContextDump(sc: Record<string, unknown>): string {
  const fields = FIELDS.map(([goName, json, type]) => `${goName}:(*${type})(${sc[json] === undefined || sc[json] === null ? 'nil' : '0x…'})`);
  return `core.SecurityContext{${fields.join(', ')}}`;
}

/** `ValidateSecurityContext`'s `allowPrivilegeEscalation` checks of a container's security context at `at`. */
export function validatePrivilegeEscalation(sc: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  if (sc.allowPrivilegeEscalation !== false) return;
  const field = [...at, 'allowPrivilegeEscalation'];
  if (sc.privileged === true) {
    found.push({ at, type: 'Invalid value', raw: true, value: securityContextDump(sc), detail: 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true', check: 'privilege-escalation', field, depends: [[...at, 'privileged']] });
  }
  const add = isMap(sc.capabilities) && Array.isArray(sc.capabilities.add) ? sc.capabilities.add : [];
  add.forEach((cap, i) => {
    if (cap !== 'CAP_SYS_ADMIN') return;
    found.push({ at, type: 'Invalid value', raw: true, value: securityContextDump(sc), detail: 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN', check: 'privilege-escalation', field, depends: [[...at, 'capabilities', 'add', String(i)]] });
  });
}

/** The summary and fix of a privilege escalation error. */
export function explainPrivilegeEscalation(e: PodSpecError): { summary: string; fix: string } {
  if (e.detail?.includes('`privileged`')) {
    return { summary: 'is false in a privileged container, which has every privilege anyway', fix: 'Drop privileged: true (add only the capabilities it needs), or write allowPrivilegeEscalation: true (cdk8s-plus writes false unless told).' };
  }
  return { summary: 'is false in a container that adds CAP_SYS_ADMIN, with which it can gain any privilege', fix: 'Drop CAP_SYS_ADMIN from capabilities.add, or write allowPrivilegeEscalation: true.' };
}
