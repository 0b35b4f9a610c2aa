import { Lock, LockedUnit, stackUnitId } from './lock';
import type { StackFact } from '../collect/facts';

/** The start of a stack's unit id (`stackUnitId`). */
const STACK = stackUnitId('');

/**
 * The lock as this release's stacks name them: a locked stack whose construct path no stack of this release has,
 * but which one stack of this release deploys under the same CloudFormation stack name, account and region (a
 * stack construct renamed or moved, its `stackName` kept), is that stack under its new path. CloudFormation sees
 * one stack, updated in place, with the logical ids it had (they are made below the stack), so the release's
 * checks and plan must too: not a stack removed and another added, whose teardown would delete the stack the
 * release deploys. A locked stack that no stack of this release matches, or that several match, stays as it is.
 * Pure; the lock given is not changed.
 */
export function followStackRenames(lock: Lock, stacks: readonly StackFact[]): Lock {
  const paths = new Set(stacks.map((s) => s.path));
  const lockedPaths = new Set(lock.units.filter((u) => u.id.startsWith(STACK)).map((u) => u.path));
  const gone = lock.units.filter((u) => u.id.startsWith(STACK) && !paths.has(u.path) && u.stackName !== undefined);
  if (gone.length === 0) return lock;
  // the stacks of this release the lock does not know by path: the candidates a renamed stack became
  const fresh = stacks.filter((s) => !lockedPaths.has(s.path));
  const renamed = new Map<LockedUnit, StackFact>();
  const deployedAs = (u: LockedUnit) => `${u.stackName}\u0000${u.region ?? ''}\u0000${u.account ?? ''}`;
  for (const unit of gone) {
    const same = fresh.filter((s) => s.stackName === unit.stackName && s.region === unit.region && s.pinnedAccount === unit.account);
    // one stack of this release, and one gone locked stack, deployed as that name: a rename, not a guess
    if (same.length === 1 && gone.filter((u) => deployedAs(u) === deployedAs(unit)).length === 1) renamed.set(unit, same[0]);
  }
  if (renamed.size === 0) return lock;
  return {
    ...lock,
    units: lock.units.map((u) => {
      const to = renamed.get(u);
      return to ? { ...u, id: stackUnitId(to.path), label: `stack ${to.path}`, path: to.path } : u;
    }),
  };
}
