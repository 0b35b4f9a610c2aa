import { IConstruct } from 'constructs';
import type { FieldMap } from '../contract/field';
import type { InterfaceContract } from '../contract/interface-contract';
import { isUnresolvedToken } from '../private/aws-cdk';
import { membersOf } from '../private/scope-members';
import { majorOfVersion } from '../private/semver-version';

/** The header the edge sets to the tenant id when no contract publishes one. */
export const DEFAULT_TENANT_HEADER = 'x-tenant-id';

/** The contract field a published tenant header is read from. */
export const TENANT_HEADER_FIELD = 'tenantHeader';

/**
 * An HTTP header name as every hop of the path accepts it: an RFC 9110 token in
 * lowercase (CloudFront Functions see header names in lowercase, and Istio
 * matches header keys in lowercase only).
 */
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** True when `name` is a lowercase HTTP header name (an RFC 9110 token), as every hop of the path accepts it. */
export function isTenantHeaderName(name: unknown): name is string {
  return typeof name === 'string' && HEADER_NAME.test(name);
}

/** The tenant header a capability routes on, and where it comes from. */
export interface TenantHeader {
  /** The header name. */
  readonly name: string;
  /** The contract that publishes it, when one does. */
  readonly contract?: InterfaceContract<FieldMap>;
  /** Why the published value cannot be routed on, when it cannot. */
  readonly problem?: string;
}

/**
 * The header the edge sets to the tenant id: the literal `tenantHeader` that
 * the capability's interface contract publishes (its newest major, when two are
 * side by side), else `x-tenant-id`.
 *
 * @param capability the capability; its contracts are its children (a contract's scope is its capability)
 */
export function tenantHeaderOf(capability: IConstruct): TenantHeader {
  const contracts = membersOf<InterfaceContract<FieldMap>>(capability, 'InterfaceContract');
  // With majors side by side, the newest major is what the edge emits.
  const major = (c: InterfaceContract<FieldMap>) => majorOfVersion(c.version) ?? -1;
  for (const contract of [...contracts].sort((a, b) => major(b) - major(a))) {
    const published = contract.publications[0]?.values[TENANT_HEADER_FIELD];
    if (published === undefined) continue;
    if (isUnresolvedToken(published) || typeof published !== 'string') {
      const problem = `'${TENANT_HEADER_FIELD}' of '${contract.node.path}' is a deployment-time value, but tenant routes match on it at synth. Publish it as a literal string such as "${DEFAULT_TENANT_HEADER}"`;
      return { name: DEFAULT_TENANT_HEADER, contract, problem };
    }
    if (!isTenantHeaderName(published)) {
      const problem = `'${TENANT_HEADER_FIELD}' (${JSON.stringify(published)}) of '${contract.node.path}' must be a lowercase HTTP header name such as "${DEFAULT_TENANT_HEADER}"`;
      return { name: published, contract, problem };
    }
    return { name: published, contract };
  }
  return { name: DEFAULT_TENANT_HEADER };
}
