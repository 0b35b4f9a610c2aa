// The seed incident at synth: the field ledger holds runtime writers like any other writer, so a
// deploy-time writer of a leaf a controller owns is CAP002 naming the controller.
import { ApiObject, JsonPatch } from 'cdk8s';
import { APP1, NETOP, seedApp } from './fixtures';
import { CapabilityTesting, Contribution, RuntimeWriter } from '../../src';
import { contributes, declares, inCluster } from '../write-fixtures';

const OBJECT = 'apps.example.com/ApplicationDeployment apps/app1';

const messages = (app: ReturnType<typeof seedApp>['app']) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

/** The CAP002 message for a deploy-time writer and NetOp. */
const againstNetOp = (writer: string, fields: string, way: string) =>
  `CAP002 field conflict: ${[writer, "'platform/Routing/NetOp' (RuntimeWriter)"].sort().join(' and ')} both write ${fields} of ${OBJECT}. ` +
  `Give each field one owner: drop it from one of them (${[way, inCluster('platform/Routing/NetOp')].sort().join('; ')}): ` +
  'the deploy-time value would be overwritten or would overwrite the controller.';

describe('a deploy-time writer of a runtime writer\'s leaf is CAP002 naming the controller', () => {
  test('a Contribution of spec.domains while NetOp owns it (the seed incident)', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Domains', { target: object, fields: { spec: { domains: ['app1.example.com'] } } });
    expect(messages(app)).toEqual([againstNetOp("'platform/Routing/Domains'", 'spec.domains', contributes('fields', 'platform/Routing/Domains'))]);
  });

  test('a Contribution of one element of the atomic routeTables NetOp owns whole', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Routes', { target: object, fields: { spec: { routeTables: [{ name: 'main', cidr: '10.0.0.0/16' }] } } });
    expect(messages(app)).toEqual([againstNetOp("'platform/Routing/Routes'", 'spec.routeTables', contributes('fields', 'platform/Routing/Routes'))]);
  });

  test('the declaration itself', () => {
    const { app, routing } = seedApp();
    const declared = new ApiObject(routing, 'App2', { ...APP1, metadata: { name: 'app2', namespace: 'apps' }, spec: { ...APP1.spec, domains: ['app2.example.com'] } });
    new RuntimeWriter(routing, 'NetOp2', { target: declared, fields: ['spec.domains'], identity: NETOP });
    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'platform/Routing/App2' and 'platform/Routing/NetOp2' (RuntimeWriter) both write spec.domains of apps.example.com/ApplicationDeployment apps/app2. "
        + `Give each field one owner: drop it from one of them (${declares('platform/Routing/App2')}; ${inCluster('platform/Routing/NetOp2')}): `
        + 'the deploy-time value would be overwritten or would overwrite the controller.',
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
      `CAP002 field conflict: 'platform/Routing/DeploymentPipeline/App1', 'platform/Routing/Scaler' (RuntimeWriter) and 'platform/Routing/Sizing' all write spec.entityConfigurations[name=orders].replicas of ${OBJECT}. `
        + `Give each field one owner: drop it from all of them but one (${declares('platform/Routing/DeploymentPipeline/App1')}; ${inCluster('platform/Routing/Scaler')}; ${contributes('fields', 'platform/Routing/Sizing')}): `
        + 'the deploy-time value would be overwritten or would overwrite the controller.',
    ]);
  });
});

describe('disjoint leaves are accepted', () => {
  test('a Contribution of timers beside NetOp\'s domains and routeTables', () => {
    const { app, routing, object } = seedApp();
    new Contribution(routing, 'Timers', { target: object, fields: { spec: { timers: { publishTimeout: '15m' } } } });
    // The declaration has timers.publishTimeout: the contribution conflicts with it, not with NetOp.
    expect(messages(app)).toEqual([
      `CAP002 field conflict: 'platform/Routing/DeploymentPipeline/App1' and 'platform/Routing/Timers' both write spec.timers.publishTimeout of ${OBJECT}. `
        + `Give each field one owner: drop it from one of them (${declares('platform/Routing/DeploymentPipeline/App1')}; ${contributes('fields', 'platform/Routing/Timers')}).`,
    ]);
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
