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
 * `kubectl get` on the runtime folder, with where it is.
 */
function runtimeReads(): Array<{ where: string; line: string }> {
  const texts = [...pages().map((f) => ({ where: f, text: fs.readFileSync(path.join(ROOT, f), 'utf-8') })), { where: 'cdk-capability audit --help', text: AUDIT_USAGE }];
  return texts.flatMap(({ where, text }) => text.split('\n').filter((l) => /^\s*(run:\s*)?kubectl get .*dist\/runtime/.test(l)).map((line) => ({ where, line: line.trim() })));
}

describe('the documented command that reads the live objects of a release', () => {
  test('reads dist/runtime through its kustomization (get -k), never the folder as files (get -f), which holds kustomization.yaml', () => {
    // GIVEN every documented kubectl get of the runtime folder
    const reads = runtimeReads();
    expect(reads.map((r) => r.where)).toEqual(expect.arrayContaining(['docs/cluster.md', 'docs/ci.md', 'cdk-capability audit --help']));

    // THEN each is `kubectl get -k dist/runtime`: `-f` would send kustomization.yaml to the API server as an object;
    // with -n default, which reads a namespace-less object where apply put it, not in kubectl's context's namespace
    for (const r of reads) expect(r).toEqual({ where: r.where, line: expect.stringMatching(/kubectl get -k dist\/runtime -n default --ignore-not-found -o (json|yaml) --show-managed-fields/) });
    expect(reads.filter((r) => /get -f |-R\b/.test(r.line))).toEqual([]);
  });

  test("the runtime folder's kustomization lists exactly the runtime files of the plan, so get -k reads exactly the release's objects", () => {
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
});
