import { CfnParameter, Lazy, Token } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { edgeComposition, EdgeComposition, manifestsOfKind, summary } from './contract-fixtures';
import { removeTempDirs } from './util';

afterAll(removeTempDirs);

const RENDERS = 'which would render as unresolved token text such as "${Token[TOKEN.16]}".';
const FIX = "Publish it through the capability's InterfaceContract and read it with contract.consume(chart).";

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
        message: `boundary leak: apps/Deployment web declared by 'cdn/Routing/Web' holds a deployment-time value at spec.replicas produced by 'cdn/Base/Replicas', ${RENDERS} ${FIX}`,
        paths: ['cdn/Base/Replicas', 'cdn/Routing/Web'],
      },
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
        message: `boundary leak: apps/Deployment web declared by 'cdn/Routing/Web' holds a deployment-time value at spec.replicas, ${RENDERS} ${FIX}`,
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
});
