import { piecewise, PIECEWISE_FROM_OBJECTS } from '../file-content';
import { kustomization } from '../kustomization';
import type { OutputWriter } from '../output-writer';

/** `runtime/`: the Kubernetes manifests, one file per step, numbered in apply order, and a kustomization that keeps the order. */
export const runtimeManifests: OutputWriter = {
  name: 'runtime/',
  write: ({ runtimeFiles, yaml }, out) => {
    // each object's YAML is already held (the context's): a large output's files are written from it, not from a copy
    const large = yaml.size >= PIECEWISE_FROM_OBJECTS;
    for (const { file, objects } of runtimeFiles) {
      const texts = objects.map((o) => yaml.get(o)!);
      out.files.set(file, large ? piecewise(() => separated(texts, '---\n')) : texts.join('---\n'));
    }
    if (runtimeFiles.length > 0) out.files.set('runtime/kustomization.yaml', kustomization(runtimeFiles.map((f) => f.file.slice('runtime/'.length))));
  },
};

/** `texts` with `separator` between each two, as `join` would write them. */
function* separated(texts: readonly string[], separator: string): Generator<string> {
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) yield separator;
    yield texts[i];
  }
}
