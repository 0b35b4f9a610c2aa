/**
 * A write callback that changes another callback's target, outside the runs of that target's callbacks (before
 * the first, between two, after the last): its changes are its own writes there, not the declarer's; when several
 * callbacks ran in that interval, which of them wrote what cannot be told, and the synth is refused.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { conflict, contributes, declares, fixture } from './write-fixtures';
import { CapabilityApp, CapabilityTesting, Contribution } from '../src';
import { formatPath } from '../src/collect/ledger/field-path';
import { runWriteCallbacks } from '../src/collect/ledger/write-callbacks';
import { writerName } from '../src/collect/ledger/writer';

const BUCKET = 'AWS::S3::Bucket cdn/Base/Storage/P/Resource';
const SETTINGS = 'ConfigMap apps/p';

/** The ledger's writes of one object, as [writer, field] in the order recorded. */
function writesOf(app: CapabilityApp, label: string): Array<[string, string]> {
  const object = app.synthesize().facts!.ledger.objects.find((o) => o.label === label);
  return (object?.writes ?? []).map((w) => [writerName(w.writer), formatPath(w.path)]);
}

/** The bucket P declared versioned by Storage, the bucket X, and the L1 of P. */
function buckets(storage: Construct) {
  const p = new s3.Bucket(storage, 'P', { versioned: true });
  return { p, x: new s3.Bucket(storage, 'X'), pCfn: p.node.defaultChild as s3.CfnBucket };
}

/** A callback that adds a CORS rule to the bucket it targets. */
const addCors = (b: s3.Bucket) => { b.addCorsRule({ allowedMethods: [s3.HttpMethods.GET], allowedOrigins: ['*'] }); };

/** The ConfigMaps P (labelled team=netop) and X, declared by NetOp. */
function configMaps(netOp: Construct) {
  const p = new ApiObject(netOp, 'P', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', namespace: 'apps', labels: { team: 'netop' } }, data: { level: 'info' } });
  const x = new ApiObject(netOp, 'X', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'apps' } });
  return { p, x };
}

describe('a CloudFormation resource another callback targets', () => {
  test('changed by a callback after the last callback on it: the change is that callback\'s, and the template has it', () => {
    // GIVEN A writes P; B, whose target is X, runs after it
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);
    new Contribution(security, 'A', { target: p, write: addCors });

    // WHEN B turns on P's transfer acceleration
    new Contribution(security, 'B', { target: x, write: () => { pCfn.accelerateConfiguration = { accelerationStatus: 'Enabled' }; } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::S3::Bucket', { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } });
    expect(writesOf(app, BUCKET)).toEqual([
      ['cdn/Base/Storage/P', 'VersioningConfiguration.Status'],
      ['cdn/Base/Security/A', 'CorsConfiguration.CorsRules'],
      ['cdn/Base/Security/B', 'AccelerateConfiguration.AccelerationStatus'],
    ]);
  });

  test('changed by a callback before the first callback on it: the change is that callback\'s', () => {
    // GIVEN B, whose target is X, runs before A, which writes P
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);

    // WHEN B turns on P's transfer acceleration
    new Contribution(security, 'B', { target: x, write: () => { pCfn.accelerateConfiguration = { accelerationStatus: 'Enabled' }; } });
    new Contribution(security, 'A', { target: p, write: addCors });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
    expect(writesOf(app, BUCKET)).toEqual([
      ['cdn/Base/Storage/P', 'VersioningConfiguration.Status'],
      ['cdn/Base/Security/B', 'AccelerateConfiguration.AccelerationStatus'],
      ['cdn/Base/Security/A', 'CorsConfiguration.CorsRules'],
    ]);
  });

  test('changed by a callback between two callbacks on it: the change is that callback\'s', () => {
    // GIVEN A1 and A2 write P; B, whose target is X, runs between them
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);
    new Contribution(security, 'A1', { target: p, write: addCors });

    // WHEN B turns on P's transfer acceleration
    new Contribution(security, 'B', { target: x, write: () => { pCfn.accelerateConfiguration = { accelerationStatus: 'Enabled' }; } });
    new Contribution(security, 'A2', { target: p, write: (b) => { b.addLifecycleRule({ expiration: Duration.days(30) }); } });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
    expect(writesOf(app, BUCKET)).toEqual([
      ['cdn/Base/Storage/P', 'VersioningConfiguration.Status'],
      ['cdn/Base/Security/A1', 'CorsConfiguration.CorsRules'],
      ['cdn/Base/Security/B', 'AccelerateConfiguration.AccelerationStatus'],
      ['cdn/Base/Security/A2', 'LifecycleConfiguration.Rules'],
    ]);
  });

  test('a value set over the declarer\'s, which passed for the declarer\'s own, is CAP002 naming the callback', () => {
    // GIVEN Storage declares P versioned, and A writes P
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);
    new Contribution(security, 'A', { target: p, write: addCors });

    // WHEN B, whose target is X, suspends P's versioning
    new Contribution(security, 'B', { target: x, write: () => { pCfn.versioningConfiguration = { status: 'Suspended' }; } });

    // THEN
    expect(app.synthesize().violations).toEqual([{
      code: 'CAP002',
      message: conflict("'cdn/Base/Security/B'", "'cdn/Base/Storage/P'", 'VersioningConfiguration.Status', BUCKET, contributes('write callback', 'cdn/Base/Security/B'), declares('cdn/Base/Storage/P')),
      paths: ['cdn/Base/Security/B', 'cdn/Base/Storage/P'],
    }]);
  });

  test('an attribute set by a callback after the last callback on it is that callback\'s', () => {
    // GIVEN A writes P
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);
    new Contribution(security, 'A', { target: p, write: (b) => { b.applyRemovalPolicy(RemovalPolicy.DESTROY); } });

    // WHEN B, whose target is X, adds metadata to P
    new Contribution(security, 'B', { target: x, write: () => { pCfn.addMetadata('owner', 'security'); } });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
    expect(writesOf(app, `${BUCKET} (resource attributes)`)).toEqual([
      ['cdn/Base/Security/A', 'DeletionPolicy'],
      ['cdn/Base/Security/A', 'UpdateReplacePolicy'],
      ['cdn/Base/Security/B', 'Metadata.owner'],
    ]);
  });

  test('changed while several callbacks ran after the last callback on it: CAP010 naming them and the target', () => {
    // GIVEN A writes P; B and C, whose targets are X, run after it
    const { app, security, storage } = fixture();
    const { p, x, pCfn } = buckets(storage);
    new Contribution(security, 'A', { target: p, write: addCors });

    // WHEN one of them turns on P's transfer acceleration
    new Contribution(security, 'B', { target: x, write: () => { pCfn.accelerateConfiguration = { accelerationStatus: 'Enabled' }; } });
    new Contribution(security, 'C', { target: x, write: addCors });

    // THEN
    expect(app.synthesize().violations).toEqual([{
      code: 'CAP010',
      message:
        "invalid object: Contribution 'cdn/Base/Security/B': one of the write callbacks of it and 'cdn/Base/Security/C' changed 'cdn/Base/Storage/P/Resource', " +
        "the target of the write callback of 'cdn/Base/Security/A', after it, so what it wrote there would be taken for its declarer's; " +
        'these callbacks ran one after another, and what each of them wrote cannot be told apart. Write it with a Contribution whose target it is.',
      paths: ['cdn/Base/Security/B', 'cdn/Base/Security/C'],
    }]);
  });
});

describe('a Kubernetes object another callback targets', () => {
  test('changed by a callback after the last callback on it: the change is that callback\'s, and the manifest has it', () => {
    // GIVEN A labels P; B, whose target is X, runs after it
    const { app, deployTeam, netOp } = fixture();
    const { p, x } = configMaps(netOp);
    new Contribution(deployTeam, 'A', { target: p, write: (t) => t.metadata.addLabel('a', 'yes') });

    // WHEN B labels P too
    new Contribution(deployTeam, 'B', { target: x, write: () => p.metadata.addLabel('b', 'yes') });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.metadata.name === 'p').metadata.labels).toEqual({ a: 'yes', b: 'yes', team: 'netop' });
    expect(writesOf(app, SETTINGS)).toEqual([
      ['cdn/Routing/NetOp/P', 'metadata.labels.team'],
      ['cdn/Routing/NetOp/P', 'data.level'],
      ['cdn/Routing/DeployTeam/A', 'metadata.labels.a'],
      ['cdn/Routing/DeployTeam/B', 'metadata.labels.b'],
    ]);
  });

  test('changed by a callback before the first callback on it: the change is that callback\'s', () => {
    // GIVEN B, whose target is X, runs before A, which labels P
    const { app, deployTeam, netOp } = fixture();
    const { p, x } = configMaps(netOp);

    // WHEN B labels P
    new Contribution(deployTeam, 'B', { target: x, write: () => p.metadata.addLabel('b', 'yes') });
    new Contribution(deployTeam, 'A', { target: p, write: (t) => t.metadata.addLabel('a', 'yes') });

    // THEN
    expect(app.synthesize().violations).toEqual([]);
    expect(writesOf(app, SETTINGS)).toEqual([
      ['cdn/Routing/NetOp/P', 'metadata.labels.team'],
      ['cdn/Routing/NetOp/P', 'data.level'],
      ['cdn/Routing/DeployTeam/B', 'metadata.labels.b'],
      ['cdn/Routing/DeployTeam/A', 'metadata.labels.a'],
    ]);
  });

  test('changed by a callback between two callbacks on it: the change is that callback\'s, on a second synth too', () => {
    // GIVEN A1 and A2 label P; B, whose target is X, runs between them
    const { app, deployTeam, netOp } = fixture();
    const { p, x } = configMaps(netOp);
    new Contribution(deployTeam, 'A1', { target: p, write: (t) => t.metadata.addLabel('a1', 'yes') });

    // WHEN B labels P
    new Contribution(deployTeam, 'B', { target: x, write: () => p.metadata.addLabel('b', 'yes') });
    new Contribution(deployTeam, 'A2', { target: p, write: (t) => t.metadata.addLabel('a2', 'yes') });

    // THEN
    const writes = [
      ['cdn/Routing/NetOp/P', 'metadata.labels.team'],
      ['cdn/Routing/NetOp/P', 'data.level'],
      ['cdn/Routing/DeployTeam/A1', 'metadata.labels.a1'],
      ['cdn/Routing/DeployTeam/B', 'metadata.labels.b'],
      ['cdn/Routing/DeployTeam/A2', 'metadata.labels.a2'],
    ];
    expect(app.synthesize().violations).toEqual([]);
    expect(writesOf(app, SETTINGS)).toEqual(writes);
    expect(writesOf(app, SETTINGS)).toEqual(writes);
  });

  test('a value set over the declarer\'s, which passed for the declarer\'s own, is CAP002 naming the callback', () => {
    // GIVEN NetOp declares P labelled team=netop, and A labels P
    const { app, deployTeam, netOp } = fixture();
    const { p, x } = configMaps(netOp);
    new Contribution(deployTeam, 'A', { target: p, write: (t) => t.metadata.addLabel('a', 'yes') });

    // WHEN B, whose target is X, relabels P's team
    new Contribution(deployTeam, 'B', { target: x, write: () => p.metadata.addLabel('team', 'deploy') });

    // THEN
    expect(app.synthesize().violations).toEqual([{
      code: 'CAP002',
      message: conflict("'cdn/Routing/DeployTeam/B'", "'cdn/Routing/NetOp/P'", 'metadata.labels.team', SETTINGS, contributes('write callback', 'cdn/Routing/DeployTeam/B'), declares('cdn/Routing/NetOp/P')),
      paths: ['cdn/Routing/DeployTeam/B', 'cdn/Routing/NetOp/P'],
    }]);
  });

  test('changed while several callbacks ran between two callbacks on it: CAP010 naming them and the target, on a second synth too', () => {
    // GIVEN A1 and A2 label P; B and C, whose target is X, run between them
    const { app, deployTeam, netOp } = fixture();
    const { p, x } = configMaps(netOp);
    new Contribution(deployTeam, 'A1', { target: p, write: (t) => t.metadata.addLabel('a1', 'yes') });

    // WHEN one of them labels P
    new Contribution(deployTeam, 'B', { target: x, write: (t) => t.metadata.addLabel('b', 'yes') });
    new Contribution(deployTeam, 'C', { target: x, write: () => p.metadata.addLabel('c', 'yes') });
    new Contribution(deployTeam, 'A2', { target: p, write: (t) => t.metadata.addLabel('a2', 'yes') });

    // THEN
    const violations = [{
      code: 'CAP010',
      message:
        "invalid object: Contribution 'cdn/Routing/DeployTeam/B': one of the write callbacks of it and 'cdn/Routing/DeployTeam/C' changed 'cdn/Routing/NetOp/P', " +
        "the target of the write callbacks of 'cdn/Routing/DeployTeam/A1', 'cdn/Routing/DeployTeam/A2', between them, so what it wrote there would be taken for its declarer's; " +
        'these callbacks ran one after another, and what each of them wrote cannot be told apart. Write it with a Contribution whose target it is.',
      paths: ['cdn/Routing/DeployTeam/B', 'cdn/Routing/DeployTeam/C'],
    }];
    expect(app.synthesize().violations).toEqual(violations);
    expect(app.synthesize().violations).toEqual(violations);
  });
});

describe('what watching the targets between their callbacks costs', () => {
  test('callbacks interleaved over three objects, none touching another\'s target: one render more per object before them and one after them', () => {
    // GIVEN three plain ConfigMaps, each labelled by two callbacks, the callbacks interleaved (X1 X2 X3 X1 X2 X3)
    const { app, deployTeam, netOp } = fixture();
    const targets = ['X1', 'X2', 'X3'].map((id) => new ApiObject(netOp, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id.toLowerCase(), namespace: 'apps' } }));
    for (const round of [1, 2]) {
      targets.forEach((target, i) => new Contribution(deployTeam, `R${round}X${i + 1}`, { target, write: (t) => t.metadata.addLabel(`round${round}`, 'yes') }));
    }
    const contributions = app.node.findAll().filter((c): c is Contribution => Contribution.isContribution(c));

    // WHEN
    const spy = jest.spyOn(ApiObject.prototype, 'toJson');
    let result: ReturnType<typeof runWriteCallbacks>;
    let renders: number;
    try {
      result = runWriteCallbacks(contributions, app.node.findAll());
      renders = spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }

    // THEN two renders around each of the six runs, X2 and X3 before all callbacks, X1 and X2 after them; nothing credited
    expect(renders).toBe(2 * 6 + 2 + 2);
    expect(result.problems).toEqual([]);
    expect(result.runs.map((r) => r.writer)).toEqual(contributions.map((c) => c.node.path));
  });
});
