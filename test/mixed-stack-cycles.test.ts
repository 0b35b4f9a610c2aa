/**
 * A cycle of stacks closed by a `node.addDependency` between constructs of two stacks in one direction and a
 * cross-stack reference in the other: aws-cdk adds both stack dependencies during synth, the node-level one
 * without an `addStackDependency` call, so it was named `stack dependency` (in a tenant aggregate), or the whole
 * refusal was aws-cdk's own words (in a plain aws-cdk Stack). It is one CAP004 naming the call by file and line
 * and the reference by the stack that makes it and the attribute it reads.
 */
import { aws_iam as iam, aws_s3 as s3, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, DeploymentAggregate } from '../src';
import { newApp, removeTempDirs, siteOfNextLine } from './util';

afterAll(removeTempDirs);

const FIX = 'Remove one of these dependencies (addDependency, or the reference that implies it).';
const lines = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message} [${v.paths.join(', ')}]`);

/** Capability `shop` with stacks `zeta` (bucket B) and `alpha` (role R) made by `stack`, alpha reading B's ARN (alpha depends on zeta). */
function fixture(stack: (scope: Capability, id: string) => Stack) {
  const app = newApp();
  const shop = new Capability(app, 'shop');
  const bucket = new s3.Bucket(stack(shop, 'zeta'), 'B');
  const role = new iam.Role(stack(shop, 'alpha'), 'R', { assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com') });
  bucket.grantRead(role);
  return { app, bucket, role };
}

describe('a stack cycle of a node.addDependency and a cross-stack reference', () => {
  test.each([
    ['tenant aggregates', (scope: Construct, id: string) => new DeploymentAggregate(scope, id)],
    ['plain aws-cdk stacks', (scope: Construct, id: string) => new Stack(scope, id)],
  ])('between %s is one CAP004 naming the call by file and line and the reference', (_kind, stack) => {
    // GIVEN zeta's bucket made to depend on alpha's role (zeta depends on alpha), against the reference
    const { app, bucket, role } = fixture(stack);
    const site = siteOfNextLine();
    bucket.node.addDependency(role);

    // WHEN / THEN
    expect(lines(app)).toEqual([
      'CAP004 dependency cycle: shop/alpha => shop/zeta => shop/alpha (shop/alpha => shop/zeta: shop/alpha -> shop/zeta/B/Resource.Arn; '
      + `shop/zeta => shop/alpha: explicit 'shop/zeta/B'.addDependency('shop/alpha/R') at ${site}). ${FIX} [shop/alpha]`,
    ]);
  });

  test('made with the stack itself as the dependent is named by that call', () => {
    const { app, bucket, role } = fixture((scope, id) => new DeploymentAggregate(scope, id));
    const site = siteOfNextLine();
    Stack.of(bucket).node.addDependency(role);

    expect(lines(app)).toEqual([
      'CAP004 dependency cycle: shop/alpha => shop/zeta => shop/alpha (shop/alpha => shop/zeta: shop/alpha -> shop/zeta/B/Resource.Arn; '
      + `shop/zeta => shop/alpha: explicit 'shop/zeta'.addDependency('shop/alpha/R') at ${site}). ${FIX} [shop/alpha]`,
    ]);
  });
});
