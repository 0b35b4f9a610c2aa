import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as jsyaml from 'js-yaml';
import { validateManifest } from './k8s-schemas';
import { configMap, newApp, removeTempDirs, tempDir, widgetCrd } from './util';
import { Capability, RuntimeRouting } from '../src';
import { hasIdentity } from '../src/cli/runtime-files';
import { outputFolderOf } from '../src/render/outdir-safety';

afterAll(removeTempDirs);

/** Synthesizes a composition of one capability into a fresh outdir; returns the outdir. */
function synth(build: (routing: RuntimeRouting) => void): string {
  const outdir = path.join(tempDir(), 'dist');
  const app = newApp(outdir);
  build(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'));
  app.synth();
  return outdir;
}

/** The documents of `<outdir>/audit/objects.list`. */
function auditObjects(outdir: string): unknown[] {
  return jsyaml.loadAll(fs.readFileSync(path.join(outdir, 'audit', 'objects.list'), 'utf-8'));
}

/** A namespace-less ConfigMap, one in `shop`, the Namespace `shop`, and a Widget (namespaced CRD) without a namespace. */
function mixedNamespaces(routing: RuntimeRouting): void {
  configMap(routing, 'Plain', 'plain');
  new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  configMap(routing, 'InShop', 'in-shop', 'shop');
  widgetCrd(routing, 'WidgetCrd');
  new ApiObject(routing, 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } });
}

describe('audit/objects.list, the objects kubectl get -f reads for cdk-capability audit', () => {
  test('names every runtime object by identity alone, in apply order, with the namespace apply puts it in', () => {
    // GIVEN a composition that mixes a namespace-less ConfigMap, a ConfigMap in shop, a Namespace and a custom resource of a namespaced CRD
    // WHEN synthesized
    const outdir = synth(mixedNamespaces);

    // THEN each object is there once, in the order of the runtime files: a namespaced object that names no namespace is in
    // default (where apply puts it), a cluster-scoped one (the Namespace, the CRD) has none
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.steps.filter((s: { lifecycle: string }) => s.lifecycle === 'runtime').flatMap((s: { objects: string[] }) => s.objects)).toEqual([
      'Namespace shop',
      'apiextensions.k8s.io/CustomResourceDefinition widgets.example.com',
      'ConfigMap plain',
      'ConfigMap shop/in-shop',
      'example.com/Widget w1',
    ]);
    expect(auditObjects(outdir)).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: 'default' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'in-shop', namespace: 'shop' } },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' } },
    ]);
  });

  test('each document is a minimal object: apiVersion, kind and a metadata of name and namespace that the published schema accepts', () => {
    // GIVEN the output of the mixed composition
    const documents = auditObjects(synth(mixedNamespaces)) as Array<{ apiVersion: unknown; kind: unknown; metadata: Record<string, unknown> }>;

    // THEN each names its object as apply's reader requires, holds nothing else, and its metadata is a valid ObjectMeta
    // (checked through ConfigMap's published model, whose other fields are all optional: a CRD's requires a spec)
    expect(documents).toHaveLength(5);
    for (const d of documents) {
      expect(hasIdentity(d)).toBe(true);
      expect(Object.keys(d).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(Object.keys(d.metadata).filter((k) => k !== 'name' && k !== 'namespace')).toEqual([]);
      expect(() => validateManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: d.metadata })).not.toThrow();
    }
  });

  test('a custom resource of a cluster-scoped CRD of the composition names no namespace', () => {
    // GIVEN a Gadget whose CRD in the composition has spec.scope Cluster
    const outdir = synth((routing) => {
      new ApiObject(routing, 'GadgetCrd', {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'gadgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Cluster',
          names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
        },
      });
      new ApiObject(routing, 'Gadget', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } });
    });

    // THEN the Gadget is listed without a namespace
    expect(auditObjects(outdir)).toContainEqual({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } });
  });

  test('lies outside runtime/, so neither the kustomization nor a kubectl apply -f of the runtime folder takes it', () => {
    // GIVEN the output of the mixed composition
    const outdir = synth(mixedNamespaces);

    // WHEN the runtime folder and its kustomization are read
    const kustomization = jsyaml.load(fs.readFileSync(path.join(outdir, 'runtime', 'kustomization.yaml'), 'utf-8')) as { resources: string[] };

    // THEN the kustomization names the runtime files only, and the runtime folder holds no list of identities
    expect(kustomization.resources).toEqual(['0001-shop-routing-1.yaml', '0002-shop-routing-2.yaml']);
    expect(fs.readdirSync(path.join(outdir, 'runtime')).sort()).toEqual(['0001-shop-routing-1.yaml', '0002-shop-routing-2.yaml', 'kustomization.yaml']);
    expect(fs.readdirSync(path.join(outdir, 'audit'))).toEqual(['objects.list']);
  });

  test('starts with a comment that gives the command reading the live objects', () => {
    // GIVEN the output of a composition of one ConfigMap
    const outdir = synth((routing) => configMap(routing, 'Plain', 'plain'));

    // THEN the file is the comment and the ConfigMap's identity
    expect(fs.readFileSync(path.join(outdir, 'audit', 'objects.list'), 'utf-8')).toBe([
      '# The identity of every runtime object, for: kubectl get -f <outdir>/audit/objects.list --ignore-not-found -o json --show-managed-fields | npx cdk-capability audit',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"plain","namespace":"default"}}',
      '',
    ].join('\n'));
  });

  test('is our own output: the marker lists it, and its folder is known as an output folder of ours', () => {
    // GIVEN the output of a composition of one ConfigMap
    const outdir = synth((routing) => configMap(routing, 'Plain', 'plain'));

    // THEN the marker lists the file, a second synth into the outdir replaces it, and the file's output folder is the outdir
    // (the cdk8s CLI hands every .yaml under the outdir to the validation plugin, which skips a CapabilityApp's output)
    expect(JSON.parse(fs.readFileSync(path.join(outdir, '.cdk-capability-output'), 'utf-8')).files).toContain('audit/objects.list');
    const again = newApp(outdir);
    configMap(new RuntimeRouting(new Capability(again, 'shop'), 'Routing'), 'Other', 'other');
    again.synth();
    expect(auditObjects(outdir)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'default' } }]);
    expect(outputFolderOf(path.join(outdir, 'audit', 'objects.list'))).toBe(outdir);
  });

  test('a composition without runtime objects writes no audit/ folder, as it writes no runtime/ folder', () => {
    // GIVEN a composition of one empty capability
    const outdir = path.join(tempDir(), 'dist');
    const app = newApp(outdir);
    new Capability(app, 'shop');

    // WHEN synthesized
    app.synth();

    // THEN neither folder is written
    expect(fs.readdirSync(outdir).filter((e) => e === 'audit' || e === 'runtime')).toEqual([]);
  });
});
