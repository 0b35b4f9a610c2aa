// The policy follows the ledger's topology: keyed list elements by key (defaults counted), sets per
// value, granular maps per key, atomic fields whole, null counted as absent, empty maps by presence.
import { ApiObject } from 'cdk8s';
import { admit, Request } from './admission';
import { DEPLOYER, policiesOf, STRANGER } from './fixtures';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../../src';

const INJECTOR = 'system:serviceaccount:mesh-system:injector';
const AUTOSCALER = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';

const WEB = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' }, finalizers: ['example.com/protect'] },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'ghcr.io/example/web:1.0.0', env: [{ name: 'LOG_LEVEL', value: 'info' }], ports: [{ containerPort: 8080 }] },
          { name: 'cache', image: 'ghcr.io/example/cache:2.0.0' },
        ],
      },
    },
  },
};

function deploymentPolicies(): any[] {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', WEB);
  new RuntimeWriter(routing, 'MeshInjector', { target: web, fields: ['spec.template.spec.containers[name=mesh-proxy].image'], identity: INJECTOR });
  new RuntimeWriter(routing, 'Autoscaler', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.replicas'], identity: AUTOSCALER });
  return policiesOf(app);
}

const policies = deploymentPolicies();

/** The Deployment as the API server stores it, the runtime writers' fields written: defaults filled in (port protocol TCP). */
function stored(): any {
  const o = structuredClone(WEB) as any;
  o.spec.replicas = 3;
  o.spec.template.spec.containers.push({ name: 'mesh-proxy', image: 'ghcr.io/example/mesh:1.0.0' });
  o.spec.template.spec.containers[0].ports[0].protocol = 'TCP';
  o.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent';
  return o;
}

function update(username: string, change: (o: any) => void): Request {
  const oldObject = stored();
  const object = structuredClone(oldObject);
  change(object);
  return { operation: 'UPDATE', username, group: 'apps', resource: 'deployments', kind: 'Deployment', namespace: 'shop', name: 'web', object, oldObject };
}

const failures = (username: string, change: (o: any) => void) => admit(policies, update(username, change)).failures;
const ownedByDeployer = (fields: string) =>
  `${fields} of apps/Deployment shop/web belong to the deployer (${DEPLOYER}): only that identity may change them, not ${STRANGER}`;

describe('keyed lists', () => {
  test('reordering the containers changes no leaf', () => {
    expect(failures(STRANGER, (o) => o.spec.template.spec.containers.reverse())).toEqual([]);
  });

  test('adding a container changes no owned leaf', () => {
    expect(failures(STRANGER, (o) => o.spec.template.spec.containers.push({ name: 'debug', image: 'busybox' }))).toEqual([]);
  });

  test("changing an env value of the deployer's container is denied, naming the element by its keys", () => {
    expect(failures(STRANGER, (o) => (o.spec.template.spec.containers[0].env[0].value = 'debug'))).toEqual([
      ownedByDeployer('spec.template.spec.containers[name=web].env[name=LOG_LEVEL].value'),
    ]);
  });

  test('a port matched with its defaulted protocol is the declared one; dropping it is denied', () => {
    // the declared port has no protocol; the stored one has TCP: same element
    expect(failures(STRANGER, (o) => (o.spec.template.spec.containers[0].ports[0].name = 'http'))).toEqual([]);
    expect(failures(STRANGER, (o) => (o.spec.template.spec.containers[0].ports = []))).toEqual([
      ownedByDeployer('spec.template.spec.containers[name=web].ports[containerPort=8080,protocol=TCP]'),
    ]);
  });

  test("the mesh injector may change its proxy container's image; anyone else is denied, naming the injector", () => {
    const change = (o: any) => (o.spec.template.spec.containers[2].image = 'ghcr.io/example/mesh:1.1.0');
    expect(failures(INJECTOR, change)).toEqual([]);
    expect(failures(STRANGER, change)).toEqual([
      `spec.template.spec.containers[name=mesh-proxy].image of apps/Deployment shop/web belong to the runtime writer 'shop/Routing/MeshInjector' (${INJECTOR}): only that identity may change them, not ${STRANGER}`,
    ]);
  });

  test("the mesh injector may not change the deployer's containers", () => {
    expect(failures(INJECTOR, (o) => (o.spec.template.spec.containers[1].image = 'cache:3'))).toEqual([
      `spec.template.spec.containers[name=cache].image of apps/Deployment shop/web belong to the deployer (${DEPLOYER}): only that identity may change them, not ${INJECTOR}`,
    ]);
  });

  test('a runtime writer of every Deployment (the autoscaler) owns replicas of this one', () => {
    expect(failures(AUTOSCALER, (o) => (o.spec.replicas = 5))).toEqual([]);
    expect(failures(STRANGER, (o) => (o.spec.replicas = 5))).toEqual([
      `spec.replicas of apps/Deployment shop/web belong to the runtime writer 'shop/Routing/Autoscaler' (${AUTOSCALER}): only that identity may change them, not ${STRANGER}`,
    ]);
  });
});

describe('sets and maps', () => {
  test('another finalizer may be added; removing the declared one is denied', () => {
    expect(failures(STRANGER, (o) => o.metadata.finalizers.push('other.example.com/hold'))).toEqual([]);
    expect(failures(STRANGER, (o) => (o.metadata.finalizers = []))).toEqual([ownedByDeployer('metadata.finalizers[=example.com/protect]')]);
  });

  test('labels are owned per key: adding one is fine, changing a declared one is denied', () => {
    expect(failures(STRANGER, (o) => (o.metadata.labels.tier = 'frontend'))).toEqual([]);
    expect(failures(STRANGER, (o) => (o.metadata.labels.app = 'shop'))).toEqual([ownedByDeployer('metadata.labels.app')]);
  });

  test('an atomic selector is one leaf: adding a key to it is denied', () => {
    expect(failures(STRANGER, (o) => (o.spec.selector.matchLabels.tier = 'frontend'))).toEqual([ownedByDeployer('spec.selector')]);
  });

  test('a defaulted field nobody declares is not constrained', () => {
    expect(failures(STRANGER, (o) => (o.spec.template.spec.containers[0].imagePullPolicy = 'Always'))).toEqual([]);
  });
});

describe('absent, null and empty', () => {
  test('a declared leaf set to null counts as removed', () => {
    expect(failures(STRANGER, (o) => (o.metadata.labels.app = null))).toEqual([ownedByDeployer('metadata.labels.app')]);
  });

  test('an owned leaf that was null and is now absent is unchanged', () => {
    const request = update(STRANGER, () => undefined);
    request.oldObject.spec.template.spec.containers[2].image = null;
    delete request.object.spec.template.spec.containers[2].image;
    expect(admit(policies, request).failures).toEqual([]);
  });

  test('an empty map the deployer declares is owned by presence: adding keys is fine, removing it is denied', () => {
    // GIVEN a ConfigMap declared with an empty data map
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: {} });
    const configMaps = policiesOf(app);
    const request = (change: (o: any) => void): Request => {
      const oldObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: {} } as any;
      const object = structuredClone(oldObject);
      change(object);
      return { operation: 'UPDATE', username: STRANGER, group: '', resource: 'configmaps', kind: 'ConfigMap', namespace: 'shop', name: 'settings', object, oldObject };
    };

    // THEN
    expect(admit(configMaps, request((o) => (o.data.extra = 'x'))).failures).toEqual([]);
    expect(admit(configMaps, request((o) => delete o.data)).failures).toEqual([
      `data of ConfigMap shop/settings belong to the deployer (${DEPLOYER}): only that identity may change them, not ${STRANGER}`,
    ]);
  });
});

describe('spec.replicas of an autoscaler: CREATE and the scale subresource', () => {
  /** The Deployment as the deployer's CREATE reaches admission: the API server has defaulted `spec.replicas: 1`. */
  function created(username: string): Request {
    const object = structuredClone(WEB) as any;
    object.spec.replicas = 1;
    object.spec.template.spec.containers[0].ports[0].protocol = 'TCP';
    return { operation: 'CREATE', username, group: 'apps', resource: 'deployments', kind: 'Deployment', namespace: 'shop', name: 'web', object };
  }

  /** An UPDATE of the Deployment's scale subresource (`kubectl scale`, the autoscaler): autoscaling/v1 Scale objects. */
  function scaled(username: string, replicas: number, name = 'web'): Request {
    const scale = (n: number) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name, namespace: 'shop', uid: '5d3c6a4e-0000-4000-8000-000000000001', resourceVersion: '4711', creationTimestamp: '2026-12-05T10:00:00Z' },
      spec: { replicas: n },
      status: { replicas: 3, selector: 'app=web' },
    });
    return { operation: 'UPDATE', username, group: 'apps', resource: 'deployments', subresource: 'scale', kind: 'Scale', namespace: 'shop', name, object: scale(replicas), oldObject: scale(3) };
  }

  const autoscalerOwns = (username: string) =>
    `spec.replicas of apps/Deployment shop/web belong to the runtime writer 'shop/Routing/Autoscaler' (${AUTOSCALER}): only that identity may change them, not ${username}`;

  test('the deployer may CREATE the Deployment with the replicas the API server defaulted', () => {
    expect(admit(policies, created(DEPLOYER))).toEqual({ allowed: true, warnings: [], audited: [], failures: [] });
  });

  test("another identity's CREATE is still denied, for the deployer's fields and the autoscaler's", () => {
    const { failures: found } = admit(policies, created(STRANGER));
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(new RegExp(`^metadata\\.finalizers\\[=example\\.com/protect\\], metadata\\.labels\\.app, .* of apps/Deployment shop/web belong to the deployer \\(${DEPLOYER}\\): only that identity may change them, not ${STRANGER}$`));
    expect(found[1]).toBe(autoscalerOwns(STRANGER));
  });

  test("the deployer's UPDATE of the autoscaler's replicas is still denied", () => {
    expect(failures(DEPLOYER, (o) => (o.spec.replicas = 1))).toEqual([autoscalerOwns(DEPLOYER)]);
  });

  test('the policy matches the scale subresource of the Deployments it protects', () => {
    const policy = policies.find((p) => p.kind === 'ValidatingAdmissionPolicy' && p.metadata.name === 'shop.field-owners.deployments.apps');
    expect(policy.spec.matchConstraints.resourceRules).toEqual([
      { apiGroups: ['apps'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['deployments', 'deployments/scale'] },
    ]);
  });

  test('the autoscaler may scale through the scale subresource; kubectl scale by anyone else is denied', () => {
    expect(admit(policies, scaled(AUTOSCALER, 5)).failures).toEqual([]);
    expect(admit(policies, scaled(STRANGER, 5)).failures).toEqual([autoscalerOwns(STRANGER)]);
    expect(admit(policies, scaled(DEPLOYER, 5)).failures).toEqual([autoscalerOwns(DEPLOYER)]);
  });

  test('a Scale that leaves replicas as they are changes nothing, and another Deployment is not evaluated', () => {
    expect(admit(policies, scaled(STRANGER, 3)).failures).toEqual([]);
    expect(admit(policies, scaled(STRANGER, 5, 'other')).failures).toEqual([]);
  });

  test('replicas the deployer declares may not be scaled by anyone else', () => {
    // GIVEN a Deployment that declares its replicas, and no autoscaler
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Web', { ...WEB, spec: { ...WEB.spec, replicas: 3 } });
    const declared = policiesOf(app);

    // THEN
    expect(admit(declared, scaled(STRANGER, 5)).failures).toEqual([
      `spec.replicas of apps/Deployment shop/web belong to the deployer (${DEPLOYER}): only that identity may change them, not ${STRANGER}`,
    ]);
    expect(admit(declared, scaled(DEPLOYER, 5)).failures).toEqual([]);
  });

  test('a policy that does not protect replicas does not match the scale subresource', () => {
    // GIVEN a Deployment without replicas, and no autoscaler
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Web', WEB);

    // THEN
    expect(policiesOf(app).filter((p) => p.kind === 'ValidatingAdmissionPolicy').map((p) => p.spec.matchConstraints.resourceRules[0].resources)).toEqual([['deployments']]);
  });
});
