import { ApiObject, Lazy } from 'cdk8s';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting } from '../src';

test("a cdk8s Lazy in a Contribution's fields is produced at synth, as in a declaration's props (not a CAP000)", () => {
  // GIVEN a ConfigMap, and a Contribution whose value is produced later, after more hosts are known
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: '1' } });
  const hosts: string[] = [];
  new Contribution(routing, 'Hosts', { target: settings, fields: { data: { hosts: Lazy.any({ produce: () => hosts.join(',') }) } } });
  hosts.push('a.example.com', 'b.example.com');

  // WHEN
  const result = CapabilityTesting.synth(app);

  // THEN accepted, the value as produced at synth
  expect(result.violations).toEqual([]);
  expect(result.runtimeObjects.find((o) => o.kind === 'ConfigMap').data).toEqual({ a: '1', hosts: 'a.example.com,b.example.com' });
});

test("a Lazy whose value collides with the declarer's is CAP002 as a plain value would be", () => {
  // GIVEN the same ConfigMap, and a Contribution lazily writing its key a
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: '1' } });
  new Contribution(routing, 'Late', { target: settings, fields: { data: { a: Lazy.any({ produce: () => '2' }) } } });

  // THEN
  expect(CapabilityTesting.synth(app).violations.map((v) => v.code)).toEqual(['CAP002']);
});
