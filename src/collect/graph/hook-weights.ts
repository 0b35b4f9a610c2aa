import type { ObjectFact } from '../facts';

/** Helm's hook annotation and the annotation of its weight. */
const HELM_HOOK = 'helm.sh/hook';
const HELM_HOOK_WEIGHT = 'helm.sh/hook-weight';

/** Argo CD's hook annotation, which places a hook in Argo CD's phases over its Helm events. */
const ARGO_CD_HOOK = 'argocd.argoproj.io/hook';

/** The phase Argo CD runs a Helm hook of each event in (gitops-engine `pkg/sync/hook/helm/type.go`); it runs no other. */
const ARGO_CD_PHASES: Readonly<Record<string, string>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};

/** The events Helm runs hooks for (helm/helm pkg/release/v1/util/manifest_sorter.go `events`; `test-success` is `test`). */
const HELM_EVENTS: Readonly<Record<string, string>> = {
  'pre-install': 'pre-install',
  'post-install': 'post-install',
  'pre-delete': 'pre-delete',
  'post-delete': 'post-delete',
  'pre-upgrade': 'pre-upgrade',
  'post-upgrade': 'post-upgrade',
  'pre-rollback': 'pre-rollback',
  'post-rollback': 'post-rollback',
  'test': 'test',
  'test-success': 'test',
};

/** One ordering edge of hook weights: `before` (an index into the objects) is a lighter hook of `phase` than `after`. */
export interface HookWeightEdge {
  /** The index of the lighter hook. */
  readonly before: number;
  /** The index of the heavier hook. */
  readonly after: number;
  /** The phase of Argo CD both hooks run in: `PreSync` or `PostSync`. */
  readonly phase: string;
  /** The weights of `before` and `after`, as Helm reads them. */
  readonly weights: readonly [number, number];
}

/**
 * The order of Helm hooks by `helm.sh/hook-weight` (helm/helm pkg/action/hooks.go: the hooks of one event, lighter
 * first, each run and waited for before the next). Argo CD, which runs a Helm hook in the phase of its events
 * (PreSync: `pre-install`, `pre-upgrade`; PostSync: `post-install`, `post-upgrade`; gitops-engine
 * `pkg/sync/hook/helm/type.go`), reads that weight as the hook's sync wave in its phase, but only without
 * `argocd.argoproj.io/sync-wave`, which the library writes on every object. So of the Helm hooks of one phase the
 * lighter come a step (a sync wave) before the heavier: an edge from each hook of a weight to each hook of the
 * next weight.
 *
 * Not ordered: a hook of several phases (`pre-install,post-install`) or of none (`test`, `pre-delete`: no applier
 * of the output runs it), where an edge could close a cycle with Argo CD's phases, and a hook with an
 * `argocd.argoproj.io/hook` of its own, which places it instead. A weight is read as Helm reads it (`strconv.Atoi`,
 * anything else 0); a hook with an event Helm does not know is none (Helm skips it). Linear in the hooks plus the edges.
 */
export function hookWeightEdges(objects: readonly ObjectFact[]): HookWeightEdge[] {
  const byPhase = new Map<string, Map<number, number[]>>();
  objects.forEach((o, index) => {
    if (o.duplicateOf !== undefined) return;
    const annotations = o.manifest?.metadata?.annotations;
    const phase = annotations?.[ARGO_CD_HOOK] === undefined ? argoCdPhase(helmEvents(annotations?.[HELM_HOOK])) : undefined;
    if (phase === undefined) return;
    const weights = byPhase.get(phase) ?? new Map<number, number[]>();
    byPhase.set(phase, weights);
    const weight = helmWeight(annotations?.[HELM_HOOK_WEIGHT]);
    const same = weights.get(weight);
    if (same) same.push(index);
    else weights.set(weight, [index]);
  });
  const edges: HookWeightEdge[] = [];
  for (const [phase, weights] of byPhase) {
    const order = [...weights.keys()].sort((a, b) => a - b);
    for (let k = 1; k < order.length; k++) {
      for (const before of weights.get(order[k - 1])!) {
        for (const after of weights.get(order[k])!) edges.push({ before, after, phase, weights: [order[k - 1], order[k]] });
      }
    }
  }
  return edges;
}

/** The one phase Argo CD runs a Helm hook of these events in; undefined for none, several, or an event it runs in none. */
function argoCdPhase(events: readonly string[] | undefined): string | undefined {
  const phases = new Set((events ?? []).map((e) => ARGO_CD_PHASES[e]));
  return phases.size === 1 ? [...phases][0] : undefined;
}

/** The events of a `helm.sh/hook` value, each once; undefined for none, or for a hook Helm skips (an event it does not know). */
function helmEvents(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const events = new Set<string>();
  for (const part of value.split(',')) {
    const event = HELM_EVENTS[part.trim().toLowerCase()];
    if (event === undefined) return undefined;
    events.add(event);
  }
  return [...events];
}

/** A `helm.sh/hook-weight` as Helm's `strconv.Atoi` reads it: a signed decimal integer, anything else 0. */
function helmWeight(value: unknown): number {
  return typeof value === 'string' && /^[+-]?[0-9]+$/.test(value) ? Number(value) : 0;
}
