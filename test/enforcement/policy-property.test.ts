// Property: over generated compositions (an ApplicationDeployment whose leaves are split at random
// between the deployer and one or two runtime writers) and random updates by random identities, the
// emitted policy allows an update exactly when every changed owned leaf is changed by its owner. The
// oracle below computes the change of each leaf in TypeScript, from the generator's own list of
// leaves, independently of the ledger's topology code and of the CEL.
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { admit, Request } from './admission';
import { APPLICATION_DEPLOYMENT_CRD, DEPLOYER, STRANGER } from './fixtures';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../../src';

/** A step of a leaf's path: a field, the `entityConfigurations` element with this name, or a value of a set. */
type Step = string | { readonly name: string } | { readonly member: string };

interface Leaf {
  readonly text: string;
  readonly path: readonly Step[];
  /** Only the node's existence is owned (a set value). */
  readonly presence?: true;
  /** Values a write may give it (a few, so that rewriting a value unchanged happens often). */
  readonly values: readonly unknown[];
}

const element = (name: string) => ({ name });
const LEAVES: readonly Leaf[] = [
  { text: 'spec.applicationId', path: ['spec', 'applicationId'], values: ['app1', 'app2'] },
  { text: 'spec.image', path: ['spec', 'image'], values: ['web:1', 'web:2'] },
  { text: 'spec.timers.publishTimeout', path: ['spec', 'timers', 'publishTimeout'], values: ['5m', '10m'] },
  { text: 'spec.timers.rolloutTimeout', path: ['spec', 'timers', 'rolloutTimeout'], values: ['1m', '2m'] },
  { text: 'spec.entityConfigurations[name=orders].replicas', path: ['spec', 'entityConfigurations', element('orders'), 'replicas'], values: [1, 2] },
  { text: 'spec.entityConfigurations[name=orders].region', path: ['spec', 'entityConfigurations', element('orders'), 'region'], values: ['eu', 'us'] },
  { text: 'spec.entityConfigurations[name=billing].replicas', path: ['spec', 'entityConfigurations', element('billing'), 'replicas'], values: [1, 3] },
  { text: 'spec.routeTables', path: ['spec', 'routeTables'], values: [[{ name: 'main' }], [{ name: 'main' }, { name: 'edge' }]] },
  { text: 'spec.domains', path: ['spec', 'domains'], values: [['a.example.com'], ['a.example.com', 'b.example.com']] },
  { text: 'metadata.labels.team', path: ['metadata', 'labels', 'team'], values: ['shop', 'edge'] },
  { text: 'metadata.labels["example.com/tier"]', path: ['metadata', 'labels', 'example.com/tier'], values: ['gold', 'silver'] },
  { text: 'metadata.finalizers[=example.com/protect]', path: ['metadata', 'finalizers', { member: 'example.com/protect' }], presence: true, values: [true] },
];

/** Paths nobody owns, which updates also touch. */
const UNOWNED: readonly Leaf[] = [
  { text: 'status.phase', path: ['status', 'phase'], values: ['Ready', 'Degraded'] },
  { text: 'metadata.annotations.note', path: ['metadata', 'annotations', 'note'], values: ['x', 'y'] },
  { text: 'spec.entityConfigurations[name=audit].replicas', path: ['spec', 'entityConfigurations', element('audit'), 'replicas'], values: [1] },
  { text: 'metadata.finalizers[=other.example.com/hold]', path: ['metadata', 'finalizers', { member: 'other.example.com/hold' }], presence: true, values: [true] },
];

const WRITERS = ['system:serviceaccount:netop-system:netop', 'system:serviceaccount:mesh-system:injector'];

function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Writes `value` at `path`, making the maps, list elements and set values on the way. */
function setAt(target: any, path: readonly Step[], value: unknown): void {
  let node = target;
  path.forEach((step, i) => {
    const last = i === path.length - 1;
    const next = path[i + 1];
    if (typeof step === 'string') {
      if (last) {
        node[step] = structuredClone(value);
        return;
      }
      const container = typeof next === 'string' ? {} : [];
      if (!isObject(node[step]) && !Array.isArray(node[step])) node[step] = container;
      node = node[step];
    } else if ('member' in step) {
      if (!node.includes(step.member)) node.push(step.member);
    } else {
      let e = node.find((x: any) => x?.name === step.name);
      if (!e) {
        e = { name: step.name };
        node.push(e);
      }
      node = e;
    }
  });
}

/** Removes what is at `path` (a field, every element with the name, a set value). */
function removeAt(target: any, path: readonly Step[]): void {
  const parent = holdersAt(target, path.slice(0, -1));
  const step = path[path.length - 1];
  for (const p of parent) {
    if (typeof step === 'string') {
      if (isObject(p)) delete p[step];
    } else if (Array.isArray(p)) {
      const keep = p.filter((x: any) => ('member' in step ? x !== step.member : x?.name !== step.name));
      p.splice(0, p.length, ...keep);
    }
  }
}

/** Every node at `path` (list elements with the name, in list order); null and absent alike give none. */
function holdersAt(target: any, path: readonly Step[]): any[] {
  let nodes: any[] = [target];
  for (const step of path) {
    const next: any[] = [];
    for (const n of nodes) {
      if (typeof step === 'string') {
        if (isObject(n) && n[step] !== undefined && n[step] !== null) next.push(n[step]);
      } else if (Array.isArray(n)) {
        for (const x of n) if ('member' in step ? x === step.member : isObject(x) && x.name === step.name) next.push(x);
      }
    }
    nodes = next;
  }
  return nodes;
}

/** The oracle: did the leaf change? Presence leaves by count, others by value (JSON, in order). */
function changed(leaf: Leaf, before: any, after: any): boolean {
  const was = holdersAt(before ?? {}, leaf.path);
  const is = holdersAt(after ?? {}, leaf.path);
  if (leaf.presence) return was.length !== is.length;
  return JSON.stringify(was) !== JSON.stringify(is);
}

interface Case {
  /** Per leaf index: -1 not written, 0 the deployer, 1.. runtime writer n-1. */
  readonly owners: number[];
  readonly writers: number;
  readonly initial: number[];
  readonly mutations: Array<{ leaf: number; op: 'set' | 'remove' | 'null'; value: number; unowned: boolean }>;
  readonly shuffle: boolean;
  readonly requester: number;
}

const cases: fc.Arbitrary<Case> = fc.record({
  owners: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: LEAVES.length, maxLength: LEAVES.length }),
  writers: fc.integer({ min: 1, max: 2 }),
  initial: fc.array(fc.nat(1), { minLength: LEAVES.length, maxLength: LEAVES.length }),
  mutations: fc.array(
    fc.record({ leaf: fc.nat(LEAVES.length - 1), op: fc.constantFrom('set' as const, 'remove' as const, 'null' as const), value: fc.nat(1), unowned: fc.boolean() }),
    { minLength: 0, maxLength: 4 },
  ),
  shuffle: fc.boolean(),
  requester: fc.nat(3),
}).filter((c) => c.owners.some((o) => o === 0));

function ownerOf(c: Case, i: number): number {
  const o = c.owners[i];
  return o > c.writers ? 0 : o; // a writer beyond the count is the deployer's
}

/**
 * The owned leaves of a case, each with its owner: as the generator wrote them,
 * except that the values of a set the deployer declares are owned one by one
 * (`spec.domains` is a set in the CRD); a runtime writer declares the set whole.
 */
function ownedLeaves(c: Case): Array<{ leaf: Leaf; owner: number }> {
  return LEAVES.flatMap((leaf, i) => {
    const owner = ownerOf(c, i);
    if (owner < 0) return [];
    if (owner > 0 || leaf.text !== 'spec.domains') return [{ leaf, owner }];
    const values = leaf.values[c.initial[i] % leaf.values.length] as string[];
    return values.map((v) => ({ leaf: { text: `spec.domains[=${v}]`, path: ['spec', 'domains', { member: v }], presence: true as const, values: [true] }, owner }));
  });
}

function identities(c: Case): string[] {
  return [DEPLOYER, ...WRITERS.slice(0, c.writers), STRANGER];
}

/** The composition of a case, synthesized: its policies. */
function policiesFor(c: Case): any[] {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  new ApiObject(routing, 'Crd', APPLICATION_DEPLOYMENT_CRD);
  const manifest: any = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} };
  LEAVES.forEach((leaf, i) => ownerOf(c, i) === 0 && setAt(manifest, leaf.path, leaf.values[c.initial[i] % leaf.values.length]));
  const object = new ApiObject(new Construct(routing, 'Pipeline'), 'App1', manifest);
  for (let w = 1; w <= c.writers; w++) {
    const fields = LEAVES.filter((_, i) => ownerOf(c, i) === w).map((l) => l.text);
    if (fields.length > 0) new RuntimeWriter(routing, `Writer${w}`, { target: object, fields, identity: WRITERS[w - 1] });
  }
  const result = CapabilityTesting.synth(app);
  if (result.violations.length > 0) throw new Error(result.violations.map((v) => v.message).join('\n'));
  return result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
}

/** The object in the cluster: every owned leaf written (runtime writers' too), plus fields nobody owns. */
function liveObject(c: Case): any {
  const o: any = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {}, status: { phase: 'Ready' } };
  LEAVES.forEach((leaf, i) => ownerOf(c, i) >= 0 && setAt(o, leaf.path, leaf.values[c.initial[i] % leaf.values.length]));
  setAt(o, UNOWNED[1].path, 'x');
  return o;
}

function mutate(c: Case, before: any): any {
  const after = structuredClone(before);
  for (const m of c.mutations) {
    const leaf = m.unowned ? UNOWNED[m.leaf % UNOWNED.length] : LEAVES[m.leaf];
    if (m.op === 'set') {setAt(after, leaf.path, leaf.values[m.value % leaf.values.length]);} else if (m.op === 'remove') {removeAt(after, leaf.path);} else if (typeof leaf.path[leaf.path.length - 1] === 'string') {
      const parents = holdersAt(after, leaf.path.slice(0, -1));
      for (const p of parents) if (isObject(p)) p[leaf.path[leaf.path.length - 1] as string] = null;
    }
  }
  if (c.shuffle && Array.isArray(after.spec?.entityConfigurations)) after.spec.entityConfigurations.reverse();
  return after;
}

test('the policy allows an update exactly when every changed owned leaf is changed by its owner', () => {
  let denied = 0;
  let allowed = 0;
  fc.assert(
    fc.property(cases, (c) => {
      // GIVEN
      const policies = policiesFor(c);
      const before = liveObject(c);
      const after = mutate(c, before);
      const who = identities(c);
      const requester = who[c.requester % who.length];
      const request: Request = { operation: 'UPDATE', username: requester, group: 'apps.example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'apps', name: 'app1', object: after, oldObject: before };

      // WHEN
      const decision = admit(policies, request);

      // THEN the oracle agrees, and the denial names exactly the leaves changed by someone else than their owner
      const offending = ownedLeaves(c)
        .filter(({ leaf, owner }) => changed(leaf, before, after) && who[owner] !== requester)
        .map(({ leaf }) => leaf.text);
      expect({ allowed: decision.allowed, offending: offending.length > 0 ? decision.failures.flatMap((f) => f.split(' of ')[0].split(', ')).sort() : [] })
        .toEqual({ allowed: offending.length === 0, offending: [...offending].sort() });
      if (decision.allowed) allowed++;
      else denied++;
    }),
    { numRuns: 150, seed: 24_2024 },
  );
  // both verdicts were exercised
  process.stdout.write(`field-ownership property: ${allowed} updates allowed, ${denied} denied\n`);
  expect(Math.min(allowed, denied)).toBeGreaterThan(20);
});
