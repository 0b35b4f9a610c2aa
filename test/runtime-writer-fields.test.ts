import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { APP1, APPLICATION_DEPLOYMENT_CRD, NETOP } from './enforcement/fixtures';

const WEB = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
};

/** The violations of a composition with the ApplicationDeployment (its CRD in the composition unless `withCrd` is false), a Deployment, and one runtime writer. */
function violationsOf(target: 'app1' | 'web' | { apiVersion: string; kind: string }, fields: string[], withCrd = true): string[] {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  if (withCrd) new ApiObject(routing, 'Crd', APPLICATION_DEPLOYMENT_CRD);
  const app1 = new ApiObject(routing, 'App1', APP1);
  const web = new ApiObject(routing, 'Web', WEB);
  new RuntimeWriter(routing, 'NetOp', { target: target === 'app1' ? app1 : target === 'web' ? web : target, fields, identity: NETOP });
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

const CRD_SCHEMA = "the schema of its CRD 'applicationdeployments.apps.example.com'";

describe('a runtime writer field the schema does not have is CAP010', () => {
  test.each<[string, string, string]>([
    ['spec.domain', 'spec has no field "domain" (it has applicationId, domains, entityConfigurations, image, routeTables, timers)', CRD_SCHEMA],
    ['spec.timers.publishTimeout.seconds', 'spec.timers.publishTimeout is a scalar: it has nothing below it', CRD_SCHEMA],
    ['spec.entityConfigurations[id=orders].replicas', 'the elements of spec.entityConfigurations are keyed by name, but spec.entityConfigurations[id=orders] gives id', CRD_SCHEMA],
    ['spec.routeTables[name=main]', 'spec.routeTables is an atomic list, one leaf: write spec.routeTables, not an element by key', CRD_SCHEMA],
    ['spec.entityConfigurations.replicas', 'spec.entityConfigurations is a list: write an element of it by its key (name), not the field "replicas"', CRD_SCHEMA],
    ['spec.entityConfigurations[name=2024].replicas', 'the key name of the elements of spec.entityConfigurations is a string, but this path gives it the number 2024 (quote it: name="2024")', CRD_SCHEMA],
    ['spec.domains[=true]', 'the values of the set spec.domains are strings, but this path gives true (quote it: [="true"])', CRD_SCHEMA],
    ['spec.entityConfigurations[name="2024"].region.zone', 'spec.entityConfigurations[name="2024"].region is a scalar: it has nothing below it', CRD_SCHEMA],
    ['metadata.label.team', 'metadata has no field "label" (it has annotations, creationTimestamp, deletionGracePeriodSeconds, deletionTimestamp, finalizers, generateName, generation, labels, managedFields, name, namespace, ownerReferences, resourceVersion, selfLink, uid)', CRD_SCHEMA],
  ])('%s of the custom resource', (field, problem, schema) => {
    expect(violationsOf('app1', [field])).toEqual([
      `CAP010 invalid object: 'platform/Routing/NetOp' writes ${JSON.stringify(field)} of apps.example.com/ApplicationDeployment apps/app1, which ${schema} does not have: ${problem}. Write a field the schema has.`,
    ]);
  });

  test.each<[string, string]>([
    ['spec.replica', 'spec has no field "replica" (it has minReadySeconds, paused, progressDeadlineSeconds, replicas, revisionHistoryLimit, selector, strategy, template)'],
    ['spec.selector.matchLabels.app', 'spec.selector is atomic, one leaf: write spec.selector'],
    ['metadata.finalizers[name=x]', 'metadata.finalizers is a set (write a value as [=value]), not an element by key'],
    [
      'spec.template.spec.containers[name=web].ports[containerPort="8080"].name',
      'the key containerPort of the elements of spec.template.spec.containers[name=web].ports is a number, but this path gives it the string "8080" (leave the quotes out: containerPort=8080)',
    ],
    ['metadata.finalizers[=1]', 'the values of the set metadata.finalizers are strings, but this path gives the number 1 (quote it: [="1"])'],
  ])('%s of a built-in kind', (field, problem) => {
    expect(violationsOf('web', [field])).toEqual([
      `CAP010 invalid object: 'platform/Routing/NetOp' writes ${JSON.stringify(field)} of apps/Deployment shop/web, which Kubernetes 1.30's schema does not have: ${problem}. Write a field the schema has.`,
    ]);
  });

  test('a runtime writer of every object of a kind is named so', () => {
    expect(violationsOf({ apiVersion: 'apps/v1', kind: 'Deployment' }, ['spec.replicass'])).toEqual([
      expect.stringMatching(/^CAP010 invalid object: 'platform\/Routing\/NetOp' writes "spec\.replicass" of every apps\/Deployment, which Kubernetes 1\.30's schema does not have: spec has no field "replicass"/),
    ]);
  });
});

describe('fields the schema has are accepted', () => {
  test.each([
    ['app1', ['spec.domains', 'spec.routeTables', 'spec.entityConfigurations[name=audit].region', 'spec.entityConfigurations[name="2024"].region', 'metadata.labels.team', 'metadata.finalizers[=netop.example.com/cleanup]']],
    ['web', ['spec.replicas', 'spec.template.spec.containers[name=sidecar].image', 'spec.template.spec.containers[name=web].ports[containerPort=8080].name', 'metadata.annotations["example.com/x"]']],
  ] as const)('on %s', (target, fields) => {
    expect(violationsOf(target, [...fields])).toEqual([]);
  });

  test('a custom resource whose CRD is not in the composition takes any field', () => {
    expect(violationsOf('app1', ['spec.anything.at[name=all]'], false)).toEqual([]);
  });
});

test('docs/errors.md quotes the message exactly', () => {
  const documented = fs.readFileSync(path.join(__dirname, '..', 'docs', 'errors.md'), 'utf-8').split('\n').filter((l) => l.startsWith("> CAP010 invalid object: 'platform/Routing/NetOp' writes"));
  expect(documented).toEqual(violationsOf('app1', ['spec.domain']).map((v) => `> ${v}`));
});
