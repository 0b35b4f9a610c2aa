import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, Field, FieldMap, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { edgeComposition, EdgeComposition } from './contract-fixtures';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

/** GIVEN-side helper: the edge contract published and consumed by the routing chart (originDnsName only). */
function usedEdge(): EdgeComposition {
  const composition = edgeComposition();
  const { edge, base, distribution, routing } = composition;
  edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
  podReading(routing, 'Web', edge.consume(routing).originDnsName.envVar('ORIGIN'));
  return composition;
}

/** A Pod in `chart` whose container renders `env`: the handle it came from is then read by the Pod. */
function podReading(chart: Construct, id: string, env: unknown): ApiObject {
  return new ApiObject(chart, id, { apiVersion: 'v1', kind: 'Pod', metadata: { name: id.toLowerCase() }, spec: { containers: [{ name: 'app', image: 'nginx', env: [env] }] } });
}

const STOREFRONT_VALUES = { originDnsName: 'origin.example.com', healthUrl: 'https://example.com/healthz', tenantHeader: 'x-tenant-id' };

/** GIVEN-side helper: capability shop with contract Storefront 2.1.0 (a field of every kind, two optional), published. */
function storefront() {
  const composition = storefrontWith('2.1.0');
  composition.contract.publish(composition.base, STOREFRONT_VALUES);
  return composition;
}

/** GIVEN-side helper: capability shop with contract Storefront at `version`, its fields and `extra`, not yet published. */
function storefrontWith(version: string, extra: FieldMap = {}) {
  const app = newApp();
  const shop = new Capability(app, 'shop');
  const contract = new InterfaceContract(shop, 'Storefront', {
    version,
    fields: {
      originDnsName: Field.dnsName({ description: 'DNS name of the origin' }),
      healthUrl: Field.url(),
      tenantHeader: Field.string(),
      maxTenants: Field.number().optional(),
      cache: Field.boolean().optional(),
      ...extra,
    },
  });
  return { app, contract, base: new SharedBase(shop, 'Base') };
}

/**
 * A validator of `schema` as a reader of the parameter would run it: ajv 6 knows draft-07, not the 2020-12
 * meta-schema, and the keywords interface.json uses mean the same in both; ajv-formats checks hostname and uri, which
 * ajv alone would only warn about.
 */
function draft7Validator(schema: Record<string, unknown>): (values: unknown) => boolean {
  const { $schema, ...rest } = schema;
  expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
  const validate = addFormats(new Ajv({ strict: false })).compile(rest);
  return (values) => validate(values) as boolean;
}

/** Every file named `name` under `dir`, relative to it. */
function filesNamed(dir: string, name: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => path.basename(f) === name).sort();
}

describe('interface.json', () => {
  test('synth writes exactly one interface.json, holding the contracts of every capability', () => {
    // GIVEN two capabilities, each with its own contract published and consumed
    const { app } = usedEdge();
    const web = new Capability(app, 'web');
    const api = new InterfaceContract(web, 'Api', { version: '0.3.0', fields: { endpoint: Field.url() } });
    api.publish(new SharedBase(web, 'Base'), { endpoint: 'https://api.example.com' });
    api.consume(new RuntimeRouting(web, 'Routing'));

    // WHEN synthesized and written
    app.synth();

    // THEN one interface.json at the top of the outdir, with one record per contract
    expect(filesNamed(app.outdir, 'interface.json')).toEqual(['interface.json']);
    const artifact = JSON.parse(fs.readFileSync(path.join(app.outdir, 'interface.json'), 'utf-8'));
    expect(artifact.interfaces.map((i: { capability: string; name: string }) => `${i.capability}/${i.name}`)).toEqual(['cdn/Edge', 'web/Api']);
  });

  test('the written file is the synth result interface, at format version 1', () => {
    // GIVEN the edge contract in use
    const { app } = usedEdge();

    // WHEN synthesized and written
    const { interface: artifact } = app.synthesize();
    app.synth();

    // THEN the file is that artifact, formatVersion 1
    const written = JSON.parse(fs.readFileSync(path.join(app.outdir, 'interface.json'), 'utf-8'));
    expect(written).toEqual(artifact);
    expect(written.formatVersion).toBe(1);
  });

  test('a record names the capability, the contract, its version and the parameter that holds it', () => {
    // GIVEN the edge contract 1.2.0 in use
    const { app } = usedEdge();

    // WHEN synthesized
    const [record] = app.synthesize().interface!.interfaces;

    // THEN the record's header
    expect({ capability: record.capability, name: record.name, version: record.version, parameter: record.parameter }).toEqual({
      capability: 'cdn',
      name: 'Edge',
      version: '1.2.0',
      parameter: { store: 'aws-ssm-parameter-store', name: '/cdk-capability/cdn/edge/v1', type: 'String', encoding: 'json' },
    });
  });

  test('the schema types every field, with hostname and uri formats, and requires only the required ones', () => {
    // GIVEN a contract with a field of every kind, two of them optional
    const { app, contract } = storefront();

    // WHEN synthesized
    const { violations, interface: artifact } = app.synthesize();

    // THEN the JSON Schema of the Storefront record
    expect(violations).toEqual([]);
    expect(artifact!.interfaces[0].schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'shop/Storefront 2.1.0',
      type: 'object',
      properties: {
        originDnsName: { type: 'string', format: 'hostname', description: 'DNS name of the origin' },
        healthUrl: { type: 'string', format: 'uri' },
        tenantHeader: { type: 'string' },
        maxTenants: { type: 'number' },
        cache: { type: 'boolean' },
      },
      required: ['originDnsName', 'healthUrl', 'tenantHeader'],
    });
    expect(contract.parameterName).toBe('/cdk-capability/shop/storefront/v2');
  });

  test('the schema accepts the published values and rejects a missing required field or a wrong type or format', () => {
    // GIVEN the Storefront schema from interface.json
    const { app } = storefront();
    const validate = draft7Validator(app.synthesize().interface!.interfaces[0].schema);

    // WHEN the published values, and the same with a field missing, of the wrong type or of the wrong format, are validated
    const verdicts = {
      published: validate(STOREFRONT_VALUES),
      missing: validate({ ...STOREFRONT_VALUES, tenantHeader: undefined }),
      wrongType: validate({ ...STOREFRONT_VALUES, maxTenants: '10' }),
      wrongFormat: validate({ ...STOREFRONT_VALUES, healthUrl: 'not a url' }),
    };

    // THEN only the first is valid
    expect(verdicts).toEqual({ published: true, missing: false, wrongType: false, wrongFormat: false });
  });

  test("a later minor version's values pass the schema of the minor a reader was built against", () => {
    // GIVEN Storefront 2.1.0 as a reader built against it holds its schema, and 2.2.0, which adds an optional field
    const before = draft7Validator(storefront().app.synthesize().interface!.interfaces[0].schema);
    const later = storefrontWith('2.2.0', { region: Field.string().optional() });
    const values = { ...STOREFRONT_VALUES, region: 'eu-west-1' };
    later.contract.publish(later.base, values);
    const { violations, interface: artifact } = later.app.synthesize();

    // WHEN the values 2.2.0 publishes are validated against the 2.1.0 schema, and against its own
    const verdicts = { byEarlierMinor: before(values), byOwn: draft7Validator(artifact!.interfaces[0].schema)(values) };

    // THEN both accept them (semver: a minor version is compatible with the readers of an earlier one)
    expect(violations).toEqual([]);
    expect(artifact!.interfaces[0].version).toBe('2.2.0');
    expect(verdicts).toEqual({ byEarlierMinor: true, byOwn: true });
  });

  test('each field lists the stacks that produce it and the charts that consume it, by construct path', () => {
    // GIVEN originDnsName read by cdn/Routing and tenantHeader read by web/Routing (another capability, namespace web)
    const { app, edge } = usedEdge();
    const web = new RuntimeRouting(new Capability(app, 'web'), 'Routing', { namespace: 'web' });
    podReading(web, 'Web', edge.consume(web).tenantHeader.envVar());

    // WHEN synthesized
    const [record] = app.synthesize().interface!.interfaces;

    // THEN producers and consumers per field
    expect(record.fields).toEqual({
      originDnsName: { producedBy: ['cdn/Base'], consumedBy: ['cdn/Routing'], readBy: ['cdn/Routing/Web'] },
      tenantHeader: { producedBy: ['cdn/Base'], consumedBy: ['web/Routing'], readBy: ['web/Routing/Web'] },
    });
  });

  test('an optional field left unpublished has no producer', () => {
    // GIVEN the Storefront contract with maxTenants and cache not published
    const { app } = storefront();

    // WHEN synthesized
    const [record] = app.synthesize().interface!.interfaces;

    // THEN those fields have neither producer nor consumer
    expect(record.fields.maxTenants).toEqual({ producedBy: [], consumedBy: [], readBy: [] });
    expect(record.fields.cache).toEqual({ producedBy: [], consumedBy: [], readBy: [] });
    expect(record.fields.tenantHeader).toEqual({ producedBy: ['shop/Base'], consumedBy: [], readBy: [] });
  });

  test('interface.json describes the interface without carrying any published value', () => {
    // GIVEN the literal "x-tenant-id" and a deploy-time domain name published
    const { app } = usedEdge();

    // WHEN synthesized and written
    app.synth();

    // THEN the written file holds neither the literal nor any token
    const text = fs.readFileSync(path.join(app.outdir, 'interface.json'), 'utf-8');
    expect(text).not.toContain('x-tenant-id');
    expect(text).not.toContain('${Token[');
    expect(text).not.toContain('Fn::GetAtt');
  });

  test('no literal of a URL or DNS name field appears in interface.json', () => {
    // GIVEN the Storefront values published as literals
    const { app } = storefront();

    // WHEN synthesized
    const text = JSON.stringify(app.synthesize().interface);

    // THEN none of them is in the artifact
    expect(text).not.toContain('origin.example.com');
    expect(text).not.toContain('https://example.com/healthz');
  });
});
