import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import { parseAllDocuments } from 'yaml';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const RUN_TIMEOUT = HANG_GUARD_MS;

/** Every manifest of the written runtime files, in apply order. */
function runtimeManifests(outdir: string): any[] {
  const dir = path.join(outdir, 'runtime');
  return fs
    .readdirSync(dir)
    .filter((f) => f !== 'kustomization.yaml')
    .sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf-8')).map((d) => d.toJS()));
}

describe('examples/cdn uses its interface contract on both sides', () => {
  let outdir: string;
  let run: { status: number | null; stderr: string };

  beforeAll(() => {
    // GIVEN the example program, run as cdk8s.yaml runs it, writing to a temporary outdir
    outdir = path.join(tempDir(), 'dist');
    const result = spawnSync(process.execPath, [...NODE_TS, 'examples/cdn/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, CDK8S_OUTDIR: outdir },
      encoding: 'utf-8',
      timeout: RUN_TIMEOUT - 5_000,
    });
    if (result.error) throw result.error;
    run = { status: result.status, stderr: result.stderr };
  }, RUN_TIMEOUT);

  test('the example synthesizes without error', () => {
    expect(run).toEqual({ status: 0, stderr: '' });
  });

  test('interface.json declares the Edge contract, produced by the base and consumed by the routing', () => {
    // WHEN interface.json is read
    const artifact = JSON.parse(fs.readFileSync(path.join(outdir, 'interface.json'), 'utf-8'));

    // THEN it holds the one contract with its parameter, schema and users
    expect(artifact.formatVersion).toBe(1);
    expect(artifact.interfaces).toHaveLength(1);
    const [record] = artifact.interfaces;
    expect({ name: `${record.capability}/${record.name}`, version: record.version, parameter: record.parameter.name }).toEqual({
      name: 'cdn/Edge',
      version: '1.0.0',
      parameter: '/cdk-capability/cdn/edge/v1',
    });
    expect(record.schema.properties.originDnsName.format).toBe('hostname');
    expect(record.schema.required).toEqual(['originDnsName', 'tenantHeader']);
    expect(record.fields).toEqual({
      originDnsName: { producedBy: ['cdn/Base'], consumedBy: ['cdn/Routing'], readBy: ['cdn/Routing/web', 'cdn/Routing/globex'] },
      tenantHeader: {
        producedBy: ['cdn/Base'],
        consumedBy: ['cdn/Routing'],
        // the backends read it from the Secret; the tenant routes match on it
        readBy: ['cdn/Routing/web', 'cdn/Routing/globex', 'cdn/Routing/tenant-acme', 'cdn/Routing/tenant-globex', 'cdn/Routing/tenant-initech'],
      },
    });
  });

  test('the runtime output binds the parameter with an ExternalSecret in namespace edge', () => {
    // WHEN the runtime manifests are read
    const externalSecrets = runtimeManifests(outdir).filter((m) => m.kind === 'ExternalSecret');

    // THEN one ExternalSecret extracts /cdk-capability/cdn/edge/v1
    expect(externalSecrets).toEqual([
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: { name: 'cdn-edge-interface', namespace: 'edge', annotations: { 'cdk-capability.io/contract-version': '1.0.0' } },
        spec: {
          refreshInterval: '1h',
          secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws-parameter-store' },
          target: { name: 'cdn-edge-interface', creationPolicy: 'Owner' },
          dataFrom: [{ extract: { key: '/cdk-capability/cdn/edge/v1' } }],
        },
      },
    ]);
  });

  test('the web Deployment reads both fields from the bound Secret', () => {
    // WHEN the Deployment's container env is read
    const [web] = runtimeManifests(outdir).filter((m) => m.kind === 'Deployment');

    // THEN both variables come from the Secret cdn-edge-interface
    expect(web.spec.template.spec.containers[0].env).toEqual([
      { name: 'ORIGIN_DNS_NAME', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } },
      { name: 'TENANT_HEADER', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } },
    ]);
  });

  test('the base template publishes the parameter the ExternalSecret reads', () => {
    // WHEN the base stack's template (named by plan.json) is read
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    const [file] = plan.steps.find((s: { id: string }) => s.id === 'cdn/Base').files;
    const template = Template.fromJSON(JSON.parse(fs.readFileSync(path.join(outdir, file), 'utf-8')));

    // THEN it holds the String parameter /cdk-capability/cdn/edge/v1
    template.resourceCountIs('AWS::SSM::Parameter', 1);
    template.hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdk-capability/cdn/edge/v1', Type: 'String' });
  });

  test('no runtime file holds unresolved aws-cdk token text', () => {
    const dir = path.join(outdir, 'runtime');
    for (const file of fs.readdirSync(dir)) expect(fs.readFileSync(path.join(dir, file), 'utf-8')).not.toContain('${Token[');
  });
});
