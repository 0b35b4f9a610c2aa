import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { APP1, APPLICATION_DEPLOYMENT_CRD, NETOP } from './enforcement/fixtures';

const PLATFORM = 'system:serviceaccount:platform-system:operator';
// Objects that declare nothing the writers write: here only the runtime writers contest leaves.
const BARE1 = { ...APP1, spec: { applicationId: 'app1' } };
const BARE2 = { ...BARE1, metadata: { name: 'app2', namespace: 'apps' } };
const KIND = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment' };

type Target = 'app1' | 'app2' | 'kind';

/** The violations of two ApplicationDeployments with two runtime writers. */
function violationsOf(netop: [Target, string[]], other: [Target, string[]]): string[] {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  new ApiObject(routing, 'Crd', APPLICATION_DEPLOYMENT_CRD);
  const objects = { app1: new ApiObject(routing, 'App1', BARE1), app2: new ApiObject(routing, 'App2', BARE2), kind: KIND };
  new RuntimeWriter(routing, 'NetOp', { target: objects[netop[0]], fields: netop[1], identity: NETOP });
  new RuntimeWriter(routing, 'PlatformOperator', { target: objects[other[0]], fields: other[1], identity: PLATFORM });
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

const conflict = (fields: string, of: string) =>
  `CAP002 field conflict: 'platform/Routing/NetOp' and 'platform/Routing/PlatformOperator' both write ${fields} of ${of} at runtime. Give each field one owner: drop it from the fields of the RuntimeWriter whose controller does not write it. If both controllers write it, drop it from both: the admission policy lets one identity alone change a field, and leaves a field no writer declares unconstrained.`;

describe('two runtime writers of one leaf are CAP002', () => {
  test('the same leaf of one object', () => {
    expect(violationsOf(['app1', ['spec.domains', 'spec.routeTables']], ['app1', ['spec.domains', 'spec.image']])).toEqual([
      conflict('spec.domains', 'apps.example.com/ApplicationDeployment apps/app1'),
    ]);
  });

  test('a leaf and what is below it, named by the ancestor', () => {
    expect(violationsOf(['app1', ['spec.timers']], ['app1', ['spec.timers.publishTimeout', 'spec.entityConfigurations[name=orders].replicas']])).toEqual([
      conflict('spec.timers', 'apps.example.com/ApplicationDeployment apps/app1'),
    ]);
  });

  test('a whole set and one of its values', () => {
    expect(violationsOf(['app1', ['metadata.finalizers']], ['app1', ['metadata.finalizers[=example.com/protect]']])).toEqual([
      conflict('metadata.finalizers', 'apps.example.com/ApplicationDeployment apps/app1'),
    ]);
  });

  test('a writer of every object of the kind and a writer of one of them, named by the object', () => {
    expect(violationsOf(['kind', ['spec.domains']], ['app2', ['spec.domains']])).toEqual([
      conflict('spec.domains', 'apps.example.com/ApplicationDeployment apps/app2'),
    ]);
  });

  test('two writers of every object of the kind', () => {
    expect(violationsOf(['kind', ['spec.domains', 'spec.routeTables']], ['kind', ['spec.routeTables', 'spec.domains']])).toEqual([
      conflict('spec.domains, spec.routeTables', 'every apps.example.com/ApplicationDeployment'),
    ]);
  });
});

describe('runtime writers of different leaves or objects are accepted', () => {
  test.each<[string, [Target, string[]], [Target, string[]]]>([
    ['different leaves of one object', ['app1', ['spec.domains']], ['app1', ['spec.routeTables', 'spec.timers.publishTimeout']]],
    ['siblings below one struct', ['app1', ['spec.timers.publishTimeout']], ['app1', ['spec.timers.rolloutTimeout']]],
    ['different elements of a keyed list', ['app1', ['spec.entityConfigurations[name=orders].replicas']], ['app1', ['spec.entityConfigurations[name=billing].replicas']]],
    ['the same value of a set (owned by presence)', ['app1', ['metadata.finalizers[=example.com/protect]']], ['app1', ['metadata.finalizers[=example.com/protect]']]],
    ['the same leaf of two objects', ['app1', ['spec.domains']], ['app2', ['spec.domains']]],
  ])('%s', (_, netop, other) => {
    expect(violationsOf(netop, other)).toEqual([]);
  });
});

test('docs/errors.md quotes the message exactly', () => {
  const documented = fs.readFileSync(path.join(__dirname, '..', 'docs', 'errors.md'), 'utf-8').split('\n').filter((l) => l.startsWith("> CAP002 field conflict: 'platform/Routing/NetOp'"));
  expect(documented).toEqual(violationsOf(['app1', ['spec.domains', 'spec.routeTables']], ['app1', ['spec.domains', 'spec.image']]).map((v) => `> ${v}`));
});
