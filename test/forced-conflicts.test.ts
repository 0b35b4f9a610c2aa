/**
 * Two writers with `force: true` of one leaf: force takes a leaf from its owner, as server-side apply's force
 * does, but two forced writers of one leaf are two owners, and the later one would silently win. They are a
 * CAP002 naming both, the field, both values and the fix, with equal values too (as two writers without force).
 */
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, Contribution, RuntimeRouting, RuntimeWriter, SharedBase } from '../src';
import { contributes, inCluster } from './write-fixtures';

/** An app with a capability `shop`, its runtime chart with a ConfigMap `shop/settings` (`data.level: info`) and a team. */
function fixture() {
  const app = CapabilityTesting.app();
  const shop = new Capability(app, 'shop');
  const routing = new RuntimeRouting(shop, 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { level: 'info' } });
  return { app, routing, settings, team: new Construct(routing, 'Team') };
}


const lines = (app: CapabilityApp) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
const WHY = "force: true takes a field from its owner, not from another writer with force: true, so only the last one's value would reach the output";
const FIX = 'Give each field one owner: drop the field from one of them, or make them one Contribution.';

describe('two Contributions with force: true of one leaf', () => {
  test('with different values are a CAP002 naming both, the field, both values and the fix; the declarer they both took it from is not named', () => {
    // GIVEN two teams that both force data.level of a ConfigMap its declarer set to info
    const { app, settings, team } = fixture();
    new Contribution(team, 'Debug', { target: settings, fields: { data: { level: 'debug' } }, force: true });
    new Contribution(team, 'Quiet', { target: settings, fields: { data: { level: 'warn' } }, force: true });

    // WHEN / THEN one refusal, not the later one's value
    expect(lines(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Team/Debug' and 'shop/Routing/Team/Quiet' both write data.level of ConfigMap shop/settings with force: true "
      + `('shop/Routing/Team/Debug' writes data.level: "debug"; 'shop/Routing/Team/Quiet' writes data.level: "warn"). ${WHY}. ${FIX}`,
    ]);
  });

  test('with equal values are a CAP002 too, as two writers without force of one value are', () => {
    const { app, settings, team } = fixture();
    new Contribution(team, 'Debug', { target: settings, fields: { data: { level: 'debug' } }, force: true });
    new Contribution(team, 'AlsoDebug', { target: settings, fields: { data: { level: 'debug' } }, force: true });

    expect(lines(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Team/AlsoDebug' and 'shop/Routing/Team/Debug' both write data.level of ConfigMap shop/settings with force: true "
      + `('shop/Routing/Team/AlsoDebug' writes data.level: "debug"; 'shop/Routing/Team/Debug' writes data.level: "debug"). ${WHY}, and equal values conflict too. ${FIX}`,
    ]);
  });

  test('through a write callback and JSON patches are a CAP002 with the value each wrote', () => {
    // GIVEN the callback runs at synth, after the patches were added: its value came last
    const { app, settings, team } = fixture();
    new Contribution(team, 'Debug', { target: settings, write: (s) => s.addJsonPatch(JsonPatch.replace('/data/level', 'debug')), force: true });
    new Contribution(team, 'Quiet', { target: settings, patches: [JsonPatch.replace('/data/level', 'warn')], force: true });

    expect(lines(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Team/Debug' and 'shop/Routing/Team/Quiet' both write data.level of ConfigMap shop/settings with force: true "
      + `('shop/Routing/Team/Debug' writes data.level: "debug"; 'shop/Routing/Team/Quiet' writes data.level: "warn"). ${WHY}. ${FIX}`,
    ]);
  });

  test('of a CloudFormation property are a CAP002 with both values', () => {
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const bucket = new s3.Bucket(base, 'Bucket').node.defaultChild as s3.CfnBucket;
    new Contribution(base, 'Keep', { target: bucket, fields: { VersioningConfiguration: { Status: 'Enabled' } }, force: true });
    new Contribution(base, 'Pause', { target: bucket, write: (b) => { b.versioningConfiguration = { status: 'Suspended' }; }, force: true });

    expect(lines(app)).toEqual([
      "CAP002 field conflict: 'shop/Base/Keep' and 'shop/Base/Pause' both write VersioningConfiguration.Status of AWS::S3::Bucket shop/Base/Bucket/Resource with force: true "
      + `('shop/Base/Keep' writes VersioningConfiguration.Status: "Enabled"; 'shop/Base/Pause' writes VersioningConfiguration.Status: "Suspended"). ${WHY}. ${FIX}`,
    ]);
  });

  test('each still takes its other leaves from the declarer: one forced Contribution alone is accepted with its handover', () => {
    const { app, settings, team } = fixture();
    new Contribution(team, 'Debug', { target: settings, fields: { data: { level: 'debug' } }, force: true });

    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'ConfigMap')?.data).toEqual({ level: 'debug' });
    expect(result.plan!.ownership!.handovers).toEqual([{ object: 'ConfigMap shop/settings', field: 'data.level', from: 'shop/Routing/Settings', to: 'shop/Routing/Team/Debug', reason: 'force' }]);
  });
});

describe('a Contribution with force: true and another writer of its leaf', () => {
  test('a RuntimeWriter of the leaf is a CAP002 naming the controller: force takes nothing from a controller in the cluster', () => {
    const { app, routing, settings, team } = fixture();
    new Contribution(team, 'Debug', { target: settings, fields: { data: { level: 'debug' } }, force: true });
    new RuntimeWriter(routing, 'Operator', { target: settings, fields: ['data.level'], identity: 'system:serviceaccount:ops:operator' });

    expect(lines(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Operator' (RuntimeWriter) and 'shop/Routing/Team/Debug' both write data.level of ConfigMap shop/settings. "
      + `Give each field one owner: drop it from one of them (${inCluster('shop/Routing/Operator')}; ${contributes('fields', 'shop/Routing/Team/Debug')}): `
      + 'the deploy-time value would be overwritten or would overwrite the controller.',
    ]);
  });
});
