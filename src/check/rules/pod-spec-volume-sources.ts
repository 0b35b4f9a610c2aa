import type { PodSpecError } from './pod-spec-errors';
import { validateEnvFieldRef, validateEnvResourceFieldRef } from './pod-spec-resources';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in the files a volume projects: the `secret`, `configMap`, `downwardAPI`
 * and `projected` sources of a pod's volumes, ported from kubernetes `pkg/apis/core/validation/validation.go`
 * (`validateSecretVolumeSource`, `validateConfigMapVolumeSource`, `validateKeyToPath`, `validateDownwardAPIVolumeSource`,
 * `validateDownwardAPIVolumeFile`, `validateProjectedVolumeSource`, `validateProjectionSources`,
 * `ValidateLocalNonReservedPath`, `validatePathNoBacksteps`) at the commit `pod-spec-errors.ts` names. Where the API
 * server names a field other than the one at fault it is ported as it prints it: a downward API file's errors name the
 * source, not the item (`volumes[0].downwardAPI.fieldRef.fieldPath`, without `items[0]`), a projected service account
 * token's path the projection (`volumes[0].projected.path`); the finding names the item.
 *
 * Only a volume of one source is read: two sources are the contradiction `merged-contradictions` names, and the API
 * server then validates only the first. A `serviceAccountToken`'s `expirationSeconds` left out is defaulted to 3600.
 */

type Found = PodSpecError[];

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function missing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The file errors of the volume `v` at `at`, whose one source is `source`. */
export function validateVolumeFiles(v: Record<string, unknown>, source: string, at: readonly string[], found: Found): void {
  const s = v[source];
  if (!isMap(s)) return;
  const sAt = [...at, source];
  switch (source) {
    case 'secret':
      if (missing(s.secretName)) found.push({ at: [...sAt, 'secretName'], type: 'Required value', check: 'downward-file' });
      fileMode(s.defaultMode, [...sAt, 'defaultMode'], found);
      list(s.items).forEach((kp, i) => keyToPath(kp, [...sAt, 'items', String(i)], found));
      return;
    case 'configMap':
      if (missing(s.name)) found.push({ at: [...sAt, 'name'], type: 'Required value', check: 'downward-file' });
      fileMode(s.defaultMode, [...sAt, 'defaultMode'], found);
      list(s.items).forEach((kp, i) => keyToPath(kp, [...sAt, 'items', String(i)], found));
      return;
    case 'downwardAPI':
      fileMode(s.defaultMode, [...sAt, 'defaultMode'], found);
      list(s.items).forEach((f, i) => downwardFile(f, sAt, [...sAt, 'items', String(i)], found));
      return;
    case 'projected':
      fileMode(s.defaultMode, [...sAt, 'defaultMode'], found);
      projectionSources(s, sAt, found);
      return;
    default:
  }
}

/** A file mode: 0 to 0777 (511), when set. */
function fileMode(mode: unknown, at: readonly string[], found: Found): void {
  if (typeof mode === 'number' && Number.isInteger(mode) && (mode > 0o777 || mode < 0)) {
    found.push({ at, type: 'Invalid value', value: mode, detail: FILE_MODE, check: 'file-mode' });
  }
}

/** `validateKeyToPath`: a key, a relative path inside the volume, a mode. */
function keyToPath(kp: unknown, at: readonly string[], found: Found): void {
  if (!isMap(kp)) return;
  if (missing(kp.key)) found.push({ at: [...at, 'key'], type: 'Required value', check: 'downward-file' });
  if (missing(kp.path)) found.push({ at: [...at, 'path'], type: 'Required value', check: 'downward-file' });
  if (typeof kp.path === 'string') localNonReservedPath(kp.path, [...at, 'path'], undefined, found);
  fileMode(kp.mode, [...at, 'mode'], found);
}

/**
 * `ValidateLocalNonReservedPath`: relative, without a `..` element, not starting with `..`; printed at `at`, about the
 * manifest's `field` when the API server names another.
 */
function localNonReservedPath(path: string, at: readonly string[], field: readonly string[] | undefined, found: Found): void {
  const where = field ? { field, depends: [field] } : {};
  if (path.startsWith('/')) found.push({ at, type: 'Invalid value', value: path, detail: 'must be a relative path', check: 'downward-file', ...where });
  if (path.split('/').includes('..')) found.push({ at, type: 'Invalid value', value: path, detail: "must not contain '..'", check: 'downward-file', ...where });
  if (path.startsWith('..') && !path.startsWith('../')) found.push({ at, type: 'Invalid value', value: path, detail: "must not start with '..'", check: 'downward-file', ...where });
}

/**
 * `validateDownwardAPIVolumeFile` of the item at `item`, whose errors the API server names from `printed` (the source:
 * it passes the source's path, not the item's, to the function).
 */
function downwardFile(f: unknown, printed: readonly string[], item: readonly string[], found: Found): void {
  if (!isMap(f)) return;
  const own: Found = [];
  if (missing(f.path)) own.push({ at: [...item, 'path'], type: 'Required value', check: 'downward-file' });
  if (typeof f.path === 'string') localNonReservedPath(f.path, [...item, 'path'], undefined, own);
  const fieldRef = isMap(f.fieldRef) ? f.fieldRef : undefined;
  const resourceRef = isMap(f.resourceFieldRef) ? f.resourceFieldRef : undefined;
  if (fieldRef) {
    validateEnvFieldRef(fieldRef, [...item, 'fieldRef'], own, true);
  } else if (resourceRef) {
    validateEnvResourceFieldRef(resourceRef, [...item, 'resourceFieldRef'], own, true);
  } else {
    own.push({ at: item, type: 'Required value', detail: 'one of fieldRef and resourceFieldRef is required', check: 'downward-file' });
  }
  fileMode(f.mode, [...item, 'mode'], own);
  // fieldRef beside resourceFieldRef is a contradiction of a one-of: merged-contradictions names it
  for (const e of own) found.push(relocate(e, item, printed));
}

/** `e`, found at the manifest's `item`, as the API server prints it from `printed`, about the manifest's field. */
function relocate(e: PodSpecError, item: readonly string[], printed: readonly string[]): PodSpecError {
  const field = e.field ?? e.at;
  return { ...e, at: [...printed, ...e.at.slice(item.length)], field, depends: [...(e.depends ?? []), field] };
}

/** `validateProjectionSources`: each source's files, and no path projected twice. */
function projectionSources(projected: Record<string, unknown>, at: readonly string[], found: Found): void {
  const paths = new Map<string, readonly string[]>();
  const claim = (path: unknown, value: string, field: readonly string[]): void => {
    if (typeof path !== 'string' || path === '') return;
    const first = paths.get(path);
    if (first) found.push({ at, type: 'Invalid value', value, detail: 'conflicting duplicate paths', check: 'downward-file', field, depends: [field, first] });
    else paths.set(path, field);
  };
  list(projected.sources).forEach((source, i) => {
    if (!isMap(source)) return;
    const srcAt = [...at, 'sources', String(i)];
    for (const kind of ['secret', 'configMap']) {
      const s = source[kind];
      if (!isMap(s)) continue;
      const projAt = [...srcAt, kind];
      if (missing(s.name)) found.push({ at: [...projAt, 'name'], type: 'Required value', check: 'downward-file' });
      list(s.items).forEach((kp, j) => {
        const itemAt = [...projAt, 'items', String(j)];
        keyToPath(kp, itemAt, found);
        if (isMap(kp)) claim(kp.path, typeof s.name === 'string' ? s.name : '', [...itemAt, 'path']);
      });
    }
    const d = source.downwardAPI;
    if (isMap(d)) {
      const projAt = [...srcAt, 'downwardAPI'];
      list(d.items).forEach((f, j) => {
        const itemAt = [...projAt, 'items', String(j)];
        downwardFile(f, projAt, itemAt, found);
        if (isMap(f) && typeof f.path === 'string') claim(f.path, f.path, [...itemAt, 'path']);
      });
    }
    const token = source.serviceAccountToken;
    if (isMap(token)) {
      const tokenAt = [...srcAt, 'serviceAccountToken'];
      const seconds = typeof token.expirationSeconds === 'number' ? token.expirationSeconds : token.expirationSeconds === undefined || token.expirationSeconds === null ? 3600 : undefined;
      if (seconds !== undefined && seconds < 600) {
        found.push({ at: [...tokenAt, 'expirationSeconds'], type: 'Invalid value', value: seconds, detail: 'may not specify a duration less than 10 minutes', check: 'downward-file' });
      }
      if (seconds !== undefined && seconds > 2 ** 32) {
        found.push({ at: [...tokenAt, 'expirationSeconds'], type: 'Invalid value', value: seconds, detail: 'may not specify a duration larger than 2^32 seconds', check: 'downward-file' });
      }
      // the API server names the projection's path, not the token's
      const pathField = [...tokenAt, 'path'];
      if (missing(token.path)) found.push({ at: [...at, 'path'], type: 'Required value', check: 'downward-file', field: pathField, depends: [pathField] });
      else if (typeof token.path === 'string') localNonReservedPath(token.path, [...at, 'path'], pathField, found);
    }
  });
}
