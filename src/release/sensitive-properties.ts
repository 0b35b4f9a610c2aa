/**
 * Where a CloudFormation template holds a secret: the properties that take one,
 * by resource type, and the `Default` of a `NoEcho` parameter. The lock and the
 * plan mask what is there (`lockValues`), and `CAP012` warns when it is a
 * literal.
 *
 * Neither the CloudFormation resource specification nor the registry schemas
 * that aws-cdk-lib generates its L1s from mark a property as secret (aws-cdk-lib
 * 2.276 ships no such flag: a password is a plain `string` prop), so the
 * properties are this table, from two sources:
 *
 * - cfn_nag's password rules, each naming a resource type and the property that
 *   must not be a literal (stelligent/cfn_nag, `lib/cfn-nag/custom_rules/*Rule.rb`,
 *   commit 8b5f03da74202ba323a145e9d037ddce6cab9dec);
 * - the properties aws-cdk-lib's L2 constructs fill from a `SecretValue` prop
 *   (`secretStringValue`, `password`, `credentials`, `masterUserPassword`,
 *   `accessToken`, `clientSecret`, `preSharedKeySecret`, `oauthToken`, ...), each
 *   checked by `test/sensitive-properties.test.ts`, which builds those L2s and
 *   finds the property in the synthesized template.
 *
 * Paths are under the resource's `Properties`; `*` stands for any list element.
 */
export const SECRET_PROPERTIES: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  // cfn_nag
  'Alexa::ASK::Skill': [['AuthenticationConfiguration', 'ClientSecret'], ['AuthenticationConfiguration', 'RefreshToken']],
  'AWS::AmazonMQ::Broker': [['Users', '*', 'Password']],
  'AWS::Amplify::App': [['AccessToken'], ['OauthToken'], ['BasicAuthConfig', 'Password']],
  'AWS::Amplify::Branch': [['BasicAuthConfig', 'Password']],
  'AWS::AppStream::DirectoryConfig': [['ServiceAccountCredentials', 'AccountPassword']],
  'AWS::CodePipeline::Webhook': [['AuthenticationConfiguration', 'SecretToken']],
  'AWS::DMS::Endpoint': [['Password'], ['MongoDbSettings', 'Password']],
  'AWS::DirectoryService::MicrosoftAD': [['Password']],
  'AWS::DirectoryService::SimpleAD': [['Password']],
  'AWS::DocDB::DBCluster': [['MasterUserPassword']],
  'AWS::EMR::Cluster': [
    ['KerberosAttributes', 'ADDomainJoinPassword'],
    ['KerberosAttributes', 'CrossRealmTrustPrincipalPassword'],
    ['KerberosAttributes', 'KdcAdminPassword'],
  ],
  'AWS::ElastiCache::ReplicationGroup': [['AuthToken']],
  'AWS::IAM::User': [['LoginProfile', 'Password']],
  'AWS::KinesisFirehose::DeliveryStream': [['RedshiftDestinationConfiguration', 'Password'], ['SplunkDestinationConfiguration', 'HECToken']],
  'AWS::Lambda::Permission': [['EventSourceToken']],
  'AWS::ManagedBlockchain::Member': [['MemberConfiguration', 'MemberFrameworkConfiguration', 'MemberFabricConfiguration', 'AdminPassword']],
  'AWS::OpsWorks::App': [['AppSource', 'Password'], ['SslConfiguration', 'PrivateKey']],
  'AWS::OpsWorks::Stack': [['CustomCookbooksSource', 'Password'], ['RdsDbInstances', '*', 'DbPassword']],
  'AWS::Pinpoint::APNSChannel': [['PrivateKey'], ['TokenKey']],
  'AWS::Pinpoint::APNSSandboxChannel': [['PrivateKey'], ['TokenKey']],
  'AWS::Pinpoint::APNSVoipChannel': [['PrivateKey'], ['TokenKey']],
  'AWS::Pinpoint::APNSVoipSandboxChannel': [['PrivateKey'], ['TokenKey']],
  'AWS::RDS::DBCluster': [['MasterUserPassword']],
  'AWS::RDS::DBInstance': [['MasterUserPassword']],
  'AWS::Redshift::Cluster': [['MasterUserPassword']],
  // aws-cdk-lib L2s that take a SecretValue
  'AWS::SecretsManager::Secret': [['SecretString']],
  'AWS::OpenSearchService::Domain': [['AdvancedSecurityOptions', 'MasterUserOptions', 'MasterUserPassword']],
  'AWS::Elasticsearch::Domain': [['AdvancedSecurityOptions', 'MasterUserOptions', 'MasterUserPassword']],
  'AWS::CodeBuild::SourceCredential': [['Token']],
  'AWS::Events::Connection': [
    ['AuthParameters', 'ApiKeyAuthParameters', 'ApiKeyValue'],
    ['AuthParameters', 'BasicAuthParameters', 'Password'],
    ['AuthParameters', 'OAuthParameters', 'ClientParameters', 'ClientSecret'],
  ],
  'AWS::SES::EmailIdentity': [['DkimSigningAttributes', 'DomainSigningPrivateKey']],
  'AWS::Cognito::UserPoolIdentityProvider': [['ProviderDetails', 'client_secret'], ['ProviderDetails', 'private_key']],
  'AWS::EC2::VPNConnection': [['VpnTunnelOptionsSpecifications', '*', 'PreSharedKey']],
  'AWS::ElasticLoadBalancingV2::Listener': [['DefaultActions', '*', 'AuthenticateOidcConfig', 'ClientSecret']],
  'AWS::ElasticLoadBalancingV2::ListenerRule': [['Actions', '*', 'AuthenticateOidcConfig', 'ClientSecret']],
  'AWS::CodePipeline::Pipeline': [
    ['Stages', '*', 'Actions', '*', 'Configuration', 'OAuthToken'],
    ['Stages', '*', 'Actions', '*', 'Configuration', 'ClientSecret'],
    ['Stages', '*', 'Actions', '*', 'Configuration', 'RefreshToken'],
  ],
};

/** Why a node of a template holds a secret, as messages name it. */
export interface TemplateSecret {
  /** The keys from the template's root to the node (`Resources`, logical id, `Properties`, ...). */
  readonly at: readonly string[];
  /** For example `property MasterUserPassword of AWS::RDS::DBInstance` or `the Default of NoEcho parameter 'Password'`. */
  readonly what: string;
}

/**
 * Whether the node at `at` (keys from the template's root) holds a secret: a
 * property of `SECRET_PROPERTIES` under its resource's `Properties`, or the
 * `Default` of a parameter with `NoEcho`. Everything below such a node is
 * secret too (the caller stops asking once it is told yes).
 *
 * @returns how to name it, or undefined when the node holds no secret
 */
export function templateSecretAt(template: unknown, at: readonly string[]): TemplateSecret | undefined {
  const t = template as { Resources?: Record<string, any>; Parameters?: Record<string, any> } | undefined;
  if (at.length === 3 && at[0] === 'Parameters' && at[2] === 'Default') {
    const noEcho = t?.Parameters?.[at[1]]?.NoEcho;
    return noEcho === true || noEcho === 'true' ? { at, what: `the Default of NoEcho parameter '${at[1]}'` } : undefined;
  }
  if (at.length < 4 || at[0] !== 'Resources' || at[2] !== 'Properties') return undefined;
  const type = t?.Resources?.[at[1]]?.Type;
  const paths = typeof type === 'string' ? SECRET_PROPERTIES[type] : undefined;
  const rest = at.slice(3);
  const path = paths?.find((p) => p.length === rest.length && p.every((k, i) => k === rest[i] || (k === '*' && /^\d+$/.test(rest[i]))));
  return path ? { at, what: `property ${rest.join('.')} of ${type}` } : undefined;
}

/** A dynamic reference CloudFormation resolves at deploy time: the secret is not in the template. */
const DYNAMIC_REFERENCE = /^\{\{resolve:(secretsmanager|ssm-secure):/;

/**
 * The nodes of a template that hold a secret as a literal (a string or number
 * written into the template, not a `Ref`, an intrinsic or a
 * `{{resolve:secretsmanager:...}}` dynamic reference): what `CAP012` warns about.
 */
export function literalTemplateSecrets(template: unknown): TemplateSecret[] {
  const found: TemplateSecret[] = [];
  const t = template as { Resources?: Record<string, any>; Parameters?: Record<string, any> } | undefined;
  const visit = (value: unknown, at: string[]): void => {
    const secret = templateSecretAt(template, at);
    if (secret) {
      if ((typeof value === 'string' && !DYNAMIC_REFERENCE.test(value)) || typeof value === 'number') found.push(secret);
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...at, String(i)]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, [...at, k]);
  };
  for (const [name, p] of Object.entries(t?.Parameters ?? {})) if (p && typeof p === 'object' && 'Default' in p) visit(p.Default, ['Parameters', name, 'Default']);
  for (const [id, r] of Object.entries(t?.Resources ?? {})) {
    if (r && typeof r === 'object' && SECRET_PROPERTIES[r.Type] && r.Properties && typeof r.Properties === 'object') visit(r.Properties, ['Resources', id, 'Properties']);
  }
  return found;
}
