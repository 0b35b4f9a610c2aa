// The seed incident at synth: the field ledger holds runtime writers like any other writer, so a
// deploy-time writer of a leaf a controller owns is CAP002 naming the controller.
import { ApiObject, JsonPatch } from 'cdk8s';
import { APP1, NETOP, seedApp } from './fixtures';
import { CapabilityTesting, Contribution, RuntimeWriter } from '../../src';

const OBJECT = 'apps.example.com/ApplicationDeployment apps/app1';

const messages = (app: ReturnType<typeof seedApp>['app']) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

/** The CAP002 message for a deploy-time writer and NetOp. */
const againstNetOp = (writer: string, fields: string) =>
  `CAP002 field conflict: ${[writer, "'platform/Routing/NetOp' (RuntimeWriter)"].sort().join(' and ')} both write ${fields} of ${OBJECT}. ` +
  "Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride, or the RuntimeWriter's fields): " +
  "'platform/Routing/NetOp' (RuntimeWriter) writes it in the cluster, where the deploy-time value would be overwritten or would overwrite the controller.";

describe('a deploy-time writer of a runtime writer\'s leaf is CAP002 naming the controller', () => {
  test('a Contribution of spec.domains while NetOp owns it (the seed incident)', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Domains', { target: object, fields: { spec: { domains: ['app1.example.com'] } } });
    expect(messages(app)).toEqual([againstNetOp("'platform/Routing/Domains'", 'spec.domains')]);
  });

  test('a Contribution of one element of the atomic routeTables NetOp owns whole', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Routes', { target: object, fields: { spec: { routeTables: [{ name: 'main', cidr: '10.0.0.0/16' }] } } });
    expect(messages(app)).toEqual([againstNetOp("'platform/Routing/Routes'", 'spec.routeTables')]);
  });

  test('the declaration itself', () => {
    const { app, routing } = seedApp();
    const declared = new ApiObject(routing, 'App2', { ...APP1, metadata: { name: 'app2', namespace: 'apps' }, spec: { ...APP1.spec, domains: ['app2.example.com'] } });
    new RuntimeWriter(routing, 'NetOp2', { target: declared, fields: ['spec.domains'], identity: NETOP });
    expect(messages(app)).toEqual([
      expect.stringMatching(/^CAP002 field conflict: 'platform\/Routing\/App2' and 'platform\/Routing\/NetOp2' \(RuntimeWriter\) both write spec\.domains of apps\.example\.com\/ApplicationDeployment apps\/app2\. .*'platform\/Routing\/NetOp2' \(RuntimeWriter\) writes it in the cluster/),
    ]);
  });

  test('a JSON patch', () => {
    const { app, object } = seedApp();
    object.addJsonPatch(JsonPatch.add('/spec/domains', ['app1.example.com']));
    expect(messages(app)).toEqual([expect.stringMatching(/^CAP002 field conflict: 'platform\/Routing\/DeploymentPipeline\/App1' \(addJsonPatch[^)]*\) and 'platform\/Routing\/NetOp' \(RuntimeWriter\) both write spec\.domains of /)]);
  });

  test('a runtime writer of every object of the kind against a Contribution to one of them', () => {
    const { app, routing, object } = seedApp();
    new RuntimeWriter(routing, 'Scaler', { target: { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment' }, fields: ['spec.entityConfigurations[name=orders].replicas'], identity: 'system:serviceaccount:kube-system:scaler' });
    new Contribution(routing, 'Sizing', { target: object, fields: { spec: { entityConfigurations: [{ name: 'orders', replicas: 4 }] } } });
    // The declaration writes the replicas too (2): three writers of one leaf.
    expect(messages(app)).toEqual([
      expect.stringMatching(/^CAP002 field conflict: 'platform\/Routing\/DeploymentPipeline\/App1', 'platform\/Routing\/Scaler' \(RuntimeWriter\) and 'platform\/Routing\/Sizing' all write spec\.entityConfigurations\[name=orders\]\.replicas of apps\.example\.com\/ApplicationDeployment apps\/app1\. .*'platform\/Routing\/Scaler' \(RuntimeWriter\) writes it in the cluster/),
    ]);
  });
});

describe('disjoint leaves are accepted', () => {
  test('a Contribution of timers beside NetOp\'s domains and routeTables', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Timers', { target: object, fields: { spec: { timers: { publishTimeout: '15m' } } } });
    // The declaration has timers.publishTimeout: the contribution conflicts with it, not with NetOp.
    expect(messages(app)).toEqual([expect.stringMatching(/^CAP002 field conflict: 'platform\/Routing\/DeploymentPipeline\/App1' and 'platform\/Routing\/Timers' both write spec\.timers\.publishTimeout of .*\(its props, Contribution, addJsonPatch or addPropertyOverride\)\.$/)]);
  });

  test('a Contribution of another element of a keyed list the runtime writer writes one element of', () => {
    const { app, routing, object } = seedApp();
    new RuntimeWriter(routing, 'Scaler', { target: object, fields: ['spec.entityConfigurations[name=audit].replicas'], identity: 'system:serviceaccount:kube-system:scaler' });
    new Contribution(routing, 'Sizing', { target: object, fields: { spec: { entityConfigurations: [{ name: 'search', replicas: 4 }] } } });
    expect(messages(app)).toEqual([]);
  });

  test('a runtime writer of status is refused as such, not reported as a conflict', () => {
    const { app, routing, object } = seedApp();
    new RuntimeWriter(routing, 'Reporter', { target: object, fields: ['status.phase'], identity: 'system:serviceaccount:netop-system:reporter' });
    new Contribution(routing, 'Labels', { target: object, fields: { metadata: { labels: { team: 'apps' } } } });
    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'platform/Routing/Reporter' failed its own validation: 'fields'[0] (\"status.phase\") is in status, which controllers write through the status subresource: the admission policy does not constrain it, and the lock, plan.json and audit leave it out. Leave it out, and declare only the controller's fields outside status",
    ]);
  });
});
