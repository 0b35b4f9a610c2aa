import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, Contribution, RuntimeRouting, SharedBase } from '../src';

let outdir: string;
beforeAll(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'contribution-test-'));
});
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** An app with a capability `cdn`, its runtime chart `cdn/Routing` and a writer construct `cdn/Routing/Team`. */
function fixture() {
  const app = new CapabilityApp({ outdir });
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const team = new Construct(routing, 'Team');
  return { app, cdn, routing, team };
}

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' } };

describe('Contribution', () => {
  test('a contribution to an ApiObject targets that object and keeps its fields', () => {
    // GIVEN
    const { routing, team } = fixture();
    const cm = new ApiObject(routing, 'Config', CONFIG_MAP);
    const fields = { data: { a: '1' } };

    // WHEN
    const contribution = new Contribution(team, 'Fields', { target: cm, fields });

    // THEN
    expect(contribution.apiObject).toBe(cm);
    expect(contribution.cfnResource).toBeUndefined();
    expect(contribution.fields).toBe(fields);
  });

  test('a contribution to a cdk8s-plus construct targets the ApiObject it keeps as its default child', () => {
    // GIVEN
    const { routing, team } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx' }] });

    // WHEN
    const contribution = new Contribution(team, 'Fields', { target: web, fields: { spec: { replicas: 2 } } });

    // THEN
    expect(contribution.apiObject).toBe(ApiObject.of(web));
  });

  test('a contribution to an aws-cdk L2 construct targets its CfnResource', () => {
    // GIVEN
    const { cdn } = fixture();
    const bucket = new s3.Bucket(new SharedBase(cdn, 'Base'), 'Bucket');

    // WHEN
    const contribution = new Contribution(bucket, 'Fields', { target: bucket, fields: { ObjectLockEnabled: true } });

    // THEN
    expect(contribution.cfnResource).toBe(bucket.node.defaultChild);
    expect(contribution.apiObject).toBeUndefined();
  });

  test('a target that is neither a Kubernetes object nor a CloudFormation resource is CAP010 naming the contribution', () => {
    // GIVEN a plain construct with no default child
    const { app, routing, team } = fixture();
    const plain = new Construct(routing, 'Plain');

    // WHEN
    const contribution = new Contribution(team, 'Fields', { target: plain, fields: { data: { a: '1' } } });

    // THEN it targets nothing, writes nothing, and synth refuses it with a coded error
    expect([contribution.apiObject, contribution.cfnResource]).toEqual([undefined, undefined]);
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP010',
        message: "invalid object: Contribution 'cdn/Routing/Team/Fields': 'target' ('cdn/Routing/Plain') must be an ApiObject, a construct with one as its default child, or a CfnResource.",
        paths: ['cdn/Routing/Team/Fields'],
      },
    ]);
  });

  test('isContribution recognises contributions and nothing else', () => {
    // GIVEN
    const { routing, team } = fixture();
    const cm = new ApiObject(routing, 'Config', CONFIG_MAP);

    // WHEN
    const contribution = new Contribution(team, 'Fields', { target: cm, fields: {} });

    // THEN
    expect([contribution, cm, team, undefined, {}].map((x) => Contribution.isContribution(x))).toEqual([true, false, false, false, false]);
  });

  test('a contribution is merged into the emitted manifest of a cdk8s-plus Deployment', () => {
    // GIVEN a cdk8s-plus Deployment with one container
    const { app, routing, team } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web' }, containers: [{ name: 'main', image: 'nginx' }] });

    // WHEN a mesh team adds a sidecar
    new Contribution(team, 'Sidecar', { target: web, fields: { spec: { template: { spec: { containers: [{ name: 'proxy', image: 'envoy' }] } } } } });

    // THEN
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    const manifest = result.runtimeFiles![0].objects[0].manifest;
    expect(manifest.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual(['main=nginx', 'proxy=envoy']);
  });

  test('the contributed fields are emitted, but the declaring object renders its own declaration only', () => {
    // GIVEN
    const { app, routing, team } = fixture();
    const cm = new ApiObject(routing, 'Config', { ...CONFIG_MAP, data: { a: '1' } });
    new Contribution(team, 'Fields', { target: cm, fields: { data: { b: '2' } } });

    // WHEN
    const result = app.synthesize();

    // THEN
    expect(result.runtimeFiles![0].objects[0].manifest.data).toEqual({ a: '1', b: '2' });
    expect(cm.toJson().data).toEqual({ a: '1' });
  });

  test('synthesizing twice emits the contribution once', () => {
    // GIVEN a contribution of a label and a data key
    const { app, routing, team } = fixture();
    const cm = new ApiObject(routing, 'Config', { ...CONFIG_MAP, data: { a: '1' } });
    new Contribution(team, 'Fields', { target: cm, fields: { metadata: { labels: { team: 'edge' } }, data: { b: '2' } } });

    // WHEN
    const first = app.synthesize();
    const second = app.synthesize();

    // THEN
    expect(second.runtimeFiles![0].objects[0].manifest).toEqual(first.runtimeFiles![0].objects[0].manifest);
    expect(second.runtimeFiles![0].objects[0].manifest).toEqual({ ...CONFIG_MAP, metadata: { ...CONFIG_MAP.metadata, labels: { team: 'edge' } }, data: { a: '1', b: '2' } });
  });

  test('contributions from two capabilities to one object are both recorded under their own paths', () => {
    // GIVEN an object in cdn and a writer in another capability
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Config', { ...CONFIG_MAP, data: { a: '1' } });
    const dns = new Construct(new RuntimeRouting(new Capability(app, 'dns'), 'Routing'), 'Team');

    // WHEN both write data.a
    new Contribution(dns, 'Fields', { target: cm, fields: { data: { a: '2' } } });

    // THEN the conflict names the writer in the other capability
    expect(app.synthesize().violations.map((v) => v.paths)).toEqual([['cdn/Routing/Config', 'dns/Routing/Team/Fields']]);
  });

  test('a contribution that writes a different metadata.name is refused instead of renaming its target', () => {
    // GIVEN ConfigMaps prod/config and prod/other
    const { app, routing, team } = fixture();
    const cm = new ApiObject(routing, 'Config', { ...CONFIG_MAP, data: { a: '1' } });
    new ApiObject(routing, 'Other', { ...CONFIG_MAP, metadata: { name: 'other', namespace: 'prod' }, data: { b: '2' } });

    // WHEN a contribution to prod/config writes the name of the other one
    new Contribution(team, 'Rename', { target: cm, fields: { metadata: { name: 'other' } } });

    // THEN the composition is refused, naming the contribution (it would otherwise emit two ConfigMaps prod/other)
    expect(app.synthesize().violations.flatMap((v) => v.paths)).toContain('cdn/Routing/Team/Rename');
  });
});
