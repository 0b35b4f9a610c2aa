import { App, Stack, Stage } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CapabilityTesting, DeploymentAggregate, SharedBase } from '../src';

/** A reusable construct that makes its own capability, as a library published to npm does. */
class Edge extends Construct {
  public readonly capability: Capability;
  constructor(scope: Construct, id: string, tenants: readonly string[], env?: { account: string; region: string }) {
    super(scope, id);
    this.capability = new Capability(this, 'Cap', { env });
    new sqs.Queue(new SharedBase(this.capability, 'Base'), 'Events');
    for (const t of tenants) new sqs.Queue(new DeploymentAggregate(this.capability, t), 'Q');
  }
}

const app = () => new CapabilityApp({ builtinCloudFormationValidation: false });

/** The exact CAP001 message of the environment-agnostic stack `name` declared by `x` and `y`, with its fix. */
const duplicate = (name: string, x: string, y: string, fix: string) =>
  `duplicate object: CloudFormation stack '${name}' (environment-agnostic: both deploy to the account and region the aws-cdk CLI targets) is declared by '${x}' and '${y}': `
  + `deployed one after the other, each replaces the stack's template and deletes the resources of the other. Give each stack a name of its own: ${fix}`;
const BY_CAPABILITY_ID = "give the capabilities 'edge/Cap' and 'edge2/Cap' different ids (a stack is named '<capability id>-<stack id>'), or pass each stack a stackName.";
const PLAIN = 'pass one of them another stackName, or give them different ids.';

describe('two stacks of one CloudFormation stack name', () => {
  test('aws-cdk itself names the stacks of two stages of one id under different constructs alike, and writes both', () => {
    // GIVEN plain aws-cdk: the premise of the rule (the stack name comes from the stage's id, not its path)
    const cdk = new App({ analyticsReporting: false });
    for (const id of ['edge', 'edge2']) new Stack(new Stage(new Construct(cdk, id), 'Cap'), 'Base');

    // WHEN
    const stacks = cdk.synth().nestedAssemblies.flatMap((a) => a.nestedAssembly.stacks);

    // THEN
    expect(stacks.map((s) => [s.hierarchicalId, s.stackName])).toEqual([
      ['edge/Cap/Base', 'Cap-Base'],
      ['edge2/Cap/Base', 'Cap-Base'],
    ]);
  });

  test('two instances of a construct that makes a capability of one id are CAP001, naming both stacks of each name and the fix', () => {
    // GIVEN
    const a = app();
    new Edge(a, 'edge', ['acme']);
    new Edge(a, 'edge2', ['acme', 'globex']);

    // WHEN
    const { violations } = CapabilityTesting.synth(a);

    // THEN
    expect(violations.map((v) => [v.code, v.message, v.paths])).toEqual([
      ['CAP001', duplicate('Cap-Base', 'edge/Cap/Base', 'edge2/Cap/Base', BY_CAPABILITY_ID), ['edge/Cap/Base', 'edge2/Cap/Base']],
      ['CAP001', duplicate('Cap-acme', 'edge/Cap/acme', 'edge2/Cap/acme', BY_CAPABILITY_ID), ['edge/Cap/acme', 'edge2/Cap/acme']],
    ]);
  });

  test('stacks named alike by a stackName or by prefixStackNames: false are CAP001 with the plain fix', () => {
    // GIVEN
    const a = app();
    new SharedBase(new Capability(a, 'shop', { prefixStackNames: false }), 'Base');
    new SharedBase(new Capability(a, 'cdn', { prefixStackNames: false }), 'Base');
    new DeploymentAggregate(new Capability(a, 'x'), 'acme', { stackName: 'tenant' });
    new DeploymentAggregate(new Capability(a, 'y'), 'globex', { stackName: 'tenant' });

    // WHEN
    const { violations } = CapabilityTesting.synth(a);

    // THEN
    expect(violations.map((v) => [v.code, v.message, v.paths])).toEqual([
      ['CAP001', duplicate('Base', 'shop/Base', 'cdn/Base', PLAIN), ['cdn/Base', 'shop/Base']],
      ['CAP001', duplicate('tenant', 'x/acme', 'y/globex', PLAIN), ['x/acme', 'y/globex']],
    ]);
  });

  test('one name in two environments is two stacks, and distinct ids are accepted', () => {
    // GIVEN
    const a = app();
    new Edge(a, 'eu', ['acme'], { account: '111111111111', region: 'eu-west-1' });
    new Edge(a, 'us', ['acme'], { account: '111111111111', region: 'us-east-1' });
    const b = app();
    new Edge(b, 'edge', ['acme']);
    new SharedBase(new Capability(b, 'Other'), 'Base');

    // WHEN / THEN
    expect(CapabilityTesting.synth(a).violations).toEqual([]);
    expect(CapabilityTesting.synth(b).violations).toEqual([]);
  });
});
