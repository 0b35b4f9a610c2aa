import { Construct } from 'constructs';
import { membersOf, registerMember } from '../src/private/scope-members';

describe('scope members', () => {
  test('finds the members of a kind in the order they registered, and nothing of another kind', () => {
    // GIVEN a scope with many children, two of them registered as contracts and one as something else
    const scope = new Construct(undefined as any, 'Capability');
    for (let i = 0; i < 50; i++) new Construct(scope, `Tenant${i}`);
    const b = new Construct(scope, 'B');
    const a = new Construct(scope, 'A');
    const other = new Construct(scope, 'Other');
    registerMember(scope, 'InterfaceContract', b);
    registerMember(scope, 'InterfaceContract', a);
    registerMember(scope, 'Else', other);

    // THEN
    expect(membersOf(scope, 'InterfaceContract').map((m) => m.node.id)).toEqual(['B', 'A']);
    expect(membersOf(scope, 'Else')).toEqual([other]);
    expect(membersOf(scope, 'Missing')).toEqual([]);
    expect(membersOf(new Construct(undefined as any, 'Empty'), 'InterfaceContract')).toEqual([]);
  });

  test('leaves out a member removed from the scope since it registered', () => {
    const scope = new Construct(undefined as any, 'Capability');
    const kept = new Construct(scope, 'Kept');
    const removed = new Construct(scope, 'Removed');
    registerMember(scope, 'InterfaceContract', kept);
    registerMember(scope, 'InterfaceContract', removed);

    expect(scope.node.tryRemoveChild('Removed')).toBe(true);

    expect(membersOf(scope, 'InterfaceContract')).toEqual([kept]);
  });

  test('a duplicate install of the package sees the members the other one registered', () => {
    // GIVEN a second copy of the module, as a second install of the package loads it
    let other: typeof import('../src/private/scope-members') | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      other = require('../src/private/scope-members');
    });
    expect(other!.membersOf).not.toBe(membersOf);
    const scope = new Construct(undefined as any, 'Capability');
    const contract = new Construct(scope, 'Edge');

    // WHEN one copy registers
    other!.registerMember(scope, 'InterfaceContract', contract);

    // THEN the other finds it
    expect(membersOf(scope, 'InterfaceContract')).toEqual([contract]);
  });
});
