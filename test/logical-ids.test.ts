import { CfnResource, Stack } from 'aws-cdk-lib';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Capability, CapabilityTesting, DeploymentAggregate, SharedBase } from '../src';
import { collect } from '../src/collect/collect';
import { LogicalIds } from '../src/collect/logical-ids';

/** Counts `stack.resolve(x)` calls whose `x` is the logical id token of `resource`, while `fn` runs. */
function resolvesOfLogicalId(resource: CfnResource, fn: () => void): number {
  const spy = jest.spyOn(Stack.prototype, 'resolve');
  try {
    fn();
    return spy.mock.calls.filter(([x]) => x === resource.logicalId).length;
  } finally {
    spy.mockRestore();
  }
}

describe('LogicalIds', () => {
  test('gives the stack and the logical id as the stack resolves it, an overridden one included', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const plain = new ssm.StringParameter(base, 'Origin', { stringValue: 'origin.example.com' }).node.defaultChild as CfnResource;
    const renamed = new ssm.StringParameter(base, 'Renamed', { stringValue: 'x' }).node.defaultChild as CfnResource;
    renamed.overrideLogicalId('RenamedParameter');

    // WHEN
    const ids = new LogicalIds();

    // THEN
    expect(ids.of(plain)).toEqual({ stack: base, logicalId: base.resolve(plain.logicalId) });
    expect(ids.of(plain).logicalId).toMatch(/^Origin[0-9A-F]{8}$/);
    expect(ids.of(renamed)).toEqual({ stack: base, logicalId: 'RenamedParameter' });
  });

  test('resolves each element once: a second read is the first answer', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const resource = new ssm.StringParameter(base, 'Origin', { stringValue: 'origin.example.com' }).node.defaultChild as CfnResource;
    const ids = new LogicalIds();

    // WHEN
    let first: unknown;
    let second: unknown;
    const resolves = resolvesOfLogicalId(resource, () => {
      first = ids.of(resource);
      second = ids.of(resource);
    });

    // THEN
    expect(resolves).toBe(1);
    expect(second).toBe(first);
  });
});

describe('collect', () => {
  test('resolves a resource\'s logical id once for its physical name and its declarer', () => {
    // GIVEN a parameter with a physical name (a claim) in a tenant stack
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    new SharedBase(shop, 'Base');
    const acme = new DeploymentAggregate(shop, 'acme');
    const parameter = new ssm.StringParameter(acme, 'Config', { parameterName: '/shop/acme/config', stringValue: '{}' });
    const resource = parameter.node.defaultChild as CfnResource;

    // WHEN
    let facts!: ReturnType<typeof collect>;
    const during = resolvesOfLogicalId(resource, () => (facts = collect(app)));

    // THEN one resolve of the token (aws-cdk's synth reads the id without it)
    expect(during).toBe(1);
    const logicalId = acme.resolve(resource.logicalId);
    expect(facts.resourceDeclarers[`shop/acme\u0000${logicalId}`]).toBe('shop/acme/Config');
    expect(facts.physicalNames).toEqual([
      { key: `AWS::SSM::Parameter|${acme.environment}|/shop/acme/config`, claim: 'AWS::SSM::Parameter Name "/shop/acme/config"', claimant: 'shop/acme/Config' },
    ]);
  });
});
