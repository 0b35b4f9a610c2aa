/**
 * The field ledger against the real structured-merge-diff, through every Kubernetes write path: generated
 * compositions of a declarer and one or two Contributions that write through `fields`, `patches` or a `write`
 * callback (cdk8s-plus mutators on a cdk8s-plus Deployment, `addJsonPatch` on a custom resource), some of them
 * writing a set value twice or a keyed element without its key.
 *
 * Each composition runs through collect as synth runs it, and each writer's applied configuration (what it
 * means to write, built here from the generated actions, independently of the ledger) through SMD, the
 * declarer first. The ledger must say what SMD says: the conflicts (who against whom, on which field), SMD's
 * error for an object it refuses exactly where the ledger finds a CAP010 contradiction naming that writer,
 * and, when every apply is accepted, the same merged object. A refused apply changes nothing in SMD, so a
 * later writer's conflicts are compared against the writers accepted before it.
 */
import { isDeepStrictEqual } from 'util';
import { ApiObject, ApiObjectProps, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import type { SmdConflict, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { crdWithSpec, newApp } from './util';
import { Capability, Contribution, RuntimeRouting } from '../src';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';
import { collect } from '../src/collect/collect';
import { FieldPath, isElementKey, isSetValue } from '../src/collect/ledger/field-path';
import { compareText } from '../src/private/compare';
import { renderWithoutPatches } from '../src/private/upstream-state';

/** How a Contribution writes. */
type Path = 'fields' | 'patches' | 'write';

/** One thing a writer means to write, and how each path writes it (absent: the path cannot). */
interface Action {
  readonly name: string;
  /** The applied configuration: what the writer owns afterwards, as SMD is told. */
  readonly config: Record<string, unknown>;
  readonly patches?: readonly JsonPatch[];
  readonly write?: (target: any) => void;
}

// ---------------------------------------------------------------------------------------------------------
// A cdk8s-plus Deployment and what other teams write into it.

const main = (fields: Record<string, unknown>) => ({ spec: { template: { spec: { containers: [{ name: 'main', ...fields }] } } } });

/** The actions of contributor `m` on the Deployment (values carry `m`, so two writers never write one value). */
function deploymentActions(m: number): Action[] {
  const tier = `t-${m}`;
  const pull = m === 1 ? 'IfNotPresent' : 'Never';
  const finalizer = `example.com/f-${m}`;
  return [
    { name: 'replicas', config: { spec: { replicas: 10 + m } }, patches: [JsonPatch.replace('/spec/replicas', 10 + m)] },
    { name: 'label tier', config: { metadata: { labels: { tier } } }, write: (d: kplus.Deployment) => d.metadata.addLabel('tier', tier) },
    { name: 'label team', config: { metadata: { labels: { team: `obs-${m}` } } }, write: (d: kplus.Deployment) => d.metadata.addLabel('team', `obs-${m}`) },
    {
      name: 'pod label',
      config: { spec: { template: { metadata: { labels: { tier } } } } },
      patches: [JsonPatch.add('/spec/template/metadata/labels/tier', tier)],
      write: (d: kplus.Deployment) => d.podMetadata.addLabel('tier', tier),
    },
    { name: 'env LOG', config: main({ env: [{ name: 'LOG', value: `v-${m}` }] }), write: (d: kplus.Deployment) => d.containers[0].env.addVariable('LOG', kplus.EnvValue.fromValue(`v-${m}`)) },
    { name: 'pull policy', config: main({ imagePullPolicy: pull }), patches: [JsonPatch.replace('/spec/template/spec/containers/0/imagePullPolicy', pull)] },
    { name: 'finalizer', config: { metadata: { finalizers: [finalizer] } }, write: (d: kplus.Deployment) => d.metadata.addFinalizers(finalizer) },
    // fields only: cdk8s's addFinalizers appends, so two callbacks adding one finalizer emit it twice, and the
    // emitted object (the one apply) is refused: CAP010, unlike two managers applying it once each
    { name: 'shared finalizer', config: { metadata: { finalizers: ['example.com/shared'] } } },
    { name: 'finalizer twice', config: { metadata: { finalizers: [finalizer, finalizer] } } },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// A custom resource with a list keyed by host and port and a set, and the SMD schema the API server derives.

const ENDPOINTS_CRD = crdWithSpec('Pool', {
  endpoints: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['host', 'port'],
    'items': { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' }, weight: { type: 'integer' } } },
  },
  aliases: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
});

const POOL_SCHEMA = `types:
- name: com.example.v1.Pool
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: spec, type: {namedType: com.example.v1.PoolSpec}}
- name: com.example.v1.PoolSpec
  map:
    fields:
    - name: endpoints
      type: {list: {elementType: {namedType: com.example.v1.PoolEndpoint}, elementRelationship: associative, keys: [host, port]}}
    - name: aliases
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
- name: com.example.v1.PoolEndpoint
  map:
    fields:
    - {name: host, type: {scalar: string}}
    - {name: port, type: {scalar: numeric}}
    - {name: weight, type: {scalar: numeric}}
`;

/** The actions of contributor `m` on the Pool, which declares endpoint a:80 and alias `one`. */
function poolActions(m: number): Action[] {
  const patchAndCallback = (config: Record<string, unknown>, ...patches: JsonPatch[]) => ({
    config,
    patches,
    write: (p: ApiObject) => patches.forEach((x) => p.addJsonPatch(x)),
  });
  return [
    { name: 'endpoint weight', ...patchAndCallback({ spec: { endpoints: [{ host: 'a', port: 80, weight: m }] } }, JsonPatch.add('/spec/endpoints/0/weight', m)) },
    { name: 'new endpoint', ...patchAndCallback({ spec: { endpoints: [{ host: `h${m}`, port: 80 }] } }, JsonPatch.add('/spec/endpoints/-', { host: `h${m}`, port: 80 })) },
    { name: 'endpoint without port', ...patchAndCallback({ spec: { endpoints: [{ host: `h${m}` }] } }, JsonPatch.add('/spec/endpoints/-', { host: `h${m}` })) },
    { name: 'alias', ...patchAndCallback({ spec: { aliases: [`alias-${m}`] } }, JsonPatch.add('/spec/aliases/-', `alias-${m}`)) },
    { name: 'shared alias', config: { spec: { aliases: ['one'] } } },
    { name: 'alias twice', config: { spec: { aliases: [`alias-${m}`, `alias-${m}`] } } },
  ];
}

// ---------------------------------------------------------------------------------------------------------

/** The actions whose configuration the API server refuses. */
const REFUSED = new Set(['finalizer twice', 'endpoint without port', 'alias twice']);

interface Writer {
  readonly path: Path;
  readonly actions: readonly Action[];
}

interface Composition {
  readonly kind: 'deployment' | 'pool';
  /** The declarer's options. */
  readonly declared: { readonly team: boolean; readonly replicas: boolean; readonly env: boolean };
  readonly writers: readonly Writer[];
}

/** A writer `m`: a path, then some of the actions that path can write (fields: any). */
function writer(kind: Composition['kind'], m: number): fc.Arbitrary<Writer> {
  const all = kind === 'deployment' ? deploymentActions(m) : poolActions(m);
  return fc.constantFrom<Path>('fields', 'patches', 'write').chain((path) => {
    const possible = all.filter((a) => path === 'fields' || (path === 'patches' ? a.patches : a.write));
    // at most one action SMD refuses per writer: with two, SMD lists its errors in Go's map order, which varies
    const refused = (a: Action) => REFUSED.has(a.name);
    return fc.subarray(possible, { minLength: 1, maxLength: 3 }).filter((as) => as.filter(refused).length <= 1).map((actions) => ({ path, actions }));
  });
}

const composition: fc.Arbitrary<Composition> = fc.constantFrom<Composition['kind']>('deployment', 'deployment', 'pool').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    declared: fc.record({ team: fc.boolean(), replicas: fc.boolean(), env: fc.boolean() }),
    writers: fc.oneof(fc.tuple(writer(kind, 1)), fc.tuple(writer(kind, 1), writer(kind, 2))),
  }),
);

/** Deep merge of applied configurations of one writer (its actions are disjoint or sets). */
function mergeConfigs(configs: readonly Record<string, unknown>[]): Record<string, unknown> {
  const merge = (a: any, b: any): any => {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.every((e) => typeof e === 'string')) return [...a, ...b];
      const out = a.map((e: any) => ({ ...e }));
      for (const e of b) {
        const same = out.find((o: any) => o.name !== undefined && o.name === e.name);
        if (same) Object.assign(same, merge(same, e));
        else out.push(e);
      }
      return out;
    }
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      const out = { ...a };
      for (const k of Object.keys(b)) out[k] = k in a ? merge(a[k], b[k]) : b[k];
      return out;
    }
    return b;
  };
  return configs.reduce((acc, c) => merge(acc, c), {});
}

const DECLARER = 'shop/Routing/Target';

/** Builds the composition; returns the app and what the declaration renders (the declarer's applied configuration). */
function build(c: Composition) {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  let target: ApiObject | kplus.Deployment;
  if (c.kind === 'deployment') {
    const d = new kplus.Deployment(routing, 'Target', {
      metadata: { name: 'web', namespace: 'shop', ...(c.declared.team ? { labels: { team: 'payments' } } : {}) },
      ...(c.declared.replicas ? { replicas: 3 } : {}),
    });
    d.addContainer({ name: 'main', image: 'nginx', ...(c.declared.env ? { envVariables: { LOG: kplus.EnvValue.fromValue('info') } } : {}) });
    target = d;
  } else {
    new ApiObject(routing, 'Crd', ENDPOINTS_CRD as ApiObjectProps);
    target = new ApiObject(routing, 'Target', { apiVersion: 'example.com/v1', kind: 'Pool', metadata: { name: 'edge', namespace: 'shop' }, spec: { endpoints: [{ host: 'a', port: 80 }], aliases: ['one'] } });
  }
  c.writers.forEach((w, i) => {
    const scope = new Construct(routing, `Team${i + 1}`);
    if (w.path === 'fields') new Contribution(scope, 'Write', { target, fields: mergeConfigs(w.actions.map((a) => a.config)) });
    else if (w.path === 'patches') new Contribution(scope, 'Write', { target, patches: w.actions.flatMap((a) => a.patches!) });
    else new Contribution(scope, 'Write', { target: target as any, write: (t: any) => w.actions.forEach((a) => a.write!(t)) });
  });
  const apiObject = ApiObject.isApiObject(target) ? target : ApiObject.of(target);
  return { app, declared: renderWithoutPatches(apiObject) as Record<string, unknown> };
}

/** SMD's `Path.String()` of a field path. */
function smdPath(path: FieldPath): string {
  return path.map((segment) => {
    if (isElementKey(segment)) {
      const keys = JSON.parse(segment.slice(2)) as Record<string, unknown>;
      return `[${Object.keys(keys).sort().map((k) => `${k}=${JSON.stringify(keys[k])}`).join(',')}]`;
    }
    if (isSetValue(segment)) return `[=${segment.slice(2)}]`;
    return `.${segment}`;
  }).join('');
}

const managerOf = (writerPath: string) => (writerPath === DECLARER ? 'team-0' : `team-${/Team(\d)/.exec(writerPath)![1]}`);

interface LedgerAnswer {
  /** Per apply after the declarer's, the conflicts with the writers before it. */
  readonly conflicts: SmdConflict[][];
  /** The managers a CAP010 contradiction names. */
  readonly refused: string[];
  readonly object: unknown;
}

/** What collect says of the composition, in SMD's terms. */
function ledgerAnswer(app: Construct, writers: number): LedgerAnswer {
  const facts = collect(app);
  const pairs = new Map<string, SmdConflict[]>();
  for (const conflict of findFieldConflicts(facts.ledger.objects)) {
    const managers = conflict.writers.map((w) => managerOf(w.path)).sort();
    for (const later of managers) {
      for (const owner of managers) {
        if (owner >= later) continue;
        const key = `${later}\u0000${owner}`;
        if (!pairs.has(key)) pairs.set(key, []);
        for (const leaf of conflict.leaves) pairs.get(key)!.push({ manager: owner, path: smdPath(leaf) });
      }
    }
  }
  const accepted = ['team-0'];
  const conflicts: SmdConflict[][] = [];
  for (let m = 1; m <= writers; m++) {
    const found = accepted.flatMap((owner) => pairs.get(`team-${m}\u0000${owner}`) ?? []);
    found.sort((a, b) => (a.manager === b.manager ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.manager < b.manager ? -1 : 1));
    conflicts.push(found);
    if (found.length === 0) accepted.push(`team-${m}`);
  }
  const refused = [...new Set(facts.contradictions.flatMap((c) => c.writers.flat().map((w) => managerOf(w.path))))].sort();
  const object = facts.objects.find((o) => o.identity.kind === 'Deployment' || o.identity.kind === 'Pool')?.manifest;
  return { conflicts, refused, object };
}

// ---------------------------------------------------------------------------------------------------------

const RUNS = 240;
const SEED = 20261203;
const generated = fc.sample(composition, { numRuns: RUNS, seed: SEED });

let results: SmdResult[] = [];
let built: Array<{ app: Construct; declared: Record<string, unknown> }> = [];

beforeAll(() => {
  built = generated.map(build);
  const cases: NamedSmdCase[] = generated.map((c, i) => ({
    name: `${c.kind} #${i}`,
    typeName: c.kind === 'deployment' ? 'io.k8s.api.apps.v1.Deployment' : 'com.example.v1.Pool',
    apiVersion: c.kind === 'deployment' ? 'apps/v1' : 'example.com/v1',
    ...(c.kind === 'pool' ? { schema: POOL_SCHEMA } : {}),
    applies: [
      { manager: 'team-0', object: built[i].declared },
      ...c.writers.map((w, m) => ({ manager: `team-${m + 1}`, object: mergeConfigs(w.actions.map((a) => a.config)) })),
    ],
  }));
  results = smdVerdicts('ledger-write-paths', cases);
});

describe('the ledger says what structured-merge-diff says, through fields, patches and write callbacks', () => {
  test('every generated composition: conflicts, refused objects and the merged object', () => {
    const counts = { compared: 0, conflicts: 0, refused: 0, merged: 0, patches: 0, callbacks: 0 };
    generated.forEach((c, i) => {
      const smd = results[i];
      const ours = ledgerAnswer(built[i].app, c.writers.length);
      const context = `case ${smd.name}: ${JSON.stringify(c)}`;
      if (smd.error !== undefined) {
        // SMD stops at the first refused apply: the ledger names that writer in a CAP010
        const at = smd.applies.length;
        expect({ context, refused: ours.refused.includes(`team-${at}`) }).toEqual({ context, refused: true });
        expect({ context, conflicts: ours.conflicts.slice(0, at - 1) }).toEqual({ context, conflicts: smd.applies.slice(1).map((a) => a.conflicts) });
        counts.refused++;
      } else {
        expect({ context, refused: ours.refused }).toEqual({ context, refused: [] });
        expect({ context, conflicts: ours.conflicts }).toEqual({ context, conflicts: smd.applies.slice(1).map((a) => a.conflicts) });
        if (ours.conflicts.every((x) => x.length === 0)) {
          expect({ context, object: canonical(ours.object) }).toEqual({ context, object: canonical(smd.object) });
          counts.merged++;
        } else {
          counts.conflicts++;
        }
      }
      counts.compared++;
      if (c.writers.some((w) => w.path === 'patches')) counts.patches++;
      if (c.writers.some((w) => w.path === 'write')) counts.callbacks++;
    });
    // eslint-disable-next-line no-console
    console.log(
      `ledger vs structured-merge-diff through write paths: ${counts.compared} compositions (seed ${SEED}; ${counts.patches} with patches, ${counts.callbacks} with write callbacks), ` +
        `${counts.conflicts} with conflicts, ${counts.refused} refused (CAP010), ${counts.merged} merged objects equal`,
    );
    expect(counts.compared).toBe(RUNS);
    // each outcome is common, or the comparison proves little
    for (const n of [counts.conflicts, counts.refused, counts.merged, counts.patches, counts.callbacks]) expect(n).toBeGreaterThan(RUNS / 10);
  });
});

/**
 * An object with its maps' keys sorted and its lists' elements sorted, to compare merged objects. Element
 * order is left out on purpose: patches and callbacks write when the object renders, `fields` after, so an
 * element a later Contribution's patch appends can come before one an earlier Contribution's `fields` adds,
 * where SMD keeps apply order. Every list these compositions write is a set or keyed by its elements, so the
 * API server reads both orders as one object.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical).sort((a, b) => compareText(JSON.stringify(a), JSON.stringify(b)));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
}

test('canonical sorts keys and elements and keeps every value', () => {
  expect(isDeepStrictEqual(canonical({ b: 1, a: [{ d: 1, c: 2 }, 'x'] }), { a: ['x', { c: 2, d: 1 }], b: 1 })).toBe(true);
  expect(isDeepStrictEqual(canonical({ a: ['x', 'x'] }), { a: ['x'] })).toBe(false);
});
