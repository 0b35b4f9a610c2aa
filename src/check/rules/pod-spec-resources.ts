import { isQualifiedName } from './apimachinery-names';
import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';
import { parseQuantity } from '../../private/quantity';
import {
  compareQuantities, defaultedResourceQuantity, exactQuantity, ExactQuantity, goQuantityValue, integerValue, milliValue, quantityString,
} from '../../private/quantity-canonical';

/*
 * What the Kubernetes 1.30 API server refuses in a container's `resources` and in the downward API selectors of its
 * env (`fieldRef`, `resourceFieldRef`), ported from kubernetes `pkg/apis/core/validation/validation.go`
 * (`ValidateResourceRequirements`, `validateContainerResourceName`, `validateResourceName`,
 * `ValidateNonnegativeQuantity`, `validateObjectFieldSelector`, `validateContainerResourceFieldSelector`,
 * `validateContainerResourceDivisor`), `pkg/apis/core/helper/helpers.go` (`IsNativeResource`,
 * `IsExtendedResourceName`, `IsOvercommitAllowed`, the standard resource names) and `pkg/apis/core/pods/helpers.go`
 * (`ConvertDownwardAPIFieldLabel`), read at the commit `pod-spec-errors.ts` names; quantities as
 * `private/quantity-canonical.ts` ports them, after `SetDefaults_ResourceList` has rounded them up to the milli scale.
 * A quantity the API server cannot parse is the quantity-formats rule's, and is not compared here. Go ranges over a
 * resource map in no fixed order; this port takes the manifest's.
 *
 * Left out, because the 1.30 API server drops them before it validates (`dropDisabledFields` of
 * `pkg/api/pod/util.go`, feature gates at their 1.30 defaults): a container's `resources.claims` and the pod's
 * `resourceClaims` (DynamicResourceAllocation is alpha and off), and a mount's `recursiveReadOnly`
 * (RecursiveReadOnlyMounts is alpha and off). They are never refused; they are lost.
 */

type Found = PodSpecError[];

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

/** `helper.IsNativeResource`: no domain, or one in `kubernetes.io/`. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** `helper.IsExtendedResourceName`: a domain outside `kubernetes.io/`, a quota name (`requests.<name>`) that is a qualified name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** `helper.integerResources`: the quota resources counted in whole objects. */
const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

/** `helper.IsIntegerResourceName`: a quota resource counted in objects, or an extended resource. */
function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

/**
 * `helper.IsHugePageResourceValueDivisible`: the page size of `hugepages-<size>` parses, is a positive integer, and
 * divides the quantity's `Value()`; undefined when a value does not fit an int64 (left unjudged).
 */
function isHugePageValueDivisible(name: string, q: ExactQuantity): boolean | undefined {
  const size = name.slice('hugepages-'.length);
  // HugePageSizeFromResourceName: ParseQuantity of the size, which takes no white space
  if (size !== size.trim() || !parseQuantity(size)) return false;
  const page = defaultedResourceQuantity(size);
  if (!page) return undefined;
  if (page.unscaled <= 0n) return false;
  const pageMilli = milliValue(page);
  const value = integerValue(q);
  const pageValue = integerValue(page);
  if (pageMilli === undefined || value === undefined || pageValue === undefined) return undefined;
  return pageMilli % 1000n === 0n && value % pageValue === 0n;
}

/** `helper.IsOvercommitAllowed`: a native resource other than hugepages (a request may then be below its limit). */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith('hugepages-');
}

/** `validateContainerResourceName` (and the `validateResourceName` it starts with): its messages. */
export function containerResourceNameProblems(name: string): readonly string[] {
  if (STANDARD_CONTAINER_RESOURCES.has(name)) return [];
  // a program names few resources, many times each
  let problems = NAME_PROBLEMS.get(name);
  if (problems === undefined) {
    if (NAME_PROBLEMS.size >= 1024) NAME_PROBLEMS.clear();
    problems = nameProblems(name);
    NAME_PROBLEMS.set(name, problems);
  }
  return problems;
}

const NAME_PROBLEMS = new Map<string, readonly string[]>();

function nameProblems(name: string): readonly string[] {
  const errs = isQualifiedName(name);
  const unqualified = !name.includes('/');
  if (errs.length === 0 && unqualified && !(STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-'))) {
    errs.push('must be a standard resource type or fully qualified');
  }
  if (unqualified) {
    if (!(STANDARD_CONTAINER_RESOURCES.has(name) || name.startsWith('hugepages-'))) errs.push('must be a standard resource for containers');
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push("doesn't follow extended resource name standard");
  }
  return errs;
}

/** The entries of a resource list that hold a value (a null entry is left alone). */
function entries(list: unknown): Array<[string, unknown]> {
  return isMap(list) ? Object.entries(list).filter(([, v]) => v !== undefined && v !== null) : [];
}

/**
 * `ValidateResourceRequirements` of a container's `resources` at `at`: resource names, no negative quantity, a
 * request at most its limit (equal to it for a resource that cannot be overcommitted: hugepages and extended
 * resources, which need a limit), hugepages beside cpu or memory.
 */
export function validateResourceRequirements(resources: unknown, at: readonly string[], found: Found): void {
  if (!isMap(resources)) return;
  const limAt = [...at, 'limits'];
  const reqAt = [...at, 'requests'];
  const limits = new Map(entries(resources.limits));
  let cpuOrMemory = false;
  let hugePages = false;
  // validateContainerResourceName, then ValidateResourceQuantityValue (not negative; whole for an integer resource)
  const common = (name: string, value: unknown, fAt: readonly string[]): ExactQuantity | undefined => {
    for (const msg of containerResourceNameProblems(name)) found.push({ at: fAt, keyed: true, type: 'Invalid value', value: name, detail: msg, check: 'resource-name' });
    const q = defaultedResourceQuantity(value);
    if (q && q.unscaled < 0n) found.push({ at: fAt, keyed: true, type: 'Invalid value', value: quantityString(q), detail: 'must be greater than or equal to 0', check: 'resource-quantity' });
    const milli = q && isIntegerResourceName(name) ? milliValue(q) : undefined;
    if (q && milli !== undefined && milli % 1000n !== 0n) {
      found.push({ at: fAt, keyed: true, type: 'Invalid value', value: goQuantityValue(q), raw: true, detail: 'must be an integer', check: 'resource-integer' });
    }
    if (name.startsWith('hugepages-')) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    return q;
  };
  // validateResourceQuantityHugePageValue: a hugepages quantity is a whole number of its pages
  const pages = (name: string, q: ExactQuantity | undefined, fAt: readonly string[]): void => {
    if (!q || !name.startsWith('hugepages-') || isHugePageValueDivisible(name, q) !== false) return;
    const text = quantityString(q);
    found.push({ at: fAt, keyed: true, type: 'Invalid value', value: text, detail: `${text} is not positive integer multiple of ${name}`, check: 'hugepages-size' });
  };
  for (const [name, value] of limits) pages(name, common(name, value, [...limAt, name]), [...limAt, name]);
  for (const [name, value] of entries(resources.requests)) {
    const q = common(name, value, [...reqAt, name]);
    const depends = [[...reqAt, name], [...limAt, name]];
    if (limits.has(name)) {
      const limit = defaultedResourceQuantity(limits.get(name));
      if (q && limit) {
        const cmp = compareQuantities(q, limit);
        if (cmp !== 0 && !isOvercommitAllowed(name)) {
          found.push({ at: reqAt, type: 'Invalid value', value: quantityString(q), detail: `must be equal to ${name} limit of ${quantityString(limit)}`, check: 'request-limit', field: depends[0], depends });
        } else if (cmp > 0) {
          found.push({ at: reqAt, type: 'Invalid value', value: quantityString(q), detail: `must be less than or equal to ${name} limit of ${quantityString(limit)}`, check: 'request-limit', field: depends[0], depends });
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      found.push({ at: limAt, type: 'Required value', detail: 'Limit must be set for non overcommitable resources', check: 'request-limit', field: depends[0], depends });
    }
    pages(name, q, [...reqAt, name]);
  }
  if (hugePages && !cpuOrMemory) found.push({ at, type: 'Forbidden', detail: 'HugePages require cpu or memory', check: 'hugepages', depends: [limAt, reqAt] });
}

/** The field paths env's `fieldRef` may read (`validEnvDownwardAPIFieldPathExpressions`), sorted as `sets.List` prints them. */
const ENV_FIELD_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];
/** The labels `ConvertDownwardAPIFieldLabel` takes for a v1 pod (`spec.host` is `spec.nodeName`). */
const POD_FIELD_LABELS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

/** `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['app']` is `metadata.labels` and `app`. */
function splitSubscripted(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const i = s.indexOf("['");
  return i > 0 ? [s.slice(0, i), s.slice(i + 2)] : undefined;
}

/** The field paths a downward API volume file's `fieldRef` may read (`validVolumeDownwardAPIFieldPathExpressions`), sorted. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/**
 * `validateObjectFieldSelector` of an env var's `valueFrom.fieldRef` at `at` (its `apiVersion` defaulted to v1), or with
 * `volume` of a downward API volume file's `fieldRef`, which reads other paths.
 */
export function validateEnvFieldRef(ref: Record<string, unknown>, at: readonly string[], found: Found, volume = false): void {
  const check = volume ? 'volume-field-ref' : 'env-field-ref';
  const paths = volume ? VOLUME_FIELD_PATHS : ENV_FIELD_PATHS;
  const fieldPath = ref.fieldPath;
  const pathAt = [...at, 'fieldPath'];
  if (fieldPath === undefined || fieldPath === null || fieldPath === '') {
    found.push({ at: pathAt, type: 'Required value', check });
    return;
  }
  if (typeof fieldPath !== 'string') return;
  const version = typeof ref.apiVersion === 'string' && ref.apiVersion !== '' ? ref.apiVersion : 'v1';
  const split = splitSubscripted(fieldPath);
  let error: string | undefined;
  if (version !== 'v1') error = `unsupported pod version: ${version}`;
  else if (split && split[0] !== 'metadata.annotations' && split[0] !== 'metadata.labels') error = `field label does not support subscript: ${fieldPath}`;
  else if (!split && !POD_FIELD_LABELS.has(fieldPath) && fieldPath !== 'spec.host') error = `field label not supported: ${fieldPath}`;
  if (error) {
    found.push({ at: pathAt, type: 'Invalid value', value: fieldPath, detail: `error converting fieldPath: ${error}`, check, depends: [[...at, 'apiVersion']] });
    return;
  }
  if (split) {
    const key = split[0] === 'metadata.annotations' ? split[1].toLowerCase() : split[1];
    for (const msg of isQualifiedName(key)) found.push({ at, type: 'Invalid value', value: key, detail: msg, check, field: pathAt, depends: [pathAt] });
    return;
  }
  const path = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  if (!paths.includes(path)) {
    found.push({ at: pathAt, type: 'Unsupported value', value: path, detail: `supported values: ${paths.map((p) => JSON.stringify(p)).join(', ')}`, check });
  }
}

const ENV_RESOURCES = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISORS_TEXT = "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the";

/**
 * `validateContainerResourceFieldSelector` of an env var's `valueFrom.resourceFieldRef` at `at` (hugepages resources
 * allowed), or with `volume` of a downward API volume file's, which must name its container.
 */
export function validateEnvResourceFieldRef(ref: Record<string, unknown>, at: readonly string[], found: Found, volume = false): void {
  const check = volume ? 'volume-resource-ref' : 'env-resource-ref';
  const resource = ref.resource;
  const containerName = ref.containerName;
  if (volume && (containerName === undefined || containerName === null || containerName === '')) {
    found.push({ at: [...at, 'containerName'], type: 'Required value', check });
  } else if (resource === undefined || resource === null || resource === '') {
    found.push({ at: [...at, 'resource'], type: 'Required value', check });
  } else if (typeof resource === 'string' && !ENV_RESOURCES.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    found.push({ at: [...at, 'resource'], type: 'Unsupported value', value: resource, detail: `supported values: ${ENV_RESOURCES.map((r) => JSON.stringify(r)).join(', ')}`, check });
  }
  // validateContainerResourceDivisor: an unset (zero) divisor is 1; else its String() must be one of the resource's
  const divisor = exactQuantity(ref.divisor);
  const name = typeof resource === 'string' ? resource : '';
  if (!divisor || divisor.unscaled === 0n) return;
  const text = quantityString(divisor);
  const problems: string[] = [];
  if ((name === 'limits.cpu' || name === 'requests.cpu') && text !== '1m' && text !== '1') problems.push("only divisor's values 1m and 1 are supported with the cpu resource");
  if ((name === 'limits.memory' || name === 'requests.memory') && !BYTE_DIVISORS.has(text)) problems.push(`${BYTE_DIVISORS_TEXT} memory resource`);
  if ((name === 'limits.ephemeral-storage' || name === 'requests.ephemeral-storage') && !BYTE_DIVISORS.has(text)) problems.push(`${BYTE_DIVISORS_TEXT} local ephemeral storage resource`);
  if ((name.startsWith('requests.hugepages-') || name.startsWith('limits.hugepages-')) && !BYTE_DIVISORS.has(text)) problems.push(`${BYTE_DIVISORS_TEXT} hugepages resource`);
  for (const msg of problems) found.push({ at: [...at, 'divisor'], type: 'Invalid value', value: name, detail: msg, check, depends: [[...at, 'resource']] });
}
