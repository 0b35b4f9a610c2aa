import * as path from 'path';
import * as cdk from 'aws-cdk-lib';
import { ApiObject, App, Chart } from 'cdk8s';
import { Capability, CapabilityApp, CompositionError, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';
import * as runtime from '../src/runtime';

afterAll(removeTempDirs);

const REFUSED = 'The composition was refused with 1 violation:\n';

/** The one violation of the refusal `make` throws, as `code`, `message` and `paths`; fails unless it is a CompositionError. */
function refusalOf(make: () => unknown): { code: string; message: string; paths: readonly string[] } {
  const error = thrownBy(make);
  expect(CompositionError.isCompositionError(error)).toBe(true);
  const [violation, ...more] = (error as CompositionError).violations;
  expect(more).toEqual([]);
  expect((error as Error).message).toBe(`${REFUSED}${violation.code} ${violation.message}`);
  return { code: violation.code, message: violation.message, paths: violation.paths };
}

const outdir = () => path.join(tempDir(), 'dist');

describe('a capability id aws-cdk would refuse for a Stage', () => {
  const RULE = "a capability id is letters, digits, '-', '_' and '.', starting with a letter (the id aws-cdk takes for a Stage)";

  test('is CAP010 as the Capability is created, naming the id, the rule and an id that keeps to it', () => {
    // GIVEN an app
    const app = new CapabilityApp({ outdir: outdir() });

    // WHEN a capability gets an id with a space, THEN the refusal is coded, not aws-cdk's InvalidStageName
    expect(refusalOf(() => new Capability(app, 'a b'))).toEqual({
      code: 'CAP010',
      message: `invalid object: Capability 'a b' has the id "a b", which no capability may have: ${RULE}. Give it an id such as "a-b".`,
      paths: ['a b'],
    });
    // AND the capability was not added to the tree
    expect(app.node.children).toEqual([]);
  });

  test('is the same CAP010 for the runtime-only Capability of cdk-capability/runtime', () => {
    const app = new runtime.CapabilityApp({ outdir: outdir() });

    expect(refusalOf(() => new runtime.Capability(app, 'a b'))).toEqual({
      code: 'CAP010',
      message: `invalid object: Capability 'a b' has the id "a b", which no capability may have: ${RULE}. Give it an id such as "a-b".`,
      paths: ['a b'],
    });
    expect(app.node.children).toEqual([]);
  });

  test('an id without a letter, or of another type from JavaScript, is told to start with a letter', () => {
    const app = new CapabilityApp({ outdir: outdir() });

    expect(refusalOf(() => new Capability(app, '2024')).message).toBe(
      `invalid object: Capability '2024' has the id "2024", which no capability may have: ${RULE}. Give it an id that starts with a letter, such as "cdn".`,
    );
    expect(refusalOf(() => new runtime.Capability(app, 7 as any)).message).toBe(
      `invalid object: Capability '7' has the id 7, which no capability may have: ${RULE}. Give it an id that starts with a letter, such as "cdn".`,
    );
  });

  test('an id that keeps to the rule constructs', () => {
    const app = new CapabilityApp({ outdir: outdir() });
    expect(new Capability(app, 'cdn.v2_a-b').node.path).toBe('cdn.v2_a-b');
    expect(new runtime.Capability(app, 'web').node.path).toBe('web');
  });
});

describe('CapabilityApp props of the wrong type, as a JavaScript program gives them', () => {
  test('an outdir that is a number is one CAP010 naming the prop, the value and what it must be', () => {
    expect(refusalOf(() => new CapabilityApp({ outdir: 123 } as any))).toEqual({
      code: 'CAP010',
      message: "invalid object: CapabilityApp props: 'outdir' (123) must be a path, such as 'dist'",
      paths: [],
    });
  });

  test("every wrong prop, cdk8s' own among them, is listed in one CAP010", () => {
    // GIVEN props each of the wrong type
    const props = {
      outdir: outdir(), lockFile: false, outputFileExtension: 1, yamlOutputType: 'FILE_PER_APP', recordConstructMetadata: 'yes', resolvers: 5,
    };

    // WHEN the app is made, THEN one coded violation names each
    expect(refusalOf(() => new CapabilityApp(props as any)).message).toBe(
      "invalid object: CapabilityApp props: 'lockFile' (false) must be a path, such as 'capability.lock.json'; "
        + "'outputFileExtension' (1) must be a file extension, such as '.k8s.yaml'; "
        + "'yamlOutputType' (\"FILE_PER_APP\") must be a YamlOutputType of cdk8s, such as YamlOutputType.FILE_PER_CHART; "
        + "'recordConstructMetadata' (\"yes\") must be true or false; "
        + "'resolvers' (5) must be a list of cdk8s resolvers (objects with a resolve(context) method), such as [new LazyResolver()]",
    );
  });

  test("cdk8s' own props of their types construct", () => {
    const app = new CapabilityApp({ outdir: outdir(), outputFileExtension: '.yaml', yamlOutputType: 0, recordConstructMetadata: false, resolvers: [] });
    expect(app.outputFileExtension).toBe('.yaml');
  });
});

describe('a tenant id that is no DNS-1123 label', () => {
  test('is CAP010 at addTenantRoute, naming the routing, the tenant, the rule and a tenant that keeps to it', () => {
    // GIVEN a routing with a backend
    const app = new CapabilityApp({ outdir: outdir() });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: { name: 'edge' } });
    const web = routing.addBackend('Web', { image: 'nginx:1.27', port: 8080 });

    // WHEN a tenant is routed by its display name
    const refusal = refusalOf(() => routing.addTenantRoute('Acme Corp', web));

    // THEN the refusal is coded and suggests the label
    expect(refusal).toEqual({
      code: 'CAP010',
      message: "invalid object: addTenantRoute of 'cdn/Routing': the tenant \"Acme Corp\" must be a DNS-1123 label (lowercase letters, digits and '-', "
        + 'starting and ending with a letter or digit, at most 63 characters): it is the value the edge writes into the tenant header, and it names '
        + "the route 'tenant-<tenant>'. Route a tenant id such as \"acme-corp\", and have the edge write that value.",
      paths: ['cdn/Routing'],
    });
    // AND no route was declared
    expect(routing.node.tryFindChild('tenant-Acme Corp')).toBeUndefined();
  });

  test('a tenant with nothing of a label in it is shown a label such as "acme"', () => {
    const app = new CapabilityApp({ outdir: outdir() });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { gateway: { name: 'edge' } });
    const web = routing.addBackend('Web', { image: 'nginx:1.27', port: 8080 });

    expect(refusalOf(() => routing.addTenantRoute('--', web)).message).toMatch(/Route a tenant id such as "acme", and have the edge write that value\.$/);
  });
});

describe('an aws-cdk stack outside every Capability', () => {
  test('a plain Stack under a CapabilityApp is refused at synth with CAP015, naming it and the scope to give', () => {
    // GIVEN a capability, and a stack beside it rather than in it
    const app = new CapabilityApp({ outdir: outdir() });
    new Capability(app, 'shop');
    new cdk.Stack(app as any, 'Outside');

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.violations).toEqual([{
      code: 'CAP015',
      message: "misplaced construct: stack 'Outside' is created outside any Capability, so it belongs to no cloud assembly and would not be deployed. "
        + "Create it with a Capability, or a construct inside one, as scope (new Stack(capability, 'Outside')), or keep it in a plain aws-cdk App.",
      paths: ['Outside'],
    }]);
  });
});

describe('asking for the Capability or the CapabilityApp of a construct outside one', () => {
  test('Capability.of a construct in no capability is CAP015, naming its path', () => {
    // GIVEN
    const app = new CapabilityApp({ outdir: outdir() });
    const loose = new ApiObject(new Chart(app, 'loose'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap' });

    // THEN
    expect(refusalOf(() => Capability.of(loose))).toEqual({
      code: 'CAP015',
      message: "misplaced construct: 'loose/Settings' is not inside a Capability. Create it with a Capability, or a construct inside one, as scope.",
      paths: ['loose/Settings'],
    });
    expect(refusalOf(() => runtime.Capability.of(app)).message).toBe('misplaced construct: the root construct is not inside a Capability. Create it with a Capability, or a construct inside one, as scope.');
  });

  test('Capability.of a construct in a runtime-only capability is CAP015, naming that capability and the Capability to use', () => {
    // GIVEN
    const app = new CapabilityApp({ outdir: outdir() });
    const routing = new RuntimeRouting(new runtime.Capability(app, 'web'), 'Routing');

    // THEN
    expect(refusalOf(() => Capability.of(routing))).toEqual({
      code: 'CAP015',
      message: "misplaced construct: 'web/Routing' is inside the runtime-only capability 'web', which holds no stacks, not in a Capability that takes them. "
        + "Create that capability with the Capability of 'cdk-capability' (it takes stacks and charts), not of 'cdk-capability/runtime'.",
      paths: ['web/Routing'],
    });
    expect(runtime.Capability.of(routing).node.path).toBe('web');
  });

  test('CapabilityApp.of a construct under a plain cdk8s App is CAP015, naming its path', () => {
    // GIVEN
    const chart = new Chart(new App({ outdir: outdir() }), 'web');

    // THEN
    expect(refusalOf(() => CapabilityApp.of(chart))).toEqual({
      code: 'CAP015',
      message: "misplaced construct: 'web' is not in a CapabilityApp. Create the root of its tree with new CapabilityApp() (cdk8s' App, with the same props).",
      paths: ['web'],
    });
  });
});
