import * as fs from 'fs';
import * as path from 'path';
import { loadSnippet, pageSection } from './doc-snippets';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const README = path.join(__dirname, '..', 'README.md');

describe("the README's example", () => {
  test('synthesizes, and every stack it declares has a resource: CloudFormation refuses an empty template (F0001)', () => {
    // GIVEN (a user trial: the tenant stacks were empty, and aws-cdk's validator warned twice on the first run)
    const [example] = pageSection(README, 'Example').snippets;
    const outdir = path.join(tempDir(), 'dist');
    const saved = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = outdir;

    // WHEN
    try {
      loadSnippet(example);
    } finally {
      if (saved === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = saved;
    }

    // THEN each template in the cloud assembly holds a resource
    const deploy = path.join(outdir, 'deploy');
    const templates = fs.readdirSync(deploy, { recursive: true }).map(String).filter((f) => f.endsWith('.template.json')).sort();
    const resources = templates.map((f) => [path.basename(f), Object.keys(JSON.parse(fs.readFileSync(path.join(deploy, f), 'utf-8')).Resources ?? {}).length]);
    expect(resources.map(([file]) => file)).toEqual(['cdnBase4FF4A8ED.template.json', 'cdnacmeD7429117.template.json', 'cdnglobexAAAB4177.template.json']);
    expect(resources.filter(([, n]) => n === 0)).toEqual([]);
  });
});
