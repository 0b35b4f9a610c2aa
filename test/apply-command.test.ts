import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { capturingOutput, HANG_GUARD_MS, removeTempDirs, tempDir } from './util';
import { main } from '../src/cli/main';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const CLI_TIMEOUT = HANG_GUARD_MS;

/** Synthesizes an example's main.ts in this process into a fresh outdir (as `cdk8s synth` would, through CDK8S_OUTDIR). */
function synthExample(name: string): string {
  const outdir = path.join(tempDir(), 'dist');
  const previous = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = outdir;
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the example is a program: importing it runs its synth
      require(path.join(ROOT, 'examples', name, 'main.ts'));
    });
  } finally {
    if (previous === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = previous;
  }
  return outdir;
}

/**
 * Stand-in `cdk` and `kubectl` on PATH: each appends its name and arguments to
 * the log, reads its stdin, and exits 3 when its command line contains `$APPLY_FAIL`.
 */
function standIns(): { bin: string; log: string } {
  const dir = tempDir();
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const script = [
    '#!/bin/sh',
    'printf \'%s\\n\' "$(basename "$0") $*" >> "$APPLY_LOG"',
    'cat > /dev/null', // reads what apply sends on stdin (the writers' objects), as kubectl does
    'if [ -n "$APPLY_FAIL" ]; then case "$*" in *"$APPLY_FAIL"*) exit 3;; esac; fi',
    'exit 0',
    '',
  ].join('\n');
  for (const name of ['cdk', 'kubectl']) fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
  return { bin, log: path.join(dir, 'calls.log') };
}

/** Runs `main(argv)` in process with the stand-ins first on PATH; returns the exit code, output and the recorded calls. */
function runApply(argv: string[], fail?: string): { code: number; stdout: string; stderr: string; calls: string[] } {
  const { bin, log } = standIns();
  const saved = { PATH: process.env.PATH, APPLY_LOG: process.env.APPLY_LOG, APPLY_FAIL: process.env.APPLY_FAIL };
  process.env.PATH = `${bin}${path.delimiter}${process.env.PATH}`;
  process.env.APPLY_LOG = log;
  if (fail === undefined) delete process.env.APPLY_FAIL;
  else process.env.APPLY_FAIL = fail;
  try {
    const { result: code, stdout, stderr } = capturingOutput(() => main(argv));
    const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf-8').trimEnd().split('\n') : [];
    return { code, stdout, stderr, calls };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('cdk-capability apply on examples/cdn', () => {
  let outdir: string;

  beforeAll(() => {
    outdir = synthExample('cdn');
  });

  /**
   * The recorded command sequence of the CDN example: the stacks in plan order, then per runtime file its
   * applies (docs/cluster.md: the file whole as cdk-capability, each writer's own fields as its own manager on
   * stdin, the release of the capability's one manager of an apply from before writers had their own), then
   * its waits.
   */
  const cdnSequence = (o: string) => [
    `cdk deploy --app ${o}/deploy cdn/Base --exclusively --require-approval never`,
    `cdk deploy --app ${o}/deploy cdn/acme --exclusively --require-approval never`,
    `cdk deploy --app ${o}/deploy cdn/globex --exclusively --require-approval never`,
    `cdk deploy --app ${o}/deploy cdn/initech --exclusively --require-approval never`,
    `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${o}/runtime/0001-cdn-routing-1.yaml`,
    'kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/Namespace -f -',
    'kubectl apply --server-side --field-manager=cdn -f -',
    `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${o}/runtime/0002-cdn-routing-2.yaml`,
    ...['EdgeInterface', 'webService', 'globexService', 'web', 'globex', 'tenant-acme', 'tenant-globex', 'tenant-initech']
      .map((w) => `kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/${w} -f -`),
    'kubectl apply --server-side --field-manager=cdn -f -',
    'kubectl rollout status deployment/web -n edge --timeout=5m',
    'kubectl rollout status deployment/globex -n edge --timeout=5m',
  ];

  test('runs cdk and kubectl in plan order, with the waits, and exits 0', () => {
    // WHEN apply runs with the stand-ins on PATH
    const { code, calls, stdout, stderr } = runApply(['apply', '--outdir', outdir]);

    // THEN this is the recorded sequence
    expect({ code, calls, stderr }).toEqual({ code: 0, calls: cdnSequence(outdir), stderr: '' });
    expect(stdout.split('\n')[0]).toBe(`cdk-capability apply: step 1/6 cdn/Base: cdk deploy --app ${outdir}/deploy cdn/Base --exclusively --require-approval never`);
    expect(stdout).toMatch(/cdk-capability apply: 6 steps applied\.\n$/);
  });

  test('--dry-run prints the same commands, what goes on stdin as a here-document, and runs nothing', () => {
    const { code, calls, stdout } = runApply(['apply', '--outdir', outdir, '--dry-run']);
    expect(code).toBe(0);
    expect(calls).toEqual([]);
    const commands = stdout.split('\n').filter((l) => /^(cdk|kubectl) /.test(l)).map((l) => l.replace(/ <<'EOF'$/, ''));
    expect(commands).toEqual(cdnSequence(outdir));
    expect(stdout).toContain([
      "kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/Namespace -f - <<'EOF'",
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  name: edge',
      'EOF',
      '',
    ].join('\n'));
  });

  test('stops at the first failing command, naming the step, and runs nothing after it', () => {
    // GIVEN a cdk that fails on the second tenant
    const { code, calls, stderr } = runApply(['apply', '--outdir', outdir], 'cdn/globex');

    // THEN the calls end at that command, and the exit code is 1
    expect(code).toBe(1);
    expect(calls).toEqual(cdnSequence(outdir).slice(0, 3));
    expect(stderr).toBe(
      `cdk-capability apply: step 3 (cdn/globex) failed: 'cdk deploy --app ${outdir}/deploy cdn/globex --exclusively --require-approval never' exited with code 3. ` +
        'Steps 1 to 2 applied; nothing after this command was run. Fix the cause and run apply again (every step is idempotent).\n',
    );
  });

  test('a failing runtime wait stops there too', () => {
    const { code, calls } = runApply(['apply', '--outdir', outdir], 'deployment/web');
    expect(code).toBe(1);
    expect(calls).toEqual(cdnSequence(outdir).slice(0, cdnSequence(outdir).indexOf('kubectl rollout status deployment/web -n edge --timeout=5m') + 1));
  });

  test('the real AWS CDK CLI selects each deploy step\'s stack by the id apply passes (offline)', () => {
    // GIVEN the stack selectors of the deploy commands
    const selectors = ['cdn/Base', 'cdn/acme', 'cdn/globex', 'cdn/initech'];

    // WHEN the real cdk lists what they select from the synthesized assembly
    const env = { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' };
    const ls = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'cdk'), ['ls', '--app', path.join(outdir, 'deploy'), ...selectors, '--no-notices'], {
      cwd: tempDir(),
      env,
      encoding: 'utf-8',
      timeout: CLI_TIMEOUT - 5_000,
    });

    // THEN each selects exactly its stack
    expect(ls.stdout.trimEnd().split('\n')).toEqual(['cdn/Base (cdn-Base)', 'cdn/acme (cdn-acme)', 'cdn/globex (cdn-globex)', 'cdn/initech (cdn-initech)']);
  }, CLI_TIMEOUT);
});

describe('cdk-capability apply on examples/crd-order', () => {
  test('waits for the CustomResourceDefinition to be established before the step that holds its custom resource', () => {
    const outdir = synthExample('crd-order');
    const { code, calls } = runApply(['apply', '--outdir', outdir, '--timeout', '90s']);
    const runtime = calls.filter((c) => c.startsWith('kubectl'));
    expect(code).toBe(0);
    const writers = (...ids: string[]) => ids.map((id) => `kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/${id} -f -`);
    expect(runtime).toEqual([
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0001-cdn-routing-1.yaml`,
      ...writers('EdgeNamespace', 'TenantRouteCrd'),
      'kubectl apply --server-side --field-manager=cdn -f -',
      'kubectl wait --for=condition=Established --timeout=90s crd/tenantroutes.routing.cdn.example.com',
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0002-cdn-routing-2.yaml`,
      ...writers('EdgeInterface', 'Web', 'TenantRoute'),
      'kubectl apply --server-side --field-manager=cdn -f -',
      'kubectl rollout status deployment/web -n edge --timeout=90s',
    ]);
  });

  test('without a plan (no synth, or a refused one) it says so and exits 1', () => {
    const { code, stderr, calls } = runApply(['apply', '--outdir', path.join(tempDir(), 'nothing')]);
    expect(code).toBe(1);
    expect(calls).toEqual([]);
    expect(stderr).toMatch(/^cdk-capability apply: no plan at '.*nothing\/plan\.json': run cdk8s synth first/);
  });
});
