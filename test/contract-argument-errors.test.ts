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
