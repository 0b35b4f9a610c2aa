import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp } from '../src';
import { Core } from './fixtures/corpus/cdk8s/cdk8s-core';
import { PodInfo } from './fixtures/corpus/cdk8s/cdk8s-plus-pod-info';
import { WebCacheDB } from './fixtures/corpus/cdk8s/cdk8s-plus-web-cache-db';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

type ChartClass = new (scope: Construct, id: string) => Chart;

/** The upstream examples (test/fixtures/corpus/README.md): their chart class and the id their program gives it. */
const CDK8S_EXAMPLES: ReadonlyArray<readonly [string, ChartClass, string]> = [
  ['cdk8s-core', Core, 'core'],
  ['cdk8s-plus-pod-info', PodInfo, 'pod-info'],
  ['cdk8s-plus-web-cache-db', WebCacheDB, 'web-cache-db'],
];

describe('the cdk8s examples, plain and ported into a capability', () => {
  test.each(CDK8S_EXAMPLES)('%s: accepted, with the objects, names and field values plain cdk8s gives', (_name, ChartOf, id) => {
    // GIVEN the example's chart under a plain cdk8s App, and the same class under capability "shop"
    const plain = new ChartOf(new App(), id);
    const app = new CapabilityApp({ outdir: `${tempDir()}/dist` });
    const ported = new ChartOf(new Capability(app, 'shop'), id);

    // WHEN synthesized
    const { violations, runtimeFiles } = app.synthesize();

    // THEN accepted, every object as plain cdk8s writes it (in apply order, which may differ from creation order)
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([]);
    const key = (o: any) => `${o.kind} ${o.metadata.name}`;
    const written = (runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest));
    expect([...written].sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual([...plain.toJson()].sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    expect(ported.toJson()).toEqual(plain.toJson());
  });
});
