import { admissionPolicies } from './admission-policy';
import { applyOrder } from './binding-order';
import type { EnforceOptions } from './enforce-options';
import { ownershipMapOf } from './ownership-map';
import type { Facts, ObjectFact } from '../../collect/facts';
import { describeIdentity, groupKind, identityKey, ObjectIdentity } from '../../collect/object-identity';
import { slug } from '../../private/names';
import type { Lock } from '../../release/lock';
import { FIELD_OWNERSHIP_STEP, lockedBindingObjects } from '../../release/locked-policies';
import type { PlanStep, RuntimeFile, StepPlan } from '../plan-steps';

/** The id of the runtime step that holds the field-ownership policies, and the declarer of its objects. */
export const ENFORCEMENT_STEP = FIELD_OWNERSHIP_STEP;

/** Why a runtime step waits for the policies. */
export const ENFORCEMENT_REASON = 'field-ownership policy before the objects it protects';

/**
 * The plan with the admission policies that enforce the ownership map
 * (`CapabilityApp` prop `enforce`) as a runtime step of its own, before every
 * runtime step (its file sorts first: `runtime/0000-field-ownership.yaml`),
 * and every runtime step that holds a protected object waiting for it. The step's file holds the policies
 * first, then the bindings, each binding that gains an object of the previous release's bindings before the one
 * that lets it go (`applyOrder`).
 *
 * @param plan the steps and runtime files of the composition
 * @param facts what collect found
 * @param options the deployer and the validation actions
 * @param previous the previous release's lock, which tells the objects of its bindings
 * @returns the plan unchanged when no object has an owned leaf
 */
export function withEnforcement(plan: StepPlan, facts: Facts, options: EnforceOptions, previous?: Lock): StepPlan {
  const map = ownershipMapOf(facts, options.deployer, options.resources);
  const rendered = admissionPolicies(map, { validationActions: options.validationActions ?? ['Deny'], namePrefix: namePrefixOf(facts) });
  const manifests = applyOrder(rendered, lockedBindingObjects(previous));
  const firstRuntime = plan.steps.findIndex((s) => s.lifecycle === 'runtime');
  if (manifests.length === 0 || firstRuntime === -1) return plan;

  const objects: ObjectFact[] = manifests.map((manifest) => {
    const identity: ObjectIdentity = { group: 'admissionregistration.k8s.io', kind: manifest.kind, name: manifest.metadata.name };
    return { path: ENFORCEMENT_STEP, declarer: ENFORCEMENT_STEP, chart: ENFORCEMENT_STEP, identity, key: identityKey(identity), manifest };
  });
  const width = /^runtime\/(\d+)-/.exec(plan.runtimeFiles[0]?.file ?? '')?.[1].length ?? 4;
  const file: RuntimeFile = { file: `runtime/${'0'.repeat(width)}-${ENFORCEMENT_STEP}.yaml`, objects };
  const described = objects.map((o) => describeIdentity(o.identity));
  const step: PlanStep = { id: ENFORCEMENT_STEP, lifecycle: 'runtime', objects: described, files: [file.file], dependsOn: [] };

  const protectedKinds = new Set(map.kinds.map((k) => groupKind(k.group, k.kind)));
  const isProtected = (o: ObjectFact) => protectedKinds.has(groupKind(o.identity.group, o.identity.kind));
  const protects = new Set(plan.runtimeFiles.filter((f) => f.objects.some(isProtected)).map((f) => f.file));
  const steps = plan.steps.map((s): PlanStep =>
    s.lifecycle === 'runtime' && s.files.some((f) => protects.has(f))
      ? { ...s, dependsOn: [{ step: ENFORCEMENT_STEP, reasons: [ENFORCEMENT_REASON] }, ...s.dependsOn] }
      : s,
  );
  steps.splice(firstRuntime, 0, step);
  return { steps, runtimeFiles: [file, ...plan.runtimeFiles] };
}

/** The first label of the policies' names: the capabilities' ids, so two apps in one cluster do not share policies. */
function namePrefixOf(facts: Facts): string {
  const ids = [...new Set(facts.capabilities.map((c) => c.id))].sort();
  const prefix = slug(ids.join('-')).slice(0, 63).replace(/-+$/, '');
  return ids.length > 0 && prefix ? prefix : 'app';
}
