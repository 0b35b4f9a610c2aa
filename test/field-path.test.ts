import { elementKey, formatPath } from '../src/collect/ledger/field-path';

describe('formatPath', () => {
  test('prints keyed list elements as [key=value] and dotted map keys quoted', () => {
    // GIVEN a path through a keyed list and a label with dots
    const path = ['spec', 'template', 'spec', 'containers', elementKey({ name: 'web' }), 'image'];

    // THEN
    expect(formatPath(path)).toEqual('spec.template.spec.containers[name=web].image');
    expect(formatPath(['metadata', 'labels', 'app.kubernetes.io/name'])).toEqual('metadata.labels["app.kubernetes.io/name"]');
  });

  test('prints a user map key that only looks like an element key, instead of crashing the check', () => {
    // GIVEN a ConfigMap data key that starts like a server-side apply element key
    const path = ['data', 'k:{not json'];

    // THEN it is printed as a quoted map key
    expect(formatPath(path)).toEqual('data["k:{not json"]');
  });

  test('names the whole object for an empty path', () => {
    expect(formatPath([])).toEqual('(the whole object)');
  });
});
