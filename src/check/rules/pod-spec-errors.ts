import { isConfigMapKey, isDNS1123Label, isEnvVarName, isValidPortName, isValidPortNum } from './apimachinery-names';
import { validateAppArmorAnnotations } from './pod-spec-apparmor-annotations';
import { validateDeletionCost } from './pod-spec-deletion-cost';
import { validatePodDNSConfig } from './pod-spec-dns';
import { validatePodIdentity } from './pod-spec-identity';
import { validatePodOS } from './pod-spec-os';
import { validatePodReferences } from './pod-spec-references';
import { validateEnvFieldRef, validateEnvResourceFieldRef, validateResourceRequirements } from './pod-spec-resources';
import { PodTemplateOwner, validateRestartPolicy } from './pod-spec-restart-policy';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './pod-spec-scheduling';
import { validateSeccompAnnotations } from './pod-spec-seccomp-annotations';
import { validateContainerSecurityContext, validatePodSecurityContext } from './pod-spec-security-context';
import { isPrivileged, validateVolumeDevices, validateVolumeMounts } from './pod-spec-volume-mounts';
import { validateVolumeFiles } from './pod-spec-volume-sources';
import { validateHostProcess } from './pod-spec-windows';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod spec (a Pod's `spec`, a template's `spec.template.spec`),
 * ported from kubernetes `pkg/apis/core/validation/validation.go` (`ValidatePodSpec`, `validateContainers`,
 * `validateInitContainers`, `validateEphemeralContainers`, `validateContainerCommon`, `validateContainerPorts`,
 * `ValidateVolumes`, `ValidateEnv`, `validateEnvVarValueFrom`, `ValidateEnvFrom`, `validateProbe`, `validateHandler`;
 * a container's mounts and devices in `pod-spec-volume-mounts.ts`, its resources and its env's downward API selectors
 * in `pod-spec-resources.ts`, the restart policy in `pod-spec-restart-policy.ts`, the files a volume projects in
 * `pod-spec-volume-sources.ts`, tolerations, spread constraints and affinity in `pod-spec-scheduling.ts`), read at commit a7264f95ffc8b56377da16e83461aa59467ebb3e
 * (no v1.30 tag could be read: the repository is over the fetch limit, and the index holds this copy), a commit of
 * the 1.31 cycle (it has 1.30's relaxed env names option and recursive read-only mounts, 1.31's
 * SupplementalGroupsPolicy, not yet 1.31's image volumes) whose functions ported here are 1.30's; and the message
 * texts of k8s.io/apimachinery v0.30.14, the 1.30 release (`pkg/util/validation`, `pkg/util/validation/field`).
 * Feature gates at their 1.30 defaults (kube_features.go: `RelaxedEnvironmentVariableValidation` alpha in 1.30,
 * off), so env names are `IsEnvVarName`'s.
 *
 * It reads the manifest as written: what the API server defaults before it validates (a port's `protocol`, an
 * `httpGet` probe's `path`, `imagePullPolicy`, `terminationMessagePolicy`, a probe's zero thresholds) is taken as
 * defaulted. What server-side apply or another rule already refuses is left to it: two elements of one keyed list
 * with one key (containers, volumes, env by `name`, mounts by `mountPath`, ports by `containerPort`+`protocol`),
 * `value` beside `valueFrom`, two volume sources, two probe handlers (`merged-contradictions`), a value of the wrong
 * JSON type (`scalar-types`).
 */

/** The kinds of `field.Error` the API server returns, as `ErrorType.String()` prints them. */
export type PodSpecErrorType = 'Required value' | 'Invalid value' | 'Duplicate value' | 'Not found' | 'Unsupported value' | 'Forbidden' | 'Too long';

/** What was checked, for the message that explains it and its fix. */
export type PodSpecCheck =
  | 'containers-required' | 'container-name' | 'container-name-unique' | 'image' | 'image-whitespace'
  | 'restart-policy' | 'init-container-field' | 'ephemeral-containers' | 'pull-policy' | 'termination-message-policy'
  | 'port-name' | 'port-name-unique' | 'container-port' | 'host-port' | 'protocol' | 'host-network-port' | 'host-port-conflict'
  | 'env-name' | 'env-value-from' | 'env-key' | 'env-from-prefix' | 'env-from-source'
  | 'volume-name' | 'volume-source' | 'mount-name' | 'mount-path' | 'sub-path' | 'device-name' | 'device-path' | 'mount-device-overlap'
  | 'probe-handler' | 'probe-command' | 'probe-number' | 'probe-port' | 'target-container'
  | 'resource-name' | 'resource-quantity' | 'resource-integer' | 'request-limit' | 'hugepages' | 'hugepages-size' | 'env-field-ref' | 'env-resource-ref' | 'mount-propagation'
  | 'pod-restart-policy' | 'active-deadline'
  | 'volume-field-ref' | 'volume-resource-ref' | 'downward-file' | 'file-mode'
  | 'toleration' | 'topology-spread' | 'affinity'
  | 'service-port-name' | 'service-port' | 'service-protocol' | 'service-target-port' | 'service-node-port'
  | 'service-type' | 'service-session-affinity' | 'service-ports'
  | 'service-cluster-ip' | 'service-ip-family' | 'service-external-ip' | 'service-source-range' | 'service-load-balancer' | 'service-traffic-policy' | 'service-health-check' | 'service-external-name' | 'service-affinity-config' | 'service-selector' | 'service-app-protocol'
  | 'ingress-rules' | 'ingress-host' | 'ingress-path' | 'ingress-backend' | 'ingress-tls' | 'ingress-class'
  | 'security-id' | 'seccomp-profile' | 'dns-config'
  | 'sysctl' | 'apparmor-profile' | 'fs-group-change-policy' | 'share-process-namespace' | 'privilege-escalation'
  | 'dns-policy' | 'dns-nameservers' | 'dns-searches' | 'dns-options' | 'pod-hostname' | 'priority-class-name' | 'host-alias'
  | 'label-selector'
  | 'windows-options' | 'host-process' | 'apparmor-annotation' | 'pod-os' | 'pod-gates' | 'pod-references' | 'seccomp-annotation' | 'deletion-cost';

/** One error the API server would return for a pod spec. */
export interface PodSpecError {
  /** The field, as manifest path segments from the object's root (list indexes as digits). */
  readonly at: readonly string[];
  /** True when the last segment of `at` is a map key (a resource name), which the API server prints `[key]`. */
  readonly keyed?: boolean;
  readonly type: PodSpecErrorType;
  /** The value the error quotes (`Invalid value: "Web"`); absent for the types that quote none. */
  readonly value?: string | number;
  /** True when `value` is printed as it is, not quoted (a Go struct the API server prints with `%#v`). */
  readonly raw?: boolean;
  /** The API server's detail text, after the value. */
  readonly detail?: string;
  readonly check: PodSpecCheck;
  /**
   * The field of the manifest the error is about, when the API server names another (the request that exceeds its
   * limit, where it names `resources.requests`; the mount whose propagation it names `volumeMounts.mountPropagation`).
   */
  readonly field?: readonly string[];
  /**
   * Other fields the verdict depends on (the pod's volumes for a mount's volume name, the other container of a
   * duplicate name): a runtime writer of any of them can change it.
   */
  readonly depends?: ReadonlyArray<readonly string[]>;
}

/** Where a pod spec is, and what holds it. */
export interface PodSpecPlace {
  /** Manifest path of the pod spec from the object's root (`['spec', 'template', 'spec']`). */
  readonly at: readonly string[];
  /** True for a Pod (`validatePodMetadataAndSpec`, `ValidatePodCreate`), false for a template. */
  readonly isPod: boolean;
  /** The controller whose validation adds to the template's (its restart policy); none for a Pod or a PodTemplate. */
  readonly owner?: PodTemplateOwner;
}

/**
 * Where the API server validates a pod spec in an object of a built-in kind (`ValidatePod`, `ValidatePodTemplate`,
 * and each workload's `ValidatePodTemplateSpec`); undefined for any other kind. Not a StatefulSet's: kubernetes
 * `pkg/apis/apps/validation` `ValidatePodTemplateSpecForStatefulSet` checks only its template's labels and
 * annotations ("TODO: Add validation for PodSpec, currently this will check volumes, which we know will fail": a
 * mount may name a `volumeClaimTemplates` entry), so the API server accepts the StatefulSet and refuses its pods.
 */
export function podSpecPlace(group: string, kind: string): PodSpecPlace | undefined {
  if (group === '' && kind === 'Pod') return { at: ['spec'], isPod: true };
  if (group === '' && kind === 'PodTemplate') return { at: ['template', 'spec'], isPod: false };
  if (group === '' && kind === 'ReplicationController') return { at: ['spec', 'template', 'spec'], isPod: false, owner: 'ReplicationController' };
  if (group === 'apps' && (kind === 'Deployment' || kind === 'ReplicaSet')) return { at: ['spec', 'template', 'spec'], isPod: false, owner: 'ReplicaSet' };
  if (group === 'apps' && kind === 'DaemonSet') return { at: ['spec', 'template', 'spec'], isPod: false, owner: 'DaemonSet' };
  if (group === 'batch' && kind === 'Job') return { at: ['spec', 'template', 'spec'], isPod: false, owner: 'Job' };
  if (group === 'batch' && kind === 'CronJob') return { at: ['spec', 'jobTemplate', 'spec', 'template', 'spec'], isPod: false, owner: 'Job' };
  return undefined;
}

/** `field.Error.Error()`: `spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label ...`. */
export function apiServerText(e: PodSpecError): string {
  let body: string = e.type;
  if (e.value !== undefined && e.type !== 'Required value' && e.type !== 'Forbidden' && e.type !== 'Too long') body += `: ${e.raw ? String(e.value) : goValue(e.value)}`;
  if (e.detail) body += `: ${e.detail}`;
  return `${goPath(e.at, e.keyed)}: ${body}`;
}

/**
 * A field path as `field.Path.String()` prints it: `spec.containers[0].ports[1].name`, and with `keyed` its last
 * segment as a map key (`resources.limits[nvidia.com/gpu]`).
 */
export function goPath(at: readonly string[], keyed = false): string {
  const path = keyed ? at.slice(0, -1) : at;
  const text = path.reduce((s, segment) => (/^\d+$/.test(segment) ? `${s}[${segment}]` : s ? `${s}.${segment}` : segment), '');
  return keyed ? `${text}[${at[at.length - 1]}]` : text;
}

/** A value as Go's `%q` or `%v` prints it. */
function goValue(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The API server's test of a string field "set": Go's zero value is "". */
function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A number the API server reads as an integer; undefined for another type (the scalar-types rule's). */
function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The volume sources of a `core.v1.Volume` (every field but `name`), Kubernetes 1.30. */
const VOLUME_SOURCES = new Set([
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'configMap', 'csi', 'downwardAPI', 'emptyDir',
  'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'iscsi', 'nfs',
  'persistentVolumeClaim', 'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'scaleIO', 'secret',
  'storageos', 'vsphereVolume',
]);

type Found = PodSpecError[];

/**
 * The errors the API server returns for the pod spec at `place` in `manifest`, in the order it finds them.
 * Reads only what is there: a spec that is no map has none (the scalar-types rule names a wrong type).
 */
export function podSpecErrors(manifest: unknown, place: PodSpecPlace): PodSpecError[] {
  let spec: unknown = manifest;
  for (const s of place.at) spec = isMap(spec) ? spec[s] : undefined;
  if (!isMap(spec)) return [];
  const at = place.at;
  const found: Found = [];
  const volumes = validateVolumes(spec.volumes, [...at, 'volumes'], found);
  const containers = list(spec.containers);
  const initContainers = list(spec.initContainers);
  const ctx: PodContext = { volumes, volumesAt: [...at, 'volumes'], isPod: place.isPod };

  // validateContainers
  const containersAt = [...at, 'containers'];
  if (containers.length === 0) found.push({ at: containersAt, type: 'Required value', check: 'containers-required' });
  containers.forEach((c, i) => {
    const cAt = [...containersAt, String(i)];
    validateContainerCommon(c, cAt, ctx, found);
    if (!isMap(c)) return;
    validateLifecycleAndProbes(c, cAt, found);
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      found.push({ at: [...cAt, 'restartPolicy'], type: 'Forbidden', detail: 'may not be set for non-init containers', check: 'restart-policy' });
    }
  });
  checkHostPortConflicts(containers, containersAt, found);

  // validateInitContainers: names unique among regular and init containers (a second init container of one name is
  // server-side apply's duplicate key)
  const regular = new Map<string, number>();
  containers.forEach((c, i) => { const n = isMap(c) ? str(c.name) : undefined; if (n && !regular.has(n)) regular.set(n, i); });
  const initAt = [...at, 'initContainers'];
  initContainers.forEach((c, i) => {
    const cAt = [...initAt, String(i)];
    validateContainerCommon(c, cAt, ctx, found);
    if (!isMap(c)) return;
    const name = str(c.name);
    if (name && regular.has(name)) {
      found.push({ at: [...cAt, 'name'], type: 'Duplicate value', value: name, check: 'container-name-unique', depends: [[...containersAt, String(regular.get(name)), 'name']] });
    }
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      if (c.restartPolicy === 'Always') {
        restartAlways = true;
      } else if (typeof c.restartPolicy === 'string') {
        found.push({ at: [...cAt, 'restartPolicy'], type: 'Unsupported value', value: c.restartPolicy, detail: 'supported values: "Always"', check: 'restart-policy' });
      }
    }
    checkHostPortConflicts([c], initAt, found, i);
    if (restartAlways) {
      validateLifecycleAndProbes(c, cAt, found);
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) {
          found.push({ at: [...cAt, f], type: 'Forbidden', detail: 'may not be set for init containers without restartPolicy=Always', check: 'init-container-field' });
        }
      }
    }
  });

  // validateEphemeralContainers: names unique across every container of the pod; none may be set on create or in a template
  const ephemeral = list(spec.ephemeralContainers);
  if (ephemeral.length > 0) {
    const ephemeralAt = [...at, 'ephemeralContainers'];
    const others = new Map<string, readonly string[]>();
    containers.forEach((c, i) => { const n = isMap(c) ? str(c.name) : undefined; if (n && !others.has(n)) others.set(n, [...containersAt, String(i), 'name']); });
    initContainers.forEach((c, i) => { const n = isMap(c) ? str(c.name) : undefined; if (n && !others.has(n)) others.set(n, [...initAt, String(i), 'name']); });
    ephemeral.forEach((c, i) => {
      const cAt = [...ephemeralAt, String(i)];
      validateContainerCommon(c, cAt, { ...ctx, isPod: true }, found);
      const name = isMap(c) ? str(c.name) : undefined;
      if (name && others.has(name)) found.push({ at: [...cAt, 'name'], type: 'Duplicate value', value: name, check: 'container-name-unique', depends: [others.get(name)!] });
      const target = isMap(c) ? str(c.targetContainerName) : undefined;
      if (target && !others.has(target)) {
        found.push({ at: [...cAt, 'targetContainerName'], type: 'Not found', value: target, check: 'target-container', depends: [containersAt, initAt] });
      }
    });
    found.push(place.isPod
      ? { at: ephemeralAt, type: 'Forbidden', detail: 'cannot be set on create', check: 'ephemeral-containers' }
      : { at: ephemeralAt, type: 'Forbidden', detail: 'ephemeral containers not allowed in pod template', check: 'ephemeral-containers' });
  }

  let jobSpec: unknown = manifest;
  for (const segment of at.slice(0, -2)) jobSpec = isMap(jobSpec) ? jobSpec[segment] : undefined;
  validateRestartPolicy(spec, at, place.owner, jobSpec, found);

  // validatePodHostNetworkDeps: with hostNetwork, a host port is the container port (a Pod's 0 is defaulted to it)
  if (spec.hostNetwork === true) {
    containers.forEach((c, i) => {
      if (!isMap(c)) return;
      list(c.ports).forEach((p, j) => {
        if (!isMap(p)) return;
        const hp = int(p.hostPort) ?? 0;
        const cp = int(p.containerPort);
        if (cp !== undefined && hp !== 0 && hp !== cp) {
          found.push({ at: [...containersAt, String(i), 'ports', String(j), 'hostPort'], type: 'Invalid value', value: hp, detail: 'must match `containerPort` when `hostNetwork` is true', check: 'host-network-port', depends: [[...at, 'hostNetwork']] });
        }
      });
    });
  }
  // where the pod may run (`pod-spec-scheduling.ts`), in ValidatePodSpec's order
  validateAffinity(spec.affinity, [...at, 'affinity'], found);
  validateTopologySpreadConstraints(spec.topologySpreadConstraints, [...at, 'topologySpreadConstraints'], found);
  validateTolerations(spec.tolerations, [...at, 'tolerations'], found);
  // the pod's security context (`pod-spec-security-context.ts`)
  validatePodSecurityContext(spec.securityContext, [...at, 'securityContext'], found, spec);
  validatePodDNSConfig(spec, at, found);
  // its hostname, subdomain, host aliases and priority class (`pod-spec-identity.ts`)
  validatePodIdentity(spec, at, found);
  // its gates, service account, node, runtime class and preemption policy (`pod-spec-references.ts`)
  validatePodReferences(spec, at, place.isPod, found);
  // Windows host-process containers (`pod-spec-windows.ts`), and what its os forbids (`pod-spec-os.ts`)
  validateHostProcess(spec, at, found);
  validatePodOS(spec, at, found);
  // the deprecated AppArmor annotations of the pod's metadata (`pod-spec-apparmor-annotations.ts`)
  validateAppArmorAnnotations(manifest, place, spec, found);
  // and its deprecated seccomp annotations (`pod-spec-seccomp-annotations.ts`)
  validateSeccompAnnotations(manifest, place, spec, found);
  // and its deletion cost (`pod-spec-deletion-cost.ts`)
  validateDeletionCost(manifest, place, found);
  return found;
}

/** What a container's checks read of its pod. */
export interface PodContext {
  /** The names of the pod's volumes, each with its source fields. */
  readonly volumes: ReadonlyMap<string, readonly string[]>;
  readonly volumesAt: readonly string[];
  readonly isPod: boolean;
}

/**
 * `ValidateVolumes`: names required, DNS-1123 labels; a volume source required, and the files a secret, configMap,
 * downwardAPI or projected source projects (`pod-spec-volume-sources.ts`). Returns each named volume's sources (a
 * volume with errors too: the API server leaves it out, and then reports each mount of it as not found, which would
 * only repeat the volume's error).
 */
function validateVolumes(value: unknown, at: readonly string[], found: Found): Map<string, readonly string[]> {
  const volumes = new Map<string, readonly string[]>();
  list(value).forEach((v, i) => {
    if (!isMap(v)) return;
    const vAt = [...at, String(i)];
    const name = str(v.name);
    const sources = Object.keys(v).filter((k) => VOLUME_SOURCES.has(k) && v[k] !== undefined && v[k] !== null);
    if (sources.length === 1) validateVolumeFiles(v, sources[0], vAt, found);
    if (sources.length === 0) found.push({ at: vAt, type: 'Required value', detail: 'must specify a volume type', check: 'volume-source' });
    if (!name) {
      if (v.name === undefined || v.name === null || v.name === '') found.push({ at: [...vAt, 'name'], type: 'Required value', check: 'volume-name' });
    } else {
      for (const msg of isDNS1123Label(name)) found.push({ at: [...vAt, 'name'], type: 'Invalid value', value: name, detail: msg, check: 'volume-name' });
    }
    if (name && !volumes.has(name)) volumes.set(name, sources);
  });
  return volumes;
}

/** `validateContainerCommon`: name, image, policies, ports, env, envFrom, mounts and devices of any container. */
function validateContainerCommon(c: unknown, at: readonly string[], ctx: PodContext, found: Found): void {
  if (!isMap(c)) return;
  const name = c.name;
  if (name === undefined || name === null || name === '') {
    found.push({ at: [...at, 'name'], type: 'Required value', check: 'container-name' });
  } else if (typeof name === 'string') {
    for (const msg of isDNS1123Label(name)) found.push({ at: [...at, 'name'], type: 'Invalid value', value: name, detail: msg, check: 'container-name' });
  }
  if (c.image === undefined || c.image === null || c.image === '') {
    found.push({ at: [...at, 'image'], type: 'Required value', check: 'image' });
  } else if (ctx.isPod && typeof c.image === 'string' && c.image !== c.image.trim()) {
    // validateContainerOnlyForPod: a template may hold " " (OpenShift's image-change triggers fill it in)
    found.push({ at: [...at, 'image'], type: 'Invalid value', value: c.image, detail: 'must not have leading or trailing whitespace', check: 'image-whitespace' });
  }
  const policy = str(c.terminationMessagePolicy);
  if (policy && policy !== 'File' && policy !== 'FallbackToLogsOnError') {
    found.push({ at: [...at, 'terminationMessagePolicy'], type: 'Unsupported value', value: policy, detail: 'supported values: "File", "FallbackToLogsOnError"', check: 'termination-message-policy' });
  }
  validateContainerPorts(c.ports, [...at, 'ports'], found);
  validateEnv(c.env, [...at, 'env'], found);
  validateResourceRequirements(c.resources, [...at, 'resources'], found);
  validateEnvFrom(c.envFrom, [...at, 'envFrom'], found);
  validateVolumeMounts(c.volumeMounts, [...at, 'volumeMounts'], c.volumeDevices, [...at, 'volumeDevices'], isPrivileged(c), ctx, found);
  validateVolumeDevices(c.volumeDevices, [...at, 'volumeDevices'], c.volumeMounts, [...at, 'volumeMounts'], ctx, found);
  const pull = str(c.imagePullPolicy);
  if (pull && !['Always', 'IfNotPresent', 'Never'].includes(pull)) {
    found.push({ at: [...at, 'imagePullPolicy'], type: 'Unsupported value', value: pull, detail: 'supported values: "Always", "IfNotPresent", "Never"', check: 'pull-policy' });
  }
  validateContainerSecurityContext(c.securityContext, [...at, 'securityContext'], found);
}

/** `validateContainerPorts`. */
function validateContainerPorts(value: unknown, at: readonly string[], found: Found): void {
  const names = new Map<string, string>();
  list(value).forEach((p, i) => {
    if (!isMap(p)) return;
    const pAt = [...at, String(i)];
    const name = str(p.name);
    if (name) {
      const msgs = isValidPortName(name);
      for (const msg of msgs) found.push({ at: [...pAt, 'name'], type: 'Invalid value', value: name, detail: msg, check: 'port-name' });
      if (msgs.length === 0) {
        // a second port of the same containerPort and protocol is server-side apply's duplicate key, not a name's
        const key = `${String(p.containerPort)}/${String(p.protocol || 'TCP')}`;
        const first = names.get(name);
        if (first !== undefined && first !== key) found.push({ at: [...pAt, 'name'], type: 'Duplicate value', value: name, check: 'port-name-unique' });
        else if (first === undefined) names.set(name, key);
      }
    }
    const cp = int(p.containerPort);
    if (p.containerPort === undefined || p.containerPort === null || cp === 0) {
      found.push({ at: [...pAt, 'containerPort'], type: 'Required value', check: 'container-port' });
    } else if (cp !== undefined) {
      for (const msg of isValidPortNum(cp)) found.push({ at: [...pAt, 'containerPort'], type: 'Invalid value', value: cp, detail: msg, check: 'container-port' });
    }
    const hp = int(p.hostPort);
    if (hp !== undefined && hp !== 0) {
      for (const msg of isValidPortNum(hp)) found.push({ at: [...pAt, 'hostPort'], type: 'Invalid value', value: hp, detail: msg, check: 'host-port' });
    }
    const protocol = str(p.protocol);
    if (protocol && !['TCP', 'UDP', 'SCTP'].includes(protocol)) {
      found.push({ at: [...pAt, 'protocol'], type: 'Unsupported value', value: protocol, detail: 'supported values: "SCTP", "TCP", "UDP"', check: 'protocol' });
    }
  });
}

/** `AccumulateUniqueHostPorts` over `containers` (one init container at a time: they run one by one). */
function checkHostPortConflicts(containers: readonly unknown[], at: readonly string[], found: Found, offset = 0): void {
  const seen = new Map<string, { at: readonly string[]; port: string }>();
  containers.forEach((c, ci) => {
    if (!isMap(c)) return;
    list(c.ports).forEach((p, pi) => {
      if (!isMap(p)) return;
      const port = int(p.hostPort);
      if (!port) return;
      const key = `${str(p.protocol) || 'TCP'}/${str(p.hostIP) ?? ''}/${port}`;
      // the port's own key in server-side apply: a second port of one key in one container is its duplicate key
      const own = `${ci}/${String(p.containerPort)}/${str(p.protocol) || 'TCP'}`;
      const pAt = [...at, String(ci + offset), 'ports', String(pi), 'hostPort'];
      const first = seen.get(key);
      if (!first) seen.set(key, { at: pAt, port: own });
      else if (first.port !== own) found.push({ at: pAt, type: 'Duplicate value', value: key, check: 'host-port-conflict', depends: [first.at] });
    });
  });
}

/** `ValidateEnv` and `validateEnvVarValueFrom` (a `value` beside `valueFrom`, and two sources, are contradictions). */
function validateEnv(value: unknown, at: readonly string[], found: Found): void {
  list(value).forEach((e, i) => {
    if (!isMap(e)) return;
    const eAt = [...at, String(i)];
    if (e.name === undefined || e.name === null || e.name === '') {
      found.push({ at: [...eAt, 'name'], type: 'Required value', check: 'env-name' });
    } else if (typeof e.name === 'string') {
      for (const msg of isEnvVarName(e.name)) found.push({ at: [...eAt, 'name'], type: 'Invalid value', value: e.name, detail: msg, check: 'env-name' });
    }
    const from = e.valueFrom;
    if (!isMap(from)) return;
    const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => from[k] !== undefined && from[k] !== null);
    if (sources.length === 0) {
      found.push({ at: [...eAt, 'valueFrom'], type: 'Invalid value', value: '', detail: 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`', check: 'env-value-from' });
    }
    if (isMap(from.fieldRef)) validateEnvFieldRef(from.fieldRef, [...eAt, 'valueFrom', 'fieldRef'], found);
    if (isMap(from.resourceFieldRef)) validateEnvResourceFieldRef(from.resourceFieldRef, [...eAt, 'valueFrom', 'resourceFieldRef'], found);
    for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
      const selector = from[ref];
      if (!isMap(selector)) continue;
      const keyAt = [...eAt, 'valueFrom', ref, 'key'];
      if (selector.key === undefined || selector.key === null || selector.key === '') {
        found.push({ at: keyAt, type: 'Required value', check: 'env-key' });
      } else if (typeof selector.key === 'string') {
        for (const msg of isConfigMapKey(selector.key)) found.push({ at: keyAt, type: 'Invalid value', value: selector.key, detail: msg, check: 'env-key' });
      }
    }
  });
}

/** `ValidateEnvFrom`: a prefix is an env var name; one source. */
function validateEnvFrom(value: unknown, at: readonly string[], found: Found): void {
  list(value).forEach((e, i) => {
    if (!isMap(e)) return;
    const prefix = str(e.prefix);
    if (prefix) {
      for (const msg of isEnvVarName(prefix)) found.push({ at: [...at, String(i), 'prefix'], type: 'Invalid value', value: prefix, detail: msg, check: 'env-from-prefix' });
    }
    if ((e.configMapRef === undefined || e.configMapRef === null) && (e.secretRef === undefined || e.secretRef === null)) {
      // the API server names the list, not the entry
      found.push({ at, type: 'Invalid value', value: '', detail: 'must specify one of: `configMapRef` or `secretRef`', check: 'env-from-source', depends: [[...at, String(i)]] });
    }
  });
}

/** The probes and lifecycle hooks of a regular container or a sidecar (`restartPolicy: Always` init container). */
function validateLifecycleAndProbes(c: Record<string, unknown>, at: readonly string[], found: Found): void {
  if (isMap(c.lifecycle)) {
    for (const hook of ['postStart', 'preStop']) {
      if (isMap(c.lifecycle[hook])) validateHandler(c.lifecycle[hook] as Record<string, unknown>, [...at, 'lifecycle', hook], ['exec', 'httpGet', 'tcpSocket', 'sleep'], found);
    }
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = c[probe];
    if (!isMap(p)) continue;
    const pAt = [...at, probe];
    validateHandler(p, pAt, ['exec', 'httpGet', 'tcpSocket', 'grpc'], found);
    for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
      const n = int(p[f]);
      if (n !== undefined && n < 0) found.push({ at: [...pAt, f], type: 'Invalid value', value: n, detail: 'must be greater than or equal to 0', check: 'probe-number' });
    }
    const grace = int(p.terminationGracePeriodSeconds);
    if (grace !== undefined && grace <= 0) found.push({ at: [...pAt, 'terminationGracePeriodSeconds'], type: 'Invalid value', value: grace, detail: 'must be greater than 0', check: 'probe-number' });
    // a zero successThreshold is defaulted to 1 before validation
    const success = int(p.successThreshold);
    if (probe !== 'readinessProbe' && success !== undefined && success !== 0 && success !== 1) {
      found.push({ at: [...pAt, 'successThreshold'], type: 'Invalid value', value: success, detail: 'must be 1', check: 'probe-number' });
    }
    if (probe === 'readinessProbe' && p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) {
      found.push({ at: [...pAt, 'terminationGracePeriodSeconds'], type: 'Invalid value', value: int(p.terminationGracePeriodSeconds) ?? 0, detail: 'must not be set for readinessProbes', check: 'probe-number' });
    }
  }
}

/** `validateHandler`: one action (two are a contradiction), and its port a port number or an IANA service name. */
function validateHandler(h: Record<string, unknown>, at: readonly string[], actions: readonly string[], found: Found): void {
  const set = actions.filter((a) => h[a] !== undefined && h[a] !== null);
  if (set.length === 0) {
    found.push({ at, type: 'Required value', detail: 'must specify a handler type', check: 'probe-handler' });
    return;
  }
  // two actions are a contradiction (merged-contradictions); the API server validates the first of them only
  if (set.length > 1) return;
  const command = isMap(h.exec) ? h.exec.command : [''];
  if (command === undefined || command === null || (Array.isArray(command) && command.length === 0)) {
    found.push({ at: [...at, 'exec', 'command'], type: 'Required value', check: 'probe-command' });
  }
  for (const action of ['httpGet', 'tcpSocket', 'grpc']) {
    const a = h[action];
    if (!set.includes(action) || !isMap(a)) continue;
    // a port left out is the integer 0
    const port = a.port === undefined || a.port === null ? 0 : a.port;
    const portAt = [...at, action, 'port'];
    if (typeof port === 'number') {
      for (const msg of isValidPortNum(port)) found.push({ at: portAt, type: 'Invalid value', value: port, detail: msg, check: 'probe-port' });
    } else if (typeof port === 'string' && action !== 'grpc') {
      for (const msg of isValidPortName(port)) found.push({ at: portAt, type: 'Invalid value', value: port, detail: msg, check: 'probe-port' });
    }
  }
}
