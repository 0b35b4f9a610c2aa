import { topologyOf } from '../src/collect/topology/field-topology';
import { keyedValues } from '../src/release/keyed-leaves';
import { indexedLeaves, LockPathSteps, lockedManifest } from '../src/release/locked-manifest';

describe('keyedValues', () => {
  const deployment = topologyOf('apps/v1', 'Deployment');

  test('names keyed elements by their keys, and reads back to the same index paths', () => {
    // GIVEN a Deployment's leaves by index, two containers
    const values = {
      'spec.template.spec.containers[0].name': 'web',
      'spec.template.spec.containers[0].env[0].name': 'A',
      'spec.template.spec.containers[1].name': 'log',
    };

    // WHEN named
    const named = keyedValues(values, deployment);

    // THEN each element by its key, and the index paths come back in order
    expect(named.values).toEqual({
      'spec.template.spec.containers[name=web].name': 'web',
      'spec.template.spec.containers[name=web].env[name=A].name': 'A',
      'spec.template.spec.containers[name=log].name': 'log',
    });
    expect(indexedLeaves(named.values).map((l) => l.path)).toEqual(Object.keys(values));
  });

  test('a key whose value the name cannot delimit keeps every index path', () => {
    // GIVEN a volume mount whose mountPath holds "].", which a keyed name cannot delimit
    const values = {
      'spec.template.spec.containers[0].name': 'web',
      'spec.template.spec.containers[0].volumeMounts[0].mountPath': '/a].b',
      'spec.template.spec.containers[0].volumeMounts[0].name': 'v',
    };

    // WHEN named
    const named = keyedValues(values, deployment);

    // THEN the leaves keep their index paths, as a lock of format 1 records them
    expect(named.values).toEqual(values);
    expect([...named.names]).toEqual([]);
  });
});

describe('LockPathSteps', () => {
  const deployment = topologyOf('apps/v1', 'Deployment');

  test('one shared by the objects of a lock names each as a call of its own does, a fallback to index paths included', () => {
    // GIVEN objects of one shape (one container each), and one whose key the name cannot delimit
    const objects = ['web', 'log', 'a].b', 'api'].map((name) => ({
      'spec.template.spec.containers[0].name': name,
      'spec.template.spec.containers[0].env[0].name': 'A',
      'metadata.labels["app.kubernetes.io/name"]': name,
    }));

    // WHEN named with one LockPathSteps for all of them
    const steps = new LockPathSteps();
    const shared = objects.map((values) => keyedValues(values, deployment, steps));

    // THEN each is named as alone, and the one that cannot be named keeps its index paths
    expect(shared).toEqual(objects.map((values) => keyedValues(values, deployment)));
    expect(Object.keys(shared[1].values)).toEqual([
      'spec.template.spec.containers[name=log].name',
      'spec.template.spec.containers[name=log].env[name=A].name',
      'metadata.labels["app.kubernetes.io/name"]',
    ]);
    expect(shared[2].values).toEqual(objects[2]);
  });

  test('parses a path once: the same path gives the same steps, a path not of the lock\'s form none', () => {
    const steps = new LockPathSteps();

    expect(steps.indexed('spec.containers[0]["odd key"]')).toEqual(['spec', 'containers', 0, 'odd key']);
    expect(steps.indexed('spec.containers[0]["odd key"]')).toBe(steps.indexed('spec.containers[0]["odd key"]'));
    expect(steps.named('spec.containers[name=web].image')).toEqual(['spec', 'containers', { element: '[name=web]' }, 'image']);
    expect(steps.indexed('spec.containers[name=web].image')).toBeUndefined();
    expect(steps.named('spec..x')).toBeUndefined();
  });
});

describe('indexedLeaves', () => {
  test('numbers the keyed elements of each list in the order their leaves come, and keeps index paths as they are', () => {
    // GIVEN leaves as a lock of format 2 records them, an atomic list by index among them
    const values = {
      'spec.template.spec.containers[name=proxy].name': 'proxy',
      'spec.template.spec.containers[name=web].name': 'web',
      'spec.template.spec.containers[name=web].args[0]': '--a',
      'spec.template.spec.containers[name=web].env[name=B].value': 'b',
      'metadata.labels["app.kubernetes.io/name"]': 'web',
      'metadata.finalizers[=example.com/protect]': 'example.com/protect',
    };

    // WHEN read by index
    // THEN each element has its place, and the manifest is the one the leaves describe
    expect(indexedLeaves(values).map((l) => l.path)).toEqual([
      'spec.template.spec.containers[0].name',
      'spec.template.spec.containers[1].name',
      'spec.template.spec.containers[1].args[0]',
      'spec.template.spec.containers[1].env[0].value',
      'metadata.labels["app.kubernetes.io/name"]',
      'metadata.finalizers[0]',
    ]);
    expect(lockedManifest(values)).toEqual({
      metadata: { labels: { 'app.kubernetes.io/name': 'web' }, finalizers: ['example.com/protect'] },
      spec: { template: { spec: { containers: [{ name: 'proxy' }, { name: 'web', args: ['--a'], env: [{ value: 'b' }] }] } } },
    });
  });
});
