import type { Facts, StackFact } from '../../collect/facts';
import { isMap } from '../../private/maps';
import type { Lock, LockedUnit } from '../../release/lock';
import { stackUnitId } from '../../release/lock';
import { isMaskedValue, lockedManifest } from '../../release/locked-manifest';
import { claimFactKey, keepsRemovedResource, lockedNameClaims, physicalNameTable, RECORD_SET, resourceLeaves, ResourceNameClaim, templateNameClaims } from '../../release/physical-name-claims';
import { REPLACEMENT_PROPERTIES } from '../../release/replacement-properties.generated';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { secretShapesIn } from './possible-secrets';

const RELEASES_DOC = 'docs/releases.md#replacing-a-resource-that-has-a-physical-name';

/** The start of a stack's unit id (`stackUnitId`). */
const STACK = stackUnitId('');

/** Per resource type, the property paths whose change makes CloudFormation replace it (`REPLACEMENT_PROPERTIES`). */
export type ReplacementTable = Readonly<Record<string, { readonly yes: readonly string[]; readonly maybe: readonly string[] }>>;

/** One property whose change replaces the resource: its path, and its values in both releases (undefined: unset). */
interface ReplacingChange {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  /** The lock masked part of the old value, or the new one holds a secret's shape: the values are not shown. */
  readonly masked: boolean;
}

/**
 * `CAP008`: a resource with an explicit physical name (collect's `PHYSICAL_NAMES`) that keeps its logical id and
 * its name while this release changes a property whose change makes CloudFormation replace it ("Update requires:
 * Replacement", `causesReplacement: 'yes'` in AWS's specification, `REPLACEMENT_PROPERTIES`). CloudFormation creates
 * a replacement before it deletes the old resource, and the replacement would need the name the old one holds: it
 * refuses the update ("CloudFormation cannot update a stack when a custom-named resource requires replacing").
 * A property whose change replaces the resource only sometimes (`maybe`) is not judged, nor is a name or a value
 * the lock masked (a value partly masked whose unmasked part changed is, without its values), nor a lock written
 * before values were recorded.
 */
export const namedReplacements = defineRule({
  code: ViolationCode.UNSAFE_DELETION,
  title: 'named replacements',
  explanation: 'A change of a property that requires replacement, on a resource whose explicit physical name stays, is refused by CloudFormation: the replacement would need the name the old resource still holds, and the stack update rolls back.',
  run({ facts, previous }) {
    if (!previous) return [];
    return findNamedReplacements(previous, facts);
  },
});

/**
 * The findings of `namedReplacements` for a lock and this release's facts.
 *
 * @param replacing the properties that replace each type (the generated table; a test gives its own)
 */
export function findNamedReplacements(lock: Lock, facts: Facts, replacing: ReplacementTable = REPLACEMENT_PROPERTIES): RuleFinding[] {
  const lockedStacks = lock.units.filter((u) => u.id.startsWith(STACK) && u.values !== undefined);
  if (lockedStacks.length === 0) return [];
  const stacks = new Map(facts.stacks.filter((s) => s.template !== undefined).map((s) => [s.path, s]));
  if (stacks.size === 0) return [];
  const table = physicalNameTable();
  let claimants: Map<string, string[]> | undefined;
  const claimantsOf = (key: string): readonly string[] => {
    if (!claimants) {
      claimants = new Map();
      for (const c of facts.physicalNames) {
        const list = claimants.get(c.key);
        if (list) list.push(c.claimant);
        else claimants.set(c.key, [c.claimant]);
      }
    }
    return claimants.get(key) ?? [];
  };

  const found: RuleFinding[] = [];
  for (const unit of lockedStacks) {
    const stack = stacks.get(unit.path);
    if (!stack) continue;
    const now = new Map(templateNameClaims(stack.template, table, stack.path).map((c) => [c.logicalId, c]));
    const kept = lockedNameClaims(unit.values, table, unit.path).filter((old) => {
      const c = now.get(old.logicalId);
      return old.type !== RECORD_SET && c !== undefined && c.type === old.type && c.name === old.name && (replacing[old.type]?.yes.length ?? 0) > 0;
    });
    if (kept.length === 0) continue;
    const before = lockedResources(unit, kept, replacing);
    const resources = (stack.template as { Resources: Record<string, unknown> }).Resources;
    for (const claim of kept) {
      const was = before[claim.logicalId];
      const is = resources[claim.logicalId];
      const changes = replacingChanges(isMap(was) ? was.Properties : undefined, isMap(is) ? is.Properties : undefined, replacing[claim.type].yes);
      if (changes.length === 0) continue;
      const who = claimantsOf(claimFactKey(claim, stack));
      if (who.length !== 1) continue; // two claimants of the name are CAP002's
      found.push({ title: 'custom-named resource replaced', message: describe(claim, who[0], stack, changes), paths: [who[0]] });
    }
  }
  return found;
}

/**
 * The resources of `claims` in a locked stack, as its leaves describe them (masked values in place), with only the
 * properties that replace them: the manifest is made of those leaves alone.
 */
function lockedResources(unit: LockedUnit, claims: readonly ResourceNameClaim[], replacing: ReplacementTable): Record<string, unknown> {
  const leaves = resourceLeaves(unit.values!, claims.map((c) => c.logicalId));
  const prefixes = claims.flatMap((c) => replacing[c.type].yes.map((p) => `Resources.${c.logicalId}.Properties.${p.split('.')[0]}`));
  const wanted: Record<string, unknown> = {};
  for (const path in leaves) {
    if (prefixes.some((p) => path.startsWith(p) && (path.length === p.length || path[p.length] === '.' || path[p.length] === '['))) wanted[path] = leaves[path];
  }
  const resources = lockedManifest(wanted).Resources;
  return isMap(resources) ? resources : {};
}


/** What a comparison of an old value (which may hold masked parts) with a new one says. */
type Compared = 'same' | 'changed' | 'unknown';

/** The properties at `paths` whose value changed, known to have changed (a masked old value is not known to). */
function replacingChanges(before: unknown, after: unknown, paths: readonly string[]): ReplacingChange[] {
  const changes: ReplacingChange[] = [];
  for (const path of paths) {
    const steps = path.split('.');
    const old = at(before, steps);
    const now = at(after, steps);
    if (compare(old, now) !== 'changed') continue;
    changes.push({ path, before: old, after: now, masked: holdsMasked(old) || holdsSecretShape(now) });
  }
  return changes;
}

/**
 * The value at `steps` below `value`: a property's value, or for a step `*` (a list's elements, a map's values) the
 * list of what is below each; undefined when a step is missing.
 */
function at(value: unknown, steps: readonly string[]): unknown {
  if (steps.length === 0 || value === undefined) return value;
  const [step, ...rest] = steps;
  if (step === '*') {
    const items = Array.isArray(value) ? value : isMap(value) ? Object.values(value) : undefined;
    return items?.map((v) => at(v, rest));
  }
  return isMap(value) ? at(value[step], rest) : undefined;
}

function compare(old: unknown, now: unknown): Compared {
  if (isMaskedValue(old)) return 'unknown';
  if (old === undefined || now === undefined) return old === now ? 'same' : 'changed';
  if (Array.isArray(old) || Array.isArray(now)) {
    if (!Array.isArray(old) || !Array.isArray(now) || old.length !== now.length) return 'changed';
    return combine(old.map((v, i) => compare(v, now[i])));
  }
  if (isMap(old) || isMap(now)) {
    if (!isMap(old) || !isMap(now)) return 'changed';
    const keys = Object.keys(old);
    if (keys.length !== Object.keys(now).length || keys.some((k) => !Object.prototype.hasOwnProperty.call(now, k))) return 'changed';
    return combine(keys.map((k) => compare(old[k], now[k])));
  }
  return old === now ? 'same' : 'changed';
}

function combine(results: readonly Compared[]): Compared {
  if (results.includes('changed')) return 'changed';
  return results.includes('unknown') ? 'unknown' : 'same';
}

function holdsMasked(value: unknown): boolean {
  if (isMaskedValue(value)) return true;
  if (Array.isArray(value)) return value.some(holdsMasked);
  return isMap(value) && Object.values(value).some(holdsMasked);
}

/** Whether a value of this release holds a string shaped like a secret, which the lock would mask and a message must not show. */
function holdsSecretShape(value: unknown): boolean {
  if (typeof value === 'string') return secretShapesIn(value).length > 0;
  if (Array.isArray(value)) return value.some(holdsSecretShape);
  return isMap(value) && Object.values(value).some(holdsSecretShape);
}

/** A value as a message shows it: JSON, `unset` for none. */
function shown(value: unknown): string {
  return value === undefined ? 'unset' : JSON.stringify(value);
}

/** The message: the resource, its name, each change, why CloudFormation refuses it, and the fixes. */
function describe(claim: ResourceNameClaim, claimant: string, stack: StackFact, changes: readonly ReplacingChange[]): string {
  const each = changes.map((c) => (c.masked ? `${c.path} (changed)` : `${c.path} (from ${shown(c.before)} to ${shown(c.after)})`));
  const listed = each.length === 1 ? each[0] : `${each.slice(0, -1).join(', ')} and ${each[each.length - 1]}`;
  const names = changes.map((c) => c.path);
  const which = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  const twoSteps = keepsRemovedResource(claim.deletionPolicy)
    ? `or replace it in two releases (remove ${claim.logicalId} in one release and delete the resource its DeletionPolicy ${claim.deletionPolicy} leaves behind, then add it back in the next)`
    : `or replace it in two releases (remove ${claim.logicalId} in one release, add it back in the next)`;
  return `this release changes ${listed} of ${claim.type} '${claimant}' (logical id ${claim.logicalId} in stack ${stack.path}), whose ${claim.label} stays: `
    + `a change of ${which} makes CloudFormation replace the resource (Update requires: Replacement), creating the replacement before it deletes the old one, which still holds ${claim.taken}, `
    + `so CloudFormation refuses the update ("CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${claim.taken} and update the stack again") and the update of stack ${stack.path} rolls back. `
    + `Drop the explicit ${claim.property} and let CloudFormation generate one, or give it a new ${claim.property} in this release, ${twoSteps} (${RELEASES_DOC}).`;
}
