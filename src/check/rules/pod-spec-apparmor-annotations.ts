import type { PodSpecError, PodSpecPlace } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's deprecated AppArmor annotations
 * (`container.apparmor.security.beta.kubernetes.io/<container>`), ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names:
 * `ValidateAppArmorPodAnnotations` (called by `ValidatePodSpecificAnnotations`, for a Pod and for every pod template:
 * the container it names must be a container, init container or ephemeral container of the pod, `podSpecHasContainer`;
 * its value `ValidateAppArmorProfileFormat`'s: empty, `runtime/default`, `unconfined` or `localhost/<profile>`), and
 * `validateAppArmorAnnotationsAndFieldsMatchOnCreate` (`ValidatePodCreate`, `ValidatePodTemplateSpec`; the
 * `AppArmorFields` gate is beta and on in 1.30): where a container has both the annotation and an `appArmorProfile`
 * (its own, or else the pod's), they name the same profile. Not for a pod of `os.name: windows`.
 *
 * A Pod's create first runs the registry's `applyAppArmorVersionSkew` (pkg/registry/core/pod/strategy.go), which copies
 * a valid annotation into a container without a profile of its own; so for a Pod only a container's own profile is
 * compared with its annotation (a template's containers have no such copy, and take the pod's profile too).
 */

/** `v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix`. */
export const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const LOCALHOST = 'localhost/';
const RUNTIME_DEFAULT = 'runtime/default';
const UNCONFINED = 'unconfined';

/** `ValidateAppArmorProfileFormat`: the message of an annotation value the API server refuses, or undefined. */
export function appArmorFormatError(profile: string): string | undefined {
  if (profile === '' || profile === RUNTIME_DEFAULT || profile === UNCONFINED || profile.startsWith(LOCALHOST)) return undefined;
  return `invalid AppArmor profile name: ${JSON.stringify(profile)}`;
}

/**
 * The AppArmor annotations' errors of the pod spec `spec` at `place` in `manifest`. Reads nothing when the pod's
 * metadata has no annotations.
 */
export function validateAppArmorAnnotations(manifest: unknown, place: PodSpecPlace, spec: Record<string, unknown>, found: PodSpecError[]): void {
  const annotations = podAnnotations(manifest, place);
  if (annotations === undefined) return;
  let containers: Map<string, readonly string[]> | undefined;
  for (const key in annotations) {
    if (!key.startsWith(APPARMOR_PREFIX)) continue;
    const value = annotations[key];
    if (typeof value !== 'string') continue;
    containers ??= containerPaths(spec, place.at);
    const name = key.slice(APPARMOR_PREFIX.length);
    // the API server's path: a Pod's `metadata.annotations`, a template's `<template>.annotations` (ObjectMeta is inline)
    const at = place.isPod ? ['metadata', 'annotations', key] : [...place.at.slice(0, -1), 'annotations', key];
    const field = [...place.at.slice(0, -1), 'metadata', 'annotations', key];
    if (!containers.has(name)) {
      found.push({ at, keyed: true, field, type: 'Invalid value', value: name, detail: 'container not found', check: 'apparmor-annotation', depends: [...LISTS.map((l) => [...place.at, l])] });
    }
    const format = appArmorFormatError(value);
    if (format) found.push({ at, keyed: true, field, type: 'Invalid value', value, detail: format, check: 'apparmor-annotation' });
  }
  // no AppArmor annotation: nothing to compare
  if (containers === undefined) return;
  if (isMap(spec.os) && spec.os.name === 'windows') return;
  validateAgreement(annotations, spec, place, [...place.at.slice(0, -1), 'metadata', 'annotations'], found);
}

/** The annotations of the pod's metadata (a Pod's, a template's), or undefined when it has none. */
export function podAnnotations(manifest: unknown, place: PodSpecPlace): Record<string, unknown> | undefined {
  let meta: unknown = manifest;
  for (let i = 0; i < place.at.length - 1; i++) meta = isMap(meta) ? meta[place.at[i]] : undefined;
  meta = isMap(meta) ? meta.metadata : undefined;
  const annotations = isMap(meta) ? meta.annotations : undefined;
  return isMap(annotations) ? annotations : undefined;
}

const LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Each named container of the pod (`VisitContainersWithPath`: init containers, containers, ephemeral containers) and its path. */
function containerPaths(spec: Record<string, unknown>, at: readonly string[]): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const list of LISTS) {
    const value = spec[list];
    if (!Array.isArray(value)) continue;
    value.forEach((c, i) => {
      if (isMap(c) && typeof c.name === 'string' && !out.has(c.name)) out.set(c.name, [...at, list, String(i)]);
    });
  }
  return out;
}

/** `validateAppArmorAnnotationsAndFieldsMatchOnCreate`. */
function validateAgreement(
  annotations: Record<string, unknown>, spec: Record<string, unknown>, place: PodSpecPlace, manifestAt: readonly string[], found: PodSpecError[],
): void {
  const podSc = spec.securityContext;
  const podProfile = isMap(podSc) && isMap(podSc.appArmorProfile) ? podSc.appArmorProfile : undefined;
  const podProfileAt = [...place.at, 'securityContext', 'appArmorProfile'];
  for (const list of LISTS) {
    const value = spec[list];
    if (!Array.isArray(value)) continue;
    value.forEach((c, i) => {
      if (!isMap(c) || typeof c.name !== 'string') return;
      const annotation = annotations[APPARMOR_PREFIX + c.name];
      if (typeof annotation !== 'string') return;
      const sc = c.securityContext;
      const own = isMap(sc) && isMap(sc.appArmorProfile) ? sc.appArmorProfile : undefined;
      // a Pod's create copies a valid annotation into a container without its own profile first
      if (!own && place.isPod) return;
      const profile = own ?? podProfile;
      if (!profile) return;
      const cAt = [...place.at, list, String(i), 'securityContext', 'appArmorProfile'];
      const depends = [own ? cAt : podProfileAt];
      const field = [...manifestAt, APPARMOR_PREFIX + c.name];
      const mismatch = (which: 'type' | 'localhostProfile', what: string): PodSpecError => ({ at: [...cAt, which], field, type: 'Forbidden', detail: `apparmor ${what} in annotation and field must match`, check: 'apparmor-annotation', depends });
      const which = profileMismatch(annotation, profile, [RUNTIME_DEFAULT]);
      if (which) found.push(mismatch(which, which === 'type' ? 'type' : 'profile'));
    });
  }
}

/**
 * Which part of a profile field (`{ type, localhostProfile }`) a deprecated annotation's value disagrees with, as the
 * API server compares the two for AppArmor (`validateAppArmorAnnotationsAndFieldsMatchOnCreate`) and seccomp
 * (`validateSeccompAnnotationsAndFieldsMatch`) alike: `type` when the annotation names another type
 * (`runtimeDefault`: the values that mean RuntimeDefault), `localhostProfile` when it names another localhost profile;
 * undefined when they agree, or the field's type is none of the three.
 */
export function profileMismatch(annotation: string, profile: Record<string, unknown>, runtimeDefault: readonly string[]): 'type' | 'localhostProfile' | undefined {
  switch (profile.type) {
    case 'Unconfined': return annotation === UNCONFINED ? undefined : 'type';
    case 'RuntimeDefault': return runtimeDefault.includes(annotation) ? undefined : 'type';
    case 'Localhost':
      if (!annotation.startsWith(LOCALHOST)) return 'type';
      return typeof profile.localhostProfile === 'string' && annotation.slice(LOCALHOST.length) === profile.localhostProfile ? undefined : 'localhostProfile';
    default: return undefined;
  }
}

/** The summary and fix of an AppArmor annotation's error. */
export function explainAppArmorAnnotation(e: PodSpecError): { summary: string; fix: string } {
  const detail = e.detail ?? '';
  if (detail === 'container not found') return { summary: `names a container the pod does not have (${JSON.stringify(e.value)})`, fix: 'Drop the annotation and set securityContext.appArmorProfile on the container instead (the annotation is deprecated), or name a container of the pod.' };
  if (detail.startsWith('invalid AppArmor profile name')) return { summary: "is no AppArmor profile: the annotation takes 'runtime/default', 'unconfined' or 'localhost/<profile>'", fix: "Drop the annotation for securityContext.appArmorProfile: { type: 'RuntimeDefault' } (or 'Localhost' with localhostProfile), or write one of those values." };
  return { summary: "names another AppArmor profile than the container's securityContext.appArmorProfile (its own, or the pod's)", fix: 'Drop the deprecated annotation: the appArmorProfile field replaces it.' };
}
