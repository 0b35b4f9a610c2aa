/**
 * A leaf handed back from a runtime writer to a writer of the release: the release applies it from then on, but
 * server-side apply keeps the controller's field manager an owner until it applies without it (or, after an
 * `Update`, until another manager changes it). Replayed on the real structured-merge-diff (the oracle of
 * test/smd/, live or recorded): the seed's `ApplicationDeployment`, whose `spec.replicas` the controller
 * `cap/Routing/Scaler` (field manager `scaler`) writes in release 1 and the declarer in release 2.
 */
import { applyOperations, asLiveObject, Release, REPLAYED_KINDS, SharedObject, synthRelease } from './cluster-fixtures';
import type { SmdOperation, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { removeTempDirs } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { AuditFinding, auditCluster } from '../src/cluster/audit';
import { readLiveObjects } from '../src/cluster/live-objects';
import { expectedObjects } from '../src/cluster/object-writers';
import type { Lock } from '../src/release/lock';

afterAll(removeTempDirs);

const KEY = 'example.com/ApplicationDeployment ns/shared';
const OBJECT = 'example.com/ApplicationDeployment ns/shared';
const SCALER = { id: 'Scaler', fields: ['spec.replicas'], identity: 'system:serviceaccount:ops:scaler', manager: 'scaler' };
const IDENTITY = { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' } };

const RELEASE_1: SharedObject = {
  apiVersion: 'example.com/v1',
  kind: 'ApplicationDeployment',
  declared: { spec: { image: 'app:1.0' } },
  contributions: [{ id: 'Timers', fields: { spec: { timers: { publishTimeout: '5m' } } } }],
  runtimeWriters: [SCALER],
};
/** Release 2: the Scaler is gone, and the declarer writes the replicas. */
const RELEASE_2: SharedObject = { ...RELEASE_1, declared: { spec: { image: 'app:1.0', replicas: 2 } }, runtimeWriters: [] };

let first: Release;
let second: Release;

/** The operations of a release on the shared object, as the oracle takes them. */
function operationsOf(release: Release): SmdOperation[] {
  return applyOperations(release).get(KEY)!.map(({ manager, force, object }) => ({ manager, force, object }));
}

/** The controller's apply of its replicas. */
const scalerApplies = (replicas: number): SmdOperation => ({ manager: 'scaler', object: { ...IDENTITY, spec: { replicas } } });

/** The API server keys a manager's `Update` entry apart from its `Apply` entry (see test/runtime-handover.test.ts). */
const UPDATE_KEY = JSON.stringify({ manager: 'scaler', operation: 'Update', apiVersion: 'example.com/v1' });

/** The controller's full-object update: release 1's object with its replicas. */
const scalerUpdates = (replicas: number): SmdOperation => {
  const object = structuredClone(operationsOf(first)[0].object) as any;
  object.spec.replicas = replicas;
  return { manager: UPDATE_KEY, operation: 'update', object };
};

/** The controller's full-object update of what release 2 left, with its replicas. */
const scalerUpdatesAfter = (replicas: number): SmdOperation => {
  const object = structuredClone(operationsOf(second).find((op) => op.force)!.object) as any;
  object.spec.replicas = replicas;
  return { manager: UPDATE_KEY, operation: 'update', object };
};

const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'the controller applied the value release 2 declares': () => [...operationsOf(first), scalerApplies(2), ...operationsOf(second)],
  'the controller applied another value': () => [...operationsOf(first), scalerApplies(5), ...operationsOf(second)],
  'the controller updated to the value release 2 declares': () => [...operationsOf(first), scalerUpdates(2), ...operationsOf(second)],
  'the controller, still running, updated after release 2': () => [...operationsOf(first), ...operationsOf(second), scalerUpdatesAfter(7)],
  'the controller applied the value, then released it as the plan says': () => [
    ...operationsOf(first), scalerApplies(2), ...operationsOf(second), { manager: 'scaler', object: IDENTITY },
  ],
};

let results: Record<string, SmdResult> = {};
let cases: Record<string, NamedSmdCase> = {};

beforeAll(() => {
  first = synthRelease(RELEASE_1);
  second = synthRelease(RELEASE_2, first);
  const { typeName, schema } = REPLAYED_KINDS['example.com/ApplicationDeployment'];
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, ops]) => [name, { name: `runtime hand-back: ${name}`, typeName, schema, apiVersion: 'example.com/v1', applies: ops() }]));
  const answers = smdVerdicts('runtime-handback', Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

/** The object as kubectl prints it after a scenario: each manager by its name, an update's key by the manager it keys. */
function live(scenario: string) {
  const object = asLiveObject(results[scenario], cases[scenario].applies);
  for (const m of object.metadata.managedFields) if (m.manager.startsWith('{')) m.manager = JSON.parse(m.manager).manager;
  return readLiveObjects(JSON.stringify(object), 'the oracle');
}

/** The audit of the shared object against a lock. */
function audited(lock: Lock, scenario: string): AuditFinding[] {
  return auditCluster(expectedObjects(lock).filter((e) => e.label === OBJECT), live(scenario));
}

/** Each finding's kind, manager, operation, writer and fields. */
const kinds = (findings: readonly AuditFinding[]) => findings.map((f) => [f.kind, f.manager, f.operation, f.writer, f.fields]);

describe('the lock of release 2', () => {
  test('records the Scaler\'s field manager and the replicas handed back from it', () => {
    const unit = second.lock.units.find((u) => u.label === OBJECT)!;
    expect(unit.handedBack).toEqual([{ writer: 'cap/Routing/Scaler (RuntimeWriter)', manager: 'scaler', fields: { 'f:spec': { 'f:replicas': {} } } }]);
  });

  test('keeps the record when release 2 is synthesized against itself, and drops it when a runtime writer takes the replicas again', () => {
    const again = synthRelease(RELEASE_2, second);
    const taken = synthRelease(RELEASE_1, second);
    expect(again.lock.units.find((u) => u.label === OBJECT)!.handedBack).toEqual([{ writer: 'cap/Routing/Scaler (RuntimeWriter)', manager: 'scaler', fields: { 'f:spec': { 'f:replicas': {} } } }]);
    expect(taken.lock.units.find((u) => u.label === OBJECT)!.handedBack).toBeUndefined();
  });
});

describe('the plan of release 2', () => {
  test('shows the hand-back and says what the operator must do', () => {
    const text = formatPlan(second.plan);
    expect(text.slice(text.indexOf('Handovers of field ownership:')).split('\n').slice(0, 4)).toEqual([
      'Handovers of field ownership:',
      `  ~ ${OBJECT} spec.replicas: 'cap/Routing/Scaler (RuntimeWriter)' -> 'cap/Routing/Object' (runtime -> deploy time: the release applies it)`,
      "  (handed back from 'cap/Routing/Scaler (RuntimeWriter)': stop its controller writing these fields before the release is applied. " +
        "The release's apply takes a field with force only where the controller's value differs; where it holds the same value, its field manager scaler stays an owner " +
        'until the controller applies without the field (kubectl apply --server-side --field-manager=scaler with what it still writes of the object, its identity alone when nothing) ' +
        'or, for a controller that updates, until the value next changes; cdk-capability audit reports it as stale-owner until then)',
      '',
    ]);
  });

  test('applies no field manager of the controller: apply cannot know what else it writes or whether it has stopped', () => {
    expect(applyOperations(second).get(KEY)!.map((op) => [op.phase, op.manager, op.force])).toEqual([
      ['merged', 'cdk-capability', true],
      ['writer', 'cdk-capability:cap/Routing/Object', false],
      ['writer', 'cdk-capability:cap/Routing/Timers', false],
    ]);
  });
});

describe('replayed on structured-merge-diff, then audited against the lock of release 2', () => {
  const owners = (scenario: string) => Object.entries(results[scenario].managers).filter(([, set]) => set.leaves.includes('.spec.replicas')).map(([m]) => m).sort();

  test('a controller that applied the release\'s value stays an owner: a stale owner of a handed-back field, with the fix', () => {
    const scenario = 'the controller applied the value release 2 declares';
    expect(results[scenario].applies.filter((a) => a.conflicts.length > 0)).toEqual([]);
    expect(owners(scenario)).toEqual(['cdk-capability', 'cdk-capability:cap/Routing/Object', 'scaler']);
    expect(audited(second.lock, scenario).map((f) => [...kinds([f])[0], f.message])).toEqual([[
      'stale-owner', 'scaler', 'Apply', 'cap/Routing/Object', [['spec', 'replicas']],
      `${OBJECT}: 'scaler' (Apply at 2026-12-03T10:00:03Z) still owns spec.replicas, which was handed back from the runtime writer 'cap/Routing/Scaler (RuntimeWriter)' to 'cap/Routing/Object' (field manager cdk-capability:cap/Routing/Object): ` +
        "a field manager keeps its fields until it applies without them, and the release's apply (with force) takes a field from it only where their values differ. " +
        'Stop the controller writing it first: while it runs, it writes it again. ' +
        "Then release it: apply under its manager what the controller still writes of the object, without it (the object's identity alone when it writes nothing else of it: kubectl apply --server-side --field-manager=scaler).",
    ]]);
  });

  test('without the lock\'s record the same cluster reads as an undeclared manager (what the record is for)', () => {
    const scenario = 'the controller applied the value release 2 declares';
    const unrecorded: Lock = { ...second.lock, units: second.lock.units.map(({ handedBack: _, ...u }) => u) };
    expect(kinds(audited(unrecorded, scenario))).toEqual([['undeclared-manager', 'scaler', 'Apply', undefined, [['spec', 'replicas']]]]);
  });

  test('a controller that held another value loses the field to the release\'s forced apply: audit is clean', () => {
    const scenario = 'the controller applied another value';
    expect((results[scenario].object as any).spec.replicas).toBe(2);
    expect(owners(scenario)).toEqual(['cdk-capability', 'cdk-capability:cap/Routing/Object']);
    expect(audited(second.lock, scenario)).toEqual([]);
  });

  test('a controller that updated to the release\'s value keeps its Update entry: a stale owner, with the fix for an update', () => {
    const scenario = 'the controller updated to the value release 2 declares';
    expect(owners(scenario)).toEqual(['cdk-capability', 'cdk-capability:cap/Routing/Object', UPDATE_KEY]);
    const findings = audited(second.lock, scenario);
    expect(kinds(findings)).toEqual([['stale-owner', 'scaler', 'Update', 'cap/Routing/Object', [['spec', 'replicas']]]]);
    expect(findings[0].message).toBe(
      `${OBJECT}: 'scaler' (Update at 2026-12-03T10:00:03Z) still owns spec.replicas, which was handed back from the runtime writer 'cap/Routing/Scaler (RuntimeWriter)' to 'cap/Routing/Object' (field manager cdk-capability:cap/Routing/Object): ` +
        "a field manager whose last write was an Update keeps its fields until another manager changes their values, and the release's apply (with force) takes a field from it only where their values differ. " +
        'Stop the controller writing it first: while it runs, it writes it again. ' +
        "Its entry then changes nothing, and gives it up when the release next changes it; to drop it now, remove its Update entry from the object's metadata.managedFields.",
    );
  });

  test('a controller still running that updates the field again is named as the runtime writer it was handed back from', () => {
    const scenario = 'the controller, still running, updated after release 2';
    const findings = audited(second.lock, scenario);
    expect(kinds(findings)).toEqual([['overwritten-by-update', 'scaler', 'Update', 'cap/Routing/Object', [['spec', 'replicas']]]]);
    expect(findings[0].message).toBe(
      `${OBJECT}: spec.replicas of 'cap/Routing/Object' (field manager cdk-capability:cap/Routing/Object) is now owned by 'scaler' (Update at 2026-12-03T10:00:06Z), ` +
        "the field manager of the runtime writer 'cap/Routing/Scaler (RuntimeWriter)' that spec.replicas was handed back from, whose update changed it: its controller still writes it. " +
        "Stop the controller writing it (the release writes it now), and apply the release again to restore it. Set CapabilityApp's enforce so the admission policy refuses such an update.",
    );
  });

  test('the controller\'s apply of the identity alone, as the plan and the finding say, releases it: audit is clean', () => {
    const scenario = 'the controller applied the value, then released it as the plan says';
    expect((results[scenario].object as any).spec).toEqual({ image: 'app:1.0', replicas: 2, timers: { publishTimeout: '5m' } });
    expect(owners(scenario)).toEqual(['cdk-capability', 'cdk-capability:cap/Routing/Object']);
    expect(audited(second.lock, scenario)).toEqual([]);
  });
});
