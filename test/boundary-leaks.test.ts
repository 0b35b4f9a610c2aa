import * as fs from 'fs';
import * as path from 'path';
import { aws_route53 as route53, CfnDynamicReference, CfnDynamicReferenceService, CfnParameter, Fn, Lazy, Token } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { edgeComposition, EdgeComposition, manifestsOfKind, summary } from './contract-fixtures';
import { newApp, removeTempDirs, tempDir } from './util';
import { Capability, Contribution, Field, InterfaceContract, SharedBase } from '../src';

afterAll(removeTempDirs);

const RENDERS = 'which would render as unresolved token text such as "${Token[TOKEN.16]}".';
const RENDERS_LIST = 'a list token (Fn.split, Lazy.list, Token.asList, a list attribute), which would render as unresolved token text such as "#{Token[TOKEN.16]}".';
const RENDERS_NUMBER = 'a number token (Token.asNumber, Lazy.number, a number attribute), which would render as a meaningless number such as -1.8881545897087626e+289.';
const RENDERS_DYNAMIC = 'a CloudFormation dynamic reference ("{{resolve:...}}"), which only CloudFormation resolves: Kubernetes would receive the text as it is.';
const FIX = "Publish it through the capability's InterfaceContract and read it with contract.consume(chart): a consumed value reaches a pod only as a container env entry (handle.envValue() for cdk8s-plus, handle.envVar() raw: a secretKeyRef to the Secret the contract's ExternalSecret makes at deploy time); a ConfigMap, an annotation or any other field cannot hold one, since the manifests are written before the stack is deployed.";

/** GIVEN-side helper: the edge composition with its contract published correctly, so only leaks remain. */
function publishedEdge(): EdgeComposition {
  const composition = edgeComposition();
  const { edge, base, distribution } = composition;
  edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
  return composition;
}

describe('CAP006: deployment-time values reaching runtime outside the contract', () => {
  test("a distribution's domain name put directly into a ConfigMap is refused, naming the object, field and producer", () => {
    // GIVEN the distribution's domain name as data.origin of ConfigMap "origin"
    const { app, distribution, routing } = publishedEdge();
    new kplus.ConfigMap(routing, 'Origin', { metadata: { name: 'origin' }, data: { origin: distribution.domainName } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 names ConfigMap origin, its declarer, data.origin and the distribution
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: ConfigMap origin declared by 'cdn/Routing/Origin' holds a deployment-time value at data.origin produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Routing/Origin'],
      },
    ]);
  });

  test('a token in a container env entry is named by the keys of the container and of the entry, as other messages name keyed list elements', () => {
    // GIVEN (a user trial: the path was positional, env[0].value) a second container whose second env entry holds the domain name
    const { app, distribution, routing } = publishedEdge();
    new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'proxy', image: 'proxy' },
              { name: 'web', image: 'web', args: ['--origin', distribution.domainName], env: [{ name: 'A', value: 'a' }, { name: 'ORIGIN', value: distribution.domainName }] },
            ],
          },
        },
      },
    });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the containers and env entries by name; args, an atomic list, by index
    const leak = (at: string) => `boundary leak: apps/Deployment web declared by 'cdn/Routing/Web' holds a deployment-time value at ${at} produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`;
    expect(summary(violations).map((v) => v.message)).toEqual([
      leak('spec.template.spec.containers[name=web].args[1]'),
      leak('spec.template.spec.containers[name=web].env[name=ORIGIN].value'),
    ]);
  });

  test('a token embedded in a longer string is refused', () => {
    // GIVEN "https://<domain name>/healthz" as data.health
    const { app, distribution, routing } = publishedEdge();
    new kplus.ConfigMap(routing, 'Origin', { metadata: { name: 'origin' }, data: { health: `https://${distribution.domainName}/healthz` } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is a leak at data.health, produced by the distribution
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: ConfigMap origin declared by 'cdn/Routing/Origin' holds a deployment-time value at data.health produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Routing/Origin'],
      },
    ]);
  });

  test('a token number from a CfnParameter in a manifest is refused, naming the parameter', () => {
    // GIVEN a Deployment whose replicas is the number token of CfnParameter Replicas
    const { app, base, routing } = publishedEdge();
    const replicas = new CfnParameter(base, 'Replicas', { type: 'Number', default: 2 });
    new ApiObject(routing, 'Web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: Token.asNumber(replicas.value) } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 at spec.replicas, produced by the parameter
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: apps/Deployment web declared by 'cdn/Routing/Web' holds a deployment-time value at spec.replicas produced by 'cdn/Base/Replicas', ${RENDERS_NUMBER} ${FIX}`,
        paths: ['cdn/Base/Replicas', 'cdn/Routing/Web'],
      },
    ]);
  });

  test('a Lazy string in a ConfigMap is refused as the unresolved aws-cdk token it is at synth, not as a deployment-time value', () => {
    // GIVEN a ConfigMap whose data.mode is a Lazy that produces plain text (cdk8s would write its token text)
    const { app, routing } = publishedEdge();
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { mode: Lazy.string({ produce: () => 'plain' }) } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 at data.mode, naming it as a token unresolved at synth
    expect(summary(violations)).toEqual([
      { code: 'CAP006', message: `boundary leak: ConfigMap cfg declared by 'cdn/Routing/Cfg' holds an unresolved aws-cdk token at data.mode, ${RENDERS} ${FIX}`, paths: ['cdn/Routing/Cfg'] },
    ]);
  });

  test('a lazy number in a manifest is refused, without a producer', () => {
    // GIVEN a Deployment whose replicas is Lazy.number
    const { app, routing } = publishedEdge();
    new ApiObject(routing, 'Web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: Lazy.number({ produce: () => 3 }) } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 at spec.replicas naming only the declarer
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: apps/Deployment web declared by 'cdn/Routing/Web' holds an unresolved aws-cdk token at spec.replicas, ${RENDERS_NUMBER} ${FIX}`,
        paths: ['cdn/Routing/Web'],
      },
    ]);
  });

  test('a token in metadata is refused at its annotation path', () => {
    // GIVEN the domain name as the value of annotation "origin"
    const { app, distribution, routing } = publishedEdge();
    new ApiObject(routing, 'Origin', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'origin', annotations: { origin: distribution.domainName } } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is a leak at the annotation, produced by the distribution
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: ConfigMap origin declared by 'cdn/Routing/Origin' holds a deployment-time value at metadata.annotations.origin produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Routing/Origin'],
      },
    ]);
  });

  test('a token used as a map key is refused', () => {
    // GIVEN the distribution's domain name as a key of data
    const { app, distribution, routing } = publishedEdge();
    new ApiObject(routing, 'Origin', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'origin' }, data: { [distribution.domainName]: 'origin' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is a leak, like a token value (the key would render as "${Token[TOKEN.n]}")
    expect(violations.map((v) => v.code)).toEqual(['CAP006']);
  });

  test('the same domain name passed through the contract is accepted', () => {
    // GIVEN the domain name published (publishedEdge) and read through the handle
    const { app, edge, routing } = publishedEdge();
    const values = edge.consume(routing);
    new kplus.Deployment(routing, 'Web', { containers: [{ image: 'web', envVariables: { ORIGIN: values.originDnsName.envValue() } }] });

    // WHEN synthesized
    const result = app.synthesize();

    // THEN nothing is refused and the container reads the bound Secret
    expect(result.violations).toEqual([]);
    expect(manifestsOfKind(result, 'Deployment')[0].spec.template.spec.containers[0].env).toEqual([
      { name: 'ORIGIN', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } },
    ]);
  });

  // Issue 15, item 2: the forms that passed before.
  test.each([
    ['Fn.split', (e: EdgeComposition) => Fn.split(',', e.distribution.domainName), " produced by 'cdn/Base/Dist'"],
    ['Lazy.list', () => Lazy.list({ produce: () => ['a', 'b'] }), ''],
    ['Token.asList', (e: EdgeComposition) => Token.asList(e.distribution.domainName), " produced by 'cdn/Base/Dist'"],
    ['hostedZoneNameServers', (e: EdgeComposition) => new route53.PublicHostedZone(e.base, 'Zone', { zoneName: 'example.com' }).hostedZoneNameServers!, " produced by 'cdn/Base/Zone'"],
  ])('a list token (%s) in a manifest is refused as a list token', (_, list, producer) => {
    // GIVEN a ConfigMap-like object whose spec.servers is the list token
    const composition = publishedEdge();
    new ApiObject(composition.routing, 'Dns', { apiVersion: 'example.com/v1', kind: 'DnsConfig', metadata: { name: 'dns' }, spec: { servers: list(composition) } });

    // WHEN synthesized
    const { violations } = composition.app.synthesize();

    // THEN one CAP006 at its one element, as a list token
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: example.com/DnsConfig dns declared by 'cdn/Routing/Dns' holds ${producer ? 'a deployment-time value' : 'an unresolved aws-cdk token'} at spec.servers[0]${producer}, ${RENDERS_LIST} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Base/Zone', 'cdn/Routing/Dns'].filter((p) => p === 'cdn/Routing/Dns' || producer.includes(p)),
      },
    ]);
  });

  test('a number token written as text ("replicas=" + Token.asNumber) is refused as a number token, naming its producer', () => {
    // GIVEN the number token of CfnParameter Replicas interpolated into a string
    const { app, base, routing } = publishedEdge();
    const replicas = new CfnParameter(base, 'Replicas', { type: 'Number', default: 2 });
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { replicas: `replicas=${Token.asNumber(replicas.value)}` } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is a number token at data.replicas, produced by the parameter
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: ConfigMap cfg declared by 'cdn/Routing/Cfg' holds a deployment-time value at data.replicas produced by 'cdn/Base/Replicas', ${RENDERS_NUMBER} ${FIX}`,
        paths: ['cdn/Base/Replicas', 'cdn/Routing/Cfg'],
      },
    ]);
  });

  test.each([
    ['ssm', CfnDynamicReferenceService.SSM, '/x:1'],
    ['secretsmanager', CfnDynamicReferenceService.SECRETS_MANAGER, 'arn:aws:secretsmanager:us-east-1:111111111111:secret:db:SecretString:password::'],
  ])('a bare CfnDynamicReference (%s) in a manifest is refused as a dynamic reference', (_, service, key) => {
    // GIVEN the CfnDynamicReference object itself (cdk8s renders it as "{{resolve:...}}") as data.value
    const { app, routing } = publishedEdge();
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { value: new CfnDynamicReference(service, key) as unknown as string } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 at data.value, as a dynamic reference
    expect(summary(violations)).toEqual([
      { code: 'CAP006', message: `boundary leak: ConfigMap cfg declared by 'cdn/Routing/Cfg' holds a deployment-time value at data.value, ${RENDERS_DYNAMIC} ${FIX}`, paths: ['cdn/Routing/Cfg'] },
    ]);
  });

  test("base64 of a token in a Secret's data is refused, naming the producer", () => {
    // GIVEN a Secret whose data.origin is base64 of the distribution's domain name token text
    const { app, distribution, routing } = publishedEdge();
    new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { origin: Buffer.from(distribution.domainName).toString('base64') } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP006 at data.origin, base64-encoded, produced by the distribution
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: Secret creds declared by 'cdn/Routing/Creds' holds a deployment-time value, base64-encoded, at data.origin produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Routing/Creds'],
      },
    ]);
  });

  test('base64 that happens to decode to no token is accepted in Secret data', () => {
    // GIVEN a Secret with an ordinary base64 value ("hello")
    const { app, routing } = publishedEdge();
    new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { greeting: Buffer.from('hello').toString('base64') } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('a leak written by a Contribution names the contribution as its writer, besides the declarer', () => {
    // GIVEN ConfigMap origin declared by Routing/Origin, and the domain name contributed by Team/Origin
    const { app, cdn, distribution, routing } = publishedEdge();
    const target = new ApiObject(routing, 'Origin', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'origin' }, data: { mode: 'edge' } });
    new Contribution(new Construct(cdn, 'Team'), 'Origin', { target, fields: { data: { origin: distribution.domainName } } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the leak names the declarer, the contribution and the producer
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: ConfigMap origin declared by 'cdn/Routing/Origin' holds a deployment-time value at data.origin written by 'cdn/Team/Origin' produced by 'cdn/Base/Dist', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Dist', 'cdn/Routing/Origin', 'cdn/Team/Origin'],
      },
    ]);
  });

  test("a token in a capability's description (plan.json) and in a field's description (interface.json) is refused, and nothing is written", () => {
    // GIVEN capability "cdn" described with a token, and its contract's field described with another
    const outdir = path.join(tempDir(), 'dist');
    const app = newApp(outdir);
    const probe = new Capability(app, 'probe');
    const probeBase = new SharedBase(probe, 'Base');
    const zone = new route53.PublicHostedZone(probeBase, 'Zone', { zoneName: 'example.com' });
    const cdn = new Capability(app, 'cdn', { description: `edge for ${zone.hostedZoneArn}` });
    const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { origin: Field.string({ description: `origin in ${zone.hostedZoneId}` }) } });
    edge.publish(new SharedBase(cdn, 'Base'), { origin: 'origin.example.com' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN two CAP006, one per artifact, and no output
    expect(summary(violations)).toEqual([
      {
        code: 'CAP006',
        message: `boundary leak: 'cdn' puts a deployment-time value into plan.json as the capability description produced by 'probe/Base/Zone', ${RENDERS.slice(0, -1)}. plan.json is written at synth, before anything is deployed: use text known at synth.`,
        paths: ['cdn', 'probe/Base/Zone'],
      },
      {
        code: 'CAP006',
        message: `boundary leak: 'cdn/Edge' puts a deployment-time value into interface.json as the description of field 'origin' produced by 'probe/Base/Zone', ${RENDERS.slice(0, -1)}. interface.json is written at synth, before anything is deployed: use text known at synth.`,
        paths: ['cdn/Edge', 'probe/Base/Zone'],
      },
    ]);
    expect(fs.existsSync(outdir)).toBe(false);
  });
});

