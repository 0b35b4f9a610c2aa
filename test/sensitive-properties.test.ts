import * as cdk from 'aws-cdk-lib';
import { SecretValue } from 'aws-cdk-lib';
import { forEachScalar } from '../src/private/walk';
import { literalTemplateSecrets, SECRET_PROPERTIES, templateSecretAt } from '../src/release/sensitive-properties';
import { lockValues } from '../src/render/lock-values';

/**
 * The properties aws-cdk-lib's L2 constructs fill from a `SecretValue`, found
 * where aws-cdk-lib 2.276 really puts them: each L2 gets a sentinel secret, and
 * the synthesized template says which leaf holds it.
 */
function l2Template(): any {
  const app = new cdk.App({ builtinCloudFormationValidation: false } as cdk.AppProps);
  const s = new cdk.Stack(app, 'S');
  const secret = (n: string) => SecretValue.unsafePlainText(`SENTINEL-${n}`);
  const vpc = new cdk.aws_ec2.Vpc(s, 'Vpc', { natGateways: 0, subnetConfiguration: [{ name: 'db', subnetType: cdk.aws_ec2.SubnetType.PRIVATE_ISOLATED }] });
  const isolated = { subnetType: cdk.aws_ec2.SubnetType.PRIVATE_ISOLATED };
  new cdk.aws_secretsmanager.Secret(s, 'Sm', { secretStringValue: secret('secretsmanager') });
  new cdk.aws_iam.User(s, 'User', { password: secret('iam') });
  new cdk.aws_rds.DatabaseInstance(s, 'Instance', {
    engine: cdk.aws_rds.DatabaseInstanceEngine.POSTGRES,
    vpc,
    vpcSubnets: isolated,
    credentials: cdk.aws_rds.Credentials.fromPassword('admin', secret('rds-instance')),
  });
  new cdk.aws_rds.DatabaseCluster(s, 'Cluster', {
    engine: cdk.aws_rds.DatabaseClusterEngine.auroraPostgres({ version: cdk.aws_rds.AuroraPostgresEngineVersion.VER_16_4 }),
    vpc,
    vpcSubnets: isolated,
    writer: cdk.aws_rds.ClusterInstance.provisioned('Writer'),
    credentials: cdk.aws_rds.Credentials.fromPassword('admin', secret('rds-cluster')),
  });
  new cdk.aws_docdb.DatabaseCluster(s, 'DocDb', {
    vpc,
    vpcSubnets: isolated,
    instanceType: cdk.aws_ec2.InstanceType.of(cdk.aws_ec2.InstanceClass.R5, cdk.aws_ec2.InstanceSize.LARGE),
    masterUser: { username: 'admin', password: secret('docdb') },
  });
  new cdk.aws_opensearchservice.Domain(s, 'Search', {
    version: cdk.aws_opensearchservice.EngineVersion.OPENSEARCH_2_11,
    fineGrainedAccessControl: { masterUserName: 'admin', masterUserPassword: secret('opensearch') },
    nodeToNodeEncryption: true,
    encryptionAtRest: { enabled: true },
    enforceHttps: true,
  });
  new cdk.aws_codebuild.GitHubSourceCredentials(s, 'GitHub', { accessToken: secret('codebuild') });
  new cdk.aws_events.Connection(s, 'ApiKey', { authorization: cdk.aws_events.Authorization.apiKey('x-api-key', secret('events-apikey')) });
  new cdk.aws_events.Connection(s, 'Basic', { authorization: cdk.aws_events.Authorization.basic('user', secret('events-basic')) });
  new cdk.aws_events.Connection(s, 'OAuth', {
    authorization: cdk.aws_events.Authorization.oauth({ authorizationEndpoint: 'https://auth.example.com', clientId: 'id', clientSecret: secret('events-oauth'), httpMethod: cdk.aws_events.HttpMethod.POST }),
  });
  new cdk.aws_ses.EmailIdentity(s, 'Mail', { identity: cdk.aws_ses.Identity.domain('example.com'), dkimIdentity: cdk.aws_ses.DkimIdentity.byoDkim({ privateKey: secret('ses'), selector: 'sel' }) });
  const pool = new cdk.aws_cognito.UserPool(s, 'Pool');
  new cdk.aws_cognito.UserPoolIdentityProviderGoogle(s, 'Google', { userPool: pool, clientId: 'id', clientSecretValue: secret('cognito-google') });
  new cdk.aws_cognito.UserPoolIdentityProviderApple(s, 'Apple', { userPool: pool, clientId: 'id', teamId: 'team', keyId: 'key', privateKeyValue: secret('cognito-apple') });
  new cdk.aws_ec2.VpnConnection(s, 'Vpn', { vpc, ip: '192.0.2.1', tunnelOptions: [{ preSharedKeySecret: secret('vpn-0'), tunnelInsideCidr: '169.254.10.0/30' }, { preSharedKeySecret: secret('vpn-1'), tunnelInsideCidr: '169.254.11.0/30' }] });
  const elb = cdk.aws_elasticloadbalancingv2;
  const oidc = (n: string) => elb.ListenerAction.authenticateOidc({
    authorizationEndpoint: 'https://auth.example.com',
    clientId: 'id',
    clientSecret: secret(n),
    issuer: 'https://issuer.example.com',
    tokenEndpoint: 'https://token.example.com',
    userInfoEndpoint: 'https://user.example.com',
    next: elb.ListenerAction.fixedResponse(200),
  });
  const listener = new elb.ApplicationLoadBalancer(s, 'Lb', { vpc, vpcSubnets: isolated }).addListener('Http', { port: 80, defaultAction: oidc('elb-listener') });
  listener.addAction('Rule', { priority: 1, conditions: [elb.ListenerCondition.pathPatterns(['/admin'])], action: oidc('elb-rule') });
  const pipeline = new cdk.aws_codepipeline.Pipeline(s, 'Pipeline');
  pipeline.addStage({ stageName: 'Source', actions: [new cdk.aws_codepipeline_actions.GitHubSourceAction({ actionName: 'GitHub', owner: 'o', repo: 'r', oauthToken: secret('codepipeline'), output: new cdk.aws_codepipeline.Artifact() })] });
  pipeline.addStage({ stageName: 'Approve', actions: [new cdk.aws_codepipeline_actions.ManualApprovalAction({ actionName: 'Approve' })] });
  return app.synth().getStackByName('S').template;
}

/** Every leaf holding a sentinel: its resource type and its path under Properties, `*` for list indexes. */
function sentinelLeaves(template: any): Array<{ at: string[]; type: string; property: string }> {
  const found: Array<{ at: string[]; type: string; property: string }> = [];
  forEachScalar(template, (v, at, isKey) => {
    if (isKey || typeof v !== 'string' || !v.includes('SENTINEL')) return;
    found.push({ at: [...at], type: template.Resources[at[1]].Type, property: at.slice(3).map((k) => (/^\d+$/.test(k) ? '*' : k)).join('.') });
  });
  return found;
}

describe('the properties that take a secret', () => {
  const template = l2Template();
  const leaves = sentinelLeaves(template);

  test('aws-cdk-lib writes each L2 SecretValue to one of the properties the table names', () => {
    // WHEN the sentinels are located in the synthesized template
    const where = [...new Set(leaves.map((l) => `${l.type} ${l.property}`))].sort();

    // THEN each is a property of the table
    expect(where).toEqual([
      'AWS::CodeBuild::SourceCredential Token',
      'AWS::CodePipeline::Pipeline Stages.*.Actions.*.Configuration.OAuthToken',
      'AWS::CodePipeline::Webhook AuthenticationConfiguration.SecretToken',
      'AWS::Cognito::UserPoolIdentityProvider ProviderDetails.client_secret',
      'AWS::Cognito::UserPoolIdentityProvider ProviderDetails.private_key',
      'AWS::DocDB::DBCluster MasterUserPassword',
      'AWS::EC2::VPNConnection VpnTunnelOptionsSpecifications.*.PreSharedKey',
      'AWS::ElasticLoadBalancingV2::Listener DefaultActions.*.AuthenticateOidcConfig.ClientSecret',
      'AWS::ElasticLoadBalancingV2::ListenerRule Actions.*.AuthenticateOidcConfig.ClientSecret',
      'AWS::Events::Connection AuthParameters.ApiKeyAuthParameters.ApiKeyValue',
      'AWS::Events::Connection AuthParameters.BasicAuthParameters.Password',
      'AWS::Events::Connection AuthParameters.OAuthParameters.ClientParameters.ClientSecret',
      'AWS::IAM::User LoginProfile.Password',
      'AWS::OpenSearchService::Domain AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword',
      'AWS::RDS::DBCluster MasterUserPassword',
      'AWS::RDS::DBInstance MasterUserPassword',
      'AWS::SES::EmailIdentity DkimSigningAttributes.DomainSigningPrivateKey',
      'AWS::SecretsManager::Secret SecretString',
    ]);
    for (const l of leaves) expect({ leaf: l.at.join('.'), secret: templateSecretAt(template, l.at) !== undefined }).toEqual({ leaf: l.at.join('.'), secret: true });
    expect(leaves.length).toBe(19);
  });

  test('the lock holds none of them, and CAP012 finds each as a literal', () => {
    // WHEN the template's leaves are taken as the lock takes them
    const { values, masked } = lockValues(template, (at) => templateSecretAt(template, at) !== undefined);

    // THEN no sentinel is left in the values, each is masked, and each is a literal secret
    expect(JSON.stringify(values)).not.toContain('SENTINEL');
    expect([...masked.values()].filter((v) => String(v).includes('SENTINEL'))).toHaveLength(leaves.length);
    expect(literalTemplateSecrets(template).map((s) => s.at.join('.')).sort()).toEqual(leaves.map((l) => l.at.join('.')).sort());
  });

  test('a dynamic reference or an intrinsic where a secret goes is no literal', () => {
    // GIVEN a template whose secret properties reference their secrets
    const referenced = {
      Parameters: { Password: { Type: 'String', NoEcho: true } },
      Resources: {
        Db: { Type: 'AWS::RDS::DBInstance', Properties: { MasterUserPassword: '{{resolve:secretsmanager:db:SecretString:password}}' } },
        User: { Type: 'AWS::IAM::User', Properties: { LoginProfile: { Password: { Ref: 'Password' } } } },
      },
    };

    // THEN CAP012 has nothing to say
    expect(literalTemplateSecrets(referenced)).toEqual([]);
  });

  test('every resource type of the table is an AWS or Alexa type, with paths under its Properties', () => {
    for (const [type, paths] of Object.entries(SECRET_PROPERTIES)) {
      expect(type).toMatch(/^(AWS|Alexa)::\w+::\w+$/);
      for (const p of paths) expect(p.length).toBeGreaterThan(0);
    }
  });
});
