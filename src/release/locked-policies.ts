import { Lock, LockedPolicy, LockedUnit, objectUnitId } from './lock';
import { describeIdentity, groupKind, identityKey, ObjectIdentity } from '../collect/object-identity';

/** The API group of the field-ownership policies and their bindings. */
export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

/**
 * The id of the runtime step of the field-ownership policies (`enforce`), and the `path` of their units in
 * the lock: no construct declares them.
 */
export const FIELD_OWNERSHIP_STEP = 'field-ownership';

/**
 * What a unit of a policy recorded by kind and name only holds instead of a digest: no digest of this
 * release's manifests ever equals it, so the plan shows the policy as changed, with the lock's note that it
 * holds no values (`unitChanges`).
 */
const NOT_RECORDED = '(not recorded)';

/** The identity of an object of the field-ownership step: cluster-scoped, in admissionregistration.k8s.io. */
export function policyIdentity(policy: LockedPolicy): ObjectIdentity {
  return { group: ADMISSION_GROUP, kind: policy.kind, name: policy.name };
}

/** The lock's unit id of an object of the field-ownership step (`object:admissionregistration.k8s.io|<kind>||<name>`). */
export function policyUnitId(policy: LockedPolicy): string {
  return objectUnitId(identityKey(policyIdentity(policy)));
}

/**
 * The unit ids of the objects of the field-ownership step (`enforce`) that a lock records: the admission
 * policies and bindings the release applies whole, which no construct declares.
 */
export function fieldOwnershipUnitIds(lock: Lock | undefined): ReadonlySet<string> {
  return new Set((lock?.fieldOwnershipPolicies ?? []).map(policyUnitId));
}

/**
 * The lock with a unit for each object of the field-ownership step it records by kind and name only (a lock
 * written before they were units): with no digest and no values, and before every other unit, where they are
 * applied. So the plan lists such a policy as changed or removed, and the teardown deletes a removed one,
 * as for any object of the release. A lock that records a unit for each is returned as it is.
 */
export function withPolicyUnits(lock: Lock): Lock {
  const ids = new Set(lock.units.map((u) => u.id));
  const missing = (lock.fieldOwnershipPolicies ?? []).filter((p) => !ids.has(policyUnitId(p)));
  if (missing.length === 0) return lock;
  const added: LockedUnit[] = missing.map((p) => {
    const label = describeIdentity(policyIdentity(p));
    return { id: policyUnitId(p), label, path: FIELD_OWNERSHIP_STEP, digest: NOT_RECORDED, groupKind: groupKind(ADMISSION_GROUP, p.kind) };
  });
  const shift = added.length;
  return {
    ...lock,
    units: [...added, ...lock.units],
    edges: lock.edges.map(([from, to, reason]): [number, number, string] => [from + shift, to + shift, reason]),
  };
}
