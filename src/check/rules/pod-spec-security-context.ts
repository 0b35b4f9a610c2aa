import { validateAppArmorProfile } from './pod-spec-apparmor';
import type { PodSpecError } from './pod-spec-errors';
import { validatePrivilegeEscalation } from './pod-spec-privilege-escalation';
import { validateSysctls } from './pod-spec-sysctls';
import { validateWindowsOptions } from './pod-spec-windows';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's and a container's security context, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names: `validatePodSpecSecurityContext`
 * (the pod's `fsGroup`, `runAsUser`, `runAsGroup` and `supplementalGroups` through apimachinery's `IsValidUserID` and
 * `IsValidGroupID`, 0 to 2147483647; its `seccompProfile`; `shareProcessNamespace` beside `hostPID`, which the API
 * server reads into the pod's security context and names there; `validateFSGroupChangePolicy`; its sysctls in
 * `pod-spec-sysctls.ts`; its AppArmor profile in `pod-spec-apparmor.ts`) and `ValidateSecurityContext` (a container's
 * `runAsUser`, `runAsGroup`, `seccompProfile`, AppArmor profile, and `allowPrivilegeEscalation: false` beside privileges
 * in `pod-spec-privilege-escalation.ts`), with `validateSeccompProfileField` and `validateLocalDescendingPath`.
 *
 * Not refused: a container's `procMount`, whatever its value: the `ProcMountType` gate is alpha and off in 1.30, and
 * the API server then sets a written `procMount` to Default before it validates (`dropDisabledFields`), as
 * docs/errors.md says of `resources.claims`. Windows options (`windowsOptions`, `hostProcess`) are
 * `pod-spec-windows.ts`'. Left out: a `privileged` container on an API server started without `--allow-privileged` (a flag of the cluster).
 */

const MAX_ID = 2147483647;
const RANGE = `must be between 0 and ${MAX_ID}, inclusive`;
const SECCOMP_TYPES = '"Localhost", "RuntimeDefault", "Unconfined"';

/**
 * `validatePodSpecSecurityContext`, of the fields above, for the pod spec `spec` whose security context is at `at`
 * (the API server's pod security context holds the spec's `hostNetwork`, `hostPID`, `hostIPC` and
 * `shareProcessNamespace` too, and is never nil).
 */
export function validatePodSecurityContext(sc: unknown, at: readonly string[], found: PodSpecError[], spec: Record<string, unknown> = {}): void {
  const specAt = at.slice(0, -1);
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    found.push({
      at: [...at, 'shareProcessNamespace'],
      type: 'Invalid value',
      raw: true,
      value: 'true',
      detail: 'ShareProcessNamespace and HostPID cannot both be enabled',
      check: 'share-process-namespace',
      field: [...specAt, 'shareProcessNamespace'],
      depends: [[...specAt, 'shareProcessNamespace'], [...specAt, 'hostPID']],
    });
  }
  if (!isMap(sc)) return;
  validateId(sc.fsGroup, [...at, 'fsGroup'], found);
  validateId(sc.runAsUser, [...at, 'runAsUser'], found);
  validateId(sc.runAsGroup, [...at, 'runAsGroup'], found);
  if (Array.isArray(sc.supplementalGroups)) sc.supplementalGroups.forEach((g, i) => validateId(g, [...at, 'supplementalGroups', String(i)], found));
  validateSysctls(sc, spec, [...at, 'sysctls'], found);
  if (typeof sc.fsGroupChangePolicy === 'string' && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    found.push({ at: [...at, 'fsGroupChangePolicy'], type: 'Unsupported value', value: sc.fsGroupChangePolicy, detail: 'supported values: "Always", "OnRootMismatch"', check: 'fs-group-change-policy' });
  }
  validateSeccompProfile(sc.seccompProfile, [...at, 'seccompProfile'], found);
  validateWindowsOptions(sc.windowsOptions, [...at, 'windowsOptions'], found);
  validateAppArmorProfile(sc.appArmorProfile, [...at, 'appArmorProfile'], found);
}

/** `ValidateSecurityContext` of a container, of the fields above. */
export function validateContainerSecurityContext(sc: unknown, at: readonly string[], found: PodSpecError[]): void {
  if (!isMap(sc)) return;
  validateId(sc.runAsUser, [...at, 'runAsUser'], found);
  validateId(sc.runAsGroup, [...at, 'runAsGroup'], found);
  validateSeccompProfile(sc.seccompProfile, [...at, 'seccompProfile'], found);
  validatePrivilegeEscalation(sc, at, found);
  validateWindowsOptions(sc.windowsOptions, [...at, 'windowsOptions'], found);
  validateAppArmorProfile(sc.appArmorProfile, [...at, 'appArmorProfile'], found);
}

/** `IsValidUserID` / `IsValidGroupID`: an integer of another value than 0 to 2147483647 (another JSON type is scalar-types'). */
function validateId(value: unknown, at: readonly string[], found: PodSpecError[]): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return;
  if (value < 0 || value > MAX_ID) found.push({ at, type: 'Invalid value', value, detail: RANGE, check: 'security-id' });
}

/** `validateSeccompProfileField`: a type, and a `localhostProfile` exactly when it is Localhost, a relative path without '..'. */
function validateSeccompProfile(sp: unknown, at: readonly string[], found: PodSpecError[]): void {
  if (!isMap(sp)) return;
  const type = sp.type === undefined || sp.type === null ? '' : sp.type;
  const local = sp.localhostProfile === undefined || sp.localhostProfile === null ? undefined : sp.localhostProfile;
  if (typeof type !== 'string' || (local !== undefined && typeof local !== 'string')) return;
  if (type === '') {
    found.push({ at: [...at, 'type'], type: 'Required value', detail: 'type is required when seccompProfile is set', check: 'seccomp-profile' });
  } else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) {
    found.push({ at: [...at, 'type'], type: 'Unsupported value', value: type, detail: `supported values: ${SECCOMP_TYPES}`, check: 'seccomp-profile' });
  }
  const profileAt = [...at, 'localhostProfile'];
  if (type === 'Localhost') {
    if (local === undefined) {
      found.push({ at: profileAt, type: 'Required value', detail: 'must be set when seccomp type is Localhost', check: 'seccomp-profile', depends: [[...at, 'type']] });
    } else {
      if (local.startsWith('/')) found.push({ at: profileAt, type: 'Invalid value', value: local, detail: 'must be a relative path', check: 'seccomp-profile' });
      // validatePathNoBacksteps splits at '/' only (filepath.ToSlash changes nothing on Linux)
      if (local.split('/').includes('..')) found.push({ at: profileAt, type: 'Invalid value', value: local, detail: "must not contain '..'", check: 'seccomp-profile' });
    }
  } else if (local !== undefined) {
    // the API server prints the profile with Go's %#v, its localhostProfile as a pointer whose address varies
    const value = `core.SeccompProfile{Type:${JSON.stringify(type)}, LocalhostProfile:(*string)(0x…)}`;
    found.push({ at: profileAt, type: 'Invalid value', raw: true, value, detail: 'can only be set when seccomp type is Localhost', check: 'seccomp-profile', depends: [[...at, 'type']] });
  }
}
