import type { ObjectFact } from '../../collect/facts';
import { describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { podLabelsOf, selects } from '../../collect/pod-spec';
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
      for (let i = 0; i < workloads.length; i++) {
        for (let j = i + 1; j < workloads.length; j++) {
          const [a, b] = [workloads[i], workloads[j]];
          const aTakesB = selects(a.selector, b.pods);
          const bTakesA = selects(b.selector, a.pods);
          if (!aTakesB && !bTakesA) continue;
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
    }
    return found;
  },
});

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
