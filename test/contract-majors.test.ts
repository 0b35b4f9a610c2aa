import * as fs from 'fs';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, release, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

/** Which majors of `cdn/Edge` a release publishes, and which major each Deployment reads. */
interface MajorsVariant {
  readonly majors: ReadonlyArray<1 | 2>;
  /** The major each Deployment reads; `stale` names v1's Secret by hand, without consuming v1. */
  readonly readers: Readonly<Record<'api' | 'worker', 1 | 2 | 'stale'>>;
}

const V1 = { originDnsName: Field.dnsName() };
const V2 = { originHost: Field.dnsName() };

/**
 * GIVEN-side builder: contract Edge of capability cdn, major 1 (construct
 * `cdn/Edge`, field originDnsName) and/or major 2 (construct `cdn/EdgeV2`,
 * named Edge, field originHost), published by `cdn/Base`; Deployments api and
 * worker in chart `cdn/Routing` each read the one field of their major.
 */
function edge(app: CapabilityApp, v: MajorsVariant): void {
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const v1 = v.majors.includes(1) ? new InterfaceContract(cdn, 'Edge', { version: '1.4.0', fields: V1 }) : undefined;
  const v2 = v.majors.includes(2) ? new InterfaceContract(cdn, 'EdgeV2', { name: 'Edge', version: '2.0.0', fields: V2 }) : undefined;
  v1?.publish(base, { originDnsName: 'origin.example.com' });
  v2?.publish(base, { originHost: 'origin.example.com' });
  for (const name of ['api', 'worker'] as const) {
    const reads = v.readers[name];
    const env =
      reads === 'stale'
        ? { name: 'ORIGIN', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } }
        : reads === 1
          ? v1!.consume(routing).originDnsName.envVar('ORIGIN')
          : v2!.consume(routing).originHost.envVar('ORIGIN');
    new ApiObject(routing, name, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.27', env: [env] }] } },
      },
    });
  }
}

const RELEASE_1: MajorsVariant = { majors: [1], readers: { api: 1, worker: 1 } };
const RELEASE_2: MajorsVariant = { majors: [1, 2], readers: { api: 2, worker: 1 } };
const RELEASE_2B: MajorsVariant = { majors: [1, 2], readers: { api: 2, worker: 2 } };
const RELEASE_3: MajorsVariant = { majors: [2], readers: { api: 2, worker: 2 } };

function lockOf(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf-8'));
}

describe('contract majors side by side: the two-release migration', () => {
  test('release 1 (v1 read by both), 2 (v2 beside v1, api moved), 2b (worker moved), 3 (v1 retired) are all accepted', () => {
    // GIVEN release 1: v1 only, read by api and worker
    const series = lockedSeries(edge, RELEASE_1);

    // WHEN release 2 publishes v2 beside v1 and moves api to it
    release(series, edge, RELEASE_2);

    // THEN the lock holds both majors, each with its parameter and its readers
    const second = lockOf(series.lockFile).interfaces.map((i: any) => ({
      version: i.version,
      parameter: i.parameter.name,
      readBy: Object.fromEntries(Object.entries(i.fields).map(([f, r]: [string, any]) => [f, r.readBy])),
    }));
    expect(second).toEqual([
      { version: '1.4.0', parameter: '/cdk-capability/cdn/edge/v1', readBy: { originDnsName: ['cdn/Routing/worker'] } },
      { version: '2.0.0', parameter: '/cdk-capability/cdn/edge/v2', readBy: { originHost: ['cdn/Routing/api'] } },
    ]);

    // AND each major's ExternalSecret is recorded as the binding of that major, not as a reader's object
    const bindings = lockOf(series.lockFile).units.filter((u: any) => u.binds).map((u: any) => `${u.label} binds ${u.binds}`);
    expect(bindings).toEqual([
      'external-secrets.io/ExternalSecret cdn-edgev2-interface binds /cdk-capability/cdn/edge/v2',
      'external-secrets.io/ExternalSecret cdn-edge-interface binds /cdk-capability/cdn/edge/v1',
    ]);

    // WHEN release 2b moves worker too (v1 stays published, its ExternalSecret goes: nobody consumes v1)
    const moved = nextRelease(series, edge, RELEASE_2B);
    expect(coded(moved.violations)).toEqual([]);
    expect(moved.plan?.changes.removed).toEqual(['external-secrets.io/ExternalSecret cdn-edge-interface']);
    release(series, edge, RELEASE_2B);

    // AND release 3 retires v1
    const third = nextRelease(series, edge, RELEASE_3);

    // THEN release 3 is accepted; its plan records v1's field as removed, nothing breaking for v2
    expect(coded(third.violations)).toEqual([]);
    expect(third.interface?.interfaces.map((i) => `${i.name} ${i.version} ${i.parameter.name}`)).toEqual(['Edge 2.0.0 /cdk-capability/cdn/edge/v2']);
  });

  test('retiring v1 while the lock shows a reader of it that remains is refused with CAP008 naming the reader', () => {
    // GIVEN release 2: v1 and v2 side by side, worker still reads v1
    const series = lockedSeries(edge, RELEASE_1);
    release(series, edge, RELEASE_2);

    // WHEN the next release retires v1 and moves worker in the same release
    const { violations } = nextRelease(series, edge, RELEASE_3);

    // THEN CAP008 names the major, its parameter and the reader, and the two-release way out
    expect(coded(violations)).toEqual([
      {
        code: 'CAP008',
        message:
          "unsafe deletion: this release removes major 1 of 'cdn/Edge' (1.4.0, parameter /cdk-capability/cdn/edge/v1), but 'cdn/Routing/worker' remains and it read that major in the locked release. " +
          'Keep the major published until the lock shows no reader: move each reader to the next major in one release, then retire the old major in the next (docs/releases.md).',
        paths: ['cdn/Routing/worker'],
      },
    ]);
  });

  test('a reader left reading the Secret of a major nobody consumes any more is a dangling reference (CAP005), not a deletion', () => {
    // GIVEN release 2: v1 and v2 side by side, worker reads v1's Secret
    const series = lockedSeries(edge, RELEASE_2);

    // WHEN the next release stops consuming v1 but worker still names its Secret by hand
    const { violations } = nextRelease(series, edge, { majors: [1, 2], readers: { api: 2, worker: 'stale' } });

    // THEN the one violation is the dangling reference to the Secret no binding makes any more
    expect(coded(violations).map((v) => v.code)).toEqual(['CAP005']);
    expect(violations[0].message).toMatch(/refers to Secret cdn-edge-interface/);
  });

  test('publishing v2 beside v1 is not a breaking change of v1: no CAP007, whatever v2 drops', () => {
    // GIVEN release 1
    const series = lockedSeries(edge, RELEASE_1);

    // WHEN v2 (which has none of v1's fields) is published beside it
    const { violations, plan } = nextRelease(series, edge, RELEASE_2);

    // THEN accepted, with no interface change of v1
    expect(violations).toEqual([]);
    expect(plan?.changes.interface).toEqual([]);
  });

  test('two contracts of one name and one major are refused with CAP009', () => {
    // GIVEN Edge 1.4.0 and another Edge 1.5.0 in capability cdn
    const app = new CapabilityApp();
    const cdn = new Capability(app, 'cdn');
    const base = new SharedBase(cdn, 'Base');
    new InterfaceContract(cdn, 'Edge', { version: '1.4.0', fields: V1 }).publish(base, { originDnsName: 'a.example.com' });
    new InterfaceContract(cdn, 'EdgeNext', { name: 'Edge', version: '1.5.0', fields: V1 }).publish(base, { originDnsName: 'a.example.com' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP009 says majors side by side must differ
    expect(coded(violations).filter((v) => v.code === 'CAP009')).toEqual([
      {
        code: 'CAP009',
        message: "contract misuse: capability 'cdn' declares major 1 of contract 'Edge' 2 times ('cdn/Edge', 'cdn/EdgeNext'); majors side by side must differ. Give the new one the next major, or remove one.",
        paths: ['cdn/Edge', 'cdn/EdgeNext'],
      },
    ]);
  });
});
