import { isMaskedValue } from './locked-manifest';
import { isMap } from '../private/maps';

/** Where a physical name must be unique, as collect's `PHYSICAL_NAMES` says it. */
export type NameScope = 'global' | 'partition' | 'region';

/** The resource types whose explicit name property is a physical name, and its scope (collect's `PHYSICAL_NAMES`). */
export type PhysicalNameTable = Readonly<Record<string, { readonly property: string; readonly scope: NameScope }>>;

/** A resource's claim on a physical name, read from a template or from the leaves the lock recorded of one. */
export interface ResourceNameClaim {
  /** The resource's logical id. */
  readonly logicalId: string;
  /** Its CloudFormation type (`AWS::SSM::Parameter`). */
  readonly type: string;
  /** The property that names it (`Name`). */
  readonly property: string;
  /** The name, as the template writes it. */
  readonly name: string;
  /** Where the name must be unique. */
  readonly scope: NameScope;
  /** Its `DeletionPolicy`; undefined when the template sets none. */
  readonly deletionPolicy: string | undefined;
}

/** The deletion policies that keep a resource a stack update removes (`Retain`, `RetainExceptOnCreate`). */
export function keepsRemovedResource(policy: string | undefined): boolean {
  return policy === 'Retain' || policy === 'RetainExceptOnCreate';
}

const RESOURCE_TYPE = /^Resources\.([A-Za-z0-9]+)\.Type$/;

/**
 * The physical names a locked stack's resources claimed, from the leaves the lock records for it
 * (`LockedUnit.values`: `Resources.<logicalId>.Type`, `Resources.<logicalId>.Properties.<Name>`). A name the lock
 * masked (`(sensitive)`, `(known after deploy)`) or that is no string (an intrinsic) is no claim; a lock written
 * before values were recorded has none.
 */
export function lockedNameClaims(values: Readonly<Record<string, unknown>> | undefined, table: PhysicalNameTable): ResourceNameClaim[] {
  const claims: ResourceNameClaim[] = [];
  if (!values) return claims;
  for (const path in values) {
    if (!path.endsWith('.Type')) continue;
    const type = values[path];
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(table, type)) continue;
    const id = RESOURCE_TYPE.exec(path)?.[1];
    if (id === undefined) continue;
    const { property, scope } = table[type];
    const name = values[`Resources.${id}.Properties.${property}`];
    if (typeof name !== 'string' || isMaskedValue(name)) continue;
    const policy = values[`Resources.${id}.DeletionPolicy`];
    claims.push({ logicalId: id, type, property, name, scope, deletionPolicy: typeof policy === 'string' ? policy : undefined });
  }
  return claims;
}

/** The physical names a synthesized template's resources claim (`Resources.<logicalId>.Properties.<Name>` of a string). */
export function templateNameClaims(template: unknown, table: PhysicalNameTable): ResourceNameClaim[] {
  const claims: ResourceNameClaim[] = [];
  const resources = (template as { Resources?: unknown } | undefined)?.Resources;
  if (!isMap(resources)) return claims;
  for (const [id, r] of Object.entries(resources)) {
    if (!isMap(r) || typeof r.Type !== 'string' || !Object.prototype.hasOwnProperty.call(table, r.Type)) continue;
    const { property, scope } = table[r.Type];
    const name = isMap(r.Properties) ? r.Properties[property] : undefined;
    if (typeof name !== 'string') continue;
    claims.push({ logicalId: id, type: r.Type, property, name, scope, deletionPolicy: typeof r.DeletionPolicy === 'string' ? r.DeletionPolicy : undefined });
  }
  return claims;
}
