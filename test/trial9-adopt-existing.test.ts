import * as fs from 'fs';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import { Include } from 'cdk8s';
import * as jsyaml from 'js-yaml';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { pageSection } from './doc-snippets';
import { validateManifest } from './k8s-schemas';
import { removeTempDirs, synthExample, tempDir } from './util';
import { Capability, CapabilityApp, CapabilityTesting, RuntimeRouting } from '../src';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'adopt-existing');
const ADOPTION = path.join(ROOT, 'docs', 'adoption.md');

/** The logical ids the real `cdk synth` gave OrdersStack as a plain aws-cdk `Stack` under a plain `App`, before the move. */
const PLAIN_CDK_LOGICAL_IDS: Record<string, string> = {
  OrdersA9B65338: 'AWS::SQS::Queue',
  OrdersTable315BB997: 'AWS::DynamoDB::Table',
  HandlerServiceRoleFCDC14AE: 'AWS::IAM::Role',
  HandlerServiceRoleDefaultPolicyCBD0CC91: 'AWS::IAM::Policy',
  Handler886CB40B: 'AWS::Lambda::Function',
  Reports65402A0A: 'AWS::S3::Bucket',
  EndpointEEF1FD8F: 'AWS::SSM::Parameter',
};

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: any;
};

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1 StatefulSet': StatefulSet,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 CronJob': CronJob,
  'networking.k8s.io/v1 Ingress': Ingress,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'rbac.authorization.k8s.io/v1 Role': Role,
  'rbac.authorization.k8s.io/v1 RoleBinding': RoleBinding,
};

function identity(m: Manifest): string {
  return `${m.apiVersion} ${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
}

describe('examples/adopt-existing: a folder of YAML and a cdk deploy app in one capability', () => {
  let outdir: string;
  let objects: Manifest[];
  beforeAll(() => {
    outdir = synthExample('adopt-existing');
    const runtime = path.join(outdir, 'runtime');
    objects = fs.readdirSync(runtime).filter((f) => /^\d{4}-/.test(f)).sort()
      .flatMap((f) => jsyaml.loadAll(fs.readFileSync(path.join(runtime, f), 'utf-8')) as Manifest[]);
  });

  test('every object still in the YAML is written with the fields of its document, and the ConfigMap with the key its patch adds', () => {
    // GIVEN the documents of k8s/
    const documents = ['namespace.yaml', 'crd.yaml', 'app.yaml']
      .flatMap((f) => jsyaml.loadAll(fs.readFileSync(path.join(EXAMPLE, 'k8s', f), 'utf-8')) as Manifest[]);
    const written = new Map(objects.map((o) => [identity(o), o]));

    // THEN each is written as its document holds it
    expect(documents.map(identity).filter((id) => !written.has(id))).toEqual([]);
    for (const d of documents) {
      const expected = d.kind === 'ConfigMap' ? { ...d, data: { ...d.data, REGION: 'eu-west-1' } } : d;
      expect(written.get(identity(d))).toEqual(expected);
    }
  });

  test('every built-in object is valid against the published Kubernetes schemas, the claim template with its storage request', () => {
    const problems: string[] = [];
    for (const o of objects.filter((m) => m.apiVersion !== 'acme.example.com/v1')) {
      try {
        const model = MODELS[`${o.apiVersion} ${o.kind}`];
        if (model) new model(o).validate();
        else validateManifest(o);
      } catch (e) {
        problems.push(`${identity(o)}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    const db = objects.find((o) => o.kind === 'StatefulSet')!;
    expect(db.spec.volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } }]);
    expect(db.spec.template.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/var/lib/postgresql/data', name: 'data' }]);
  });

  test('the moved workloads keep the selectors they had, and the autoscaled Deployment has no replicas', () => {
    const byKindName = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    expect(byKindName('Deployment', 'orders').spec.selector).toEqual({ matchLabels: { app: 'orders' } });
    expect(byKindName('Deployment', 'orders').spec.replicas).toBeUndefined();
    expect(byKindName('StatefulSet', 'orders-db').spec.selector).toEqual({ matchLabels: { app: 'orders-db' } });
    expect(byKindName('Service', 'orders').spec.selector).toEqual({ app: 'orders' });
    expect(byKindName('Deployment', 'orders').spec.template.spec.automountServiceAccountToken).toBe(true);
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.runtimeWriters.map((w: { writer: string; fields: string[] }) => [w.writer, w.fields])).toEqual([['shop/Routing/Autoscaler', ['spec.replicas']]]);
  });

  test('the base stack keeps its deployed name and the logical ids of the plain aws-cdk stack; tenants take the prefix', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'deploy', 'manifest.json'), 'utf-8'));
    type Artifact = { type: string; displayName?: string; properties?: { stackName?: string; templateFile?: string } };
    const artifacts = Object.values(manifest.artifacts as Record<string, Artifact>);
    const stacks = artifacts
      .filter((a) => a.type === 'aws:cloudformation:stack')
      .map((a) => [a.displayName, a.properties?.stackName]);
    expect(stacks).toEqual([['shop/Orders', 'Orders'], ['shop/acme', 'shop-acme'], ['shop/globex', 'shop-globex']]);

    const base = artifacts.find((a) => a.displayName === 'shop/Orders')!;
    const template = JSON.parse(fs.readFileSync(path.join(outdir, 'deploy', base.properties!.templateFile!), 'utf-8'));
    const types = Object.fromEntries(Object.entries(template.Resources as Record<string, { Type: string }>).map(([id, r]) => [id, r.Type]));
    expect(types).toEqual(expect.objectContaining(PLAIN_CDK_LOGICAL_IDS));
    Template.fromJSON(template).hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1209600, VisibilityTimeout: 60 });
  });
});

describe('docs/adoption.md, section 5', () => {
  test('each code block is what examples/adopt-existing holds', () => {
    // GIVEN the section's TypeScript blocks and its cdk.json
    const { snippets } = pageSection(ADOPTION, '5. From a folder of YAML');
    const program = fs.readFileSync(path.join(EXAMPLE, 'main.ts'), 'utf-8');
    const json = /```json\n([\s\S]*?)```/.exec(fs.readFileSync(ADOPTION, 'utf-8').split(/^## /m).find((p) => p.startsWith('5. '))!)![1];

    // THEN each block is a run of lines of the example's program, and the cdk.json is the example's
    expect(snippets.length).toBe(3);
    for (const snippet of snippets) expect(program).toContain(snippet);
    expect(JSON.parse(json)).toEqual(JSON.parse(fs.readFileSync(path.join(EXAMPLE, 'cdk.json'), 'utf-8')));
  });

  test('the refusal it describes: an included Deployment with replicas that an autoscaler scales, named by its construct path', () => {
    // GIVEN the YAML as it ran before, included
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new Include(routing, 'App', { url: path.join(__dirname, 'fixtures', 'trial9', 'hpa-replicas.yaml') });

    // WHEN it is synthesized
    const result = CapabilityTesting.synth(app);

    // THEN the replicas are refused, the included Deployment named as section 5 says
    expect(result.violations.map((v) => [v.code, v.paths])).toEqual([['CAP002', ['shop/Routing/App/orders-deployment-shop', 'shop/Routing/App/orders-horizontalpodautoscaler-shop']]]);
    expect(result.violations[0].message).toMatch(/^field conflict: autoscaling\/HorizontalPodAutoscaler shop\/orders declared by 'shop\/Routing\/App\/orders-horizontalpodautoscaler-shop' scales apps\/Deployment shop\/orders, whose spec.replicas 'shop\/Routing\/App\/orders-deployment-shop' writes \(2\)/);
  });

  test('what it says Include does not do that kubectl apply -f did: a List is refused (test/adopt2-include.test.ts), and no namespace is default', () => {
    // GIVEN a List document and a document without a namespace, included
    const outdir = path.join(tempDir(), 'dist');
    const app = new CapabilityApp({ outdir, builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new Include(routing, 'App', { url: path.join(__dirname, 'fixtures', 'trial9', 'list-and-no-namespace.yaml') });
    const listless = new CapabilityApp({ outdir, builtinCloudFormationValidation: false });
    const only = new Include(new RuntimeRouting(new Capability(listless, 'shop'), 'Routing'), 'App', { url: path.join(__dirname, 'fixtures', 'trial9', 'list-and-no-namespace.yaml') });
    only.node.tryRemoveChild(only.apiObjects.find((o) => o.kind === 'List')!.node.id);

    // WHEN each is synthesized
    // THEN the List is refused, naming its file; without it, the ConfigMap is the one in default
    expect(() => app.synth()).toThrow(/CAP010 invalid object: 'shop\/Routing\/App\/object0-list' is a List of 1 item in the file '.*list-and-no-namespace.yaml' \(read by an Include\)/);
    listless.synth();
    const identities = fs.readFileSync(path.join(outdir, 'audit', 'objects.list'), 'utf-8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(identities).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } }]);
  });
});
