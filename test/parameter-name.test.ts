import { edgeComposition, summary } from './contract-fixtures';
import { newApp, removeTempDirs } from './util';
import { Capability, Field, InterfaceContract } from '../src';
import { parameterNameProblem } from '../src/private/parameter-name';

afterAll(removeTempDirs);

const FIX = "Choose a contract name (its 'name', else its id) and parameterPrefix of letters, digits, . - _ that do not begin with \"aws\" or \"ssm\".";

/** A name of `n` levels: /l1/l2/.../ln. */
function levels(n: number): string {
  return Array.from({ length: n }, (_, i) => `/l${i + 1}`).join('');
}

describe('parameterNameProblem', () => {
  test('the default contract path is a valid name', () => {
    expect(parameterNameProblem('/cdk-capability/cdn/edge/v1')).toBeUndefined();
  });

  test('letters, digits, dot, dash and underscore are valid', () => {
    expect(parameterNameProblem('/Platform_2.contracts/cdn-x/edge/v10')).toBeUndefined();
  });

  test('a name beginning with "aws" is refused, quoting the name', () => {
    expect(parameterNameProblem('/aws/cdn/edge/v1')).toBe('"/aws/cdn/edge/v1" begins with "aws", a prefix AWS reserves');
  });

  test('a name beginning with "ssm" is refused, quoting the name', () => {
    expect(parameterNameProblem('/ssm/cdn/edge/v1')).toBe('"/ssm/cdn/edge/v1" begins with "ssm", a prefix AWS reserves');
  });

  test('the reserved prefixes are matched without regard to case', () => {
    expect(parameterNameProblem('/AWS/cdn/edge/v1')).toBe('"/AWS/cdn/edge/v1" begins with "AWS", a prefix AWS reserves');
  });

  test('"aws" or "ssm" below the first level is valid', () => {
    expect(parameterNameProblem('/cdk-capability/aws/ssm/v1')).toBeUndefined();
  });

  test('15 levels are valid', () => {
    expect(parameterNameProblem(levels(15))).toBeUndefined();
  });

  test('16 levels are refused', () => {
    expect(parameterNameProblem(levels(16))).toBe(`"${levels(16)}" has 16 levels, at most 15 are allowed`);
  });

  test('a space is refused', () => {
    expect(parameterNameProblem('/cdk-capability/cdn/edge contract/v1')).toBe('"/cdk-capability/cdn/edge contract/v1" may only contain letters, digits and . - _ /');
  });

  test('a name that does not start with "/" is refused', () => {
    expect(parameterNameProblem('cdk-capability/cdn/edge/v1')).toBe('"cdk-capability/cdn/edge/v1" must start with "/"');
  });

  test('an empty level is refused', () => {
    expect(parameterNameProblem('/cdk-capability//edge/v1')).toBe('"/cdk-capability//edge/v1" has an empty level');
  });

  test('more than 1011 characters are refused', () => {
    const name = `/${'a'.repeat(1011)}`;
    expect(parameterNameProblem(name)).toBe(`"${name.slice(0, 40)}..." has 1012 characters, at most 1011 are allowed`);
  });
});

describe('CAP010: the contract parameter name, end to end', () => {
  function refused(name: string, problem: string, path = 'cdn/Edge') {
    return [{ code: 'CAP010', message: `invalid object: the parameter name of '${path}' is invalid: "${name}" ${problem}. ${FIX}`, paths: [path] }];
  }

  test('a parameterPrefix under /aws is refused', () => {
    // GIVEN the prefix /aws/contracts
    const { app, edge, base } = edgeComposition({ parameterPrefix: '/aws/contracts' });
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP010 quotes the name
    expect(summary(violations)).toEqual(refused('/aws/contracts/cdn/edge/v1', 'begins with "aws", a prefix AWS reserves'));
  });

  test('a parameterPrefix under /ssm is refused', () => {
    // GIVEN the prefix /ssm
    const { app, edge, base } = edgeComposition({ parameterPrefix: '/ssm' });
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP010 quotes the name
    expect(summary(violations)).toEqual(refused('/ssm/cdn/edge/v1', 'begins with "ssm", a prefix AWS reserves'));
  });

  test('a parameterPrefix that makes the path deeper than 15 levels is refused', () => {
    // GIVEN a 13-level prefix: with cdn/edge/v1, 16 levels
    const { app, edge, base } = edgeComposition({ parameterPrefix: levels(13) });
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP010 counts the levels
    expect(summary(violations)).toEqual(refused(`${levels(13)}/cdn/edge/v1`, 'has 16 levels, at most 15 are allowed'));
  });

  test('a parameterPrefix that makes the path exactly 15 levels deep is accepted', () => {
    // GIVEN a 12-level prefix: with cdn/edge/v1, 15 levels
    const { app, edge, base } = edgeComposition({ parameterPrefix: levels(12) });
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('a contract id with a space is refused', () => {
    // GIVEN the contract id "Edge Contract"
    const { app, edge, base } = edgeComposition({ contractId: 'Edge Contract' });
    edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP010 quotes the name with the space
    expect(summary(violations)).toEqual(refused('/cdk-capability/cdn/edge contract/v1', 'may only contain letters, digits and . - _ /', 'cdn/Edge Contract'));
  });

  test('a contract never published is refused too: a parameterPrefix without its leading "/" would reach the lock, which refuses it', () => {
    // GIVEN a contract of optional fields under the prefix "platform", never published
    const app = newApp();
    new InterfaceContract(new Capability(app, 'cdn'), 'Edge', { version: '1.0.0', parameterPrefix: 'platform', fields: { region: Field.string().optional() } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN CAP010 names the parameter name, and no lock holding it can be written
    expect(summary(violations)).toEqual(refused('platform/cdn/edge/v1', 'must start with "/"'));
  });

  test('an invalid name creates no SSM parameter', () => {
    // GIVEN the prefix /aws
    const { edge, base } = edgeComposition({ parameterPrefix: '/aws' });

    // WHEN published
    const publication = edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // THEN neither the parameter nor the reader policy exists
    expect(publication.parameter).toBeUndefined();
    expect(publication.readerPolicy).toBeUndefined();
    expect(base.node.tryFindChild('EdgeInterface')).toBeUndefined();
  });
});
