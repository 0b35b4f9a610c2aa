import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { aws_iam as iam, CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as kplus from 'cdk8s-plus-30';
import { parse } from 'yaml';
import { Capability, DeploymentAggregate, RuntimeRouting } from '../src';
import { edgeComposition, EdgeComposition, EdgeCompositionOptions, manifestsOfKind } from './contract-fixtures';
import { newApp, removeTempDirs, stepIds, stepSummary } from './util';

afterAll(removeTempDirs);

const INTERFACE_REASON = 'interface publication before its consumers';
const DEPLOY_BEFORE_RUNTIME_REASON = 'deployment time before runtime';
const CRD_FILE = path.join(__dirname, 'fixtures', 'crds', 'external-secrets.externalsecrets.yaml');

/** GIVEN-side helper: the edge contract published from the shared base with the distribution's domain name. */
function published(options: EdgeCompositionOptions = {}): EdgeComposition {
  const composition = edgeComposition(options);
  const { edge, base, distribution } = composition;
  edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
  return composition;
}

function logicalId(stack: Stack, construct: { node: { defaultChild?: unknown } } | CfnElement): string {
  const element = (construct instanceof CfnElement ? construct : construct.node.defaultChild) as CfnElement;
  return stack.getLogicalId(element);
}

/** The ARN of the parameter with logical id `parameterId`, as aws-cdk renders `parameter.parameterArn`. */
function parameterArn(parameterId: string): unknown {
  return {
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':parameter', { Ref: parameterId }]],
  };
}

/** A validator for `external-secrets.io/v1` ExternalSecret, from the CRD's published OpenAPI v3 schema. */
function externalSecretValidator() {
  const crd = parse(fs.readFileSync(CRD_FILE, 'utf-8'));
  const v1 = crd.spec.versions.find((v: { name: string }) => v.name === 'v1');
  // The OpenAPI-only keywords (nullable, x-kubernetes-*) are ignored with strict: false; ajv-formats checks the
  // formats (date-time), which ajv alone would only warn about, once per use.
  const options = { allErrors: true, strict: false };
  return addFormats(new Ajv(options)).compile(v1.schema.openAPIV3Schema);
}

describe('publish: the deployment side', () => {
  test('synth writes exactly one String SSM parameter named /cdk-capability/<capability>/<contract>/v<major>', () => {
    // GIVEN the contract cdn/Edge 1.2.0 published from the shared base
    const { app, base } = published({ version: '1.2.0' });

    // WHEN synthesized and written
    app.synth();

    // THEN the base stack holds one parameter, /cdk-capability/cdn/edge/v1, of type String
    const template = Template.fromStack(base);
    template.resourceCountIs('AWS::SSM::Parameter', 1);
    template.hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdk-capability/cdn/edge/v1', Type: 'String' });
  });

  test('the parameter value is the JSON of the published values, with the deploy-time domain name joined in', () => {
    // GIVEN a token (the distribution's domain name) and a literal published
    const { app, base, distribution } = published();

    // WHEN synthesized and written
    app.synth();

    // THEN the value joins the distribution's DomainName attribute into the JSON text
    const [parameter] = Object.values(Template.fromStack(base).findResources('AWS::SSM::Parameter')) as any[];
    expect(parameter.Properties.Value).toEqual({
      'Fn::Join': ['', ['{"originDnsName":"', { 'Fn::GetAtt': [logicalId(base, distribution), 'DomainName'] }, '","tenantHeader":"x-tenant-id"}']],
    });
  });

  test('a major version 2 publishes under /v2', () => {
    // GIVEN the contract at version 2.0.0
    const { app, base } = published({ version: '2.0.0' });

    // WHEN synthesized and written
    app.synth();

    // THEN the parameter path ends in /v2
    Template.fromStack(base).hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdk-capability/cdn/edge/v2' });
  });

  test('the deploy template written under the outdir holds the same parameter', () => {
    // GIVEN the published contract
    const { app } = published();

    // WHEN synthesized and written
    app.synth();

    // THEN the base's template file named by plan.json holds the parameter
    const plan = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
    const [templateFile] = plan.steps.find((s: { id: string }) => s.id === 'cdn/Base').files;
    expect(templateFile).toMatch(/^deploy\/.+\.template\.json$/);
    const template = Template.fromJSON(JSON.parse(fs.readFileSync(path.join(app.outdir, templateFile), 'utf-8')));
    template.resourceCountIs('AWS::SSM::Parameter', 1);
    template.hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdk-capability/cdn/edge/v1', Type: 'String' });
  });

  test('the reader policy allows only ssm:GetParameter on exactly the contract parameter', () => {
    // GIVEN the published contract
    const { app, base, edge } = published();

    // WHEN synthesized and written
    app.synth();

    // THEN one managed policy with one statement whose resource is the parameter's ARN, never '*'
    const policies = Object.values(Template.fromStack(base).findResources('AWS::IAM::ManagedPolicy')) as any[];
    expect(policies).toHaveLength(1);
    const statements = policies[0].Properties.PolicyDocument.Statement;
    const parameterId = logicalId(base, edge.publications[0].parameter!);
    expect(statements).toEqual([{ Action: 'ssm:GetParameter', Effect: 'Allow', Resource: parameterArn(parameterId) }]);
    expect(statements[0].Resource).not.toEqual('*');
  });

  test('the reader policy resource names the parameter that holds the contract', () => {
    // GIVEN the published contract
    const { app, base, edge } = published();

    // WHEN synthesized and written
    app.synth();

    // THEN the ARN's last part references the SSM parameter named /cdk-capability/cdn/edge/v1
    const template = Template.fromStack(base);
    const [policy] = Object.values(template.findResources('AWS::IAM::ManagedPolicy')) as any[];
    const parts: any[] = policy.Properties.PolicyDocument.Statement[0].Resource['Fn::Join'][1];
    const referenced = parts[parts.length - 1].Ref;
    expect(template.findResources('AWS::SSM::Parameter')[referenced].Properties.Name).toBe('/cdk-capability/cdn/edge/v1');
    expect(edge.parameterName).toBe('/cdk-capability/cdn/edge/v1');
  });

  test('a reader passed to publish gets the same single statement in its own policy', () => {
    // GIVEN a role (the External Secrets Operator's) passed as reader
    const composition = edgeComposition();
    const { app, base, edge, distribution } = composition;
    const role = new iam.Role(base, 'EsoRole', { assumedBy: new iam.ServicePrincipal('pods.eks.amazonaws.com') });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' }, { readers: [role] });

    // WHEN synthesized and written
    app.synth();

    // THEN the role's policy allows ssm:GetParameter on exactly the parameter
    const template = Template.fromStack(base);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as any[];
    expect(policies).toHaveLength(1);
    expect(policies[0].Properties.Roles).toEqual([{ Ref: logicalId(base, role) }]);
    const parameterId = logicalId(base, edge.publications[0].parameter!);
    expect(policies[0].Properties.PolicyDocument.Statement).toEqual([{ Action: 'ssm:GetParameter', Effect: 'Allow', Resource: parameterArn(parameterId) }]);
  });

  test('without readers no principal policy is created', () => {
    // GIVEN the contract published without readers
    const { app, base } = published();

    // WHEN synthesized and written
    app.synth();

    // THEN only the managed policy exists, attached to nobody
    const template = Template.fromStack(base);
    template.resourceCountIs('AWS::IAM::Policy', 0);
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 1);
    expect(Object.values(template.findResources('AWS::IAM::ManagedPolicy'))[0].Properties.Roles).toBeUndefined();
  });

  test('parameterPrefix replaces /cdk-capability as the first levels of the parameter path', () => {
    // GIVEN contract Gateway 3.1.4 with the prefix "/platform/contracts/" (trailing slash included)
    const { app, base, edge } = published({ contractId: 'Gateway', version: '3.1.4', parameterPrefix: '/platform/contracts/' });

    // WHEN synthesized and written
    app.synth();

    // THEN the parameter is /platform/contracts/cdn/gateway/v3
    expect(edge.parameterName).toBe('/platform/contracts/cdn/gateway/v3');
    Template.fromStack(base).hasResourceProperties('AWS::SSM::Parameter', { Name: '/platform/contracts/cdn/gateway/v3', Type: 'String' });
  });
});

describe('consume: the runtime side', () => {
  test('consume binds the parameter with an ExternalSecret that extracts it from the default ClusterSecretStore', () => {
    // GIVEN the published contract consumed by the routing chart
    const { app, edge, routing } = published();
    edge.consume(routing);

    // WHEN synthesized
    const result = app.synthesize();

    // THEN the runtime output holds exactly this ExternalSecret
    expect(result.violations).toEqual([]);
    expect(manifestsOfKind(result, 'ExternalSecret')).toEqual([
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: { name: 'cdn-edge-interface', annotations: { 'cdk-capability.io/contract-version': '1.2.0' } },
        spec: {
          refreshInterval: '1h',
          secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws-parameter-store' },
          target: { name: 'cdn-edge-interface', creationPolicy: 'Owner' },
          dataFrom: [{ extract: { key: '/cdk-capability/cdn/edge/v1' } }],
        },
      },
    ]);
  });

  test('consume options set the namespace, store name and kind and refresh interval', () => {
    // GIVEN every consume option
    const { app, edge, routing } = published();
    edge.consume(routing, { namespace: 'edge', secretStoreName: 'parameters', secretStoreKind: 'SecretStore', refreshInterval: '15m' });

    // WHEN synthesized
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');

    // THEN each shows in the ExternalSecret
    expect(externalSecret.metadata).toEqual({ name: 'cdn-edge-interface', namespace: 'edge', annotations: { 'cdk-capability.io/contract-version': '1.2.0' } });
    expect(externalSecret.spec.secretStoreRef).toEqual({ kind: 'SecretStore', name: 'parameters' });
    expect(externalSecret.spec.refreshInterval).toBe('15m');
  });

  test('the ExternalSecret extracts the parameter under the contract parameterPrefix', () => {
    // GIVEN contract Gateway 3.1.4 under the prefix /platform/contracts, consumed
    const { app, edge, routing } = published({ contractId: 'Gateway', version: '3.1.4', parameterPrefix: '/platform/contracts' });
    edge.consume(routing);

    // WHEN synthesized
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');

    // THEN it extracts /platform/contracts/cdn/gateway/v3 into the Secret cdn-gateway-interface
    expect(externalSecret.spec.dataFrom).toEqual([{ extract: { key: '/platform/contracts/cdn/gateway/v3' } }]);
    expect(externalSecret.spec.target).toEqual({ name: 'cdn-gateway-interface', creationPolicy: 'Owner' });
  });

  test('the ExternalSecret takes the namespace of the consuming chart by default', () => {
    // GIVEN a routing chart in namespace "edge"
    const { app, cdn, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    edge.consume(new RuntimeRouting(cdn, 'EdgeRouting', { namespace: 'edge' }));

    // WHEN synthesized
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');

    // THEN the ExternalSecret is in "edge"
    expect(externalSecret.metadata).toEqual({ name: 'cdn-edge-interface', namespace: 'edge', annotations: { 'cdk-capability.io/contract-version': '1.2.0' } });
  });

  test('the default ExternalSecret validates against the external-secrets.io/v1 CRD schema', () => {
    // GIVEN the contract consumed with the defaults
    const { app, edge, routing } = published();
    edge.consume(routing);
    const validate = externalSecretValidator();

    // WHEN its manifest is validated
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');
    const valid = validate(externalSecret);

    // THEN the schema accepts it
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('the ExternalSecret with every option validates against the external-secrets.io/v1 CRD schema', () => {
    // GIVEN every consume option
    const { app, edge, routing } = published();
    edge.consume(routing, { namespace: 'edge', secretStoreName: 'parameters', secretStoreKind: 'SecretStore', refreshInterval: '15m' });
    const validate = externalSecretValidator();

    // WHEN its manifest is validated
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');
    validate(externalSecret);

    // THEN the schema accepts it
    expect(validate.errors ?? []).toEqual([]);
  });

  test('the CRD schema validator rejects an ExternalSecret whose extract has no key (the validation is not vacuous)', () => {
    // GIVEN the rendered ExternalSecret with its extract key removed
    const { app, edge, routing } = published();
    edge.consume(routing);
    const [externalSecret] = manifestsOfKind(app.synthesize(), 'ExternalSecret');
    delete externalSecret.spec.dataFrom[0].extract.key;

    // WHEN validated
    const validate = externalSecretValidator();
    const valid = validate(externalSecret);

    // THEN the schema refuses it for the missing key
    expect(valid).toBe(false);
    expect(validate.errors?.map((e) => e.params)).toContainEqual({ missingProperty: 'key' });
  });

  test('a handle used as a cdk8s-plus env value reads the field from the bound Secret', () => {
    // GIVEN a Deployment whose container reads the origin through the handle
    const { app, edge, routing } = published();
    const values = edge.consume(routing);
    new kplus.Deployment(routing, 'Web', { containers: [{ image: 'web', envVariables: { ORIGIN: values.originDnsName.envValue() } }] });

    // WHEN synthesized
    const [deployment] = manifestsOfKind(app.synthesize(), 'Deployment');

    // THEN the container's env reads key originDnsName of the Secret cdn-edge-interface
    expect(deployment.spec.template.spec.containers[0].env).toEqual([
      { name: 'ORIGIN', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } },
    ]);
  });

  test('envVar returns the raw container env entry, named as asked', () => {
    // GIVEN the handles
    const { edge, routing } = published();
    const values = edge.consume(routing);

    // WHEN the raw entry is asked for under the name TENANT_HEADER
    const entry = values.tenantHeader.envVar('TENANT_HEADER');

    // THEN it reads key tenantHeader of the bound Secret
    expect(entry).toEqual({ name: 'TENANT_HEADER', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } });
  });

  test('envVar without a name uses the field name', () => {
    // GIVEN the handles
    const { edge, routing } = published();
    const values = edge.consume(routing);

    // WHEN the raw entry is asked for without a name
    const entry = values.tenantHeader.envVar();

    // THEN the variable is named after the field
    expect(entry).toEqual({ name: 'tenantHeader', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } });
  });

  test('a handle exposes a literal known at synth as its value', () => {
    // GIVEN tenantHeader published as the literal "x-tenant-id"
    const { edge, routing } = published();

    // WHEN its handle is read
    const value = edge.consume(routing).tenantHeader.value;

    // THEN the literal is there
    expect(value).toBe('x-tenant-id');
  });

  test('a handle of a field published as a deploy-time token has no value at synth', () => {
    // GIVEN originDnsName published as the distribution's domain name (a token)
    const { edge, routing } = published();

    // WHEN its handle is read
    const value = edge.consume(routing).originDnsName.value;

    // THEN the value is unknown at synth
    expect(value).toBeUndefined();
  });

  test('reading a handle records no reader; rendering it into a manifest does', () => {
    // GIVEN both handles read, and only originDnsName rendered into a Deployment
    const { app, edge, routing } = published();
    const values = edge.consume(routing);
    expect(values.tenantHeader.value).toBe('x-tenant-id');
    new kplus.Deployment(routing, 'Web', { containers: [{ image: 'web', envVariables: { ORIGIN: values.originDnsName.envValue() } }] });
    void values.tenantHeader.envVar(); // made, never rendered

    // WHEN synthesized
    const fields = app.synthesize().interface!.interfaces[0].fields;

    // THEN only the rendered handle has a consumer
    expect(fields).toEqual({
      originDnsName: { producedBy: ['cdn/Base'], consumedBy: ['cdn/Routing'], readBy: ['cdn/Routing/Web'] },
      tenantHeader: { producedBy: ['cdn/Base'], consumedBy: [], readBy: [] },
    });
  });

  test('publications and consumptions are read-only views: changing them changes nothing', () => {
    // GIVEN a published and consumed contract
    const { edge, routing } = published();
    edge.consume(routing);

    // WHEN a caller empties the lists it was given
    (edge.publications as unknown[]).length = 0;
    (edge.consumptions as unknown[]).length = 0;

    // THEN the contract still has its publication and consumer
    expect(edge.publications).toHaveLength(1);
    expect(edge.consumptions.map((c) => c.chart.node.path)).toEqual(['cdn/Routing']);
  });

  test('consuming twice in one chart gives working handles and still one ExternalSecret', () => {
    // GIVEN the chart consumes twice, each handle set feeding one variable
    const { app, edge, routing } = published();
    const first = edge.consume(routing);
    const second = edge.consume(routing);
    new kplus.Deployment(routing, 'Web', {
      containers: [{ image: 'web', envVariables: { ORIGIN: first.originDnsName.envValue(), HEADER: second.tenantHeader.envValue() } }],
    });

    // WHEN synthesized
    const result = app.synthesize();

    // THEN it is accepted, with one ExternalSecret and both variables read from its Secret
    expect(result.violations).toEqual([]);
    expect(manifestsOfKind(result, 'ExternalSecret').map((m) => m.metadata.name)).toEqual(['cdn-edge-interface']);
    const [deployment] = manifestsOfKind(result, 'Deployment');
    expect(deployment.spec.template.spec.containers[0].env).toEqual([
      { name: 'ORIGIN', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } },
      { name: 'HEADER', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'tenantHeader' } } },
    ]);
  });

  test('two charts in one namespace can both consume the contract', () => {
    // GIVEN the contract consumed by cdn/Routing and by the routing of capability web, both in the default namespace
    const { app, edge, routing } = published();
    edge.consume(routing).originDnsName.envVar();
    edge.consume(new RuntimeRouting(new Capability(app, 'web'), 'Routing')).tenantHeader.envVar();

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the composition is accepted (the library does not collide with its own ExternalSecret)
    expect(violations).toEqual([]);
  });

  test('one chart consuming in two namespaces binds the Secret in each, and each handle reads its own', () => {
    // GIVEN the routing chart consumes in team-a and team-b, a Deployment in each reading the origin
    const { app, edge, routing } = published();
    for (const namespace of ['team-a', 'team-b']) {
      const values = edge.consume(routing, { namespace });
      new kplus.Deployment(routing, `Web-${namespace}`, {
        metadata: { name: 'web', namespace },
        containers: [{ image: 'web', envVariables: { ORIGIN: values.originDnsName.envValue() } }],
      });
    }

    // WHEN synthesized
    const result = app.synthesize();

    // THEN it is accepted, with one ExternalSecret in each namespace, the second told apart by its namespace
    expect(result.violations).toEqual([]);
    expect(manifestsOfKind(result, 'ExternalSecret').map((m) => [m.metadata.namespace, m.metadata.name, m.spec.target.name])).toEqual([
      ['team-a', 'cdn-edge-interface', 'cdn-edge-interface'],
      ['team-b', 'cdn-edge-interface', 'cdn-edge-interface'],
    ]);
    expect(edge.consumptions.map((c) => [c.namespace, c.externalSecret.node.path])).toEqual([
      ['team-a', 'cdn/Routing/EdgeInterface'],
      ['team-b', 'cdn/Routing/EdgeInterface[team-b]'],
    ]);
    // THEN each Deployment reads the Secret of its own namespace
    expect(manifestsOfKind(result, 'Deployment').map((d) => [d.metadata.namespace, d.spec.template.spec.containers[0].env])).toEqual(['team-a', 'team-b'].map((namespace) => [
      namespace, [{ name: 'ORIGIN', valueFrom: { secretKeyRef: { name: 'cdn-edge-interface', key: 'originDnsName' } } }],
    ]));
  });

  test('consuming again in a namespace the chart already consumes in returns handles of that binding', () => {
    // GIVEN the routing chart consumes in team-a, team-b, then team-a again
    const { app, edge, routing } = published();
    edge.consume(routing, { namespace: 'team-a' });
    edge.consume(routing, { namespace: 'team-b' });
    edge.consume(routing, { namespace: 'team-a' }).originDnsName.envVar();

    // WHEN synthesized
    const result = app.synthesize();

    // THEN there are two bindings, not three
    expect(result.violations).toEqual([]);
    expect(manifestsOfKind(result, 'ExternalSecret').map((m) => m.metadata.namespace)).toEqual(['team-a', 'team-b']);
  });

  test('the written runtime output holds no unresolved aws-cdk token text', () => {
    // GIVEN a deploy-time value published and read by a Deployment through the contract
    const { app, edge, routing } = published();
    const values = edge.consume(routing);
    new kplus.Deployment(routing, 'Web', { containers: [{ image: 'web', envVariables: { ORIGIN: values.originDnsName.envValue() } }] });

    // WHEN synthesized and written
    app.synth();

    // THEN no runtime file contains "${Token["
    const runtimeDir = path.join(app.outdir, 'runtime');
    const files = fs.readdirSync(runtimeDir);
    expect(files.filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')).toHaveLength(1);
    for (const file of files) expect(fs.readFileSync(path.join(runtimeDir, file), 'utf-8')).not.toContain('${Token[');
  });
});

describe('plan: publication before consumption', () => {
  test('the publishing stack comes before the consuming runtime step, for the interface', () => {
    // GIVEN the contract published by the base and consumed by the routing chart
    const { app, edge, routing } = published();
    edge.consume(routing);

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN the routing step waits for the base, with the interface among the reasons
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Base', objects: undefined, dependsOn: [] },
      {
        id: 'cdn/Routing',
        objects: ['external-secrets.io/ExternalSecret cdn-edge-interface'],
        dependsOn: [{ step: 'cdn/Base', reasons: [DEPLOY_BEFORE_RUNTIME_REASON, INTERFACE_REASON] }],
      },
    ]);
  });

  test('a contract published by a tenant aggregate orders its consumers after that aggregate', () => {
    // GIVEN the contract published by tenant aggregate acme instead of the base, and consumed
    const { app, cdn, edge, routing } = edgeComposition();
    edge.publish(new DeploymentAggregate(cdn, 'acme'), { originDnsName: 'acme.example.com', tenantHeader: 'x-tenant-id' });
    edge.consume(routing);

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN the routing step waits for acme because of the interface
    expect(violations).toEqual([]);
    const routingStep = stepSummary(plan).find((s) => s.id === 'cdn/Routing')!;
    expect(routingStep.dependsOn).toContainEqual({ step: 'cdn/acme', reasons: [DEPLOY_BEFORE_RUNTIME_REASON, INTERFACE_REASON] });
  });

  test('a consumer chart in another capability waits for the publishing stack, for the interface only', () => {
    // GIVEN the contract of cdn consumed by the routing chart of capability web (which has no stacks)
    const { app, edge } = published();
    const webRouting = new RuntimeRouting(new Capability(app, 'web'), 'Routing');
    edge.consume(webRouting);

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN web/Routing depends on cdn/Base because of the interface
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Base', objects: undefined, dependsOn: [] },
      {
        id: 'web/Routing',
        objects: ['external-secrets.io/ExternalSecret cdn-edge-interface'],
        dependsOn: [{ step: 'cdn/Base', reasons: [INTERFACE_REASON] }],
      },
    ]);
  });

  test('a consumer chart in another capability is applied after the publishing stack even when declared first', () => {
    // GIVEN capability web, declared before cdn, consuming cdn's contract
    const app = newApp();
    const webRouting = new RuntimeRouting(new Capability(app, 'web'), 'Routing');
    const { edge } = published({ app });
    edge.consume(webRouting);

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN the publishing stack is the first step
    expect(stepIds(plan)).toEqual(['cdn/Base', 'web/Routing']);
  });
});
