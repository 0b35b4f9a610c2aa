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

/** Manifests as one YAML stream. */
export function renderObjects(manifests: readonly unknown[]): string {
  return manifests.map((m) => toYaml(m)).join('---\n');
}
