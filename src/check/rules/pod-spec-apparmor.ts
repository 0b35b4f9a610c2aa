import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's and a container's `securityContext.appArmorProfile` (the field
 * of the `AppArmorFields` gate, beta and on by default in 1.30), ported from kubernetes
 * `pkg/apis/core/validation/validation.go` `ValidateAppArmorProfileField` at the commit `pod-spec-errors.ts` names: a
 * type, one of Localhost, RuntimeDefault and Unconfined; a `localhostProfile` exactly when it is Localhost, not empty and
 * not padded with whitespace, of at most 4095 bytes (`PATH_MAX - 1`, Go's `len`). The deprecated
 * `container.apparmor.security.beta.kubernetes.io/<container>` annotations are `pod-spec-apparmor-annotations.ts`'.
 */

/** `maxLocalhostProfileLength`. */
const MAX_PROFILE = 4095;

const TYPES = '"Localhost", "RuntimeDefault", "Unconfined"';

/** `ValidateAppArmorProfileField` of the profile at `at`. */
export function validateAppArmorProfile(profile: unknown, at: readonly string[], found: PodSpecError[]): void {
  if (!isMap(profile)) return;
  const type = profile.type === undefined || profile.type === null ? '' : profile.type;
  const local = profile.localhostProfile === undefined || profile.localhostProfile === null ? undefined : profile.localhostProfile;
  if (typeof type !== 'string' || (local !== undefined && typeof local !== 'string')) return;
  const profileAt = [...at, 'localhostProfile'];
  const depends = [[...at, 'type']];
  switch (type) {
    case 'Localhost':
      if (local === undefined) {
        found.push({ at: profileAt, type: 'Required value', detail: 'must be set when AppArmor type is Localhost', check: 'apparmor-profile', depends });
      } else if (local.trim() !== local) {
        found.push({ at: profileAt, type: 'Invalid value', value: local, detail: 'must not be padded with whitespace', check: 'apparmor-profile' });
      } else if (local === '') {
        found.push({ at: profileAt, type: 'Required value', detail: 'must be set when AppArmor type is Localhost', check: 'apparmor-profile', depends });
      }
      // a string of at most 1365 UTF-16 units is at most 4095 bytes
      if (local !== undefined && local.length * 3 > MAX_PROFILE && Buffer.byteLength(local, 'utf8') > MAX_PROFILE) {
        found.push({ at: profileAt, type: 'Too long', detail: `may not be longer than ${MAX_PROFILE}`, check: 'apparmor-profile' });
      }
      break;
    case 'RuntimeDefault':
    case 'Unconfined':
      if (local !== undefined) found.push({ at: profileAt, type: 'Invalid value', value: local, detail: 'can only be set when AppArmor type is Localhost', check: 'apparmor-profile', depends });
      break;
    case '':
      found.push({ at: [...at, 'type'], type: 'Required value', detail: 'type is required when appArmorProfile is set', check: 'apparmor-profile' });
      break;
    default:
      found.push({ at: [...at, 'type'], type: 'Unsupported value', value: type, detail: `supported values: ${TYPES}`, check: 'apparmor-profile' });
  }
}

/** The summary and fix of an AppArmor profile's error. */
export function explainAppArmor(e: PodSpecError): { summary: string; fix: string } {
  if (e.at[e.at.length - 1] === 'type') {
    return e.type === 'Required value'
      ? { summary: 'is missing: an appArmorProfile needs its type', fix: "Write type: 'RuntimeDefault' (or 'Localhost' with a localhostProfile, or 'Unconfined')." }
      : { summary: 'must be "RuntimeDefault", "Localhost" or "Unconfined"', fix: 'Write one of them (case matters).' };
  }
  if (e.type === 'Required value') return { summary: 'is missing or empty: an appArmorProfile of type Localhost names a profile loaded on the node', fix: "Write the profile's name, such as localhostProfile: 'k8s-apparmor-example-deny-write'." };
  if (e.type === 'Too long') return { summary: `is over ${MAX_PROFILE} bytes, longer than a path the kernel takes`, fix: 'Load the profile under a shorter name, and write that name.' };
  if (e.detail === 'must not be padded with whitespace') return { summary: 'has leading or trailing whitespace', fix: `Write ${JSON.stringify(String(e.value ?? '').trim())}.` };
  return { summary: 'is set on an appArmorProfile whose type is not Localhost', fix: "Drop localhostProfile, or write type: 'Localhost'." };
}
