import * as path from 'path';
import { Duration } from 'cdk8s';
import { Kustomization, KustomizationSpecSourceRefKind } from '../imports/kustomization-kustomize.toolkit.fluxcd.io';
import { describeIdentity } from '../model/object-identity';
import { slug } from '../private/names';
import { toYaml } from '../private/yaml';
import { violation, Violation, ViolationCode } from '../violation';
import { PlanStep, RuntimeFile } from './plan';

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

/**
 * How an existing GitOps engine applies the runtime steps in plan order,
 * written under `gitops/` by synth (`CapabilityApp` prop `gitops`).
 *
 * @example
 * const app = new CapabilityApp({
 *   gitops: GitOps.flux({ sourceRef: { name: 'platform' }, path: './clusters/prod/cdn' }),
 * });
 */
export class GitOps {
  /**
   * Flux: one `Kustomization` (`kustomize.toolkit.fluxcd.io/v1`) per runtime
   * step, chained by `dependsOn` as the plan chains the steps, each applying
   * its own folder with `wait`. Written to `gitops/flux/`: point one Flux
   * Kustomization at `gitops/flux/cluster`.
   */
  public static flux(options: FluxOptions): GitOps {
    return new GitOps('flux', options);
  }

  /**
   * Argo CD: the runtime manifests with the annotation
   * `argocd.argoproj.io/sync-wave` set to the position of their step among the
   * runtime steps (0, 1, ...). Written to `gitops/argocd/`: point an Argo CD
   * Application (directory source) at it.
   */
  public static argoCd(): GitOps {
    return new GitOps('argocd');
  }

  private constructor(
    /** The engine the output is for. */
    public readonly engine: 'flux' | 'argocd',
    /** The Flux options, for Flux. */
    public readonly fluxOptions?: FluxOptions,
  ) {}
}

/** What `gitopsFiles` returns: files under the outdir, or why they cannot be written. */
export interface GitOpsOutput {
  /** File contents by path relative to the outdir (all under `gitops/`). */
  readonly files: Map<string, string>;
  /** Problems that refuse the composition. */
  readonly violations: Violation[];
}

/** The annotation Argo CD orders by. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/**
 * The GitOps files for the plan: a pure function of the steps and the runtime
 * files.
 *
 * @param gitops the engine and its options; undefined writes nothing
 * @param steps the plan's steps in order (deploy steps are skipped: the pipeline deploys them first)
 * @param runtimeFiles the runtime files the steps name
 */
export function gitopsFiles(gitops: GitOps | undefined, steps: readonly PlanStep[], runtimeFiles: readonly RuntimeFile[]): GitOpsOutput {
  if (!gitops) return { files: new Map(), violations: [] };
  const byFile = new Map(runtimeFiles.map((f) => [f.file, f]));
  const runtime = steps
    .filter((s) => s.lifecycle === 'runtime')
    .map((step) => ({ step, files: step.files.map((f) => byFile.get(f)).filter((f): f is RuntimeFile => f !== undefined) }));
  return gitops.engine === 'flux' ? fluxFiles(gitops.fluxOptions!, steps, runtime) : argoCdFiles(runtime);
}

interface RuntimeStep {
  readonly step: PlanStep;
  readonly files: RuntimeFile[];
}

function fluxFiles(options: FluxOptions, steps: readonly PlanStep[], runtime: readonly RuntimeStep[]): GitOpsOutput {
  const namespace = options.namespace ?? 'flux-system';
  const root = (options.path ?? './dist').replace(/\/+$/, '');
  const names = uniqueNames(runtime.map((r) => r.step.id));
  const lifecycleOf = new Map(steps.map((s) => [s.id, s.lifecycle]));
  const files = new Map<string, string>();
  const clusterFiles: string[] = [];

  runtime.forEach(({ step, files: stepFiles }, i) => {
    const name = names[i];
    const folder = `gitops/flux/steps/${name}`;
    const manifests = stepFiles.map((f) => path.posix.basename(f.file));
    stepFiles.forEach((f, k) => files.set(`${folder}/${manifests[k]}`, renderObjects(f.objects.map((o) => o.manifest))));
    files.set(`${folder}/kustomization.yaml`, kustomization(manifests));

    const dependsOn = step.dependsOn.filter((d) => lifecycleOf.get(d.step) === 'runtime').map((d) => ({ name: names[runtime.findIndex((r) => r.step.id === d.step)] }));
    const deployFirst = step.dependsOn.filter((d) => lifecycleOf.get(d.step) === 'deploy').map((d) => d.step);
    const manifest = Kustomization.manifest({
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
  if (clusterFiles.length > 0) files.set('gitops/flux/cluster/kustomization.yaml', kustomization(clusterFiles));
  return { files, violations: [] };
}

function argoCdFiles(runtime: readonly RuntimeStep[]): GitOpsOutput {
  const files = new Map<string, string>();
  const violations: Violation[] = [];
  runtime.forEach(({ files: stepFiles }, wave) => {
    for (const f of stepFiles) {
      const annotated = f.objects.map((o) => {
        const existing = o.manifest.metadata?.annotations?.[SYNC_WAVE_ANNOTATION];
        if (existing !== undefined) {
          violations.push(
            violation(
              ViolationCode.FIELD_CONFLICT,
              `field conflict: ${describeIdentity(o.identity)} declared by '${o.declarer.node.path}' writes metadata.annotations.${SYNC_WAVE_ANNOTATION} (${JSON.stringify(existing)}), which GitOps.argoCd() writes from the plan (wave ${wave}). Remove the annotation and order the object with addDependency.`,
              [o.declarer.node.path],
            ),
          );
        }
        const metadata = { ...o.manifest.metadata, annotations: { ...o.manifest.metadata?.annotations, [SYNC_WAVE_ANNOTATION]: String(wave) } };
        return { ...o.manifest, metadata };
      });
      files.set(`gitops/argocd/${path.posix.basename(f.file)}`, renderObjects(annotated));
    }
  });
  return { files, violations };
}

/** A kustomize `kustomization.yaml` that applies `resources` in the order given. */
function kustomization(resources: readonly string[]): string {
  return toYaml({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources,
  });
}

function renderObjects(manifests: readonly unknown[]): string {
  return manifests.map((m) => toYaml(m)).join('---\n');
}

/** Stable Kustomization names from step ids: a DNS-1123 label each, unique. */
function uniqueNames(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  return ids.map((id) => {
    const base = slug(id).slice(0, 60).replace(/-+$/, '');
    let name = base;
    for (let n = 2; seen.has(name); n++) name = `${base}-${n}`;
    seen.add(name);
    return name;
  });
}

/** A Go duration as Flux writes it: `10m`, `1h`, `90s`. */
function goDuration(d: Duration): string {
  const seconds = d.toSeconds();
  if (seconds > 0 && seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds > 0 && seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
