import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
const CLI_TIMEOUT = 60_000;

interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `cdk8s synth --output <outdir>` in `cwd`, as a user would. The CLI
 * passes the outdir to the app as `CDK8S_OUTDIR`. `--no-check-upgrade` keeps
 * the CLI off the network (it would query the npm registry for a newer version).
 */
function cdk8sSynth(cwd: string, outdir: string): CliRun {
  const env = { ...process.env };
  delete env.CDK8S_OUTDIR;
  const run = spawnSync(CDK8S, ['synth', '--output', outdir, '--no-check-upgrade'], { cwd, env, encoding: 'utf-8', timeout: CLI_TIMEOUT - 5_000 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('cdk8s synth of examples/crd-order (the CRD-before-CR demonstration)', () => {
  let run: CliRun;
  let outdir: string;

  beforeAll(() => {
    outdir = path.join(tempDir(), 'dist');
    run = cdk8sSynth(path.join(ROOT, 'examples', 'crd-order'), outdir);
  }, CLI_TIMEOUT);

  test('exits with code 0', () => {
    // (the exit code and stderr together, so a failure shows why)
    expect(`exit ${run.status}\n${run.stderr}`).toMatch(/^exit 0\n/);
  });

  test('writes plan.json into the outdir the CLI passes as CDK8S_OUTDIR', () => {
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.steps.map((s: { id: string }) => s.id)).toEqual(['cdn/Base', 'cdn/acme', 'cdn/globex', 'cdn/Routing#1', 'cdn/Routing#2']);
  });

  test('the first runtime file applies the CustomResourceDefinition, then the Namespace', () => {
    // GIVEN the example declares the custom resource first and the CRD and Namespace last
    const runtime = fs.readdirSync(path.join(outdir, 'runtime')).sort();
    expect(runtime[0]).toMatch(/^0001-.*\.yaml$/);

    // WHEN the first runtime file is read
    const docs = parseAllDocuments(fs.readFileSync(path.join(outdir, 'runtime', runtime[0]), 'utf-8')).map((d) => d.toJS());

    // THEN its documents are the CRD and the Namespace, in that order
    expect(docs.map((d) => `${d.kind} ${d.metadata.name}`)).toEqual(['CustomResourceDefinition tenantroutes.routing.cdn.example.com', 'Namespace edge']);
  });

  test('the CLI lists every .yaml under the outdir as a manifest, kustomization.yaml included (documents cdk8s-cli)', () => {
    // cdk8s-cli walks the outdir for *.yaml in directory order; the app's own stdout is swallowed.
    const [first, ...listed] = run.stdout.trimEnd().split('\n');
    expect(first).toBe('Synthesizing application');
    expect(listed.sort()).toEqual([
      `  - ${outdir}/runtime/0001-cdn-routing-1.yaml`,
      `  - ${outdir}/runtime/0002-cdn-routing-2.yaml`,
      `  - ${outdir}/runtime/kustomization.yaml`,
    ]);
  });
});

describe('cdk8s synth of a refused composition (test/fixtures/cycle-app)', () => {
  let run: CliRun;
  let outdir: string;

  beforeAll(() => {
    // A previous output in the outdir, to see what the CLI does with it.
    outdir = path.join(tempDir(), 'dist');
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, 'plan.json'), '{"previous":true}\n');
    run = cdk8sSynth(path.join(__dirname, 'fixtures', 'cycle-app'), outdir);
  }, CLI_TIMEOUT);

  test('exits with a non-zero code', () => {
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
  });

  test('reports CAP004 with the full cycle path', () => {
    expect(run.stderr).toContain('CAP004 dependency cycle: cdn/R/a => cdn/R/b => cdn/R/a.');
  });

  test('the app\'s own report carries no stack trace', () => {
    // GIVEN the output up to where the CLI reports the failed command
    const combined = run.stdout + run.stderr;
    const appReport = combined.slice(0, combined.indexOf('Error: command "'));

    // THEN it holds the refusal and no "    at ..." frame
    expect(appReport).toContain('The composition was refused with 1 violation:');
    expect(appReport).not.toMatch(/^\s+at /m);
  });

  test('cdk8s-cli follows the report with its own error and a stack trace into cdk8s-cli (documents cdk8s-cli)', () => {
    // The app cannot avoid this: the CLI turns any non-zero exit of the app into an
    // Error and prints its stack (cdk8s-cli lib/cli/index.js: console.error(e.stack)).
    const combined = run.stdout + run.stderr;
    const cliReport = combined.slice(combined.indexOf('Error: command "'));
    expect(cliReport).toMatch(
      /^Error: command "npx ts-node --transpile-only main\.ts " at .*cycle-app returned a non-zero exit code 1\n {4}at ChildProcess\.<anonymous> \(.*cdk8s-cli\/lib\/util\.js:\d+:\d+\)\n/,
    );
  });

  test('cdk8s-cli deletes the outdir before it runs the app, so the previous output is gone (documents cdk8s-cli)', () => {
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
