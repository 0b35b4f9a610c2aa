/**
 * The handles `consume` returns, the fields a contract declares and its props, used as a program gets them
 * wrong (from JavaScript, or `as any`): each mistake is a coded refusal naming it, never a TypeError, a CAP000
 * or a manifest the API server refuses.
 */
import * as path from 'path';
import { CfnParameter } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, CompositionError, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';

afterAll(removeTempDirs);

const REFUSED = 'The composition was refused with 1 violation:\n';

/** The one violation of the refusal `call` throws, as `code`, `message` and `paths`; fails unless it is a CompositionError. */
function refusalOf(call: () => unknown): { code: string; message: string; paths: readonly string[] } {
  const error = thrownBy(call);
  expect(CompositionError.isCompositionError(error)).toBe(true);
  const [violation, ...more] = (error as CompositionError).violations;
  expect(more).toEqual([]);
  expect((error as Error).message).toBe(`${REFUSED}${violation.code} ${violation.message}`);
  return { code: violation.code, message: violation.message, paths: violation.paths };
}

/** A capability 'cdn' with its SharedBase, a RuntimeRouting and the contract 'Edge' of `fields`. */
function composition(fields: Record<string, Field<any>> = { originDnsName: Field.dnsName(), tenantHeader: Field.string() }, props: object = {}) {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields, ...props });
  return { app, cdn, base, routing, edge };
}

const VALUES = { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' };

/** The violations of synthesizing `app`, each as its code and message. */
function violationsOf(app: CapabilityApp): string[] {
  return app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
}

describe('a field builder given options it cannot take', () => {
  test('options that are no object (null, a description given bare) are CAP010 naming the builder, not a TypeError or dropped', () => {
    expect(refusalOf(() => Field.string(null as any))).toEqual({
      code: 'CAP010',
      message: "invalid object: Field.string: its options (null) must be an object, such as { description: 'DNS name of the edge origin' }",
      paths: [],
    });
    expect(refusalOf(() => Field.dnsName('DNS name of the edge origin' as any)).message).toBe(
      "invalid object: Field.dnsName: its options (\"DNS name of the edge origin\") must be an object, such as { description: 'DNS name of the edge origin' }",
    );
  });

  test('a description that is no string, or a misspelt option, is CAP010, every problem in one refusal', () => {
    expect(refusalOf(() => Field.number({ descripton: 'limit', description: 42 } as any)).message).toBe(
      "invalid object: Field.number options: 'descripton' is not an option (did you mean 'description'?); the options are 'description'; "
        + "'description' (42) must be a string: what the field means, written to interface.json",
    );
  });

  test('each builder takes its description, and none', () => {
    expect([Field.url({ description: 'where' }), Field.boolean(), Field.string({})].map((f) => f.toJsonSchema())).toEqual([
      { type: 'string', format: 'uri', description: 'where' },
      { type: 'boolean' },
      { type: 'string' },
    ]);
  });
});

describe('InterfaceContract props a JavaScript program gets wrong', () => {
  test('a misspelt prop is CAP010 as the contract is created, naming the prop it most likely misspells, not a default parameter path taken without a word', () => {
    // GIVEN a capability
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const cdn = new Capability(app, 'cdn');

    // THEN parameterPrefix misspelt is refused
    expect(refusalOf(() => new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: {}, parameterPrefx: '/platform' } as any))).toEqual({
      code: 'CAP010',
      message: "invalid object: InterfaceContract 'cdn/Edge' props: 'parameterPrefx' is not an option (did you mean 'parameterPrefix'?); "
        + "the options are 'version', 'fields', 'parameterPrefix', 'name'",
      paths: ['cdn/Edge'],
    });
  });

  test('fields left out are CAP010 naming them, not a CAP000 crash of collect', () => {
    // GIVEN no fields
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const edge = new InterfaceContract(new Capability(app, 'cdn'), 'Edge', { version: '1.0.0' } as any);

    // THEN the contract has no fields meanwhile, and synth names them
    expect(edge.fields).toEqual({});
    expect(violationsOf(app)).toEqual([
      "CAP010 invalid object: 'cdn/Edge' failed its own validation: 'fields' (undefined) must be a map of fields, such as { tenantHeader: Field.string() }",
    ]);
  });
});

describe("a handle's envVar and envValue given what they cannot take", () => {
  const RULE = "is no environment variable name the API server takes (letters, digits, '_', '-' and '.', not starting with a digit)";

  test.each([
    ['', 'it is empty. Give one such as "TENANT_HEADER"'],
    ['MY VAR', 'it contains " ". Give one such as "MY_VAR"'],
    ['1ABC', 'it starts with a digit. Give one such as "_1ABC"'],
    ['A=B', 'it contains "=". Give one such as "A_B"'],
    ['..ENV', 'it starts with \'..\'. Give one such as "_..ENV"'],
  ])('envVar(%j) is CAP009 as it is called, not an env entry the API server refuses', (name, problem) => {
    // GIVEN
    const { routing, edge } = composition();
    const values = edge.consume(routing);

    // THEN
    expect(refusalOf(() => values.tenantHeader.envVar(name))).toEqual({
      code: 'CAP009',
      message: `contract misuse: envVar of field 'tenantHeader' of 'cdn/Edge': 'variableName' (${JSON.stringify(name)}) ${RULE}: ${problem}`,
      paths: ['cdn/Edge'],
    });
  });

  test('a name that is no string (a number, an object, null) is CAP009, not an env entry whose name is that value', () => {
    // GIVEN
    const { routing, edge } = composition();
    const values = edge.consume(routing);
    const rule = "must be a string, the environment variable's name, such as envVar('TENANT_HEADER'), or left out to name it 'tenantHeader'";

    // THEN
    expect(refusalOf(() => values.tenantHeader.envVar(42 as any)).message).toBe(`contract misuse: envVar of field 'tenantHeader' of 'cdn/Edge': 'variableName' (42) ${rule}`);
    expect(refusalOf(() => values.tenantHeader.envVar({ name: 'X' } as any)).message).toBe(`contract misuse: envVar of field 'tenantHeader' of 'cdn/Edge': 'variableName' ({"name":"X"}) ${rule}`);
    expect(refusalOf(() => values.tenantHeader.envVar(null as any)).message).toBe(`contract misuse: envVar of field 'tenantHeader' of 'cdn/Edge': 'variableName' (null) ${rule}`);
  });

  test('without a name, a field whose name is no environment variable name is CAP009 asking for one', () => {
    // GIVEN a field named as a Secret key takes it, but not as an environment variable
    const { routing, edge } = composition({ '9lives': Field.number() });
    const values = edge.consume(routing) as any;

    // THEN
    expect(refusalOf(() => values['9lives'].envVar()).message).toBe(
      "contract misuse: envVar of field '9lives' of 'cdn/Edge': without 'variableName' the variable is named as the field, \"9lives\", which " + RULE
        + ": it starts with a digit. Name it, such as envVar('_9lives')",
    );
    // AND named, it makes the env entry
    expect(values['9lives'].envVar('LIVES')).toEqual({ name: 'LIVES', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: '9lives' } } });
  });

  test('envValue given a name is CAP009 saying where the name goes, not the name dropped', () => {
    // GIVEN
    const { routing, edge } = composition();
    const values = edge.consume(routing);

    // THEN
    expect(refusalOf(() => (values.tenantHeader.envValue as any)('HEADER')).message).toBe(
      "contract misuse: envValue of field 'tenantHeader' of 'cdn/Edge': it takes no arguments, but was given \"HEADER\": "
        + "the variable's name is its key in envVariables, such as { TENANT_HEADER: values.tenantHeader.envValue() }; for a raw env entry of a name of your own, call envVar(name)",
    );
  });

  test('envVar(undefined) and envValue() make the entries they made before', () => {
    // GIVEN
    const { routing, edge } = composition();
    const values = edge.consume(routing);

    // THEN
    expect(values.tenantHeader.envVar(undefined)).toEqual({ name: 'tenantHeader', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } });
    expect(values.tenantHeader.envVar('my.env-name')).toEqual({ name: 'my.env-name', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } });
    expect(values.tenantHeader.envValue()).toBeInstanceOf(kplus.EnvValue);
  });
});

describe('a handle used where no value of the field is', () => {
  test('its value read before publish is CAP009 at synth when the field is then published as a literal, not undefined written without a word', () => {
    // GIVEN the header's value read, then the contract published
    const { app, base, routing, edge } = composition();
    const values = edge.consume(routing);
    const header = values.tenantHeader.value;
    edge.publish(base, VALUES);
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { header: header as any } });

    // THEN
    expect(header).toBeUndefined();
    expect(app.synthesize().violations.map((v) => ({ code: v.code, message: v.message, paths: v.paths }))).toEqual([
      {
        code: 'CAP009',
        message: "contract misuse: 'cdn/Routing' read the value of 'tenantHeader' of 'cdn/Edge' before 'cdn/Base' published it, so it got undefined, not \"x-tenant-id\". "
          + "Publish the contract before reading a handle's value, or read the field at runtime with envValue() or envVar().",
        paths: ['cdn/Edge', 'cdn/Routing'],
      },
    ]);
  });

  test('its value read after publish is the literal; read before a deploy-time value or an optional field left out is undefined either way, and accepted', () => {
    // GIVEN an optional field and a deploy-time one read before publish, the header read after it
    const { app, base, routing, edge } = composition({ tenantHeader: Field.string(), origin: Field.string(), maxTenants: Field.number().optional() });
    const values = edge.consume(routing);
    const early = [values.maxTenants.value, values.origin.value];
    edge.publish(base, { tenantHeader: 'x-tenant-id', origin: new CfnParameter(base, 'Origin').valueAsString });

    // THEN
    expect([...early, values.origin.value, values.tenantHeader.value]).toEqual([undefined, undefined, undefined, 'x-tenant-id']);
    expect(violationsOf(app)).toEqual([]);
  });

  test('a handle written into a manifest as a value is CAP010 naming the handle and how a pod reads it, not a function JSON has no form for', () => {
    // GIVEN the handle itself as a ConfigMap value
    const { app, base, routing, edge } = composition();
    edge.publish(base, VALUES);
    const values = edge.consume(routing);
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { header: values.tenantHeader as any } });

    // THEN
    expect(violationsOf(app)).toEqual([
      "CAP010 invalid object: 'data.header' of ConfigMap settings declared by 'cdn/Routing/Settings' is the handle of field 'tenantHeader' of 'cdn/Edge', not a value: "
        + 'a consumed field reaches a pod only as a container env entry that reads it from the Secret the contract binds. '
        + 'Render it as one: env: [values.tenantHeader.envVar()], or with cdk8s-plus envVariables: { NAME: values.tenantHeader.envValue() }.',
    ]);
  });
});
