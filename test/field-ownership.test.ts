import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { siteOfNextLine } from './util';
import { calls, contributes, declares } from './write-fixtures';
import { Capability, CapabilityApp, CompositionError, Contribution, RuntimeRouting } from '../src';

let outdir: string;
beforeAll(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-ownership-test-'));
});
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** An app with one capability `cdn` and its runtime chart `cdn/Routing`. */
function fixture() {
  const app = new CapabilityApp({ outdir: path.join(outdir, String(Math.random()).slice(2)) });
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing');
  return { app, cdn, routing };
}

/** The exact CAP001 message. */
const duplicate = (object: string, a: string, b: string) =>
  `duplicate object: ${object} is declared by '${a}' and '${b}'. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).`;

/** The exact CAP002 message for two writers. */
const conflict = (a: string, b: string, fields: string, object: string, ...ways: string[]) =>
  `field conflict: '${a}' and '${b}' both write ${fields} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;

/** The exact CAP003 message. */
const statusWrite = (writer: string, fields: string, object: string) =>
  `status write: '${writer}' writes ${fields} of ${object}. status belongs to the controllers that run the object: remove it from the manifest.`;

const APP_DEPLOYMENT = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' } };
const TIMERS = { rollout: '5m', drain: '30s' };
const ENTITY_CONFIGURATIONS = [{ entity: 'orders', shards: 4 }];

/** Every emitted manifest of a synth that must be accepted. */
function manifests(app: CapabilityApp): any[] {
  const result = app.synthesize();
  expect(result.violations).toEqual([]);
  return (result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest));
}

describe('the incident: two controllers write one ApplicationDeployment', () => {
  test('two constructs that each declare ApplicationDeployment app1 are refused with one CAP001 naming both', () => {
    // GIVEN the deployment controller declares app1 (as its Resource) with its two fields
    const { app, routing } = fixture();
    const deploymentController = new Construct(routing, 'DeploymentController');
    new ApiObject(deploymentController, 'Resource', { ...APP_DEPLOYMENT, spec: { timers: TIMERS, entityConfigurations: ENTITY_CONFIGURATIONS } });

    // WHEN the network construct declares the same object from a struct that only knows applicationId
    const network = new Construct(routing, 'Network');
    new ApiObject(network, 'Resource', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP001',
        message: duplicate('apps.example.com/ApplicationDeployment apps/app1', 'cdn/Routing/DeploymentController', 'cdn/Routing/Network'),
        paths: ['cdn/Routing/DeploymentController', 'cdn/Routing/Network'],
      },
    ]);
  });

  test('one declaration plus a contribution of the two controller fields is accepted and emits all three fields', () => {
    // GIVEN the network construct declares app1
    const { app, routing } = fixture();
    const network = new Construct(routing, 'Network');
    const target = new ApiObject(network, 'Resource', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });

    // WHEN the deployment controller writes its own fields through a Contribution
    const deploymentController = new Construct(routing, 'DeploymentController');
    new Contribution(deploymentController, 'Fields', {
      target,
      fields: { spec: { timers: TIMERS, entityConfigurations: ENTITY_CONFIGURATIONS } },
    });

    // THEN
    expect(manifests(app)).toEqual([
      { ...APP_DEPLOYMENT, spec: { applicationId: 'app1', timers: TIMERS, entityConfigurations: ENTITY_CONFIGURATIONS } },
    ]);
  });

  test('the deployment controller writing a field the network construct declares is refused with CAP002 naming both', () => {
    // GIVEN the network construct declares app1 with applicationId
    const { app, routing } = fixture();
    const network = new Construct(routing, 'Network');
    const target = new ApiObject(network, 'Resource', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });

    // WHEN the deployment controller also writes applicationId
    new Contribution(new Construct(routing, 'DeploymentController'), 'Fields', { target, fields: { spec: { applicationId: 'app1', timers: TIMERS } } });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP002',
        message: conflict('cdn/Routing/DeploymentController/Fields', 'cdn/Routing/Network', 'spec.applicationId', 'apps.example.com/ApplicationDeployment apps/app1', contributes('fields', 'cdn/Routing/DeploymentController/Fields'), declares('cdn/Routing/Network')),
        paths: ['cdn/Routing/DeploymentController/Fields', 'cdn/Routing/Network'],
      },
    ]);
  });
});

describe('CAP001 duplicate objects', () => {
  const configMap = (name: string, namespace: string, apiVersion = 'v1') => ({ apiVersion, kind: 'ConfigMap', metadata: { name, namespace }, data: {} });

  test('two objects of one identity in one chart are refused', () => {
    // GIVEN
    const { app, routing } = fixture();

    // WHEN
    new ApiObject(routing, 'A', configMap('shared', 'prod'));
    new ApiObject(routing, 'B', configMap('shared', 'prod'));

    // THEN
    expect(app.synthesize().violations).toEqual([
      { code: 'CAP001', message: duplicate('ConfigMap prod/shared', 'cdn/Routing/A', 'cdn/Routing/B'), paths: ['cdn/Routing/A', 'cdn/Routing/B'] },
    ]);
  });

  test('two objects of one identity in two charts of one capability are refused', () => {
    // GIVEN
    const { app, cdn, routing } = fixture();
    const other = new RuntimeRouting(cdn, 'Other');

    // WHEN
    new ApiObject(routing, 'Shared', configMap('shared', 'prod'));
    new ApiObject(other, 'Shared', configMap('shared', 'prod'));

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP001',
        message: duplicate('ConfigMap prod/shared', 'cdn/Routing/Shared', 'cdn/Other/Shared'),
        paths: ['cdn/Other/Shared', 'cdn/Routing/Shared'],
      },
    ]);
  });

  test('two objects of one identity in two capabilities are refused', () => {
    // GIVEN
    const { app, routing } = fixture();
    const dns = new RuntimeRouting(new Capability(app, 'dns'), 'Routing');

    // WHEN
    new ApiObject(routing, 'Shared', configMap('shared', 'prod'));
    new ApiObject(dns, 'Shared', configMap('shared', 'prod'));

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP001',
        message: duplicate('ConfigMap prod/shared', 'cdn/Routing/Shared', 'dns/Routing/Shared'),
        paths: ['cdn/Routing/Shared', 'dns/Routing/Shared'],
      },
    ]);
  });

  test('one name in two namespaces is two objects, both emitted', () => {
    // GIVEN
    const { app, routing } = fixture();

    // WHEN
    new ApiObject(routing, 'Prod', configMap('shared', 'prod'));
    new ApiObject(routing, 'Staging', configMap('shared', 'staging'));

    // THEN
    expect(manifests(app).map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['prod/shared', 'staging/shared']);
  });

  test('two API versions of one group, kind and name are the same object', () => {
    // GIVEN
    const { app, routing } = fixture();
    const deployment = (apiVersion: string) => ({ apiVersion, kind: 'Deployment', metadata: { name: 'web', namespace: 'prod' } });

    // WHEN
    new ApiObject(routing, 'V1', deployment('apps/v1'));
    new ApiObject(routing, 'V1beta2', deployment('apps/v1beta2'));

    // THEN
    expect(app.synthesize().violations).toEqual([
      { code: 'CAP001', message: duplicate('apps/Deployment prod/web', 'cdn/Routing/V1', 'cdn/Routing/V1beta2'), paths: ['cdn/Routing/V1', 'cdn/Routing/V1beta2'] },
    ]);
  });

  test('a cdk8s-plus construct is named as the declarer of its object', () => {
    // GIVEN a plain object and a cdk8s-plus ConfigMap of one identity
    const { app, routing } = fixture();
    new ApiObject(routing, 'Plain', configMap('shared', 'prod'));

    // WHEN
    new kplus.ConfigMap(routing, 'Plus', { metadata: { name: 'shared', namespace: 'prod' } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([duplicate('ConfigMap prod/shared', 'cdn/Routing/Plain', 'cdn/Routing/Plus')]);
  });
});

describe('CAP003 status writes', () => {
  test('a contribution that writes status is refused, naming the contribution', () => {
    // GIVEN
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });

    // WHEN
    new Contribution(new Construct(routing, 'Controller'), 'Status', { target, fields: { status: { phase: 'Ready' } } });

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP003',
        message: statusWrite('cdn/Routing/Controller/Status', 'status.phase', 'apps.example.com/ApplicationDeployment apps/app1'),
        paths: ['cdn/Routing/Controller/Status'],
      },
    ]);
  });

  test('an object declared with status is refused, naming its declarer', () => {
    // GIVEN / WHEN
    const { app, routing } = fixture();
    new ApiObject(routing, 'App1', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' }, status: { phase: 'Ready', observedGeneration: 1 } } as any);

    // THEN every status field is listed, sorted
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP003',
        message: statusWrite('cdn/Routing/App1', 'status.observedGeneration, status.phase', 'apps.example.com/ApplicationDeployment apps/app1'),
        paths: ['cdn/Routing/App1'],
      },
    ]);
  });

  test('a JSON patch that writes status is refused, naming the patched object', () => {
    // GIVEN
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });

    // WHEN
    const at = siteOfNextLine();
    target.addJsonPatch(JsonPatch.add('/status', { phase: 'Ready' }));

    // THEN
    expect(app.synthesize().violations).toEqual([
      {
        code: 'CAP003',
        message: `status write: 'cdn/Routing/App1' (addJsonPatch at ${at}) writes status.phase of apps.example.com/ApplicationDeployment apps/app1. status belongs to the controllers that run the object: remove it from the manifest.`,
        paths: ['cdn/Routing/App1'],
      },
    ]);
  });
});

describe('JSON patches are writes', () => {
  test('a plain patch replacing replicas that the declarer sets is the declarer\'s override: accepted, emitted, in the plan', () => {
    // GIVEN a cdk8s-plus Deployment that sets replicas
    const { app, routing } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'prod' }, replicas: 2, containers: [{ image: 'nginx' }] });

    // WHEN
    const at = siteOfNextLine();
    ApiObject.of(web).addJsonPatch(JsonPatch.replace('/spec/replicas', 3));

    // THEN
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    expect(result.facts!.objects[0].manifest.spec.replicas).toBe(3);
    expect(result.facts!.ledger.overrides.map((o) => [o.object, o.path, o.rendered, o.patched, o.writer.site])).toEqual([['apps/Deployment prod/web', ['spec', 'replicas'], 2, 3, at]]);
  });

  test('a patch to a field nobody else writes is accepted and emitted', () => {
    // GIVEN a plain Deployment without minReadySeconds
    const { app, routing } = fixture();
    const spec = {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    };
    const web = new ApiObject(routing, 'Web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod' }, spec });

    // WHEN
    web.addJsonPatch(JsonPatch.add('/spec/minReadySeconds', 5));

    // THEN
    expect(manifests(app)[0].spec).toEqual({ ...spec, minReadySeconds: 5 });
  });

  test('a patch into containers/0 is attributed to the container named by element 0', () => {
    // GIVEN a cdk8s-plus Deployment whose only container is called main
    const { app, routing } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'prod' }, containers: [{ name: 'main', image: 'nginx' }] });

    // WHEN
    ApiObject.of(web).addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/image', 'nginx:2'));

    // THEN
    expect(app.synthesize().facts!.ledger.overrides.map((o) => o.path)).toEqual([['spec', 'template', 'spec', 'containers', 'k:{"name":"main"}', 'image']]);
  });

  test('a patch and a contribution writing one field conflict', () => {
    // GIVEN a custom resource patched with a timer
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });
    const at = siteOfNextLine();
    target.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '1m' }));

    // WHEN a contribution writes the same timer
    new Contribution(new Construct(routing, 'Controller'), 'Fields', { target, fields: { spec: { timers: { rollout: '5m' } } } });

    // THEN
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([
      `field conflict: 'cdn/Routing/App1' (addJsonPatch at ${at}) and 'cdn/Routing/Controller/Fields' both write spec.timers.rollout of apps.example.com/ApplicationDeployment apps/app1. ` +
        `Give each field one owner: drop it from one of them (${calls('cdn/Routing/App1', `addJsonPatch at ${at}`)}; ${contributes('fields', 'cdn/Routing/Controller/Fields')}).`,
    ]);
  });
});

describe('reporting', () => {
  test('a duplicate, a field conflict and a status write are thrown together in one CompositionError, sorted by code', () => {
    // GIVEN a CAP003, a CAP002 and a CAP001, declared in that order
    const { app, routing } = fixture();
    const target = new ApiObject(routing, 'App1', { ...APP_DEPLOYMENT, spec: { applicationId: 'app1' } });
    const controller = new Construct(routing, 'Controller');
    new Contribution(controller, 'Status', { target, fields: { status: { phase: 'Ready' } } });
    new Contribution(controller, 'Id', { target, fields: { spec: { applicationId: 'app2' } } });
    new ApiObject(routing, 'Dup1', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'prod' } });
    new ApiObject(routing, 'Dup2', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'prod' } });

    // WHEN
    let error: unknown;
    try {
      app.synth();
    } catch (e) {
      error = e;
    }

    // THEN
    expect(error).toBeInstanceOf(CompositionError);
    const object = 'apps.example.com/ApplicationDeployment apps/app1';
    expect((error as CompositionError).violations.map((v) => v.code)).toEqual(['CAP001', 'CAP002', 'CAP003']);
    expect((error as CompositionError).message).toBe(
      [
        'The composition was refused with 3 violations:',
        `CAP001 ${duplicate('ConfigMap prod/c', 'cdn/Routing/Dup1', 'cdn/Routing/Dup2')}`,
        `CAP002 ${conflict('cdn/Routing/App1', 'cdn/Routing/Controller/Id', 'spec.applicationId', object, declares('cdn/Routing/App1'), contributes('fields', 'cdn/Routing/Controller/Id'))}`,
        `CAP003 ${statusWrite('cdn/Routing/Controller/Status', 'status.phase', object)}`,
      ].join('\n'),
    );
  });
});
