import { explainAppArmor } from './pod-spec-apparmor';
import { explainAppArmorAnnotation } from './pod-spec-apparmor-annotations';
import { explainDeletionCost } from './pod-spec-deletion-cost';
import { explainDNS } from './pod-spec-dns';
import type { PodSpecError } from './pod-spec-errors';
import { explainPodIdentity } from './pod-spec-identity';
import { explainLabelSelector } from './pod-spec-label-selectors';
import { explainPodOS } from './pod-spec-os';
import { explainPrivilegeEscalation } from './pod-spec-privilege-escalation';
import { explainPodReferences } from './pod-spec-references';
import { explainSeccompAnnotation } from './pod-spec-seccomp-annotations';
import { explainSysctl } from './pod-spec-sysctls';
import { explainWindows } from './pod-spec-windows';

/*
 * What the pod spec rule says about the errors of `pod-spec-resources.ts` (a container's resources, its env's
 * downward API selectors) and of mount propagation: what is wrong in the rule's words, and what to write instead.
 */

const CONTAINER_RESOURCES = 'cpu, memory, ephemeral-storage, hugepages-<page size> (such as hugepages-2Mi), or an extended resource: a domain outside kubernetes.io, \'/\' and a name (such as nvidia.com/gpu)';
const ENV_FIELDS = "metadata.name, metadata.namespace, metadata.uid, metadata.labels['<key>'], metadata.annotations['<key>'], spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP or status.podIPs";
const VOLUME_FIELDS = "metadata.name, metadata.namespace, metadata.uid, metadata.labels, metadata.annotations, or one key of them (metadata.labels['<key>'])";
const ENV_RESOURCES = 'limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory, requests.ephemeral-storage, or limits.hugepages-<size>, requests.hugepages-<size>';
/** Resource names people write for a standard one. */
const NEAR_NAMES: Readonly<Record<string, string>> = { gpu: 'nvidia.com/gpu', storage: 'ephemeral-storage', mem: 'memory', ram: 'memory', cores: 'cpu' };

/** The summary and fix of an error of `pod-spec-resources.ts`, or of mount propagation. */
export function explainResources(e: PodSpecError): { summary: string; fix: string } {
  switch (e.check) {
    case 'resource-name': {
      const name = e.at[e.at.length - 1];
      const lower = name.toLowerCase();
      const near = ['cpu', 'memory', 'ephemeral-storage'].includes(lower) ? lower : NEAR_NAMES[lower];
      return {
        summary: `names ${JSON.stringify(name)}, which is no resource a container can request or limit: ${CONTAINER_RESOURCES}`,
        fix: near ? `Write ${JSON.stringify(near)}.` : 'Name one of them.',
      };
    }
    case 'resource-quantity':
      return { summary: 'is negative: a resource quantity is 0 or more', fix: 'Write a quantity of 0 or more.' };
    case 'request-limit': {
      const name = e.depends![0][e.depends![0].length - 1];
      const limit = /limit of (.*)$/.exec(e.detail ?? '')?.[1];
      if (e.type === 'Required value') {
        return {
          summary: `has no limit beside it: ${name} cannot be overcommitted (hugepages and extended resources), so a request needs a limit, equal to it`,
          fix: `Set limits[${JSON.stringify(name)}] to the request too, or move the request to limits (the request then defaults to the limit).`,
        };
      }
      if (e.detail?.startsWith('must be equal')) {
        return {
          summary: `differs from its limit (${limit}): ${name} cannot be overcommitted (hugepages and extended resources), so a request must equal its limit`,
          fix: `Set the request to ${limit}, or leave it out (it then defaults to the limit).`,
        };
      }
      return {
        summary: `is more than its limit (${limit}): a container's request of ${name} is at most its limit`,
        fix: `Lower the request to at most ${limit}, or raise the limit.`,
      };
    }
    case 'resource-integer': {
      const name = e.at[e.at.length - 1];
      return {
        summary: `is a fraction: ${name} is an extended resource, counted in whole units (a device, a license)`,
        fix: 'Write a whole number, such as 1 (a quantity of an extended resource has no milli units).',
      };
    }
    case 'hugepages-size': {
      const name = e.at[e.at.length - 1];
      const size = name.slice('hugepages-'.length);
      return {
        summary: `is no whole number of ${size} pages: ${name} is allocated in pages of ${size}`,
        fix: `Write a multiple of ${size}, such as ${size} or ${/^[0-9]+/.test(size) ? `${Number(/^[0-9]+/.exec(size)![0]) * 2}${size.replace(/^[0-9]+/, '')}` : size}.`,
      };
    }
    case 'hugepages':
      return { summary: 'sets hugepages without cpu or memory: a container that requests or limits hugepages must request or limit cpu or memory too', fix: 'Add a cpu or memory request or limit.' };
    case 'env-field-ref':
      if (e.type === 'Required value') return { summary: 'is missing: a fieldRef names the field of the pod it reads', fix: `Read one of ${ENV_FIELDS}.` };
      if (e.detail?.startsWith('error converting fieldPath: unsupported pod version')) return { summary: 'reads a pod of an apiVersion other than v1', fix: "Write apiVersion: 'v1', or leave it out." };
      if (e.type === 'Unsupported value' || e.detail?.startsWith('error converting fieldPath')) {
        return { summary: 'is no field of the pod an env var can read', fix: `Read one of ${ENV_FIELDS}.` };
      }
      return { summary: `reads the key ${JSON.stringify(e.value)}, which is no label or annotation key (a qualified name)`, fix: "Write a key such as metadata.labels['app'] or metadata.annotations['example.com/owner']." };
    case 'env-resource-ref':
      if (e.type === 'Required value') return { summary: 'is missing: a resourceFieldRef names the resource it reads', fix: `Read one of ${ENV_RESOURCES}.` };
      if (e.type === 'Unsupported value') return { summary: 'is no resource of the container an env var can read', fix: `Read one of ${ENV_RESOURCES}.` };
      return {
        summary: `is no divisor the API server takes for ${JSON.stringify(e.value)}`,
        fix: 'Use 1m or 1 for cpu; 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi or 1Ei for memory, ephemeral storage and hugepages.',
      };
    case 'volume-field-ref':
      if (e.type === 'Required value') return { summary: 'is missing: a fieldRef names the field of the pod it reads', fix: `Read one of ${VOLUME_FIELDS}.` };
      if (e.detail?.startsWith('error converting fieldPath: unsupported pod version')) return { summary: 'reads a pod of an apiVersion other than v1', fix: "Write apiVersion: 'v1', or leave it out." };
      if (e.type === 'Unsupported value' || e.detail?.startsWith('error converting fieldPath')) {
        return {
          summary: 'is no field of the pod a downward API volume file can read (it reads fewer than an env var: no spec.nodeName, spec.serviceAccountName or status fields)',
          fix: `Read one of ${VOLUME_FIELDS}, or read the field into an env var (valueFrom.fieldRef) instead.`,
        };
      }
      return { summary: `reads the key ${JSON.stringify(e.value)}, which is no label or annotation key (a qualified name)`, fix: "Write a key such as metadata.labels['app'] or metadata.annotations['example.com/owner']." };
    case 'volume-resource-ref':
      if (e.type === 'Required value' && e.at[e.at.length - 1] === 'containerName') {
        return { summary: 'is missing: a downward API volume file that reads a resource names the container whose resource it reads', fix: 'Set containerName to the name of a container of the pod.' };
      }
      if (e.type === 'Required value') return { summary: 'is missing: a resourceFieldRef names the resource it reads', fix: `Read one of ${ENV_RESOURCES}.` };
      if (e.type === 'Unsupported value') return { summary: 'is no resource of a container a downward API volume file can read', fix: `Read one of ${ENV_RESOURCES}.` };
      return {
        summary: `is no divisor the API server takes for ${JSON.stringify(e.value)}`,
        fix: 'Use 1m or 1 for cpu; 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi or 1Ei for memory, ephemeral storage and hugepages.',
      };
    case 'file-mode': {
      const mode = typeof e.value === 'number' ? e.value : 0;
      const octal = /^[0-7]{3,4}$/.test(String(mode)) ? parseInt(String(mode), 8) : undefined;
      return {
        summary: 'is no file mode: a mode is a number from 0 to 0777 (511)',
        fix: octal !== undefined && octal <= 0o777
          ? `Write the mode in octal: 0o${mode} (${octal}); ${mode} is read as a decimal number.`
          : 'Write a mode from 0 to 0o777, such as 0o644 (420).',
      };
    }
    case 'downward-file':
      return explainVolumeFile(e);
    case 'toleration':
      return explainToleration(e);
    case 'topology-spread':
      return explainSpread(e);
    case 'affinity':
      return explainAffinity(e);
    case 'service-port-name':
      return e.type === 'Duplicate value'
        ? { summary: 'is the name of another port of this Service too: port names are unique in a Service', fix: 'Give each port its own name.' }
        : { summary: "must be a DNS-1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters", fix: `Name the port ${JSON.stringify(String(e.value ?? '').toLowerCase().replace(/[^-a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'http')}.` };
    case 'service-port':
      return { summary: 'must be a port number from 1 to 65535', fix: 'Set port to the number clients connect to.' };
    case 'service-protocol':
      return { summary: 'must be "TCP", "UDP" or "SCTP", in capitals', fix: ['TCP', 'UDP', 'SCTP'].includes(String(e.value).toUpperCase()) ? `Write "${String(e.value).toUpperCase()}".` : 'Write "TCP", "UDP" or "SCTP".' };
    case 'service-target-port':
      return typeof e.value === 'number'
        ? { summary: 'must be a port number from 1 to 65535 (left out, it is the port)', fix: "Write the container's port number, or the name of the container's port." }
        : { summary: "must be a port number or the name of a container's port: an IANA service name of at most 15 lowercase letters, digits and '-'", fix: "Write the container port's number, or give the container's port a name of at most 15 characters and use it here." };
    case 'security-id': {
      const field = e.at[e.at.length - 1];
      const noun = /^\d+$/.test(field) ? 'a group ID' : field === 'runAsUser' ? 'a user ID' : 'a group ID';
      return { summary: `must be ${noun}: a number from 0 to 2147483647`, fix: 'Write a number from 0 to 2147483647 (0 is root; an unprivileged ID is 1000 or more), or drop it for the image\'s own.' };
    }
    case 'seccomp-profile':
      return explainSeccomp(e);
    case 'sysctl':
      return explainSysctl(e);
    case 'apparmor-profile':
      return explainAppArmor(e);
    case 'apparmor-annotation':
      return explainAppArmorAnnotation(e);
    case 'windows-options':
    case 'host-process':
      return explainWindows(e);
    case 'pod-os':
      return explainPodOS(e);
    case 'seccomp-annotation':
      return explainSeccompAnnotation(e);
    case 'deletion-cost':
      return explainDeletionCost();
    case 'pod-gates':
    case 'pod-references':
      return explainPodReferences(e);
    case 'privilege-escalation':
      return explainPrivilegeEscalation(e);
    case 'fs-group-change-policy': {
      const near = ['Always', 'OnRootMismatch'].find((v) => v.toLowerCase() === String(e.value ?? '').toLowerCase());
      return { summary: 'must be "OnRootMismatch" or "Always"', fix: near ? `Write "${near}".` : 'Write one of them (case matters), or drop it for Always.' };
    }
    case 'share-process-namespace':
      return { summary: 'is true in a pod of hostPID: true, which shares the node\'s process namespace already', fix: 'Drop one of shareProcessNamespace and hostPID.' };
    case 'dns-policy':
    case 'dns-nameservers':
    case 'dns-searches':
    case 'dns-options':
      return explainDNS(e);
    case 'label-selector':
      return explainLabelSelector(e);
    case 'pod-hostname':
    case 'priority-class-name':
    case 'host-alias':
      return explainPodIdentity(e);
    case 'dns-config':
      return {
        summary: "is missing: a pod of dnsPolicy: None resolves names only through its dnsConfig's nameservers",
        fix: "Give it dnsConfig: { nameservers: ['10.0.0.10'] } (one to three), or drop dnsPolicy for the cluster's DNS (ClusterFirst).",
      };
    case 'service-ports':
      return {
        summary: 'is missing or empty: a Service needs at least one port, unless it is headless (clusterIP: None) or of type ExternalName',
        fix: "Add the port clients connect to, such as ports: [{ port: 80, targetPort: 8080 }], or write clusterIP: 'None' for a headless Service.",
      };
    case 'service-node-port':
      if (e.type === 'Duplicate value') {
        return { summary: 'is the node port of another port of this Service too, with the same protocol: a node binds it once', fix: 'Give each port its own nodePort, or drop nodePort to have one allocated.' };
      }
      return { summary: 'is set on a ClusterIP Service (the type it has when left out), which opens no port on the nodes', fix: "Write type: 'NodePort' (or 'LoadBalancer'), or drop nodePort." };
    case 'service-type':
      return { summary: 'must be "ClusterIP", "NodePort", "LoadBalancer" or "ExternalName"', fix: 'Write one of them (case matters), or drop it for ClusterIP.' };
    case 'service-session-affinity':
      return { summary: 'must be "None" or "ClientIP"', fix: 'Write one of them (case matters), or drop it for None.' };
    case 'mount-propagation': {
      if (e.type === 'Forbidden') {
        return { summary: 'is Bidirectional in a container that is not privileged', fix: 'Use HostToContainer, or make the container privileged (securityContext: { privileged: true }).' };
      }
      const value = String(e.value ?? '');
      const near = ['Bidirectional', 'HostToContainer', 'None'].find((v) => v.toLowerCase() === value.toLowerCase());
      return { summary: 'must be "None", "HostToContainer" or "Bidirectional"', fix: near ? `Write "${near}".` : 'Write one of them (case matters), or drop it for None.' };
    }
    case 'pod-restart-policy':
      if (e.type === 'Required value') {
        return {
          summary: 'is missing or Always: a Job\'s pods run to completion, so its pod template\'s restartPolicy is OnFailure or Never (left out, it is defaulted to Always)',
          fix: "Write restartPolicy: 'Never' (or 'OnFailure', to restart a failed container in its pod).",
        };
      }
      if (e.type === 'Invalid value') return { summary: 'must be Never in a Job with a podFailurePolicy', fix: "Write restartPolicy: 'Never'." };
      if (e.detail === 'supported values: "Always"') {
        return {
          summary: 'must be Always (or left out) in the pod template of a Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController: its pods run until replaced',
          fix: "Drop restartPolicy, or write 'Always'; a workload that runs to completion is a Job.",
        };
      }
      if (e.detail === 'supported values: "OnFailure", "Never"') return { summary: 'must be "OnFailure" or "Never" in a Job', fix: 'Write one of them (case matters).' };
      return { summary: 'must be "Always", "OnFailure" or "Never"', fix: 'Write one of them (case matters), or drop it for Always.' };
    case 'active-deadline':
      return {
        summary: 'is set in the pod template of a workload whose pods run until replaced (a Deployment, ReplicaSet, StatefulSet, DaemonSet or ReplicationController)',
        fix: 'Drop activeDeadlineSeconds; a deadline belongs to a Job (its spec.activeDeadlineSeconds).',
      };
    default:
      return { summary: e.detail ?? 'is refused', fix: 'Write what the API server accepts.' };
  }
}

/** The summary and fix of an error of a volume's projected files (`pod-spec-volume-sources.ts`). */
function explainVolumeFile(e: PodSpecError): { summary: string; fix: string } {
  const last = e.at[e.at.length - 1];
  if (e.detail === 'conflicting duplicate paths') return { summary: 'is the path of another file of the same projected volume', fix: 'Give each projected file its own path.' };
  if (e.detail === 'one of fieldRef and resourceFieldRef is required') return { summary: 'reads nothing: a downward API volume file needs a fieldRef or a resourceFieldRef', fix: "Add fieldRef: { fieldPath: 'metadata.labels' }, or a resourceFieldRef with its containerName." };
  if (e.detail?.startsWith('may not specify a duration')) return { summary: `${e.detail.replace('may not specify a duration', 'is a token lifetime')}`, fix: 'Write from 600 (10 minutes) to 4294967296 seconds, or leave it out for 3600.' };
  if (e.type === 'Required value') {
    const what: Record<string, string> = { secretName: 'the Secret the volume projects', name: 'the ConfigMap or Secret it projects', key: 'the key it projects', path: 'the path of the file, relative to the mount' };
    return { summary: `is missing: it names ${what[last] ?? 'what the volume projects'}`, fix: `Set ${last}.` };
  }
  return { summary: `${e.detail}: a projected file's path is relative, inside the volume`, fix: 'Write a relative path without \'..\', such as \'config/app.yaml\'.' };
}

/** The summary and fix of an error of a toleration. */
function explainToleration(e: PodSpecError): { summary: string; fix: string } {
  const d = e.detail ?? '';
  if (d.startsWith('operator must be Exists')) return { summary: 'is not Exists in a toleration without a key: only Exists tolerates every taint', fix: "Give the toleration the taint's key, or write operator: 'Exists' (and no value) to tolerate every taint." };
  if (d.startsWith("effect must be 'NoExecute'")) return { summary: 'is not NoExecute in a toleration with tolerationSeconds: only a NoExecute taint evicts, after those seconds', fix: "Write effect: 'NoExecute', or drop tolerationSeconds." };
  if (d.startsWith('value must be empty')) return { summary: 'is set in a toleration whose operator is Exists, which matches any value', fix: "Drop the value, or write operator: 'Equal'." };
  if (e.type === 'Unsupported value' && e.at[e.at.length - 1] === 'operator') return { summary: 'must be "Equal" or "Exists"', fix: 'Write one of them (case matters), or drop it for Equal.' };
  if (e.type === 'Unsupported value') return { summary: 'must be "NoSchedule", "PreferNoSchedule" or "NoExecute"', fix: 'Write one of them (case matters), or drop it to tolerate every effect.' };
  if (e.at[e.at.length - 1] === 'key') return { summary: 'is no taint key (a qualified name: an optional DNS prefix and \'/\', then letters, digits, \'-\', \'_\' and \'.\')', fix: 'Write the key of the taint, such as example.com/dedicated.' };
  return { summary: 'is no label value: at most 63 letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit', fix: 'Write the value of the taint.' };
}

/** The summary and fix of an error of a topology spread constraint. */
function explainSpread(e: PodSpecError): { summary: string; fix: string } {
  const last = e.at[e.at.length - 1];
  if (last === 'maxSkew') return { summary: 'is missing or not positive: maxSkew is how many more pods one domain may have than another', fix: 'Write maxSkew: 1 or more.' };
  if (last === 'topologyKey') return { summary: 'is missing: a spread constraint spreads over the values of a node label', fix: "Write a node label, such as topologyKey: 'topology.kubernetes.io/zone'." };
  if (last === 'whenUnsatisfiable') return { summary: 'must be "DoNotSchedule" or "ScheduleAnyway"', fix: "Write whenUnsatisfiable: 'DoNotSchedule' (a hard constraint) or 'ScheduleAnyway' (a preference)." };
  if (last === 'nodeAffinityPolicy' || last === 'nodeTaintsPolicy') return { summary: 'must be "Honor" or "Ignore"', fix: 'Write one of them (case matters), or drop it for the default.' };
  if (e.detail?.startsWith('can only use minDomains')) return { summary: 'is set on a constraint that is not DoNotSchedule', fix: "Write whenUnsatisfiable: 'DoNotSchedule', or drop minDomains." };
  return { summary: 'is not positive', fix: 'Write minDomains: 1 or more, or drop it.' };
}

/** The summary and fix of an error of a node or pod affinity. */
function explainAffinity(e: PodSpecError): { summary: string; fix: string } {
  const d = e.detail ?? '';
  if (d.startsWith('must have at least one node selector term')) return { summary: 'is empty: a required node affinity needs a term', fix: 'Add a term with matchExpressions, or drop the required node affinity.' };
  if (d.startsWith('must be in the range 1-100')) return { summary: 'is missing or out of range: a preferred term weighs from 1 to 100', fix: 'Write a weight from 1 to 100.' };
  if (d.startsWith("must be specified when `operator` is 'In'")) return { summary: 'is missing or empty: In and NotIn compare the label with a list of values', fix: "Give values, or write operator: 'Exists'." };
  if (d.startsWith('may not be specified when')) return { summary: 'is set with Exists or DoesNotExist, which test only that the label is there', fix: "Drop the values, or write operator: 'In'." };
  if (d.startsWith('must be specified single value')) return { summary: 'must hold exactly one value with Gt or Lt (an integer)', fix: "Write one value, such as values: ['4']." };
  if (d.startsWith('must be only one value')) return { summary: 'must hold exactly one value in a node field selector', fix: 'Write the one node name.' };
  if (d === 'not a valid selector operator') return { summary: 'must be "In", "NotIn", "Exists", "DoesNotExist", "Gt" or "Lt" (a node field selector: "In" or "NotIn")', fix: 'Write one of them (case matters).' };
  if (d === 'not a valid field selector key') return { summary: 'must be metadata.name: the one node field a selector reads', fix: "Write key: 'metadata.name', or match a node label with matchExpressions." };
  if (d === 'can not be empty') return { summary: 'is missing: a pod affinity term groups nodes by the values of a node label', fix: "Write a node label, such as topologyKey: 'kubernetes.io/hostname'." };
  if (e.at[e.at.length - 1] === 'key' || e.at[e.at.length - 1] === 'topologyKey') return { summary: 'is no label key (a qualified name)', fix: 'Write a node label key, such as topology.kubernetes.io/zone.' };
  return { summary: 'is no label value: at most 63 letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit', fix: 'Write a value a node label can have.' };
}

/** The summary and fix of a seccomp profile error. */
function explainSeccomp(e: PodSpecError): { summary: string; fix: string } {
  if (e.at[e.at.length - 1] === 'type') {
    return e.type === 'Required value'
      ? { summary: 'is missing: a seccompProfile needs its type', fix: "Write type: 'RuntimeDefault' (or 'Localhost' with a localhostProfile, or 'Unconfined')." }
      : { summary: 'must be "RuntimeDefault", "Localhost" or "Unconfined"', fix: 'Write one of them (case matters).' };
  }
  if (e.type === 'Required value') return { summary: 'is missing: a seccompProfile of type Localhost names its profile file', fix: "Write the profile's path relative to the kubelet's seccomp directory, such as localhostProfile: 'profiles/audit.json'." };
  if (e.detail === 'can only be set when seccomp type is Localhost') return { summary: 'is set on a seccompProfile whose type is not Localhost', fix: "Drop localhostProfile, or write type: 'Localhost'." };
  return { summary: "must be a relative path without '..', inside the kubelet's seccomp directory", fix: "Write the profile's path relative to that directory, such as 'profiles/audit.json'." };
}
