/**
 * Every write path, attributed to the construct that makes it (README, "Who writes this field"): the seed
 * incident done four ways, Tags and L2 callbacks on CloudFormation, and disjoint writes through every path
 * merging into one object.
 */
import { Tags } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, conflict, contributes, declares, fixture, way } from './write-fixtures';
import { Capability, CapabilityTesting, Contribution, DeploymentAggregate, RuntimeWriter, SharedBase } from '../src';

const APP = 'apps.example.com/ApplicationDeployment apps/app1';

/** The seed's custom resource, declared by NetOp with the field it owns. */
function applicationDeployment(scope: Construct) {
  return new ApiObject(scope, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: { domains: ['app1.example.com'] } });
}

describe('the seed incident, done four ways, is CAP002 naming both teams', () => {
  test('a declaration and a Contribution of spec.timers', () => {
    // GIVEN NetOp declares app1 with timers of its own
    const { app, deployTeam, netOp } = fixture();
    const target = new ApiObject(netOp, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: { timers: { rollout: '10m' } } });

    // WHEN the deployment team contributes its timers
    new Contribution(deployTeam, 'Timers', { target, fields: { spec: { timers: { rollout: '5m' } } } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: conflict("'cdn/Routing/DeployTeam/Timers'", "'cdn/Routing/NetOp/App1'", 'spec.timers.rollout', APP, contributes('fields', 'cdn/Routing/DeployTeam/Timers'), declares('cdn/Routing/NetOp/App1')),
        paths: ['cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/App1'],
      },
    ]);
  });

  test('two Contributions of spec.timers', () => {
    // GIVEN
    const { app, deployTeam, netOp } = fixture();
    const target = applicationDeployment(netOp);

    // WHEN both teams contribute timers
    new Contribution(deployTeam, 'Timers', { target, fields: { spec: { timers: { rollout: '5m' } } } });
    new Contribution(netOp, 'Timers', { target, fields: { spec: { timers: { rollout: '10m' } } } });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.message, v.paths])).toEqual([
      [conflict("'cdn/Routing/DeployTeam/Timers'", "'cdn/Routing/NetOp/Timers'", 'spec.timers.rollout', APP, contributes('fields', 'cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers')), ['cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers']],
    ]);
  });

  test('two Contributions of JSON patches', () => {
    // GIVEN
    const { app, deployTeam, netOp } = fixture();
    const target = applicationDeployment(netOp);

    // WHEN both teams patch timers in
    new Contribution(deployTeam, 'Timers', { target, patches: [JsonPatch.add('/spec/timers', { rollout: '5m' })] });
    new Contribution(netOp, 'Timers', { target, patches: [JsonPatch.add('/spec/timers', { rollout: '10m' })] });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.message, v.paths])).toEqual([
      [conflict("'cdn/Routing/DeployTeam/Timers'", "'cdn/Routing/NetOp/Timers'", 'spec.timers.rollout', APP, contributes('patches', 'cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers')), ['cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers']],
    ]);
  });

  test('two write callbacks, each through the object\'s own API', () => {
    // GIVEN
    const { app, deployTeam, netOp } = fixture();
    const target = applicationDeployment(netOp);

    // WHEN both teams write timers from a callback (addJsonPatch is the API a plain ApiObject has)
    new Contribution(deployTeam, 'Timers', { target, write: (t) => t.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '5m' })) });
    new Contribution(netOp, 'Timers', { target, write: (t) => t.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '10m' })) });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.message, v.paths])).toEqual([
      [conflict("'cdn/Routing/DeployTeam/Timers'", "'cdn/Routing/NetOp/Timers'", 'spec.timers.rollout', APP, contributes('write callback', 'cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers')), ['cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers']],
    ]);
  });

  test('two write callbacks through cdk8s-plus mutators of one env variable', () => {
    // GIVEN a cdk8s-plus Deployment declared by NetOp
    const { app, deployTeam, netOp } = fixture();
    const web = new kplus.Deployment(netOp, 'Web', { metadata: { name: 'web', namespace: 'apps' }, containers: [{ name: 'main', image: 'nginx' }] });

    // WHEN both teams set TIMERS through the container's env
    new Contribution(deployTeam, 'Timers', { target: web, write: (d) => d.containers[0].env.addVariable('TIMERS', kplus.EnvValue.fromValue('5m')) });
    new Contribution(netOp, 'Timers', { target: web, write: (d) => d.containers[0].env.addVariable('TIMERS', kplus.EnvValue.fromValue('10m')) });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict("'cdn/Routing/DeployTeam/Timers'", "'cdn/Routing/NetOp/Timers'", 'spec.template.spec.containers[name=main].env[name=TIMERS].value', 'apps/Deployment apps/web', contributes('write callback', 'cdn/Routing/DeployTeam/Timers', 'cdn/Routing/NetOp/Timers')),
    ]);
  });
});

describe('write callbacks through cdk8s-plus mutators', () => {
  test('addVariable over the declarer\'s configMapKeyRef is CAP002 naming the declarer and the caller', () => {
    // GIVEN the declarer reads LOG_LEVEL from a ConfigMap
    const { app, deployTeam, netOp } = fixture();
    const config = new kplus.ConfigMap(netOp, 'Config', { metadata: { name: 'config', namespace: 'apps' }, data: { level: 'info' } });
    const web = new kplus.Deployment(netOp, 'Web', {
      metadata: { name: 'web', namespace: 'apps' },
      containers: [{ name: 'main', image: 'nginx', envVariables: { LOG_LEVEL: kplus.EnvValue.fromConfigMap(config, 'level') } }],
    });

    // WHEN another team sets it to a literal from a callback
    new Contribution(deployTeam, 'Debug', { target: web, write: (d) => d.containers[0].env.addVariable('LOG_LEVEL', kplus.EnvValue.fromValue('debug')) });

    // THEN both are named, on what the callback removed
    const env = 'spec.template.spec.containers[name=main].env[name=LOG_LEVEL]';
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: conflict("'cdn/Routing/DeployTeam/Debug'", "'cdn/Routing/NetOp/Web'", `${env}.valueFrom.configMapKeyRef`, 'apps/Deployment apps/web', contributes('write callback', 'cdn/Routing/DeployTeam/Debug'), declares('cdn/Routing/NetOp/Web')), // an atomic struct
        paths: ['cdn/Routing/DeployTeam/Debug', 'cdn/Routing/NetOp/Web'],
      },
    ]);
  });

  test('metadata.addLabel over the declarer\'s label is CAP002; a new label is the callback\'s and is emitted', () => {
    // GIVEN a Deployment labelled team=payments by its declarer
    const { app, deployTeam, netOp } = fixture();
    const web = new kplus.Deployment(netOp, 'Web', { metadata: { name: 'web', namespace: 'apps', labels: { team: 'payments' } }, containers: [{ image: 'nginx' }] });

    // WHEN one callback relabels team, another adds tier and a pod label
    new Contribution(deployTeam, 'Team', { target: web, write: (d) => d.metadata.addLabel('team', 'obs') });
    new Contribution(deployTeam, 'Tier', { target: web, write: (d) => { d.metadata.addLabel('tier', 'web'); d.podMetadata.addLabel('mesh', 'on'); } });

    // THEN only the relabel is refused
    const result = CapabilityTesting.synth(app);
    expect(result.violations.map((v) => v.message)).toEqual([
      conflict("'cdn/Routing/DeployTeam/Team'", "'cdn/Routing/NetOp/Web'", 'metadata.labels.team', 'apps/Deployment apps/web', contributes('write callback', 'cdn/Routing/DeployTeam/Team'), declares('cdn/Routing/NetOp/Web')),
    ]);
  });

  test('disjoint callbacks are accepted and their writes land in the one emitted object', () => {
    // GIVEN
    const { app, deployTeam, netOp } = fixture();
    const web = new kplus.Deployment(netOp, 'Web', { metadata: { name: 'web', namespace: 'apps' }, containers: [{ name: 'main', image: 'nginx' }] });

    // WHEN two teams add a label, a pod label, an env variable and a sidecar
    new Contribution(deployTeam, 'Labels', { target: web, write: (d) => { d.metadata.addLabel('tier', 'web'); d.podMetadata.addLabel('mesh', 'on'); } });
    new Contribution(netOp, 'Sidecar', { target: web, write: (d) => { d.addContainer({ name: 'proxy', image: 'envoy' }); d.containers[0].env.addVariable('A', kplus.EnvValue.fromValue('1')); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const manifest = result.runtimeObjects.find((o) => o.kind === 'Deployment');
    expect(manifest.metadata.labels.tier).toBe('web');
    expect(manifest.spec.template.metadata.labels.mesh).toBe('on');
    expect(manifest.spec.template.spec.containers.map((c: any) => [c.name, c.env ?? []])).toEqual([['main', [{ name: 'A', value: '1' }]], ['proxy', []]]);
  });

  test('a callback runs once, when synth collects, after the declarer\'s own code: it sees a container added later', () => {
    // GIVEN a Deployment whose container is added after the contribution is made
    const { app, deployTeam, netOp } = fixture();
    const web = new kplus.Deployment(netOp, 'Web', { metadata: { name: 'web', namespace: 'apps' } });
    let runs = 0;
    new Contribution(deployTeam, 'Env', { target: web, write: (d) => { runs++; d.containers[0].env.addVariable('A', kplus.EnvValue.fromValue('1')); } });
    web.addContainer({ name: 'main', image: 'nginx' });

    // WHEN synthesized twice
    const first = CapabilityTesting.synth(app);
    const second = CapabilityTesting.synth(app);

    // THEN it ran once, and both synths emit its variable once
    expect(runs).toBe(1);
    for (const result of [first, second]) {
      expect(result.violations).toEqual([]);
      expect(result.runtimeObjects[0].spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }]);
    }
  });
});

describe('write callbacks and Tags on CloudFormation resources', () => {
  test('an L2 callback setting versioningConfiguration against versioned: true is CAP002 naming both', () => {
    // GIVEN the storage team's versioned bucket
    const { app, storage, security } = fixture();
    const bucket = new s3.Bucket(storage, 'Bucket', { versioned: true });

    // WHEN the security team suspends versioning through the L1's setter
    new Contribution(security, 'Versioning', { target: bucket, write: (b) => { (b.node.defaultChild as s3.CfnBucket).versioningConfiguration = { status: 'Suspended' }; } });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: conflict("'cdn/Base/Security/Versioning'", "'cdn/Base/Storage/Bucket'", 'VersioningConfiguration.Status', 'AWS::S3::Bucket cdn/Base/Storage/Bucket/Resource', contributes('write callback', 'cdn/Base/Security/Versioning'), declares('cdn/Base/Storage/Bucket')),
        paths: ['cdn/Base/Security/Versioning', 'cdn/Base/Storage/Bucket'],
      },
    ]);
  });

  test('an L2 method in a callback is the contribution\'s and lands in the template', () => {
    // GIVEN a bucket
    const { app, storage, security } = fixture();
    const bucket = new s3.Bucket(storage, 'Bucket', { versioned: true });

    // WHEN another team adds a lifecycle rule through the L2
    new Contribution(security, 'Expiry', { target: bucket, write: (b) => b.addLifecycleRule({ id: 'expire', expiration: { toDays: () => 30 } as any }) });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const props = Object.values<any>(result.templates['cdn/Base'].Resources).find((r) => r.Type === 'AWS::S3::Bucket').Properties;
    expect(props.LifecycleConfiguration.Rules).toEqual([{ Id: 'expire', ExpirationInDays: 30, Status: 'Enabled' }]);
    expect(props.VersioningConfiguration).toEqual({ Status: 'Enabled' });
  });

  test('Tags.of over a tag the resource declares in its props is CAP002 naming the declarer and the Tag', () => {
    // GIVEN an L1 bucket declared with team=payments
    const { app, base, storage } = fixture();
    new s3.CfnBucket(storage, 'Bucket', { tags: [{ key: 'team', value: 'payments' }] });

    // WHEN the whole base is tagged team=obs
    const at = siteOfNextLine();
    Tags.of(base).add('team', 'obs');

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: conflict(`'cdn/Base' (Tags.of().add at ${at})`, "'cdn/Base/Storage/Bucket'", 'Tags.team', 'AWS::S3::Bucket cdn/Base/Storage/Bucket', calls('cdn/Base', `Tags.of().add at ${at}`), declares('cdn/Base/Storage/Bucket')),
        paths: ['cdn/Base', 'cdn/Base/Storage/Bucket'],
      },
    ]);
  });

  test('two Tags of one key from one scope are CAP002 naming both calls, on each object both reach (the stack too)', () => {
    // GIVEN a bucket
    const { app, base, storage } = fixture();
    new s3.Bucket(storage, 'Bucket');

    // WHEN one scope is tagged twice with one key
    const first = siteOfNextLine();
    Tags.of(base).add('cost', 'a');
    const second = siteOfNextLine();
    Tags.of(base).add('cost', 'b');

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict(`'cdn/Base' (Tags.of().add at ${first})`, `'cdn/Base' (Tags.of().add at ${second})`, 'Tags.cost', 'AWS::S3::Bucket cdn/Base/Storage/Bucket/Resource', calls('cdn/Base', `Tags.of().add at ${first}`), calls('cdn/Base', `Tags.of().add at ${second}`)),
      conflict(`'cdn/Base' (Tags.of().add at ${first})`, `'cdn/Base' (Tags.of().add at ${second})`, 'Tags.cost', 'stack cdn/Base', calls('cdn/Base', `Tags.of().add at ${first}`), calls('cdn/Base', `Tags.of().add at ${second}`)),
    ]);
  });

  test('a Contribution\'s Tag of a key a plain Tag set on the same scope is CAP002 naming both, not a nearer-scope handover', () => {
    // GIVEN (a user trial: recorded as a handover "nearer-scope", team=billing silently won)
    const { app, base, storage } = fixture();
    const bucket = new s3.Bucket(storage, 'Bucket');
    const at = siteOfNextLine();
    Tags.of(bucket).add('team', 'storage');

    // WHEN
    new Contribution(base, 'Billing', { target: bucket, write: (b) => Tags.of(b).add('team', 'billing') });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict('\'cdn/Base/Billing\'', `'cdn/Base/Storage/Bucket' (Tags.of().add at ${at})`, 'Tags.team', 'AWS::S3::Bucket cdn/Base/Storage/Bucket/Resource', contributes('write callback', 'cdn/Base/Billing'), calls('cdn/Base/Storage/Bucket', `Tags.of().add at ${at}`)),
    ]);
  });

  test('a nearer scope\'s tag over an outer scope\'s is aws-cdk\'s layering: accepted, recorded as a handover', () => {
    // GIVEN a bucket tagged env=prod by its capability and env=dev by its stack
    const { app, cdn, base, storage } = fixture();
    new s3.Bucket(storage, 'Bucket');
    const outer = siteOfNextLine();
    Tags.of(cdn).add('env', 'prod');
    const nearer = siteOfNextLine();
    Tags.of(base).add('env', 'dev');

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN the template has the nearer value, and the plan records who took the tag from whom
    expect(result.violations).toEqual([]);
    const bucket = Object.values<any>(result.templates['cdn/Base'].Resources).find((r) => r.Type === 'AWS::S3::Bucket');
    expect(bucket.Properties.Tags).toEqual([{ Key: 'env', Value: 'dev' }]);
    expect(result.plan!.ownership!.handovers).toEqual([
      { object: 'AWS::S3::Bucket cdn/Base/Storage/Bucket/Resource', field: 'Tags.env', from: `cdn (Tags.of().add at ${outer})`, to: `cdn/Base (Tags.of().add at ${nearer})`, reason: 'nearer-scope' },
      { object: 'stack cdn/Base', field: 'Tags.env', from: `cdn (Tags.of().add at ${outer})`, to: `cdn/Base (Tags.of().add at ${nearer})`, reason: 'nearer-scope' },
    ]);
  });

  test('a Tag of a higher priority over another scope\'s is a handover; one of a lower priority writes nothing', () => {
    // GIVEN two buckets in two stacks
    const { app, cdn, base, storage } = fixture();
    new s3.Bucket(storage, 'Bucket');
    const tenant = new SharedBase(new Capability(app, 'dns'), 'Base');
    new s3.Bucket(tenant, 'Bucket');

    // WHEN the cdn stack's tag outranks its capability's, and the dns capability's outranks its stack's
    Tags.of(cdn).add('env', 'prod');
    Tags.of(base).add('env', 'dev', { priority: 300 });
    Tags.of(app.node.findChild('dns')).add('env', 'prod', { priority: 300 });
    Tags.of(tenant).add('env', 'dev');

    // THEN each template has the higher priority's value; only the first is a handover (the second tag never applied)
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const tags = (stack: string) => Object.values<any>(result.templates[stack].Resources).find((r) => r.Type === 'AWS::S3::Bucket').Properties.Tags;
    expect([tags('cdn/Base'), tags('dns/Base')]).toEqual([[{ Key: 'env', Value: 'dev' }], [{ Key: 'env', Value: 'prod' }]]);
    expect(result.plan!.ownership!.handovers.map((h) => [h.object, h.field, h.reason])).toEqual([
      ['AWS::S3::Bucket cdn/Base/Storage/Bucket/Resource', 'Tags.env', 'tag-priority'],
      ['stack cdn/Base', 'Tags.env', 'tag-priority'],
    ]);
  });

  test('Tags.of over a tag a stack declares (its `tags` prop) is CAP002 naming the stack and the Tag, as for a resource', () => {
    // GIVEN a stack declared with team=payments (aws-cdk gives props tags priority 50, a Tag 100: team=obs silently won)
    const { app } = fixture();
    const dns = new Capability(app, 'dns');
    const base = new SharedBase(dns, 'Base', { tags: { team: 'payments', cost: 'dns' } });

    // WHEN the whole capability is tagged team=obs
    const at = siteOfNextLine();
    Tags.of(dns).add('team', 'obs');

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: conflict(`'dns' (Tags.of().add at ${at})`, "'dns/Base' (stack tags)", 'Tags.team', 'stack dns/Base', calls('dns', `Tags.of().add at ${at}`), way('declare', 'in its stack tags', 'dns/Base')),
        paths: ['dns', 'dns/Base'],
      },
    ]);
    expect(base.tags.tagValues()).toEqual({ cost: 'dns', team: 'obs' });
  });

  test('a Tag of a key the stack does not declare, or an addStackTag the Tag does not reach, is accepted and lands in the stack\'s tags', () => {
    // GIVEN a stack declared with cost=dns, and a stack tag added by its own code
    const { app } = fixture();
    const dns = new Capability(app, 'dns');
    const base = new SharedBase(dns, 'Base', { tags: { cost: 'dns' } });
    base.addStackTag('owner', 'netops');

    // WHEN the capability is tagged env=prod
    Tags.of(dns).add('env', 'prod');

    // THEN accepted, every tag in the stack's tags, nothing handed over
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(base.tags.tagValues()).toEqual({ cost: 'dns', env: 'prod', owner: 'netops' });
    expect(result.plan!.ownership?.handovers ?? []).toEqual([]);
  });

  test('Tags.of over a stack tag added with addStackTag is CAP002 too', () => {
    // GIVEN
    const { app } = fixture();
    const dns = new Capability(app, 'dns');
    const base = new SharedBase(dns, 'Base');
    base.addStackTag('owner', 'netops');

    // WHEN
    const at = siteOfNextLine();
    Tags.of(base).add('owner', 'obs');

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict(`'dns/Base' (Tags.of().add at ${at})`, "'dns/Base' (stack tags)", 'Tags.owner', 'stack dns/Base', calls('dns/Base', `Tags.of().add at ${at}`), way('declare', 'in its stack tags', 'dns/Base')),
    ]);
  });
});

describe('disjoint writes through every path merge into one object', () => {
  test('a Kubernetes object: declaration, Contribution fields, patches and write callback, a plain addJsonPatch and a runtime writer', () => {
    // GIVEN the seed's custom resource, declared by NetOp with spec.domains
    const { app, routing, deployTeam, netOp } = fixture();
    const target = applicationDeployment(netOp);

    // WHEN each path writes a leaf of its own
    new Contribution(deployTeam, 'Timers', { target, fields: { spec: { timers: { rollout: '5m' } } } });
    new Contribution(deployTeam, 'Entities', { target, patches: [JsonPatch.add('/spec/entityConfigurations', [{ id: 'e1' }])] });
    new Contribution(deployTeam, 'Labels', { target, write: (o) => ApiObject.of(o).metadata.addLabel('team', 'deploy') });
    target.addJsonPatch(JsonPatch.add('/metadata/annotations', { 'example.com/owner': 'netop' }));
    new RuntimeWriter(routing, 'Controller', { target, fields: ['spec.routeTables'], identity: 'system:serviceaccount:netop-system:netop' });

    // THEN accepted, every value in the one emitted object
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.filter((o) => o.kind === 'ApplicationDeployment')).toEqual([{
      apiVersion: 'apps.example.com/v1',
      kind: 'ApplicationDeployment',
      metadata: { name: 'app1', namespace: 'apps', labels: { team: 'deploy' }, annotations: { 'example.com/owner': 'netop' } },
      spec: { domains: ['app1.example.com'], timers: { rollout: '5m' }, entityConfigurations: [{ id: 'e1' }] },
    }]);
  });

  test('a CloudFormation resource: its props, Contribution fields and write callback, a plain addPropertyOverride and a Tag', () => {
    // GIVEN a versioned bucket
    const { app, base, storage, security } = fixture();
    const bucket = new s3.Bucket(storage, 'Assets', { versioned: true });

    // WHEN each path writes a property of its own
    new Contribution(security, 'Accelerate', { target: bucket, fields: { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } } });
    new Contribution(security, 'Lock', { target: bucket, write: (b) => { (b.node.defaultChild as s3.CfnBucket).objectLockEnabled = true; } });
    (bucket.node.defaultChild as s3.CfnBucket).addPropertyOverride('OwnershipControls.Rules', [{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    Tags.of(base).add('team', 'storage');

    // THEN accepted, every value in the one template
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      AccelerateConfiguration: { AccelerationStatus: 'Enabled' },
      ObjectLockEnabled: true,
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      Tags: [{ Key: 'team', Value: 'storage' }],
    });
  });
});

describe('a write callback that writes a resource other than its target', () => {
  /** A bucket in the shared base of `shop`, and a function in its aggregate `acme` with LOG_LEVEL warn. */
  function shopWithFunction() {
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    const data = new s3.Bucket(new SharedBase(shop, 'Base'), 'Data');
    const acme = new DeploymentAggregate(shop, 'acme');
    const fn = new lambda.Function(acme, 'Fn', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler=async()=>1'),
      environment: { LOG_LEVEL: 'warn' },
    });
    return { app, data, acme, fn };
  }

  test('is CAP010 naming the resource it changed, not a silent replacement of its declarer\'s value', () => {
    // GIVEN (a user trial: the declarer's LOG_LEVEL warn became trace, accepted)
    const { app, data, acme, fn } = shopWithFunction();

    // WHEN
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); fn.addEnvironment('LOG_LEVEL', 'trace'); } });

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      "CAP010 invalid object: Contribution 'shop/acme/DataAccess': its write callback changed the resource 'shop/acme/Fn/Resource', which is not its target, " +
        "so what it wrote there would be taken for its declarer's and could replace a value the declarer set without a conflict. " +
        'Write another resource with a Contribution whose target is that resource (a grant is fine: a resource a callback creates is its own, and so is a statement it adds to a policy that exists).',
    ]);
  });

  test('a grant that creates the grantee\'s policy in the callback is accepted: the policy is the callback\'s own', () => {
    // GIVEN
    const { app, data, acme, fn } = shopWithFunction();

    // WHEN
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['shop/acme']).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [{ Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], Effect: 'Allow' }] },
    });
  });

  test('a grant into a policy the grantee has already is accepted: the statement it adds is the callback\'s write', () => {
    // GIVEN a function whose role has its DefaultPolicy already (a grant outside any Contribution)
    const { app, data, acme, fn } = shopWithFunction();
    new s3.Bucket(acme, 'Logs').grantWrite(fn);

    // WHEN another team grants read in a callback
    new Contribution(acme, 'DataAccess', { target: data, write: (b) => { b.grantRead(fn); } });

    // THEN accepted, both statements in the one policy (test/callback-grants.test.ts: the ledger credits each to its writer)
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const policies = Template.fromJSON(result.templates['shop/acme']).findResources('AWS::IAM::Policy');
    expect(Object.values(policies).map((p) => p.Properties.PolicyDocument.Statement.map((st: { Action: string[] }) => st.Action[0]))).toEqual([['s3:DeleteObject*', 's3:GetObject*']]);
  });

  test('a policy the callback creates, with its statements, beside one the grantee has already, is accepted', () => {
    // GIVEN
    const { app, data, acme, fn } = shopWithFunction();
    new s3.Bucket(acme, 'Logs').grantWrite(fn);

    // WHEN
    new Contribution(acme, 'DataAccess', {
      target: data,
      write: (b) => { new iam.Policy(acme, 'DataRead', { roles: [fn.role!], statements: [new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [b.arnForObjects('*')] })] }); },
    });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});
