/**
 * A leaf moving from the release to a runtime writer keeps its value: `apply` hands it to the runtime writer's
 * field manager before the release stops applying it. Replayed on the real structured-merge-diff (the oracle
 * of test/smd/, live or recorded): the seed's `ApplicationDeployment`, whose `spec.replicas` the declarer
 * writes in release 1 and the controller `cap/Routing/Scaler` (field manager `scaler`) in release 2.
 */
import { ApiObject } from 'cdk8s';
import { applyOperations, asLiveObject, objectKey, Release, REPLAYED_KINDS, SharedObject, synthRelease } from './cluster-fixtures';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { admit, Request } from './enforcement/admission';
import { policiesOf } from './enforcement/fixtures';
import { APPLICATION_DEPLOYMENT_CRD } from './smd/cases/application-deployment';
import type { SmdOperation, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { auditCluster } from '../src/cluster/audit';
import { readLiveObjects } from '../src/cluster/live-objects';
import { expectedObjects, leavesOf } from '../src/cluster/object-writers';
import { runtimeHandovers } from '../src/cluster/runtime-handover';
import type { LockedUnit } from '../src/release/lock';
import { lockedManifest, valuePathSteps } from '../src/release/locked-manifest';

const KEY = 'example.com/ApplicationDeployment ns/shared';
const OBJECT = 'example.com/ApplicationDeployment ns/shared';
const SCALER = { id: 'Scaler', fields: ['spec.replicas'], identity: 'system:serviceaccount:ops:scaler', manager: 'scaler' };

const RELEASE_1: SharedObject = {
  apiVersion: 'example.com/v1',
  kind: 'ApplicationDeployment',
  declared: { spec: { image: 'app:1.0', replicas: 2 } },
  contributions: [{ id: 'Timers', fields: { spec: { timers: { publishTimeout: '5m' } } } }],
};
const RELEASE_2: SharedObject = { ...RELEASE_1, declared: { spec: { image: 'app:1.0' } }, runtimeWriters: [SCALER] };

let first: Release;
let second: Release;

/** The operations of a release on the shared object, as the oracle takes them. */
function operationsOf(release: Release, drop: (op: SmdOperation & { phase: string }) => boolean = () => false): SmdOperation[] {
  return applyOperations(release).get(KEY)!.filter((op) => !drop(op)).map(({ manager, force, object }) => ({ manager, force, object }));
}

/**
 * The API server keys a manager's `Update` entry apart from its `Apply` entry (`{"manager":...,"operation":"Update",
 * "apiVersion":...}`), so one controller's update and apply are two managers to structured-merge-diff: the oracle
 * gets the update under that key, and the live object names it as kubectl prints it.
 */
const UPDATE_KEY = (manager: string) => JSON.stringify({ manager, operation: 'Update', apiVersion: 'example.com/v1' });

const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'release 2 applied as apply sends it': () => [...operationsOf(first), ...operationsOf(second)],
  'release 2 applied without the hand-over': () => [...operationsOf(first), ...operationsOf(second, (op) => op.phase === 'hand-over')],
  'the controller scaled before release 2': () => [
    ...operationsOf(first),
    { manager: UPDATE_KEY('scaler'), operation: 'update', object: scaled(operationsOf(first)[0].object, 5) },
    ...operationsOf(second),
  ],
};

/** The object release 1 applied whole, with the controller's replicas: what its full-object update sends. */
function scaled(object: unknown, replicas: number): unknown {
  const o = structuredClone(object) as any;
  o.spec.replicas = replicas;
  return o;
}

let results: Record<string, SmdResult> = {};
let cases: Record<string, NamedSmdCase> = {};

beforeAll(() => {
  first = synthRelease(RELEASE_1);
  second = synthRelease(RELEASE_2, first);
  const { typeName, schema } = REPLAYED_KINDS['example.com/ApplicationDeployment'];
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, ops]) => [name, { name: `runtime hand-over: ${name}`, typeName, schema, apiVersion: 'example.com/v1', applies: ops() }]));
  const answers = smdVerdicts('runtime-handover', Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

describe('the plan of release 2', () => {
  test('hands spec.replicas, with release 1\'s value, to the runtime writer\'s manager', () => {
    const writers = second.plan.writers.find((w) => w.label === OBJECT)!;
    expect(writers.handOver).toEqual([{
      writer: 'cap/Routing/Scaler (RuntimeWriter)',
      manager: 'scaler',
      object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { replicas: 2 } },
    }]);
  });

  test('apply sends it first, under that manager, without force', () => {
    const ops = applyOperations(second).get(KEY)!;
    expect(ops.map((op) => [op.phase, op.manager, op.force])).toEqual([
      ['hand-over', 'scaler', false],
      ['merged', 'cdk-capability', true],
      ['writer', 'cdk-capability:cap/Routing/Object', false],
      ['writer', 'cdk-capability:cap/Routing/Timers', false],
    ]);
  });
});

describe('replayed on structured-merge-diff', () => {
  /** The object as kubectl prints it: each manager by its name, an update's key by the manager it keys. */
  const live = (scenario: string) => {
    const object = asLiveObject(results[scenario], cases[scenario].applies);
    for (const m of object.metadata.managedFields) if (m.manager.startsWith('{')) m.manager = JSON.parse(m.manager).manager;
    return readLiveObjects(JSON.stringify(object), 'the oracle');
  };

  test('as apply sends it: no conflict, the replicas keep their value, the controller\'s manager alone owns them, and audit is clean', () => {
    const result = results['release 2 applied as apply sends it'];
    expect(result.error).toBeUndefined();
    expect(result.applies.filter((a) => a.conflicts.length > 0)).toEqual([]);
    expect((result.object as any).spec).toEqual({ image: 'app:1.0', replicas: 2, timers: { publishTimeout: '5m' } });
    expect(Object.entries(result.managers).filter(([, set]) => set.leaves.includes('.spec.replicas')).map(([m]) => m)).toEqual(['scaler']);
    expect(auditCluster(expectedObjects(second.lock).filter((e) => e.label === OBJECT), live('release 2 applied as apply sends it'))).toEqual([]);
  });

  test('without the hand-over the release removes the replicas (the gap it closes)', () => {
    const result = results['release 2 applied without the hand-over'];
    expect(result.applies.filter((a) => a.conflicts.length > 0)).toEqual([]);
    expect((result.object as any).spec).toEqual({ image: 'app:1.0', timers: { publishTimeout: '5m' } });
  });

  test('when the controller already changed them, the hand-over conflicts (apply skips it) and its value stays', () => {
    const result = results['the controller scaled before release 2'];
    const handOver = cases['the controller scaled before release 2'].applies.findIndex((op) => op.manager === 'scaler');
    expect(result.applies.map((a, i) => [i, a.conflicts.length > 0]).filter(([, c]) => c)).toEqual([[handOver, true]]);
    expect((result.object as any).spec.replicas).toBe(5);
    expect(auditCluster(expectedObjects(second.lock).filter((e) => e.label === OBJECT), live('the controller scaled before release 2'))).toEqual([]);
  });
});

describe('under enforcement, the policy of release 2', () => {
  const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';
  /** Release 2 with `enforce`: the Scaler owns spec.replicas, the deployer the rest. */
  const policies = (() => {
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'cap'), 'Routing');
    new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
    new ApiObject(routing, 'Crd', structuredClone(APPLICATION_DEPLOYMENT_CRD) as any);
    const object = new ApiObject(routing, 'Object', { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { image: 'app:1.0' } });
    new RuntimeWriter(routing, SCALER.id, { target: object, fields: SCALER.fields, identity: SCALER.identity, manager: SCALER.manager });
    return policiesOf(app);
  })();
  const before = { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { image: 'app:1.0', replicas: 2 } };
  const update = (object: any): Request => ({
    operation: 'UPDATE', username: DEPLOYER, group: 'example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'ns', name: 'shared', object, oldObject: before,
  });

  test('refuses the deployer\'s apply that would drop the replicas (what a release without the hand-over does)', () => {
    const { spec: { replicas: _replicas, ...spec }, ...rest } = before;
    expect(admit(policies, update({ ...rest, spec })).failures).toEqual([
      `spec.replicas of example.com/ApplicationDeployment ns/shared belong to the runtime writer 'cap/Routing/Scaler' (${SCALER.identity}): only that identity may change them, not ${DEPLOYER}`,
    ]);
  });

  test('lets the release through once the replicas are handed over: its applies leave them as they are', () => {
    expect(admit(policies, update(structuredClone(before))).allowed).toBe(true);
  });
});

describe('runtimeHandovers', () => {
  const unit = (values: Record<string, unknown>, writers: LockedUnit['writers']): LockedUnit => ({ id: 'object:|ConfigMap|shop|settings', label: 'ConfigMap shop/settings', path: 'cdn/Routing/Settings', digest: 'd', values, writers });
  const old = unit(
    { 'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata.name': 'settings', 'metadata.namespace': 'shop', 'data.zone': 'eu', 'data.token': '(sensitive)', 'data.mode': 'fast' },
    [{ writer: 'cdn/Routing/Settings', kind: 'declaration', manager: 'cdk-capability:cdn/Routing/Settings', fields: { 'f:data': { 'f:zone': {}, 'f:token': {}, 'f:mode': {} } } }],
  );

  test('a leaf taken by a runtime writer is handed over with its locked value; a masked one and one still the release\'s are not', () => {
    const now = unit({}, [
      { writer: 'cdn/Routing/Settings', kind: 'declaration', manager: 'cdk-capability:cdn/Routing/Settings', fields: { 'f:data': { 'f:mode': {} } } },
      { writer: 'cdn/Routing/Zoner (RuntimeWriter)', kind: 'runtime', manager: 'zoner', fields: { 'f:data': { 'f:zone': {}, 'f:token': {} } } },
    ]);
    expect(runtimeHandovers(old, now, leavesOf)).toEqual([{
      writer: 'cdn/Routing/Zoner (RuntimeWriter)',
      manager: 'zoner',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { zone: 'eu' } },
    }]);
  });

  test('nothing when the previous lock records no writers, or the runtime writer owned the leaf already', () => {
    const now = unit({}, [{ writer: 'cdn/Routing/Zoner (RuntimeWriter)', kind: 'runtime', manager: 'zoner', fields: { 'f:data': { 'f:zone': {} } } }]);
    expect(runtimeHandovers({ ...old, writers: undefined }, now, leavesOf)).toEqual([]);
    expect(runtimeHandovers(now, now, leavesOf)).toEqual([]);
  });
});

describe('lockedManifest', () => {
  test('rebuilds the manifest the lock\'s leaves describe: keys, quoted keys, indexes, empty maps and lists', () => {
    expect(lockedManifest({
      'apiVersion': 'apps/v1',
      'metadata.labels["app.kubernetes.io/name"]': 'web',
      'spec.template.spec.containers[0].name': 'web',
      'spec.template.spec.containers[0].args': [],
      'spec.template.spec.containers[1].name': 'proxy',
      'data["123"]': 'x',
      'spec.selector': {},
    })).toEqual({
      apiVersion: 'apps/v1',
      metadata: { labels: { 'app.kubernetes.io/name': 'web' } },
      spec: { template: { spec: { containers: [{ name: 'web', args: [] }, { name: 'proxy' }] } }, selector: {} },
      data: { 123: 'x' },
    });
  });

  test.each([['.spec'], ['spec..x'], ['spec[x]'], ['spec["x"'], ['']])('a path not of the lock\'s form (%j) is none', (path) => {
    expect(valuePathSteps(path)).toBeUndefined();
  });

  test('checked against the leaves the lock writes for an object (a round trip)', () => {
    const unitOf = (r: Release) => r.lock.units.find((u) => u.label === OBJECT)!;
    const manifest = lockedManifest(unitOf(first).values!);
    expect(manifest).toMatchObject({ apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { image: 'app:1.0', replicas: 2, timers: { publishTimeout: '5m' } } });
    expect(objectKey(manifest)).toBe(KEY);
  });
});
