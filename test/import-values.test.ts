import { literalExports, literalImports } from '../src/private/import-values';

describe('the exports and imports of a synthesized template', () => {
  test('literalImports finds each Fn::ImportValue of a literal name, also nested in Fn::Join, and leaves out a computed name', () => {
    // GIVEN a template with a plain import, one inside Fn::Join, one of a name made by Fn::Sub, and one in an output
    const template = {
      Resources: {
        Plain: { Type: 'AWS::SSM::Parameter', Properties: { Value: { 'Fn::ImportValue': 'acme-value' } } },
        Joined: { Type: 'AWS::SSM::Parameter', Properties: { Value: { 'Fn::Join': ['', ['arn:', { 'Fn::ImportValue': 'acme-arn' }]] } } },
        Computed: { Type: 'AWS::SSM::Parameter', Properties: { Value: { 'Fn::ImportValue': { 'Fn::Sub': '${Env}-value' } } } },
      },
      Outputs: { Again: { Value: { 'Fn::ImportValue': 'acme-value' } } },
    };

    // WHEN read / THEN the literal names, in template order, each with where it is
    expect(literalImports(template)).toEqual([
      { name: 'acme-value', section: 'Resources', logicalId: 'Plain' },
      { name: 'acme-arn', section: 'Resources', logicalId: 'Joined' },
      { name: 'acme-value', section: 'Outputs', logicalId: 'Again' },
    ]);
  });

  test('literalExports reads the names the program gives, leaving out computed names and aws-cdk\'s own exports', () => {
    const template = {
      Outputs: {
        Value: { Value: 'v1', Export: { Name: 'acme-value' } },
        Computed: { Value: 'v2', Export: { Name: { 'Fn::Sub': '${Env}-value' } } },
        ExportsOutputRefLogs6819BB446A932AEA: { Value: { Ref: 'Logs6819BB44' }, Export: { Name: 'shop-Base:ExportsOutputRefLogs6819BB446A932AEA' } },
        Plain: { Value: 'v3' },
      },
    };

    expect([...literalExports(template)]).toEqual([['acme-value', 'Value']]);
  });
});
