import { topologyOf } from '../src/collect/topology/field-topology';
import { keyedValues } from '../src/release/keyed-leaves';
import { indexedLeaves, lockedManifest } from '../src/release/locked-manifest';

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
