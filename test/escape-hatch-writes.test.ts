import { EscapeHatchWrite, EscapeHatchWrites } from '../src/collect/ledger/escape-hatch-writes';
import { callWriter } from '../src/collect/ledger/writer';

const first = callWriter('json-patch', 'app/Obj', { call: 1 });
const second = callWriter('json-patch', 'app/Obj', { call: 2 });
const write = (writer = first, path = ['spec', 'timers', 'drain'], value: unknown = '1m'): EscapeHatchWrite => ({ writer, path, value: () => value });

describe('EscapeHatchWrites', () => {
  test('a value written over a declared value is an override once; the declarer gives way at, above and below it', () => {
    // GIVEN a declaration that rendered spec.replicas
    const hatches = new EscapeHatchWrites([{ path: ['spec', 'replicas'] }]);

    // WHEN / THEN
    expect(hatches.overDeclared(['spec', 'replicas'], false)).toBe(true);
    expect(hatches.overDeclared(['spec', 'replicas'], false)).toBe(false);
    expect([['spec', 'replicas'], ['spec'], ['spec', 'replicas', 'x'], ['metadata']].map((p) => hatches.givesWay(p))).toEqual([true, true, true, false]);
  });

  test('a write into an empty map the declaration rendered is no override; removing the map is', () => {
    // GIVEN a declaration that rendered spec: {}
    const hatches = new EscapeHatchWrites([{ path: ['spec'], presence: true }]);

    // WHEN / THEN
    expect(hatches.overDeclared(['spec', 'timers'], false)).toBe(false);
    expect(hatches.overDeclared(['spec', 'timers'], true)).toBe(false);
    expect(hatches.overDeclared(['spec'], true)).toBe(true);
  });

  test('a deletion removes what another plain call wrote at or below its path, once, and returns it', () => {
    // GIVEN two leaves of one call and one of another
    const hatches = new EscapeHatchWrites([]);
    const drain = write(first, ['spec', 'timers', 'drain']);
    const rollout = write(first, ['spec', 'timers', 'rollout']);
    const other = write(first, ['spec', 'domains']);
    [drain, rollout, other].forEach((w) => hatches.note(w));

    // WHEN a second call deletes spec.timers, then again
    const removed = hatches.removeUnder(second, ['spec', 'timers']);
    const again = hatches.removeUnder(second, ['spec', 'timers']);

    // THEN
    expect(removed.map((w) => w.path.join('.')).sort()).toEqual(['spec.timers.drain', 'spec.timers.rollout']);
    expect([drain.removed, rollout.removed, other.removed]).toEqual([true, true, undefined]);
    expect(again).toEqual([]);
  });

  test('a deletion inside a value another call wrote whole removes nothing: it stays a conflict', () => {
    // GIVEN a call that wrote spec.rules whole
    const hatches = new EscapeHatchWrites([]);
    const rules = write(first, ['spec', 'rules'], [1, 2]);
    hatches.note(rules);

    // WHEN another call deletes inside it
    const removed = hatches.removeUnder(second, ['spec', 'rules', '0']);

    // THEN
    expect(removed).toEqual([]);
    expect(rules.removed).toBeUndefined();
  });

  test('a call\'s deletion of its own earlier write is not a removal of another\'s', () => {
    // GIVEN
    const hatches = new EscapeHatchWrites([]);
    hatches.note(write(first));

    // WHEN / THEN
    expect(hatches.removeUnder(first, ['spec', 'timers', 'drain'])).toEqual([]);
  });
});
