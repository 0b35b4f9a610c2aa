import * as fs from 'fs';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Capability, CapabilityApp, Contribution, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { appOf, coded, lockedSeries, removeReleaseDirs, ReleaseSeries, withLockKey } from './release-fixtures';
import { capturingOutput, widgetCrd } from './util';
import { check } from '../src/check/check';
import type { Facts } from '../src/collect/facts';
import { parseLock, serializeLock } from '../src/release/lock';
import { MAX_LOCK_PROBLEMS } from '../src/release/lock-schema';
import { render } from '../src/render/render';
import { WRITERS } from '../src/render/writers';

afterAll(removeReleaseDirs);

const KEY = '0123456789abcdef0123456789abcdef';

/**
 * GIVEN-side builder of a lock that uses every part of the format: contract
 * Edge (published, consumed, read by Deployment web: readBy, binds), a
 * Namespace, a CRD and its custom resource (defines), a ConfigMap a
 * Contribution writes into (owners), a Secret (values masked, sensitive digests
 * with the key), a tenant stack, runtime writers of an object and of a kind
 * (runtimeWriters), and dependency edges between them.
 */
function shop(app: CapabilityApp): void {
  const capability = new Capability(app, 'shop');
  const edge = new InterfaceContract(capability, 'Edge', { version: '1.2.0', fields: { originHost: Field.dnsName(), tenantHeader: Field.string() } });
  const base = new SharedBase(capability, 'Base');
  edge.publish(base, { originHost: 'origin.example.com', tenantHeader: 'x-tenant-id' });
  new DeploymentAggregate(capability, 'acme');
  const routing = new RuntimeRouting(capability, 'Routing', { namespace: 'shop' });
  new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  widgetCrd(routing, 'WidgetCrd');
  new ApiObject(routing, 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'live' } });
  new Contribution(routing, 'Ops', { target: settings, fields: { data: { owner: 'ops' } } });
  new RuntimeWriter(routing, 'Zoner', { target: settings, fields: ['data.zone'], identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
  new RuntimeWriter(routing, 'Restarter', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.template.metadata.annotations["example.com/restartedAt"]'], identity: 'system:serviceaccount:ops:restarter' });
  new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { password: 'hunter2' } });
  new kplus.Deployment(routing, 'web', { containers: [{ image: 'ghcr.io/example/web:1.0.0', envVariables: { ORIGIN: edge.consume(routing).originHost.envValue() } }] });
}

/** The real lock of `shop`, written by an accepted release with a key, and the series it lives in. */
function lockedShop(): { series: ReleaseSeries; text: string } {
  const series = capturingOutput(() => withLockKey(KEY, () => lockedSeries(shop, undefined))).result;
  return { series, text: fs.readFileSync(series.lockFile, 'utf-8') };
}

const PREFIX = /^lock file: '[^']+' is not a cdk-capability lock: (.+)\. Restore the file from version control, correct it \(docs\/lock\.md\), or delete it to start a first release\.$/;

/** The JSON pointer a CAP014 names, and what it says. */
function pointerOf(message: string): string {
  const problem = PREFIX.exec(message)?.[1];
  if (problem === undefined) throw new Error(`not a CAP014 schema message: ${message}`);
  return /^(\/\S*|\(the whole file\))/.exec(problem)?.[1] ?? '';
}

const cases = (() => {
  const { series, text } = lockedShop();
  return { series, text, lock: withoutDigest(JSON.parse(text)) };
})();

/**
 * The lock without its contentDigest, which any edit would no longer match (a refusal of its own, test/lock-merge.test.ts):
 * these shapes are read as a lock written before the digest was recorded, so that its schema and rules judge them.
 */
function withoutDigest(lock: any): any {
  delete lock.contentDigest;
  return lock;
}

/** A copy of the real lock with `edit` applied. */
function edited(edit: (lock: any) => void): string {
  const lock = withoutDigest(JSON.parse(cases.text));
  edit(lock);
  return JSON.stringify(lock, undefined, 2);
}

/** Synthesizes `shop` against `text` as its lock file: the violations, as a user sees them. */
function synthAgainst(text: string): Array<{ code: string; message: string; paths: string[] }> {
  fs.writeFileSync(cases.series.lockFile, text);
  const app = appOf(cases.series);
  shop(app);
  return coded(withLockKey(KEY, () => app.synthesize()).violations);
}

const unit = (lock: any, label: string) => lock.units.find((u: any) => u.label === label);

/** The 40 hand-edited shapes: an edit of the real lock, and the JSON pointers of the CAP014s it gets (empty: accepted). */
const SHAPES: ReadonlyArray<readonly [string, () => string, readonly string[]]> = [
  ['formatVersion 0', () => edited((l) => (l.formatVersion = 0)), ['/formatVersion']],
  ['formatVersion "1"', () => edited((l) => (l.formatVersion = '1')), ['/formatVersion']],
  ['formatVersion missing', () => edited((l) => delete l.formatVersion), ['/formatVersion']],
  ['the whole file null', () => 'null', ['(the whole file)']],
  ['the whole file a list', () => '[]', ['(the whole file)']],
  ['units null', () => edited((l) => (l.units = null)), ['/units']],
  ['units an object', () => edited((l) => (l.units = {})), ['/units']],
  ['a unit null', () => edited((l) => (l.units[0] = null)), ['/units/0']],
  ['a digest a number', () => edited((l) => (l.units[0].digest = 7)), ['/units/0/digest']],
  ['a unit without its id', () => edited((l) => delete l.units[1].id), ['/units/1/id']],
  ['values a string', () => edited((l) => (unit(l, 'ConfigMap shop/settings').values = 'x')), ['/units/5/values']],
  ['groupKind a number', () => edited((l) => (unit(l, 'ConfigMap shop/settings').groupKind = 7)), ['/units/5/groupKind']],
  ['an owner not a construct path', () => edited((l) => (unit(l, 'ConfigMap shop/settings').owners = { 'data.owner': 1 })), ['/units/5/owners/data.owner']],
  ['a key the format does not have', () => edited((l) => (l.units[0].colour = 'blue')), ['/units/0/colour']],
  ['barriers of numbers', () => edited((l) => (l.barriers = [1])), ['/barriers/0']],
  ['an edge of one node', () => edited((l) => (l.edges[0] = [0])), ['/edges/0']],
  ['an edge to a node the graph does not have', () => edited((l) => (l.edges[0] = [0, 999, 'x'])), ['/edges/0/1']],
  ['an edge from -1', () => edited((l) => (l.edges[0][0] = -1)), ['/edges/0/0']],
  ['an edge from "0"', () => edited((l) => (l.edges[0][0] = '0')), ['/edges/0/0']],
  ['a contract version "1.0"', () => edited((l) => (l.interfaces[0].version = '1.0')), ['/interfaces/0/version']],
  ['a contract version "v1.2.0"', () => edited((l) => (l.interfaces[0].version = 'v1.2.0')), ['/interfaces/0/version']],
  ['schema null', () => edited((l) => (l.interfaces[0].schema = null)), ['/interfaces/0/schema']],
  ['fields null', () => edited((l) => (l.interfaces[0].fields = null)), ['/interfaces/0/fields']],
  ['readBy a string', () => edited((l) => (l.interfaces[0].fields.originHost.readBy = 'shop/Routing/web')), ['/interfaces/0/fields/originHost/readBy']],
  ['a schema property null', () => edited((l) => (l.interfaces[0].schema.properties.originHost = null)), ['/interfaces/0/schema/properties/originHost']],
  ['two units with one id', () => edited((l) => (l.units[1].id = l.units[0].id)), ['/units/1/id']],
  ['one contract major twice (a bad merge)', () => edited((l) => l.interfaces.push(l.interfaces[0])), ['/interfaces/1']],
  ['two majors of one contract side by side', () => edited((l) => l.interfaces.push({ ...l.interfaces[0], version: '2.0.0', parameter: { ...l.interfaces[0].parameter, name: '/cdk-capability/shop/edge/v2' } })), []],
  ['a UTF-8 byte-order mark before the lock', () => `\uFEFF${cases.text}`, []],
  ['CRLF line endings', () => cases.text.replace(/\n/g, '\r\n'), []],
  ['a prerelease contract version "1.2.0-rc.1" (lower: a backwards version, CAP007, not CAP014)', () => edited((l) => (l.interfaces[0].version = '1.2.0-rc.1')), []],
  ['a field manager over the API server\'s 128 characters', () => edited((l) => (l.units[5].writers[0].manager = 'm'.repeat(129))), ['/units/5/writers/0/manager']],
  ['a writer\'s fields not in the fieldsV1 form', () => edited((l) => (l.units[5].writers[0].fields = { spec: {} })), ['/units/5/writers/0/fields']],
  ['a lock from before runtime writers were recorded (no runtimeWriters, no runtime writer in the writers)', () => edited((l) => {
    delete l.runtimeWriters;
    for (const u of l.units) if (u.writers) u.writers = u.writers.filter((w: any) => w.kind !== 'runtime');
  }), []],
  ['a runtime writer without its manager', () => edited((l) => delete l.runtimeWriters[0].manager), ['/runtimeWriters/0/manager']],
  ['a runtime writer\'s identity empty', () => edited((l) => (l.runtimeWriters[0].identity = '')), ['/runtimeWriters/0/identity']],
  ['a runtime writer\'s field a number', () => edited((l) => (l.runtimeWriters[0].fields = [7])), ['/runtimeWriters/0/fields/0']],
  ['runtimeWriters an object', () => edited((l) => (l.runtimeWriters = {})), ['/runtimeWriters']],
  ['a runtime writer\'s target of neither form', () => edited((l) => (l.runtimeWriters[0].target = { kind: 'Deployment' })), [
    '/runtimeWriters/0/target',
    '/runtimeWriters/0/target/kind',
    '/runtimeWriters/0/target/label',
    '/runtimeWriters/0/target/object',
  ]],
  ['a runtime writer\'s target of both forms', () => edited((l) => (l.runtimeWriters[0].target.groupKind = '/ConfigMap')), ['/runtimeWriters/0/target', '/runtimeWriters/0/target']],
];

describe('a hand-edited lock: each of 40 shapes is a coded refusal naming its JSON pointer, or accepted', () => {
  test('the real lock uses every part of the format and is accepted as it is', () => {
    // GIVEN the real lock
    const units = cases.lock.units;

    // THEN it holds what the shapes edit, and the same composition against it changes nothing
    expect(units.map((u: any) => u.label)).toContain('ConfigMap shop/settings');
    expect(units.indexOf(unit(cases.lock, 'ConfigMap shop/settings'))).toBe(5);
    expect(['binds', 'defines', 'owners', 'sensitive', 'namespaceName', 'stackName', 'writers'].filter((key) => !units.some((u: any) => key in u))).toEqual([]);
    expect(cases.lock.runtimeWriters.map((w: any) => Object.keys(w.target))).toEqual([['object', 'label'], ['groupKind']]);
    expect(cases.lock.sensitiveKeyId).toMatch(/^[0-9a-f]{16}$/);
    expect(synthAgainst(cases.text)).toEqual([]);
  });

  test.each(SHAPES.map(([name, text, pointers]) => [name, text, pointers] as const))('%s', (_, text, pointers) => {
    // WHEN the composition is synthesized against the edited lock
    const violations = synthAgainst(text());

    // THEN each violation is a CAP014 (never CAP000) naming the expected pointer, or none: accepted
    expect(violations.filter((v) => v.code === 'CAP000')).toEqual([]);
    if (pointers.length === 0) {
      expect(violations.filter((v) => v.code === 'CAP014')).toEqual([]);
    } else {
      expect(violations.map((v) => v.code)).toEqual(pointers.map(() => 'CAP014'));
      expect(violations.map((v) => pointerOf(v.message))).toEqual(pointers);
    }
  });

  test('the messages say what was found and what was expected', () => {
    // WHEN a contract version "1.0", a missing key, a null schema, a runtime writer's empty identity and its target of both forms are read
    const messages = [
      edited((l) => (l.interfaces[0].version = '1.0')),
      edited((l) => delete l.barriers),
      edited((l) => (l.interfaces[0].schema = null)),
      edited((l) => (l.runtimeWriters[0].identity = '')),
      edited((l) => (l.runtimeWriters[1].target.label = 'x')),
    ].map((t) => PREFIX.exec(synthAgainst(t)[0].message)?.[1]);

    // THEN each names the pointer, the value and the expectation
    expect(messages).toEqual([
      '/interfaces/0/version ("1.0") must be a semver version such as "1.2.0"',
      '/barriers is missing',
      '/interfaces/0/schema (null) must be an object',
      '/runtimeWriters/0/identity ("") must be the Kubernetes username it writes as, such as system:serviceaccount:netop-system:netop',
      '/runtimeWriters/1/target ({"groupKind":"apps/Deployment","label":"x"}) must be the kind of every object it writes alone, { "groupKind": "<group>/<Kind>" }',
    ]);
  });

  test('a runtime writer\'s field that is no field path is refused naming the writer, the field and where it stops', () => {
    // WHEN a runtime writer's field is cut short, empty, or has two dots
    const messages = [
      edited((l) => (l.runtimeWriters[0].fields = ['spec[name='])),
      edited((l) => (l.runtimeWriters[0].fields = [''])),
      edited((l) => (l.runtimeWriters[1].fields = ['data.zone', 'spec..x'])),
    ].map((t) => synthAgainst(t).map((v) => `${v.code} ${PREFIX.exec(v.message)?.[1]}`));

    // THEN each is one CAP014 naming the pointer, the runtime writer, the field and what the path parser expected there
    expect(messages).toEqual([
      ['CAP014 /runtimeWriters/0/fields/0 ("spec[name=") of the runtime writer \'shop/Routing/Zoner\' must be a field path such as spec.replicas: expected a value (quote it as a JSON string when it is empty or holds "," or "]") at the end of the path'],
      ['CAP014 /runtimeWriters/0/fields/0 ("") must be a leaf in the ledger\'s path syntax, such as spec.domains'],
      ['CAP014 /runtimeWriters/1/fields/1 ("spec..x") of the runtime writer \'shop/Routing/Restarter\' must be a field path such as spec.replicas: expected a field name (letters, digits, "_") after "." at character 6'],
    ]);
  });

  test('one contract major recorded twice is refused naming both records, not read as a major this release removes (CAP008)', () => {
    // WHEN the lock holds major 1 of shop/Edge twice, as a bad merge leaves it, at another minor
    const violations = synthAgainst(edited((l) => l.interfaces.push({ ...l.interfaces[0], version: '1.1.0' })));

    // THEN one CAP014 names the second record, its major and the first record
    expect(violations.map((v) => `${v.code} ${PREFIX.exec(v.message)?.[1]}`)).toEqual([
      'CAP014 /interfaces/1 (major 1 of "shop/Edge", "1.1.0") must be the only record of its major, but /interfaces/0 ("1.2.0") records it too',
    ]);
  });

  test(`a lock broken in many places gets at most ${MAX_LOCK_PROBLEMS} refusals, the last counting the rest`, () => {
    // GIVEN a lock with 40 more units, each of a digest that is a number
    const text = edited((l) => {
      for (let i = 0; i < 40; i++) l.units.push({ ...l.units[0], id: `stack:copy-${i}`, digest: i });
    });
    const { problems } = parseLock(text, 'capability.lock.json');

    // THEN at most the maximum, the last one a count
    expect(problems).toHaveLength(MAX_LOCK_PROBLEMS);
    expect(problems[MAX_LOCK_PROBLEMS - 1]).toMatch(/is not a cdk-capability lock: and \d+ more problems like these\./);
  });
});

/** One mutation of a JSON document: where (a path of keys and indexes) and what. */
type Mutation = { readonly at: readonly number[]; readonly kind: 'replace'; readonly value: unknown } | { readonly at: readonly number[]; readonly kind: 'delete' | 'add-key' | 'duplicate' };

/** Values a hand edit or a bad merge leaves: wrong types, null, empty, near-miss versions and indexes. */
const NASTY = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 7, 1e9, true, '', 'x', '1.0', 'v1.2.0', '1.2.0', [], {}, [0], ['x'], { a: 1 }, 'object:|ConfigMap|shop|settings'),
  fc.jsonValue({ maxDepth: 2 }),
);

const MUTATION: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.array(fc.nat(), { maxLength: 7 }), kind: fc.constant('replace' as const), value: NASTY }),
  fc.record({ at: fc.array(fc.nat(), { minLength: 1, maxLength: 7 }), kind: fc.constantFrom('delete' as const, 'add-key' as const, 'duplicate' as const) }),
);

/** Applies a mutation to a copy of `doc`: each number of `at` picks a child (modulo the count), stopping at a leaf. */
function mutate(doc: unknown, m: Mutation): unknown {
  const root = JSON.parse(JSON.stringify(doc));
  let parent: any;
  let key: string | number | undefined;
  let node: any = root;
  for (const pick of m.at) {
    if (node === null || typeof node !== 'object') break;
    const keys: Array<string | number> = Array.isArray(node) ? node.map((_: unknown, i: number) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node;
    key = keys[pick % keys.length];
    node = node[key];
  }
  if (m.kind === 'replace') {
    if (parent === undefined) return m.value;
    parent[key!] = m.value;
  } else if (parent !== undefined) {
    if (m.kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key!];
    } else if (m.kind === 'add-key') {
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) node.unexpected = 1;
      else parent[key!] = { unexpected: node };
    } else if (Array.isArray(parent)) {
      parent.push(JSON.parse(JSON.stringify(node ?? null)));
    }
  }
  return root;
}

/** The value a JSON pointer names in `doc`, and whether it names one. */
function resolve(doc: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === '(the whole file)' || pointer === '') return { found: true, value: doc };
  let node: any = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(part in node)) return { found: false };
    node = node[part];
  }
  return { found: true, value: node };
}

/**
 * Whether a problem's JSON pointer names a value of `doc` (for a missing or
 * unknown key, its parent): the pointer is what comes before ` is missing`,
 * ` is not part of the lock format`, ` has the key` (a key the map may not
 * hold), or one of the ` (` that quote the value (a key may hold spaces and
 * parentheses, so each is tried).
 */
function namesWhatIsThere(doc: unknown, problem: string): boolean {
  const key = / is (missing|not part of the lock format)$/.exec(problem);
  if (key) {
    const pointer = problem.slice(0, key.index);
    return resolve(doc, pointer.slice(0, pointer.lastIndexOf('/'))).found;
  }
  if (problem.startsWith('(the whole file)')) return true;
  // a key a map may not hold (the schema's propertyNames): the pointer names the map
  const named = / has the key /.exec(problem);
  if (named && resolve(doc, problem.slice(0, named.index)).found) return true;
  for (let i = problem.indexOf(' ('); i !== -1; i = problem.indexOf(' (', i + 1)) if (resolve(doc, problem.slice(0, i)).found) return true;
  return false;
}

describe('mutations of a valid lock (property)', () => {
  // the facts of the composition the lock was written by, collected once; each case checks and renders against a mutated lock
  const facts: Facts = (() => {
    const app = appOf(cases.series);
    shop(app);
    return withLockKey(KEY, () => app.synthesize()).facts!;
  })();

  test('every mutation is accepted and checked without a crash, or refused with CAP014s whose pointers exist in the file', () => {
    const outcomes = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(MUTATION, fc.boolean(), (m, bom) => {
        // GIVEN the real lock, mutated, maybe behind a byte-order mark
        const doc = mutate(cases.lock, m);
        const text = `${bom ? '\uFEFF' : ''}${JSON.stringify(doc, undefined, 2)}`;

        // WHEN it is read as synth reads it
        const { lock, problems } = parseLock(text, 'capability.lock.json');

        // THEN refused: every problem names a pointer the file has (or, for a missing or unknown key, its parent)
        if (!lock) {
          outcomes.refused++;
          expect(problems.length).toBeGreaterThan(0);
          for (const p of problems) {
            // a formatVersion above this version's: one refusal that names the format, not a pointer
            if (/was written by a newer version of cdk-capability \(lock format (\d+);/.exec(p)?.[1] === String((doc as any)?.formatVersion)) continue;
            const problem = /is not a cdk-capability lock: (.+)\. Restore/.exec(p)?.[1] ?? '';
            if (/^and \d+ more/.test(problem)) continue;
            expect({ problem, found: namesWhatIsThere(doc, problem) }).toEqual({ problem, found: true });
          }
          const findings = check({ facts, lockProblems: problems, claims: [] });
          expect(findings.filter((f) => f.code === 'CAP000')).toEqual([]);
          expect(findings.filter((f) => f.code === 'CAP014').length).toBe(problems.length);
          return;
        }
        // OR accepted: every rule runs against it and the release renders, with no crash
        outcomes.accepted++;
        const findings = check({ facts, previous: lock, claims: [] });
        expect(findings.filter((f) => f.code === 'CAP000').map((f) => f.message)).toEqual([]);
        if (!findings.some((f) => f.severity === 'error')) {
          const { context } = render(facts, lock, WRITERS);
          expect(parseLock(serializeLock(context.lock), 'next').problems).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
    // both outcomes occur, so the property tests both branches
    expect(outcomes.accepted).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(10);
  });

  test('a lock written by synth always satisfies the schema (the writer and the schema agree)', () => {
    // WHEN the lock of this release is serialized and read back
    const { lock, problems } = parseLock(cases.text, 'capability.lock.json');

    // THEN accepted, and the same JSON
    expect(problems).toEqual([]);
    expect(serializeLock(lock!)).toBe(cases.text);
  });
});
