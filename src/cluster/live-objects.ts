import { parseFieldsV1 } from './fields-v1';
import type { FieldPath } from '../collect/ledger/field-path';
import { apiGroup, describeIdentity, identityKey, ObjectIdentity } from '../collect/object-identity';
import { jsyaml } from '../private/js-yaml';
import { valueText } from '../private/value-text';

/** One entry of an object's `metadata.managedFields`, its set read into paths. */
export interface ManagedFieldsEntry {
  /** The field manager. */
  readonly manager: string;
  /** `Apply` (server-side apply) or `Update` (create, update, patch: every other write). */
  readonly operation: 'Apply' | 'Update';
  /** The API version the manager wrote with. */
  readonly apiVersion?: string;
  /** When the manager last changed its set (RFC 3339), when the API server recorded it. */
  readonly time?: string;
  /** The subresource it wrote through (`status`, `scale`); absent for the object itself. */
  readonly subresource?: string;
  /** Every member of its set, as `parseFieldsV1` reads it. */
  readonly members: readonly FieldPath[];
}

/** An object as `kubectl get -o json --show-managed-fields` prints it. */
export interface LiveObject {
  /** Group, kind, namespace, name. */
  readonly identity: ObjectIdentity;
  /** Equal for the same object (`identityKey`, which is `appliedKey` for an object as the cluster holds it). */
  readonly key: string;
  /** How messages name it, `apps/Deployment shop/web`. */
  readonly label: string;
  /** The object, `metadata.managedFields` included. */
  readonly manifest: any;
  /** Its `metadata.managedFields`, in the order printed. */
  readonly managedFields: readonly ManagedFieldsEntry[];
}

/** What input `readLiveObjects` reads, as a refusal's fix says it. */
const AS_KUBECTL_PRINTS = 'give the objects as kubectl get -o json --show-managed-fields prints them (a List, an object, or one object per YAML or JSON document)';

/** Input `readLiveObjects` cannot read: says which document and why. */
export class LiveObjectsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveObjectsError';
  }
}

/**
 * The objects of `kubectl get ... -o json --show-managed-fields` (or `-o yaml`): one object, a `List` (what
 * kubectl prints for several), or several YAML or JSON documents, in any mix; lists are flattened. A JSON list
 * (`[]` too) is read as a `List`'s items: an empty one is a cluster without the objects, as kubectl's empty
 * `List` is. Empty input, or `null`, is no cluster at all: what a failed `kubectl get` leaves.
 *
 * @param text the input
 * @param source how messages name it (a file, `stdin`)
 * @throws LiveObjectsError when the input is empty or `null` (every document empty), when a document is not an
 *   object with `apiVersion`, `kind` and `metadata.name`, or
 *   a `managedFields` entry cannot be read (no manager or an empty one, an unknown operation, a `fieldsV1`
 *   that `parseFieldsV1` refuses)
 */
export function readLiveObjects(text: string, source: string): LiveObject[] {
  let documents: unknown[];
  let json = true;
  try {
    documents = [JSON.parse(text)];
  } catch {
    json = false;
    try {
      documents = jsyaml.loadAll(text);
    } catch (e) {
      throw new LiveObjectsError(`${source} is neither JSON nor YAML: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  // nothing is no cluster: kubectl prints an empty List for one without the objects, and nothing when it fails
  if (documents.every((d) => d === null || d === undefined)) {
    throw new LiveObjectsError(
      !json
        ? `${source} is empty${text.trim() === '' ? '' : ' (comments and empty YAML documents only)'}: there is no object to compare with the lock. kubectl get prints nothing on stdout when it fails (its error is on stderr), and with --ignore-not-found nothing when it finds none of the objects: see kubectl's error, or apply the release first; a cluster without the objects is an empty List ({"kind":"List","items":[]})`
        : `${source} holds null, not objects: ${AS_KUBECTL_PRINTS}`,
    );
  }
  const out: LiveObject[] = [];
  const add = (doc: any, where: string): void => {
    if (doc === null || doc === undefined) return;
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      if (Array.isArray(doc)) {
        doc.forEach((d, i) => add(d, `${where}[${i}]`));
        return;
      }
      const read = json ? '' : typeof doc === 'string' ? ' (it is not JSON, and YAML reads it as that text)' : ' (read as YAML)';
      throw new LiveObjectsError(`${where} is ${valueText(doc)}${read}, not an object: ${AS_KUBECTL_PRINTS}`);
    }
    if (Array.isArray(doc.items) && typeof doc.kind === 'string' && doc.kind.endsWith('List')) {
      doc.items.forEach((d: unknown, i: number) => add(d, `${where}.items[${i}]`));
      return;
    }
    if (typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string' || typeof doc.metadata?.name !== 'string') {
      throw new LiveObjectsError(`${where} is not a Kubernetes object (it needs apiVersion, kind and metadata.name)`);
    }
    // As the cluster prints it: a namespaced object always has its namespace, so one without is cluster-scoped.
    const namespace: string | undefined = doc.metadata.namespace || undefined;
    const identity: ObjectIdentity = { group: apiGroup(doc.apiVersion), kind: doc.kind, namespace, name: doc.metadata.name };
    const label = describeIdentity(identity);
    out.push({
      identity,
      key: identityKey(identity),
      label,
      manifest: doc,
      managedFields: readManagedFields(doc.metadata.managedFields, `${where} (${label})`),
    });
  };
  documents.forEach((d, i) => add(d, documents.length > 1 ? `${source}, document ${i + 1}` : source));
  return out;
}

function readManagedFields(entries: unknown, where: string): ManagedFieldsEntry[] {
  if (entries === undefined || entries === null) return [];
  if (!Array.isArray(entries)) throw new LiveObjectsError(`${where}: metadata.managedFields is not a list`);
  return entries.map((e: any, i: number): ManagedFieldsEntry => {
    const at = `${where}: metadata.managedFields[${i}]`;
    if (e === null || typeof e !== 'object' || typeof e.manager !== 'string') throw new LiveObjectsError(`${at} has no manager`);
    if (e.manager === '') {
      throw new LiveObjectsError(`${at} has an empty manager (""): audit names the owner of every field by its manager, and cannot name this one. Read the objects as the cluster prints them; a client that writes with neither a field manager nor a user agent is recorded so: give it one (--field-manager)`);
    }
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new LiveObjectsError(`${at} (${e.manager}): operation ${JSON.stringify(e.operation)} is neither Apply nor Update`);
    if (e.fieldsType !== undefined && e.fieldsType !== 'FieldsV1') throw new LiveObjectsError(`${at} (${e.manager}): fieldsType ${JSON.stringify(e.fieldsType)} is not FieldsV1`);
    let members: FieldPath[];
    try {
      members = parseFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new LiveObjectsError(`${at} (${e.manager}): ${(err as Error).message}`);
    }
    return {
      manager: e.manager,
      operation: e.operation,
      ...(typeof e.apiVersion === 'string' ? { apiVersion: e.apiVersion } : {}),
      ...(typeof e.time === 'string' ? { time: e.time } : {}),
      ...(typeof e.subresource === 'string' && e.subresource !== '' ? { subresource: e.subresource } : {}),
      members,
    };
  });
}
