/**
 * A stack construct renamed (or moved) with its `stackName` kept is one CloudFormation stack, updated in place
 * with the logical ids it had: the release is not a stack removed and another added (found by a new user's
 * adoption trial: renaming `new OrdersStack(shop, 'Orders', { stackName: 'Orders' })` to `'Base'` was refused
 * twice as a physical name moved and once as an unsafe deletion, and the teardown would have deleted the stack
 * the release deploys).
 */
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import type { StackFact } from '../src/collect/facts';
import type { Lock, LockedUnit } from '../src/release/lock';
import { followStackRenames } from '../src/release/stack-renames';

afterAll(removeReleaseDirs);

interface Variant {
  /** The shared base's construct id. */
  readonly baseId: string;
  /** Its stackName; absent: the capability's prefix and the id (`shop-<id>`). */
  readonly stackName?: string;
}

function shop(app: CapabilityApp, v: Variant): void {
  const cap = new Capability(app, 'shop');
  const base = new SharedBase(cap, v.baseId, v.stackName ? { stackName: v.stackName } : {});
  const endpoint = new ssm.StringParameter(base, 'Endpoint', { stringValue: 'orders.example.com', parameterName: '/orders/endpoint' });
  new ssm.StringParameter(new DeploymentAggregate(cap, 'globex'), 'Uses', { stringValue: endpoint.stringValue });
}

describe('a stack renamed with its stackName kept', () => {
  test('is the same stack: accepted, nothing removed, no teardown step', () => {
    const series = lockedSeries(shop, { baseId: 'Orders', stackName: 'Orders' });
    const result = nextRelease(series, shop, { baseId: 'Base', stackName: 'Orders' });

    expect(coded(result.violations)).toEqual([]);
    expect(result.plan!.changes.removed).toEqual([]);
    expect(result.plan!.changes.added).toEqual([]);
    expect(result.plan!.teardown.steps).toEqual([]);
    expect(result.plan!.steps.map((s) => [s.id, s.stackName])).toEqual([['shop/Base', 'Orders'], ['shop/globex', 'shop-globex']]);
  });

  test('a rename that changes the stack name (the capability\'s prefix and the id) is a new stack: still refused', () => {
    const series = lockedSeries(shop, { baseId: 'Orders' });
    const result = nextRelease(series, shop, { baseId: 'Base' });

    const found = coded(result.violations).map((v) => `${v.code} ${v.message}`);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^CAP008 physical name moved: this release gives AWS::SSM::Parameter Name "\/orders\/endpoint" to 'shop\/Base\/Endpoint'/);
    expect(found[1]).toMatch(/^CAP008 unsafe deletion: this release removes stack shop\/Orders, but stack shop\/globex remains/);
  });
});

describe('followStackRenames', () => {
  const unit = (path: string, stackName: string, region?: string): LockedUnit => ({ id: `stack:${path}`, label: `stack ${path}`, path, digest: 'd', stackName, ...(region ? { region } : {}) });
  const stack = (path: string, stackName: string, region?: string) => ({ path, stackName, region, pinnedAccount: undefined }) as unknown as StackFact;
  const lock = (units: LockedUnit[]): Lock => ({ formatVersion: 2, interfaces: [], units, barriers: [], edges: [] });

  test('renames a gone stack to the one new stack of its name and region, and leaves the lock given as it was', () => {
    const given = lock([unit('shop/Orders', 'Orders', 'eu-west-1'), unit('shop/Keep', 'Keep')]);
    const followed = followStackRenames(given, [stack('shop/Base', 'Orders', 'eu-west-1'), stack('shop/Keep', 'Keep')]);

    expect(followed.units.map((u) => [u.id, u.label, u.path])).toEqual([['stack:shop/Base', 'stack shop/Base', 'shop/Base'], ['stack:shop/Keep', 'stack shop/Keep', 'shop/Keep']]);
    expect(given.units[0].path).toBe('shop/Orders');
  });

  test('another region, an ambiguous match, or a stack the lock already knows by path is no rename', () => {
    expect(followStackRenames(lock([unit('a', 'S', 'eu-west-1')]), [stack('b', 'S', 'us-east-1')]).units[0].path).toBe('a');
    expect(followStackRenames(lock([unit('a', 'S')]), [stack('b', 'S'), stack('c', 'S')]).units[0].path).toBe('a');
    expect(followStackRenames(lock([unit('a', 'S'), unit('b', 'T')]), [stack('b', 'S')]).units.map((u) => u.path)).toEqual(['a', 'b']);
  });
});
