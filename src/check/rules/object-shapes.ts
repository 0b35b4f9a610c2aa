import { apiVersionProblem, kindProblem } from '../../collect/api-kinds';
import type { ObjectFact } from '../../collect/facts';
import { apiGroup, describeIdentity } from '../../collect/object-identity';
import { dataKeyProblem, MAX_DATA_KEY, suggestDataKey } from '../../private/data-key';
import { walkManifest } from '../../private/manifest-walk';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** The API server's limit on the data of a ConfigMap or Secret (`MaxSecretSize`, `totalSize` of data and binaryData). */
export const MAX_DATA_BYTES = 1024 * 1024;
/**
 * The most any object may serialize to: etcd's default `--max-request-bytes`
 * (1.5 MiB), the request that stores one object. ConfigMaps and Secrets meet
 * the API server's tighter limit on their data first.
 */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;

/** aws-cdk token text, which the boundary rule reports. */
const TOKEN_TEXT = /[$#]\{Token\[[^\]]*\]\}/;
/**
 * `CAP010`: shapes the Kubernetes API server (or etcd) refuses, which the
 * validity rule of names and labels does not see: an object over 1.5 MiB
 * serialized (etcd); ConfigMap or Secret data over 1 MiB, or with a key that is not
 * a valid data key; the core group written as `core/v1`; a group without a
 * dot that is no built-in group; a kind that is not UpperCamelCase, or that
 * the built-in group it names does not have.
 */
export const objectShapes = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'object shapes',
  explanation: "A manifest's shape must be one the Kubernetes API server accepts for its kind (types, required fields, enums); otherwise kubectl apply fails after earlier steps were already applied.",
  run: ({ facts }) => facts.objects.flatMap((o) => (o.duplicateOf === undefined ? shapeProblems(o) : [])),
});

/** The shape problems of one object. */
export function shapeProblems(object: ObjectFact): RuleFinding[] {
  const m = object.manifest ?? {};
  const path = object.declarer;
  const found: RuleFinding[] = [];
  const report = (message: string) => found.push({ message, paths: [path] });

  if (typeof m.apiVersion === 'string') {
    const problem = apiVersionProblem(m.apiVersion, typeof m.kind === 'string' ? m.kind : undefined);
    if (problem) report(`'apiVersion' (${JSON.stringify(m.apiVersion)}) of ${namedAs(object)} ${problem}`);
  }
  // a list of objects (ConfigMapList, with items) is the list-documents rule's: one finding that says to expand it
  if (typeof m.kind === 'string' && m.kind !== '' && !(m.kind.endsWith('List') && Array.isArray(m.items))) {
    const problem = kindProblem(m.kind, typeof m.apiVersion === 'string' ? apiGroup(m.apiVersion) : undefined);
    if (problem) report(`'kind' (${JSON.stringify(m.kind)}) of ${namedAs(object)} ${problem}`);
  }

  const { group, kind } = object.identity;
  const dataKind = group === '' && (kind === 'ConfigMap' || kind === 'Secret');
  if (dataKind) {
    const maps = kind === 'ConfigMap' ? ['data', 'binaryData'] : ['data', 'stringData'];
    // at least the data's bytes (3 bytes of UTF-8 a UTF-16 unit, a base64 value decodes shorter): counted
    // exactly only when over the limit
    let bound = 0;
    const seen = new Map<string, string>();
    for (const field of maps) {
      const map = m[field];
      if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
      for (const [key, value] of Object.entries(map)) {
        // a token as a key is a boundary leak (CAP006), reported there
        const problem = TOKEN_TEXT.test(key) ? undefined : dataKeyProblem(key);
        if (problem) {
          report(`key ${JSON.stringify(key)} of '${field}' of ${namedAs(object)} must be a valid data key (at most ${MAX_DATA_KEY} letters, digits, '-', '_' and '.'), but ${problem}. Rename the key${suggestDataKey(key)}.`);
        }
        const other = seen.get(key);
        if (other !== undefined && kind === 'ConfigMap') {
          report(`key ${JSON.stringify(key)} of ${namedAs(object)} is in both '${other}' and '${field}'; the API server refuses a key in both. Keep it in one.`);
        }
        seen.set(key, field);
        if (typeof value === 'string') bound += 3 * value.length;
      }
    }
    const bytes = bound > MAX_DATA_BYTES ? dataBytesOf(m, maps, kind) : 0;
    if (bytes > MAX_DATA_BYTES) {
      report(`the data of ${namedAs(object)} is ${bytes} bytes, more than the ${MAX_DATA_BYTES} bytes (1 MiB) the API server allows a ${kind}. Split it across several ${kind}s, or keep large files out of the cluster (an image, a volume, object storage).`);
      return found;
    }
  }
  // serialized only when the walk the nesting-depth check shares cannot tell it is under the limit
  const bound = walkManifest(m).maxBytes;
  const size = bound !== undefined && bound <= MAX_OBJECT_BYTES ? 0 : serializedBytes(m);
  if (size > MAX_OBJECT_BYTES) {
    report(`${namedAs(object)} is ${size} bytes serialized, more than the ${MAX_OBJECT_BYTES} bytes (1.5 MiB) etcd accepts in the request that stores an object (its default --max-request-bytes). Split it into several objects.`);
  }
  return found;
}

/** How messages name an object: `ConfigMap default/app declared by 'app/Config'`. */
function namedAs(object: ObjectFact): string {
  return `${describeIdentity({ ...object.identity, kind: object.identity.kind || '(no kind)', name: object.identity.name || '(no name)' })} declared by '${object.declarer}'`;
}

/** Bytes of the data of a ConfigMap or Secret in the `maps` it has, as the API server counts them. */
function dataBytesOf(m: Record<string, any>, maps: readonly string[], kind: string): number {
  let bytes = 0;
  for (const field of maps) {
    const map = m[field];
    if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
    for (const value of Object.values(map)) bytes += dataBytes(value, field === 'binaryData' || (kind === 'Secret' && field === 'data'));
  }
  return bytes;
}

/** Bytes of one data value: decoded for base64 maps (`binaryData`, a Secret's `data`). */
function dataBytes(value: unknown, base64: boolean): number {
  if (typeof value !== 'string') return 0;
  return base64 && /^[A-Za-z0-9+/=\s]*$/.test(value) ? Buffer.from(value, 'base64').length : Buffer.byteLength(value);
}

function serializedBytes(manifest: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(manifest) ?? '');
  } catch {
    return 0;
  }
}
