import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import { HANG_GUARD_MS, NODE_TS_COMMAND, removeTempDirs, tempDir } from './util';

// An app adopted from `cdk deploy` keeps its cdk.json, whose "app" is the program. The AWS CDK CLI starts it with
// CDK_OUTDIR (its output folder, cdk.out) and reads the cloud assembly from there; a CapabilityApp wrote it only
// into dist/deploy, so `cdk synth` ended with "ENOENT: no such file or directory, open 'cdk.out/manifest.json'".

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const PROGRAM = path.join(__dirname, 'fixtures', 'adopt2', 'cdk-deploy-app.ts');
const CDK = path.join(ROOT, 'node_modules', '.bin', 'cdk');

/** Runs the real AWS CDK CLI in `cwd` with no network (proxies that refuse every connection), notices and version check off. */
function cdk(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    https_proxy: 'http://127.0.0.1:9',
    http_proxy: 'http://127.0.0.1:9',
  };
  delete env.CDK8S_OUTDIR;
  delete env.CDK_OUTDIR;
  delete env.CDK_CONTEXT_JSON;
  const result = spawnSync(CDK, [...args, '--no-notices'], { cwd, env, encoding: 'utf-8', timeout: HANG_GUARD_MS - 5_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A folder with the cdk.json of an aws-cdk app, its "app" the program. */
function appFolder(cdkJson: Record<string, unknown> = {}): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: `${NODE_TS_COMMAND} ${JSON.stringify(PROGRAM)}`, ...cdkJson }));
  return dir;
}

describe('the AWS CDK CLI running a CapabilityApp program (cdk.json "app" the program)', () => {
  let dir: string;
  let synth: ReturnType<typeof cdk>;
  beforeAll(() => {
    dir = appFolder();
    synth = cdk(dir, 'synth');
  }, HANG_GUARD_MS);

  test('cdk synth exits 0 and prints the stack, where it ended with ENOENT cdk.out/manifest.json', () => {
    expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('ENOENT') });
    expect(synth.stdout).toMatch(/^Resources:\n {2}Orders[0-9A-F]{8}:\n {4}Type: AWS::SQS::Queue\n/);
  });

  test('the cloud assembly in cdk.out is the one synth wrote into dist/deploy, file for file', () => {
    const files = (folder: string) => fs.readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
    const written = path.join(dir, 'dist', 'deploy');
    expect(files(path.join(dir, 'cdk.out'))).toEqual(files(written));
    for (const f of files(written)) expect(fs.readFileSync(path.join(dir, 'cdk.out', f), 'utf-8')).toBe(fs.readFileSync(path.join(written, f), 'utf-8'));
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'cdk.out', 'manifest.json'), 'utf-8'));
    const stack = Object.values<any>(manifest.artifacts).find((a) => a.type === 'aws:cloudformation:stack');
    expect([stack.displayName, stack.properties.stackName]).toEqual(['shop/Orders', 'Orders']);
    Template.fromJSON(JSON.parse(fs.readFileSync(path.join(dir, 'cdk.out', stack.properties.templateFile), 'utf-8'))).resourceCountIs('AWS::SQS::Queue', 1);
  });

  test('the release is written to dist as under cdk8s synth: plan, runtime and the marker', () => {
    expect(fs.readdirSync(path.join(dir, 'dist')).sort()).toEqual(['.cdk-capability-output', 'audit', 'deploy', 'interface.json', 'plan.json', 'runtime']);
  });

  test('cdk ls runs the program again and lists the stack by its path and deployed name', () => {
    const ls = cdk(dir, 'ls');
    expect({ status: ls.status, stdout: ls.stdout }).toEqual({ status: 0, stdout: 'shop/Orders (Orders)\n' });
  }, HANG_GUARD_MS);
});

test('an "output" of cdk.json that is the outdir is refused with CAP011 naming what to write in cdk.json, and nothing is written', () => {
  // GIVEN a cdk.json whose output folder is dist, the CapabilityApp's outdir
  const dir = appFolder({ output: 'dist' });

  // WHEN the CLI runs the program
  const run = cdk(dir, 'synth');

  // THEN the program refuses before it writes, and the CLI fails
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain(
    'CAP011 output not written: the AWS CDK CLI runs this app with the output folder \'dist\' (CDK_OUTDIR: cdk.json\'s "output", or --output), which is the outdir \'dist\': '
    + 'the CLI reads the cloud assembly at the top of its folder, and synth replaces the outdir as a whole. Nothing was changed. '
    + 'Give the CLI a folder of its own: remove "output" from cdk.json (the CLI then uses cdk.out), or point the outdir (the outdir prop, or CDK8S_OUTDIR) elsewhere.',
  );
  expect(fs.readdirSync(path.join(dir, 'dist')).filter((f) => !f.endsWith('.lock'))).toEqual([]);
}, HANG_GUARD_MS);
