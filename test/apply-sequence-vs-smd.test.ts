/**
 * The apply sequence against the real structured-merge-diff (SMD 4.1.2, what the API server runs for
 * server-side apply), through the oracle in test/smd/.
 *
 * Generated compositions: one object (a Deployment, a ConfigMap, the seed's ApplicationDeployment custom
 * resource) declared by one construct and written by 1 to 4 Contributions (2 to 5 writers), each writing some
 * of a pool of disjoint field groups; then a second release in which groups move between writers, values
 * change, contributions come and go. Each release is synthesized as a user's app is, and every object of its
 * runtime steps is replayed as `cdk-capability apply` applies it (`applySequence` over the step's files and
 * plan.json's writers), release 1 then release 2, on one object in SMD (live, or from the vectors recorded in
 * test/smd/vectors/apply-sequence.json). After each release:
 *
 * - no apply meets a conflict, and the merged apply makes every change of the release (the object after it
 *   is the object at the end): each changed workload rolls out once;
 * - the object is the one a single manager applying each release's manifest whole leaves (exactly), which is
 *   the synthesized manifest after release 1, and after release 2 the manifest up to what server-side apply
 *   itself does with a live object (elements of keyed lists and sets keep their live order; a map emptied by
 *   a release is null);
 * - every writer's field manager owns exactly the writer's ledger leaves (but an empty map or list it writes,
 *   which `appliedLeaves` leaves to the merged apply), `cdk-capability` every leaf, and no other manager any;
 * - `auditCluster` on the object as kubectl would print it finds nothing (a clean cluster).
 */
import * as fc from 'fast-check';
import * as jsyaml from 'js-yaml';
import { applyOperations, asLiveObject, groupKindOf, objectKey, PhasedOperation, Release, REPLAYED_KINDS, SharedObject, synthRelease } from './cluster-fixtures';
import type { SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { removeTempDirs } from './util';
import { appliedLeaves } from '../src/cluster/apply-sequence';
import { auditCluster } from '../src/cluster/audit';
import { APPLIER_FIELD_MANAGER } from '../src/cluster/field-manager';
import { parseFieldsV1, toFieldsV1 } from '../src/cluster/fields-v1';
import { readLiveObjects } from '../src/cluster/live-objects';
import { ledgerLeaves, pathKey } from '../src/cluster/managed-leaves';
import { expectedObjects, leavesOf } from '../src/cluster/object-writers';

afterAll(removeTempDirs);

// ---------------------------------------------------------------------------------------------------------
// Field groups: each writes leaves no other group writes; `v` varies the values between releases.

type Group = (v: number) => Record<string, unknown>;

const container = (name: string, fields: Record<string, unknown>) => ({ spec: { template: { spec: { containers: [{ name, ...fields }] } } } });

const DEPLOYMENT_GROUPS: readonly Group[] = [
  (v) => ({ metadata: { labels: { team: `team-${v}` } } }),
  (v) => ({ metadata: { annotations: { note: `note-${v}` } } }),
  () => ({ metadata: { finalizers: ['example.com/protect'] } }),
  (v) => ({ spec: { replicas: v + 1 } }),
  (v) => ({ spec: { minReadySeconds: v + 5 } }),
  () => ({ spec: { selector: { matchLabels: { app: 'web' } } } }),
  () => ({ spec: { template: { metadata: { labels: { app: 'web' } } } } }),
  (v) => container('web', { image: `nginx:1.${v}` }),
  (v) => container('web', { args: [`--level=${v}`] }),
  (v) => container('web', { env: [{ name: 'A', value: `a-${v}` }] }),
  (v) => container('web', { env: [{ name: 'B', value: `b-${v}` }] }),
  (v) => container('web', { ports: [{ containerPort: 80, name: `http-${v}` }] }),
  (v) => container('sidecar', { image: `envoy:1.${v}` }),
  (v) => container('sidecar', { resources: { limits: { memory: `${v + 1}00Mi` } } }),
  (v) => ({ spec: { template: { spec: { nodeSelector: { zone: `zone-${v}` } } } } }),
];

const CONFIG_MAP_GROUPS: readonly Group[] = [
  (v) => ({ metadata: { labels: { team: `team-${v}` } } }),
  (v) => ({ metadata: { annotations: { note: `note-${v}` } } }),
  (v) => ({ data: { a: `a-${v}` } }),
  (v) => ({ data: { b: `b-${v}` } }),
  (v) => ({ data: { c: `c-${v}` } }),
  () => ({ metadata: { labels: {} } }),
];

const APPLICATION_DEPLOYMENT_GROUPS: readonly Group[] = [
  (v) => ({ spec: { image: `app:1.${v}` } }),
  (v) => ({ spec: { replicas: v + 2 } }),
  (v) => ({ spec: { timers: { publishTimeout: `${v + 1}m` } } }),
  (v) => ({ spec: { timers: { retryTimeout: `${v + 10}s` } } }),
  (v) => ({ spec: { entityConfigurations: [{ name: 'orders', enabled: v === 0 }] } }),
  (v) => ({ spec: { entityConfigurations: [{ name: 'billing', weight: v + 1 }] } }),
  () => ({ spec: { domains: ['shop.example.com'] } }),
  () => ({ spec: { domains: ['api.example.com'] } }),
  (v) => ({ spec: { routeTables: { east: `rt-east-${v}` } } }),
  (v) => ({ spec: { routeTables: { west: `rt-west-${v}` } } }),
  (v) => ({ metadata: { labels: { team: `team-${v}` } } }),
];

interface Kind {
  readonly name: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly groups: readonly Group[];
}

const KINDS: readonly Kind[] = [
  { name: 'Deployment', apiVersion: 'apps/v1', kind: 'Deployment', groups: DEPLOYMENT_GROUPS },
  { name: 'ConfigMap', apiVersion: 'v1', kind: 'ConfigMap', groups: CONFIG_MAP_GROUPS },
  { name: 'ApplicationDeployment', apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', groups: APPLICATION_DEPLOYMENT_GROUPS },
];

/** The keys lists of these fixtures merge by; every other list is a set or atomic and is joined. */
const LIST_KEYS = ['name', 'containerPort'];

/** Two writes of one writer merged: maps by key, keyed lists by element key. */
function merge(a: any, b: any): any {
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = LIST_KEYS.find((k) => [...a, ...b].every((e) => e !== null && typeof e === 'object' && k in e));
    if (!key) return [...a, ...b.filter((x: unknown) => !a.includes(x))];
    const out = a.map((e: any) => ({ ...e }));
    for (const e of b) {
      const i = out.findIndex((x: any) => x[key] === e[key]);
      if (i < 0) out.push(e);
      else out[i] = merge(out[i], e);
    }
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  return b;
}

/** One release of a generated composition: which writer has each group (-1: nobody), and each group's value. */
interface Assignment {
  /** Writers: 0 is the declarer, `i > 0` the contribution `W<i>`. */
  readonly writers: number;
  readonly owner: readonly number[];
  readonly variant: readonly number[];
}

/** The shared object of a release: the declarer's groups as its declaration, each contribution's as its fields. */
function objectOf(kind: Kind, a: Assignment): SharedObject {
  const fieldsOf = (w: number) =>
    kind.groups.reduce((acc, g, i) => (a.owner[i] === w ? merge(acc, g(a.variant[i])) : acc), {} as Record<string, unknown>);
  const contributions = [];
  for (let w = 1; w < a.writers; w++) if (a.owner.includes(w)) contributions.push({ id: `W${w}`, fields: fieldsOf(w) });
  const declared = kind.kind === 'Deployment' ? merge(fieldsOf(0), podBase([fieldsOf(0), ...contributions.map((c) => c.fields)])) : fieldsOf(0);
  return { apiVersion: kind.apiVersion, kind: kind.kind, declared, contributions };
}

/**
 * What the declarer of a Deployment adds so that the merged object is one the API server accepts (the pod spec
 * rule refuses the rest): an image for each container that no group gives one, a container when none has any.
 * The groups write none of these leaves, so the declarer is their only writer.
 */
function podBase(writes: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const merged: any = writes.reduce((acc, w) => merge(acc, w), {});
  const containers: Array<{ name: string; image?: string }> = merged.spec?.template?.spec?.containers ?? [];
  const missing = containers.length === 0 ? [{ name: 'web' }] : containers.filter((c) => c.image === undefined);
  return missing.length === 0 ? {} : { spec: { template: { spec: { containers: missing.map((c) => ({ name: c.name, image: `${c.name}:base` })) } } } };
}

/** An assignment of 2 to 5 writers in which every contribution writes something. */
function assignment(groups: number): fc.Arbitrary<Assignment> {
  return fc.integer({ min: 2, max: 5 }).chain((writers) =>
    fc.record({
      writers: fc.constant(writers),
      owner: fc.array(fc.integer({ min: -1, max: writers - 1 }), { minLength: groups, maxLength: groups }),
      variant: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: groups, maxLength: groups }),
    }).filter((a) => Array.from({ length: writers - 1 }, (_, i) => i + 1).every((w) => a.owner.includes(w))),
  );
}

const CASES_PER_KIND = 40;
const SEED = 20261203;

interface Generated {
  readonly kind: Kind;
  readonly first: Assignment;
  readonly second: Assignment;
}

const generated: Generated[] = KINDS.flatMap((kind, k) =>
  fc.sample(fc.tuple(assignment(kind.groups.length), assignment(kind.groups.length)), { numRuns: CASES_PER_KIND, seed: SEED + k })
    .map(([first, second]) => ({ kind, first, second })),
);

/** How many groups a second release hands from one writer to another. */
function moved(g: Generated): number {
  return g.first.owner.filter((w, i) => w >= 0 && g.second.owner[i] >= 0 && w !== g.second.owner[i]).length;
}

// ---------------------------------------------------------------------------------------------------------

interface Replayed {
  readonly name: string;
  readonly releases: readonly Release[];
  /**
   * Per object of the composition (CRDs left out: the oracle has no schema for them), the cases run: the
   * sequence up to and after each release's merged apply, and one manager applying both manifests whole.
   */
  readonly objects: ReadonlyArray<{
    key: string;
    afterFirst: NamedSmdCase;
    mergedFirst: NamedSmdCase;
    afterSecond: NamedSmdCase;
    mergedSecond: NamedSmdCase;
    baseline: NamedSmdCase;
  }>;
}

/** The oracle case of one object's writes. */
function caseOf(name: string, kind: string, operations: readonly PhasedOperation[]): NamedSmdCase {
  const { typeName, schema } = REPLAYED_KINDS[kind];
  return {
    name,
    typeName,
    apiVersion: (operations[0].object as any).apiVersion,
    ...(schema ? { schema } : {}),
    applies: operations.map(({ manager, force, object }) => ({ manager, force, object })),
  };
}

/** The operations up to and including the merged apply. */
function throughMerged(operations: readonly PhasedOperation[]): PhasedOperation[] {
  return operations.slice(0, operations.findIndex((o) => o.phase === 'merged') + 1);
}

const replayed: Replayed[] = generated.map((g, i) => {
  const name = `${g.kind.name} #${i}`;
  const first = synthRelease(objectOf(g.kind, g.first));
  const second = synthRelease(objectOf(g.kind, g.second), first);
  const ops1 = applyOperations(first);
  const ops2 = applyOperations(second);
  const objects = [...ops2.keys()].filter((key) => REPLAYED_KINDS[key.split(' ')[0]]).map((key) => {
    const kind = key.split(' ')[0];
    const one = ops1.get(key)!;
    const two = ops2.get(key)!;
    const whole = (r: Release) => ({ manager: 'one-manager', force: true, object: manifestOf(r, key), phase: 'merged' as const });
    return {
      key,
      afterFirst: caseOf(`${name} ${key} (release 1)`, kind, one),
      mergedFirst: caseOf(`${name} ${key} (release 1 through its merged apply)`, kind, throughMerged(one)),
      afterSecond: caseOf(`${name} ${key} (releases 1 and 2)`, kind, [...one, ...two]),
      mergedSecond: caseOf(`${name} ${key} (release 1, release 2 through its merged apply)`, kind, [...one, ...throughMerged(two)]),
      baseline: caseOf(`${name} ${key} (one manager)`, kind, [whole(first), whole(second)]),
    };
  });
  return { name, releases: [first, second], objects };
});

let results = new Map<NamedSmdCase, SmdResult>();

beforeAll(() => {
  const cases = replayed.flatMap((r) => r.objects.flatMap((o) => [o.afterFirst, o.mergedFirst, o.afterSecond, o.mergedSecond, o.baseline]));
  // live when Go is here (CI), else the vectors recorded in test/smd/vectors/apply-sequence.json
  const answers = smdVerdicts('apply-sequence', cases);
  results = new Map(cases.map((c, i) => [c, answers[i]]));
  const movedCases = generated.filter((g) => moved(g) > 0).length;
  // eslint-disable-next-line no-console
  console.log(`apply sequence vs structured-merge-diff: ${generated.length} compositions of 2 to 5 writers (seed ${SEED}), ${cases.length} object replays, ${movedCases} second releases moving leaves between writers`);
});

/** The manifest of an object in a release's runtime files. */
function manifestOf(release: Release, key: string): any {
  for (const step of release.plan.steps) {
    for (const file of step.files) {
      for (const doc of jsyaml.loadAll(release.files.get(file) ?? '') as any[]) if (doc && objectKey(doc) === key) return doc;
    }
  }
  throw new Error(`${key} is in no runtime file`);
}

/**
 * An object up to what server-side apply does with a live object: keyed elements and set values sorted,
 * a null map (one a release emptied) as an empty one.
 */
function normalized(value: unknown): unknown {
  if (value === null) return {};
  if (Array.isArray(value)) {
    const keyOf = (e: any) => JSON.stringify(e !== null && typeof e === 'object' ? LIST_KEYS.map((k) => e[k]) : e);
    return value.map(normalized).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }
  if (typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, normalized(v)]));
}

/** Each manager's owned leaves in the ledger's sense, as sorted path keys. */
function ownedByManager(result: SmdResult): Record<string, string[]> {
  return Object.fromEntries(Object.entries(result.managers).map(([m, set]) => [m, ledgerLeaves(parseFieldsV1(set.fieldsV1)).map(pathKey).sort()]));
}

/**
 * What each manager must own after a release: each writer's applied leaves under its manager, every leaf
 * under `cdk-capability` (which keeps the merged object), nothing for any other manager.
 */
function expectedOwnership(release: Release, key: string, managers: readonly string[]): Record<string, string[]> {
  const manifest = manifestOf(release, key);
  const id = `object:${groupKindOf(manifest).replace('/', '|')}|${manifest.metadata.namespace ?? ''}|${manifest.metadata.name}`;
  const writers = release.plan.writers.find((w) => w.object === id)?.writers ?? [];
  const out: Record<string, string[]> = Object.fromEntries(managers.map((m) => [m, []]));
  for (const w of writers) out[w.manager!] = appliedLeaves(leavesOf(w)).map((l) => pathKey(l.path)).sort();
  out[APPLIER_FIELD_MANAGER] = ledgerLeaves(writers.flatMap((w) => leavesOf(w).map((l) => l.path))).map(pathKey).sort();
  return out;
}

describe('the apply sequence, replayed on structured-merge-diff', () => {
  test('the generators move leaves between writers in most second releases', () => {
    expect(generated.length).toBe(KINDS.length * CASES_PER_KIND);
    expect(generated.filter((g) => moved(g) > 0).length).toBeGreaterThan(generated.length / 2);
    expect(generated.filter((g) => g.first.writers === 5 || g.second.writers === 5).length).toBeGreaterThan(0);
  });

  test.each(KINDS.map((k) => [k.name] as const))('%s: no conflict, the synthesized object, each manager owning exactly its writer\'s leaves, a clean audit', (kindName) => {
    let compared = 0;
    for (const r of replayed.filter((x) => x.name.startsWith(`${kindName} `))) {
      for (const o of r.objects) {
        for (const [release, c, merged] of [[r.releases[0], o.afterFirst, o.mergedFirst], [r.releases[1], o.afterSecond, o.mergedSecond]] as const) {
          const result = results.get(c)!;
          const context = c.name;
          expect({ context, error: result.error }).toEqual({ context, error: undefined });
          expect({ context, conflicts: result.applies.filter((a) => a.conflicts.length > 0) }).toEqual({ context, conflicts: [] });
          // every change of the release is made by its merged apply: one rollout per changed workload
          expect({ context, object: results.get(merged)!.object }).toEqual({ context, object: result.object });
          const baseline = results.get(o.baseline)!;
          if (release === r.releases[0]) {
            expect({ context, object: result.object }).toEqual({ context, object: manifestOf(release, o.key) });
          } else {
            expect({ context, object: result.object }).toEqual({ context, object: baseline.object });
            expect({ context, object: normalized(result.object) }).toEqual({ context, object: normalized(manifestOf(release, o.key)) });
          }
          // each manager's set reads back as itself through our fieldsV1 codec
          for (const [m, set] of Object.entries(result.managers)) {
            expect({ context, m, set: toFieldsV1(parseFieldsV1(set.fieldsV1)) }).toEqual({ context, m, set: set.fieldsV1 });
          }
          const owned = ownedByManager(result);
          expect({ context, owned }).toEqual({ context, owned: expectedOwnership(release, o.key, Object.keys(owned)) });
          const live = readLiveObjects(JSON.stringify(asLiveObject(result, c.applies)), c.name!);
          const expected = expectedObjects(release.lock).filter((e) => live.some((l) => l.label === e.label));
          expect({ context, findings: auditCluster(expected, live) }).toEqual({ context, findings: [] });
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(CASES_PER_KIND * 2 * 2);
  });
});
