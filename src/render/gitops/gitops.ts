import { argoCdWriter } from './argo-cd';
import type { FluxOptions } from './flux';
import { fluxWriter } from './flux';
import { fluxOptionsProblems } from './flux-options';
import { brand, hasBrand } from '../../private/brand';
import { invalidInput } from '../../private/invalid-input';
import { valueText } from '../../private/value-text';
import type { OutputWriter } from '../output-writer';

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
   * Kustomization at `gitops/flux/cluster`. A step's folder holds copies of
   * its runtime files in which a namespaced object that names no namespace
   * names `default`, where the library counts it.
   *
   * @throws CompositionError `CAP010` when an option is not valid (a missing
   * `sourceRef`, a source kind Flux does not know, a duration that is not a
   * whole, positive number of milliseconds, an option it does not take), one
   * violation naming each
   */
  public static flux(options: FluxOptions): GitOps {
    const problems = fluxOptionsProblems(options);
    if (problems.length > 0) throw invalidInput(`GitOps.flux: ${problems.join('; ')}`);
    return new GitOps('flux', fluxWriter(options));
  }

  /**
   * Argo CD: the runtime manifests with the annotation
   * `argocd.argoproj.io/sync-wave` set to the position of their step among the
   * runtime steps (0, 1, ...), and a namespaced object that names no namespace
   * naming `default`, where the library counts it. Apply them with the
   * Application's `syncOptions: [ServerSideApply=true]`, so that Argo CD
   * applies under the manager `argocd-controller` the audit expects. Written to `gitops/argocd/`: point an Argo CD
   * Application (directory source) at it. Hooks (`argocd.argoproj.io/hook`, and the `helm.sh/hook`s Argo CD maps)
   * keep their annotation; synth refuses one whose dependency Argo CD's phases cannot keep (`CAP004`: a PreSync
   * hook that depends on an object of the Sync phase would run before it).
   *
   * @throws CompositionError `CAP010` when given options (from JavaScript): it takes none, and would drop them
   */
  public static argoCd(): GitOps {
    // a JavaScript program can pass options, as to flux; the signature declares none, so only `arguments` sees them
    // eslint-disable-next-line prefer-rest-params
    if (arguments.length > 0) throw invalidInput(`GitOps.argoCd takes no options, but was given ${argumentsText(arguments)}: it would drop them. Call GitOps.argoCd(); Argo CD's own settings go in its Application`);
    return new GitOps('argocd', argoCdWriter);
  }

  /**
   * Whether `x` was made by `GitOps.flux` or `GitOps.argoCd` (of any copy of
   * this package).
   */
  public static isGitOps(x: unknown): x is GitOps {
    return hasBrand(x, 'GitOps');
  }

  private constructor(
    /** The engine the output is for, for example `flux`. */
    public readonly engine: string,
    /**
     * The output writer of the engine.
     *
     * @internal
     */
    public readonly writer: OutputWriter,
  ) {
    brand(this, 'GitOps');
  }
}

/** The arguments a call was given, as a message quotes them: `{"namespace":"argocd"}`, or each of several. */
function argumentsText(given: IArguments): string {
  return Array.from(given, (a) => valueText(a)).join(', ');
}
