import * as jsyaml from 'js-yaml';
import type { Plan } from '../src';
import { runtimeApplies } from '../src/cli/field-manager-applies';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import type { PlanStep } from '../src/render/plan-steps';

const STEP: PlanStep = { id: 'cdn/Routing', lifecycle: 'runtime', capability: 'cdn', objects: ['ConfigMap shop/settings'], files: ['runtime/0001-cdn-routing.yaml'], dependsOn: [] };
const FILE = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n  labels:\n    team: payments\ndata:\n  mode: fast\n';

function planWith(writers: Plan['writers']): Plan {
  return { version: 1, capabilities: [{ name: 'cdn' }], changes: {} as any, steps: [STEP], teardown: {} as any, writers };
}

describe('runtimeApplies', () => {
  test('a plan from before writers were recorded: the files under the capability\'s one manager, as before', () => {
    expect(runtimeApplies(planWith([]), STEP, 'dist', () => jsyaml.loadAll(FILE))).toEqual([
      { args: ['apply', '--server-side', '--field-manager=cdn', '-f', 'dist/runtime/0001-cdn-routing.yaml'] },
    ]);
  });

  test('with writers: hand-overs to runtime writers, the file whole as cdk-capability, each writer\'s partial on stdin, releases before and after', () => {
    const applies = runtimeApplies(planWith([{
      object: 'object:|ConfigMap|shop|settings',
      label: 'ConfigMap shop/settings',
      writers: [
        { writer: 'cdn/Routing/Settings', kind: 'declaration', manager: 'cdk-capability:cdn/Routing/Settings', fields: toFieldsV1([['data', 'mode']]) },
        { writer: 'cdn/Routing/Team', kind: 'contribution-fields', manager: 'cdk-capability:cdn/Routing/Team', fields: toFieldsV1([['metadata', 'labels', 'team']]) },
      ],
      handOver: [{ writer: 'cdn/Routing/Zoner (RuntimeWriter)', manager: 'zoner', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { zone: 'eu' } } }],
      releaseFirst: ['cdk-capability:cdn/Routing/Old'],
      released: ['cdn'],
    }]), STEP, 'dist', () => jsyaml.loadAll(FILE));
    expect(applies.map((a) => [a.args.join(' '), a.optional ? `${a.optional.what}; going on (${a.optional.because})` : false])).toEqual([
      ['apply --server-side --field-manager=zoner -f -', "a hand-over to a runtime writer's field manager; going on (a conflict means its controller changed the field and owns it already)"],
      ['apply --server-side --field-manager=cdk-capability:cdn/Routing/Old -f -', 'a release before the merged apply; going on (an object not there yet has nothing to release)'],
      ['apply --server-side --force-conflicts --field-manager=cdk-capability -f dist/runtime/0001-cdn-routing.yaml', false],
      ['apply --server-side --field-manager=cdk-capability:cdn/Routing/Settings -f -', false],
      ['apply --server-side --field-manager=cdk-capability:cdn/Routing/Team -f -', false],
      ['apply --server-side --field-manager=cdn -f -', false],
    ]);
    const identity = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } };
    expect(applies.map((a) => (a.input === undefined ? undefined : jsyaml.loadAll(a.input)))).toEqual([
      [{ ...identity, data: { zone: 'eu' } }],
      [identity],
      undefined,
      [{ ...identity, data: { mode: 'fast' } }],
      [{ ...identity, metadata: { ...identity.metadata, labels: { team: 'payments' } } }],
      [identity],
    ]);
  });
});
