import { toYaml } from '../private/yaml';

/** A kustomize `kustomization.yaml` that applies `resources` in the order given (`sortOptions: fifo` keeps it). */
export function kustomization(resources: readonly string[]): string {
  return toYaml({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources,
  });
}
