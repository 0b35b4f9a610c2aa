import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting } from '../src';
import { withNodeFormatting } from './support/node-formatting';
import { check } from '../src/check/check';
import { ViolationCode } from '../src/check/finding';
import { defineRule } from '../src/check/rule';
import { cycleLabels } from '../src/check/rules/dependency-cycles';
import { MAX_NESTING_DEPTH, tooDeep } from '../src/check/rules/nesting-depth';
import type { ObjectFact, ReferenceFact } from '../src/collect/facts';
import { referenceEdges } from '../src/collect/graph/order-references';
import { existingOverrides } from '../src/collect/ledger/cloudformation-writes';
import { identityKey, ObjectIdentity } from '../src/collect/object-identity';

// Issue 22 item 8: no stack overflow on user-sized input. A spread (`push(...items)`) passes every item as an
// argument on the call stack and a recursion uses one frame per item or level: both overflow near 100,000.
// Nothing here is timed. The end-to-end synths run with Node's stack formatting, not jest's source-mapped one
// (withNodeFormatting): the creation sites are read as before, without mapping 150,000 stacks through a source map.

const N = 150_000;

function routingOf(): { app: ReturnType<typeof CapabilityTesting.app>; routing: RuntimeRouting } {
  const app = CapabilityTesting.app();
  return { app, routing: new RuntimeRouting(new Capability(app, 'cap'), 'Routing') };
}

describe('150,000 of everything, end to end', () => {
  test('150,000 objects with invalid names in one dependency cycle: 150,000 CAP010 and one CAP004 naming all of them, no crash', () => {
    // GIVEN 150,000 ConfigMaps named Bad_<i>, each depending on the one before, the first on the last
    const { violations } = withNodeFormatting(() => {
      const { app, routing } = routingOf();
      const objects: ApiObject[] = [];
      for (let i = 0; i < N; i++) {
        const o = new ApiObject(routing, `o${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `Bad_${i}`, namespace: 'x' } });
        if (i > 0) o.addDependency(objects[i - 1]);
        objects.push(o);
      }
      objects[0].addDependency(objects[N - 1]);

      // WHEN synthesized
      return CapabilityTesting.synth(app);
    });

    // THEN one refusal per name and one cycle through every object, and no internal error
    const byCode = new Map<string, number>();
    for (const v of violations) byCode.set(v.code, (byCode.get(v.code) ?? 0) + 1);
    expect(Object.fromEntries(byCode)).toEqual({ CAP004: 1, CAP010: N });
    const cycle = violations.find((v) => v.code === 'CAP004')!;
    expect(cycle.paths).toHaveLength(N);
    expect(cycle.message.startsWith('dependency cycle: cap/Routing/o0 => cap/Routing/o149999 => cap/Routing/o149998 => ')).toBe(true);
    expect(cycle.message).toContain(' => cap/Routing/o1 => cap/Routing/o0 (');
    expect(cycle.message).toMatch(/\)\. Remove one of these dependencies \(addDependency, or the reference that implies it\)\.$/);
    expect(violations.find((v) => v.paths[0] === 'cap/Routing/o149999' && v.code === 'CAP010')?.message).toMatch(/^invalid object: 'metadata\.name' \("Bad_149999"\) of ConfigMap x\/Bad_149999 declared by 'cap\/Routing\/o149999' must be a DNS-1123 subdomain/);
  });

  test('150,000 writers of one leaf: one CAP002 naming every writer, no crash', () => {
    // GIVEN one ConfigMap and 150,000 contributions that all write data.k
    const { violations } = withNodeFormatting(() => {
      const { app, routing } = routingOf();
      const target = new ApiObject(routing, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'x' } });
      for (let i = 0; i < N; i++) new Contribution(routing, `w${i}`, { target, fields: { data: { k: `v${i}` } } });

      // WHEN synthesized
      return CapabilityTesting.synth(app);
    });

    // THEN the conflict, with all writers
    expect(violations.map((v) => v.code)).toEqual(['CAP002']);
    expect(violations[0].paths).toHaveLength(N);
    expect(violations[0].message).toMatch(/^field conflict: 'cap\/Routing\/w0', 'cap\/Routing\/w1', .* and 'cap\/Routing\/w99999' all write data\.k of ConfigMap x\/cm\./);
  });
});

describe('nesting depth', () => {
  /** A manifest whose spec nests `levels` maps, `{ a: { a: ... 'x' } }`. */
  function nested(levels: number): { app: ReturnType<typeof CapabilityTesting.app> } {
    const { app, routing } = routingOf();
    let spec: unknown = 'x';
    for (let i = 0; i < levels; i++) spec = { a: spec };
    new ApiObject(routing, 'thing', { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'thing', namespace: 'x' }, spec });
    return { app };
  }

  test(`an object nested ${MAX_NESTING_DEPTH} levels deep (the manifest itself counted) is written`, () => {
    const { app } = nested(MAX_NESTING_DEPTH - 1);

    const result = CapabilityTesting.synth(app);

    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.map((o) => o.kind)).toEqual(['Thing']);
  });

  test('an object nested 2,500 levels deep (where the YAML writer would overflow) is refused with CAP010, not a crash', () => {
    const { app } = nested(2_500);

    const result = CapabilityTesting.synth(app);

    expect(result.violations).toEqual([expect.objectContaining({
      code: ViolationCode.INVALID_OBJECT,
      message: "invalid object: example.com/Thing x/thing declared by 'cap/Routing/thing' nests maps and lists more than 1000 levels deep (at 'spec.a.a.a.a.a...'); synth writes objects at most 1000 levels deep. Flatten the structure, for example into a JSON string.",
      paths: ['cap/Routing/thing'],
    })]);
  });

  test('the depth of 1,000,000 levels is measured without recursion, and the path to the first level too deep is returned', () => {
    let value: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) value = i % 2 === 0 ? [value] : { k: value };

    const path = tooDeep(value, 3);

    expect(path).toEqual(['k', '0', 'k']);
    expect(tooDeep({ a: [{}] }, 3)).toBeUndefined();
    expect(tooDeep({ a: [{ b: {} }] }, 3)).toEqual(['a', '0', 'b']);
  });
});

describe('the walks over user data, one at a time', () => {
  test('a rule that returns 150,000 findings: check returns them all, sorted', () => {
    const many = defineRule({
      code: ViolationCode.INVALID_OBJECT,
      title: 'many',
      explanation: 'a rule with many findings',
      run: () => Array.from({ length: N }, (_, i) => ({ message: `m${String(N - i).padStart(6, '0')}`, paths: [] })),
    });

    const found = check({ facts: {} as any, claims: [] }, [many]);

    expect(found).toHaveLength(N);
    expect([found[0].message, found[N - 1].message]).toEqual(['invalid object: m000001', 'invalid object: m150000']);
  });

  test('150,000 Deployments each reading a ConfigMap of the composition give 150,000 ordering edges', () => {
    const objects: ObjectFact[] = [];
    const references: ReferenceFact[] = [];
    const add = (identity: ObjectIdentity) =>
      objects.push({ path: `c/${identity.kind}-${identity.name}`, declarer: `c/${identity.name}`, chart: 'c', identity, key: identityKey(identity), manifest: {} }) - 1;
    for (let i = 0; i < N; i++) {
      const target = { group: '', kind: 'ConfigMap', namespace: 'x', name: `c${i}` };
      add(target);
      const from = add({ group: 'apps', kind: 'Deployment', namespace: 'x', name: `w${i}` });
      references.push({ from, target, field: 'spec.template.spec.volumes[name=config].configMap' });
    }

    const edges = referenceEdges(objects, references);

    expect(edges).toHaveLength(N);
    expect(edges[N - 1]).toEqual(expect.objectContaining({ before: 2 * N - 2, after: 2 * N - 1 }));
  });

  test('150,000 CloudFormation overrides, and overrides 10,000 levels deep, are read without recursion', () => {
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < N; i++) wide[`P${i}`] = i;
    let deep: Record<string, unknown> = { Leaf: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { N: deep };

    const calls = existingOverrides({ Properties: wide, Deep: deep });

    expect(calls).toHaveLength(N + 1);
    expect(calls[0]).toEqual({ path: ['Properties', 'P0'], value: 0 });
    expect(calls[N - 1]).toEqual({ path: ['Properties', `P${N - 1}`], value: N - 1 });
    expect(calls[N].path).toHaveLength(10_002);
    expect(calls[N].value).toBe('x');
  });

  test('a cycle of 150,000 objects is named in linear time: each construct once', () => {
    const cycle = Array.from({ length: N }, (_, i) => ({ label: `o${i}`, barrier: false }));

    const labels = cycleLabels(cycle);

    expect(labels).toHaveLength(N);
    expect([labels[0], labels[N - 1]]).toEqual(['o0', `o${N - 1}`]);
    expect(cycleLabels([{ label: 'a', barrier: false }, { label: 'b', barrier: false }, { label: 'c', barrier: false }, { label: 'b', barrier: false }])).toEqual(['b', 'c']);
  });
});
