/**
 * An object's own escape hatches are its declarer's (issue 27, item 2): a plain addJsonPatch, addOverride or
 * addPropertyOverride over what the object's own declaration rendered is accepted and shown in the plan as an
 * override; against any other writer, and against each other, escape hatches still conflict.
 */
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, SharedBase } from '../src';
import { formatPlan } from '../src/cli/format-plan';

function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  return { app, routing: new RuntimeRouting(cdn, 'Routing'), base: new SharedBase(cdn, 'Base') };
}

/** CAP002's fix for two writers, with how each wrote the fields. */
const fix = (...ways: string[]) => `Give each field one owner: drop it from one of them (${ways.join('; ')}).`;
/** The fix when every writer is a plain call on one object. */
const KEEP_ONE = (object: string) => `Give each field one owner: keep one of these calls on '${object}' (each replaces the value of the one before it), and write what another team needs with a Contribution.`;

describe('Kubernetes: a plain addJsonPatch', () => {
  test('over a value its own declaration rendered is accepted, emitted, and shown in the plan as rendered -> patched', () => {
    // GIVEN a plain Deployment that declares replicas: 1
    const { app, routing } = fixture();
    const web = new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'prod' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    });

    // WHEN
    const at = siteOfNextLine();
    web.addJsonPatch(JsonPatch.replace('/spec/replicas', 3));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects[0].spec.replicas).toBe(3);
    expect(result.plan!.ownership).toEqual({
      overrides: [{ object: 'apps/Deployment prod/web', field: 'spec.replicas', by: `cdn/Routing/Web (addJsonPatch at ${at})`, rendered: 1, patched: 3 }],
      handovers: [],
    });
    expect(formatPlan(result.plan!)).toContain(
      `\nOverrides (escape hatches over what their own object declares):\n  ~ apps/Deployment prod/web spec.replicas: 1 -> 3 (cdn/Routing/Web (addJsonPatch at ${at}))\n`,
    );
  });

  test('of a field cdk8s-plus renders by itself (hostNetwork: false) is an override too; a remove shows as removed', () => {
    // GIVEN a cdk8s-plus Deployment (it renders hostNetwork: false and automountServiceAccountToken: false)
    const { app, routing } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'prod' }, containers: [{ image: 'nginx' }] });

    // WHEN
    ApiObject.of(web).addJsonPatch(JsonPatch.replace('/spec/template/spec/hostNetwork', true), JsonPatch.remove('/spec/template/spec/automountServiceAccountToken'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects[0].spec.template.spec.hostNetwork).toBe(true);
    expect(result.plan!.ownership!.overrides.map((o) => [o.field, o.rendered, 'patched' in o ? o.patched : '(removed)'])).toEqual([
      ['spec.template.spec.automountServiceAccountToken', false, '(removed)'],
      ['spec.template.spec.hostNetwork', false, true],
    ]);
    expect(formatPlan(result.plan!)).toMatch(/~ apps\/Deployment prod\/web spec\.template\.spec\.automountServiceAccountToken: false -> \(removed\) \(/);
  });

  test('an override of a Secret\'s data is shown masked, as the lock masks it', () => {
    // GIVEN a Secret that declares a password
    const { app, routing } = fixture();
    const secret = new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'prod' }, stringData: { password: 'hunter2' } });

    // WHEN its own escape hatch replaces it
    secret.addJsonPatch(JsonPatch.replace('/stringData/password', 'correct-horse'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.plan!.ownership!.overrides.map((o) => [o.field, o.rendered, o.patched])).toEqual([['stringData.password', '(sensitive)', '(sensitive)']]);
    expect(JSON.stringify(result.plan)).not.toMatch(/hunter2|correct-horse/);
  });

  test('plain calls of one line that write one leaf (a loop) are CAP002, naming the line once with how many calls', () => {
    // GIVEN the seed's custom resource, and a bucket
    const { app, routing, base } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });
    const cfn = new s3.Bucket(base, 'Logs').node.defaultChild as s3.CfnBucket;

    // WHEN a loop patches timers on every turn, and another sets the bucket's ObjectLockEnabled on every turn
    const patches = siteOfNextLine();
    for (const rollout of ['5m', '10m', '15m']) ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout }));
    const overrides = siteOfNextLine();
    for (const enabled of [true, false]) cfn.addPropertyOverride('ObjectLockEnabled', enabled);

    // THEN each is refused, the line named once: only the last turn's value would reach the output
    const loop = 'Give each field one owner: write each field in one call (a loop that writes one field on every turn keeps only its last value), and write what another team needs with a Contribution.';
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.message, v.paths])).toEqual([
      [
        `field conflict: 'cdn/Base/Logs/Resource' (addPropertyOverride at ${overrides}) is called twice, and each call writes ObjectLockEnabled of AWS::S3::Bucket cdn/Base/Logs/Resource: only the last call's value reaches the output. ${loop}`,
        ['cdn/Base/Logs/Resource'],
      ],
      [
        `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${patches}) is called 3 times, and each call writes spec.timers.rollout of apps.example.com/ApplicationDeployment apps/app1: only the last call's value reaches the output. ${loop}`,
        ['cdn/Routing/App1'],
      ],
    ]);
  });

  test('a loop whose every turn overrides one map whole is CAP002: each turn drops the keys the turn before set', () => {
    // GIVEN a resource
    const { app, base } = fixture();
    const cfn = new s3.Bucket(base, 'Site').node.defaultChild as s3.CfnBucket;

    // WHEN a loop overrides WebsiteConfiguration with a map of other keys on each turn (aws-cdk keeps only the last)
    const loop = siteOfNextLine();
    for (const website of [{ IndexDocument: 'index.html' }, { ErrorDocument: 'error.html' }]) cfn.addPropertyOverride('WebsiteConfiguration', website);

    // THEN the first turn's key is named as written by both calls, not dropped without a word
    const result = CapabilityTesting.synth(app);
    expect(result.violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Base/Site/Resource' (addPropertyOverride at ${loop}) is called twice, and each call writes WebsiteConfiguration.IndexDocument of AWS::S3::Bucket cdn/Base/Site/Resource: only the last call's value reaches the output. `
        + 'Give each field one owner: write each field in one call (a loop that writes one field on every turn keeps only its last value), and write what another team needs with a Contribution.',
    ]);
    // AND aws-cdk's render indeed keeps only the last turn's map
    expect(Template.fromStack(base).findResources('AWS::S3::Bucket')).toMatchObject({ [base.getLogicalId(cfn)]: { Properties: { WebsiteConfiguration: { ErrorDocument: 'error.html' } } } });
    expect(JSON.stringify(Template.fromStack(base).toJSON())).not.toContain('index.html');
  });

  test('a plain patch that sets a map over keys an earlier patch set is CAP002, as a map override is: those keys would be lost', () => {
    // GIVEN the seed's custom resource
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });

    // WHEN one line sets spec.timers with rollout, and a later line sets spec.timers again with drain only
    const first = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '5m' }));
    const second = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.replace('/spec/timers', { drain: '1m' }));

    // THEN refused, naming both (cdk8s' render keeps drain alone: rollout would vanish without a word)
    expect(ApiObject.of(target).toJson().spec.timers).toEqual({ drain: '1m' });
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${second}) replaces the map spec.timers of apps.example.com/ApplicationDeployment apps/app1, which drops spec.timers.rollout, written by 'cdn/Routing/App1' (addJsonPatch at ${first}). Give each field one owner: write the keys of spec.timers one by one instead of the whole map, or leave the map to one writer.`,
    ]);
  });

  test('a plain patch that sets a map over what a Contribution\'s patch set in it is CAP002 naming both', () => {
    // GIVEN the seed's custom resource, whose timers a Contribution patches
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });
    new Contribution(routing, 'Rollouts', { target, patches: [JsonPatch.add('/spec/timers', { rollout: '5m' })] });

    // WHEN a later plain patch sets the whole map
    const at = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { drain: '1m' }));

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${at}) replaces the map spec.timers of apps.example.com/ApplicationDeployment apps/app1, which drops spec.timers.rollout, written by 'cdn/Routing/Rollouts'. Give each field one owner: write the keys of spec.timers one by one instead of the whole map, or leave the map to one writer `
        + `('cdn/Routing/Rollouts' writes spec.timers.rollout as a Contribution, in its patches; 'cdn/Routing/App1' sets the map spec.timers through addJsonPatch at ${at}).`,
    ]);
  });

  test('a patch that adds a container at an index inserts it (RFC 6902): accepted, the container there keeps its fields', () => {
    // GIVEN a Deployment with container api
    const { app, routing } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'api', image: 'nginx:1.27' }] });

    // WHEN a plain patch adds a proxy container at index 0, and an env variable at the head of api's env
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0', { name: 'proxy', image: 'envoy:1.30' }));

    // THEN accepted, both containers written, api unchanged
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    const containers = result.runtimeObjects.find((o) => o.kind === 'Deployment').spec.template.spec.containers;
    expect(containers.map((c: any) => [c.name, c.image])).toEqual([['proxy', 'envoy:1.30'], ['api', 'nginx:1.27']]);
  });

  test('a plain patch that adds an element to a declared atomic list (args) rewrites the list: the declarer\'s escape hatch, shown as one override', () => {
    // GIVEN a Deployment whose container declares args [a] (an atomic list: its elements have no owners of their own)
    const { app, routing } = fixture();
    const web = new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'prod' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx', args: ['a'] }] } } },
    });

    // WHEN a plain patch appends b
    const at = siteOfNextLine();
    web.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/args/-', 'b'));

    // THEN accepted: the list is [a, b], and the plan shows the override of the whole list
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects[0].spec.template.spec.containers[0].args).toEqual(['a', 'b']);
    expect(result.plan!.ownership!.overrides).toEqual([
      { object: 'apps/Deployment prod/web', field: 'spec.template.spec.containers[name=app].args', by: `cdn/Routing/Web (addJsonPatch at ${at})`, rendered: ['a'], patched: ['a', 'b'] },
    ]);
  });

  test('a Contribution\'s patch that adds an element to a declared atomic list still conflicts with the declarer: the list has one owner', () => {
    // GIVEN a Deployment whose container declares args [a]
    const { app, routing } = fixture();
    const web = new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'prod' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx', args: ['a'] }] } } },
    });

    // WHEN another team's Contribution appends b
    new Contribution(new Construct(routing, 'Team'), 'Args', { target: web, patches: [JsonPatch.add('/spec/template/spec/containers/0/args/-', 'b')] });

    // THEN CAP002 names the declarer and the Contribution on the list
    const result = CapabilityTesting.synth(app);
    expect(result.violations.map((v) => [v.code, v.message])).toEqual([[
      'CAP002',
      "field conflict: 'cdn/Routing/Team/Args' and 'cdn/Routing/Web' both write spec.template.spec.containers[name=app].args of apps/Deployment prod/web. " + fix(contributes('patches', 'cdn/Routing/Team/Args'), declares('cdn/Routing/Web')),
    ]]);
  });

  // Ported from cdk8s-team/cdk8s-core test/api-object.test.ts (commit 6e6c8be5), describe('addJsonPatch()'),
  // "applied after the object has been synthesized": an add to a list, a remove and a copy, in one call.
  test('cdk8s-core: add to a list, remove and copy in one plain call give cdk8s\' own object', () => {
    // GIVEN an object with spec { foo: 1234, bar: { baz: [1, 2, 3] } }, in a chart named test
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'c'), 'test');
    const obj = new ApiObject(routing, 'obj', { apiVersion: 'example.com/v1', kind: 'Obj', spec: { foo: 1234, bar: { baz: [1, 2, 3] } } });

    // WHEN
    obj.addJsonPatch(JsonPatch.add('/spec/bar/baz/3', 4), JsonPatch.remove('/spec/foo'), JsonPatch.copy('/apiVersion', '/spec/apiVersion'));

    // THEN the object cdk8s-core's test expects (its apiVersion example.com/v1 here: we refuse custom kinds in the core group)
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'Obj').spec).toEqual({ apiVersion: 'example.com/v1', bar: { baz: [1, 2, 3, 4] } });
  });

  test('a patch that creates an empty map, then one that adds a key to it: accepted, as the same map in a declaration blocks nobody', () => {
    // GIVEN a ConfigMap without annotations
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: '1' } });

    // WHEN the usual JSON patch pair adds an annotation (the parent map first: JSON patch needs it)
    cm.addJsonPatch(JsonPatch.add('/metadata/annotations', {}));
    cm.addJsonPatch(JsonPatch.add('/metadata/annotations/example.com~1owner', 'team-a'));

    // THEN accepted, and the annotation written
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'ConfigMap').metadata.annotations).toEqual({ 'example.com/owner': 'team-a' });
  });

  test('an empty map a patch sets over a map another writer filled still contests it: it empties that map', () => {
    // GIVEN a ConfigMap whose annotation a Contribution writes
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: '1' } });
    new Contribution(routing, 'Owner', { target: cm, patches: [JsonPatch.add('/metadata/annotations', { 'example.com/owner': 'team-a' })] });

    // WHEN a later plain patch sets the annotations to an empty map
    const at = siteOfNextLine();
    cm.addJsonPatch(JsonPatch.add('/metadata/annotations', {}));

    // THEN refused, naming both
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/Owner' and 'cdn/Routing/Settings' (addJsonPatch at ${at}) both write metadata.annotations, metadata.annotations["example.com/owner"] of ConfigMap shop/settings. ${fix(contributes('patches', 'cdn/Routing/Owner'), calls('cdn/Routing/Settings', `addJsonPatch at ${at}`))}`,
    ]);
  });

  test('a write callback that fills the empty map its target renders (a cdk8s-plus Secret\'s stringData) is accepted', () => {
    // GIVEN a Secret with no data: cdk8s-plus renders stringData: {}
    const { app, routing } = fixture();
    const creds = new kplus.Secret(routing, 'Creds', { metadata: { name: 'creds', namespace: 'shop' } });

    // WHEN a Contribution adds a key through the typed API
    new Contribution(routing, 'Db', { target: creds, write: (s) => s.addStringData('token', 'abc') });

    // THEN accepted, as the same key written with fields is: an empty map blocks nobody
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'Secret').stringData).toEqual({ token: 'abc' });
  });

  test('a loop and another line writing one leaf: each line named once, the loop with how many calls', () => {
    // GIVEN the seed's custom resource
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });

    // WHEN a loop patches timers twice, and a later line once more
    const loop = siteOfNextLine();
    for (const rollout of ['5m', '10m']) ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout }));
    const after = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '1h' }));

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${loop}), called twice and 'cdn/Routing/App1' (addJsonPatch at ${after}) all write spec.timers.rollout of apps.example.com/ApplicationDeployment apps/app1. ${KEEP_ONE('cdn/Routing/App1')}`,
    ]);
  });

  test('two plain patches of one leaf are still CAP002, naming both call sites', () => {
    // GIVEN the seed's custom resource
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });

    // WHEN two plain patches write timers
    const first = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '5m' }));
    const second = siteOfNextLine();
    ApiObject.of(target).addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '10m' }));

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([
      {
        code: 'CAP002',
        message: `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${first}) and 'cdn/Routing/App1' (addJsonPatch at ${second}) both write spec.timers.rollout of apps.example.com/ApplicationDeployment apps/app1. ${KEEP_ONE('cdn/Routing/App1')}`,
        paths: ['cdn/Routing/App1'],
      },
    ]);
  });

  test('two plain patches of a declared leaf are CAP002 too: one override, two writers', () => {
    // GIVEN a ConfigMap that declares data.mode
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' }, data: { mode: 'a' } });

    // WHEN
    cm.addJsonPatch(JsonPatch.replace('/data/mode', 'b'));
    cm.addJsonPatch(JsonPatch.replace('/data/mode', 'c'));

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      expect.stringMatching(/^field conflict: 'cdn\/Routing\/Config' \(addJsonPatch at test\/escape-hatches\.test\.ts:\d+\) and 'cdn\/Routing\/Config' \(addJsonPatch at test\/escape-hatches\.test\.ts:\d+\) both write data\.mode of ConfigMap prod\/config\./),
    ]);
  });

  test('one call with two operations on one leaf is one writer', () => {
    // GIVEN
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' } });

    // WHEN
    cm.addJsonPatch(JsonPatch.add('/data', { mode: 'a' }), JsonPatch.replace('/data/mode', 'b'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects[0].data).toEqual({ mode: 'b' });
  });

  test('a plain patch of a leaf a Contribution writes conflicts, though the declarer rendered it first', () => {
    // GIVEN a ConfigMap with data.mode, contributed to by another team
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' }, data: { level: 'info' } });
    new Contribution(new Construct(routing, 'Ops'), 'Level', { target: cm, write: (o) => o.addJsonPatch(JsonPatch.replace('/data/level', 'debug')) });

    // WHEN the object's own escape hatch writes it too
    const at = siteOfNextLine();
    cm.addJsonPatch(JsonPatch.replace('/data/level', 'warn'));

    // THEN the escape hatch no longer conflicts with the declarer, but with the contribution
    expect(CapabilityTesting.synth(app).violations.map((v) => [v.message, v.paths])).toEqual([
      [
        `field conflict: 'cdn/Routing/Config' (addJsonPatch at ${at}) and 'cdn/Routing/Ops/Level' both write data.level of ConfigMap prod/config. ${fix(calls('cdn/Routing/Config', `addJsonPatch at ${at}`), contributes('write callback', 'cdn/Routing/Ops/Level'))}`,
        ['cdn/Routing/Config', 'cdn/Routing/Ops/Level'],
      ],
    ]);
  });
});

describe('a plain deletion of what an earlier plain escape hatch of the same object set', () => {
  test('is the object\'s own override: accepted, the leaf gone, shown in the plan as value -> (removed) over the earlier call', () => {
    // GIVEN a custom resource whose own escape hatches add spec.timers, then remove one of its keys
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });
    const adds = siteOfNextLine();
    target.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '5m', drain: '1m' }));

    // WHEN
    const removes = siteOfNextLine();
    target.addJsonPatch(JsonPatch.remove('/spec/timers/drain'));

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects[0].spec).toEqual({ timers: { rollout: '5m' } });
    expect(result.plan!.ownership!.overrides).toEqual([
      { object: 'apps.example.com/ApplicationDeployment apps/app1', field: 'spec.timers.drain', by: `cdn/Routing/App1 (addJsonPatch at ${removes})`, over: `cdn/Routing/App1 (addJsonPatch at ${adds})`, rendered: '1m' },
    ]);
    expect(formatPlan(result.plan!)).toContain(
      `  ~ apps.example.com/ApplicationDeployment apps/app1 spec.timers.drain: "1m" -> (removed) (cdn/Routing/App1 (addJsonPatch at ${removes}), over cdn/Routing/App1 (addJsonPatch at ${adds}))\n`,
    );
  });

  test('of a leaf a Contribution wrote is still CAP002: the deletion is a writer of its own', () => {
    // GIVEN a ConfigMap another team contributes data.mode to
    const { app, routing } = fixture();
    const cm = new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'prod' }, data: {} });
    new Contribution(new Construct(routing, 'Ops'), 'Mode', { target: cm, patches: [JsonPatch.add('/data/mode', 'maintenance')] });

    // WHEN the object's own escape hatch removes it
    const at = siteOfNextLine();
    cm.addJsonPatch(JsonPatch.remove('/data/mode'));

    // THEN
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/Config' (addJsonPatch at ${at}) and 'cdn/Routing/Ops/Mode' both write data.mode of ConfigMap prod/config. ${fix(calls('cdn/Routing/Config', `addJsonPatch at ${at}`), contributes('patches', 'cdn/Routing/Ops/Mode'))}`,
    ]);
  });

  test('inside a value an earlier call wrote whole (a CloudFormation list) is still CAP002: it edits that value, it does not remove it', () => {
    // GIVEN a bucket whose own override sets its CORS rules, a list, whole
    const { app, base } = fixture();
    const cfn = new s3.Bucket(base, 'Cors').node.defaultChild as s3.CfnBucket;
    const sets = siteOfNextLine();
    cfn.addPropertyOverride('CorsConfiguration.CorsRules', [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }]);

    // WHEN another call deletes one element of it
    const deletes = siteOfNextLine();
    cfn.addPropertyDeletionOverride('CorsConfiguration.CorsRules.0');

    // THEN
    const object = 'AWS::S3::Bucket cdn/Base/Cors/Resource';
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      `field conflict: '${object.split(' ')[1]}' (addPropertyDeletionOverride at ${deletes}) and '${object.split(' ')[1]}' (addPropertyOverride at ${sets}) both write CorsConfiguration.CorsRules of ${object}. ${KEEP_ONE('cdn/Base/Cors/Resource')}`,
    ]);
  });
});

describe('CloudFormation: the resource-overrides shape', () => {
  // The shape of aws-samples/aws-cdk-examples, typescript/resource-overrides/index.ts (commit cefb2e2287d5):
  // node.defaultChild cast to the L1, then addPropertyOverride, addPropertyDeletionOverride, addOverride and
  // L1 property setters over the bucket's own props (versioned, KMS-managed encryption), tokens included.
  function resourceOverrides() {
    const { app, base } = fixture();
    const other = new s3.Bucket(base, 'Other');
    const bucket = new s3.Bucket(base, 'MyBucket', { versioned: true, encryption: s3.BucketEncryption.KMS_MANAGED });
    const cfn = bucket.node.defaultChild as s3.CfnBucket;
    const encryptEverything = siteOfNextLine();
    cfn.addPropertyOverride('BucketEncryption.ServerSideEncryptionConfiguration.0.EncryptEverythingAndAlways', true);
    const deleteDefault = siteOfNextLine();
    cfn.addPropertyDeletionOverride('BucketEncryption.ServerSideEncryptionConfiguration.0.ServerSideEncryptionByDefault');
    const status = siteOfNextLine();
    cfn.addOverride('Properties.VersioningConfiguration.Status', 'NewStatus');
    cfn.addPropertyOverride('LoggingConfiguration.DestinationBucketName', other.bucketName);
    cfn.analyticsConfigurations = [{ id: 'config1', storageClassAnalysis: { dataExport: { outputSchemaVersion: '1', destination: { format: 'html', bucketArn: other.bucketArn } } } }];
    cfn.cfnOptions.metadata = { MetadataKey: 'MetadataValue' };
    return { app, sites: { encryptEverything, deleteDefault, status } };
  }

  test('is accepted, with the template aws-cdk renders for it', () => {
    // GIVEN / WHEN
    const { app } = resourceOverrides();
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ EncryptEverythingAndAlways: true }] },
      VersioningConfiguration: { Status: 'NewStatus' },
      AnalyticsConfigurations: [{ Id: 'config1', StorageClassAnalysis: { DataExport: { OutputSchemaVersion: '1', Destination: { Format: 'html' } } } }],
    });
  });

  test('an addOverride of a whole map, then an addPropertyOverride inside it: two leaves, no conflict (aws-cdk merges the second into the first\'s map)', () => {
    // GIVEN the CorsConfiguration overrides of the same example: a map set whole, then one key of it set by another call
    const { app, base } = fixture();
    const cfn = new s3.Bucket(base, 'Cors').node.defaultChild as s3.CfnBucket;
    cfn.addOverride('Properties.CorsConfiguration', { Custom: 123 });
    cfn.addPropertyOverride('CorsConfiguration.CorsRules', [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }]);

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN accepted, with both values in the template
    expect(result.violations).toEqual([]);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { Custom: 123, CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] },
    });
  });

  test('with each override of the bucket\'s own props in the plan, and none for what its props never set', () => {
    // GIVEN / WHEN
    const { app, sites } = resourceOverrides();
    const result = CapabilityTesting.synth(app);

    // THEN
    const object = 'AWS::S3::Bucket cdn/Base/MyBucket/Resource';
    const by = (api: string, site: string) => `cdn/Base/MyBucket/Resource (${api} at ${site})`;
    expect(result.plan!.ownership!.overrides).toEqual([
      { object, field: 'BucketEncryption.ServerSideEncryptionConfiguration["0"].EncryptEverythingAndAlways', by: by('addPropertyOverride', sites.encryptEverything), patched: true },
      {
        object,
        field: 'BucketEncryption.ServerSideEncryptionConfiguration["0"].ServerSideEncryptionByDefault',
        by: by('addPropertyDeletionOverride', sites.deleteDefault),
        rendered: { SSEAlgorithm: 'aws:kms' },
      },
      { object, field: 'VersioningConfiguration.Status', by: by('addOverride', sites.status), rendered: 'Enabled', patched: 'NewStatus' },
    ]);
  });
});
