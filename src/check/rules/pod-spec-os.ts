import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod spec of a given `os`, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` `ValidatePodSpec` at the commit `pod-spec-errors.ts` names: `validateOS` (a
 * name, "linux" or "windows"), `validateLinux` (no `windowsOptions` on the pod or a container) and `validateWindows`
 * (none of the Linux-only fields of the pod's and its containers' security contexts, nor `hostPID`, `hostIPC` and
 * `shareProcessNamespace`). Containers are visited as `VisitContainersWithPath` does: init containers, containers,
 * ephemeral containers.
 *
 * Fields a 1.30 API server drops before it validates are not named: `hostUsers` (the `UserNamespacesSupport` gate is
 * off by default), a container's `procMount` (`ProcMountType`, off), and `supplementalGroupsPolicy` (1.31).
 */

const FORBIDDEN_WINDOWS = 'cannot be set for a windows pod';
const FORBIDDEN_LINUX = 'windows options cannot be set for a linux pod';
/** The pod security context's fields `validateWindows` forbids, in its order, with the spec's fields it reads there. */
const POD_FIELDS = ['appArmorProfile', 'seLinuxOptions', 'hostPID', 'hostIPC', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'sysctls', 'shareProcessNamespace', 'runAsUser', 'runAsGroup', 'supplementalGroups'];
/** Those of them that are the pod spec's own fields in v1 (the API server's pod security context holds them). */
const SPEC_FIELDS = new Set(['hostPID', 'hostIPC', 'shareProcessNamespace']);
const CONTAINER_FIELDS = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'runAsUser', 'runAsGroup'];
const LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function set(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** `validateOS`, then `validateLinux` or `validateWindows`, of the pod spec `spec` at `at`; nothing without `os`. */
export function validatePodOS(spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  const os = spec.os;
  if (!isMap(os)) return;
  const name = os.name === undefined || os.name === null ? '' : os.name;
  if (typeof name !== 'string') return;
  const osAt = [...at, 'os'];
  if (name === '') {
    found.push({ at: [...osAt, 'name'], type: 'Required value', detail: 'cannot be empty', check: 'pod-os' });
    return;
  }
  if (name !== 'linux' && name !== 'windows') {
    found.push({ at: osAt, field: [...osAt, 'name'], type: 'Unsupported value', value: name, detail: 'supported values: "linux", "windows"', check: 'pod-os' });
    return;
  }
  const depends = [[...osAt, 'name']];
  const sc = isMap(spec.securityContext) ? spec.securityContext : undefined;
  const scAt = [...at, 'securityContext'];
  if (name === 'linux') {
    if (sc && set(sc.windowsOptions)) found.push({ at: [...scAt, 'windowsOptions'], type: 'Forbidden', detail: FORBIDDEN_LINUX, check: 'pod-os', depends });
  } else {
    for (const f of POD_FIELDS) {
      const own = SPEC_FIELDS.has(f);
      const value = own ? spec[f] : sc?.[f];
      // the API server's host namespaces are booleans whose false is unset; a written sysctls list counts when not empty
      const written = f === 'hostPID' || f === 'hostIPC' ? value === true : f === 'sysctls' ? Array.isArray(value) && value.length > 0 : set(value);
      if (written) found.push({ at: own ? [...at, f] : [...scAt, f], type: 'Forbidden', detail: FORBIDDEN_WINDOWS, check: 'pod-os', depends });
    }
  }
  for (const list of LISTS) {
    const value = spec[list];
    if (!Array.isArray(value)) continue;
    value.forEach((c, i) => {
      const csc = isMap(c) && isMap(c.securityContext) ? c.securityContext : undefined;
      if (!csc) return;
      const cAt = [...at, list, String(i), 'securityContext'];
      if (name === 'linux') {
        if (set(csc.windowsOptions)) found.push({ at: [...cAt, 'windowsOptions'], type: 'Forbidden', detail: FORBIDDEN_LINUX, check: 'pod-os', depends });
        return;
      }
      for (const f of CONTAINER_FIELDS) {
        if (set(csc[f])) found.push({ at: [...cAt, f], type: 'Forbidden', detail: FORBIDDEN_WINDOWS, check: 'pod-os', depends });
      }
    });
  }
}

/** The summary and fix of an error of `validatePodOS`. */
export function explainPodOS(e: PodSpecError): { summary: string; fix: string } {
  if (e.type === 'Required value') return { summary: 'is missing or empty: an os names the pod\'s operating system', fix: "Write name: 'linux' or name: 'windows', or drop os." };
  if (e.type === 'Unsupported value') return { summary: 'must be "linux" or "windows"', fix: 'Write one of them (lowercase), or drop os.' };
  if (e.detail === FORBIDDEN_LINUX) return { summary: 'is set in a pod of os.name: linux, which has no Windows options', fix: "Drop windowsOptions, or write os: { name: 'windows' }." };
  return {
    summary: 'is set in a pod of os.name: windows, which takes no Linux-only security settings (AppArmor, SELinux, seccomp, user and group IDs, capabilities, sysctls, host PID and IPC namespaces)',
    fix: "Drop it (on Windows, windowsOptions.runAsUserName sets the user; cdk8s-plus always writes privileged, allowPrivilegeEscalation, readOnlyRootFilesystem, fsGroupChangePolicy and shareProcessNamespace, which a Windows pod removes with JsonPatch.remove), or write os: { name: 'linux' }.",
  };
}
