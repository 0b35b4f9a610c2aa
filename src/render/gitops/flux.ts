import * as path from 'path';
import { Duration } from 'cdk8s';
import type { KustomizationSpecSourceRefKind } from '../../imports/kustomization-kustomize.toolkit.fluxcd.io';
import { flux } from '../../private/lazy';
import { slug } from '../../private/names';
import { sha256Hex } from '../../private/sha256';
import { toYaml } from '../../private/yaml';
import { kustomization } from '../kustomization';
import type { OutputWriter } from '../output-writer';
import type { PlanStep, RuntimeFile } from '../plan-steps';
import { goDuration } from './flux-options';
import { placedManifest, renderObjects, RuntimeStep, runtimeSteps } from './runtime-steps';

/** The Flux source that holds the synthesized output (a Git repository, usually). */
export interface FluxSourceReference {
  /**
   * The kind of the source.
   *
   * @default 'GitRepository'
   */
  readonly kind?: 'GitRepository' | 'OCIRepository' | 'Bucket' | 'ExternalArtifact';
  /** The source's name. */
  readonly name: string;
  /**
   * The source's namespace.
   *
   * @default - the namespace of the Kustomizations
   */
  readonly namespace?: string;
}

/** Options of `GitOps.flux`. */
export interface FluxOptions {
  /** The source Flux reads the output from. */
  readonly sourceRef: FluxSourceReference;
  /**
   * Where the outdir is inside the source, as a Flux path (`./examples/cdn/dist`).
   *
   * @default './dist'
   */
  readonly path?: string;
  /**
   * How often each step is reconciled.
   *
   * @default Duration.minutes(10)
   */
  readonly interval?: Duration;
  /**
   * How long a step may take to apply and become ready.
   *
   * @default - Flux's default, the interval
   */
  readonly timeout?: Duration;
  /**
   * Whether Flux deletes the objects a step no longer holds.
   *
   * @default true
   */
  readonly prune?: boolean;
  /**
   * Whether a step is ready only when every object it applied is ready, which
   * is what makes `dependsOn` wait for the objects and not only for the apply.
   *
   * @default true
   */
  readonly wait?: boolean;
  /**
   * The namespace of the Flux `Kustomization`s.
   *
   * @default 'flux-system'
   */
  readonly namespace?: string;
}

/** The Flux writer: `gitops/flux/`, one Kustomization per runtime step, chained by `dependsOn`. */
export function fluxWriter(options: FluxOptions): OutputWriter {
  return {
    name: 'gitops/flux/',
    gitopsEngine: 'flux',
    gitopsRecord: (steps, runtimeFiles) => {
      const runtime = runtimeSteps(steps, runtimeFiles);
      const kustomizations = uniqueNames(runtime.map((r) => r.step.id));
      const dependsOn = stepDependsOn(steps, runtime, kustomizations);
      return {
        engine: 'flux',
        namespace: options.namespace ?? 'flux-system',
        kustomizations,
        prune: options.prune ?? true,
        // each Kustomization's objects, so the next plan sees an object that changes steps (Flux prunes it from one, applies it in the other)
        objects: Object.fromEntries(kustomizations.map((k, i) => [k, [...runtime[i].step.objects ?? []]])),
        // and what each waits for, so that plan tells whether the one an object leaves applies after the one it moves to
        dependsOn: Object.fromEntries(kustomizations.map((k, i) => [k, dependsOn[i]])),
      };
    },
    write: ({ steps, runtimeFiles }, out) => fluxFiles(options, steps, runtimeFiles).forEach((content, file) => out.files.set(file, content)),
  };
}

/**
 * The Flux files for the plan: a pure function of the steps and the runtime files.
 *
 * @param steps the plan's steps in order (deploy steps are skipped: the pipeline deploys them first)
 */
export function fluxFiles(options: FluxOptions, steps: readonly PlanStep[], runtimeFiles: readonly RuntimeFile[]): Map<string, string> {
  const runtime = runtimeSteps(steps, runtimeFiles);
  const namespace = options.namespace ?? 'flux-system';
  const root = (options.path ?? './dist').replace(/\/+$/, '');
  const names = uniqueNames(runtime.map((r) => r.step.id));
  const lifecycleOf = new Map(steps.map((s) => [s.id, s.lifecycle]));
  const dependsOnNames = stepDependsOn(steps, runtime, names);
  const files = new Map<string, string>();
  const clusterFiles: string[] = [];

  runtime.forEach(({ step, files: stepFiles }, i) => {
    const name = names[i];
    const folder = `gitops/flux/steps/${name}`;
    const manifests = stepFiles.map((f) => path.posix.basename(f.file));
    stepFiles.forEach((f, k) => files.set(`${folder}/${manifests[k]}`, renderObjects(f.objects.map(placedManifest))));
    files.set(`${folder}/kustomization.yaml`, kustomization(manifests));

    const dependsOn = dependsOnNames[i].map((n) => ({ name: n }));
    const deployFirst = step.dependsOn.filter((d) => lifecycleOf.get(d.step) === 'deploy').map((d) => d.step);
    const manifest = flux().Kustomization.manifest({
      metadata: { name, namespace },
      spec: {
        interval: goDuration(options.interval ?? Duration.minutes(10)),
        ...(options.timeout ? { timeout: goDuration(options.timeout) } : {}),
        path: `${root}/${folder}`,
        prune: options.prune ?? true,
        wait: options.wait ?? true,
        sourceRef: {
          kind: (options.sourceRef.kind ?? 'GitRepository') as KustomizationSpecSourceRefKind,
          name: options.sourceRef.name,
          ...(options.sourceRef.namespace ? { namespace: options.sourceRef.namespace } : {}),
        },
        ...(dependsOn.length > 0 ? { dependsOn } : {}),
      },
    });
    const header = [
      `# Step ${step.id} of plan.json.`,
      ...(deployFirst.length > 0 ? [`# Apply after the deploy steps ${deployFirst.join(', ')} (cdk deploy runs them first).`] : []),
    ].join('\n');
    const file = `${String(i + 1).padStart(4, '0')}-${name}.yaml`;
    files.set(`gitops/flux/cluster/${file}`, `${header}\n${toYaml(manifest)}`);
    clusterFiles.push(file);
  });
  // written when there is no runtime step too: the Kustomization pointed at cluster/ then finds its path, and prunes
  // the step Kustomizations of a release that removed its last runtime step
  files.set('gitops/flux/cluster/kustomization.yaml', kustomization(clusterFiles));
  return files;
}

/**
 * The step Kustomizations each runtime step's Kustomization depends on (`dependsOn`), by name, in the order of the
 * step's own `dependsOn`: the runtime steps it waits for (deploy steps are the pipeline's, applied first).
 *
 * @param names the Kustomizations' names, in the order of `runtime`
 */
function stepDependsOn(steps: readonly PlanStep[], runtime: readonly RuntimeStep[], names: readonly string[]): string[][] {
  const lifecycleOf = new Map(steps.map((s) => [s.id, s.lifecycle]));
  const at = new Map(runtime.map((r, i) => [r.step.id, i]));
  return runtime.map(({ step }) => step.dependsOn.filter((d) => lifecycleOf.get(d.step) === 'runtime').map((d) => names[at.get(d.step)!]));
}

/**
 * Stable Kustomization names from step ids: a DNS-1123 label each, unique.
 * A step is named by the slug of its id; steps whose ids give the same slug
 * (`a/b-c` and `a-b/c`) each add a digest of their own id, so a name never
 * depends on the order the steps were declared in.
 */
function uniqueNames(ids: readonly string[]): string[] {
  const bases = ids.map((id) => slug(id).slice(0, 60).replace(/-+$/, ''));
  const count = new Map<string, number>();
  for (const base of bases) count.set(base, (count.get(base) ?? 0) + 1);
  return bases.map((base, i) => (count.get(base) === 1 ? base : `${base.slice(0, 52).replace(/-+$/, '')}-${sha256Hex(ids[i], 10)}`));
}
