import * as fs from 'fs';
import * as path from 'path';
import { loadSnippet, pageSection } from './doc-snippets';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const README = path.join(__dirname, '..', 'README.md');

/** Runs a README snippet as a user's main.ts, with CDK8S_OUTDIR a fresh folder; returns that folder. */
function synthesized(snippet: Parameters<typeof loadSnippet>[0]): string {
  const outdir = path.join(tempDir(), 'dist');
  const saved = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = outdir;
  try {
    loadSnippet(snippet);
  } finally {
    if (saved === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = saved;
  }
  return outdir;
}

describe("the README's example", () => {
  test('synthesizes, and every stack it declares has a resource: CloudFormation refuses an empty template (F0001)', () => {
    // GIVEN (a user trial: the tenant stacks were empty, and aws-cdk's validator warned twice on the first run)
    const [example] = pageSection(README, 'Example').snippets;

    // WHEN
    const outdir = synthesized(example);

    // THEN each template in the cloud assembly holds a resource
    const deploy = path.join(outdir, 'deploy');
    const templates = fs.readdirSync(deploy, { recursive: true }).map(String).filter((f) => f.endsWith('.template.json')).sort();
    const resources = templates.map((f) => [path.basename(f), Object.keys(JSON.parse(fs.readFileSync(path.join(deploy, f), 'utf-8')).Resources ?? {}).length]);
    expect(resources.map(([file]) => file)).toEqual(['cdnBase4FF4A8ED.template.json', 'cdnacmeD7429117.template.json', 'cdnglobexAAAB4177.template.json']);
    expect(resources.filter(([, n]) => n === 0)).toEqual([]);
  });
});

describe("the README's runtime-only example", () => {
  test('synthesizes as written: one Deployment and its Service, in apply order, and nothing for aws-cdk', () => {
    // GIVEN the snippet a user copies from "Adopting it in an existing app" (cdk-capability/runtime)
    const [example] = pageSection(README, 'Adopting it in an existing app').snippets;

    // WHEN
    const outdir = synthesized(example);

    // THEN the runtime holds the backend's objects, a Service before its Deployment, and there is no cloud assembly
    const runtime = path.join(outdir, 'runtime');
    const files = fs.readdirSync(runtime).filter((f) => f !== 'kustomization.yaml');
    const kinds = files.flatMap((f) => [...fs.readFileSync(path.join(runtime, f), 'utf-8').matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]));
    expect(kinds).toEqual(['Service', 'Deployment']);
    expect(fs.existsSync(path.join(outdir, 'deploy'))).toBe(false);
  });
});
