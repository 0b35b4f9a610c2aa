import * as fc from 'fast-check';
import { changedLeaves } from '../src/collect/ledger/changed-leaves';
import { OwnedLeaf, walk } from '../src/collect/ledger/leaves';
import { deltaLeaves, renderDelta } from '../src/collect/ledger/render-delta';
import { DEDUCED, FieldTopology, topologyOf } from '../src/collect/topology/field-topology';

/**
 * The definition `changedLeaves` must meet, written the plain way (as it was
 * before the side-by-side walk): list every leaf of both renders with the value
 * it holds (`walk`, which `ownedLeaves` uses), and keep each leaf of `after`
 * that `before` lacks or holds with another value, and each leaf of `before`
 * that `after` lacks, as a plain write of its path, but for a presence leaf
 * (an empty map, a key-only element) that `after` has leaves below: filled, it
 * is still there.
 */
function reference(before: unknown, after: unknown, topology: FieldTopology): OwnedLeaf[] {
  const valuesOf = (doc: unknown) => {
    const values = new Map<string, { leaf: OwnedLeaf; value: string }>();
    walk(doc, topology, [], (leaf, value) => values.set(leaf.path.join('\u0000'), { leaf, value: JSON.stringify(value) ?? 'undefined' }), () => false);
    return values;
  };
  const old = valuesOf(before);
  const now = valuesOf(after);
  const changed: OwnedLeaf[] = [];
  for (const [k, { leaf, value }] of now) if (old.get(k)?.value !== value) changed.push(leaf);
  const below = new Set([...now.values()].flatMap(({ leaf }) => leaf.path.slice(0, -1).map((_, i) => leaf.path.slice(0, i + 1).join('\u0000'))));
  for (const [k, { leaf }] of old) if (!now.has(k) && !(leaf.presence && below.has(k))) changed.push({ path: leaf.path });
  return changed;
}

const key = (leaves: readonly OwnedLeaf[]) => leaves.map((l) => `${l.path.join('.')}${l.presence ? ' (presence)' : ''}`).sort();

const name = fc.constantFrom('a', 'b', 'c');
const scalar = fc.oneof(fc.constantFrom('x', 'y', ''), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.constant(null));
const env = fc.array(fc.record({ name, value: fc.option(scalar, { nil: undefined }) }, { requiredKeys: ['name'] }), { maxLength: 3 });
const port = fc.record({ containerPort: fc.constantFrom(80, 443), protocol: fc.option(fc.constantFrom('TCP', 'UDP'), { nil: undefined }), name: fc.option(name, { nil: undefined }) }, { requiredKeys: ['containerPort'] });
const container = fc.record({
  name,
  image: fc.option(fc.constantFrom('nginx', 'redis'), { nil: undefined }),
  env: fc.option(env, { nil: undefined }),
  ports: fc.option(fc.array(port, { maxLength: 2 }), { nil: undefined }),
  command: fc.option(fc.array(fc.constantFrom('sh', '-c'), { maxLength: 2 }), { nil: undefined }),
  resources: fc.option(fc.record({ limits: fc.option(fc.dictionary(fc.constantFrom('cpu', 'memory'), fc.constantFrom('1', '2')), { nil: undefined }) }), { nil: undefined }),
}, { requiredKeys: ['name'] });
const deployment = fc.record({
  apiVersion: fc.constant('apps/v1'),
  kind: fc.constant('Deployment'),
  metadata: fc.record({
    name: fc.constant('web'),
    labels: fc.option(fc.dictionary(name, fc.constantFrom('1', '2')), { nil: undefined }),
    finalizers: fc.option(fc.array(fc.constantFrom('f1', 'f2'), { maxLength: 3 }), { nil: undefined }),
  }, { requiredKeys: ['name'] }),
  spec: fc.option(fc.record({
    replicas: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    selector: fc.option(fc.record({ matchLabels: fc.dictionary(name, fc.constant('1')) }), { nil: undefined }),
    template: fc.record({
      spec: fc.record({
        containers: fc.array(container, { maxLength: 3 }),
        nodeSelector: fc.option(fc.dictionary(name, scalar), { nil: undefined }),
      }),
    }),
  }), { nil: undefined }),
});

/**
 * A copy of `doc` with a few random edits, so that most subtrees stay equal, as between two renders of one object.
 * Its identity (`apiVersion`, `kind`, `metadata` itself, `metadata.name`) is never edited: a render always names its
 * object, and another name is another object. (fast-check seed 1234567, in place of the fixed one, deleted
 * `metadata.name`: `metadata: {}` on one side, `{ name: 'web' }` on the other, a map holding only an identity field,
 * which no render has.)
 */
function edited(doc: unknown, edits: ReadonlyArray<{ at: number; value: unknown }>): unknown {
  const copy = structuredClone(doc);
  const nodes: Array<{ parent: any; key: string | number }> = [];
  const visit = (parent: any, path: ReadonlyArray<string | number>) => {
    for (const k of Array.isArray(parent) ? parent.keys() : Object.keys(parent)) {
      const child = parent[k];
      if (!isIdentity([...path, k])) nodes.push({ parent, key: k });
      if (child !== null && typeof child === 'object') visit(child, [...path, k]);
    }
  };
  visit(copy, []);
  for (const { at, value } of edits) {
    if (nodes.length === 0) break;
    const { parent, key: k } = nodes[at % nodes.length];
    if (value === 'delete' && !Array.isArray(parent)) delete parent[k];
    else parent[k] = structuredClone(value);
  }
  return copy;
}

/** Whether `path` is the object's identity, or `metadata`, which holds it. */
function isIdentity(path: ReadonlyArray<string | number>): boolean {
  const at = path.join('.');
  return ['apiVersion', 'kind', 'metadata', 'metadata.name', 'metadata.namespace'].includes(at);
}

describe('changedLeaves, the leaves a write callback changed', () => {
  test('equals the plain definition (every leaf of both renders listed and compared) on generated Deployments and edits of them', () => {
    const topology = topologyOf('apps/v1', 'Deployment');
    const edits = fc.array(fc.record({ at: fc.nat(), value: fc.oneof(scalar, fc.constant('delete'), fc.constant({}), fc.constant([]), container, env) }), { maxLength: 4 });
    fc.assert(fc.property(deployment, edits, fc.boolean(), (before, changes, swap) => {
      const after = edited(before, changes);
      const [b, a] = swap ? [after, before] : [before, after];
      expect(key(changedLeaves(b, a, topology))).toEqual(key(reference(b, a, topology)));
    }), { numRuns: 400, seed: 20261204 });
  });

  test('the generated edits keep the object\'s identity, as two renders of one object do', () => {
    const edits = fc.array(fc.record({ at: fc.nat(), value: fc.oneof(scalar, fc.constant('delete'), fc.constant({}), fc.constant([]), container, env) }), { maxLength: 4 });
    fc.assert(fc.property(deployment, edits, (before, changes) => {
      const after = edited(before, changes) as typeof before;
      expect([after.apiVersion, after.kind, after.metadata.name]).toEqual(['apps/v1', 'Deployment', 'web']);
    }), { numRuns: 400, seed: 20261204 });
  });

  test('equals the plain definition on two unrelated Deployments, and on documents without a schema', () => {
    fc.assert(fc.property(deployment, deployment, (before, after) => {
      expect(key(changedLeaves(before, after, topologyOf('apps/v1', 'Deployment')))).toEqual(key(reference(before, after, topologyOf('apps/v1', 'Deployment'))));
      expect(key(changedLeaves(before, after, DEDUCED))).toEqual(key(reference(before, after, DEDUCED)));
    }), { numRuns: 300, seed: 20261204 });
  });

  test('read off a render delta (what a callback keeps), gives the leaves it gives for the two whole renders', () => {
    const topology = topologyOf('apps/v1', 'Deployment');
    const edits = fc.array(fc.record({ at: fc.nat(), value: fc.oneof(scalar, fc.constant('delete'), fc.constant({}), fc.constant([]), container, env) }), { maxLength: 4 });
    fc.assert(fc.property(deployment, edits, fc.boolean(), (before, changes, swap) => {
      const after = edited(before, changes);
      const [b, a] = swap ? [after, before] : [before, after];
      expect(key(deltaLeaves(renderDelta(b, a), topology))).toEqual(key(changedLeaves(b, a, topology)));
      expect(key(deltaLeaves(renderDelta(b, a), DEDUCED))).toEqual(key(changedLeaves(b, a, DEDUCED)));
    }), { numRuns: 400, seed: 20261204 });
  });

  test('a render delta holds only the changed part: one label added to a thousand is one change', () => {
    // GIVEN
    const labels = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v']));
    const before = { metadata: { name: 'x', labels }, data: { a: 'b' } };
    const after = { metadata: { name: 'x', labels: { ...labels, k1000: 'v' } }, data: { a: 'b' } };

    // WHEN / THEN
    expect(renderDelta(before, after)).toEqual([{ path: ['metadata', 'labels', 'k1000'], before: undefined, after: 'v' }]);
  });

  test('names exactly the leaves one env variable added to a container changes, and not the empty map a label filled (it blocks nobody)', () => {
    // GIVEN a render before and after a callback added an env variable and a label
    const topology = topologyOf('apps/v1', 'Deployment');
    const before = { metadata: { name: 'web', labels: {} }, spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }] }] } } } };
    const after = { metadata: { name: 'web', labels: { team: 'obs' } }, spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] } } } };

    // WHEN / THEN
    expect(key(changedLeaves(before, after, topology))).toEqual([
      'metadata.labels.team',
      'spec.template.spec.containers.k:{"name":"app"}.env.k:{"name":"B"}.value',
    ]);
  });
});
