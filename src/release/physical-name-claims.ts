import { isMaskedValue, lockedManifest } from './locked-manifest';
import type { StackFact } from '../collect/facts';
import type * as PhysicalNames from '../collect/ledger/physical-names';
import { lazily } from '../private/lazy';
import { isMap } from '../private/maps';

/** Where a physical name must be unique, as collect's `PHYSICAL_NAMES` says it. */
export type NameScope = 'global' | 'partition' | 'region';

/** The resource types whose explicit name property is a physical name, and its scope (collect's `PHYSICAL_NAMES`). */
export type PhysicalNameTable = Readonly<Record<string, { readonly property: string; readonly scope: NameScope }>>;

/** The type of a Route53 record set, whose claim is its zone, name, type and set identifier together. */
export const RECORD_SET = 'AWS::Route53::RecordSet';

/* eslint-disable @typescript-eslint/no-require-imports -- deliberately lazy: the table's module loads aws-cdk-lib, which only a lock with stacks needs */
/** Collect's `PHYSICAL_NAMES`, loaded on first use. */
export const physicalNameTable = lazily(() => (require('../collect/ledger/physical-names') as typeof PhysicalNames).PHYSICAL_NAMES as PhysicalNameTable);
/* eslint-enable @typescript-eslint/no-require-imports */

/** The key collect gives a claim of a resource of `stack` (`PhysicalNameFact.key`), to find its claimant. */
export function claimFactKey(claim: ResourceNameClaim, stack: StackFact): string {
  if (claim.type === RECORD_SET) return `${claim.type}|${claim.name}`;
  const where = claim.scope === 'global' ? 'global' : claim.scope === 'partition' ? stack.account : stack.environment;
  return `${claim.type}|${where}|${claim.name}`;
}

/** A resource's claim on a physical name, read from a template or from the leaves the lock recorded of one. */
export interface ResourceNameClaim {
  /** The resource's logical id. */
  readonly logicalId: string;
  /** Its CloudFormation type (`AWS::SSM::Parameter`). */
  readonly type: string;
  /** The property that names it (`Name`). */
  readonly property: string;
  /**
   * The name, as the template writes it; for a record set, its zone, name, type and set identifier as one key
   * (collect's: a zone given by reference stands with its stack's path, so it matches only in that stack).
   */
  readonly name: string;
  /** How messages name the claim: `Name "/shop/origin"`, `A record "api.example.com." in zone "Z123"`. */
  readonly label: string;
  /** What a create finds taken, as messages name it: `/shop/origin`, `the A record api.example.com.`. */
  readonly taken: string;
  /** Where the name must be unique. */
  readonly scope: NameScope;
  /** Its `DeletionPolicy`; undefined when the template sets none. */
  readonly deletionPolicy: string | undefined;
  /** Whether CloudFormation names the resource when the template does not (false for a record set, named by what it is). */
  readonly generated: boolean;
}

/** The deletion policies that keep a resource a stack update removes (`Retain`, `RetainExceptOnCreate`). */
export function keepsRemovedResource(policy: string | undefined): boolean {
  return policy === 'Retain' || policy === 'RetainExceptOnCreate';
}

const RESOURCE_TYPE = /^Resources\.([A-Za-z0-9]+)\.Type$/;

/** The start of a resource's leaves in a locked stack. */
const RESOURCES = 'Resources.';

/**
 * The physical names a locked stack's resources claimed, from the leaves the lock records for it
 * (`LockedUnit.values`: `Resources.<logicalId>.Type`, `Resources.<logicalId>.Properties.<Name>`), and its record
 * sets' claims. A name the lock masked (`(sensitive)`, `(known after deploy)`) or that is no string (an intrinsic)
 * is no claim; a lock written before values were recorded has none.
 *
 * @param stackPath the locked stack's construct path, which a record set's zone given by reference stands with
 */
export function lockedNameClaims(values: Readonly<Record<string, unknown>> | undefined, table: PhysicalNameTable, stackPath = ''): ResourceNameClaim[] {
  const claims: ResourceNameClaim[] = [];
  if (!values) return claims;
  const records: string[] = [];
  for (const path in values) {
    if (!path.endsWith('.Type')) continue;
    const type = values[path];
    if (type === RECORD_SET) {
      const id = RESOURCE_TYPE.exec(path)?.[1];
      if (id !== undefined) records.push(id);
      continue;
    }
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(table, type)) continue;
    const id = RESOURCE_TYPE.exec(path)?.[1];
    if (id === undefined) continue;
    const { property, scope } = table[type];
    const name = values[`Resources.${id}.Properties.${property}`];
    if (typeof name !== 'string' || isMaskedValue(name)) continue;
    const policy = values[`Resources.${id}.DeletionPolicy`];
    claims.push(namedClaim(id, type, property, name, scope, typeof policy === 'string' ? policy : undefined));
  }
  if (records.length > 0) {
    const resources = lockedManifest(resourceLeaves(values, records)).Resources;
    for (const id of records) {
      const r = isMap(resources) ? resources[id] : undefined;
      const claim = isMap(r) ? recordClaim(id, r, stackPath) : undefined;
      if (claim) claims.push(claim);
    }
  }
  return claims;
}

/**
 * The leaves of the resources `ids` of a locked stack (`Resources.<logicalId>.<...>`), in one pass over its
 * leaves whatever the number of resources.
 */
export function resourceLeaves(values: Readonly<Record<string, unknown>>, ids: Iterable<string>): Record<string, unknown> {
  const wanted = new Set(ids);
  const leaves: Record<string, unknown> = {};
  for (const path in values) {
    if (!path.startsWith(RESOURCES)) continue;
    const end = path.indexOf('.', RESOURCES.length);
    if (end > 0 && wanted.has(path.slice(RESOURCES.length, end))) leaves[path] = values[path];
  }
  return leaves;
}

/**
 * The physical names a synthesized template's resources claim (`Resources.<logicalId>.Properties.<Name>` of a
 * string), and its record sets' claims.
 *
 * @param stackPath the stack's construct path, which a record set's zone given by reference stands with
 */
export function templateNameClaims(template: unknown, table: PhysicalNameTable, stackPath = ''): ResourceNameClaim[] {
  const claims: ResourceNameClaim[] = [];
  const resources = (template as { Resources?: unknown } | undefined)?.Resources;
  if (!isMap(resources)) return claims;
  for (const [id, r] of Object.entries(resources)) {
    const claim = resourceNameClaim(id, r, table, stackPath);
    if (claim) claims.push(claim);
  }
  return claims;
}

/**
 * The claim of the resource `logicalId` of a synthesized template, as `templateNameClaims` reads it; undefined when
 * the template has no such resource or the resource claims no name.
 */
export function templateNameClaim(template: unknown, logicalId: string, table: PhysicalNameTable, stackPath = ''): ResourceNameClaim | undefined {
  const resources = (template as { Resources?: unknown } | undefined)?.Resources;
  if (!isMap(resources) || !Object.prototype.hasOwnProperty.call(resources, logicalId)) return undefined;
  return resourceNameClaim(logicalId, resources[logicalId], table, stackPath);
}

/** The claim of one resource of a template (`r`, the value at `Resources.<id>`), or undefined. */
function resourceNameClaim(id: string, r: unknown, table: PhysicalNameTable, stackPath: string): ResourceNameClaim | undefined {
  if (!isMap(r) || typeof r.Type !== 'string') return undefined;
  if (r.Type === RECORD_SET) return recordClaim(id, r, stackPath);
  if (!Object.prototype.hasOwnProperty.call(table, r.Type)) return undefined;
  const { property, scope } = table[r.Type];
  const name = isMap(r.Properties) ? r.Properties[property] : undefined;
  if (typeof name !== 'string') return undefined;
  return namedClaim(id, r.Type, property, name, scope, typeof r.DeletionPolicy === 'string' ? r.DeletionPolicy : undefined);
}

function namedClaim(
  logicalId: string,
  type: string,
  property: string,
  name: string,
  scope: NameScope,
  deletionPolicy: string | undefined,
): ResourceNameClaim {
  return { logicalId, type, property, name, label: `${property} "${name}"`, taken: name, scope, deletionPolicy, generated: true };
}

/**
 * A record set's claim, as collect's `physicalNames` keys it: its zone (`HostedZoneId`, else `HostedZoneName`; one
 * given by reference stands with `stackPath`), `Name`, `Type` and `SetIdentifier`; undefined when the name or type
 * is no string or a part is masked. A zone is global, so the scope is.
 */
function recordClaim(logicalId: string, r: Record<string, unknown>, stackPath: string): ResourceNameClaim | undefined {
  const props = isMap(r.Properties) ? r.Properties : undefined;
  const zone = props?.HostedZoneId ?? props?.HostedZoneName;
  const name = props?.Name;
  const type = props?.Type;
  const set = props?.SetIdentifier;
  if (zone === undefined || typeof name !== 'string' || typeof type !== 'string') return undefined;
  if ([zone, name, type, set].some((v) => isMaskedValue(v)) || (set !== undefined && typeof set !== 'string')) return undefined;
  const zoneKey = typeof zone === 'string' ? zone : `${stackPath}|${JSON.stringify(zone)}`;
  const zoneText = typeof zone === 'string' ? `"${zone}"` : JSON.stringify(zone);
  const setText = set === undefined ? '' : ` (set identifier "${set}")`;
  return {
    logicalId,
    type: RECORD_SET,
    property: 'Name',
    name: JSON.stringify([zoneKey, name, type, set ?? null]),
    label: `${type} record "${name}"${setText} in zone ${zoneText}`,
    taken: `the ${type} record ${name}${setText}`,
    scope: 'global',
    deletionPolicy: typeof r.DeletionPolicy === 'string' ? r.DeletionPolicy : undefined,
    generated: false,
  };
}
