// Type-level tests of the interface contract. ts-jest type-checks this file:
// each `@ts-expect-error` fails the suite when the line it covers compiles,
// so a loosened type is caught even before a test runs. Each test also checks
// that synth refuses at runtime what the compiler refuses.
import { Capability, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { edgeComposition, summary } from './contract-fixtures';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

describe('publish values are type-checked against the fields', () => {
  test('publishing a field the contract does not declare does not compile', () => {
    // GIVEN the edge contract
    const { app, edge, base } = edgeComposition();

    // WHEN an undeclared field "region" is published
    edge.publish(base, {
      originDnsName: 'origin.example.com',
      tenantHeader: 'x-tenant-id',
      // @ts-expect-error region is not a field of the contract
      region: 'eu-west-1',
    });

    // THEN (besides the compile error) synth refuses it
    expect(summary(app.synthesize().violations).map((v) => v.message)).toEqual([
      "contract misuse: 'cdn/Base' publishes 'region', which 'cdn/Edge' does not declare (declared: originDnsName, tenantHeader). Declare the field in the contract or stop publishing it.",
    ]);
  });

  test('publishing a number for a string field does not compile', () => {
    // GIVEN the edge contract
    const { app, edge, base } = edgeComposition();

    // WHEN tenantHeader (a string) is published as 42
    edge.publish(base, {
      originDnsName: 'origin.example.com',
      // @ts-expect-error tenantHeader is a string
      tenantHeader: 42,
    });

    // THEN (besides the compile error) synth refuses it
    expect(summary(app.synthesize().violations).map((v) => v.message)).toEqual([
      "contract misuse: 'cdn/Base' publishes 'tenantHeader' of 'cdn/Edge' with the wrong type: 42 is a number, expected a string.",
    ]);
  });

  test('omitting a required field does not compile', () => {
    // GIVEN the edge contract
    const { app, edge, base } = edgeComposition();

    // WHEN tenantHeader is left out
    // @ts-expect-error tenantHeader is required
    edge.publish(base, { originDnsName: 'origin.example.com' });

    // THEN (besides the compile error) synth refuses it
    expect(summary(app.synthesize().violations).map((v) => v.message)).toEqual([
      "contract misuse: 'cdn/Base' does not publish the declared field 'tenantHeader' of 'cdn/Edge'. Publish a value for it, or declare it with .optional().",
    ]);
  });

  test('an optional field may be omitted', () => {
    // GIVEN a contract whose maxTenants is optional
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string(), maxTenants: Field.number().optional() } });

    // WHEN published without maxTenants (this compiles)
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });

    // THEN synth accepts it
    expect(app.synthesize().violations).toEqual([]);
  });

  test('an optional field, when published, still has its type', () => {
    // GIVEN a contract whose maxTenants is an optional number
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string(), maxTenants: Field.number().optional() } });

    // WHEN maxTenants is published as a string
    // @ts-expect-error maxTenants is a number
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id', maxTenants: 'ten' });

    // THEN (besides the compile error) synth refuses it
    expect(summary(app.synthesize().violations).map((v) => v.message)).toEqual([
      "contract misuse: 'cdn/Base' publishes 'maxTenants' of 'cdn/Edge' with the wrong type: \"ten\" is a string, expected a number.",
    ]);
  });
});

describe('consume handles are typed by the fields', () => {
  test('reading a handle the contract does not declare does not compile', () => {
    // GIVEN the published edge contract, consumed
    const { app, edge, base, routing } = edgeComposition();
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });
    const handles = edge.consume(routing);

    // WHEN the undeclared handle "nope" is read, THEN (besides the compile error) the read throws CAP009
    // @ts-expect-error nope is not a field of the contract
    expect(() => handles.nope).toThrow(
      "CAP009 contract misuse: 'cdn/Routing' reads 'nope', which 'cdn/Edge' does not declare (declared: originDnsName, tenantHeader). Declare the field or read a declared one.",
    );
    // AND a program that catches it is still refused at synth
    expect(summary(app.synthesize().violations).map((v) => v.message)).toEqual([
      "contract misuse: 'cdn/Routing' reads 'nope', which 'cdn/Edge' does not declare (declared: originDnsName, tenantHeader). Declare the field or read a declared one.",
    ]);
  });

  test("a handle's value has the type of its field", () => {
    // GIVEN a contract with a string and a number field, published as literals
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string(), maxTenants: Field.number() } });
    edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id', maxTenants: 10 });
    const handles = edge.consume(new RuntimeRouting(cdn, 'Routing'));

    // WHEN the values are read
    const header: string | undefined = handles.tenantHeader.value;
    const max: number | undefined = handles.maxTenants.value;
    // @ts-expect-error a string field's value is not a number
    const wrong: number | undefined = handles.tenantHeader.value;

    // THEN they are the published literals
    expect({ header, max, wrong }).toEqual({ header: 'x-tenant-id', max: 10, wrong: 'x-tenant-id' });
  });
});
