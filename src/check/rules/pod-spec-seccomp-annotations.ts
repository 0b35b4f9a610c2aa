import { podAnnotations, profileMismatch } from './pod-spec-apparmor-annotations';
import type { PodSpecError, PodSpecPlace } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's deprecated seccomp annotations
 * (`seccomp.security.alpha.kubernetes.io/pod`, `container.seccomp.security.alpha.kubernetes.io/<container>`), ported
 * from kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names:
 * `ValidateSeccompPodAnnotations` (called by `ValidatePodSpecificAnnotations`, for a Pod and every pod template: a value
 * `ValidateSeccompProfile` takes, `runtime/default`, `docker/default`, `unconfined` or `localhost/` and a relative path
 * without `..`), and `validateSeccompAnnotationsAndFields` (`ValidatePodCreate`, `ValidatePodTemplateSpec`: where the
 * pod's annotation and its `securityContext.seccompProfile`, or a container's annotation and its own
 * `seccompProfile`, are both written, they name the same profile). The API server names an annotation as a child of
 * `annotations` (`metadata.annotations.seccomp.security.alpha.kubernetes.io/pod`), not as a key.
 */

const POD_KEY = 'seccomp.security.alpha.kubernetes.io/pod';
const CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const LOCALHOST = 'localhost/';
const LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** `ValidateSeccompProfile`: the messages of an annotation value the API server refuses. */
export function seccompAnnotationErrors(profile: string): string[] {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (!profile.startsWith(LOCALHOST)) return ['must be a valid seccomp profile'];
  // validateLocalDescendingPath
  const local = profile.slice(LOCALHOST.length);
  const out: string[] = [];
  if (local.startsWith('/')) out.push('must be a relative path');
  if (local.split('/').includes('..')) out.push("must not contain '..'");
  return out;
}

/** The seccomp annotations' errors of the pod spec `spec` at `place` in `manifest`; nothing without annotations. */
export function validateSeccompAnnotations(manifest: unknown, place: PodSpecPlace, spec: Record<string, unknown>, found: PodSpecError[]): void {
  const annotations = podAnnotations(manifest, place);
  if (annotations === undefined) return;
  let any = false;
  let parent: readonly string[] = [];
  for (const key in annotations) {
    if (key !== POD_KEY && !key.startsWith(CONTAINER_PREFIX)) continue;
    if (!any) parent = place.at.slice(0, -1);
    any = true;
    const value = annotations[key];
    if (typeof value !== 'string') continue;
    const at = place.isPod ? ['metadata', 'annotations', key] : [...parent, 'annotations', key];
    for (const detail of seccompAnnotationErrors(value)) found.push({ at, field: [...parent, 'metadata', 'annotations', key], type: 'Invalid value', value, detail, check: 'seccomp-annotation' });
  }
  if (!any) return;
  const manifestAt = [...parent, 'metadata', 'annotations'];
  const podSc = spec.securityContext;
  const podProfile = isMap(podSc) && isMap(podSc.seccompProfile) ? podSc.seccompProfile : undefined;
  const podAnnotation = annotations[POD_KEY];
  if (podProfile && typeof podAnnotation === 'string') {
    match(podAnnotation, podProfile, [...place.at, 'securityContext', 'seccompProfile'], [...manifestAt, POD_KEY], found);
  }
  for (const list of LISTS) {
    const value = spec[list];
    if (!Array.isArray(value)) continue;
    value.forEach((c, i) => {
      if (!isMap(c) || typeof c.name !== 'string' || !isMap(c.securityContext) || !isMap(c.securityContext.seccompProfile)) return;
      const annotation = annotations[CONTAINER_PREFIX + c.name];
      if (typeof annotation !== 'string') return;
      match(annotation, c.securityContext.seccompProfile, [...place.at, list, String(i), 'securityContext', 'seccompProfile'], [...manifestAt, CONTAINER_PREFIX + c.name], found);
    });
  }
}

/** `validateSeccompAnnotationsAndFieldsMatch`. */
function match(annotation: string, profile: Record<string, unknown>, at: readonly string[], field: readonly string[], found: PodSpecError[]): void {
  const mismatch = (which: 'type' | 'localhostProfile', what: string): PodSpecError => ({ at: [...at, which], field, type: 'Forbidden', detail: `seccomp ${what} in annotation and field must match`, check: 'seccomp-annotation', depends: [at] });
  const which = profileMismatch(annotation, profile, ['runtime/default', 'docker/default']);
  if (which) found.push(mismatch(which, which === 'type' ? 'type' : 'profile'));
}

/** The summary and fix of a seccomp annotation's error. */
export function explainSeccompAnnotation(e: PodSpecError): { summary: string; fix: string } {
  if (e.type === 'Forbidden') return { summary: 'names another seccomp profile than the securityContext.seccompProfile beside it', fix: 'Drop the deprecated annotation: the seccompProfile field replaces it.' };
  return {
    summary: "is no seccomp profile: the annotation takes 'runtime/default', 'docker/default', 'unconfined' or 'localhost/<relative path without ..>'",
    fix: "Drop the annotation for securityContext.seccompProfile: { type: 'RuntimeDefault' } (or 'Localhost' with localhostProfile), or write one of those values.",
  };
}
