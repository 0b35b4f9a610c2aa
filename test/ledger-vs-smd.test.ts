/**
 * The field ledger against the real structured-merge-diff (SMD 4.1.2, the code the API server runs for
 * server-side apply), through the oracle in test/smd/.
 *
 * A case is a sequence of applies to one object by distinct managers. SMD answers, per apply, the fields it
 * conflicts on and whose they are; a refused apply changes nothing. The ledger is run the way collect runs it
 * (`recordRuntimeWrites`: the first accepted writer declares, the others contribute; then `findFieldConflicts`)
 * on the accepted writers plus the new one, and must predict exactly SMD's conflicts, managers and paths, for
 * every apply of every case. The one documented difference is equal values: SMD shares a field written twice
 * with one value, the ledger refuses it (docs/errors.md, CAP002); the prediction drops a contested field whose
 * two values are equal, and the generators write such equal values on purpose (shared enum-like values) so
 * that this path is exercised too.
 */
import { isDeepStrictEqual } from 'util';
import { ApiObject, App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { DEDUCED_AND_NESTED_CASES } from './smd/cases/deduced-and-nested';
import { HARNESS_CASES, WIDGET_SCHEMA } from './smd/cases/harness';
import { KEY_CASES } from './smd/cases/keys';
import { KUBERNETES_CASES } from './smd/cases/kubernetes';
import { MULTIPLE_APPLIERS_CASES } from './smd/cases/multiple-appliers';
import { SET_AND_LEAF_CASES } from './smd/cases/set-and-leaf';
import type { SmdTestCase } from './smd/cases/smd-test-case';
import type { SmdConflict, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { crdWithSpec } from './util';
import { topologyDataOf } from '../scripts/generate-k8s-topology';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';
import { LedgerBuilder } from '../src/collect/ledger/field-ledger';
import { FieldPath, isElementKey, isSetValue } from '../src/collect/ledger/field-path';
import { ownedLeaves } from '../src/collect/ledger/leaves';
import { recordRuntimeWrites, topologyOfManifest } from '../src/collect/ledger/runtime-writes';
import { contributionWriter } from '../src/collect/ledger/writer';
import { CrdTopologies } from '../src/collect/topology/crd-topology';
import { FieldTopology, schemaTopology } from '../src/collect/topology/field-topology';
import { elementKeyOf } from '../src/collect/topology/list-topology';

// ---------------------------------------------------------------------------------------------------------
// The custom resource: a CRD with markers, and the SMD schema the API server derives from it (by hand, as
// test/smd/cases/harness.ts does for its Widget).

const GADGET_CRD = crdWithSpec('Gadget', {
  items: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'items': { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
  },
  ports: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['port', 'protocol'],
    'items': { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
  },
  aliases: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
  tags: { type: 'array', items: { type: 'string' } },
  config: { type: 'object', additionalProperties: { type: 'string' } },
  selector: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'additionalProperties': { type: 'string' } },
  template: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'properties': { image: { type: 'string' }, size: { type: 'integer' } } },
  nested: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
  extra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
});

const GADGET_SCHEMA = `types:
- name: com.example.v1.Gadget
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: spec, type: {namedType: com.example.v1.GadgetSpec}}
- name: com.example.v1.GadgetSpec
  map:
    fields:
    - name: items
      type: {list: {elementType: {namedType: com.example.v1.GadgetItem}, elementRelationship: associative, keys: [name]}}
    - name: ports
      type: {list: {elementType: {namedType: com.example.v1.GadgetPort}, elementRelationship: associative, keys: [port, protocol]}}
    - name: aliases
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: tags
      type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: config
      type: {map: {elementType: {scalar: string}}}
    - name: selector
      type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: template
      type: {namedType: com.example.v1.GadgetTemplate}
    - name: nested
      type: {namedType: com.example.v1.GadgetNested}
    - name: extra
      type: {map: {elementType: {namedType: __untyped_deduced_}}}
- name: com.example.v1.GadgetItem
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: size, type: {scalar: numeric}}
- name: com.example.v1.GadgetPort
  map:
    fields:
    - {name: port, type: {scalar: numeric}}
    - {name: protocol, type: {scalar: string}, default: TCP}
    - {name: name, type: {scalar: string}}
- name: com.example.v1.GadgetTemplate
  map:
    fields:
    - {name: image, type: {scalar: string}}
    - {name: size, type: {scalar: numeric}}
    elementRelationship: atomic
- name: com.example.v1.GadgetNested
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: b, type: {scalar: string}}
`;

/** The CRD from test/smd/cases/harness.ts's WIDGET_SCHEMA, written as the CRD the API server derived it from. */
const WIDGET_CRD = crdWithSpec('Widget', {
  items: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'items': { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
  },
  tags: { type: 'array', items: { type: 'string' } },
  config: { type: 'object', additionalProperties: { type: 'string' } },
  selector: { 'type': 'object', 'x-kubernetes-map-type': 'atomic', 'additionalProperties': { type: 'string' } },
});

const CRDS = CrdTopologies.fromManifests([GADGET_CRD, WIDGET_CRD]);

// ---------------------------------------------------------------------------------------------------------
// Generators: one apply per manager index `m`. Values a manager writes carry `m` (distinct between managers)
// except the few drawn from a shared pool (equal values are then possible). Keys, set values and element keys
// come from small shared pools so that managers meet on them.

/** A partial object without empty parts, `{}` when nothing was drawn. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const p = prune(v);
    if (p !== null && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0 && !EMPTY.has(v as object)) continue;
    out[k] = p;
  }
  return out;
}

/** Empty maps drawn on purpose (kept by `prune`): a manager may write `spec: {}` or `labels: {}`. */
const EMPTY = new WeakSet<object>();
const empty = (): Record<string, unknown> => {
  const e = {};
  EMPTY.add(e);
  return e;
};

/** A map over some of `keys`, each value from `value(key)`. */
const someKeys = <T>(keys: readonly string[], value: (key: string) => fc.Arbitrary<T>) =>
  fc.subarray([...keys]).chain((chosen) =>
    (chosen.length === 0 ? fc.constant({}) : fc.record(Object.fromEntries(chosen.map((k) => [k, value(k)])) as Record<string, fc.Arbitrary<T>>)));

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

function metadata(m: number) {
  return fc.record({
    labels: fc.oneof(someKeys(['team', 'tier'], (k) => fc.constant(`${k}-${m}`)), fc.constant(empty())),
    annotations: someKeys(['note'], () => fc.constantFrom('shared', `note-${m}`)),
    finalizers: maybe(fc.subarray(['example.com/a', 'example.com/b'], { minLength: 1 })),
  });
}

function container(m: number, name: string) {
  return fc.record({
    name: fc.constant(name),
    image: maybe(fc.constant(`img-${m}`)),
    imagePullPolicy: maybe(fc.constantFrom('Always', 'IfNotPresent')),
    args: maybe(fc.constant([`--m=${m}`])),
    env: maybe(fc.subarray(['A', 'B'], { minLength: 1 }).chain((names) =>
      fc.tuple(...names.map((n) => fc.oneof(fc.constant({ name: n }), fc.constant({ name: n, value: `v-${m}` })))),
    )),
    ports: maybe(fc.subarray([{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }], { minLength: 1 })
      .filter((ps) => !(ps.length > 1 && ps[0].containerPort === 80 && ps[1]?.containerPort === 80)) // one 80/TCP at most (a duplicate key is an SMD error, and our CAP010)
      .chain((ps) => fc.tuple(...ps.map((p) => fc.oneof(fc.constant({ ...p }), fc.constant({ ...p, name: `p-${m}` })))))),
    resources: maybe(fc.record({ limits: someKeys(['memory', 'cpu'], () => fc.constant(`${m + 1}00m`)) })),
  });
}

function deployment(m: number) {
  return fc.record({
    metadata: metadata(m),
    spec: fc.oneof(
      { weight: 1, arbitrary: fc.constant(empty()) },
      {
        weight: 6,
        arbitrary: fc.record({
          replicas: maybe(fc.constant(m + 1)),
          minReadySeconds: maybe(fc.constant(m + 10)),
          strategy: maybe(fc.record({ type: fc.constantFrom('Recreate', 'RollingUpdate') })),
          selector: maybe(fc.oneof(fc.record({ matchLabels: fc.constant({ app: `app-${m}` }) }), fc.constant(empty()))),
          template: fc.record({
            metadata: fc.record({ labels: someKeys(['app', 'version'], () => fc.constant(`pod-${m}`)) }),
            spec: fc.record({
              containers: maybe(fc.subarray(['web', 'sidecar'], { minLength: 1 }).chain((names) => fc.tuple(...names.map((n) => container(m, n))))),
              nodeSelector: maybe(someKeys(['zone', 'disk'], () => fc.constant(`node-${m}`))),
              tolerations: maybe(fc.constant([{ key: `taint-${m}`, operator: 'Exists' }])),
              serviceAccountName: maybe(fc.constantFrom('default', `sa-${m}`)),
            }),
          }),
        }),
      },
    ),
  });
}

function service(m: number) {
  return fc.record({
    metadata: metadata(m),
    spec: fc.record({
      type: maybe(fc.constantFrom('ClusterIP', 'NodePort')),
      selector: maybe(someKeys(['app', 'tier'], () => fc.constant(`sel-${m}`))),
      ports: maybe(fc.subarray([{ port: 80 }, { port: 443, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], { minLength: 1 })
        .chain((ps) => fc.tuple(...ps.map((p) => fc.oneof(fc.constant({ ...p }), fc.constant({ ...p, targetPort: 8000 + m }), fc.constant({ ...p, name: `port-${m}` })))))),
    }),
  });
}

function configMap(m: number) {
  return fc.record({
    metadata: metadata(m),
    data: fc.oneof(someKeys(['a', 'b', 'c'], (k) => fc.constantFrom(`${k}-${m}`, 'shared')), fc.constant(empty())),
  });
}

function gadget(m: number) {
  return fc.record({
    metadata: metadata(m),
    spec: fc.oneof(
      { weight: 1, arbitrary: fc.constant(empty()) },
      {
        weight: 6,
        arbitrary: fc.record({
          items: maybe(fc.subarray(['x', 'y'], { minLength: 1 }).chain((ns) => fc.tuple(...ns.map((n) => fc.oneof(fc.constant({ name: n }), fc.constant({ name: n, size: m + 1 })))))),
          ports: maybe(fc.subarray([{ port: 80 }, { port: 53, protocol: 'UDP' }], { minLength: 1 })
            .chain((ps) => fc.tuple(...ps.map((p) => fc.oneof(fc.constant({ ...p }), fc.constant({ ...p, name: `n-${m}` })))))),
          aliases: maybe(fc.subarray(['one', 'two'], { minLength: 1 })),
          tags: maybe(fc.constant([`tag-${m}`])),
          config: maybe(someKeys(['k1', 'k2'], () => fc.constant(`c-${m}`))),
          selector: maybe(fc.constant({ app: `g-${m}` })),
          template: maybe(fc.oneof(fc.constant({ image: `i-${m}` }), fc.constant({ size: m + 1 }))),
          nested: maybe(someKeys(['a', 'b'], () => fc.constant(`n-${m}`))),
          extra: maybe(fc.record({
            p: maybe(fc.constant(`x-${m}`)),
            q: maybe(someKeys(['r', 's'], () => fc.constant(`y-${m}`))),
            l: maybe(fc.constant([`z-${m}`])),
          })),
        }),
      },
    ),
  });
}

interface Kind {
  readonly name: string;
  readonly typeName: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly schema?: string;
  readonly apply: (m: number) => fc.Arbitrary<unknown>;
}

const KINDS: readonly Kind[] = [
  { name: 'Deployment', typeName: 'io.k8s.api.apps.v1.Deployment', apiVersion: 'apps/v1', kind: 'Deployment', apply: deployment },
  { name: 'Service', typeName: 'io.k8s.api.core.v1.Service', apiVersion: 'v1', kind: 'Service', apply: service },
  { name: 'ConfigMap', typeName: 'io.k8s.api.core.v1.ConfigMap', apiVersion: 'v1', kind: 'ConfigMap', apply: configMap },
  { name: 'Gadget (CRD markers)', typeName: 'com.example.v1.Gadget', apiVersion: 'example.com/v1', kind: 'Gadget', schema: GADGET_SCHEMA, apply: gadget },
];

/** Pairs and triples of applies by the managers team-0, team-1 (and team-2). */
function applies(kind: Kind): fc.Arbitrary<unknown[]> {
  return fc.oneof(fc.tuple(kind.apply(0), kind.apply(1)), fc.tuple(kind.apply(0), kind.apply(1), kind.apply(2))).map((objects) => objects.map(prune));
}

// ---------------------------------------------------------------------------------------------------------
// The ledger's prediction of SMD's answer.

/** SMD's `Path.String()` of a field path: `.spec.ports[port=80,protocol="TCP"].name`, `.metadata.finalizers[="a"]`. */
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

/** The value an applied object has at a field path (element keys looked up with the list's key defaults). */
function valueAt(object: unknown, path: FieldPath, topology: FieldTopology): unknown {
  let current: any = object;
  let node = topology;
  for (const segment of path) {
    if (current === undefined) return undefined;
    if (isElementKey(segment)) {
      const list: unknown[] = Array.isArray(current) ? current : [];
      current = list.find((e) => elementKeyOf(e, node) === segment);
      node = node.element();
    } else if (isSetValue(segment)) {
      return JSON.parse(segment.slice(2));
    } else {
      current = current?.[segment];
      node = node.field(segment);
    }
  }
  return current;
}

let chart: Chart | undefined;
let objectCount = 0;

/** A real cdk8s object to hang the draft on, as collect does. */
function apiObject(manifest: Record<string, unknown>): ApiObject {
  chart ??= new Chart(new App(), 'ledger-vs-smd');
  return new ApiObject(chart, `O${objectCount++}`, manifest as any);
}

/**
 * What the ledger says SMD answers for a sequence of applies: per apply, the conflicts (manager and SMD path,
 * sorted by manager then path), refused applies left out of the object.
 */
/** What the ledger reads an object as: its kind's topology, or a topology given outright. */
interface LedgerKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly topology?: FieldTopology;
}

function predicted(c: LedgerKind, managers: readonly string[], objects: readonly unknown[]): SmdConflict[][] {
  const identity = { apiVersion: c.apiVersion, kind: c.kind };
  const topology = c.topology ?? topologyOfManifest(identity, CRDS);
  const accepted: number[] = [];
  const out: SmdConflict[][] = [];
  for (let k = 0; k < objects.length; k++) {
    const writers = [...accepted, k];
    const ledger = new LedgerBuilder();
    const first = structuredClone((objects[writers[0]] ?? {}) as Record<string, any>);
    const declared = { ...first, ...identity, metadata: { name: 'o', ...(first.metadata ?? {}) } };
    if (c.topology) {
      // a type of a case's own schema, which no manifest names: its writes, recorded as recordRuntimeWrites records them
      const object = { key: 'o', label: 'o', kind: 'k8s' as const };
      for (const i of writers) {
        const writer = contributionWriter(managers[i]);
        for (const leaf of ownedLeaves(objects[i] ?? {}, c.topology)) ledger.record({ object, writer, path: leaf.path, presence: leaf.presence });
      }
    } else {
      recordRuntimeWrites(
        { apiObject: apiObject(declared), declarer: managers[writers[0]], key: 'o', label: 'o', manifest: declared },
        writers.slice(1).map((i) => ({ writer: managers[i], fields: (objects[i] ?? {}) as Record<string, unknown> })),
        ledger,
        CRDS,
      );
    }
    const found: SmdConflict[] = [];
    for (const conflict of findFieldConflicts(ledger.facts().objects)) {
      if (!conflict.writers.some((w) => w.path === managers[k])) continue;
      for (const leaf of conflict.leaves) {
        for (const { path: owner } of conflict.writers) {
          if (owner === managers[k]) continue;
          const i = managers.indexOf(owner);
          if (isDeepStrictEqual(valueAt(objects[k], leaf, topology), valueAt(objects[i], leaf, topology))) continue; // SMD shares equal values
          found.push({ manager: owner, path: smdPath(leaf) });
        }
      }
    }
    found.sort((a, b) => (a.manager === b.manager ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.manager < b.manager ? -1 : 1));
    out.push(found);
    if (found.length === 0) accepted.push(k);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------

const RUNS_PER_KIND = 300;
const SEED = 20260613;

interface Generated {
  readonly kind: Kind;
  readonly objects: unknown[];
}

const generated: Generated[] = KINDS.flatMap((kind, i) =>
  fc.sample(applies(kind), { numRuns: RUNS_PER_KIND, seed: SEED + i }).map((objects) => ({ kind, objects })),
);

const managersOf = (n: number) => Array.from({ length: n }, (_, i) => `team-${i}`);

let results: SmdResult[] = [];

beforeAll(() => {
  // every generated case in one oracle process (or from the recorded vectors when Go is absent)
  const cases: NamedSmdCase[] = generated.map((g, i) => ({
    name: `${g.kind.name} #${i}`,
    typeName: g.kind.typeName,
    apiVersion: g.kind.apiVersion,
    ...(g.kind.schema ? { schema: g.kind.schema } : {}),
    applies: g.objects.map((object, m) => ({ manager: `team-${m}`, object })),
  }));
  results = smdVerdicts('ledger-generated', cases);
  const conflicted = results.filter((r) => r.applies.some((a) => a.conflicts.length > 0)).length;
  // eslint-disable-next-line no-console
  console.log(`ledger vs structured-merge-diff: ${generated.length} generated cases (${RUNS_PER_KIND} per kind, seed ${SEED}), ${conflicted} with conflicts`);
});

describe('the field ledger predicts structured-merge-diff\'s conflicts exactly', () => {
  test.each(KINDS.map((k) => [k.name, k] as const))('%s: every generated pair and triple of applies', (_name, kind) => {
    let compared = 0;
    let withConflicts = 0;
    generated.forEach((g, i) => {
      if (g.kind !== kind) return;
      const result = results[i];
      const context = `case ${result.name}: ${JSON.stringify(g.objects)}`;
      expect({ context, error: result.error }).toEqual({ context, error: undefined });
      const smd = result.applies.map((a) => a.conflicts);
      expect({ context, conflicts: predicted(kind, managersOf(g.objects.length), g.objects) }).toEqual({ context, conflicts: smd });
      compared++;
      if (smd.some((c) => c.length > 0)) withConflicts++;
    });
    expect(compared).toBe(RUNS_PER_KIND);
    // the generators must make both outcomes common, or the comparison proves little
    expect(withConflicts).toBeGreaterThan(RUNS_PER_KIND / 5);
    expect(withConflicts).toBeLessThan(RUNS_PER_KIND);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The ported cases of test/smd/cases (SMD's own merge tests and ours) that the ledger can express: applies
// only, no force, each manager applying once, on a type whose topology the ledger knows (a built-in kind of
// the base schema, or the harness's Widget through its CRD).

/**
 * What the ledger reads a case's object as: a built-in kind of the base schema, the harness's Widget through
 * its CRD, or a type of the case's own schema converted as the built-in schema is (generate-k8s-topology.ts);
 * undefined when the converter does not take the schema.
 */
function kindOf(c: SmdTestCase): LedgerKind | undefined {
  if (c.schema === WIDGET_SCHEMA && c.typeName === 'com.example.v1.Widget') return { apiVersion: 'example.com/v1', kind: 'Widget' };
  if (c.schema !== undefined) {
    try {
      const data = topologyDataOf(c.schema, c.typeName);
      const topology = schemaTopology(data, Object.keys(data.kinds)[0]);
      return topology ? { apiVersion: 'v1', kind: c.typeName, topology } : undefined;
    } catch {
      return undefined;
    }
  }
  const m = /^io\.k8s\.api\.(?:core\.)?(?:([a-z0-9]+)\.)?(v[0-9a-z]+)\.([A-Za-z]+)$/.exec(c.typeName);
  if (!m) return undefined;
  const group = c.typeName.startsWith('io.k8s.api.core.') ? '' : m[1];
  return { apiVersion: group ? `${group}/${m[2]}` : m[2], kind: m[3] };
}

const PORTED: readonly SmdTestCase[] = [
  ...MULTIPLE_APPLIERS_CASES,
  ...KEY_CASES,
  ...SET_AND_LEAF_CASES,
  ...DEDUCED_AND_NESTED_CASES,
  ...KUBERNETES_CASES,
  ...HARNESS_CASES,
];

const expressible = PORTED.filter((c) => {
  const managers = c.applies.map((a) => a.manager);
  return c.expected.conflicts !== undefined
    && c.expected.error === undefined
    && c.applies.every((a) => (a.operation ?? 'apply') === 'apply' && !a.force)
    && new Set(managers).size === managers.length
    && kindOf(c) !== undefined;
});

describe('the ported structured-merge-diff cases, through the ledger', () => {
  test('at least twenty of them are expressible as writes by distinct constructs, six on upstream schemas', () => {
    // eslint-disable-next-line no-console
    console.log(`ported cases through the ledger: ${expressible.length} of ${PORTED.length} (${expressible.map((c) => c.name).join('; ')})`);
    expect(expressible.length).toBeGreaterThanOrEqual(20);
    expect(expressible.filter((c) => c.provenance.startsWith('kubernetes-sigs/')).length).toBeGreaterThanOrEqual(6);
  });

  test.each(expressible.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const kind = kindOf(c)!;
    const objects = c.applies.map((a) => a.object ?? {});
    expect(predicted(kind, c.applies.map((a) => a.manager), objects)).toEqual(c.expected.conflicts);
  });
});
