import * as path from 'path';
import * as kplus from 'cdk8s-plus-30';
import { pageSection } from './doc-snippets';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, release, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

type Reader = 'api' | 'worker';
const READERS: readonly Reader[] = ['api', 'worker'];

interface EdgeRelease {
  /** The version of construct `shop/Edge` (contract `Edge`); absent: not declared (major 1 retired). */
  readonly edge?: string;
  /** The fields of `shop/Edge`; default `originDnsName` only. */
  readonly edgeFields?: Array<'originDnsName' | 'tenantHeader'>;
  /** Whether `shop/EdgeV2` (contract `Edge`, 2.0.0) is published beside it. */
  readonly v2?: boolean;
  /** Each remaining reader (a Deployment of chart `shop/Routing`) and the construct whose `originDnsName` it reads. */
  readonly reads: Partial<Record<Reader, 'Edge' | 'EdgeV2'>>;
}

/** GIVEN-side builder: capability `shop`, its contract published by `shop/Base`, read by Deployments of `shop/Routing`. */
function shop(app: CapabilityApp, r: EdgeRelease): void {
  const cap = new Capability(app, 'shop');
  const base = new SharedBase(cap, 'Base');
  const routing = new RuntimeRouting(cap, 'Routing');
  const published: Record<string, InterfaceContract<any>> = {};
  if (r.edge) {
    const names = r.edgeFields ?? ['originDnsName'];
    const all = { originDnsName: Field.dnsName(), tenantHeader: Field.string() };
    const values = { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' };
    published.Edge = new InterfaceContract(cap, 'Edge', { version: r.edge, fields: Object.fromEntries(names.map((n) => [n, all[n]])) });
    published.Edge.publish(base, Object.fromEntries(names.map((n) => [n, values[n]])));
  }
  if (r.v2) {
    published.EdgeV2 = new InterfaceContract(cap, 'EdgeV2', { name: 'Edge', version: '2.0.0', fields: { originDnsName: Field.dnsName() } });
    published.EdgeV2.publish(base, { originDnsName: 'origin.example.com' });
  }
  for (const reader of READERS) {
    const from = r.reads[reader];
    if (!from) continue;
    const origin = published[from].consume(routing).originDnsName;
    new kplus.Deployment(routing, reader, { containers: [{ image: `ghcr.io/example/${reader}:1.0.0`, envVariables: { ORIGIN: origin.envValue() } }] });
  }
}

/** The CAP008 of `shop/Edge` bumped in place from `from` to `to` while `reader` remains. */
function bumpedInPlace(reader: string, from = '1.4.0', to = '2.0.0'): { code: string; message: string; paths: string[] } {
  return {
    code: 'CAP008',
    message:
      `unsafe deletion: this release bumps 'shop/Edge' in place from ${from} to ${to}, which deletes the parameter of major 1 (/cdk-capability/shop/edge/v1), `
      + `but '${reader}' remains and it read major 1 in the locked release: CloudFormation replaces a parameter whose name changes, `
      + 'deleting /cdk-capability/shop/edge/v1 as the update of the stack that publishes it completes, before the runtime step moves the binding to /cdk-capability/shop/edge/v2, '
      + 'so the binding cannot sync in between (its Secret keeps the last values) and not at all if that step fails or is rolled back. '
      + `Keep ${from} and publish ${to} beside it (a second InterfaceContract with the same name), move the readers to it, and retire major 1 in a later release (docs/releases.md).`,
    paths: [reader],
  };
}

const BOTH_ON_V1: EdgeRelease = { edge: '1.4.0', reads: { api: 'Edge', worker: 'Edge' } };

describe('CAP008: a contract major bumped in place', () => {
  test('bumping 1.4.0 to 2.0.0 in place while the lock records readers that remain is refused, once per reader', () => {
    // GIVEN the real lock of a release where api and worker read major 1 of shop/Edge
    const series = lockedSeries(shop, BOTH_ON_V1);

    // WHEN the next release sets the same construct to 2.0.0 (the parameter moves from /v1 to /v2)
    const { violations } = nextRelease(series, shop, { edge: '2.0.0', reads: { api: 'Edge', worker: 'Edge' } });

    // THEN one CAP008 per remaining reader, naming the contract, both versions, the parameter deleted and the way out
    expect(coded(violations)).toEqual([bumpedInPlace('shop/Routing/api'), bumpedInPlace('shop/Routing/worker')]);
  });

  test('an in-place bump changes the Name of the AWS::SSM::Parameter (so CloudFormation replaces it): the plan shows /v1 -> /v2', () => {
    // GIVEN the lock of a release that publishes major 1 and reads nothing (so the bump is accepted and planned)
    const series = lockedSeries(shop, { edge: '1.4.0', reads: {} });

    // WHEN 2.0.0 is set in place
    const { plan } = nextRelease(series, shop, { edge: '2.0.0', reads: {} });

    // THEN the plan shows the parameter's Name changing in the publishing stack
    const stack = plan!.changes.fields.find((c) => c.unit === 'stack shop/Base');
    expect(stack?.fields.filter((f) => f.path.endsWith('.Properties.Name')).map((f) => [f.before, f.after])).toEqual([
      ['/cdk-capability/shop/edge/v1', '/cdk-capability/shop/edge/v2'],
    ]);
  });

  test('docs/releases.md shows exactly the refusal of api', () => {
    // GIVEN the lock where api reads major 1
    const series = lockedSeries(shop, { edge: '1.4.0', reads: { api: 'Edge' } });

    // WHEN 2.0.0 is set in place
    const { violations } = nextRelease(series, shop, { edge: '2.0.0', reads: { api: 'Edge' } });

    // THEN the page's one text block is that violation, code first
    const section = pageSection(path.join(__dirname, '..', 'docs', 'releases.md'), 'Bumping a major in place');
    expect(section.texts).toEqual(violations.map((v) => `${v.code} ${v.message}`));
  });

  test('bumping in place is accepted when the readers of major 1 go in the same release', () => {
    // GIVEN the lock where api and worker read major 1
    const series = lockedSeries(shop, BOTH_ON_V1);

    // WHEN 2.0.0 is set in place and both readers are removed
    const { violations } = nextRelease(series, shop, { edge: '2.0.0', reads: {} });

    // THEN it is accepted: nothing that remains read the parameter deleted
    expect(coded(violations)).toEqual([]);
  });

  test('bumping in place is accepted when the lock records no reader', () => {
    // GIVEN the lock of a release that publishes major 1 and reads nothing
    const series = lockedSeries(shop, { edge: '1.4.0', reads: {} });

    // WHEN 2.0.0 is set in place, and api starts reading it
    const { violations } = nextRelease(series, shop, { edge: '2.0.0', reads: { api: 'Edge' } });

    // THEN it is accepted: api did not read major 1
    expect(coded(violations)).toEqual([]);
  });

  test('a reader that came after the lock is not counted, one that remains is', () => {
    // GIVEN the lock where only api reads major 1
    const series = lockedSeries(shop, { edge: '1.4.0', reads: { api: 'Edge' } });

    // WHEN 2.0.0 is set in place, api and a new worker reading it
    const { violations } = nextRelease(series, shop, { edge: '2.0.0', reads: { api: 'Edge', worker: 'Edge' } });

    // THEN only api is named
    expect(coded(violations)).toEqual([bumpedInPlace('shop/Routing/api')]);
  });

  test('the side-by-side migration is accepted release after release, and ends on /v2', () => {
    // GIVEN the lock where api and worker read major 1
    const series = lockedSeries(shop, BOTH_ON_V1);

    // WHEN 2.0.0 is published beside 1.4.0 and api moves, then worker moves, then major 1 retires
    const steps: EdgeRelease[] = [
      { edge: '1.4.0', v2: true, reads: { api: 'EdgeV2', worker: 'Edge' } },
      { edge: '1.4.0', v2: true, reads: { api: 'EdgeV2', worker: 'EdgeV2' } },
      { v2: true, reads: { api: 'EdgeV2', worker: 'EdgeV2' } },
    ];
    const found = steps.map((step) => {
      const { violations } = nextRelease(series, shop, step);
      release(series, shop, step);
      return coded(violations);
    });

    // THEN every step is accepted
    expect(found).toEqual([[], [], []]);
  });

  describe.each([
    // readers in the lock (on major 1), readers now (on the new major), in place or beside: the readers refused
    ...[[], ['api'], ['worker'], ['api', 'worker']].flatMap((locked) => [[], ['api'], ['worker'], ['api', 'worker']].flatMap((now) => [
      [locked, now, 'in place', locked.filter((r) => now.includes(r))],
      [locked, now, 'beside', []],
    ])),
  ] as Array<[Reader[], Reader[], 'in place' | 'beside', Reader[]]>)('lock read by [%s], now read by [%s], 2.0.0 %s', (locked, now, how, refused) => {
    test(`refuses exactly [${refused.join(', ')}]`, () => {
      // GIVEN the lock where `locked` read major 1
      const series = lockedSeries(shop, { edge: '1.4.0', reads: Object.fromEntries(locked.map((r) => [r, 'Edge'])) });

      // WHEN 2.0.0 comes in place, or beside 1.4.0, and `now` read it
      const next: EdgeRelease = how === 'in place'
        ? { edge: '2.0.0', reads: Object.fromEntries(now.map((r) => [r, 'Edge'])) }
        : { edge: '1.4.0', v2: true, reads: Object.fromEntries(now.map((r) => [r, 'EdgeV2'])) };
      const { violations } = nextRelease(series, shop, next);

      // THEN the remaining readers of the lock are refused in place, and nothing beside
      expect(coded(violations)).toEqual(refused.map((r) => bumpedInPlace(`shop/Routing/${r}`)));
    });
  });
});

describe('CAP007 points at the side-by-side way when bumping in place would be CAP008', () => {
  const CHANGED = "'shop/Edge' changed (field 'tenantHeader' removed (needs major)), which needs a major version bump, but the version went from 1.4.0 to 1.5.0.";

  test('with readers of major 1 in the lock that remain, the fix is the next major beside this one', () => {
    // GIVEN the lock where api reads major 1, which has two fields
    const series = lockedSeries(shop, { edge: '1.4.0', edgeFields: ['originDnsName', 'tenantHeader'], reads: { api: 'Edge' } });

    // WHEN 1.5.0 drops tenantHeader (a change that needs 2.0.0)
    const { violations } = nextRelease(series, shop, { edge: '1.5.0', reads: { api: 'Edge' } });

    // THEN CAP007 still refuses it, and its fix does not lead into CAP008
    expect(coded(violations)).toEqual([{
      code: 'CAP007',
      message: `breaking interface change: ${CHANGED} Undo the change here and make it in 2.0.0 published beside this major (a second InterfaceContract with the same name: `
        + 'setting this one to 2.0.0 deletes the major 1 parameter while the lock records readers of it, CAP008), move the readers to it, and retire major 1 in a later release (docs/releases.md).',
      paths: ['shop/Edge'],
    }]);
  });

  test('with no reader of major 1 that remains, the fix is still to set 2.0.0', () => {
    // GIVEN the lock where api reads major 1
    const series = lockedSeries(shop, { edge: '1.4.0', edgeFields: ['originDnsName', 'tenantHeader'], reads: { api: 'Edge' } });

    // WHEN 1.5.0 drops tenantHeader and api is removed
    const { violations } = nextRelease(series, shop, { edge: '1.5.0', reads: {} });

    // THEN CAP007's fix is the in-place bump, which is then accepted
    expect(coded(violations)).toEqual([{ code: 'CAP007', message: `breaking interface change: ${CHANGED} Set the version to 2.0.0, or undo the change.`, paths: ['shop/Edge'] }]);
    expect(coded(nextRelease(series, shop, { edge: '2.0.0', reads: {} }).violations)).toEqual([]);
  });
});
