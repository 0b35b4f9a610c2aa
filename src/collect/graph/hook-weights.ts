import type { ObjectFact } from '../facts';

/** Helm's hook annotation and the annotation of its weight. */
const HELM_HOOK = 'helm.sh/hook';
const HELM_HOOK_WEIGHT = 'helm.sh/hook-weight';

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

/** One ordering edge of hook weights: `before` (an index into the objects) is a lighter hook of `events` than `after`. */
export interface HookWeightEdge {
  /** The index of the lighter hook. */
  readonly before: number;
  /** The index of the heavier hook. */
  readonly after: number;
  /** The events the two hooks share, in Helm's order of `HELM_EVENTS`. */
  readonly events: readonly string[];
  /** The weights of `before` and `after`, as Helm reads them. */
  readonly weights: readonly [number, number];
}

/**
 * Helm's order of the hooks of one event (helm/helm pkg/action/hooks.go): by `helm.sh/hook-weight`, lighter
 * first, each hook run and waited for before the next. Argo CD keeps it only as the sync wave of a hook without
 * `argocd.argoproj.io/sync-wave`, which the library writes on every object; so the lighter hooks of an event come
 * a step before the heavier ones: an edge from each hook of a weight to each hook of the next weight of that event.
 *
 * A weight is read as Helm reads it (`strconv.Atoi`, anything else 0); a hook with an event Helm does not know is
 * none (Helm skips it). Linear in the hooks plus the edges.
 */
export function hookWeightEdges(objects: readonly ObjectFact[]): HookWeightEdge[] {
  const byEvent = new Map<string, Map<number, number[]>>();
  objects.forEach((o, index) => {
    if (o.duplicateOf !== undefined) return;
    const annotations = o.manifest?.metadata?.annotations;
    const events = helmEvents(annotations?.[HELM_HOOK]);
    if (!events) return;
    const weight = helmWeight(annotations?.[HELM_HOOK_WEIGHT]);
    for (const event of events) {
      const weights = byEvent.get(event) ?? new Map<number, number[]>();
      byEvent.set(event, weights);
      weights.set(weight, [...(weights.get(weight) ?? []), index]);
    }
  });
  const pairs = new Map<string, { before: number; after: number; events: string[]; weights: [number, number] }>();
  for (const event of new Set(Object.values(HELM_EVENTS))) {
    const weights = byEvent.get(event);
    if (!weights || weights.size < 2) continue;
    const order = [...weights.keys()].sort((a, b) => a - b);
    for (let k = 1; k < order.length; k++) {
      for (const before of weights.get(order[k - 1])!) {
        for (const after of weights.get(order[k])!) {
          const key = `${before}>${after}`;
          const pair = pairs.get(key) ?? { before, after, events: [], weights: [order[k - 1], order[k]] };
          pairs.set(key, pair);
          pair.events.push(event);
        }
      }
    }
  }
  return [...pairs.values()];
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
