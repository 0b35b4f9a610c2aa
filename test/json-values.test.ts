/**
 * CAP010 for a value JSON has no form for (a contract field's handle, a BigInt, a Symbol, a function): the field
 * is named as the ledger, CAP002, CAP005 and the plan name fields, an element of a keyed list by its keys.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

/** A capability 'cdn' whose routing consumes the field 'origin' of its contract 'Edge', published by its base. */
function composition() {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { origin: Field.string() } });
  edge.publish(base, { origin: 'origin.example.com' });
  return { app, routing, values: edge.consume(routing) };
}

/** The violations of synthesizing `app`, each as its code and message. */
function violationsOf(app: CapabilityApp): string[] {
  return app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
}

/** The message of a handle of 'origin' used as a value at `field` of `object`, declared by `declarer`. */
const handleAt = (field: string, object: string, declarer: string) =>
  `CAP010 invalid object: '${field}' of ${object} declared by '${declarer}' is the handle of field 'origin' of 'cdn/Edge', not a value: `
  + 'a consumed field reaches a pod only as a container env entry that reads it from the Secret the contract binds. '
  + 'Render it as one: env: [values.origin.envVar()], or with cdk8s-plus envVariables: { NAME: values.origin.envValue() }.';

/** A Deployment `name` of two containers, `sidecar` and `worker`, the second with `container`'s fields, as a plain ApiObject. */
const deployment = (container: Record<string, unknown>, name = 'worker') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'sidecar', image: 'busybox' }, { name: 'worker', image: 'nginx', ...container }] } },
  },
});

describe('a value JSON has no form for is named by its field as the ledger names it', () => {
  test('a handle in a cdk8s-plus container env names the container and the variable by their names', () => {
    // GIVEN the handle as the value of a cdk8s-plus env variable, in the second container
    const { app, routing, values } = composition();
    new kplus.Deployment(routing, 'Worker', {
      metadata: { name: 'worker' },
      containers: [
        { name: 'sidecar', image: 'busybox', envVariables: { MODE: kplus.EnvValue.fromValue('quiet') } },
        { name: 'worker', image: 'nginx', envVariables: { LEVEL: kplus.EnvValue.fromValue('debug'), ORIGIN: kplus.EnvValue.fromValue(values.origin as any) } },
      ],
    });

    // THEN
    expect(violationsOf(app)).toEqual([
      handleAt('spec.template.spec.containers[name=worker].env[name=ORIGIN].value', 'apps/Deployment worker', 'cdn/Routing/Worker'),
    ]);
  });

  test('a handle in a plain ApiObject names the container and the variable by their names', () => {
    const { app, routing, values } = composition();
    new ApiObject(routing, 'Worker', deployment({ env: [{ name: 'LEVEL', value: 'debug' }, { name: 'ORIGIN', value: values.origin as any }] }));

    expect(violationsOf(app)).toEqual([
      handleAt('spec.template.spec.containers[name=worker].env[name=ORIGIN].value', 'apps/Deployment worker', 'cdn/Routing/Worker'),
    ]);
  });

  test('in a list without merge keys (args, a kind without a schema) and a keyed list whose keys repeat, the item is named by its index', () => {
    // GIVEN a handle in an atomic list, a BigInt in a list of a kind without a schema, a function in env entries of one name
    const { app, routing, values } = composition();
    new ApiObject(routing, 'Args', deployment({ args: ['--origin', values.origin as any] }));
    new ApiObject(routing, 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { items: [{ name: 'a', size: 1 }, { name: 'b', size: 2n }] } });
    new ApiObject(routing, 'Twice', deployment({ env: [{ name: 'A', value: 'x' }, { name: 'A', value: (() => 'y') as any }] }, 'twice'));

    // THEN
    expect(violationsOf(app)).toEqual([
      handleAt('spec.template.spec.containers[name=worker].args[1]', 'apps/Deployment worker', 'cdn/Routing/Args'),
      "CAP010 invalid object: 'spec.items[1].size' of example.com/Widget w declared by 'cdn/Routing/Widget' is a BigInt, which JSON and YAML have no form for. Give it as a string or a number.",
      "CAP010 invalid object: 'spec.template.spec.containers[name=worker].env[1].value' of apps/Deployment twice declared by 'cdn/Routing/Twice' is a function, which JSON and YAML have no form for. Give it as a string or a number.",
      // the duplicate key is refused on its own
      "CAP010 invalid object: spec.template.spec.containers[name=worker].env of apps/Deployment twice has 2 elements with the key [name=A], written by 'cdn/Routing/Twice'. "
        + 'Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.',
    ].sort());
  });

  test('a value that is not JSON in a keyed list names the element by its keys, the first one of the object only', () => {
    const { app, routing } = composition();
    new ApiObject(routing, 'Sym', deployment({ env: [{ name: 'LEVEL', value: Symbol('debug') }, { name: 'MODE', value: 2n }] }));

    expect(violationsOf(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.containers[name=worker].env[name=LEVEL].value' of apps/Deployment worker declared by 'cdn/Routing/Sym' is a Symbol, which JSON and YAML have no form for. Give it as a string or a number.",
    ]);
  });

  test('a BigInt in a list element\'s key or in a set is refused as CAP010 naming its field, not a crash of collect', () => {
    // GIVEN a BigInt as the merge key of a container port, and one as a finalizer (a set)
    const { app, routing } = composition();
    new ApiObject(routing, 'Port', deployment({ ports: [{ containerPort: 80n }] }, 'port'));
    new ApiObject(routing, 'Fin', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin', finalizers: ['example.com/keep', 7n as unknown as string] }, data: { a: 'b' } });

    // THEN each is named with its field; no CAP000
    expect(violationsOf(app)).toEqual([
      "CAP010 invalid object: 'metadata.finalizers[=7]' of ConfigMap fin declared by 'cdn/Routing/Fin' is a BigInt, which JSON and YAML have no form for. Give it as a string or a number.",
      "CAP010 invalid object: 'spec.template.spec.containers[name=worker].ports[containerPort=80,protocol=TCP].containerPort' of apps/Deployment port declared by 'cdn/Routing/Port' is a BigInt, which JSON and YAML have no form for. Give it as a string or a number.",
    ]);
  });
});
