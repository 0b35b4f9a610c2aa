import { identityOnly, partialObject, PartialObjectError } from '../src/cluster/partial-object';

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', labels: { team: 'payments', tier: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
          { name: 'sidecar', image: 'envoy' },
        ],
      },
    },
  },
};

const WEB = 'k:{"name":"web"}';

describe('partialObject', () => {
  test('a writer\'s leaves with the identity and the key fields of each element kept, in the manifest\'s order', () => {
    expect(partialObject(DEPLOYMENT, [
      { path: ['spec', 'template', 'spec', 'containers', WEB, 'env', 'k:{"name":"B"}', 'value'] },
      { path: ['metadata', 'labels', 'tier'] },
    ])).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', labels: { tier: 'web' } },
      spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }] } } },
    });
  });

  test('an atomic leaf is kept whole; elements come in the manifest\'s order whatever the leaves\' order', () => {
    const partial = partialObject(DEPLOYMENT, [
      { path: ['spec', 'template', 'spec', 'containers', 'k:{"name":"sidecar"}', 'image'] },
      { path: ['spec', 'selector'] },
      { path: ['spec', 'template', 'spec', 'containers', WEB, 'image'] },
    ]);
    expect(partial.spec).toEqual({
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }] } },
    });
  });

  test('a key with a defaulted field (protocol TCP) finds the element that leaves it out, and keeps it out', () => {
    const partial = partialObject(DEPLOYMENT, [
      { path: ['spec', 'template', 'spec', 'containers', WEB, 'ports', 'k:{"containerPort":80,"protocol":"TCP"}'] },
      { path: ['spec', 'template', 'spec', 'containers', WEB, 'ports', 'k:{"protocol":"UDP","containerPort":53}'] },
    ]);
    expect(partial.spec.template.spec.containers).toEqual([{ name: 'web', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }] }]);
  });

  test('a presence leaf keeps the node alone: an empty map, a keyed element with its key only', () => {
    const partial = partialObject(DEPLOYMENT, [
      { path: ['metadata', 'labels'], presence: true },
      { path: ['spec', 'template', 'spec', 'containers', WEB], presence: true },
    ]);
    expect(partial).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', labels: {} },
      spec: { template: { spec: { containers: [{ name: 'web' }] } } },
    });
  });

  test('set values are kept by value', () => {
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['a/x', 'a/y', 'a/z'] } };
    expect(partialObject(object, [{ path: ['metadata', 'finalizers', 'v:"a/z"'], presence: true }, { path: ['metadata', 'finalizers', 'v:"a/x"'], presence: true }]).metadata)
      .toEqual({ name: 'c', finalizers: ['a/x', 'a/z'] });
  });

  test('the identity alone, to release every field a manager owned', () => {
    expect(identityOnly(DEPLOYMENT)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } });
  });

  test('a leaf the manifest does not hold is an error naming it', () => {
    expect(() => partialObject(DEPLOYMENT, [{ path: ['spec', 'template', 'spec', 'containers', 'k:{"name":"db"}', 'image'] }]))
      .toThrow(/^partialObject: spec\.template\.spec\.containers\[name=db\] is not in the manifest$/);
    expect(() => partialObject(DEPLOYMENT, [{ path: ['spec', 'paused'] }])).toThrow(/^partialObject: spec\.paused is not in the manifest$/);
  });

  test('a keyed element asked of a map (a list edited into a map) is not in the manifest either, not left out without a word', () => {
    // GIVEN the containers list edited into a map
    const edited = { ...DEPLOYMENT, spec: { ...DEPLOYMENT.spec, template: { spec: { containers: { web: { image: 'nginx' } } } } } };

    // THEN the error is typed, with where the manifest stops matching
    let error: unknown;
    try {
      partialObject(edited, [{ path: ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}', 'image'] }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PartialObjectError);
    expect(error).toEqual(expect.objectContaining({ path: ['spec', 'template', 'spec', 'containers', 'k:{"name":"web"}'], problem: 'missing' }));
  });
});
