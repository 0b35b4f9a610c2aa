import type { ObjectFact } from '../../collect/facts';
import { DEFAULT_NAMESPACE } from '../../collect/object-identity';
import { toYaml } from '../../private/yaml';
import type { PlanStep, RuntimeFile } from '../plan-steps';

/** A runtime step with its files. */
export interface RuntimeStep {
  /** The step. */
  readonly step: PlanStep;
  /** Its runtime files, in order. */
  readonly files: RuntimeFile[];
}

/** The runtime steps of the plan, in order, with their files (deploy steps are the pipeline's, not the GitOps engine's). */
export function runtimeSteps(steps: readonly PlanStep[], runtimeFiles: readonly RuntimeFile[]): RuntimeStep[] {
  const byFile = new Map(runtimeFiles.map((f) => [f.file, f]));
  return steps
    .filter((s) => s.lifecycle === 'runtime')
    .map((step) => ({ step, files: step.files.map((f) => byFile.get(f)).filter((f): f is RuntimeFile => f !== undefined) }));
}

/**
 * An object's manifest as a GitOps engine gets it: the manifest of `runtime/`, except that an object of a
 * namespaced kind that names no namespace names `default`, where the library counts it (its identity, the lock,
 * `cdk-capability apply -n default`). Flux refuses a whole step for an object it cannot place, and Argo CD would
 * put it in the Application's destination namespace. A kind the composition does not know the scope of counts as
 * namespaced, as in its identity; a cluster-scoped kind is left as it is.
 *
 * @param object the runtime object
 * @returns its manifest, the same object when nothing is added
 */
export function placedManifest(object: ObjectFact): any {
  const manifest = object.manifest;
  if (object.identity.namespace !== '') return manifest;
  const metadata: Record<string, unknown> = {};
  // after the name, where cdk8s writes a namespace; in place of an empty or null one
  for (const [key, value] of Object.entries(manifest.metadata ?? {})) {
    if (key === 'namespace') continue;
    metadata[key] = value;
    if (key === 'name') metadata.namespace = DEFAULT_NAMESPACE;
  }
  if (!('namespace' in metadata)) metadata.namespace = DEFAULT_NAMESPACE;
  return { ...manifest, metadata };
}

/** Manifests as one YAML stream. */
export function renderObjects(manifests: readonly unknown[]): string {
  return manifests.map((m) => toYaml(m)).join('---\n');
}
