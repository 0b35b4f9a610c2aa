import type { ObjectFact } from '../../collect/facts';
import { describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { podLabelsOf, selects } from '../../collect/pod-spec';
import { appendTo } from '../../private/append';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/** The label cdk8s puts on the pods of a workload and in its selector, from the construct path (cdk8s-plus). */
const CDK8S_ADDRESS_LABEL = 'cdk8s.io/metadata.addr';

/** The kinds whose controller owns the pods its selector matches (a Job's selector is generated per Job). */
const CONTROLLERS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', '/ReplicationController']);

/** A workload that selects pods by labels alone. */
interface Selecting {
  readonly object: ObjectFact;
  readonly namespace: string;
  /** Its selector's `matchLabels` (a ReplicationController's selector). */
  readonly selector: Readonly<Record<string, string>>;
  /** The labels of the pods it runs. */
  readonly pods: Readonly<Record<string, string>>;
}

/**
 * `CAP002`: two workloads of one namespace whose selectors claim the same pods
 * (one's selector matches the other's pod labels). Their controllers fight
 * over those pods, as Kubernetes warns ("do not overlap labels or selectors
 * with other controllers"), and a Service that selects one of them sends
 * traffic to both. cdk8s generates a workload's labels from its construct
 * path below the capability, so two capabilities of the same structure in one
 * namespace generate the same; the message says so when it is the case. A
 * selector with `matchExpressions` is left alone.
 */
export const overlappingWorkloads = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'overlapping workloads',
  explanation:
    'Two workloads in one namespace whose selectors match the same pods: their controllers fight over the pods, and a Service of one routes to both.',
  run({ facts }) {
    const byNamespace = new Map<string, Selecting[]>();
    for (const object of facts.objects) {
      const w = selecting(object);
      if (!w) continue;
      const list = byNamespace.get(w.namespace);
      if (list) list.push(w);
      else byNamespace.set(w.namespace, [w]);
    }
    const found = [];
    for (const workloads of byNamespace.values()) {
      for (const [i, j] of overlappingPairs(workloads)) {
        const [a, b] = [workloads[i], workloads[j]];
        const aTakesB = selects(a.selector, b.pods);
        const bTakesA = selects(b.selector, a.pods);
        const labels = Object.entries(aTakesB ? a.selector : b.selector).map(([k, v]) => `${k}=${v}`).join(', ');
        const which = aTakesB && bTakesA
          ? `each selects the pods of the other (${labels})`
          : `${describeIdentity((aTakesB ? a : b).object.identity)} selects the pods of ${describeIdentity((aTakesB ? b : a).object.identity)} (${labels})`;
        const generated = CDK8S_ADDRESS_LABEL in a.selector || CDK8S_ADDRESS_LABEL in b.selector;
        const fix = generated
          ? `cdk8s generated the ${CDK8S_ADDRESS_LABEL} label from the construct path below the capability, which is the same in ${capabilitiesOf(a, b)}: `
            + "set generatedNames: 'full-path' on the capabilities, or give the workloads different ids or labels of their own."
          : 'Give each workload labels and a selector of its own.';
        found.push({
          message: `'${a.object.declarer}' and '${b.object.declarer}' both claim the pods of namespace ${a.namespace}: ${which}, so their controllers fight over those pods and a Service of one sends traffic to both. ${fix}`,
          paths: [a.object.declarer, b.object.declarer],
        });
      }
    }
    return found;
  },
});

const NONE: readonly number[] = [];

/**
 * The pairs `[i, j]` (`i < j`) of workloads one of which selects the pods of
 * the other, ordered by `i`, then `j`. Each selector is compared only with the
 * pods that carry its rarest label (found in an index of every pod label), so
 * the work grows with the workloads and the pairs found, not with the square
 * of the workloads (1,000 Deployments of one namespace are 499,500 pairs). A
 * pair the index does not name cannot match.
 */
function overlappingPairs(workloads: readonly Selecting[]): Array<[number, number]> {
  // label key -> value -> the workloads whose pods carry it, ascending
  const holders = new Map<string, Map<string, number[]>>();
  // pods that are no plain object: a lookup in them may find more than their own labels, so every selector tries them
  const unindexed: number[] = [];
  workloads.forEach((w, i) => {
    const names = ownLabelNames(w.pods);
    if (!names) unindexed.push(i);
    for (const key of names ?? []) {
      const value: unknown = w.pods[key];
      if (typeof value !== 'string') continue;
      let values = holders.get(key);
      if (!values) holders.set(key, values = new Map());
      appendTo(values, value, i);
    }
  });
  const partners: number[][] = workloads.map(() => []);
  workloads.forEach((a, i) => {
    // a selector matches only pods that carry each of its labels, so the holders of its rarest one are the candidates
    let fewest: readonly number[] | undefined;
    for (const [key, value] of Object.entries(a.selector)) {
      const those = holders.get(key)?.get(value) ?? NONE;
      if (!fewest || those.length < fewest.length) fewest = those;
    }
    for (const candidates of [fewest ?? NONE, unindexed]) {
      for (const j of candidates) {
        if (j !== i && selects(a.selector, workloads[j].pods)) partners[Math.min(i, j)].push(Math.max(i, j));
      }
    }
  });
  const pairs: Array<[number, number]> = [];
  partners.forEach((js, i) => {
    js.sort((x, y) => x - y);
    js.forEach((j, n) => {
      if (n === 0 || js[n - 1] !== j) pairs.push([i, j]);
    });
  });
  return pairs;
}

/**
 * Every property `labels[key]` finds, when the pods' labels are a plain
 * object (or one without a prototype): its own names, enumerable or not.
 * Undefined for anything else a manifest may hold there (an array, a string),
 * whose lookups reach further.
 */
function ownLabelNames(labels: unknown): string[] | undefined {
  if (typeof labels !== 'object' || labels === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(labels);
  return prototype === Object.prototype || prototype === null ? Object.getOwnPropertyNames(labels) : undefined;
}

/** The workload's selector and pod labels, when it is a controller of one namespace that selects by labels alone. */
function selecting(object: ObjectFact): Selecting | undefined {
  if (object.duplicateOf !== undefined) return undefined;
  const { group, kind } = object.identity;
  if (!CONTROLLERS.has(`${group}/${kind}`)) return undefined;
  const namespace = effectiveNamespace(object.identity);
  const spec = object.manifest?.spec;
  const selector: unknown = kind === 'ReplicationController' ? spec?.selector : spec?.selector?.matchExpressions === undefined ? spec?.selector?.matchLabels : undefined;
  const pods = podLabelsOf(group, kind, object.manifest);
  if (namespace === undefined || !isLabels(selector) || Object.keys(selector).length === 0 || !pods) return undefined;
  return { object, namespace, selector, pods };
}

function isLabels(x: unknown): x is Record<string, string> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string');
}

/** The capabilities of two workloads, as a message names them (`'alpha' and 'beta'`, or `capability 'alpha'`). */
function capabilitiesOf(a: Selecting, b: Selecting): string {
  const [x, y] = [a.object.capability, b.object.capability];
  if (x === undefined || y === undefined) return 'both';
  return x === y ? `capability '${x}'` : `capabilities '${x}' and '${y}'`;
}
