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

/** An object a field-ownership binding selects: the resource's group and plural, its namespace ('' when cluster-scoped) and name. */
export function boundObjectKey(group: string, resource: string, namespace: string, name: string): string {
  return JSON.stringify([group, resource, namespace, name]);
}

const BINDING_PREFIX = `${policyUnitId({ kind: 'ValidatingAdmissionPolicyBinding', name: '' })}`;
const RULE = 'spec.matchResources.resourceRules[0]';
const NAMES = new RegExp(`^${RULE.replace(/[.[\]]/g, '\\$&')}\\.resourceNames\\[\\d+\\]$`);
const NAMESPACES = /^spec\.matchResources\.namespaceSelector\.matchExpressions\[0\]\.values\[\d+\]$/;

/**
 * The objects each field-ownership binding of the lock selects, by the binding's name: its resource's names
 * times the namespaces of its `namespaceSelector` (`boundObjectKey`). A binding the lock records by name only
 * (a lock written before the policies were units) selects none the lock knows of.
 *
 * @param lock the previous release's lock
 * @returns the binding names, each with the keys of its objects
 */
export function lockedBindingObjects(lock: Lock | undefined): ReadonlyMap<string, ReadonlySet<string>> {
  const out = new Map<string, ReadonlySet<string>>();
  for (const unit of lock?.units ?? []) {
    if (!unit.id.startsWith(BINDING_PREFIX) || unit.values === undefined) continue;
    const values = unit.values;
    const group = String(values[`${RULE}.apiGroups[0]`] ?? '');
    const resource = String(values[`${RULE}.resources[0]`] ?? '');
    const names = Object.keys(values).filter((k) => NAMES.test(k)).map((k) => String(values[k]));
    const namespaces = Object.keys(values).filter((k) => NAMESPACES.test(k)).map((k) => String(values[k]));
    const keys = new Set<string>();
    for (const namespace of namespaces.length > 0 ? namespaces : ['']) for (const name of names) keys.add(boundObjectKey(group, resource, namespace, name));
    out.set(unit.id.slice(BINDING_PREFIX.length), keys);
  }
  return out;
}
