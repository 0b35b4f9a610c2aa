import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as src from '../src';
import { Capability, CapabilityApp, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { readTree, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

/**
 * The example's program: a base, two tenants, a routing chart with a CRD, a
 * Namespace, a custom resource and a cdk8s-plus Deployment.
 */
function program(outdir: string): CapabilityApp {
  const app = new CapabilityApp({ outdir });
  const cdn = new Capability(app, 'cdn', { description: 'multi-tenant CDN' });
  const base = new SharedBase(cdn, 'Base');
  new ssm.StringParameter(base, 'OriginDnsName', { parameterName: '/cdn/origin-dns-name', stringValue: 'origin.cdn.example.com' });
  for (const tenant of ['acme', 'globex']) {
    const aggregate = new DeploymentAggregate(cdn, tenant);
    new ssm.StringParameter(aggregate, 'Domain', { parameterName: `/cdn/tenants/${tenant}/domain`, stringValue: `${tenant}.cdn.example.com` });
  }
  const routing = new RuntimeRouting(cdn, 'Routing');
  new ApiObject(routing, 'TenantRoute', {
    apiVersion: 'routing.cdn.example.com/v1',
    kind: 'TenantRoute',
    metadata: { name: 'acme', namespace: 'edge' },
    spec: { header: 'x-tenant-id', value: 'acme', backend: 'web' },
  });
  new kplus.Deployment(routing, 'Web', {
    metadata: { name: 'web', namespace: 'edge' },
    containers: [{ image: 'nginx:1.27', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
  });
  new ApiObject(routing, 'TenantRouteCrd', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'tenantroutes.routing.cdn.example.com' },
    spec: {
      group: 'routing.cdn.example.com',
      scope: 'Namespaced',
      names: { kind: 'TenantRoute', plural: 'tenantroutes', singular: 'tenantroute', listKind: 'TenantRouteList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  new ApiObject(routing, 'EdgeNamespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });
  return app;
}

describe('deterministic output', () => {
  test('two synths of the same program produce byte-identical trees', () => {
    // GIVEN the same program, built twice from the same place, into two folders
    const outdirs = [path.join(tempDir(), 'dist'), path.join(tempDir(), 'dist')];

    // WHEN each is synthesized
    for (const outdir of outdirs) program(outdir).synth();

    // THEN every file, plan, manifests, cloud assembly and templates, is identical
    const [first, second] = outdirs.map(readTree);
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['plan.json', 'deploy/manifest.json', 'runtime/kustomization.yaml', 'deploy/cdnBase4FF4A8ED.template.json']));
    expect(second).toEqual(first);
  });

  test('synthesize() before synth() does not change what synth() writes', () => {
    // GIVEN the same program twice; the second is first inspected with synthesize()
    const plain = path.join(tempDir(), 'dist');
    const inspected = path.join(tempDir(), 'dist');
    const apps = [plain, inspected].map((outdir) => program(outdir));

    // WHEN
    apps[1].synthesize();
    for (const app of apps) app.synth();

    // THEN the outputs are identical
    expect(readTree(inspected)).toEqual(readTree(plain));
  });

  test('the output does not depend on where the program\'s source file lives (two checkouts)', () => {
    // GIVEN one program, byte for byte, saved in two different folders (two checkouts)
    const source = [
      'exports.build = function build(lib, outdir) {',
      '  const app = new lib.src.CapabilityApp({ outdir });',
      '  const cdn = new lib.src.Capability(app, "cdn");',
      '  const base = new lib.src.SharedBase(cdn, "Base");',
      '  new lib.ssm.StringParameter(base, "Origin", { parameterName: "/cdn/origin", stringValue: "origin.example.com" });',
      '  new lib.src.DeploymentAggregate(cdn, "acme");',
      '  const routing = new lib.src.RuntimeRouting(cdn, "Routing");',
      '  new lib.ApiObject(routing, "Settings", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" } });',
      '  app.synth();',
      '};',
      '',
    ].join('\n');
    const checkouts = [tempDir('checkout-a-'), tempDir('checkout-b-')];
    for (const dir of checkouts) fs.writeFileSync(path.join(dir, 'program.js'), source);

    // WHEN each copy is synthesized
    for (const dir of checkouts) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(dir, 'program.js')).build({ src, ssm, ApiObject }, path.join(dir, 'dist'));
    }

    // THEN the outputs are identical: no absolute path or line number of the program leaks into them
    const [a, b] = checkouts.map((dir) => readTree(path.join(dir, 'dist')));
    expect(Object.keys(a)).toContain('plan.json');
    expect(b).toEqual(a);
  });
});
