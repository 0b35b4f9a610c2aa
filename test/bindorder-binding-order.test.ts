/**
 * The two pieces of the field-ownership step's order, on hand-made manifests and locks: which objects each
 * binding of the previous release selected (`lockedBindingObjects`), and the order the step's file puts its
 * documents in (`applyOrder`).
 */
import type { Lock, LockedUnit } from '../src/release/lock';
import { boundObjectKey, lockedBindingObjects } from '../src/release/locked-policies';
import { applyOrder } from '../src/render/enforcement/binding-order';

const PREFIX = 'object:admissionregistration.k8s.io|ValidatingAdmissionPolicyBinding||';
const RULE = 'spec.matchResources.resourceRules[0]';
const SELECTOR = 'spec.matchResources.namespaceSelector.matchExpressions[0]';

function lockOf(units: LockedUnit[]): Lock {
  return { formatVersion: 2, interfaces: [], units, barriers: [], edges: [] } as unknown as Lock;
}

function bindingUnit(name: string, values?: Record<string, unknown>): LockedUnit {
  return { id: `${PREFIX}${name}`, label: name, path: 'field-ownership', digest: 'd', ...(values ? { values } : {}) };
}

const policy = (name: string) => ({ kind: 'ValidatingAdmissionPolicy', metadata: { name } });
const binding = (name: string, names: string[], namespaces?: string[]) => ({
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: {
    policyName: name,
    matchResources: {
      ...(namespaces ? { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: namespaces }] } } : {}),
      resourceRules: [{ apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], resourceNames: names }],
    },
  },
});
const deployment = (namespace: string, name: string) => boundObjectKey('apps', 'deployments', namespace, name);
const names = (docs: any[]) => docs.map((d) => `${d.kind === 'ValidatingAdmissionPolicy' ? 'P' : 'B'} ${d.metadata.name}`);

describe('lockedBindingObjects', () => {
  test('a binding selects its names in each namespace of its selector; a cluster-scoped one its names alone', () => {
    // GIVEN a lock with a namespaced binding (two names, two namespaces) and a cluster-scoped one
    const lock = lockOf([
      bindingUnit('p.field-owners.deployments.apps', {
        [`${RULE}.apiGroups[0]`]: 'apps',
        [`${RULE}.resources[0]`]: 'deployments',
        [`${RULE}.resources[1]`]: 'deployments/scale',
        [`${RULE}.resourceNames[0]`]: 'a',
        [`${RULE}.resourceNames[1]`]: 'b',
        [`${SELECTOR}.values[0]`]: 'x',
        [`${SELECTOR}.values[1]`]: 'y',
      }),
      bindingUnit('p.field-owners.namespaces', { [`${RULE}.apiGroups[0]`]: '', [`${RULE}.resources[0]`]: 'namespaces', [`${RULE}.resourceNames[0]`]: 'web' }),
      { id: 'object:admissionregistration.k8s.io|ValidatingAdmissionPolicy||p.field-owners.namespaces', label: 'p', path: 'field-ownership', digest: 'd', values: {} },
    ]);

    // WHEN / THEN
    expect(lockedBindingObjects(lock)).toEqual(new Map([
      ['p.field-owners.deployments.apps', new Set([deployment('x', 'a'), deployment('x', 'b'), deployment('y', 'a'), deployment('y', 'b')])],
      ['p.field-owners.namespaces', new Set([boundObjectKey('', 'namespaces', '', 'web')])],
    ]));
  });

  test('a binding recorded by name only (a lock written before the policies were units) selects nothing known; no lock, nothing', () => {
    expect(lockedBindingObjects(lockOf([bindingUnit('p.field-owners.configmaps')]))).toEqual(new Map());
    expect(lockedBindingObjects(undefined)).toEqual(new Map());
  });
});

describe('applyOrder', () => {
  const P1 = 'p.field-owners.deployments.apps';
  const P2 = 'p.field-owners-2.deployments.apps';
  const P3 = 'p.field-owners-3.deployments.apps';

  test('with no previous release, the rendered order: each policy followed by its binding', () => {
    const rendered = [policy(P1), binding(P1, ['a']), policy(P2), binding(P2, ['b'])];
    expect(names(applyOrder(rendered, new Map()))).toEqual([`P ${P1}`, `B ${P1}`, `P ${P2}`, `B ${P2}`]);
  });

  test('a binding that gains an object goes, after its policy, before the binding that lets it go', () => {
    // GIVEN b and c move from binding 1 to binding 2
    const previous = new Map([[P1, new Set([deployment('web', 'a'), deployment('web', 'b'), deployment('web', 'c')])]]);
    const rendered = [policy(P1), binding(P1, ['a'], ['web']), policy(P2), binding(P2, ['b', 'c'], ['web'])];

    // THEN
    expect(names(applyOrder(rendered, previous))).toEqual([`P ${P1}`, `P ${P2}`, `B ${P2}`, `B ${P1}`]);
  });

  test('an object of the same name in another namespace is another object: no move, the rendered order', () => {
    const previous = new Map([[P1, new Set([deployment('other', 'b')])]]);
    const rendered = [policy(P1), binding(P1, ['a'], ['web']), policy(P2), binding(P2, ['b'], ['web'])];
    expect(names(applyOrder(rendered, previous))).toEqual([`P ${P1}`, `B ${P1}`, `P ${P2}`, `B ${P2}`]);
  });

  test('a chain of moves (3 to 2, 2 to 1) orders every gaining binding before the one it takes from', () => {
    const previous = new Map([[P2, new Set([deployment('web', 'b')])], [P3, new Set([deployment('web', 'c')])]]);
    const rendered = [policy(P1), binding(P1, ['a', 'b'], ['web']), policy(P2), binding(P2, ['c'], ['web']), policy(P3), binding(P3, ['d'], ['web'])];
    expect(names(applyOrder(rendered, previous))).toEqual([`P ${P1}`, `B ${P1}`, `P ${P2}`, `B ${P2}`, `P ${P3}`, `B ${P3}`]);
  });

  test('a move against the rendered order (1 takes from 3) puts binding 1 before 3 and keeps 2 where it is', () => {
    const previous = new Map([[P3, new Set([deployment('web', 'c')])]]);
    const rendered = [policy(P3), binding(P3, ['d'], ['web']), policy(P1), binding(P1, ['c'], ['web']), policy(P2), binding(P2, ['e'], ['web'])];
    expect(names(applyOrder(rendered, previous))).toEqual([`P ${P3}`, `P ${P1}`, `B ${P1}`, `B ${P3}`, `P ${P2}`, `B ${P2}`]);
  });

  test('three bindings exchanging around a cycle: each document once, the first binding after the other two', () => {
    // GIVEN a moves 1 -> 2, b moves 2 -> 3, c moves 3 -> 1
    const previous = new Map([[P1, new Set([deployment('web', 'a')])], [P2, new Set([deployment('web', 'b')])], [P3, new Set([deployment('web', 'c')])]]);
    const rendered = [policy(P1), binding(P1, ['c'], ['web']), policy(P2), binding(P2, ['a'], ['web']), policy(P3), binding(P3, ['b'], ['web'])];

    // THEN binding 1 waits for 2 (which takes a from it), 2 for 3, and 3 would wait for 1: the cycle is cut there
    expect(names(applyOrder(rendered, previous))).toEqual([`P ${P1}`, `P ${P2}`, `P ${P3}`, `B ${P3}`, `B ${P2}`, `B ${P1}`]);
  });
});
