import * as fs from 'fs';
import * as path from 'path';
import * as jsyaml from 'js-yaml';
import { removeTempDirs, synthExample } from './util';
import { AUDIT_USAGE } from '../src/cli/audit';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');

/** The Markdown pages users read: the README, docs/ and each example's README. */
function pages(): string[] {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).map((e) => path.join('examples', e, 'README.md')).filter((f) => fs.existsSync(path.join(ROOT, f)));
  return ['README.md', ...docs, ...examples];
}

/**
 * Each command line of the pages (in a code block or a workflow's `run:`) and of `audit --help` that runs
 * `kubectl get` on the output of a synth (`dist/runtime` or `dist/audit`), with where it is.
 */
function outputReads(): Array<{ where: string; line: string }> {
  const texts = [...pages().map((f) => ({ where: f, text: fs.readFileSync(path.join(ROOT, f), 'utf-8') })), { where: 'cdk-capability audit --help', text: AUDIT_USAGE }];
  return texts.flatMap(({ where, text }) => text.split('\n').filter((l) => /^\s*(\{\s*|run:\s*)?kubectl get .*dist\/(runtime|audit)/.test(l)).map((line) => ({ where, line: line.trim() })));
}

describe('the documented command that reads the live objects of a release', () => {
  test('reads the identities in dist/audit/objects.list (get -f), without -n, never the runtime folder (get -k or -f)', () => {
    // GIVEN every documented kubectl get of a synth's output
    const reads = outputReads();
    expect(reads.map((r) => r.where)).toEqual(expect.arrayContaining(['docs/cluster.md', 'docs/ci.md', 'docs/enforcement.md', 'cdk-capability audit --help']));

    // THEN each is `kubectl get -f dist/audit/objects.list`, which names each object's namespace: the runtime folder
    // through its kustomization with -n default refuses an object of another namespace, and without it reads a
    // namespace-less object in the context's namespace; -n would refuse the list's objects of other namespaces
    for (const r of reads) {
      expect(r).toEqual({ where: r.where, line: expect.stringMatching(/kubectl get -f dist\/audit\/objects\.list --ignore-not-found -o (json|yaml) --show-managed-fields/) });
    }
    expect(reads.filter((r) => /dist\/runtime| -n |--namespace/.test(r.line))).toEqual([]);
  });

  test("the runtime folder's kustomization lists exactly the runtime files of the plan, so apply -k applies exactly the release's objects", () => {
    // GIVEN the CDN example's output
    const outdir = synthExample('cdn');
    const runtime = path.join(outdir, 'runtime');
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));

    // WHEN the kustomization is read
    const kustomization = jsyaml.load(fs.readFileSync(path.join(runtime, 'kustomization.yaml'), 'utf-8')) as { kind: string; resources: string[] };

    // THEN its resources are the plan's runtime files, in apply order, and every other file of the folder
    const planned = plan.steps.filter((s: { lifecycle: string }) => s.lifecycle === 'runtime').flatMap((s: { files: string[] }) => s.files.map((f) => path.basename(f)));
    expect(kustomization.kind).toBe('Kustomization');
    expect(kustomization.resources).toEqual(planned);
    expect(fs.readdirSync(runtime).filter((f) => f !== 'kustomization.yaml').sort()).toEqual([...planned].sort());
  });

  test("audit/objects.list names exactly the objects of the plan's runtime steps, in apply order, each in its namespace", () => {
    // GIVEN the CDN example's output
    const outdir = synthExample('cdn');
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));

    // WHEN the list is read
    const listed = jsyaml.loadAll(fs.readFileSync(path.join(outdir, 'audit', 'objects.list'), 'utf-8')) as Array<{ apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }>;

    // THEN it is the plan's runtime objects, as the plan describes them (a namespaced object of the example names its namespace)
    const planned = plan.steps.filter((s: { lifecycle: string }) => s.lifecycle === 'runtime').flatMap((s: { objects: string[] }) => s.objects);
    const group = (apiVersion: string) => (apiVersion.includes('/') ? `${apiVersion.slice(0, apiVersion.indexOf('/'))}/` : '');
    expect(listed.map((d) => `${group(d.apiVersion)}${d.kind} ${d.metadata.namespace ? `${d.metadata.namespace}/` : ''}${d.metadata.name}`)).toEqual(planned);
  });
});
