import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, DeploymentAggregate, Field, FieldMap, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

const FIX = 'Remove or move the dependent in the same release, or keep what it needs.';

/** The CAP008 message. */
function unsafe(removed: string, neededBy: string, why: string): string {
  const fix = why === DEPENDS
    ? `Remove ${neededBy} in this release too, or keep ${removed} one more release (the version of ${neededBy} ${
      neededBy.startsWith('stack ') ? 'deployed with CloudFormation needs it until this release is deployed' : 'in the cluster needs it until this release is applied'
    }) and remove it in the next.`
    : FIX;
  return `unsafe deletion: this release removes ${removed}, but ${neededBy} remains and ${why}. ${fix}`;
}

const CUSTOM_RESOURCE = 'it is a custom resource of the kind the CRD defines';
const IN_NAMESPACE = 'it lives in that namespace';
const DEPENDS = 'it depends on it in the locked release';

describe('CAP008: deletion safety against the lock', () => {
  describe('a CRD and its custom resources', () => {
    interface CrdVariant {
      readonly crd: boolean;
      readonly widgets: string[];
    }

    /** GIVEN-side builder: CRD widgets.example.com (kind Widget) and Widget objects in chart `cdn/Routing`. */
    function widgets(app: CapabilityApp, v: CrdVariant): void {
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
      if (v.crd) {
        new ApiObject(routing, 'WidgetCrd', {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'widgets.example.com' },
          spec: {
            group: 'example.com',
            names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
            scope: 'Namespaced',
            versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
          },
        });
      }
      for (const name of v.widgets) {
        new ApiObject(routing, `Widget-${name}`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'shop' } });
      }
    }

    test('removing the CRD while a custom resource of its kind remains is refused', () => {
      // GIVEN the real lock of a release with the CRD and widgets w1, w2
      const series = lockedSeries(widgets, { crd: true, widgets: ['w1', 'w2'] });

      // WHEN the next release drops the CRD and w2 but keeps w1
      const { violations } = nextRelease(series, widgets, { crd: false, widgets: ['w1'] });

      // THEN one CAP008 names the CRD, the remaining widget and why
      expect(coded(violations)).toEqual([
        {
          code: 'CAP008',
          message: unsafe(
            "apiextensions.k8s.io/CustomResourceDefinition widgets.example.com (declared by 'cdn/Routing/WidgetCrd' in the locked release)",
            "example.com/Widget shop/w1 (declared by 'cdn/Routing/Widget-w1')",
            CUSTOM_RESOURCE,
          ),
          paths: ['cdn/Routing/Widget-w1', 'cdn/Routing/WidgetCrd'],
        },
      ]);
    });

    test('removing the CRD together with all its custom resources is accepted', () => {
      // GIVEN the real lock of a release with the CRD and widgets w1, w2
      const series = lockedSeries(widgets, { crd: true, widgets: ['w1', 'w2'] });

      // WHEN the next release drops the CRD and both widgets
      const { violations, plan } = nextRelease(series, widgets, { crd: false, widgets: [] });

      // THEN it is accepted and the plan lists the three removals
      expect(violations).toEqual([]);
      expect([...plan!.changes.removed].sort()).toEqual([
        'apiextensions.k8s.io/CustomResourceDefinition widgets.example.com',
        'example.com/Widget shop/w1',
        'example.com/Widget shop/w2',
      ]);
    });

    test('removing custom resources while keeping the CRD is accepted', () => {
      // GIVEN the real lock of a release with the CRD and widget w1
      const series = lockedSeries(widgets, { crd: true, widgets: ['w1'] });

      // WHEN the next release drops w1
      const { violations } = nextRelease(series, widgets, { crd: true, widgets: [] });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  describe('a Namespace and its contents', () => {
    interface NamespaceVariant {
      readonly namespace: boolean;
      readonly settings: boolean;
    }

    /** GIVEN-side builder: Namespace shop and ConfigMap shop/settings in chart `cdn/Routing`. */
    function shop(app: CapabilityApp, v: NamespaceVariant): void {
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
      if (v.namespace) new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
      if (v.settings) new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });
    }

    test('removing a Namespace while an object in it remains is refused', () => {
      // GIVEN the real lock of a release with Namespace shop and ConfigMap shop/settings
      const series = lockedSeries(shop, { namespace: true, settings: true });

      // WHEN the next release drops the Namespace only
      const { violations } = nextRelease(series, shop, { namespace: false, settings: true });

      // THEN one CAP008 names the Namespace and the ConfigMap
      expect(coded(violations)).toEqual([
        { code: 'CAP008', message: unsafe("Namespace shop (declared by 'cdn/Routing/Shop' in the locked release)", "ConfigMap shop/settings (declared by 'cdn/Routing/Settings')", IN_NAMESPACE), paths: ['cdn/Routing/Settings', 'cdn/Routing/Shop'] },
      ]);
    });

    test('removing a Namespace together with its contents is accepted', () => {
      // GIVEN the real lock of a release with Namespace shop and ConfigMap shop/settings
      const series = lockedSeries(shop, { namespace: true, settings: true });

      // WHEN the next release drops both
      const { violations, plan } = nextRelease(series, shop, { namespace: false, settings: false });

      // THEN it is accepted
      expect(violations).toEqual([]);
      expect([...plan!.changes.removed].sort()).toEqual(['ConfigMap shop/settings', 'Namespace shop']);
    });
  });

  describe('an interface field and its consumers', () => {
    interface ConsumerVariant {
      readonly version: string;
      /** Declared and published fields. */
      readonly fields: Array<'originDnsName' | 'tenantHeader'>;
      /** The fields chart `cdn/Routing` reads with `.envVar()`; undefined: no such chart. */
      readonly reads?: Array<'originDnsName' | 'tenantHeader'>;
      /** Keys Deployment web reads from the bound Secret by a hand-written secretKeyRef. */
      readonly rawReads?: string[];
      /** The fields of major 2 published beside (`cdn/EdgeV2`, contract `Edge`, 2.0.0); `reads` then read it. */
      readonly v2?: Array<'originDnsName' | 'tenantHeader'>;
    }

    /**
     * GIVEN-side builder: contract `cdn/Edge` published by `cdn/Base`; chart
     * `cdn/Routing` consumes it and puts the fields it reads into Deployment web.
     */
    function edge(app: CapabilityApp, v: ConsumerVariant): void {
      const cdn = new Capability(app, 'cdn');
      const all: FieldMap = { originDnsName: Field.dnsName(), tenantHeader: Field.string() };
      const values: Record<string, string> = { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' };
      const fields: FieldMap = {};
      const published: Record<string, string> = {};
      for (const f of v.fields) {
        fields[f] = all[f];
        published[f] = values[f];
      }
      const base = new SharedBase(cdn, 'Base');
      const contract = new InterfaceContract(cdn, 'Edge', { version: v.version, fields });
      contract.publish(base, published);
      const v2 = v.v2 ? new InterfaceContract(cdn, 'EdgeV2', { name: 'Edge', version: '2.0.0', fields: Object.fromEntries(v.v2.map((f) => [f, all[f]])) }) : undefined;
      v2?.publish(base, Object.fromEntries(v.v2!.map((f) => [f, values[f]])));
      if (!v.reads) return;
      const routing = new RuntimeRouting(cdn, 'Routing');
      const handles = (v2 ?? contract).consume(routing);
      new ApiObject(routing, 'Web', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [{
                name: 'web',
                image: 'nginx:1.27',
                env: [
                  ...v.reads.map((f) => handles[f].envVar()),
                  ...(v.rawReads ?? []).map((key) => ({ name: key.toUpperCase(), valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key } } })),
                ],
              }],
            },
          },
        },
      });
    }

    test('removing a field in the next major published beside, its reader moving to it without the field, is accepted (the reader remains)', () => {
      // GIVEN the real lock of 1.0.0 where Deployment web (chart cdn/Routing) reads both fields with .envVar()
      const series = lockedSeries(edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], reads: ['originDnsName', 'tenantHeader'] });

      // WHEN 2.0.0 without tenantHeader is published beside 1.0.0 and Deployment web moves to it (reading originDnsName)
      // (bumping 1.0.0 in place instead deletes the parameter web read: test/contract-bump-in-place.test.ts)
      const { violations, plan } = nextRelease(series, edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], v2: ['originDnsName'], reads: ['originDnsName'] });

      // THEN it is accepted: major 1 keeps the field for as long as it is published
      expect(violations).toEqual([]);
      expect(plan?.changes.contracts).toEqual([{ contract: 'cdn/Edge', change: 'added', after: { version: '2.0.0', parameter: '/cdk-capability/cdn/edge/v2' } }]);
    });

    test('removing a field a remaining reader still reads is refused, naming the reader and the two-release way out', () => {
      // GIVEN the real lock of 1.0.0 where Deployment web reads both fields
      const series = lockedSeries(edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], reads: ['originDnsName', 'tenantHeader'] });

      // WHEN 1.1.0 removes tenantHeader (within major 1) but Deployment web keeps reading its key from the bound Secret
      const { violations } = nextRelease(series, edge, { version: '1.1.0', fields: ['originDnsName'], reads: ['originDnsName'], rawReads: ['tenantHeader'] });

      // THEN CAP007 asks for the major beside, and one CAP008 names the field, the reader, how it reads it, and the way out
      expect(coded(violations).map((v) => v.code)).toEqual(['CAP007', 'CAP008']);
      expect(coded(violations).slice(1)).toEqual([
        {
          code: 'CAP008',
          message:
            "unsafe deletion: this release removes interface field 'tenantHeader' of 'cdn/Edge', but 'cdn/Routing/Web' remains and it still reads the field " +
            "(key 'tenantHeader' of Secret cdn-edge-interface in spec.template.spec.containers[name=web].env[name=TENANTHEADER]). " +
            'Stop reading the field in this release, or keep it and publish the next major beside this one, move the readers to it, and retire this major in a later release (docs/releases.md).',
          paths: ['cdn/Routing/Web'],
        },
      ]);
    });

    test('removing a field together with the consumer chart that read it is accepted', () => {
      // GIVEN the real lock of 1.0.0 where cdn/Routing reads both fields
      const series = lockedSeries(edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], reads: ['originDnsName', 'tenantHeader'] });

      // WHEN 2.0.0 removes tenantHeader and the chart cdn/Routing
      const { violations, plan } = nextRelease(series, edge, { version: '2.0.0', fields: ['originDnsName'] });

      // THEN it is accepted; the plan records the field removal
      expect(violations).toEqual([]);
      expect(plan?.changes.interface).toEqual([{ contract: 'cdn/Edge', field: 'tenantHeader', change: 'removed', needs: 'major' }]);
    });

    test('removing a field that no consumer read is accepted with a major bump beside', () => {
      // GIVEN the real lock of 1.0.0 where cdn/Routing reads originDnsName only
      const series = lockedSeries(edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], reads: ['originDnsName'] });

      // WHEN 2.0.0 without tenantHeader is published beside 1.0.0 and cdn/Routing moves to it
      const { violations } = nextRelease(series, edge, { version: '1.0.0', fields: ['originDnsName', 'tenantHeader'], v2: ['originDnsName'], reads: ['originDnsName'] });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  describe('stacks', () => {
    interface StackVariant {
      readonly base: boolean;
      readonly tenants: string[];
      /** Adds chart cdn/Routing with ConfigMap routes. */
      readonly runtime?: boolean;
    }

    /** GIVEN-side builder: shared base `cdn/Base` and one DeploymentAggregate per tenant. */
    function stacks(app: CapabilityApp, v: StackVariant): void {
      const cdn = new Capability(app, 'cdn');
      if (v.base) new SharedBase(cdn, 'Base');
      for (const tenant of v.tenants) new DeploymentAggregate(cdn, tenant);
      if (v.runtime) new ApiObject(new RuntimeRouting(cdn, 'Routing'), 'Routes', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'routes' } });
    }

    test('removing the SharedBase while a DeploymentAggregate that depends on it remains is refused', () => {
      // GIVEN the real lock of a release with cdn/Base and tenant cdn/acme
      const series = lockedSeries(stacks, { base: true, tenants: ['acme'] });

      // WHEN the next release drops the base
      const { violations } = nextRelease(series, stacks, { base: false, tenants: ['acme'] });

      // THEN one CAP008 names both stacks
      expect(coded(violations)).toEqual([
        { code: 'CAP008', message: unsafe('stack cdn/Base', 'stack cdn/acme', DEPENDS), paths: ['cdn/Base', 'cdn/acme'] },
      ]);
    });

    test('removing the SharedBase together with its DeploymentAggregates is accepted', () => {
      // GIVEN the real lock of a release with cdn/Base and tenant cdn/acme
      const series = lockedSeries(stacks, { base: true, tenants: ['acme'] });

      // WHEN the next release drops both stacks
      const { violations, plan } = nextRelease(series, stacks, { base: false, tenants: [] });

      // THEN it is accepted
      expect(violations).toEqual([]);
      expect([...plan!.changes.removed].sort()).toEqual(['stack cdn/Base', 'stack cdn/acme']);
    });

    test('removing a tenant DeploymentAggregate is accepted: nothing depends on a tenant', () => {
      // GIVEN the real lock of a release with cdn/Base and tenants acme and globex
      const series = lockedSeries(stacks, { base: true, tenants: ['acme', 'globex'] });

      // WHEN the next release drops globex
      const { violations } = nextRelease(series, stacks, { base: true, tenants: ['acme'] });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });

    test('removing a tenant DeploymentAggregate is accepted while the runtime routing remains', () => {
      // GIVEN the real lock of a release with cdn/Base, tenants acme and globex, and a runtime ConfigMap
      const series = lockedSeries(stacks, { base: true, tenants: ['acme', 'globex'], runtime: true });

      // WHEN the next release drops tenant globex (offboarding), keeping the runtime
      const { violations } = nextRelease(series, stacks, { base: true, tenants: ['acme'], runtime: true });

      // THEN it is accepted: the runtime only waits for deployment time, it does not need tenant globex
      expect(coded(violations)).toEqual([]);
    });
  });

  describe('explicit dependencies', () => {
    interface DependencyVariant {
      readonly a: boolean;
      readonly b: boolean;
    }

    /** GIVEN-side builder: ConfigMaps a and b in chart `cdn/Routing`; b.addDependency(a) when both exist. */
    function pair(app: CapabilityApp, v: DependencyVariant): void {
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
      const a = v.a ? new ApiObject(routing, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }) : undefined;
      const b = v.b ? new ApiObject(routing, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } }) : undefined;
      if (a && b) b.addDependency(a);
    }

    test('removing an object that a remaining one depends on (addDependency) is refused', () => {
      // GIVEN the real lock of a release where ConfigMap b depends on ConfigMap a
      const series = lockedSeries(pair, { a: true, b: true });

      // WHEN the next release drops a
      const { violations } = nextRelease(series, pair, { a: false, b: true });

      // THEN one CAP008 names a, b and the locked dependency
      expect(coded(violations)).toEqual([
        { code: 'CAP008', message: unsafe('ConfigMap a', 'ConfigMap b', DEPENDS), paths: ['cdn/Routing/A', 'cdn/Routing/B'] },
      ]);
    });

    test('removing the depended-on object together with its dependent is accepted', () => {
      // GIVEN the real lock of a release where ConfigMap b depends on ConfigMap a
      const series = lockedSeries(pair, { a: true, b: true });

      // WHEN the next release drops both
      const { violations } = nextRelease(series, pair, { a: false, b: false });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });

    test('removing the dependent alone is accepted', () => {
      // GIVEN the real lock of a release where ConfigMap b depends on ConfigMap a
      const series = lockedSeries(pair, { a: true, b: true });

      // WHEN the next release drops b
      const { violations } = nextRelease(series, pair, { a: true, b: false });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });

    test('a dependency declared between charts is followed through the locked graph', () => {
      // GIVEN the real lock of a release where chart cdn/Apps depends on chart cdn/Infra
      const charts = (app: CapabilityApp, v: { infra: boolean }) => {
        const cdn = new Capability(app, 'cdn');
        const apps = new RuntimeRouting(cdn, 'Apps');
        new ApiObject(apps, 'AppConfig', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config' } });
        if (v.infra) {
          const infra = new RuntimeRouting(cdn, 'Infra');
          new ApiObject(infra, 'InfraConfig', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'infra-config' } });
          apps.addDependency(infra);
        }
      };
      const series = lockedSeries(charts, { infra: true });

      // WHEN the next release drops chart cdn/Infra
      const { violations } = nextRelease(series, charts, { infra: false });

      // THEN one CAP008 names the removed object and the remaining one
      expect(coded(violations)).toEqual([
        { code: 'CAP008', message: unsafe('ConfigMap infra-config', 'ConfigMap app-config', DEPENDS), paths: ['cdn/Apps/AppConfig', 'cdn/Infra/InfraConfig'] },
      ]);
    });
  });

});
