import type { PodContext, PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a container's `volumeMounts` and `volumeDevices`, ported from
 * kubernetes `pkg/apis/core/validation/validation.go` (`ValidateVolumeMounts`, `ValidateVolumeDevices`,
 * `validateMountPropagation`, `validateLocalDescendingPath`) at the commit `pod-spec-errors.ts` names.
 */

type Found = PodSpecError[];

/** The API server's test of a string field "set": Go's zero value is "". */
function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `GetVolumeMountMap` or `GetVolumeDeviceMap`: the path of each name (the last of a name), with where it is. */
function pathsByName(value: unknown, pathField: string, at: readonly string[]): Map<string, { path: unknown; at: readonly string[] }> {
  const byName = new Map<string, { path: unknown; at: readonly string[] }>();
  list(value).forEach((e, i) => { if (isMap(e) && typeof e.name === 'string') byName.set(e.name, { path: e[pathField], at: [...at, String(i)] }); });
  return byName;
}

/** The element of `byName` whose path is `path`. */
function withPath(byName: ReadonlyMap<string, { path: unknown; at: readonly string[] }>, path: unknown): readonly string[] | undefined {
  for (const e of byName.values()) if (e.path === path) return e.at;
  return undefined;
}

/**
 * `ValidateVolumeMounts`: a volume of the pod by name, a mount path, a sub path inside the volume; neither the name
 * nor the path a volume device's of the container.
 */
export function validateVolumeMounts(
  value: unknown, at: readonly string[], devices: unknown, devicesAt: readonly string[], privileged: boolean, ctx: PodContext, found: Found,
): void {
  const deviceMap = pathsByName(devices, 'devicePath', devicesAt);
  list(value).forEach((m, i) => {
    if (!isMap(m)) return;
    const mAt = [...at, String(i)];
    const name = m.name;
    if (name === undefined || name === null || name === '') found.push({ at: [...mAt, 'name'], type: 'Required value', check: 'mount-name' });
    // a missing name is "", which no volume has either
    const named = typeof name === 'string' ? name : name === undefined || name === null ? '' : undefined;
    if (named !== undefined && !ctx.volumes.has(named)) {
      found.push({ at: [...mAt, 'name'], type: 'Not found', value: named, check: 'mount-name', depends: [ctx.volumesAt] });
    }
    if (m.mountPath === undefined || m.mountPath === null || m.mountPath === '') {
      found.push({ at: [...mAt, 'mountPath'], type: 'Required value', check: 'mount-path' });
    }
    if (typeof name === 'string' && deviceMap.has(name)) {
      found.push({ at: [...mAt, 'name'], type: 'Invalid value', value: name, detail: 'must not already exist in volumeDevices', check: 'mount-device-overlap', depends: [deviceMap.get(name)!.at] });
    }
    const device = typeof m.mountPath === 'string' ? withPath(deviceMap, m.mountPath) : undefined;
    if (device) {
      found.push({ at: [...mAt, 'mountPath'], type: 'Invalid value', value: m.mountPath as string, detail: 'must not already exist as a path in volumeDevices', check: 'mount-device-overlap', depends: [device] });
    }
    const subPath = str(m.subPath);
    // the API server names `volumeMounts.subPath`, without the index (validateLocalDescendingPath of fldPath)
    if (subPath) validateLocalDescendingPath(subPath, [...at, 'subPath'], mAt, found);
    const expr = str(m.subPathExpr);
    if (expr) {
      if (subPath) found.push({ at: [...mAt, 'subPathExpr'], type: 'Invalid value', value: expr, detail: 'subPathExpr and subPath are mutually exclusive', check: 'sub-path' });
      validateLocalDescendingPath(expr, [...at, 'subPathExpr'], mAt, found);
    }
    // validateMountPropagation: the API server names `volumeMounts.mountPropagation`, without the index
    const propagation = str(m.mountPropagation);
    if (propagation) {
      const propagationAt = [...at, 'mountPropagation'];
      const element = [...mAt, 'mountPropagation'];
      if (!['Bidirectional', 'HostToContainer', 'None'].includes(propagation)) {
        found.push({ at: propagationAt, type: 'Unsupported value', value: propagation, detail: 'supported values: "Bidirectional", "HostToContainer", "None"', check: 'mount-propagation', field: element, depends: [element] });
      } else if (propagation === 'Bidirectional' && !privileged) {
        found.push({ at: propagationAt, type: 'Forbidden', detail: 'Bidirectional mount propagation is available only to privileged containers', check: 'mount-propagation', field: element, depends: [element, privilegedAt(at)] });
      }
    }
  });
}

/** A container's `securityContext.privileged` is true. */
export function isPrivileged(c: Record<string, unknown>): boolean {
  return isMap(c.securityContext) && c.securityContext.privileged === true;
}

/** The `securityContext.privileged` of the container whose mounts are at `mountsAt`. */
function privilegedAt(mountsAt: readonly string[]): readonly string[] {
  return [...mountsAt.slice(0, -1), 'securityContext', 'privileged'];
}

/** Split on '/' alone, as `validatePathNoBacksteps` does on the Linux API server (`filepath.ToSlash` changes nothing there). */
function validateLocalDescendingPath(path: string, at: readonly string[], element: readonly string[], found: Found): void {
  if (path.startsWith('/')) found.push({ at, type: 'Invalid value', value: path, detail: 'must be a relative path', check: 'sub-path', depends: [element] });
  if (path.split('/').includes('..')) found.push({ at, type: 'Invalid value', value: path, detail: "must not contain '..'", check: 'sub-path', depends: [element] });
}

/**
 * `ValidateVolumeDevices`: a PersistentVolumeClaim or ephemeral volume of the pod by a name unique in the container,
 * and a device path; neither a volume mount's of the container.
 */
export function validateVolumeDevices(
  value: unknown, at: readonly string[], mounts: unknown, mountsAt: readonly string[], ctx: PodContext, found: Found,
): void {
  const mountMap = pathsByName(mounts, 'mountPath', mountsAt);
  const names = new Map<string, readonly string[]>();
  list(value).forEach((d, i) => {
    if (!isMap(d)) return;
    const dAt = [...at, String(i)];
    const name = d.name;
    if (name === undefined || name === null || name === '') {
      found.push({ at: [...dAt, 'name'], type: 'Required value', check: 'device-name' });
    }
    if (typeof name === 'string' && names.has(name)) {
      found.push({ at: [...dAt, 'name'], type: 'Invalid value', value: name, detail: 'must be unique', check: 'device-name', depends: [names.get(name)!] });
    }
    const named = typeof name === 'string' ? name : name === undefined || name === null ? '' : undefined;
    if (named !== undefined) {
      const sources = ctx.volumes.get(named);
      if (!sources) {
        found.push({ at: [...dAt, 'name'], type: 'Not found', value: named, check: 'device-name', depends: [ctx.volumesAt] });
      } else if (!sources.includes('persistentVolumeClaim') && !sources.includes('ephemeral')) {
        found.push({ at: [...dAt, 'name'], type: 'Invalid value', value: named, detail: 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode', check: 'device-name', depends: [ctx.volumesAt] });
      }
    }
    const path = d.devicePath;
    if (path === undefined || path === null || path === '') {
      found.push({ at: [...dAt, 'devicePath'], type: 'Required value', check: 'device-path' });
    } else if (typeof path === 'string' && path.split('/').includes('..')) {
      found.push({ at: [...dAt, 'devicePath'], type: 'Invalid value', value: path, detail: "can not contain backsteps ('..')", check: 'device-path' });
    }
    if (typeof name === 'string' && mountMap.has(name)) {
      found.push({ at: [...dAt, 'name'], type: 'Invalid value', value: name, detail: 'must not already exist in volumeMounts', check: 'mount-device-overlap', depends: [mountMap.get(name)!.at] });
    }
    const mount = typeof path === 'string' ? withPath(mountMap, path) : undefined;
    if (mount) {
      found.push({ at: [...dAt, 'devicePath'], type: 'Invalid value', value: path as string, detail: 'must not already exist as a path in volumeMounts', check: 'mount-device-overlap', depends: [mount] });
    }
    if (typeof name === 'string' && name !== '' && !names.has(name)) names.set(name, dAt);
  });
}
