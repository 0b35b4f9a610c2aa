import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { parse, parseAllDocuments } from 'yaml';
import { schemaProblems } from './k8s-schemas';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'cdn');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const CLI_TIMEOUT = HANG_GUARD_MS;

interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): CliRun {
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf-8', timeout: CLI_TIMEOUT - 5_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** True when this machine can run a command without a network (`unshare -n`, as root). */
const CAN_UNSHARE = (() => {
  const probe = spawnSync('unshare', ['-n', 'true']);
  return !probe.error && probe.status === 0;
})();

/**
 * Runs the AWS CDK CLI with no network: in a network namespace of its own when
 * the machine allows it, else with proxies that refuse every connection; the
 * version check and notices are off either way.
 */
function cdkOffline(args: string[]): CliRun {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    https_proxy: 'http://127.0.0.1:9',
    http_proxy: 'http://127.0.0.1:9',
  };
  const cdk = path.join(BIN, 'cdk');
  const full = [...args, '--no-notices'];
  return CAN_UNSHARE ? run('unshare', ['-n', cdk, ...full], { cwd: tempDir(), env }) : run(cdk, full, { cwd: tempDir(), env });
}

function yamlDocs(file: string): any[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf-8')).map((d) => d.toJS());
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('examples/cdn under cdk8s synth', () => {
  let synth: CliRun;
  let outdir: string;
  let manifest: any;

  beforeAll(() => {
    outdir = path.join(tempDir(), 'dist');
    const env = { ...process.env };
    delete env.CDK8S_OUTDIR;
    synth = run(path.join(BIN, 'cdk8s'), ['synth', '--output', outdir, '--no-check-upgrade'], { cwd: EXAMPLE, env });
    manifest = synth.status === 0 ? JSON.parse(fs.readFileSync(path.join(outdir, 'deploy', 'manifest.json'), 'utf-8')) : undefined;
  }, CLI_TIMEOUT);

  /** The template of the stack whose display name is `name` (`cdn/Base`). */
  function template(name: string): Template {
    const [id] = Object.entries<any>(manifest.artifacts).find(([, a]) => a.displayName === name) ?? [];
    if (!id) throw new Error(`no stack ${name}`);
    return Template.fromJSON(JSON.parse(fs.readFileSync(path.join(outdir, 'deploy', `${id}.template.json`), 'utf-8')));
  }

  test('cdk8s synth runs the example from its folder and exits 0 without output on stderr', () => {
    expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: '' });
  });

  test('the plan deploys the shared base, then the three tenants, then the runtime in two steps', () => {
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.steps.map((s: any) => `${s.lifecycle} ${s.id}`)).toEqual([
      'deploy cdn/Base',
      'deploy cdn/acme',
      'deploy cdn/globex',
      'deploy cdn/initech',
      'runtime cdn/Routing#1',
      'runtime cdn/Routing#2',
    ]);
  });

  test('the output folders are plan.json, interface.json, deploy/, runtime/, audit/ and gitops/flux/, beside the marker that makes the folder ours', () => {
    const top = [...new Set(filesUnder(outdir).map((f) => f.split(path.sep).slice(0, f.startsWith('gitops') ? 2 : 1).join('/')))];
    expect(top).toEqual(['.cdk-capability-output', 'audit', 'deploy', 'gitops/flux', 'interface.json', 'plan.json', 'runtime']);
  });

  test('the real AWS CDK CLI lists the stacks of dist/deploy offline, the shared base first', () => {
    // WHEN
    const ls = cdkOffline(['ls', '--app', path.join(outdir, 'deploy')]);

    // THEN
    expect({ status: ls.status, stdout: ls.stdout }).toEqual({
      status: 0,
      stdout: ['cdn/Base (cdn-Base)', 'cdn/acme (cdn-acme)', 'cdn/globex (cdn-globex)', 'cdn/initech (cdn-initech)', ''].join('\n'),
    });
  }, CLI_TIMEOUT);

  test('cdk list --show-dependencies shows every tenant stack depending on the shared base', () => {
    // WHEN
    const list = cdkOffline(['list', '--app', path.join(outdir, 'deploy'), '--show-dependencies']);

    // THEN
    expect(list.status).toBe(0);
    expect(parse(list.stdout)).toEqual([
      { id: 'cdn/Base (cdn-Base)', dependencies: [] },
      ...['acme', 'globex', 'initech'].map((t) => ({ id: `cdn/${t} (cdn-${t})`, dependencies: [{ id: 'cdn/Base (cdn-Base)', dependencies: [] }] })),
    ]);
  }, CLI_TIMEOUT);

  test('every runtime and GitOps manifest validates against the published Kubernetes schemas', () => {
    // GIVEN every YAML document except kustomize's own kustomization.yaml files
    const files = filesUnder(outdir).filter((f) => /^(runtime|gitops)\//.test(f.split(path.sep).join('/')) && !f.endsWith('kustomization.yaml'));
    const docs = files.flatMap((f) => yamlDocs(path.join(outdir, f)));

    // THEN
    expect([...new Set(docs.map((d) => `${d.apiVersion} ${d.kind}`))].sort()).toEqual([
      'apps/v1 Deployment',
      'external-secrets.io/v1 ExternalSecret',
      'gateway.networking.k8s.io/v1 HTTPRoute',
      'kustomize.toolkit.fluxcd.io/v1 Kustomization',
      'v1 Namespace',
      'v1 Service',
    ]);
    expect(schemaProblems(docs)).toEqual([]);
  });

  test('each tenant has an HTTPRoute on x-tenant-id to its backend, attached to the edge Gateway', () => {
    const routes = yamlDocs(path.join(outdir, 'runtime', '0002-cdn-routing-2.yaml')).filter((d) => d.kind === 'HTTPRoute');
    expect(routes.map((r) => [r.metadata.name, r.spec.parentRefs, r.spec.rules[0].matches[0].headers, r.spec.rules[0].backendRefs])).toEqual(
      [['acme', 'web'], ['globex', 'globex'], ['initech', 'web']].map(([tenant, backend]) => [
        `tenant-${tenant}`,
        [{ name: 'edge', namespace: 'gateway-system' }],
        [{ type: 'Exact', name: 'x-tenant-id', value: tenant }],
        [{ name: backend, port: 8080 }],
      ]),
    );
  });

  test('Flux applies the namespace step, then the routing step after it, each from its own folder', () => {
    const flux = path.join(outdir, 'gitops', 'flux', 'cluster');
    const kustomizations = ['0001-cdn-routing-1.yaml', '0002-cdn-routing-2.yaml'].map((f) => yamlDocs(path.join(flux, f))[0]);
    expect(kustomizations.map((k) => [k.metadata.name, k.spec.path, k.spec.dependsOn, k.spec.wait])).toEqual([
      ['cdn-routing-1', './examples/cdn/dist/gitops/flux/steps/cdn-routing-1', undefined, true],
      ['cdn-routing-2', './examples/cdn/dist/gitops/flux/steps/cdn-routing-2', [{ name: 'cdn-routing-1' }], true],
    ]);
  });

  test('the contract publishes originDnsName and tenantHeader from the shared base to the routing chart', () => {
    const artifact = JSON.parse(fs.readFileSync(path.join(outdir, 'interface.json'), 'utf-8'));
    expect(artifact.interfaces.map((i: any) => [i.name, i.version, i.fields])).toEqual([
      ['Edge', '1.0.0', {
        originDnsName: { producedBy: ['cdn/Base'], consumedBy: ['cdn/Routing'], readBy: ['cdn/Routing/web', 'cdn/Routing/globex'] },
        tenantHeader: {
          producedBy: ['cdn/Base'],
          consumedBy: ['cdn/Routing'],
          readBy: ['cdn/Routing/web', 'cdn/Routing/globex', 'cdn/Routing/tenant-acme', 'cdn/Routing/tenant-globex', 'cdn/Routing/tenant-initech'],
        },
      }],
    ]);
  });

  test('the shared base holds a multi-tenant distribution whose cache key includes the tenant header and whose viewer requests run the edge function', () => {
    // GIVEN
    const base = template('cdn/Base');

    // THEN
    base.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({ HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['x-tenant-id'] } }),
      }),
    });
    base.hasResourceProperties('AWS::CloudFront::Function', { FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }) });
    base.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        ConnectionMode: 'tenant-only',
        Aliases: Match.absent(),
        PriceClass: Match.absent(),
        DefaultCacheBehavior: Match.objectLike({ FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })] }),
      }),
    });
    base.resourceCountIs('AWS::CloudFront::ConnectionGroup', 1);
    base.hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdk-capability/cdn/edge/v1' });
  });

  test('each tenant stack holds its DNS-validated certificate, its distribution tenant and alias records, without lookups', () => {
    for (const tenant of ['acme', 'globex', 'initech']) {
      const t = template(`cdn/${tenant}`);
      const domain = `${tenant}.cdn.example.com`;
      t.hasResourceProperties('AWS::CertificateManager::Certificate', {
        DomainName: domain,
        ValidationMethod: 'DNS',
        DomainValidationOptions: [{ DomainName: domain, HostedZoneId: 'Z0123456789ABCDEFGHIJ' }],
      });
      t.hasResourceProperties('AWS::CloudFront::DistributionTenant', {
        Name: `cdn-${tenant}`,
        Domains: [domain],
        Customizations: { Certificate: { Arn: { Ref: Match.stringLikeRegexp('^Certificate') } } },
      });
      for (const type of ['A', 'AAAA']) {
        t.hasResourceProperties('AWS::Route53::RecordSet', {
          Name: `${domain}.`,
          Type: type,
          AliasTarget: { HostedZoneId: 'Z2FDTNDATAQYW2', DNSName: { 'Fn::ImportValue': Match.stringLikeRegexp('ConnectionGroupRoutingEndpoint') } },
        });
      }
    }
    expect(JSON.stringify(manifest)).not.toMatch(/"missing"/); // no context lookups were needed
  });

  describe('the edge function, as deployed', () => {
    let handler: (event: any) => any;
    beforeAll(() => {
      const base = template('cdn/Base').toJSON();
      const fn: any = Object.values(base.Resources).find((r: any) => r.Type === 'AWS::CloudFront::Function');
      const context = vm.createContext({});
      vm.runInContext(fn.Properties.FunctionCode, context);
      handler = (event) => vm.runInContext('handler', context)(event);
    });

    const request = (host: string, headers: Record<string, { value: string }> = {}) => ({ request: { uri: '/', headers: { host: { value: host }, ...headers } } });

    test('sets the tenant header from the host', () => {
      expect(handler(request('acme.cdn.example.com')).headers['x-tenant-id']).toEqual({ value: 'acme' });
    });

    test('replaces a tenant header the client sent', () => {
      expect(handler(request('globex.cdn.example.com', { 'x-tenant-id': { value: 'acme' } })).headers['x-tenant-id']).toEqual({ value: 'globex' });
    });

    test('answers 404 at the edge for a host outside the zone', () => {
      expect(handler(request('cdn.example.com.evil.test', { 'x-tenant-id': { value: 'acme' } }))).toEqual({ statusCode: 404, statusDescription: 'Not Found' });
    });
  });
});
