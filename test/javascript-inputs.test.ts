/**
 * What a plain-JavaScript user can pass that the types forbid: a string or undefined for a scope, a number for
 * an id, a string or a list for props. Each is one coded violation naming what, where and how to fix it, never
 * a TypeError from inside constructs or aws-cdk, and never props dropped without a word.
 */
import * as path from 'path';
import { ApiObject, App } from 'cdk8s';
import { Capability, CapabilityApp, CapabilityTesting, CompositionError, Contribution, DeploymentAggregate, Field, InterfaceContract, Reference, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';
import * as runtime from '../src/runtime';

afterAll(removeTempDirs);

/** The violations of the refusal `make` throws, each as `<code> <message>`; fails unless it is a CompositionError. */
function refusalsOf(make: () => unknown): string[] {
  const error = thrownBy(make);
  expect(CompositionError.isCompositionError(error)).toBe(true);
  return (error as CompositionError).violations.map((v) => `${v.code} ${v.message}`);
}

/** An app with a capability `cap` and its routing `cap/Routing`, writing into a fresh folder. */
function routed(): { app: CapabilityApp; cap: Capability; routing: RuntimeRouting } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cap = new Capability(app, 'cap');
  return { app, cap, routing: new RuntimeRouting(cap, 'Routing') };
}

/** Calls a constructor or function as JavaScript would, with arguments its types forbid. */
const untyped = (f: unknown) => f as (...args: unknown[]) => unknown;
const created = (c: unknown) => (...args: unknown[]) => new (c as new (...a: unknown[]) => unknown)(...args);

describe('a scope that is not a construct', () => {
  const FIX = 'which is not a construct: the first argument is the construct it belongs to. Pass that construct first';

  test.each([
    ['RuntimeRouting', () => created(RuntimeRouting)('cap', 'Routing'), `CAP015 misplaced construct: RuntimeRouting 'Routing' is given the scope "cap", ${FIX} (new RuntimeRouting(capability, 'Routing')).`],
    ['RuntimeRouting', () => created(RuntimeRouting)(undefined, 'Routing'), `CAP015 misplaced construct: RuntimeRouting 'Routing' is given the scope undefined, ${FIX} (new RuntimeRouting(capability, 'Routing')).`],
    ['SharedBase', () => created(SharedBase)('cap', 'Base'), `CAP015 misplaced construct: SharedBase 'Base' is given the scope "cap", ${FIX} (new SharedBase(capability, 'Base')).`],
    ['DeploymentAggregate', () => created(DeploymentAggregate)(undefined, 'acme'), `CAP015 misplaced construct: DeploymentAggregate 'acme' is given the scope undefined, ${FIX} (new DeploymentAggregate(capability, 'acme')).`],
    ['Capability', () => created(Capability)(undefined, 'cdn'), `CAP015 misplaced construct: Capability 'cdn' is given the scope undefined, ${FIX} (new Capability(app, 'cdn')).`],
    ['the runtime-only Capability', () => created(runtime.Capability)({ outdir: 'dist' }, 'web'), `CAP015 misplaced construct: Capability 'web' is given the scope {"outdir":"dist"}, ${FIX} (new Capability(app, 'web')).`],
    ['Contribution', () => created(Contribution)('Routing', 'Obs', {}), `CAP015 misplaced construct: Contribution 'Obs' is given the scope "Routing", ${FIX} (new Contribution(routing, 'Obs', ...)).`],
    ['RuntimeWriter', () => created(RuntimeWriter)('Routing', 'NetOp', {}), `CAP015 misplaced construct: RuntimeWriter 'NetOp' is given the scope "Routing", ${FIX} (then the id, such as 'NetOp').`],
    ['InterfaceContract', () => created(InterfaceContract)('cdn', 'Edge', { version: '1.0.0', fields: { host: Field.string() } }), `CAP015 misplaced construct: InterfaceContract 'Edge' is given the scope "cdn", ${FIX} (then the id, such as 'Edge').`],
    ['Reference.external', () => untyped(Reference.external)(undefined, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls' }), `CAP015 misplaced construct: Reference 'Tls' is given the scope undefined, ${FIX} (then the id, such as 'SharedRules').`],
  ])('is CAP015 for a %s, naming the scope given and the call that takes a construct', (_what, make, expected) => {
    expect(refusalsOf(make)).toEqual([expected]);
  });
});

describe('an id that is not a string', () => {
  test('of a RuntimeRouting is CAP010 as it is created, not constructs\' TypeError', () => {
    const { cap } = routed();
    expect(refusalsOf(() => created(RuntimeRouting)(cap, 7))).toEqual([
      "CAP010 invalid object: RuntimeRouting in 'cap': its id (7) must be a string that is not empty, such as 'Routing'",
    ]);
  });

  test('of a DeploymentAggregate is CAP010, not a stack silently named Default', () => {
    const { cap } = routed();
    expect(refusalsOf(() => created(DeploymentAggregate)(cap))).toEqual([
      "CAP010 invalid object: DeploymentAggregate in 'cap': its id (undefined) must be a string that is not empty, such as 'acme'",
    ]);
    expect(cap.node.tryFindChild('Default')).toBeUndefined();
  });

  test('of a SharedBase is CAP010, not aws-cdk\'s TypeError', () => {
    const { cap } = routed();
    expect(refusalsOf(() => created(SharedBase)(cap, 5))).toEqual([
      "CAP010 invalid object: SharedBase in 'cap': its id (5) must be a string that is not empty, such as 'Base'",
    ]);
  });

  test('of addBackend and addVersionedBackend is CAP010, not id.toLowerCase is not a function', () => {
    const { routing } = routed();
    expect(refusalsOf(() => untyped(routing.addBackend.bind(routing))(5, { image: 'ghcr.io/example/web:1.0.0', port: 8080 }))).toEqual([
      "CAP010 invalid object: addBackend of 'cap/Routing': its id (5) must be a string that is not empty, such as 'Web'",
    ]);
    expect(refusalsOf(() => untyped(routing.addVersionedBackend.bind(routing))(undefined, { port: 8080, versions: {} }))).toEqual([
      "CAP010 invalid object: addVersionedBackend of 'cap/Routing': its id (undefined) must be a string that is not empty, such as 'Web'",
    ]);
  });
});

describe('props that are not an object', () => {
  test('of a RuntimeWriter are one CAP010 at synth, not a TypeError reading its target', () => {
    const { app, routing } = routed();
    new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'edge' } });
    created(RuntimeWriter)(routing, 'NetOp');
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap/Routing/NetOp' failed its own validation: its props (undefined) must be an object such as "
        + "{ target: appDeployment, fields: ['spec.domains'], identity: 'system:serviceaccount:netop-system:netop' }",
    ]);
  });

  test('of a Capability are CAP010 at synth, not dropped', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    created(Capability)(app, 'cap', 'The CDN');
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap' failed its own validation: its props (\"The CDN\") must be an object, such as { description: 'Tenant routing at the edge' }",
    ]);
  });

  test('of a RuntimeRouting are CAP010 at synth, not dropped', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    created(RuntimeRouting)(new Capability(app, 'cap'), 'Routing', ['edge']);
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap/Routing' failed its own validation: its props ([\"edge\"]) must be an object, such as { gateway: { name: 'edge', namespace: 'gateways' } }",
    ]);
  });

  test('a list as the labels of a RuntimeRouting is CAP010 at synth, not a label "0" on every object', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const routing = new RuntimeRouting(new Capability(app, 'cap'), 'Routing', { labels: ['team'] as unknown as Record<string, string> });
    new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'edge' } });
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap/Routing' failed its own validation: 'labels' ([\"team\"]) must be a map of label keys to values, such as { team: 'edge' }",
    ]);
  });
});

describe('CapabilityTesting.synth given no CapabilityApp', () => {
  test.each([
    ['a plain cdk8s App', () => new App(), 'the App at the root'],
    ['undefined', () => undefined, 'undefined'],
  ])('is CAP015 for %s, naming it, not app.synthesize is not a function', (_what, given, text) => {
    expect(refusalsOf(() => CapabilityTesting.synth(given() as CapabilityApp))).toEqual([
      `CAP015 misplaced construct: CapabilityTesting.synth takes a CapabilityApp, but was given ${text}. `
        + 'Pass the app at the root of the composition, made with CapabilityTesting.app() (or new CapabilityApp()).',
    ]);
  });
});

test('a tenant that is not a string gets no suggestion made of its text', () => {
  const { routing } = routed();
  const web = routing.addBackend('Web', { image: 'ghcr.io/example/web:1.0.0', port: 8080 });
  expect(refusalsOf(() => untyped(routing.addTenantRoute.bind(routing))(undefined, web))).toEqual([
    "CAP010 invalid object: addTenantRoute of 'cap/Routing': the tenant undefined must be a DNS-1123 label (lowercase letters, digits and '-', "
      + 'starting and ending with a letter or digit, at most 63 characters): it is the value the edge writes into the tenant header, and it names '
      + "the route 'tenant-<tenant>'. Route a tenant id such as \"acme\", and have the edge write that value.",
  ]);
});

describe('null for props', () => {
  test('of a Capability is CAP010 at synth, not a TypeError reading its env', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    created(Capability)(app, 'cap', null);
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap' failed its own validation: its props (null) must be an object, such as { description: 'Tenant routing at the edge' }",
    ]);
  });

  test('of a RuntimeRouting is CAP010 at synth, not a TypeError reading its namespace', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    created(RuntimeRouting)(new Capability(app, 'cap'), 'Routing', null);
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap/Routing' failed its own validation: its props (null) must be an object, such as { gateway: { name: 'edge', namespace: 'gateways' } }",
    ]);
  });
});

test('a string as the env of a Capability is CAP010 at synth, not stacks silently environment-agnostic', () => {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  new Capability(app, 'cap', { env: 'us-east-1' as never });
  expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP010 invalid object: 'cap' failed its own validation: 'env' (\"us-east-1\") must be an object such as { account: '123456789012', region: 'us-east-1' }",
  ]);
});

test('an id that names a member of Object.prototype is CAP010 naming the id and why, not constructs\' "already a Construct" of no path', () => {
  const { routing } = routed();
  const target = new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'edge' } });
  expect((thrownBy(() => new Contribution(routing, 'toString', { target, fields: { data: { a: '1' } } })) as Error).message).toBe(
    "The composition was refused with 1 violation:\nCAP010 invalid object: Contribution in 'cap/Routing': its id 'toString' is a name constructs cannot hold "
      + "(it keeps a construct's children in a plain object, where 'toString' is a member every object has, so it reads the id as taken). "
      + "Give the Contribution another id, such as 'Timeouts'",
  );
});

test.each([
  ['Capability', (app: CapabilityApp) => new Capability(app, 'constructor'), "Capability in the app: its id 'constructor'", 'cdn'],
  ['RuntimeRouting', (app: CapabilityApp) => new RuntimeRouting(new Capability(app, 'cap'), '__proto__'), "RuntimeRouting in 'cap': its id '__proto__'", 'Routing'],
  ['DeploymentAggregate', (app: CapabilityApp) => new DeploymentAggregate(new Capability(app, 'cap'), 'toString'), "DeploymentAggregate in 'cap': its id 'toString'", 'acme'],
])('a %s id that names a member of Object.prototype is CAP010', (what, create, start, example) => {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const message = (thrownBy(() => create(app)) as Error).message;
  expect(message.startsWith(`The composition was refused with 1 violation:\nCAP010 invalid object: ${start} is a name constructs cannot hold `)).toBe(true);
  expect(message.endsWith(`Give the ${what} another id, such as '${example}'`)).toBe(true);
});

describe('props of a SharedBase or DeploymentAggregate that are not an object', () => {
  test.each([
    ['a string', 'cdn-base', '"cdn-base"'],
    ['a list', ['edge'], '["edge"]'],
    ['null', null, 'null'],
  ])('%s is CAP010 at synth naming the stack, not dropped or a TypeError', (_what, given, text) => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const cap = new Capability(app, 'cap');
    created(SharedBase)(cap, 'Base', given);
    created(DeploymentAggregate)(cap, 'acme', given);
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP010 invalid object: 'cap/Base' failed its own validation: its props (${text}) must be an object, such as { stackName: 'cdn-base', env: { account: '123456789012', region: 'us-east-1' } }`,
      `CAP010 invalid object: 'cap/acme' failed its own validation: its props (${text}) must be an object, such as { stackName: 'cdn-base', env: { account: '123456789012', region: 'us-east-1' } }`,
    ]);
  });

  test('a string as the env of a stack is CAP010 at synth, not an environment-agnostic stack', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new SharedBase(new Capability(app, 'cap'), 'Base', { env: 'us-east-1' as never });
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: 'cap/Base' failed its own validation: 'env' (\"us-east-1\") must be an object such as { account: '123456789012', region: 'us-east-1' }",
    ]);
  });
});

describe('RuntimeRouting props of the wrong type', () => {
  test.each([
    ['disableResourceNameHashes', 'yes', "'disableResourceNameHashes' (\"yes\") must be true or false"],
    ['namespace', 5, "'namespace' (5) must be a namespace's name, such as 'edge'"],
  ])('%s given %p is CAP010 at synth, even in a chart that declares no object yet', (prop, given, problem) => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new RuntimeRouting(new Capability(app, 'cap'), 'Routing', { [prop]: given } as never);
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP010 invalid object: 'cap/Routing' failed its own validation: ${problem}`,
    ]);
  });
});
