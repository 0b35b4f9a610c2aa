import { isValidPortName } from './apimachinery-names';
import { expectation, FORMATS, problemOf, suggest } from './object-validity';
import { apiServerText, PodSpecError, podSpecErrors, PodSpecPlace, podSpecPlace } from './pod-spec-errors';
import { explainResources } from './pod-spec-resource-advice';
import { fieldWriters } from './scalar-types';
import { fieldPathOf, unseenBy } from './unseen-fields';
import type { Facts, ObjectFact } from '../../collect/facts';
import { formatPath, isElementKey } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { describeIdentity } from '../../collect/object-identity';
import { FieldTopology, topologyOf } from '../../collect/topology/field-topology';
import { elementKeyOf, listTypeOf } from '../../collect/topology/list-topology';
import { appendAll } from '../../private/append';
import { isMap } from '../../private/maps';
import { ViolationCode } from '../finding';
import { FindingField, objectField, PlacedWrite, placeFinding, writersNamed } from '../placement';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a pod spec the Kubernetes 1.30 API server refuses, in a Pod, a PodTemplate or the pod template of a
 * ReplicationController, ReplicaSet, Deployment, DaemonSet, Job or CronJob (not a StatefulSet's, which the API server
 * does not validate: `podSpecPlace`): a container without a name
 * or image, a container name that is no DNS-1123 label or that another container of the pod has, a port name that
 * is no IANA service name or repeats in its container, a port number out of range, an env name that is no
 * environment variable name, a volume mount that names no volume of the pod, a request above its limit (or, for a GPU,
 * hugepages or another resource that cannot be overcommitted, one unequal to it or without one), a resource name no
 * container takes, an env `fieldRef` no env var can read, a `Bidirectional` mount of an unprivileged container, and the
 * rest of `pod-spec-errors.ts` and `pod-spec-resources.ts`.
 * Server-side apply accepts all of these, so without this rule `kubectl apply`, Argo CD or Flux fail at deploy time.
 *
 * What the rule cannot see it does not judge: a field a `RuntimeWriter` writes in the cluster (or a field whose
 * verdict depends on one, such as a mount's volume when the runtime writer writes the pod's volumes), and a value
 * that is an aws-cdk token, known only at deploy time.
 */
export const podSpecValidity = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'pod spec validity',
  explanation: "A pod spec must pass the API server's validation (container names, images, ports, env names, volumes and their mounts, resource requests and limits); server-side apply accepts what validation refuses, so the apply fails at deploy time, after earlier steps were applied.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    const found: RuleFinding[] = [];
    facts.objects.forEach((object, index) => {
      if (object.duplicateOf !== undefined) return;
      const place = podSpecPlace(object.identity.group, object.identity.kind);
      if (place) appendAll(found, podSpecFindings(facts, index, place, writersAt));
    });
    return found;
  },
});

/** How a finding of `podSpecFindings` is told: which errors it leaves out, and how it says the API server refuses them. */
export interface PodSpecFindingOptions {
  /** Errors the API server would not return after all (a mount of a StatefulSet's claim template). */
  readonly skip?: (e: PodSpecError) => boolean;
  /** The refusal, from the errors of one field: `the API server refuses it: <their text>` unless given. */
  readonly refusal?: (errors: readonly PodSpecError[]) => string;
  /** The errors of the object, in the API server's words: `podSpecErrors` of its pod spec at `place` unless given. */
  readonly errors?: (manifest: unknown) => PodSpecError[];
  /** What is wrong in the rule's words, and what to write instead, for an error the pod spec's words do not cover. */
  readonly explain?: (e: PodSpecError) => { summary: string; fix: string } | undefined;
}

/**
 * The findings of the pod spec at `place` in object `index`: one per field and check, the API server's messages of
 * one field (too long, and of the wrong characters) together; what a `RuntimeWriter` writes or a token holds left out.
 */
export function podSpecFindings(
  facts: Facts, index: number, place: PodSpecPlace, writersAt: (object: ObjectFact, field: string) => Writer[],
  options: PodSpecFindingOptions = {},
): RuleFinding[] {
  const object = facts.objects[index];
  const errors = (options.errors ?? ((m: unknown) => podSpecErrors(m, place)))(object.manifest).filter((e) => !options.skip?.(e));
  if (errors.length === 0) return [];
  const unseen = unseenBy(facts, index);
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind);
  const groups = new Map<string, PodSpecError[]>();
  for (const e of errors) {
    const paths = [e.at, ...(e.field ? [e.field] : []), ...(e.depends ?? [])];
    if (paths.some((p) => unseen(p, fieldPathOf(p, object.manifest, topology)))) continue;
    const key = `${(e.field ?? e.at).join('\u0000')}\u0001${e.check}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const refusal = options.refusal ?? ((group: readonly PodSpecError[]) => `the API server refuses it: ${group.map(apiServerText).join('; ')}`);
  const writers: FieldWriters = { writersAt, placed: (f) => placeFinding(facts, f) };
  return [...groups.values()].map((group) => describe(object, group, topology, writers, refusal(group), options.explain));
}

/**
 * How messages name a field: as the ledger does (`spec.template.spec.containers[name=web].ports[containerPort=80,protocol=TCP].name`),
 * an element of a keyed list whose key is missing or empty (`name: ''`) or repeats by its index
 * (`spec.template.spec.containers[0].name`), an element of a list without keys by its index.
 */
function fieldText(at: readonly string[], doc: unknown, root: FieldTopology): string {
  let out = '';
  let node = root;
  let current = doc;
  for (const s of at) {
    if (Array.isArray(current) && /^\d+$/.test(s)) {
      const element = current[Number(s)];
      const keys = listTypeOf(node) === 'associative' ? node.keys ?? [] : [];
      const keyed = keys.length > 0 && keys.every((k) => meaningful(isMap(element) ? element[k] : undefined) || meaningful(node.keyDefaults?.[k]));
      const segment = elementKeyOf(element, node);
      const unique = keyed && current.filter((e) => elementKeyOf(e, node) === segment).length === 1;
      out += unique ? formatPath([segment]) : `[${s}]`;
      current = element;
      node = node.element();
    } else {
      out += out ? `.${formatPath([s])}`.replace(/^\.\[/, '[') : formatPath([s]);
      current = isMap(current) ? current[s] : undefined;
      node = node.field(s);
    }
  }
  return out;
}

/** A key value that names an element: not missing, and not the empty string or 0 a missing key defaults to. */
function meaningful(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && value !== 0;
}

/** Who wrote a field: the writers of a path, and the write a finding about it is placed at. */
interface FieldWriters {
  readonly writersAt: (object: ObjectFact, field: string) => Writer[];
  readonly placed: (field: FindingField) => PlacedWrite | undefined;
}

function describe(
  object: ObjectFact, errors: readonly PodSpecError[], topology: FieldTopology, { writersAt, placed }: FieldWriters,
  refusal: string, explainOther?: PodSpecFindingOptions['explain'],
): RuleFinding {
  const e = errors[0];
  const at = e.field ?? e.at;
  const field = fieldText(at, object.manifest, topology);
  const value = valueAt(object.manifest, at);
  const shown = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? ` (${JSON.stringify(value)})` : '';
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  const path = fieldPathOf(at, object.manifest, topology);
  // a key field (a container's name) is written with its element: its writers are the element's
  const writers = writersAt(object, formatPath(path));
  const element = writers.length === 0 && isElementKey(path[path.length - 2] ?? '') ? writersAt(object, formatPath(path.slice(0, -1))) : writers;
  const others = element.filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
  const depends = (e.depends ?? []).map((d) => fieldPathOf(d, object.manifest, topology));
  const about = objectField(object, path, ...depends);
  // a field a JSON patch or deletion override removed names that write alone, as what removed it
  const removal = others.length === 0 ? undefined : placed(about);
  const by = others.length === 0 ? '' : removal?.removed ? `, removed by ${describeWriter(removal.writer)},` : `, written by ${others.map(describeWriter).join(' and ')},`;
  const plus = object.declarer !== object.path;
  const { summary, fix } = explainOther?.(e) ?? explain(e, value, object, topology, plus);
  return {
    message: `'${field}'${shown} of ${what} declared by '${object.declarer}'${by} ${summary}; ${refusal}. ${fix}`,
    paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    field: writersNamed(about, others.length > 0),
  };
}

function valueAt(doc: unknown, at: readonly string[]): unknown {
  let current = doc;
  for (const s of at) current = Array.isArray(current) ? current[Number(s)] : isMap(current) ? current[s] : undefined;
  return current;
}

const IANA = "an IANA service name: at most 15 characters of lowercase letters, digits and '-', with at least one letter, without '--', neither starting nor ending with '-'";
const ENV_NAME = "an environment variable name: letters, digits, '_', '-' and '.', not starting with a digit, and not '.', '..' or starting with '..' (Kubernetes 1.30; its RelaxedEnvironmentVariableValidation gate, which takes any printable ASCII but '=', is alpha and off by default)";

/** What is wrong in the rule's words, and what to write instead. */
function explain(e: PodSpecError, value: unknown, object: ObjectFact, topology: FieldTopology, plus: boolean): { summary: string; fix: string } {
  const s = typeof value === 'string' ? value : '';
  switch (e.check) {
    case 'containers-required':
      return { summary: 'is missing or empty: a pod needs at least one container', fix: plus ? 'Add a container: addContainer({ name, image }).' : 'Add a container: containers: [{ name, image }].' };
    case 'container-name': {
      if (e.type === 'Required value') {
        const name = nameFromImage(valueAt(object.manifest, [...e.at.slice(0, -1), 'image'])) ?? 'app';
        return { summary: 'is missing: every container needs a name', fix: `Give the container a name, a DNS-1123 label unique in the pod, such as name: '${name}'.` };
      }
      const better = suggest(s, FORMATS.label, 63);
      return {
        summary: `must be ${expectation(FORMATS.label, s, problemOf(s, FORMATS.label) ?? 'it is not')}`,
        fix: `Name the container ${better ? JSON.stringify(better) : 'with lowercase letters, digits and \'-\''}${plus ? ` (name: '${better ?? 'app'}' in its container props)` : ''}.`,
      };
    }
    case 'container-name-unique': {
      const other = fieldText(e.depends![0], object.manifest, topology);
      return { summary: `is also the name of '${other}': container names are unique across containers, initContainers and ephemeralContainers`, fix: 'Rename one of them.' };
    }
    case 'image':
      return { summary: 'is missing: every container and init container needs an image', fix: `Set the image, such as ${plus ? "image: 'nginx:1.27' in its props" : "image: 'nginx:1.27'"}.` };
    case 'image-whitespace':
      return { summary: 'has leading or trailing whitespace, which a Pod may not have', fix: `Write ${JSON.stringify(s.trim())}.` };
    case 'restart-policy':
      return e.type === 'Forbidden'
        ? { summary: 'is set on a regular container: only an init container takes a restartPolicy (Always makes it a sidecar)', fix: 'Drop restartPolicy, or make the container an init container.' }
        : { summary: 'must be "Always" (a sidecar) or left out', fix: "Write restartPolicy: 'Always', or drop it." };
    case 'init-container-field':
      return {
        summary: 'is set on an init container that is no sidecar: probes and lifecycle hooks are for containers and for init containers with restartPolicy: Always',
        fix: `Drop it, or make the init container a sidecar (restartPolicy: 'Always'${plus ? '; cdk8s-plus: addInitContainer({ ..., restartPolicy: ContainerRestartPolicy.ALWAYS })' : ''}).`,
      };
    case 'ephemeral-containers':
      return { summary: 'is set: ephemeral containers are added only to a running Pod, through its ephemeralcontainers subresource', fix: 'Drop ephemeralContainers; kubectl debug adds one to a running Pod.' };
    case 'pull-policy':
      return { summary: 'must be "Always", "IfNotPresent" or "Never"', fix: 'Write one of them (case matters), or drop it for the default.' };
    case 'termination-message-policy':
      return { summary: 'must be "File" or "FallbackToLogsOnError"', fix: 'Write one of them (case matters), or drop it for the default.' };
    case 'port-name': {
      const better = portName(s);
      return { summary: `must be ${IANA}`, fix: `Name the port ${better ? JSON.stringify(better) : 'so'}${plus ? ` (ports: [{ number, name: '${better ?? 'http'}' }])` : ''}; a Service's targetPort or a probe that names it must use the new name.` };
    }
    case 'port-name-unique':
      return { summary: 'is the name of another port of this container too: port names are unique within a container', fix: 'Give each port its own name.' };
    case 'container-port':
      return e.type === 'Required value'
        ? { summary: 'is missing or 0: every container port needs a number from 1 to 65535', fix: 'Set containerPort.' }
        : { summary: 'must be a port number from 1 to 65535', fix: 'Use a port number from 1 to 65535.' };
    case 'host-port':
      return { summary: 'must be a port number from 1 to 65535, or 0 (or left out) for none', fix: 'Use a port number from 1 to 65535, or drop hostPort.' };
    case 'protocol': {
      const upper = s.toUpperCase();
      return { summary: 'must be "TCP", "UDP" or "SCTP", in capitals', fix: ['TCP', 'UDP', 'SCTP'].includes(upper) ? `Write "${upper}".` : 'Write "TCP", "UDP" or "SCTP".' };
    }
    case 'host-network-port':
      return { summary: 'must equal the containerPort in a pod with hostNetwork: true', fix: 'Drop hostPort, or set it to the containerPort.' };
    case 'host-port-conflict':
      return {
        summary: `is the host port of '${fieldText(e.depends![0], object.manifest, topology)}' too, with the same protocol and host IP: a node binds it once`,
        fix: 'Give one of them another hostPort, or drop it.',
      };
    case 'env-name':
    case 'env-from-prefix': {
      const noun = e.check === 'env-name' ? 'env entry' : 'envFrom prefix';
      if (e.type === 'Required value') return { summary: `is missing: every ${noun} needs a name`, fix: "Name the variable, such as name: 'LOG_LEVEL'." };
      const better = envName(s);
      return { summary: `must be ${ENV_NAME}`, fix: `Rename it${better ? `, such as ${JSON.stringify(better)}` : ''}; the program reads the new name.` };
    }
    case 'env-value-from':
      return { summary: 'names no source', fix: 'Give valueFrom one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef, or write value instead.' };
    case 'env-key':
      return e.type === 'Required value'
        ? { summary: 'is missing: a configMapKeyRef or secretKeyRef names the key it reads', fix: 'Set key to a key of the ConfigMap or Secret.' }
        : { summary: "must be a data key: at most 253 letters, digits, '-', '_' and '.', not '.', '..' or starting with '..'", fix: 'Name a key the ConfigMap or Secret can have.' };
    case 'env-from-source':
      return { summary: 'has an entry with neither configMapRef nor secretRef', fix: 'Give each entry configMapRef or secretRef.' };
    case 'volume-name': {
      if (e.type === 'Required value') return { summary: 'is missing: every volume needs a name', fix: 'Name the volume with a DNS-1123 label, and mount it by that name.' };
      const better = suggest(s, FORMATS.label, 63);
      return {
        summary: `must be ${expectation(FORMATS.label, s, problemOf(s, FORMATS.label) ?? 'it is not')}`,
        fix: plus
          ? `cdk8s-plus names a volume of a ConfigMap or Secret configmap-<its name> or secret-<its name> unless told: name it, such as Volume.fromConfigMap(scope, id, configMap, { name: '${better ?? 'config'}' }).`
          : `Name the volume ${better ? JSON.stringify(better) : 'with lowercase letters, digits and \'-\''}, and its mounts the same.`,
      };
    }
    case 'volume-source':
      return { summary: 'has no volume source (emptyDir, configMap, secret, persistentVolumeClaim, ...)', fix: 'Give the volume one source.' };
    case 'mount-name': {
      if (e.type === 'Required value') return { summary: 'is missing: a volume mount names the volume it mounts', fix: 'Name a volume of the pod.' };
      const names = volumeNames(object, e);
      return {
        summary: `names no volume of the pod (${names.length === 0 ? 'it has none' : `it has ${names.map((n) => JSON.stringify(n)).join(', ')}`})`,
        fix: plus ? 'Mount a volume through the container (container.mount(path, volume)), which adds the volume to the pod.' : 'Add the volume to the pod\'s volumes, or mount one it has.',
      };
    }
    case 'mount-path':
      return { summary: 'is missing: a volume mount needs the path it mounts at', fix: 'Set mountPath.' };
    case 'sub-path':
      return { summary: `${e.detail === 'subPathExpr and subPath are mutually exclusive' ? 'is set beside subPath' : 'must be a relative path inside the volume, without ".."'}`, fix: 'Keep one of subPath and subPathExpr, a relative path inside the volume.' };
    case 'device-name':
      return e.type === 'Invalid value'
        ? { summary: 'names a volume that is no persistentVolumeClaim or ephemeral volume: a block device comes from a claim', fix: 'Mount the volume with volumeMounts instead, or use a claim of volumeMode: Block.' }
        : { summary: `${e.type === 'Required value' ? 'is missing' : 'names no volume of the pod'}`, fix: 'Name a persistentVolumeClaim or ephemeral volume of the pod.' };
    case 'device-path':
      return { summary: e.type === 'Required value' ? 'is missing' : "must not contain '..'", fix: 'Set devicePath to the path of the device in the container.' };
    case 'mount-device-overlap':
      return { summary: `${e.detail}: a container mounts a volume either as a filesystem or as a block device, at distinct paths`, fix: 'Keep one of the volume mount and the volume device, or give them distinct names and paths.' };
    case 'target-container':
      return { summary: 'names no container or init container of the pod', fix: 'Name a container of the pod.' };
    case 'probe-command':
      return { summary: 'is missing or empty: an exec action needs a command', fix: "Give it a command, such as command: ['cat', '/tmp/healthy']." };
    case 'probe-handler':
      return { summary: 'has no action: it needs one of exec, httpGet, tcpSocket or grpc (a lifecycle hook: exec, httpGet, tcpSocket or sleep)', fix: 'Give it one action.' };
    case 'probe-number':
      return { summary: numberSummary(e.detail ?? ''), fix: e.detail === 'must not be set for readinessProbes' ? 'Drop it.' : e.detail === 'must be 1' ? 'Write 1, or drop it.' : 'Write a number the API server accepts, or drop it for the default.' };
    case 'probe-port':
      return { summary: `must be a port number from 1 to 65535, or the name of a port of the container (${IANA})`, fix: "Use the port's number, or the name of a port of the container." };
    default:
      return explainResources(e);
  }
}

function numberSummary(detail: string): string {
  switch (detail) {
    case 'must be 1': return 'must be 1 for a liveness or startup probe';
    case 'must not be set for readinessProbes': return 'must not be set on a readiness probe';
    case 'must be greater than 0': return 'must be greater than 0';
    default: return 'must not be negative';
  }
}

/** The names of the volumes of the pod spec that holds `e`. */
function volumeNames(object: ObjectFact, e: PodSpecError): string[] {
  const volumes = valueAt(object.manifest, e.depends![0]);
  const declared = Array.isArray(volumes) ? volumes.flatMap((v) => (isMap(v) && typeof v.name === 'string' ? [v.name] : [])) : [];
  // a StatefulSet's pods have its claim templates as volumes too, first (the controller's updateStorage)
  const claims = object.identity.group === 'apps' && object.identity.kind === 'StatefulSet' ? [...claimTemplateNames(object.manifest)] : [];
  return [...new Set([...claims, ...declared])];
}

/** The names of a StatefulSet's `volumeClaimTemplates`, which its controller adds to each pod as volumes. */
export function claimTemplateNames(manifest: unknown): ReadonlySet<string> {
  const spec = isMap(manifest) ? manifest.spec : undefined;
  const templates = isMap(spec) ? spec.volumeClaimTemplates : undefined;
  return new Set((Array.isArray(templates) ? templates : []).map((t) => (isMap(t) && isMap(t.metadata) ? t.metadata.name : undefined)).filter((n): n is string => typeof n === 'string'));
}

/** An IANA service name close to `name` (cut at a '-' rather than inside a word), or undefined. */
function portName(name: string): string | undefined {
  let s = name.toLowerCase().replace(/[^-a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-+|-+$/g, '');
  if (s.length > 15) s = s[15] === '-' || !s.slice(0, 15).includes('-') ? s.slice(0, 15) : s.slice(0, s.lastIndexOf('-', 15));
  s = s.replace(/-+$/, '');
  return s && s !== name && isValidPortName(s).length === 0 ? s : undefined;
}

/** A container name from an image reference (`ghcr.io/example/migrate:1` gives `migrate`), or undefined. */
function nameFromImage(image: unknown): string | undefined {
  if (typeof image !== 'string') return undefined;
  const base = image.split('@')[0].split('/').pop()!.split(':')[0];
  const s = suggest(base, FORMATS.label, 63) ?? base;
  return FORMATS.label.test(s) ? s : undefined;
}

/** An environment variable name close to `name`, or undefined. */
function envName(name: string): string | undefined {
  const s = name.replace(/[^-._a-zA-Z0-9]/g, '_').replace(/^(?=[0-9])/, '_').replace(/^\.+/, '_');
  return s && s !== name ? s : undefined;
}
