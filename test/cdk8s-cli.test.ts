import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
const CLI_TIMEOUT = HANG_GUARD_MS;

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
function cdk8sSynth(cwd: string, outdir: string | undefined): Promise<CliRun> {
  const env = { ...process.env };
  delete env.CDK8S_OUTDIR;
  delete env.CDK8S_RECORD_CONSTRUCT_METADATA;
  const target = outdir === undefined ? ['--stdout'] : ['--output', outdir];
  return new Promise((resolve, reject) => {
    const child = spawn(CDK8S, ['synth', ...target, '--no-check-upgrade'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: CLI_TIMEOUT - 5_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf-8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf-8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The synths this file reads: each is run once, and the describes below only read them. */
let synths: {
  readonly crdOrder: { readonly run: CliRun; readonly outdir: string };
  readonly crdOrderStdout: CliRun;
  readonly cycle: { readonly run: CliRun; readonly outdir: string };
  readonly cycleStdout: CliRun;
};

beforeAll(async () => {
  const crdOrder = path.join(ROOT, 'examples', 'crd-order');
  const cycleApp = path.join(__dirname, 'fixtures', 'cycle-app');
  const crdOutdir = path.join(tempDir(), 'dist');
  // A previous output in the refused synth's outdir, to see what the CLI does with it.
  const cycleOutdir = path.join(tempDir(), 'dist');
  fs.mkdirSync(cycleOutdir);
  fs.writeFileSync(path.join(cycleOutdir, 'plan.json'), '{"previous":true}\n');
  // two at a time (CI has two cores), never two in one app folder at once
  const [crdRun, cycleRun] = await Promise.all([cdk8sSynth(crdOrder, crdOutdir), cdk8sSynth(cycleApp, cycleOutdir)]);
  const [crdOrderStdout, cycleStdout] = await Promise.all([cdk8sSynth(crdOrder, undefined), cdk8sSynth(cycleApp, undefined)]);
  synths = { crdOrder: { run: crdRun, outdir: crdOutdir }, crdOrderStdout, cycle: { run: cycleRun, outdir: cycleOutdir }, cycleStdout };
}, 2 * CLI_TIMEOUT);

describe('cdk8s synth of examples/crd-order (the CRD-before-CR demonstration)', () => {
  let run: CliRun;
  let outdir: string;

  beforeAll(() => {
    ({ run, outdir } = synths.crdOrder);
  });

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

    // THEN its documents are the Namespace and the CRD (kind order inside a step: Namespace first, as Helm and kapp do)
    expect(docs.map((d) => `${d.kind} ${d.metadata.name}`)).toEqual(['Namespace edge', 'CustomResourceDefinition tenantroutes.routing.cdn.example.com']);
  });

  test('the CLI lists every .yaml under the outdir as a manifest, kustomization.yaml included, and not audit/objects.list, which is no manifest (documents cdk8s-cli)', () => {
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

describe('cdk8s synth --stdout of examples/crd-order', () => {
  let run: CliRun;
  let outdir: string;

  beforeAll(() => {
    // the same synth into a folder as the tests above read
    const written = synths.crdOrder;
    outdir = written.outdir;
    expect(`exit ${written.run.status}\n${written.run.stderr}`).toMatch(/^exit 0\n/);
    run = synths.crdOrderStdout;
  });

  test('exits with code 0', () => {
    expect(`exit ${run.status}\n${run.stderr}`).toMatch(/^exit 0\n/);
  });

  test('prints every runtime object once, in the apply order of the runtime files, and nothing else', () => {
    // GIVEN the runtime objects of the same synth into a folder, file by file in apply order
    const files = fs.readdirSync(path.join(outdir, 'runtime')).filter((f) => /^\d{4}-.*\.yaml$/.test(f)).sort();
    const expected = files.flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(outdir, 'runtime', f), 'utf-8')).map((d) => d.toJS()));

    // WHEN the printed documents are read
    const printed = parseAllDocuments(run.stdout).map((d) => d.toJS());

    // THEN they are those objects, in that order: no kustomization, no GitOps copy, no object twice
    expect(printed.map((d) => `${d.kind} ${d.metadata.name}`)).toEqual(expected.map((d) => `${d.kind} ${d.metadata.name}`));
    expect(printed).toEqual(expected);
    expect(printed.map((d) => d.kind)).toEqual(['Namespace', 'CustomResourceDefinition', 'ExternalSecret', 'Deployment', 'TenantRoute']);
  });
});

describe('cdk8s synth of a refused composition (test/fixtures/cycle-app)', () => {
  let run: CliRun;
  let outdir: string;

  beforeAll(() => {
    // (a previous output was in the outdir before the synth: see the file's beforeAll)
    ({ run, outdir } = synths.cycle);
  });

  test('exits with code 1', () => {
    expect(run.status).toBe(1);
  });

  test('stderr is the coded report once, then the CLI\'s one line: no wrapper, no stack trace', () => {
    expect(run.stderr).toBe(
      [
        'The composition was refused with 1 violation:',
        "CAP004 dependency cycle: cdn/R/a => cdn/R/b => cdn/R/a (cdn/R/a => cdn/R/b: explicit 'cdn/R/a'.addDependency('cdn/R/b') at main.ts:10; "
          + "cdn/R/b => cdn/R/a: explicit 'cdn/R/b'.addDependency('cdn/R/a') at main.ts:11). Remove one of these dependencies (addDependency, or the reference that implies it).",
        `ERROR: synthesis failed, app expected to create "${outdir}"`,
        '',
      ].join('\n'),
    );
    expect(run.stdout).toBe('Synthesizing application\n');
  });

  test('cdk8s-cli deletes the outdir before it runs the app, and the refused synth creates none (documents cdk8s-cli)', () => {
    expect(fs.existsSync(outdir)).toBe(false);
  });
});

describe('cdk8s synth --stdout of a refused composition (test/fixtures/cycle-app)', () => {
  let run: CliRun;

  beforeAll(() => {
    run = synths.cycleStdout;
  });

  test('exits with code 1, prints no manifest, and stderr is the coded report and the CLI\'s one line', () => {
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^The composition was refused with 1 violation:\nCAP004 dependency cycle: cdn\/R\/a => cdn\/R\/b => cdn\/R\/a \([^\n]*\)\. [^\n]*\nERROR: synthesis failed, app expected to create "[^"\n]*cdk8s-[A-Za-z0-9]{6}"\n$/,
    );
  });
});
