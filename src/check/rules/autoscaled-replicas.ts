import type { Facts, ObjectFact } from '../../collect/facts';
import { declarationWriter, describeWriter, Writer } from '../../collect/ledger/writer';
import { describeIdentity, effectiveNamespace } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { includedHow, joinAnd } from './text';

/**
 * How to declare the autoscaler as the writer of `spec.replicas`, as the fix names it. The HorizontalPodAutoscaler
 * controller runs in kube-controller-manager and writes through the scale subresource under that field manager,
 * so that is the manager `audit` finds owning the field.
 */
const DECLARE = "new RuntimeWriter(scope, 'Autoscaler', { target: <the workload>, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', manager: 'kube-controller-manager' })";

/**
 * `CAP002`: a HorizontalPodAutoscaler of the composition scales a workload of the composition whose
 * `spec.replicas` the release writes (its props, a library default, a Contribution, a patch), and no
 * `RuntimeWriter` declares the autoscaler's write. The autoscaler writes that field in the cluster, so every
 * apply resets its choice: two writers of one field, one of them a controller. With the autoscaler declared, the
 * runtime-writer rules compare the two.
 */
export const autoscaledReplicas = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'autoscaled replicas',
  explanation: "An autoscaler writes its target's spec.replicas in the cluster; a release that applies its own replicas resets the autoscaler's choice on every apply.",
  run: ({ facts }) => {
    const found: RuleFinding[] = [];
    const writes = replicaWrites(facts);
    for (const { hpa, target } of undeclaredAutoscaling(facts)) {
      const writers = writes(target);
      if (writers.length === 0) continue;
      const included = writers.filter((w) => w.kind === 'declaration' && Object.hasOwn(facts.includedFrom ?? {}, w.path));
      const inFiles = included.map((w) => `; ${describeWriter(w)} declares it ${includedHow(facts.includedFrom![w.path])}`).join('');
      found.push({
        message: `${describeIdentity(hpa.identity)} declared by '${hpa.declarer}' scales ${describeIdentity(target.identity)}, whose spec.replicas `
          + `${joinAnd(writers.map(describeWriter))} ${writers.length > 1 ? 'write' : 'writes'} (${JSON.stringify(target.manifest?.spec?.replicas)}): `
          + 'the autoscaler writes that field in the cluster, and every apply resets its choice. Leave spec.replicas to the autoscaler '
          + `(drop it from the props, Contribution or patch${inFiles}; a cdk8s-plus workload renders a default unless you call markHasAutoscaler() on it) `
          + `and declare the autoscaler as its writer: ${DECLARE}.`,
        paths: [...new Set([hpa.declarer, ...writers.map((w) => w.path)])],
      });
    }
    return found;
  },
});

/**
 * `CAP002` (warning): a HorizontalPodAutoscaler of the composition scales a workload of the composition that leaves
 * `spec.replicas` to it (a cdk8s-plus workload after `markHasAutoscaler()`, a document without replicas), and no
 * `RuntimeWriter` declares the autoscaler's write. Nothing conflicts today, but the ownership map has no writer of
 * the field: the plan and the lock do not show the autoscaler, and `cdk-capability audit` finds its field manager
 * owning a field no writer declares (drift). A warning, since the composition is right as it is.
 */
export const undeclaredAutoscalers = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'undeclared autoscalers',
  explanation: "An autoscaler writes its target's spec.replicas in the cluster; declared as a RuntimeWriter, the ownership map, the plan and audit know that writer.",
  severity: 'warning',
  run: ({ facts }) => {
    const found: RuleFinding[] = [];
    const writes = replicaWrites(facts);
    for (const { hpa, target } of undeclaredAutoscaling(facts)) {
      // the release writes replicas: the autoscaled-replicas refusal says it all
      if (writes(target).length > 0) continue;
      found.push({
        message: `${describeIdentity(hpa.identity)} declared by '${hpa.declarer}' scales ${describeIdentity(target.identity)} declared by '${target.declarer}', `
          + 'and no RuntimeWriter declares that the autoscaler writes its spec.replicas: the ownership map has no writer of the field, so the plan and the lock '
          + "do not show it, and cdk-capability audit reports kube-controller-manager's spec.replicas as drift. "
          + `Declare the autoscaler as the field's writer: ${DECLARE}.`,
        paths: [...new Set([hpa.declarer, target.declarer])],
      });
    }
    return found;
  },
});

/**
 * Each HorizontalPodAutoscaler of the composition with the workload of the composition it scales, when no
 * `RuntimeWriter` declares that workload's `spec.replicas`.
 */
function* undeclaredAutoscaling(facts: Facts): Iterable<{ readonly hpa: ObjectFact; readonly target: ObjectFact }> {
  for (const hpa of facts.objects) {
    if (hpa.identity.group !== 'autoscaling' || hpa.identity.kind !== 'HorizontalPodAutoscaler' || hpa.duplicateOf !== undefined) continue;
    const index = targetOf(facts, hpa);
    if (index === undefined || declaredRuntime(facts, index)) continue;
    yield { hpa, target: facts.objects[index] };
  }
}

/** The index of the object an autoscaler's `scaleTargetRef` names in its namespace, when the composition holds it. */
function targetOf(facts: Facts, hpa: ObjectFact): number | undefined {
  const ref = hpa.manifest?.spec?.scaleTargetRef;
  if (!ref || typeof ref.kind !== 'string' || typeof ref.name !== 'string') return undefined;
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const namespace = effectiveNamespace(hpa.identity);
  const index = facts.objects.findIndex((o) => o.duplicateOf === undefined && o.identity.group === group && o.identity.kind === ref.kind
    && o.identity.name === ref.name && effectiveNamespace(o.identity) === namespace);
  return index < 0 ? undefined : index;
}

/** True when a `RuntimeWriter` writes `spec.replicas` of the object (or of every object of its kind). */
function declaredRuntime(facts: Facts, index: number): boolean {
  const { group, kind } = facts.objects[index].identity;
  return facts.runtimeWriters.some((w) =>
    ('object' in w.target ? w.target.object === index : w.target.group === group && w.target.kind === kind)
    && w.fields.some((f) => isReplicas(f.path)));
}

/** The release's writers of an object's `spec.replicas`: as the ledger records them, else its declarer when it renders one. */
function replicaWrites(facts: Facts): (o: ObjectFact) => Writer[] {
  let byLabel: Map<string, Facts['ledger']['objects'][number]> | undefined;
  return (o) => {
    byLabel ??= new Map(facts.ledger.objects.filter((w) => w.kind === 'k8s').map((w) => [w.label, w]));
    const recorded = (byLabel.get(describeIdentity(o.identity))?.writes ?? []).filter((w) => isReplicas(w.path) && w.writer.kind !== 'runtime').map((w) => w.writer);
    if (recorded.length > 0) return [...new Map(recorded.map((w) => [w.id, w])).values()];
    return o.manifest?.spec?.replicas !== undefined ? [declarationWriter(o.declarer)] : [];
  };
}

function isReplicas(path: readonly string[]): boolean {
  return path.length === 2 && path[0] === 'spec' && path[1] === 'replicas';
}
