import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, Field, InterfaceContract, Reference, RouteStyle, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

/** The violations of synthesizing `app`: none when it is accepted. */
function violationsOf(app: CapabilityApp): CompositionError['violations'] {
  try {
    app.synth();
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(CompositionError);
    return (e as CompositionError).violations;
  }
}

// Props as a JavaScript program can give them: any value. Each prop that is not valid is named, with what it
// must be, instead of a TypeError from inside Node's path module or a plan.json that apply then refuses.

describe('CapabilityApp props that are not valid: the constructor throws, naming each', () => {
  const make = (props: unknown) => () => new CapabilityApp(props as any);

  test('an outdir or lockFile that is not a path', () => {
    expect(make({ outdir: 5 })).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: 'outdir' (5) must be a path, such as 'dist'"));
    expect(make({ outdir: path.join(tempDir(), 'dist'), lockFile: ['a.json'] })).toThrow(new Error('The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: \'lockFile\' (["a.json"]) must be a path, such as \'capability.lock.json\''));
  });

  test('every problem in one message, enforce among them; props that are no object', () => {
    expect(make({ outdir: 5, lockFile: 7, enforce: 'yes' })).toThrow(new Error(
      "The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: 'outdir' (5) must be a path, such as 'dist'; 'lockFile' (7) must be a path, such as 'capability.lock.json'; " +
        "'enforce' (\"yes\") must be an object such as { deployer: 'system:serviceaccount:flux-system:kustomize-controller' }",
    ));
    expect(make([1])).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props ([1]) must be an object, such as { outdir: 'dist' }"));
    expect(make(null)).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props (null) must be an object, such as { outdir: 'dist' }"));
  });

  test('builtinCloudFormationValidation that is no boolean, context that is no map', () => {
    const outdir = path.join(tempDir(), 'dist');
    expect(make({ outdir, builtinCloudFormationValidation: 'no', context: ['a'] })).toThrow(new Error(
      "The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: 'builtinCloudFormationValidation' (\"no\") must be true or false; " +
        "'context' ([\"a\"]) must be a map of context keys to values, such as { '@aws-cdk/core:newStyleStackSynthesis': true }",
    ));
  });

  test('a prop that misspells one it takes is named with the one meant; other unknown props pass', () => {
    // GIVEN a JavaScript program's props with typos: the outdir would silently have been dist/, the lock file none
    const outdir = path.join(tempDir(), 'dist');
    expect(make({ outdri: outdir, lockfile: 'capability.lock.json', contxt: {} })).toThrow(new Error(
      "The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: 'outdri' is not a prop; did you mean 'outdir'?; 'lockfile' is not a prop; did you mean 'lockFile'?; 'contxt' is not a prop; did you mean 'context'?",
    ));
    // AND a prop close to none (a cdk8s prop of a later version, say) constructs, as do cdk8s' own props
    expect(new CapabilityApp({ outdir, region: 'eu-west-1', recordConstructMetadata: true, yamlOutputType: 0 } as any).outdir).toBe(outdir);
  });

  test('valid props construct', () => {
    const outdir = path.join(tempDir(), 'dist');
    expect(new CapabilityApp({ outdir, lockFile: path.join(outdir, '..', 'capability.lock.json') }).outdir).toBe(outdir);
  });
});

test("a Capability's description, generatedNames or prefixStackNames of another type is CAP010 at synth, naming the prop", () => {
  // GIVEN capabilities whose props a JavaScript program got wrong
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  new Capability(app, 'cdn', { description: 5 } as any);
  new Capability(app, 'shop', { generatedNames: 'hashed' } as any);
  new Capability(app, 'edge', { prefixStackNames: 'no' } as any);

  // WHEN synthesized, THEN refused with one CAP010 each
  expect(violationsOf(app).map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP010 invalid object: 'cdn' failed its own validation: 'description' (5) must be a string, a one-line description",
    "CAP010 invalid object: 'edge' failed its own validation: 'prefixStackNames' (\"no\") must be true or false",
    "CAP010 invalid object: 'shop' failed its own validation: 'generatedNames' (\"hashed\") must be \"plain\" or \"full-path\"",
  ]);
});

test("a contract's fields that are no map of Fields are CAP010 at synth, naming each", () => {
  // GIVEN contracts whose fields a JavaScript program got wrong: a list, and a map holding a string
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: [Field.string()] as any });
  new InterfaceContract(cdn, 'Shop', { version: '1.0.0', fields: { tenantHeader: Field.string(), maxTenants: 'number' } as any });

  // WHEN synthesized, THEN its fields problems are refused (besides the contracts being unused)
  expect(violationsOf(app).filter((v) => v.code === 'CAP010').map((v) => v.message)).toEqual([
    'invalid object: \'cdn/Edge\' failed its own validation: \'fields\' ([{"type":"string","required":true}]) must be a map of fields, such as { tenantHeader: Field.string() }',
    'invalid object: \'cdn/Shop\' failed its own validation: field "maxTenants" ("number") must be a Field, made by Field.string(), Field.dnsName(), Field.url(), Field.number() or Field.boolean()',
  ]);
});

test("a contract's name or parameterPrefix that is not a string is CAP010 at synth, not a TypeError", () => {
  // GIVEN contracts whose name and parameter prefix a JavaScript program got wrong
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() }, name: 42 as any });
  new InterfaceContract(cdn, 'Shop', { version: '1.0.0', fields: { tenantHeader: Field.string() }, parameterPrefix: ['/x'] as any });

  // WHEN synthesized, THEN each is refused naming the prop (the contracts keep their ids as names meanwhile)
  expect(violationsOf(app).filter((v) => v.code === 'CAP010').map((v) => v.message)).toEqual([
    "invalid object: 'cdn/Edge' failed its own validation: 'name' (42) must be a string",
    'invalid object: \'cdn/Shop\' failed its own validation: \'parameterPrefix\' (["/x"]) must be a string',
  ]);
});

describe('declarations and objects a JavaScript program gets wrong: CAP010 at synth naming each, never CAP000', () => {
  /** The CAP010 messages of synthesizing what `build` declares in a capability's routing chart; fails on any CAP000. */
  function refusals(build: (routing: RuntimeRouting, cdn: Capability) => void, routingProps?: unknown): string[] {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const cdn = new Capability(app, 'cdn');
    build(new RuntimeRouting(cdn, 'Routing', routingProps as any), cdn);
    const violations = violationsOf(app);
    expect(violations.filter((v) => v.code === 'CAP000')).toEqual([]);
    return violations.filter((v) => v.code === 'CAP010').map((v) => v.message.replace(/^invalid object: /, ''));
  }

  test('a Reference whose target, kind or options are not of their shape', () => {
    expect(refusals((r) => {
      Reference.external(r, 'Partial', { kind: 'Secret' } as any);
      Reference.clusterScoped(r, 'Kind', 'Widget' as any);
      Reference.byName(r, 'Options', { source: 5, target: { apiVersion: 'v1' } } as any);
      Reference.externalPods(r, 'Pods', { namespace: 7, labels: { app: 1 } } as any);
      Reference.externalPods(r, 'NoLabels', { namespace: 'shop', labels: {} });
    })).toEqual([

      "'cdn/Routing/Kind' failed its own validation: Reference.clusterScoped's kind (\"Widget\") must be an object such as { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer' }",
      "'cdn/Routing/NoLabels' failed its own validation: Reference.externalPods's labels ({}) must be a map of at least one label to its value, as in { namespace: 'shop', labels: { app: 'api' } }",
      "'cdn/Routing/Options' failed its own validation: Reference.byName's 'field' (undefined) must be the dotted path of the field holding the name, such as 'spec.ruleSetRef'",
      "'cdn/Routing/Options' failed its own validation: Reference.byName's 'source' must be a construct: an ApiObject, or a construct whose default child is one",
      "'cdn/Routing/Options' failed its own validation: Reference.byName's 'target'.kind (undefined) must be a string that is not empty, as in { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' }",
      "'cdn/Routing/Partial' failed its own validation: Reference.external's target.apiVersion (undefined) must be a string that is not empty, as in { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'edge' }",
      "'cdn/Routing/Partial' failed its own validation: Reference.external's target.name (undefined) must be a string that is not empty, as in { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'edge' }",
      "'cdn/Routing/Pods' failed its own validation: Reference.externalPods's labels ({\"app\":1}) must be a map of at least one label to its value, as in { namespace: 'shop', labels: { app: 'api' } }",
      "'cdn/Routing/Pods' failed its own validation: Reference.externalPods's namespace (7) must be a string that is not empty, as in { namespace: 'shop', labels: { app: 'api' } }",
    ]);
  });

  test('a by-name reference whose source construct has no ApiObject', () => {
    expect(refusals((r) => {
      Reference.byName(r, 'Rules', { source: new Construct(r, 'Empty'), field: 'spec.ruleSetRef', target: { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' } });
    })).toEqual(["'cdn/Routing/Rules' failed its own validation: 'source' ('cdn/Routing/Empty') must be an ApiObject, or a construct whose default child is one"]);
  });

  test('an object holding a BigInt, a Symbol or a function', () => {
    expect(refusals((r) => {
      new ApiObject(r, 'Big', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { n: 10n } });
      new ApiObject(r, 'Sym', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sym' }, data: { list: ['a', Symbol('s')] } });
      new ApiObject(r, 'Fn', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fn', labels: { made: (() => 'x') as any } } });
    })).toEqual([
      "'data.list[1]' of ConfigMap sym declared by 'cdn/Routing/Sym' is a Symbol, which JSON and YAML have no form for. Give it as a string or a number.",
      "'data.n' of ConfigMap big declared by 'cdn/Routing/Big' is a BigInt, which JSON and YAML have no form for. Give it as a string or a number.",
      // the label rule says it too, as of any label value that is no string
      "'metadata.labels.made' (function () => 'x') of ConfigMap fn declared by 'cdn/Routing/Fn' must be a string. Quote the value.",
      "'metadata.labels.made' of ConfigMap fn declared by 'cdn/Routing/Fn' is a function, which JSON and YAML have no form for. Give it as a string or a number.",
    ]);
  });

  test("a RuntimeRouting's routeStyle or gateway, a DeploymentAggregate's tenant", () => {
    expect(refusals((_r, cdn) => new DeploymentAggregate(cdn, 'acme', { tenant: 5 } as any), { routeStyle: 'nginx', gateway: 'edge' })).toEqual([
      "'cdn/Routing' failed its own validation: 'gateway' (\"edge\") must be { name } or { name, namespace }, such as { name: 'edge', namespace: 'gateways' }",
      "'cdn/Routing' failed its own validation: 'routeStyle' (\"nginx\") must be RouteStyle.GATEWAY_API or RouteStyle.ISTIO",
      "'cdn/acme' failed its own validation: 'tenant' (5) must be the tenant's name, a string that is not empty",
    ]);
  });
});

describe("the routing helpers' options a JavaScript program gets wrong: the call throws, naming the option", () => {
  const routing = () => new RuntimeRouting(new Capability(new CapabilityApp({ outdir: path.join(tempDir(), 'dist') }), 'cdn'), 'Routing', { routeStyle: RouteStyle.ISTIO });

  test('addBackend: an image that is no string, replicas that are no whole number, options that are no object', () => {
    const r = routing();
    expect(() => r.addBackend('web', { image: 5, port: 80 } as any)).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addBackend 'cdn/Routing/web': 'image' (5) must be a container image, such as 'ghcr.io/example/web:1.4.2'"));
    expect(() => r.addBackend('web', { image: 'nginx', port: 80, replicas: 1.5 })).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addBackend 'cdn/Routing/web': 'replicas' (1.5) must be a whole number, 0 or more"));
    expect(() => r.addBackend('web', null as any)).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addBackend 'cdn/Routing/web': its options (null) must be an object, such as { image: 'ghcr.io/example/web:1.4.2', port: 8080 }"));
    expect(() => r.addBackend('web', { image: 'nginx', port: '80' } as any)).toThrow(new Error('The composition was refused with 1 violation:\nCAP010 invalid object: addBackend \'cdn/Routing/web\': \'port\' ("80") must be an integer from 1 to 65535'));
  });

  test('addVersionedBackend: versions given as a list, a version without its image', () => {
    const r = routing();
    expect(() => r.addVersionedBackend('web', { port: 80, versions: [{ image: 'a' }] as any })).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: addVersionedBackend \'cdn/Routing/web\': \'versions\' ([{"image":"a"}]) must be a map of version names to versions, such as { blue: { image: \'ghcr.io/example/web:1.4.2\' } }',
    ));
    expect(() => r.addVersionedBackend('api', { port: 80, versions: { blue: {} as any } })).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addBackend 'cdn/Routing/apiBlue': 'image' (undefined) must be a container image, such as 'ghcr.io/example/web:1.4.2'"));
  });

  test('addTenantRoute: a tenant that is a number, a backend that is none, hostnames and path prefix of another type', () => {
    const r = routing();
    const web = r.addBackend('web', { image: 'nginx', port: 80 });
    expect(() => r.addTenantRoute(5 as any, web)).toThrow(new Error(
      "The composition was refused with 1 violation:\nCAP010 invalid object: addTenantRoute of 'cdn/Routing': the tenant 5 must be a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, " +
        "at most 63 characters): it is the value the edge writes into the tenant header, and it names the route 'tenant-<tenant>'. Route a tenant id such as \"5\", and have the edge write that value.",
    ));
    expect(() => r.addTenantRoute('acme', null as any)).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-acme': 'backend' (null) must be what addBackend or addVersionedBackend returned"));
    expect(() => r.addTenantRoute('acme', web, { hostnames: 'acme.example.com' as any })).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: addTenantRoute \'cdn/Routing/tenant-acme\': \'hostnames\' ("acme.example.com") must be a list of host names, such as ["acme.example.com"]',
    ));
    expect(() => r.addTenantRoute('acme', web, { pathPrefix: 5 as any })).toThrow(new Error("The composition was refused with 1 violation:\nCAP010 invalid object: addTenantRoute 'cdn/Routing/tenant-acme': 'pathPrefix' (5) must start with \"/\", such as \"/api\""));
  });
});
