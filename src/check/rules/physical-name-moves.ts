import type { Facts, StackFact } from '../../collect/facts';
import type { Lock, LockedUnit } from '../../release/lock';
import { stackUnitId } from '../../release/lock';
import { claimFactKey, keepsRemovedResource, lockedNameClaims, physicalNameTable, RECORD_SET, ResourceNameClaim, templateNameClaim, templateNameClaims } from '../../release/physical-name-claims';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

const RELEASES_DOC = 'docs/releases.md#renaming-a-resource-that-has-a-physical-name';

/** The start of a stack's unit id (`stackUnitId`). */
const STACK = stackUnitId('');

/** A claim of the locked release: the resource, and the stack unit it was in. */
interface LockedClaim {
  readonly claim: ResourceNameClaim;
  readonly unit: LockedUnit;
}

/**
 * `CAP008`: a physical name (collect's `PHYSICAL_NAMES`: an SSM parameter's `Name`, a bucket's `BucketName`, ...;
 * a Route53 record set's zone, name, type and set identifier together)
 * that a resource claims in this release while another resource, a (stack, logical id) this release no longer has
 * with that name, held it in the locked release: the construct was renamed or moved, so its logical id changed
 * and CloudFormation takes it for a new resource. CloudFormation creates new resources before it deletes the
 * removed ones (in the cleanup that ends a stack update), so in one stack the create fails because the name
 * exists; in another stack it fails unless the plan deploys the old stack first, and with a `Retain` deletion
 * policy on the old resource in every order. A name whose old resource still claims it is two claims of this
 * release (`physicalNames`, CAP002), not this rule's; a moved resource without an explicit name gets a new
 * generated name and is no claim at all. Names are compared in the scope `physicalNames` compares them in (the
 * stacks' account and region as the lock records them, none for a global name), and only what the lock recorded
 * as a string: a masked name, or a lock written before values were recorded, is not judged.
 */
export const physicalNameMoves = defineRule({
  code: ViolationCode.UNSAFE_DELETION,
  title: 'physical name moves',
  explanation: 'A resource with an explicit physical name whose logical id changes between releases (a renamed or moved construct) is a new resource to CloudFormation, created before the old one is deleted: the create fails because the name exists, and the stack update rolls back.',
  run({ facts, previous }) {
    if (!previous) return [];
    return findMoves(previous, facts);
  },
});

function findMoves(lock: Lock, facts: Facts): Array<{ message: string; paths: string[]; title: string }> {
  const lockedStacks = lock.units.filter((u) => u.id.startsWith(STACK) && u.values !== undefined);
  const stacks = facts.stacks.filter((s) => s.template !== undefined);
  if (lockedStacks.length === 0 || stacks.length === 0) return [];
  const table = physicalNameTable();

  const locked = new Map<string, LockedClaim[]>();
  for (const unit of lockedStacks) {
    for (const claim of lockedNameClaims(unit.values, table, unit.path)) {
      const key = `${claim.type}|${claim.name}`;
      const list = locked.get(key);
      if (list) list.push({ claim, unit });
      else locked.set(key, [{ claim, unit }]);
    }
  }
  if (locked.size === 0) return [];

  const byPath = new Map(stacks.map((s) => [s.path, s]));
  // most releases move no name: when every locked claim is still its resource's, under the same type and name, no
  // claim of this release can be a move (each of its old holders still holds the name), and the templates' other
  // claims need not be read
  if (allStillHeld(locked, byPath, table)) return [];
  const current = new Map(stacks.map((s) => [s.path, templateNameClaims(s.template, table, s.path)]));
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
  const deploysAfter = planOrder(facts);

  const found: Array<{ message: string; paths: string[]; title: string }> = [];
  for (const stack of stacks) {
    for (const claim of current.get(stack.path) ?? []) {
      const named = locked.get(`${claim.type}|${claim.name}`);
      if (!named) continue;
      // the name did not move: this resource held it in the locked release
      if (named.some((old) => old.unit.path === stack.path && old.claim.logicalId === claim.logicalId)) continue;
      const holders = named.filter((old) => sameScope(old, stack, claim.scope));
      if (holders.length === 0) continue;
      // two claimants in this release (the old resource among them, still with the name) are CAP002's
      const who = claimantsOf(claimFactKey(claim, stack));
      if (who.length !== 1) continue;
      for (const old of holders) {
        const still = current.get(old.unit.path)?.find((c) => c.logicalId === old.claim.logicalId);
        if (still && still.type === old.claim.type && still.name === old.claim.name) continue;
        const resource = byPath.get(old.unit.path)?.template?.Resources?.[old.claim.logicalId];
        const removed = resource === undefined || resource === null;
        const why = whyItFails(old, removed, stack, byPath.get(old.unit.path), deploysAfter);
        if (why === undefined) continue;
        const now = removed
          ? 'which this release removes'
          : resource.Type !== old.claim.type
            ? `which is a ${String(resource.Type)} in this release`
            : still
              ? `which this release gives ${still.label}`
              : old.claim.type === RECORD_SET
                ? 'which this release gives another zone, name, type or set identifier'
                : `which this release gives another ${old.claim.property}`;
        found.push({ title: 'physical name moved', message: describe(claim, who[0], stack, old, now, removed, why), paths: [who[0], old.unit.path] });
      }
    }
  }
  return found;
}


/** Whether each locked claim's resource is still in its stack, of the same type, claiming the same name. */
function allStillHeld(
  locked: ReadonlyMap<string, readonly LockedClaim[]>,
  stacks: ReadonlyMap<string, StackFact>,
  table: ReturnType<typeof physicalNameTable>,
): boolean {
  for (const claims of locked.values()) {
    for (const old of claims) {
      const still = templateNameClaim(stacks.get(old.unit.path)?.template, old.claim.logicalId, table, old.unit.path);
      if (!still || still.type !== old.claim.type || still.name !== old.claim.name) return false;
    }
  }
  return true;
}

/**
 * Whether a locked claim and a stack of this release share the scope of the name: the same stack does; other
 * stacks as `physicalNames` compares them, by the account (and for a regional name the region) the lock records for
 * the old stack and the stack's `env` names now, an environment-agnostic one naming none.
 */
function sameScope(old: LockedClaim, stack: StackFact, scope: ResourceNameClaim['scope']): boolean {
  if (old.unit.path === stack.path || scope === 'global') return true;
  if (old.unit.account !== stack.pinnedAccount) return false;
  return scope === 'partition' || old.unit.region === stack.region;
}

/** Whether the plan deploys one stack after another: a path of dependencies leads from it to the other. */
type DeploysAfter = (first: string, then: string) => boolean;

/** `DeploysAfter` over the composition graph (the plan's order), its adjacency built on first use. */
function planOrder(facts: Facts): DeploysAfter {
  let out: number[][] | undefined;
  let node: Map<string, number> | undefined;
  return (first, then) => {
    if (!out || !node) {
      const graph = facts.graph;
      out = Array.from({ length: graph.size }, () => []);
      for (const e of graph.edges()) out[e.from].push(e.to);
      node = new Map();
      for (let n = 0; n < graph.size; n++) {
        const unit = graph.value(n);
        if (unit?.kind === 'stack') node.set(facts.stacks[unit.index].path, n);
      }
    }
    const from = node.get(first);
    const to = node.get(then);
    if (from === undefined || to === undefined) return false;
    const seen = new Uint8Array(out.length);
    const queue = [from];
    seen[from] = 1;
    for (let head = 0; head < queue.length; head++) {
      for (const w of out[queue[head]]) {
        if (w === to) return true;
        if (!seen[w]) {
          seen[w] = 1;
          queue.push(w);
        }
      }
    }
    return false;
  };
}

/**
 * Why creating the new resource fails while the old one holds the name, or undefined when it does not: only
 * when the old resource is in another stack that the plan deploys first (the new stack depends on it), and is deleted then.
 */
function whyItFails(
  old: LockedClaim,
  removed: boolean,
  stack: StackFact,
  oldStack: StackFact | undefined,
  deploysAfter: DeploysAfter,
): string | undefined {
  const oldLabel = `stack ${old.unit.path}`;
  const newLabel = `stack ${stack.path}`;
  const created = 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update)';
  const exists = `so creating it fails because ${old.claim.taken} already exists, and the update of ${newLabel} rolls back`;
  const retained = removed && keepsRemovedResource(old.claim.deletionPolicy);
  const keeps = `the old resource has DeletionPolicy ${old.claim.deletionPolicy}: CloudFormation never deletes it, and ${old.claim.taken} stays taken`;
  if (old.unit.path === stack.path) {
    return retained ? `${created}; and ${keeps}: creating it fails because ${old.claim.taken} already exists, and the update rolls back` : `${created}, ${exists}`;
  }
  if (retained) return `${keeps}, ${exists} in any deploy order`;
  if (!oldStack) return `${oldLabel} is removed in this release and deleted only by the teardown after the release is deployed (plan.json teardown), ${exists}`;
  if (deploysAfter(old.unit.path, stack.path)) return undefined;
  const order = deploysAfter(stack.path, old.unit.path)
    ? `the plan deploys ${newLabel}, which creates the new resource, before ${oldLabel}, whose update deletes the old one`
    : `the plan does not deploy ${newLabel}, which creates the new resource, after ${oldLabel}, whose update deletes the old one (neither depends on the other, so they may deploy in either order)`;
  return `${order}, ${exists}`;
}

/**
 * The message: the name, the resource of this release that claims it (`claimant`, in `stack`), the resource of
 * the locked release that held it (`old`) and what this release does with it (`now`; `removed` when it is gone), why the deploy fails, and the fixes.
 */
function describe(
  claim: ResourceNameClaim,
  claimant: string,
  stack: StackFact,
  old: LockedClaim,
  now: string,
  removed: boolean,
  why: string,
): string {
  const oldStack = `stack ${old.unit.path}`;
  const fixes = old.unit.path === stack.path
    ? `Keep the old logical id: (resource.node.defaultChild as CfnResource).overrideLogicalId('${old.claim.logicalId}'), or Stack.of(resource).renameLogicalId('${claim.logicalId}', '${old.claim.logicalId}'); `
    : `Keep the resource in ${oldStack} under logical id ${old.claim.logicalId}; `;
  const twoSteps = removed && keepsRemovedResource(old.claim.deletionPolicy)
    ? `or release in two steps (remove ${old.claim.logicalId} in one release and delete the resource it leaves behind, then add the new one in the next)`
    : `or release in two steps (remove ${old.claim.logicalId} in one release, add the new resource in the next)`;
  const generate = claim.generated ? `; or drop the explicit ${claim.property} and let CloudFormation generate one` : '';
  return `this release gives ${claim.type} ${claim.label} to '${claimant}' (logical id ${claim.logicalId} in stack ${stack.path}), `
    + `but ${old.claim.logicalId} in ${oldStack} held it in the locked release (${now}): ${why}. `
    + `${fixes}${twoSteps}${generate} (${RELEASES_DOC}).`;
}
