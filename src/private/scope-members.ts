import type { IConstruct } from 'constructs';

/** Where a scope keeps its registered members: a global symbol, so duplicate installs of this package share it. */
const MEMBERS = Symbol.for('cdk-capability.members');

type Registry = Map<string, IConstruct[]>;

/**
 * Registers `member`, a child of `scope`, as one of its members of the kind
 * `kind`, so `membersOf` finds it without walking every child of the scope (a
 * capability with a thousand tenants has thousands).
 */
export function registerMember(scope: IConstruct, kind: string, member: IConstruct): void {
  let registry = (scope as unknown as { [MEMBERS]?: Registry })[MEMBERS];
  if (!registry) {
    registry = new Map();
    Object.defineProperty(scope, MEMBERS, { value: registry });
  }
  const members = registry.get(kind) ?? [];
  registry.set(kind, members);
  members.push(member);
}

/** The members of the kind `kind` registered with `scope` that are still its children, in the order they registered. */
export function membersOf<T extends IConstruct>(scope: IConstruct, kind: string): T[] {
  const members = (scope as unknown as { [MEMBERS]?: Registry })[MEMBERS]?.get(kind) ?? [];
  return members.filter((m) => scope.node.tryFindChild(m.node.id) === m) as T[];
}
