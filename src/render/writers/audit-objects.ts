import type { ObjectFact } from '../../collect/facts';
import { effectiveNamespace } from '../../collect/object-identity';
import { piecewise, PIECEWISE_FROM_OBJECTS } from '../file-content';
import type { OutputWriter } from '../output-writer';

/** The file, relative to the outdir, that names every runtime object for `kubectl get -f`. */
export const AUDIT_OBJECTS_FILE = 'audit/objects.list';

/**
 * `audit/objects.list`: every runtime object of the release by its identity alone (`apiVersion`, `kind`,
 * `metadata.name`, and `metadata.namespace` written out: `default` for a namespaced object that names none,
 * absent for a cluster-scoped kind), in apply order, for `kubectl get -f` to read the live objects audit
 * compares. The runtime files cannot be read so: one `kubectl get` of them with `-n default` refuses an object
 * of another namespace, and without it reads a namespace-less object in the context's namespace, where apply
 * did not put it (docs/cluster.md). Outside `runtime/`, so no `kubectl apply -f`/`-k` of that folder, its
 * kustomization or a GitOps folder applies these bare objects; and not named `.yaml`, so no reader that walks
 * the outdir for manifests takes them for some (`kubectl apply -R -f dist`, which would empty a ConfigMap
 * applied client-side, or the cdk8s CLI's listing): kubectl reads a file it is given by name whatever its
 * extension, and only filters by extension in a folder it walks. Each identity is one line of JSON, a YAML
 * document kubectl reads like any other (a tenth of the cost of block YAML for a large composition).
 */
export const auditObjects: OutputWriter = {
  name: 'audit/',
  write: ({ runtimeFiles }, out) => {
    const objects = runtimeFiles.flatMap((f) => f.objects);
    if (objects.length === 0) return;
    // a large file is made piece by piece while it is written, as the runtime files are: it is not held
    out.files.set(AUDIT_OBJECTS_FILE, objects.length >= PIECEWISE_FROM_OBJECTS ? piecewise(() => lines(objects)) : [...lines(objects)].join(''));
  },
};

/** The file's text: the header, then one document per object. */
function* lines(objects: readonly ObjectFact[]): Generator<string> {
  yield `# ${HEADER}\n`;
  for (let i = 0; i < objects.length; i++) yield `${i > 0 ? '---\n' : ''}${JSON.stringify(identityDocument(objects[i]))}\n`;
}

/** The first line of the file: what it is for, to whoever opens it. */
const HEADER = `The identity of every runtime object, for: kubectl get -f <outdir>/${AUDIT_OBJECTS_FILE} --ignore-not-found -o json --show-managed-fields | npx cdk-capability audit`;

/** The minimal object kubectl needs to find `o` in the cluster: its apiVersion, kind, name and, for a namespaced kind, the namespace apply puts it in. */
function identityDocument(o: ObjectFact): object {
  const namespace = effectiveNamespace(o.identity);
  return {
    apiVersion: o.manifest.apiVersion,
    kind: o.identity.kind,
    metadata: namespace === undefined ? { name: o.identity.name } : { name: o.identity.name, namespace },
  };
}
