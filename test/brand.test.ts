import { ApiObject, Chart } from 'cdk8s';

/**
 * Two installs of cdk-capability in one tree (two capability packages that each
 * bring their own copy) load two copies of every class. `instanceof` fails
 * across them; the `isX` brands (`Symbol.for`) must not.
 */
type Module = typeof import('../src');

/** A fresh copy of the library, with its own copies of the peers too (a fully separate install). */
function isolatedCopy(): Module {
  let copy: Module | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<Module>('../src');
  });
  return copy!;
}

/**
 * A fresh copy of the library that shares this file's copies of the peers, as
 * npm lays out two versions of cdk-capability beside one constructs, cdk8s and aws-cdk-lib.
 */
function copySharingPeers(): Module {
  const peers = ['constructs', 'cdk8s', 'cdk8s-plus-30', 'aws-cdk-lib'];
  const shared = Object.fromEntries(peers.map((p) => [p, jest.requireActual(p)]));
  let copy: Module | undefined;
  jest.isolateModules(() => {
    for (const p of peers) jest.doMock(p, () => shared[p]);
    copy = jest.requireActual<Module>('../src');
  });
  for (const p of peers) jest.dontMock(p);
  return copy!;
}

describe('two copies of the library', () => {
  const a = isolatedCopy();
  const b = isolatedCopy();

  test('are really two copies: instanceof does not see across them', () => {
    const app = new b.CapabilityApp({ outdir: '/nonexistent' });
    expect(a.CapabilityApp).not.toBe(b.CapabilityApp);
    expect(app instanceof a.CapabilityApp).toBe(false);
    expect(Object.getPrototypeOf(a.RuntimeRouting)).not.toBe(Chart); // its own copy of cdk8s too
  });

  test('recognise each other\'s constructs through their isX brands', () => {
    // GIVEN every construct class made by copy B
    const app = new b.CapabilityApp({ outdir: '/nonexistent' });
    const capability = new b.Capability(app, 'cdn');
    const base = new b.SharedBase(capability, 'Base');
    const aggregate = new b.DeploymentAggregate(capability, 'acme');
    const routing = new b.RuntimeRouting(capability, 'Routing');
    const contract = new b.InterfaceContract(capability, 'Edge', { version: '1.0.0', fields: { header: b.Field.string() } });

    // THEN copy A recognises each of them, and nothing else
    expect(a.CapabilityApp.isCapabilityApp(app)).toBe(true);
    expect(a.Capability.isCapability(capability)).toBe(true);
    expect(a.SharedBase.isSharedBase(base)).toBe(true);
    expect(a.DeploymentAggregate.isDeploymentAggregate(aggregate)).toBe(true);
    expect(a.RuntimeRouting.isRuntimeRouting(routing)).toBe(true);
    expect(a.InterfaceContract.isInterfaceContract(contract)).toBe(true);
    expect(a.Capability.isCapability(base)).toBe(false);
    expect(a.SharedBase.isSharedBase(aggregate)).toBe(false);
  });

  test('a CompositionError thrown by one copy is recognised by the other, and nothing else is', () => {
    // GIVEN a refusal thrown by copy B
    const app = new b.CapabilityApp({ outdir: '/nonexistent' });
    const routing = new b.RuntimeRouting(new b.Capability(app, 'cdn'), 'Routing');
    new ApiObject(routing, 'Bad', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } });
    let thrown: unknown;
    try {
      app.synth();
    } catch (e) {
      thrown = e;
    }

    // THEN copy A's brand sees it, and so does instanceof, which reads the brand (a class of one copy is not the other's)
    expect(thrown instanceof a.CompositionError).toBe(true);
    expect(new Error('x') instanceof a.CompositionError).toBe(false);
    expect(a.CompositionError.isCompositionError(thrown)).toBe(true);
    expect(a.CompositionError.isCompositionError(new Error('x'))).toBe(false);
    expect(a.CompositionError.isCompositionError(undefined)).toBe(false);
  });

  test('find the enclosing capability and app across copies', () => {
    const app = new b.CapabilityApp({ outdir: '/nonexistent' });
    const capability = new b.Capability(app, 'cdn');
    const routing = new b.RuntimeRouting(capability, 'Routing');

    expect(a.Capability.of(routing)).toBe(capability);
    expect(a.CapabilityApp.of(routing)).toBe(app);
  });
});

describe('two copies of the library sharing one copy of the peers', () => {
  const a = copySharingPeers();
  const b = copySharingPeers();

  test('are two copies of the library over this file\'s copy of the peers', () => {
    expect(a.Capability).not.toBe(b.Capability);
    // (cdk8s' Chart brands instances, so compare the base classes themselves)
    expect([Object.getPrototypeOf(a.RuntimeRouting), Object.getPrototypeOf(b.RuntimeRouting)]).toEqual([Chart, Chart]);
  });

  test('compose into one app, which synthesizes both capabilities', () => {
    // GIVEN an app of copy A holding a capability of each copy
    const app = new a.CapabilityApp({ outdir: '/nonexistent' });
    for (const [copy, id] of [[a, 'cdn'], [b, 'dns']] as const) {
      const routing = new copy.RuntimeRouting(new copy.Capability(app, id), 'Routing');
      new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: id } });
    }

    // WHEN
    const result = a.CapabilityTesting.synth(app);

    // THEN
    expect(result.violations).toEqual([]);
    expect(result.plan!.capabilities.map((c) => c.name)).toEqual(['cdn', 'dns']);
    expect(result.runtimeObjects.map((o) => o.metadata.name)).toEqual(['cdn', 'dns']);
  });

  test('refuse the same Namespace declared by a capability of each copy with CAP001', () => {
    const app = new a.CapabilityApp({ outdir: '/nonexistent' });
    for (const [copy, id] of [[a, 'cdn'], [b, 'dns']] as const) {
      const routing = new copy.RuntimeRouting(new copy.Capability(app, id), 'Routing');
      new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shared' } });
    }

    const result = a.CapabilityTesting.synth(app);

    expect(result.violations.map((v) => [v.code, v.paths])).toEqual([['CAP001', ['cdn/Routing/Ns', 'dns/Routing/Ns']]]);
  });
});
