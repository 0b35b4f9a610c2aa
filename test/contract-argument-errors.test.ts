import * as path from 'path';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const REFUSED = 'The composition was refused with 1 violation:\n';

/** The one violation of the refusal `call` throws, as `code`, `message` and `paths`; fails unless it is a CompositionError. */
function refusalOf(call: () => unknown): { code: string; message: string; paths: readonly string[] } {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(CompositionError.isCompositionError(error)).toBe(true);
  const [violation, ...more] = (error as CompositionError).violations;
  expect(more).toEqual([]);
  expect((error as Error).message).toBe(`${REFUSED}${violation.code} ${violation.message}`);
  return { code: violation.code, message: violation.message, paths: violation.paths };
}

/** A capability 'cdn' with its SharedBase, a RuntimeRouting and the contract 'Edge'. */
function composition() {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string() } });
  return { app, cdn, base, routing, edge };
}

const VALUES = { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' };
const STACK_RULE = "must be the SharedBase or a DeploymentAggregate of capability 'cdn', the stack that creates the parameter, such as publish(base, values)";

// Arguments as a JavaScript program (or `as any`) can give them: each was a TypeError from inside aws-cdk or
// the contract (`stack.toJsonString is not a function`), now a coded refusal naming the argument and its rule.

describe('InterfaceContract.publish given what it cannot take', () => {
  test('a construct that is not a stack (the Capability, a RuntimeRouting) is CAP009, naming the argument, what it got and what it must be', () => {
    // GIVEN
    const { cdn, routing, edge } = composition();

    // THEN
    expect(refusalOf(() => edge.publish(cdn as any, VALUES))).toEqual({
      code: 'CAP009',
      message: `contract misuse: publish of 'cdn/Edge': 'stack' (the Capability 'cdn') ${STACK_RULE}`,
      paths: ['cdn/Edge'],
    });
    expect(refusalOf(() => edge.publish(routing as any, VALUES)).message).toBe(`contract misuse: publish of 'cdn/Edge': 'stack' (the RuntimeRouting 'cdn/Routing') ${STACK_RULE}`);
    expect(refusalOf(() => edge.publish(undefined as any, VALUES)).message).toBe(`contract misuse: publish of 'cdn/Edge': 'stack' (undefined) ${STACK_RULE}`);
  });

  test('values that are no map, options that are not of their types: every problem in one refusal', () => {
    // GIVEN
    const { base, routing, edge } = composition();

    // THEN
    expect(refusalOf(() => edge.publish(routing as any, null as any, { reader: [], readers: 'eso', tier: 'Huge' } as any)).message).toBe(
      "contract misuse: publish of 'cdn/Edge': 'stack' (the RuntimeRouting 'cdn/Routing') " + STACK_RULE + '; ' +
        "'values' (null) must map the contract's fields to their values, such as { originDnsName: ..., tenantHeader: ... }; " +
        "'options.reader' is not an option (did you mean 'options.readers'?); the options are 'options.readers', 'options.tier'; " +
        "'options.readers' (\"eso\") must be a list of principals that read the parameter (each an iam.IGrantable: a role, a user, a service account), such as [esoRole]; " +
        "'options.tier' (\"Huge\") must be an ssm.ParameterTier: \"Standard\", \"Advanced\", \"Intelligent-Tiering\"",
    );
    expect(refusalOf(() => edge.publish(base, VALUES, null as any)).message).toBe("contract misuse: publish of 'cdn/Edge': 'options' (null) must be an object, such as { readers: [role] }");
    expect(refusalOf(() => edge.publish(base, ['origin.example.com'] as any)).message).toBe(
      "contract misuse: publish of 'cdn/Edge': 'values' ([\"origin.example.com\"]) must map the contract's fields to their values, such as { originDnsName: ..., tenantHeader: ... }",
    );
  });

  test('a refused publish creates nothing; the SharedBase or a DeploymentAggregate publishes as before', () => {
    // GIVEN
    const { cdn, base, routing, edge } = composition();

    // WHEN
    refusalOf(() => edge.publish(routing as any, VALUES));
    const publication = edge.publish(new DeploymentAggregate(cdn, 'acme'), VALUES, { tier: 'Advanced' as any });

    // THEN
    expect(edge.publications).toEqual([publication]);
    expect(publication.stack.node.path).toBe('cdn/acme');
    expect(base.node.tryFindChild('EdgeInterface')).toBeUndefined();
  });
});

describe('InterfaceContract.publish given values from the wrong side or of no value', () => {
  test("a handle consume() returned (a runtime value) is CAP009 as publish is called, not aws-cdk's circular-reference error at synth", () => {
    // GIVEN the contract consumed, its handle passed back into publish
    const { base, routing, edge } = composition();
    const values = edge.consume(routing);

    // THEN
    expect(refusalOf(() => edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: values.tenantHeader as any }))).toEqual({
      code: 'CAP009',
      message: "contract misuse: publish of 'cdn/Edge': 'values.tenantHeader' is the handle of field 'tenantHeader' of 'cdn/Edge' that consume() returned: "
        + 'a runtime value, read by a pod from the Secret the contract binds, which no stack can publish. '
        + 'Publish the deployment-time value itself: a literal, or an aws-cdk value such as distribution.domainName',
      paths: ['cdn/Edge'],
    });
    expect(edge.publications).toEqual([]);
  });

  test('a function, or a Map of the values, is CAP009 naming it', () => {
    // GIVEN
    const { base, edge } = composition();
    const header = () => 'x-tenant-id';

    // THEN
    expect(refusalOf(() => edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: header as any })).message).toBe(
      "contract misuse: publish of 'cdn/Edge': 'values.tenantHeader' (the function header) must be a value, not a function: call it, and publish what it returns",
    );
    expect(refusalOf(() => edge.publish(base, new Map(Object.entries(VALUES)) as any)).message).toBe(
      "contract misuse: publish of 'cdn/Edge': 'values' (a Map) must map the contract's fields to their values, such as { originDnsName: ..., tenantHeader: ... }",
    );
  });

  test('an env entry of a handle published as a field is CAP009 at synth, quoting it as JSON and naming its type with its article', () => {
    // GIVEN an env entry published for a string field
    const { app, base, routing, edge } = composition();
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: edge.consume(routing).tenantHeader.envVar() as any });

    // THEN
    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP009 contract misuse: 'cdn/Base' publishes 'tenantHeader' of 'cdn/Edge' with the wrong type: "
        + '{"name":"tenantHeader","valueFrom":{"secretKeyRef":{"name... is an object, expected a string.',
    ]);
  });

  test('a misspelt field is CAP009 at synth, naming the declared field it most likely misspells', () => {
    // GIVEN originDnsName misspelt
    const { app, base, edge } = composition();
    edge.publish(base, { originDnsNme: 'origin.example.com', tenantHeader: 'x-tenant-id' } as any);

    // THEN
    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP009 contract misuse: 'cdn/Base' does not publish the declared field 'originDnsName' of 'cdn/Edge'. Publish a value for it, or declare it with .optional().",
      "CAP009 contract misuse: 'cdn/Base' publishes 'originDnsNme', which 'cdn/Edge' does not declare (declared: originDnsName, tenantHeader; did you mean 'originDnsName'?). "
        + 'Declare the field in the contract or stop publishing it.',
    ]);
  });
});

describe('InterfaceContract.consume given what it cannot take', () => {
  const CHART_RULE = 'must be the RuntimeRouting, another cdk8s chart, or a construct in one: the chart that reads the values, such as consume(routing)';

  test('a construct in no chart (a stack, the Capability) or no construct at all is CAP009, naming the argument', () => {
    // GIVEN
    const { cdn, base, edge } = composition();

    // THEN
    expect(refusalOf(() => edge.consume(base as any))).toEqual({
      code: 'CAP009',
      message: `contract misuse: consume of 'cdn/Edge': 'chart' (the SharedBase 'cdn/Base') ${CHART_RULE}`,
      paths: ['cdn/Edge'],
    });
    expect(refusalOf(() => edge.consume(cdn as any)).message).toBe(`contract misuse: consume of 'cdn/Edge': 'chart' (the Capability 'cdn') ${CHART_RULE}`);
    expect(refusalOf(() => edge.consume('routing' as any)).message).toBe(`contract misuse: consume of 'cdn/Edge': 'chart' ("routing") ${CHART_RULE}`);
  });

  test('options that are no object, misspelt or not of their types: every problem in one refusal', () => {
    // GIVEN
    const { routing, edge } = composition();

    // THEN
    expect(refusalOf(() => edge.consume(routing, null as any)).message).toBe("contract misuse: consume of 'cdn/Edge': 'options' (null) must be an object, such as { namespace: 'edge' }");
    expect(refusalOf(() => edge.consume(routing, { namespce: 'edge', refreshInterval: 60, secretStoreKind: 'Vault' } as any)).message).toBe(
      "contract misuse: consume of 'cdn/Edge': 'options.namespce' is not an option (did you mean 'options.namespace'?); " +
        "the options are 'options.namespace', 'options.secretStoreName', 'options.secretStoreKind', 'options.refreshInterval'; " +
        "'options.refreshInterval' (60) must be a string; 'options.secretStoreKind' (\"Vault\") must be \"ClusterSecretStore\" or \"SecretStore\"",
    );
  });

  test('a namespace, store name or refresh interval the ExternalSecret cannot carry is CAP009, not a binding the operator or the API server refuses', () => {
    // GIVEN
    const { routing, edge } = composition();
    const rule = (option: string) => `contract misuse: consume of 'cdn/Edge': 'options.${option}'`;
    const NAMESPACE = "must be a namespace, a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";
    const STORE = "must be the name of the External Secrets store, a DNS-1123 subdomain (lowercase letters, digits, '-' and '.') such as 'aws-parameter-store', or left out for that one";
    const INTERVAL = "must be a duration as the External Secrets Operator reads it (Go's time.ParseDuration), such as '1h', '15m' or '1h30m', or '0' to read the parameter once";

    // THEN an empty namespace was a second ExternalSecret of the same name (CAP001), an invalid one CAP010 at synth
    expect(refusalOf(() => edge.consume(routing, { namespace: '' })).message).toBe(`${rule('namespace')} ("") ${NAMESPACE} such as "edge", or left out for the chart's namespace`);
    expect(refusalOf(() => edge.consume(routing, { namespace: 'Edge NS' })).message).toBe(`${rule('namespace')} ("Edge NS") ${NAMESPACE} such as "edge-ns", or left out for the chart's namespace`);
    // AND these were written as given
    expect(refusalOf(() => edge.consume(routing, { secretStoreName: '' })).message).toBe(`${rule('secretStoreName')} ("") ${STORE}`);
    expect(refusalOf(() => edge.consume(routing, { secretStoreName: 'My Store' })).message).toBe(`${rule('secretStoreName')} ("My Store") ${STORE}`);
    expect(refusalOf(() => edge.consume(routing, { refreshInterval: 'hourly' })).message).toBe(`${rule('refreshInterval')} ("hourly") ${INTERVAL}`);
    expect(refusalOf(() => edge.consume(routing, { refreshInterval: '' })).message).toBe(`${rule('refreshInterval')} ("") ${INTERVAL}`);
    expect(refusalOf(() => edge.consume(routing, { refreshInterval: '-1h' })).message).toBe(`${rule('refreshInterval')} ("-1h") ${INTERVAL}`);
    expect(edge.consumptions).toEqual([]);
  });

  test('durations as Go reads them, and store names of dots and dashes, bind', () => {
    for (const refreshInterval of ['0', '1h30m', '90s', '1.5h', '500ms', '250us', '250\u00b5s', '250\u03bcs']) {
      // GIVEN
      const { routing, edge } = composition();

      // WHEN
      edge.consume(routing, { namespace: 'edge-1', secretStoreName: 'aws.parameter-store', refreshInterval });

      // THEN
      expect(edge.consumptions[0].externalSecret.toJson().spec).toMatchObject({ refreshInterval, secretStoreRef: { name: 'aws.parameter-store' } });
    }
  });

  test('consuming again where a binding exists with other options is CAP009, not those options dropped without a word', () => {
    // GIVEN the contract bound in namespace edge with a 5m refresh
    const { cdn, routing, edge } = composition();
    edge.consume(routing, { namespace: 'edge', refreshInterval: '5m' });

    // THEN another chart (or the same one) asking for other options there is refused
    const other = new RuntimeRouting(cdn, 'Other');
    expect(refusalOf(() => edge.consume(other, { namespace: 'edge', refreshInterval: '1h', secretStoreName: 'other', secretStoreKind: 'ClusterSecretStore' })).message).toBe(
      "contract misuse: consume of 'cdn/Edge': the binding in namespace 'edge' that 'cdn/Routing' made has secretStoreName \"aws-parameter-store\" and refreshInterval \"5m\", "
        + "but this call gives 'options.secretStoreName' (\"other\") and 'options.refreshInterval' (\"1h\"): "
        + 'one ExternalSecret binds the contract in a namespace, so each consume there gives the same options, or leaves them out',
    );
    // AND the same options, or none, share the binding
    edge.consume(other, { namespace: 'edge', refreshInterval: '5m' });
    edge.consume(routing, { namespace: 'edge' });
    expect(edge.consumptions.map((c) => [c.chart.node.path, c.externalSecret.node.path])).toEqual([
      ['cdn/Routing', 'cdn/Routing/EdgeInterface'],
      ['cdn/Other', 'cdn/Routing/EdgeInterface'],
    ]);
  });

  test('a construct inside a chart consumes, binding in that chart', () => {
    // GIVEN
    const { routing, edge } = composition();

    // WHEN
    const values = edge.consume(routing, { namespace: 'edge' });

    // THEN
    expect(values.tenantHeader.envVar()).toEqual({ name: 'tenantHeader', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } });
    expect(edge.consumptions.map((c) => [c.chart.node.path, c.namespace])).toEqual([['cdn/Routing', 'edge']]);
  });
});

describe('an InterfaceContract created wrongly', () => {
  test('without props is CAP010 as it is created, naming them', () => {
    // GIVEN
    const { cdn } = composition();

    // THEN
    expect(refusalOf(() => new InterfaceContract(cdn, 'Limits', undefined as any))).toEqual({
      code: 'CAP010',
      message: "invalid object: InterfaceContract 'cdn/Limits': its props (undefined) must be an object, such as { version: '1.0.0', fields: { tenantHeader: Field.string() } }",
      paths: ['cdn/Limits'],
    });
  });

  test('with the id of a contract the capability has, or an id that is no string, is CAP010 naming its place, not the constructs error', () => {
    // GIVEN
    const { cdn } = composition();

    // THEN
    expect(refusalOf(() => new InterfaceContract(cdn, 'Edge', { version: '2.0.0', fields: {} }))).toEqual({
      code: 'CAP010',
      message: "invalid object: InterfaceContract 'cdn/Edge': 'cdn' already has a child of the id 'Edge' (the InterfaceContract 'cdn/Edge'), "
        + "and a construct's id is unique among its siblings. Give the InterfaceContract an id of its own",
      paths: ['cdn/Edge'],
    });
    expect(refusalOf(() => new InterfaceContract(cdn, 42 as any, { version: '2.0.0', fields: {} })).message).toBe(
      "invalid object: InterfaceContract in 'cdn': its id (42) must be a string that is not empty, such as 'Edge'",
    );
  });

  test('outside a Capability is CAP015, naming it', () => {
    // GIVEN
    const { app } = composition();

    // THEN
    expect(refusalOf(() => new InterfaceContract(app as any, 'Edge', { version: '1.0.0', fields: {} }))).toEqual({
      code: 'CAP015',
      message: "misplaced construct: 'Edge' is not inside a Capability. Create it with a Capability, or a construct inside one, as scope.",
      paths: ['Edge'],
    });
  });
});
