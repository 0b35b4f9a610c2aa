import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, DeploymentAggregate, Field, FieldMap, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { appOf, lockedSeries, nextRelease, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { formatPlan, hasChanges } from '../src/cli/format-plan';
import type { LockedUnit } from '../src/release/lock';
import { unitChanges } from '../src/release/release-diff';

afterAll(removeReleaseDirs);

interface PlatformVariant {
  /** The version of contract cdn/Edge. */
  readonly version: string;
  /** Its fields; every required one is published. */
  readonly fields: FieldMap;
  /** Tenants of capability cdn. */
  readonly cdnTenants: string[];
  /** Tenants of capability dns (which has no runtime). */
  readonly dnsTenants: string[];
  /** ConfigMaps of chart cdn/Routing: name -> the value of data.v. */
  readonly configMaps: Record<string, string>;
}

const VALUES: Record<string, unknown> = { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' };

/**
 * GIVEN-side builder: capability cdn (contract Edge published by Base,
 * tenants, chart Routing with ConfigMaps) and capability dns (Base and
 * tenants, no runtime).
 */
function platform(app: CapabilityApp, v: PlatformVariant): void {
  const cdn = new Capability(app, 'cdn');
  const edge = new InterfaceContract(cdn, 'Edge', { version: v.version, fields: v.fields });
  const published: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(v.fields)) if (field.required) published[name] = VALUES[name];
  edge.publish(new SharedBase(cdn, 'Base'), published);
  for (const tenant of v.cdnTenants) new DeploymentAggregate(cdn, tenant);
  const routing = new RuntimeRouting(cdn, 'Routing');
  for (const [name, value] of Object.entries(v.configMaps)) new ApiObject(routing, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } });

  const dns = new Capability(app, 'dns');
  new SharedBase(dns, 'Base');
  for (const tenant of v.dnsTenants) new DeploymentAggregate(dns, tenant);
}

const RELEASE_1: PlatformVariant = {
  version: '1.0.0',
  fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string() },
  cdnTenants: ['acme'],
  dnsTenants: ['kept', 'old'],
  configMaps: { a: '1', b: '1', c: '1' },
};

/** Release 1.1.0: adds tenant cdn/globex and ConfigMap d, changes ConfigMap b, removes tenant dns/old and ConfigMap c, adds optional field maxTenants. */
const RELEASE_2: PlatformVariant = {
  version: '1.1.0',
  fields: { ...RELEASE_1.fields, maxTenants: Field.number().optional() },
  cdnTenants: ['acme', 'globex'],
  dnsTenants: ['kept'],
  configMaps: { a: '1', b: '2', d: '1' },
};

describe('plan.json changes against the lock', () => {
  test('lists added, changed and removed stacks and objects, and interface field changes', () => {
    // GIVEN the real lock of release 1
    const series = lockedSeries(platform, RELEASE_1);

    // WHEN release 2 is synthesized
    const { violations, plan } = nextRelease(series, platform, RELEASE_2);

    // THEN the changes name each stack and object once, and the interface field with the bump it needs
    expect(violations).toEqual([]);
    expect(plan?.changes).toEqual({
      firstRelease: false,
      added: ['stack cdn/globex', 'ConfigMap d'],
      // the Base template changes because the parameter's description carries the version
      changed: ['stack cdn/Base', 'ConfigMap b'],
      removed: ['ConfigMap c', 'stack dns/old'],
      fields: [
        {
          unit: 'stack cdn/Base',
          fields: [{ path: expect.stringMatching(/^Resources\.EdgeInterface[0-9A-F]{8}\.Properties\.Description$/), before: 'cdk-capability interface cdn/Edge 1.0.0', after: 'cdk-capability interface cdn/Edge 1.1.0' }],
        },
        { unit: 'ConfigMap b', fields: [{ path: 'data.v', before: '1', after: '2' }] },
      ],
      traffic: [],
      handovers: [],
      contracts: [
        {
          contract: 'cdn/Edge',
          change: 'changed',
          before: { version: '1.0.0', parameter: '/cdk-capability/cdn/edge/v1' },
          after: { version: '1.1.0', parameter: '/cdk-capability/cdn/edge/v1' },
        },
      ],
      interface: [{ contract: 'cdn/Edge', field: 'maxTenants', change: 'added (optional)', needs: 'minor' }],
    });
  });

  test('an object whose manifest is unchanged is not listed as changed', () => {
    // GIVEN the real lock of release 1
    const series = lockedSeries(platform, RELEASE_1);

    // WHEN only ConfigMap b's data changes
    const { plan } = nextRelease(series, platform, { ...RELEASE_1, configMaps: { ...RELEASE_1.configMaps, b: '2' } });

    // THEN only ConfigMap b is changed
    expect(plan?.changes).toEqual({
      firstRelease: false,
      added: [],
      changed: ['ConfigMap b'],
      removed: [],
      fields: [{ unit: 'ConfigMap b', fields: [{ path: 'data.v', before: '1', after: '2' }] }],
      traffic: [],
      handovers: [],
      contracts: [],
      interface: [],
    });
  });

  test('a major release lists removed and loosened fields, largest bump first', () => {
    // GIVEN the real lock of release 1
    const series = lockedSeries(platform, RELEASE_1);

    // WHEN 2.0.0 removes tenantHeader and loosens originDnsName to any string
    const { violations, plan } = nextRelease(series, platform, { ...RELEASE_1, version: '2.0.0', fields: { originDnsName: Field.string() } });

    // THEN the interface changes list both, the removal first
    expect(violations).toEqual([]);
    expect(plan?.changes.interface).toEqual([
      { contract: 'cdn/Edge', field: 'tenantHeader', change: 'removed', needs: 'major' },
      { contract: 'cdn/Edge', field: 'originDnsName', change: 'loosened from hostname to any string', needs: 'minor' },
    ]);
  });

  test('a major bump shows the version and the parameter path moving from v1 to v2', () => {
    // GIVEN the real lock of release 1
    const series = lockedSeries(platform, RELEASE_1);

    // WHEN 2.0.0 is released with the same fields
    const { plan } = nextRelease(series, platform, { ...RELEASE_1, version: '2.0.0' });

    // THEN the contract change carries both versions and both parameters, and the Base template's Name moves
    expect(plan?.changes.contracts).toEqual([
      {
        contract: 'cdn/Edge',
        change: 'changed',
        before: { version: '1.0.0', parameter: '/cdk-capability/cdn/edge/v1' },
        after: { version: '2.0.0', parameter: '/cdk-capability/cdn/edge/v2' },
      },
    ]);
    const base = plan?.changes.fields.find((f) => f.unit === 'stack cdn/Base')?.fields.filter((f) => f.path.endsWith('.Properties.Name'));
    expect(base?.map(({ before, after }) => ({ before, after }))).toEqual([{ before: '/cdk-capability/cdn/edge/v1', after: '/cdk-capability/cdn/edge/v2' }]);
  });

  test('a Deployment scaled from 2 to 3 replicas shows spec.replicas 2 -> 3 and nothing else', () => {
    // GIVEN the real lock of a release where Deployment payments/api has 2 replicas
    const payments = (app: CapabilityApp, replicas: number) => {
      const routing = new RuntimeRouting(new Capability(app, 'payments'), 'Routing');
      new ApiObject(routing, 'Api', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api', namespace: 'payments' },
        spec: { replicas, selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'api:1' }] } } },
      });
    };
    const series = lockedSeries(payments, 2);

    // WHEN the next release has 3 replicas
    const { plan } = nextRelease(series, payments, 3);

    // THEN one changed leaf
    expect(plan?.changes.fields).toEqual([{ unit: 'apps/Deployment payments/api', fields: [{ path: 'spec.replicas', before: 2, after: 3 }] }]);
  });

  test('a field moving from the declarer to a Contribution is a handover of ownership, with the value unchanged', () => {
    // GIVEN the real lock of a release where ConfigMap settings declares data.mode itself
    const settings = (app: CapabilityApp, contributed: boolean) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      const cm = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, ...(contributed ? {} : { data: { mode: 'live' } }) });
      if (contributed) new Contribution(routing, 'Ops', { target: cm, fields: { data: { mode: 'live' } } });
    };
    const series = lockedSeries(settings, false);

    // WHEN the next release writes data.mode through Contribution shop/Routing/Ops
    const { violations, plan } = nextRelease(series, settings, true);

    // THEN the manifest is unchanged, and the plan records the handover
    expect(violations).toEqual([]);
    expect(plan?.changes.changed).toEqual([]);
    expect(plan?.changes.handovers).toEqual([{ unit: 'ConfigMap settings', path: 'data.mode', from: 'shop/Routing/Settings', to: 'shop/Routing/Ops' }]);
    expect(formatPlan(plan!)).toContain("\nHandovers of field ownership:\n  ~ ConfigMap settings data.mode: 'shop/Routing/Settings' -> 'shop/Routing/Ops'\n");
    expect(hasChanges(plan!)).toBe(true);
  });

  test("a declarer renamed and nothing else: the summary counts the handover that makes plan exit 2, not '0 to add, 0 to change, 0 to remove'", () => {
    // GIVEN the real lock of a release where construct Settings declares ConfigMap settings
    const settings = (app: CapabilityApp, id: string) => {
      new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'live' } });
    };
    const series = lockedSeries(settings, 'Settings');

    // WHEN the next release declares it as Settings2
    const { violations, plan } = nextRelease(series, settings, 'Settings2');

    // THEN the summary line counts the handover, as hasChanges does
    expect(violations).toEqual([]);
    expect(plan?.changes.handovers).toEqual([{ unit: 'ConfigMap settings', path: 'data.mode', from: 'shop/Routing/Settings', to: 'shop/Routing/Settings2' }]);
    expect(formatPlan(plan!).split('\n')[0]).toBe('Plan: 0 to add, 0 to change, 0 to remove, 1 handover of field ownership.');
    expect(hasChanges(plan!)).toBe(true);
  });

  test('synth() writes the same changes to plan.json in the outdir', () => {
    // GIVEN the real lock of release 1
    const series = lockedSeries(platform, RELEASE_1);

    // WHEN release 2 is synthesized to disk (the lock is not updated)
    const app = appOf(series);
    platform(app, RELEASE_2);
    withUpdateLock(undefined, () => app.synth());

    // THEN plan.json holds the changes against the lock of release 1
    const written = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
    expect(written.changes).toEqual(nextRelease(series, platform, RELEASE_2).plan?.changes);
    expect(written.changes.removed).toEqual(['ConfigMap c', 'stack dns/old']);
  });
});

describe('a changed unit whose recorded values show no difference', () => {
  /** A ConfigMap as the lock records it, with `values` and `digest`. */
  const configMapUnit = (values: Record<string, unknown>, digest: string): LockedUnit => ({ id: 'object:|ConfigMap|default|a', label: 'ConfigMap a', path: 'cdn/Routing/a', digest, values });

  test('with a masked value, says that only masked values changed', () => {
    // GIVEN a value known after deploy in both versions, and digests that differ
    const old = configMapUnit({ 'data.v': '(known after deploy)' }, 'aaa');
    const now = configMapUnit({ 'data.v': '(known after deploy)' }, 'bbb');

    // THEN the note says so
    expect(unitChanges(old, now)).toEqual({ unit: 'ConfigMap a', fields: [], note: 'only masked values changed' });
  });

  test('without a masked value, says that only the digest differs and to write the lock again (a hand-edited digest)', () => {
    // GIVEN the real lock of release 1, its digest of ConfigMap a edited by hand
    const series = lockedSeries(platform, RELEASE_1);
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    lock.units.find((u: any) => u.label === 'ConfigMap a').digest = '0'.repeat(64);
    delete lock.contentDigest; // an edited lock, read as one an earlier version wrote: without the contentDigest an edit would no longer match
    fs.writeFileSync(series.lockFile, JSON.stringify(lock, undefined, 2));

    // WHEN the same release is planned against it
    const { plan } = nextRelease(series, platform, RELEASE_1);

    // THEN the plan does not claim that masked values changed: it says what it knows, and the fix
    expect(plan?.changes.changed).toEqual(['ConfigMap a']);
    expect(formatPlan(plan!).split('\n').filter((l) => l.startsWith('  ~ ') || l.startsWith('      ('))).toEqual([
      '  ~ ConfigMap a',
      "      (its digest differs from the lock's, but none of the values the lock records does: the order of its keys or of a keyed list's elements changed, " +
        'or the lock was edited by hand or written by another version. Write the lock again with CDK_CAPABILITY_UPDATE_LOCK=1)',
    ]);
  });
});
