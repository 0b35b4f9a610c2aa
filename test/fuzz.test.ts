import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Manifest } from 'aws-cdk-lib/cloud-assembly-schema';
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct, IConstruct } from 'constructs';
import * as fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, CompositionError, Contribution, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';

/**
 * Fuzzing synth: random compositions with odd names, random dependencies,
 * contributions, JSON patches, labels and secrets, synthesized into an outdir
 * that may already hold someone else's files (or a file, a link, a hand-edited
 * lock). Whatever the composition, synth either writes its output or throws a
 * CompositionError whose every violation carries a user-facing code (never
 * CAP000, the internal error: a crash fails the case), a refusal leaves what
 * was there byte for byte, nothing is ever written outside the outdir, and an
 * accepted output re-parses (YAML, JSON, the cloud assembly's schema), holds no
 * token text, and is byte-identical when the program is synthesized again.
 *
 * Ids here are ones the constructors accept; what constructors refuse is
 * covered by the construction-time property at the end.
 */

const CODE = /^CAP0(0[1-9]|1[014])$/;
// Case counts; raise them for a longer hunt. FUZZ_DEBUG=<file> appends every violation message and its recipe there.
const RUNTIME_RUNS = Number(process.env.FUZZ_RUNTIME_RUNS ?? 1000);
const DEPLOY_RUNS = Number(process.env.FUZZ_DEPLOY_RUNS ?? 100);
const CONSTRUCTION_RUNS = Number(process.env.FUZZ_CONSTRUCTION_RUNS ?? 1000);

// ---------------------------------------------------------------------------
// Arbitraries: recipes are plain data, so a failing case prints readably.

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** Construct ids every constructor here accepts, and that are still odd. */
const oddId = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('..', '.', '../..', '../../etc/passwd', '/etc/passwd', '/', 'C:\\Windows\\System32', '\\\\server\\share', 'CON', 'nul', 'aux.txt', 'COM1', ' ', '-', '~', '$HOME', '%2e%2e%2f', 'a\u0000b', '\u202eevil', '🚀', 'été', '中文', '\t\n', 'Resource', 'Default') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 5 }).map((s) => s.repeat(Math.ceil(300 / s.length)).slice(0, 300)) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z][a-z0-9]{0,8}$/) },
);

/** Capability ids: aws-cdk Stage names (a letter, then letters, digits, '-', '_', '.'), odd ones included. */
const capabilityId = fc.oneof(
  fc.constantFrom('CON', 'nul', 'a..', 'A-', 'x.', 'a_b', 'Z', 'cdn', `C${'x'.repeat(299)}`),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9\-_.]{0,30}$/),
);

/** Capability and stack ids of deploy-time compositions: their `<capability>-<stack>` stack names must be valid. */
const stackSafeId = fc.oneof(fc.constantFrom('CON', 'nul', 'aux', 'Base', 'acme', 'a-b'), fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/));

const validName = fc.oneof(fc.constantFrom('web', 'settings', 'edge', 'a.b', 'x-1'), fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/));
const oddName = fc.oneof(fc.constantFrom('', '..', '../../escape', '/etc/passwd', 'My_App', 'CON', 'a'.repeat(254), 'd'.repeat(64), '-x', 'x.'), fc.string({ maxLength: 20 }));
const dataValue = fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 20 }) }, { weight: 1, arbitrary: fc.constantFrom(AWS_KEY, PEM, `key=${AWS_KEY}`) });

/**
 * The recipe arbitraries. A clean composition keeps names, namespaces, labels
 * and contributed shapes valid (its ids stay odd), so about half the cases get
 * through every check and are written; the others draw odd values too.
 */
function arbitraries(clean: boolean) {
  /** `valid`, or in a chaotic composition now and then `odd`. */
  const sometimes = <T>(valid: fc.Arbitrary<T>, ...odd: Array<fc.Arbitrary<T>>): fc.Arbitrary<T> =>
    clean ? valid : fc.oneof({ weight: 6, arbitrary: valid }, ...odd.map((arbitrary) => ({ weight: 1, arbitrary })));
  // fast-check may build maps without a prototype, which cdk8s cannot render ("reading 'name'"): only in chaos
  const dictionary = <T>(key: fc.Arbitrary<string>, value: fc.Arbitrary<T>, maxKeys: number) =>
    fc.dictionary(key, value, { maxKeys, noNullPrototype: clean });
  const data = dictionary(fc.oneof(fc.constantFrom('config', 'a.b', 'k'), fc.string({ minLength: 1, maxLength: 10 })), dataValue, 3);

  // cdk8s derives a missing name from the construct path, keeping '.' and '_' of odd ids: often invalid, so only chaos leaves it out
  const objectName = clean ? validName : fc.option(sometimes(validName, oddName), { nil: undefined });
  const namespace = fc.option(sometimes(fc.constantFrom('edge', 'default', 'kube-system'), oddName), { nil: undefined, freq: 2 });
  const labelKey = sometimes(
    fc.constantFrom('app', 'app.kubernetes.io/name', 'example.com/team', 'tier'),
    fc.constantFrom('a/b/c', 'Example.com/x', '-bad', `k${'k'.repeat(63)}`, 'x/', '/x', '../x'),
    fc.string({ minLength: 1, maxLength: 15 }),
  );
  const labelValue = sometimes(fc.constantFrom('', 'v1', 'web', 'Edge_1.0'), fc.constantFrom('has space', 'v'.repeat(64), '-x', 'x-'), fc.string({ maxLength: 15 }));
  const labels = dictionary(labelKey, labelValue, 2);
  const annotations = dictionary(labelKey, fc.string({ maxLength: 20 }), 2);

  /** JSON patches on an object: additions of data and labels, replacements, removals, and paths that do not exist. */
  const patchRecipe = fc.record({
    op: sometimes(fc.constant('add'), fc.constantFrom('replace', 'remove')),
    path: sometimes(
      fc.constantFrom('/metadata/annotations'),
      fc.constantFrom('/metadata/labels/patched', '/data/patched', '/spec/replicas', '/metadata/name', '/nope/deeper', '/data', '/kind', '/status/phase'),
    ),
    value: sometimes<unknown>(fc.constant({ 'example.com/patched': 'yes' }), fc.jsonValue({ maxDepth: 1 })),
  });

  const objectRecipe = fc.record({
    type: fc.constantFrom('configmap', 'configmap', 'deployment', 'custom', 'secret'),
    id: oddId,
    name: objectName,
    namespace,
    labels,
    annotations,
    data,
    image: fc.constantFrom('nginx', 'nginx:1.27', 'registry.example.com/edge/router@sha256:abc'),
    containers: fc.integer({ min: clean ? 1 : 0, max: 2 }),
    patches: fc.array(patchRecipe, { maxLength: 1 }),
  });

  const chartRecipe = fc.record({
    id: oddId,
    routing: fc.boolean(), // RuntimeRouting under a capability, else a plain cdk8s Chart under the app
    namespace: fc.option(sometimes(fc.constant('edge'), fc.constantFrom('Edge', 'team.a')), { nil: undefined, freq: 3 }),
    objects: fc.array(objectRecipe, { maxLength: 3 }),
  });

  /** Partial manifests a Contribution writes: plausible, conflicting, status, and shapes that make no sense. */
  const contributedFields: fc.Arbitrary<Record<string, unknown>> = sometimes<Record<string, unknown>>(
    fc.oneof(
      fc.record({ data }),
      fc.record({ metadata: fc.record({ labels }) }),
      fc.record({ metadata: fc.record({ annotations }) }),
      fc.record({ spec: fc.record({ replicas: fc.integer({ min: 0, max: 5 }) }) }),
    ),
    fc.record({ status: fc.record({ phase: fc.string({ maxLength: 5 }) }) }),
    fc.constantFrom<Record<string, unknown>>(
      { metadata: 'not-a-map' },
      { metadata: { name: 'renamed' } },
      { data: null },
      { kind: 'Secret' },
      { spec: { template: { spec: { containers: [{ name: 'main', image: 'x' }] } } } },
      { spec: { template: { spec: { containers: 'not-a-list' } } } },
    ),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }) as fc.Arbitrary<Record<string, unknown>>,
  );

  const contributionRecipe = fc.record({ id: oddId, writer: fc.nat(), target: fc.nat(), fields: contributedFields });
  const dependencies = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: clean ? 1 : 3 });

  const runtimeComposition = fc.record({
    before: sometimes(fc.constantFrom<OutdirBefore>('absent', 'absent', 'empty'), fc.constantFrom<OutdirBefore>('foreign', 'file', 'symlink', 'lock-garbage', 'lock-old-version', 'lock-null-schema')),
    capabilities: fc.array(
      fc.record({ id: capabilityId, charts: fc.array(chartRecipe, { minLength: 1, maxLength: 2 }) }),
      { minLength: 1, maxLength: 2 },
    ),
    dependencies,
    contributions: fc.array(contributionRecipe, { maxLength: 2 }),
  });

  const stackRecipe = fc.record({
    id: stackSafeId,
    parameters: fc.array(
      fc.record({
        id: oddId,
        name: fc.option(fc.oneof(fc.constantFrom('/cdn/origin', '/shared'), fc.stringMatching(/^\/[a-z0-9_.-]{1,12}$/)), { nil: undefined }),
        value: fc.oneof(
          { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
          { weight: 1, arbitrary: fc.constantFrom(AWS_KEY, PEM) },
        ),
      }),
      { maxLength: 2 },
    ),
  });

  const deployComposition = fc.record({
    capabilities: fc.array(
      fc.record({
        id: stackSafeId,
        bases: fc.array(stackRecipe, { maxLength: clean ? 1 : 2 }),
        tenants: fc.array(stackRecipe, { maxLength: 2 }),
        charts: fc.array(chartRecipe, { maxLength: 1 }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    dependencies,
    contributions: fc.array(
      fc.record({
        id: oddId,
        writer: fc.nat(),
        target: fc.nat(),
        fields: fc.oneof(
          contributedFields,
          fc.constantFrom<Record<string, unknown>>({ Description: 'contributed' }, { Tags: { team: 'edge' } }, { Value: AWS_KEY }, { Name: '/cdn/origin' }),
        ),
      }),
      { maxLength: 2 },
    ),
  });

  return { chartRecipe, objectRecipe, runtimeComposition, deployComposition };
}

/** What is where the outdir and lock file go before the synth: nothing, an empty folder, someone else's files, or a hand-edited lock. */
type OutdirBefore = 'absent' | 'empty' | 'foreign' | 'file' | 'symlink' | 'lock-garbage' | 'lock-old-version' | 'lock-null-schema';

type Arbitraries = ReturnType<typeof arbitraries>;
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type ObjectRecipe = ValueOf<Arbitraries['objectRecipe']>;
type ChartRecipeValue = ValueOf<Arbitraries['chartRecipe']>;
type RuntimeComposition = ValueOf<Arbitraries['runtimeComposition']>;
type DeployComposition = ValueOf<Arbitraries['deployComposition']>;

const CLEAN = arbitraries(true);
const CHAOTIC = arbitraries(false);
const runtimeComposition = fc.oneof(CLEAN.runtimeComposition, CHAOTIC.runtimeComposition);
const deployComposition = fc.oneof(CLEAN.deployComposition, CHAOTIC.deployComposition);

// ---------------------------------------------------------------------------
// Building a composition from a recipe.

/**
 * An id not yet used in `scope` (constructs turn '/' into '--', so compare that form), and not a
 * member of Object.prototype, which constructs 10 takes for an existing child ('toString', '__proto__').
 */
function freeId(scope: IConstruct, id: string): string {
  let candidate = id;
  const taken = (c: string) => c.replace(/\//g, '--') in Object.prototype || scope.node.tryFindChild(c.replace(/\//g, '--')) !== undefined;
  for (let i = 2; taken(candidate); i++) candidate = `${id}-${i}`;
  return candidate;
}

interface Built {
  /** Constructs that may depend on each other: objects, charts, stacks. */
  readonly nodes: IConstruct[];
  /** Targets of contributions: Kubernetes objects (or their L2) and CloudFormation resources. */
  readonly targets: IConstruct[];
  /** Scopes that may write contributions. */
  readonly writers: Construct[];
}

function addObject(chart: Chart, o: ObjectRecipe, built: Built): void {
  const id = freeId(chart, o.id);
  // keys left out, not set to undefined: cdk8s would let an explicit `name: undefined` replace the generated name
  const given = { name: o.name, namespace: o.namespace, labels: o.labels, annotations: o.annotations };
  const metadata = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  let object: IConstruct;
  if (o.type === 'deployment') {
    object = new kplus.Deployment(chart, id, {
      metadata,
      containers: Array.from({ length: o.containers }, (_, i) => ({ name: `c${i}`, image: o.image || 'nginx', securityContext: { ensureNonRoot: false } })),
    });
  } else if (o.type === 'custom') {
    object = new ApiObject(chart, id, { apiVersion: 'example.com/v1', kind: 'Widget', metadata, spec: { data: o.data } } as any);
  } else {
    object = new ApiObject(chart, id, { apiVersion: 'v1', kind: o.type === 'secret' ? 'Secret' : 'ConfigMap', metadata, data: o.data } as any);
  }
  for (const p of o.patches) {
    const patch = p.op === 'remove' ? JsonPatch.remove(p.path) : p.op === 'add' ? JsonPatch.add(p.path, p.value) : JsonPatch.replace(p.path, p.value);
    ApiObject.of(object).addJsonPatch(patch);
  }
  built.nodes.push(object);
  built.targets.push(object);
}

function addChart(app: CapabilityApp, capability: Capability, c: ChartRecipeValue, built: Built): void {
  const scope = c.routing ? capability : app;
  const id = freeId(scope, c.id);
  const props = c.namespace === undefined ? {} : { namespace: c.namespace };
  const chart = c.routing ? new RuntimeRouting(capability, id, props) : new Chart(app, id, props);
  built.nodes.push(chart);
  built.writers.push(chart);
  for (const o of c.objects) addObject(chart, o, built);
}

interface Wiring {
  readonly dependencies: Array<[number, number]>;
  readonly contributions: Array<{ id: string; writer: number; target: number; fields: Record<string, unknown> }>;
}

function wire(composition: Wiring, built: Built): void {
  if (built.nodes.length > 0) {
    for (const [a, b] of composition.dependencies) built.nodes[a % built.nodes.length].node.addDependency(built.nodes[b % built.nodes.length]);
  }
  if (built.targets.length > 0 && built.writers.length > 0) {
    for (const c of composition.contributions) {
      const writer = built.writers[c.writer % built.writers.length];
      new Contribution(writer, freeId(writer, c.id), { target: built.targets[c.target % built.targets.length], fields: c.fields });
    }
  }
}

function buildRuntime(app: CapabilityApp, composition: RuntimeComposition): void {
  const built: Built = { nodes: [], targets: [], writers: [] };
  for (const cap of composition.capabilities) {
    const capability = new Capability(app, freeId(app, cap.id));
    built.writers.push(capability);
    for (const c of cap.charts) addChart(app, capability, c, built);
  }
  wire(composition, built);
}

function buildDeploy(app: CapabilityApp, composition: DeployComposition): void {
  const built: Built = { nodes: [], targets: [], writers: [] };
  for (const cap of composition.capabilities) {
    const capability = new Capability(app, freeId(app, cap.id));
    built.writers.push(capability);
    const stacks = [
      ...cap.bases.map((s) => ({ s, stack: new SharedBase(capability, freeId(capability, s.id)) })),
      ...cap.tenants.map((s) => ({ s, stack: new DeploymentAggregate(capability, freeId(capability, s.id)) })),
    ];
    for (const { s, stack } of stacks) {
      built.nodes.push(stack);
      built.writers.push(stack);
      for (const p of s.parameters) {
        built.targets.push(new ssm.StringParameter(stack, freeId(stack, p.id), { parameterName: p.name, stringValue: p.value }));
      }
    }
    for (const c of cap.charts) addChart(app, capability, c, built);
  }
  wire(composition, built);
}

// ---------------------------------------------------------------------------
// Running one case and checking what it did.

/** Where jest keeps what ts-jest compiled (`<cacheDirectory>/jest-transform-cache-<config>/...`). */
const JEST_CACHE = /[\\/]jest-transform-cache-[^\\/]+[\\/]/;

/** Every fs call that writes or removes, with the paths it touched, while `on`. */
const touched = { on: false, paths: [] as string[] };
const nodeFs: typeof fs = jest.requireActual('fs');
const WRITERS = ['writeFileSync', 'appendFileSync', 'mkdirSync', 'mkdtempSync', 'renameSync', 'cpSync', 'copyFileSync', 'rmSync', 'rmdirSync', 'unlinkSync', 'symlinkSync', 'linkSync', 'openSync'] as const;

beforeAll(() => {
  for (const name of WRITERS) {
    const original = (nodeFs as any)[name];
    jest.spyOn(nodeFs as any, name).mockImplementation((...args: unknown[]) => {
      if (touched.on) {
        // a link's target (and a hard link's source) is read, not written: only the new name counts
        const paths = name === 'renameSync' || name === 'cpSync' || name === 'copyFileSync' ? args.slice(0, 2) : name === 'symlinkSync' || name === 'linkSync' ? args.slice(1, 2) : args.slice(0, 1);
        const readOnly = name === 'openSync' && (args[1] === undefined || args[1] === 'r');
        if (!readOnly) touched.paths.push(...paths.map((p) => path.resolve(String(p))));
      }
      return original.apply(nodeFs, args);
    });
  }
});
afterAll(() => jest.restoreAllMocks());

interface Tally {
  cases: number;
  /** CPU milliseconds spent in this property (wall time depends on the machine's load). */
  cpuMs: number;
  written: number;
  refused: number;
  warnings: number;
  codes: Record<string, number>;
  /** Refusals by what was at the outdir or lock file before. */
  before: Record<string, number>;
}
const tallies: Record<string, Tally> = {};
const tally = (name: string): Tally => (tallies[name] ??= { cases: 0, cpuMs: 0, written: 0, refused: 0, warnings: 0, codes: {}, before: {} });

afterAll(() => {
  for (const [name, t] of Object.entries(tallies)) {
    const codes = Object.entries(t.codes).sort().map(([c, n]) => `${c}×${n}`).join(' ');
    // eslint-disable-next-line no-console
    const before = Object.entries(t.before).sort().map(([b, n]) => `${b}×${n}`).join(' ');
    console.log(`fuzz ${name}: ${t.cases} cases, ${t.written} ${name === 'construction' ? 'accepted' : 'written'} (each re-parsed and re-synthesized byte-identically), ${t.refused} refused (${codes}${before ? `; refused with a prepared outdir or lock: ${before}` : ''}), ${t.warnings} warnings, ${Math.round(t.cpuMs)} ms CPU`);
  }
});

/** Puts `before` where the outdir and the lock file go; returns what must survive a refusal untouched. */
function prepare(parent: string, outdir: string, lockFile: string, before: OutdirBefore): void {
  if (before === 'empty') fs.mkdirSync(outdir);
  if (before === 'foreign') {
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, 'notes.txt'), 'mine');
  }
  if (before === 'file') fs.writeFileSync(outdir, 'a file');
  if (before === 'symlink') {
    fs.mkdirSync(path.join(parent, 'elsewhere'));
    fs.symlinkSync(path.join(parent, 'elsewhere'), outdir);
  }
  if (before === 'lock-garbage') fs.writeFileSync(lockFile, '{"version": 1, "units": [');
  if (before === 'lock-old-version') fs.writeFileSync(lockFile, JSON.stringify({ version: '1.0', units: [], interfaces: [] }));
  if (before === 'lock-null-schema') {
    fs.writeFileSync(lockFile, JSON.stringify({ version: 1, units: [], interfaces: [{ capability: 'cdn', name: 'origin', version: '1.0.0', schema: null, fields: {} }] }));
  }
}

/** Token text aws-cdk leaves in a value it could not resolve: never in anything synth writes. */
const TOKEN_TEXT = /\$\{Token\[|#\{Token\[|\{\{resolve:|-1\.8881545897087\d*e\+289/i;

/** Every written file parses as what its name says: YAML streams, JSON, and the cloud assembly's manifest by its schema. */
function expectParsable(outdir: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    if (content === '<dir>') continue;
    expect({ file: relative, token: TOKEN_TEXT.test(content) }).toEqual({ file: relative, token: false });
    if (relative.endsWith('.yaml')) {
      const errors = parseAllDocuments(content).flatMap((d: any) => d.errors ?? []).map(String);
      expect({ file: relative, errors }).toEqual({ file: relative, errors: [] });
    }
    if (relative.endsWith('.json')) expect(() => JSON.parse(content)).not.toThrow();
  }
  if (files['deploy/manifest.json']) expect(() => Manifest.loadAssemblyManifest(path.join(outdir, 'deploy', 'manifest.json'))).not.toThrow();
}

/** Builds, synthesizes into a fresh folder, and checks the outcome; throws to fail the property. */
function runCase(name: string, recipe: unknown, build: (app: CapabilityApp) => void, before: OutdirBefore = 'absent'): void {
  const t = tally(name);
  const cpu = process.cpuUsage();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-fuzz-'));
  const again = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-fuzz-'));
  const outdir = path.join(parent, 'dist');
  const lockFile = path.join(parent, 'capability.lock.json');
  prepare(parent, outdir, lockFile, before);
  const preexisting = readTreeOf(parent);
  const app = new CapabilityApp({ outdir, lockFile });
  const stderr: string[] = [];
  try {
    build(app);
    touched.on = true;
    touched.paths = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => stderr.push(String(chunk)) > 0);
    let refused: CompositionError | undefined;
    try {
      app.synth();
    } catch (e) {
      // anything but a coded refusal (a TypeError out of synth, say) fails the case
      if (!(e instanceof CompositionError)) throw e;
      refused = e;
    } finally {
      write.mockRestore();
      touched.on = false;
    }

    t.cases++;
    t.warnings += stderr.length;
    for (const line of stderr) expect(line).toMatch(/^CAP012 warning: possible secret: .*\n$/s); // s: a construct id may hold a line separator
    if (refused) {
      t.refused++;
      expect(refused.violations.length).toBeGreaterThan(0);
      for (const v of refused.violations) {
        // CAP000 (internal error) is a bug, never an accepted refusal
        expect(v.code).toMatch(CODE);
        expect(v.message).toMatch(/^[a-z][a-z ]+: /);
        t.codes[v.code] = (t.codes[v.code] ?? 0) + 1;
        if (process.env.FUZZ_DEBUG) nodeFs.appendFileSync(process.env.FUZZ_DEBUG, `${v.message.replace(/\n/g, ' ')}\n\t${JSON.stringify(recipe)}\n`);
      }
      // a refusal changes nothing: what was there before is there, byte for byte, and nothing beside it
      expect(readTreeOf(parent)).toEqual(preexisting);
      t.before[before] = (t.before[before] ?? 0) + 1;
    } else {
      t.written++;
      // someone else's outdir is never replaced, and a broken or hand-edited lock never passes silently
      expect(['foreign', 'file', 'symlink', 'lock-garbage', 'lock-old-version', 'lock-null-schema']).not.toContain(before);
      expect(fs.readdirSync(parent).sort()).toEqual(before.startsWith('lock-') ? ['capability.lock.json', 'dist'] : ['dist']);
      expect(touched.paths.some((p) => p.startsWith(parent + path.sep))).toBe(true); // the write record sees synth's writes
      for (const entry of fs.readdirSync(outdir, { recursive: true, withFileTypes: true })) expect(entry.isSymbolicLink()).toBe(false);
      const written = readTreeOf(outdir);
      expectParsable(outdir, written);

      // the same program, built and synthesized again elsewhere, writes the same bytes
      const twin = new CapabilityApp({ outdir: path.join(again, 'dist'), lockFile });
      build(twin);
      twin.synth();
      expect(readTreeOf(path.join(again, 'dist'))).toEqual(written);
    }
    // allowed: the outdir's parent (run folder, lock, swap) and each capability's own cloud assembly folder
    const allowed = [parent, ...app.node.findAll().filter((c) => Capability.isCapability(c)).map((c) => (c as Capability).outdir)];
    // jest's own transform cache is written when synth loads a module on first use (a lazily loaded one, on a cold cache): the harness's, not synth's
    const outside = touched.paths.filter((p) => !allowed.some((root) => p === root || p.startsWith(root + path.sep)) && !JEST_CACHE.test(p));
    expect(outside).toEqual([]);
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
    fs.rmSync(again, { recursive: true, force: true });
    for (const c of app.node.findAll()) if (Capability.isCapability(c)) fs.rmSync(c.outdir, { recursive: true, force: true });
    const used = process.cpuUsage(cpu);
    t.cpuMs += (used.user + used.system) / 1000;
  }
}

/** Every file and link under `dir` with its content (links as their target), for byte-for-byte comparison. */
function readTreeOf(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  if (!fs.existsSync(dir) && !isLink(dir)) return tree;
  if (!fs.lstatSync(dir).isDirectory()) return { '': fs.lstatSync(dir).isSymbolicLink() ? `-> ${fs.readlinkSync(dir)}` : fs.readFileSync(dir, 'utf-8') };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (entry.isSymbolicLink()) tree[relative] = `-> ${fs.readlinkSync(full)}`;
    else tree[relative] = entry.isDirectory() ? '<dir>' : fs.readFileSync(full, 'utf-8');
  }
  return tree;
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------

describe('fuzz: synth of random compositions', () => {
  test(`runtime compositions (${RUNTIME_RUNS} cases): written, or refused with coded violations; never a write outside the outdir`, () => {
    fc.assert(
      fc.property(runtimeComposition, (composition) => runCase('runtime', composition, (app) => buildRuntime(app, composition), composition.before)),
      { numRuns: RUNTIME_RUNS },
    );
    expect(tally('runtime').cases).toBe(RUNTIME_RUNS);
    expect(tally('runtime').written).toBeGreaterThan(0);
    expect(tally('runtime').refused).toBeGreaterThan(0);
  });

  test(`compositions with stacks (${DEPLOY_RUNS} cases): written, or refused with coded violations; never a write outside the outdir`, () => {
    fc.assert(
      fc.property(deployComposition, (composition) => runCase('deploy', composition, (app) => buildDeploy(app, composition))),
      { numRuns: DEPLOY_RUNS },
    );
    expect(tally('deploy').cases).toBe(DEPLOY_RUNS);
    expect(tally('deploy').written).toBeGreaterThan(0);
  });
});

describe('fuzz: ids refused at construction time', () => {
  test(`a Capability, stack or chart id (${CONSTRUCTION_RUNS} cases) is accepted, or refused with a message that quotes it and states the rule`, () => {
    const t = tally('construction');
    const cpu = process.cpuUsage();
    const anyId = fc.oneof(
      { weight: 4, arbitrary: fc.oneof(oddId, capabilityId, stackSafeId, fc.string({ maxLength: 20 })) },
      { weight: 1, arbitrary: fc.constantFrom('toString', 'constructor', '__proto__') },
    );
    fc.assert(
      fc.property(fc.constantFrom('capability', 'shared base', 'tenant', 'routing'), anyId, (kind, id) => {
        t.cases++;
        const app = new CapabilityApp({ outdir: path.join(os.tmpdir(), 'never-written') });
        try {
          const cdn = kind === 'capability' ? new Capability(app, id) : new Capability(app, 'cdn');
          if (kind === 'shared base') new SharedBase(cdn, id);
          if (kind === 'tenant') new DeploymentAggregate(cdn, id);
          if (kind === 'routing') new RuntimeRouting(cdn, id);
          t.written++;
        } catch (e) {
          t.refused++;
          const message = (e as Error).message;
          const rule = ruleOf(kind, id, message);
          t.codes[rule] = (t.codes[rule] ?? 0) + 1;
        } finally {
          for (const c of app.node.findAll()) if (Capability.isCapability(c)) fs.rmSync(c.outdir, { recursive: true, force: true });
        }
      }),
      { numRuns: CONSTRUCTION_RUNS },
    );
    const used = process.cpuUsage(cpu);
    t.cpuMs = (used.user + used.system) / 1000;
    expect(t.refused).toBeGreaterThan(0);
  });
});

/** Which rule a construction-time message states; throws when the message is not one of the clear ones expected. */
function ruleOf(kind: string, id: string, message: string): string {
  if (kind === 'capability' && !/^[a-z][a-z0-9\-_.]*$/i.test(id)) {
    // refused before the construct is made: the coded CAP010, quoting the id, stating aws-cdk's Stage rule, and
    // suggesting an id that keeps it (as aws-cdk's own refusal states it: "Stage name must start with a letter and
    // contain only alphanumeric characters, hypens ('-'), underscores ('_') and periods ('.')")
    const prefix = `The composition was refused with 1 violation:\nCAP010 invalid object: Capability '${id}' has the id ${JSON.stringify(id)}, which no capability may have: `
      + 'a capability id is letters, digits, \'-\', \'_\' and \'.\', starting with a letter (the id aws-cdk takes for a Stage). Give it an id ';
    expect(message.startsWith(prefix)).toBe(true);
    const suggested = /such as "([^"]*)"\.$/.exec(message.slice(prefix.length))?.[1];
    expect(suggested).toBeDefined();
    expect(suggested).toMatch(/^[A-Za-z][A-Za-z0-9_.-]*$/);
    return 'capability id';
  }
  if (id === '') {
    // refused before constructs' uncoded 'Only root constructs may have an empty ID', naming the scope and an id of the kind
    const [what, example] = ({ 'shared base': ['SharedBase', 'Base'], 'tenant': ['DeploymentAggregate', 'acme'], 'routing': ['RuntimeRouting', 'Routing'] } as Record<string, [string, string]>)[kind];
    expect(message).toBe(`The composition was refused with 1 violation:\nCAP010 invalid object: ${what} in 'cdn': its id ("") must be a string that is not empty, such as '${example}'`);
    return 'empty id';
  }
  if (id.replace(/\//g, '--') in Object.prototype) {
    // constructs 10 looks children up in a plain object: 'toString' or '__proto__' count as taken; refused before constructs' uncoded message
    const [what, where, example] = kind === 'capability' ? ['Capability', 'the app', 'cdn']
      : [({ 'shared base': 'SharedBase', 'tenant': 'DeploymentAggregate', 'routing': 'RuntimeRouting' } as Record<string, string>)[kind], "'cdn'", ({ 'shared base': 'Base', 'tenant': 'acme', 'routing': 'Routing' } as Record<string, string>)[kind]];
    expect(message).toBe(
      `The composition was refused with 1 violation:\nCAP010 invalid object: ${what} in ${where}: its id '${id}' is a name constructs cannot hold `
        + `(it keeps a construct's children in a plain object, where '${id}' is a member every object has, so it reads the id as taken). Give the ${what} another id, such as '${example}'`,
    );
    return 'Object.prototype name';
  }
  expect(kind).not.toBe('routing'); // a chart accepts any non-empty id
  // the coded refusal of the stack name aws-cdk derives (`cdn-<id>`, the id as constructs stores it), and only of one CloudFormation refuses
  const own = id.replace(/\//g, '--');
  const what = kind === 'shared base' ? 'SharedBase' : 'DeploymentAggregate';
  expect(message.startsWith(`The composition was refused with 1 violation:\nCAP010 invalid object: ${what} 'cdn/${own}' would deploy as the CloudFormation stack 'cdn-`)).toBe(true);
  expect(message).toMatch(
    /, a name CloudFormation refuses: a stack name is letters, digits and '-', starting with a letter, at most 128 characters\. Give it (an id of letters, digits and '-'( \("[A-Za-z][A-Za-z0-9-]*"\))?|a shorter id \(\d+ characters\)), or pass it a stackName that is one\.$/s,
  );
  const name = `cdn-${own}`;
  expect(/^[A-Za-z][A-Za-z0-9-]*$/.test(name) && name.length <= 128).toBe(false);
  return 'stack name';
}
