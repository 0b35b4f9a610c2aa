import { kustomization } from '../kustomization';
import type { OutputWriter } from '../output-writer';

/** `runtime/`: the Kubernetes manifests, one file per step, numbered in apply order, and a kustomization that keeps the order. */
export const runtimeManifests: OutputWriter = {
  name: 'runtime/',
  write: ({ runtimeFiles, yaml }, out) => {
    for (const { file, objects } of runtimeFiles) out.files.set(file, objects.map((o) => yaml.get(o)).join('---\n'));
    if (runtimeFiles.length > 0) out.files.set('runtime/kustomization.yaml', kustomization(runtimeFiles.map((f) => f.file.slice('runtime/'.length))));
  },
};
