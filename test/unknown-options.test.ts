import * as path from 'path';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, DeploymentAggregate, RouteStyle, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';
import { keysOf } from '../src/private/near-miss';

afterAll(removeTempDirs);

const REFUSED = 'The composition was refused with 1 violation:\nCAP010 invalid object: ';
const app = () => new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
const routing = () => new RuntimeRouting(new Capability(app(), 'shop'), 'Routing', { routeStyle: RouteStyle.ISTIO });
/** The message `f` throws. */
function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'nothing thrown';
}

// A misspelt option was dropped without a word: each key no option of the API is refused, all in one refusal,
// each with the option it most likely misspells.
describe('an unknown option is CAP010 naming the key, the API and the option it misspells', () => {
  test('Capability: a misspelt prop is refused; a capability class\'s own prop, handed on with ours, passes', () => {
    expect(thrown(() => new Capability(app(), 'shop', { prefixStackName: false, generatedName: 'full-path' } as any))).toBe(REFUSED
      + "Capability 'shop' props: 'prefixStackName' is not a prop; did you mean 'prefixStackNames'?; 'generatedName' is not a prop; did you mean 'generatedNames'?");
    // as docs/packaging.md's QueueCapability does: super(scope, id, props) with props extending CapabilityProps
    expect(() => new Capability(app(), 'queues', { tenants: ['acme'], prefixStackNames: false } as any)).not.toThrow();
  });

  test('RuntimeRouting: a misspelt prop is refused; one cdk8s may add passes', () => {
    expect(thrown(() => new RuntimeRouting(new Capability(app(), 'shop'), 'Routing', { gateWay: { name: 'edge' }, namespce: 'x' } as any))).toBe(REFUSED
      + "RuntimeRouting 'shop/Routing' props: 'gateWay' is not a prop; did you mean 'gateway'?; 'namespce' is not a prop; did you mean 'namespace'?");
    expect(() => new RuntimeRouting(new Capability(app(), 'shop'), 'Routing', { somethingNew: true } as any)).not.toThrow();
  });

  test('addBackend', () => {
    expect(thrown(() => routing().addBackend('Web', { image: 'x:1', port: 80, replica: 3 } as any))).toBe(REFUSED
      + "addBackend 'shop/Routing/Web': 'replica' is not an option (did you mean 'replicas'?); the options are 'image', 'port', 'replicas', 'name', 'namespace', 'env', 'securityContext'");
  });

  test('addVersionedBackend and its versions', () => {
    expect(thrown(() => routing().addVersionedBackend('Web', { port: 80, version: { blue: { image: 'x:1' } } } as any))).toBe(REFUSED
      + "addVersionedBackend 'shop/Routing/Web': 'version' is not an option (did you mean 'versions'?); the options are 'port', 'versions', 'replicas', 'name', 'namespace', 'env', 'securityContext'");
    expect(thrown(() => routing().addVersionedBackend('Web', { port: 80, versions: { blue: { image: 'x:1', replica: 1 } } } as any))).toBe(REFUSED
      + "addVersionedBackend 'shop/Routing/Web' version \"blue\": 'replica' is not an option (did you mean 'replicas'?); the options are 'image', 'replicas', 'env'");
  });

  test('addTenantRoute', () => {
    const r = routing();
    const w = r.addBackend('Web', { image: 'x:1', port: 80 });
    expect(thrown(() => r.addTenantRoute('a', w, { hedaer: 'x-t' } as any))).toBe(REFUSED
      + "addTenantRoute 'shop/Routing/tenant-a': 'hedaer' is not an option (did you mean 'header'?); the options are 'name', 'namespace', 'hostnames', 'pathPrefix', 'weights', 'header'");
    const b = r.addVersionedBackend('Blue', { port: 80, versions: { blue: { image: 'x:1' } } });
    expect(thrown(() => r.addTenantRoute('acme', b, { weight: { blue: 1 } } as any))).toBe(REFUSED
      + "addTenantRoute 'shop/Routing/tenant-acme': 'weight' is not an option (did you mean 'weights'?); the options are 'name', 'namespace', 'hostnames', 'pathPrefix', 'weights', 'header'");
  });

  test('SharedBase and DeploymentAggregate: a misspelt stack prop is refused; one aws-cdk may add passes', () => {
    expect(thrown(() => new SharedBase(new Capability(app(), 'shop'), 'Base', { stackNme: 'x', terminationProtecton: true } as any))).toBe(REFUSED
      + "SharedBase 'shop/Base' props: 'stackNme' is not a prop; did you mean 'stackName'?; 'terminationProtecton' is not a prop; did you mean 'terminationProtection'?");
    expect(thrown(() => new DeploymentAggregate(new Capability(app(), 'shop'), 'acme', { tenat: 'acme' } as any))).toBe(REFUSED
      + "DeploymentAggregate 'shop/acme' props: 'tenat' is not a prop; did you mean 'tenant'?");
    expect(() => new SharedBase(new Capability(app(), 'shop'), 'Base', { somethingNew: true } as any)).not.toThrow();
  });

  test('RuntimeWriter', () => {
    const r = routing();
    const w = r.addBackend('Web', { image: 'x:1', port: 80 });
    expect(thrown(() => new RuntimeWriter(r, 'Writer', { target: w.deployment, fields: ['spec.replicas'], identity: 'system:serviceaccount:a:b', manger: 'op' } as any))).toBe(REFUSED
      + "RuntimeWriter 'shop/Routing/Writer' props: 'manger' is not an option (did you mean 'manager'?); the options are 'target', 'fields', 'identity', 'manager'");
  });
});

// cdk8s-plus writes a value that is no EnvValue as a variable without a value, and a string's characters as
// variables "0", "1", ...
describe('an env value that is no EnvValue of cdk8s-plus is CAP010 naming the variable, the backend and the fix', () => {
  test('plain values, an empty object, a string for the map', () => {
    expect(thrown(() => routing().addBackend('Web', { image: 'x:1', port: 80, env: { A: '1', B: 2, C: {} } } as any))).toBe(REFUSED
      + "addBackend 'shop/Routing/Web': env variable 'A' (\"1\") must be an EnvValue of cdk8s-plus, such as EnvValue.fromValue(\"1\"); "
      + "env variable 'B' (2) must be an EnvValue of cdk8s-plus, such as EnvValue.fromValue(\"2\"); "
      + "env variable 'C' ({}) must be an EnvValue of cdk8s-plus, such as EnvValue.fromValue(\"value\")");
    expect(thrown(() => routing().addBackend('Web', { image: 'x:1', port: 80, env: 'A=1' } as any))).toBe(REFUSED
      + "addBackend 'shop/Routing/Web': 'env' (\"A=1\") must be a map of variable names to EnvValues of cdk8s-plus, such as { LOG_LEVEL: EnvValue.fromValue('info') }");
    expect(thrown(() => routing().addVersionedBackend('Web', { port: 80, versions: { blue: { image: 'x:1', env: { A: '1' } } } } as any))).toBe(REFUSED
      + "addVersionedBackend 'shop/Routing/Web': versions.blue.env variable 'A' (\"1\") must be an EnvValue of cdk8s-plus, such as EnvValue.fromValue(\"1\")");
  });

  test('an EnvValue is written with its value', () => {
    const web = routing().addBackend('Web', { image: 'x:1', port: 80, env: { A: kplus.EnvValue.fromValue('1') } });
    expect(web.deployment.containers[0].env.variables.A.value).toBe('1');
  });
});

// The known keys of each API are a keysOf list: the compiler refuses one that misses a key of the options'
// interface (a parent's too, such as cdk8s' ChartProps or aws-cdk's StackProps) or holds one it does not have.
test('keysOf lists every key of the interface and no other, or does not compile', () => {
  expect(keysOf<{ a?: number; b: string }>({ a: true, b: true })).toEqual(['a', 'b']);
  // @ts-expect-error a key of the interface is missing
  keysOf<{ a?: number; b: string }>({ a: true });
  // @ts-expect-error a key the interface does not have
  keysOf<{ a?: number }>({ a: true, c: true });
});
