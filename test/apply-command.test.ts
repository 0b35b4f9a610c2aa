import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { capturingOutput, HANG_GUARD_MS, removeTempDirs, synthExample, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { main } from '../src/cli/main';
import { writeLock } from '../src/release/lock';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const CLI_TIMEOUT = HANG_GUARD_MS;

/** The CDN example's output, synthesized once a file (a synth reloads src/ and aws-cdk-lib: seconds). */
let cdnOutput: string | undefined;

/** A fresh copy of the CDN example's output, byte for byte what a synth writes, for a test to apply or edit. */
function cdnOutdir(): string {
  cdnOutput ??= synthExample('cdn');
  const outdir = path.join(tempDir(), 'dist');
  fs.cpSync(cdnOutput, outdir, { recursive: true });
  return outdir;
}

/**
 * Stand-in `cdk` and `kubectl` on PATH: each appends its name and arguments to
 * the log, reads its stdin, exits 3 when its command line contains `$APPLY_FAIL`,
 * and hangs (sleeps far past any test) when it contains `$APPLY_HANG`.
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
    'if [ -n "$APPLY_HANG" ]; then case "$*" in *"$APPLY_HANG"*) exec sleep 3600;; esac; fi',
    'exit 0',
    '',
  ].join('\n');
  for (const name of ['cdk', 'kubectl']) fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
  return { bin, log: path.join(dir, 'calls.log') };
}

/** Runs `main(argv)` in process with the stand-ins first on PATH; returns the exit code, output and the recorded calls. */
function runApply(argv: string[], fail?: string, hang?: string): { code: number; stdout: string; stderr: string; calls: string[] } {
  const { bin, log } = standIns();
  const saved = { PATH: process.env.PATH, APPLY_LOG: process.env.APPLY_LOG, APPLY_FAIL: process.env.APPLY_FAIL, APPLY_HANG: process.env.APPLY_HANG };
  process.env.PATH = `${bin}${path.delimiter}${process.env.PATH}`;
  process.env.APPLY_LOG = log;
  for (const [k, v] of Object.entries({ APPLY_FAIL: fail, APPLY_HANG: hang })) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
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
    outdir = cdnOutdir();
  });

  /**
   * The recorded command sequence of the CDN example: the stacks in plan order, then per runtime file its
   * applies (docs/cluster.md: the file whole as cdk-capability, each writer's own fields as its own manager on
   * stdin; no release of the capability's one manager of an earlier apply, as there is no lock), then its waits.
   */
  const cdnSequence = (o: string) => [
    `cdk deploy --app ${o}/deploy --exclusively --require-approval never cdn/Base`,
    `cdk deploy --app ${o}/deploy --exclusively --require-approval never cdn/acme`,
    `cdk deploy --app ${o}/deploy --exclusively --require-approval never cdn/globex`,
    `cdk deploy --app ${o}/deploy --exclusively --require-approval never cdn/initech`,
    `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${o}/runtime/0001-cdn-routing-1.yaml`,
    'kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/Namespace -f -',
    `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${o}/runtime/0002-cdn-routing-2.yaml`,
    ...['EdgeInterface', 'webService', 'globexService', 'web', 'globex', 'tenant-acme', 'tenant-globex', 'tenant-initech']
      .map((w) => `kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/${w} -f -`),
    'kubectl wait --for=condition=Ready --timeout=5m externalsecrets.external-secrets.io/cdn-edge-interface -n edge',
    'kubectl rollout status deployment/web -n edge --timeout=5m',
    'kubectl rollout status deployment/globex -n edge --timeout=5m',
  ];

  test('runs cdk and kubectl in plan order, with the waits, and exits 0', () => {
    // WHEN apply runs with the stand-ins on PATH
    const { code, calls, stdout, stderr } = runApply(['apply', '--outdir', outdir]);

    // THEN this is the recorded sequence
    expect({ code, calls, stderr }).toEqual({ code: 0, calls: cdnSequence(outdir), stderr: '' });
    expect(stdout.split('\n')[0]).toBe(`cdk-capability apply: step 1/6 cdn/Base: cdk deploy --app ${outdir}/deploy --exclusively --require-approval never cdn/Base`);
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
      `cdk-capability apply: step 3 (cdn/globex) failed: 'cdk deploy --app ${outdir}/deploy --exclusively --require-approval never cdn/globex' exited with code 3. ` +
        `Steps 1 to 2 applied; nothing after this command was run. Fix the cause and resume with: cdk-capability apply --outdir ${outdir} --from-step 3 (every step is idempotent).\n`,
    );
  });

  test('a failing runtime wait stops there too', () => {
    const { code, calls } = runApply(['apply', '--outdir', outdir], 'deployment/web');
    expect(code).toBe(1);
    expect(calls).toEqual(cdnSequence(outdir).slice(0, cdnSequence(outdir).indexOf('kubectl rollout status deployment/web -n edge --timeout=5m') + 1));
  });

  test('waits for the ExternalSecret to be ready before the rollouts that read its Secret and before any later step', () => {
    const { calls } = runApply(['apply', '--outdir', outdir]);

    const wait = calls.indexOf('kubectl wait --for=condition=Ready --timeout=5m externalsecrets.external-secrets.io/cdn-edge-interface -n edge');
    // right after the step's applies: its files whole, then each writer's own fields
    const merged = calls.indexOf(`kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0002-cdn-routing-2.yaml`);
    expect(merged).toBeGreaterThan(0);
    expect(calls.slice(merged, wait).filter((c) => !c.startsWith('kubectl apply --server-side '))).toEqual([]);
    expect(calls[wait - 1]).toBe('kubectl apply --server-side --field-manager=cdk-capability:cdn/Routing/tenant-initech -f -');
    expect(calls.slice(wait + 1)).toEqual(['kubectl rollout status deployment/web -n edge --timeout=5m', 'kubectl rollout status deployment/globex -n edge --timeout=5m']);
  });

  test('--from-step resumes at that step, and says which steps it skipped', () => {
    const { code, calls, stdout } = runApply(['apply', '--outdir', outdir, '--from-step', '3']);

    expect(code).toBe(0);
    expect(calls).toEqual(cdnSequence(outdir).slice(2));
    expect(stdout).toMatch(/^cdk-capability apply: step 3\/6 cdn\/globex: /);
    expect(stdout).toMatch(/cdk-capability apply: 6 steps applied \(from step 3; steps 1 to 2 skipped\)\.\n$/);
  });

  test('a failure after --from-step names the steps this run applied, and how to resume again', () => {
    const { code, stderr } = runApply(['apply', '--outdir', outdir, '--from-step', '3'], 'cdn/initech');

    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^cdk-capability apply: step 4 \\(cdn/initech\\) failed: .* exited with code 3\\. Steps 3 to 3 applied; nothing after this command was run\\. Fix the cause and resume with: cdk-capability apply --outdir ${outdir} --from-step 4 \\(every step is idempotent\\)\\.\\n$`));
  });

  test('--from-step past the last step, or not a step number, runs nothing', () => {
    expect(runApply(['apply', '--outdir', outdir, '--from-step', '7'])).toEqual(expect.objectContaining({ code: 1, calls: [], stderr: 'cdk-capability apply: --from-step 7 is past the last step: the plan has 6\n' }));
    expect(runApply(['apply', '--outdir', outdir, '--from-step', 'two'])).toEqual(expect.objectContaining({ code: 1, calls: [], stderr: expect.stringMatching(/^cdk-capability apply: --from-step 'two' is not a step number \(1 is the first step\)\n/) }));
  });

  test('a hanging kubectl apply is stopped at --timeout and fails the step instead of hanging apply', () => {
    // GIVEN a kubectl whose apply of the second runtime file never returns
    const { code, calls, stderr } = runApply(['apply', '--outdir', outdir, '--timeout', '1s'], undefined, '0002-cdn-routing-2.yaml');

    // THEN apply stopped it and named the step
    expect(code).toBe(1);
    const merged = `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0002-cdn-routing-2.yaml`;
    expect(calls).toEqual(cdnSequence(outdir).slice(0, cdnSequence(outdir).indexOf(merged) + 1));
    expect(stderr).toBe(
      `cdk-capability apply: step 6 (cdn/Routing#2) failed: '${merged}' did not finish within 1s and was stopped. ` +
        `Steps 1 to 5 applied; nothing after this command was run. Fix the cause and resume with: cdk-capability apply --outdir ${outdir} --from-step 6 (every step is idempotent).\n`,
    );
  });

  test('a hanging cdk deploy is stopped at --deploy-timeout, with a word on the stack CloudFormation may still be updating', () => {
    const { code, calls, stderr } = runApply(['apply', '--outdir', outdir, '--deploy-timeout', '1s'], undefined, 'cdn/acme');

    expect(code).toBe(1);
    expect(calls).toEqual(cdnSequence(outdir).slice(0, 2));
    expect(stderr).toMatch(/^cdk-capability apply: step 2 \(cdn\/acme\) failed: '.*' did not finish within 1s and was stopped \(CloudFormation may still be updating the stack: check it before you resume\)\. Steps 1 to 1 applied;/);
  });

  test('a --timeout that is not a duration is a usage error', () => {
    expect(runApply(['apply', '--outdir', outdir, '--timeout', '5 minutes'])).toEqual(expect.objectContaining({ code: 1, calls: [], stderr: expect.stringMatching(/^cdk-capability apply: --timeout '5 minutes' is not a duration such as 90s, 5m or 1h30m\n/) }));
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

    // AND a selector after `--` is ignored (every stack listed), which is why apply checks the selector instead
    const afterDashes = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'cdk'), ['ls', '--app', path.join(outdir, 'deploy'), '--no-notices', '--', 'cdn/Base'], {
      cwd: tempDir(),
      env,
      encoding: 'utf-8',
      timeout: CLI_TIMEOUT - 5_000,
    });
    expect(afterDashes.stdout.trimEnd().split('\n')).toHaveLength(4);
  }, CLI_TIMEOUT);
});

describe('cdk-capability apply refuses a plan.json synth did not write (CAP016), running nothing', () => {
  let outdir: string;
  let written: string;
  beforeAll(() => {
    outdir = cdnOutdir();
    written = fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8');
  });

  /** Applies a copy of the CDN example's output whose plan.json is `edit` of the one synth wrote. */
  function applyEdited(edit: (plan: string) => string): { code: number; stderr: string; calls: string[]; dir: string } {
    const dir = path.join(tempDir(), 'dist');
    fs.cpSync(outdir, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'plan.json'), edit(written));
    return { ...runApply(['apply', '--outdir', dir]), dir };
  }
  const line = (dir: string, problem: string) =>
    `CAP016 plan file: '${dir}/plan.json' is not a plan cdk-capability wrote: ${problem}. Run cdk8s synth again to rewrite it; apply carries out only a plan synth wrote. Nothing was run.\n`;

  test('a truncated plan.json', () => {
    const { code, stderr, calls, dir } = applyEdited((p) => p.slice(0, Math.floor(p.length / 2)));
    expect({ code, calls }).toEqual({ code: 1, calls: [] });
    expect(stderr).toMatch(new RegExp(`^CAP016 plan file: '${dir}/plan\\.json' is not a plan cdk-capability wrote: it is not valid JSON \\(.+\\)\\. Run cdk8s synth again`));
    expect(stderr.split('\n')).toHaveLength(2);
  });

  test('steps that are not a list, and a step without its lifecycle: one line per problem, each with its JSON pointer', () => {
    const edited = applyEdited((p) => JSON.stringify({ ...JSON.parse(p), steps: 'all' }));
    expect(edited).toEqual(expect.objectContaining({ code: 1, calls: [], stderr: line(edited.dir, '/steps ("all") must be a list') }));

    const missing = applyEdited((p) => {
      const plan = JSON.parse(p);
      delete plan.steps[0].lifecycle;
      return JSON.stringify(plan);
    });
    expect(missing.code).toBe(1);
    expect(missing.calls).toEqual([]);
    expect(missing.stderr).toMatch(/^CAP016 plan file: .*: \/steps\/0(\/lifecycle)? .*Nothing was run\.\n/);
  });

  test('a step id that cdk would read as an option, or as a glob over every stack', () => {
    const option = applyEdited((p) => p.replace('"id": "cdn/Base"', '"id": "--app=./evil"'));
    expect(option).toEqual(
      expect.objectContaining({
        code: 1,
        calls: [],
        stderr: line(option.dir, '/steps/0/id ("--app=./evil") must be a stack\'s path: segments of letters, digits, \'.\', \'_\' and \'-\', each starting with a letter or digit'),
      }),
    );

    const glob = applyEdited((p) => p.replace('"id": "cdn/Base"', '"id": "cdn/*"'));
    expect(glob.stderr).toBe(line(glob.dir, '/steps/0/id ("cdn/*") must be a stack\'s path: segments of letters, digits, \'.\', \'_\' and \'-\', each starting with a letter or digit'));
  });

  test('a runtime file outside runtime/ and a waited-for object whose name kubectl would read as an option', () => {
    const edited = applyEdited((p) => {
      const plan = JSON.parse(p);
      plan.steps[4].files[0] = '../../etc/passwd';
      plan.steps[5].objects[3] = 'apps/Deployment edge/--all';
      return JSON.stringify(plan);
    });
    expect(edited.calls).toEqual([]);
    expect(edited.stderr.trimEnd().split('\n')).toEqual([
      line(edited.dir, '/steps/4/files/0 ("../../etc/passwd") must be a manifest under runtime/: \'runtime/<name>.yaml\'').trimEnd(),
      expect.stringMatching(/^CAP016 plan file: .*: \/steps\/5\/objects\/3 \("apps\/Deployment edge\/--all"\) must be '<kind> <name>' or '<kind> <namespace>\/<name>' with valid Kubernetes names\. /),
      // the object that label named is no step's object any more, so its writers' applies would not run
      line(edited.dir, '/writers/2/object ("object:apps|Deployment|edge|web") must be an object of a runtime step, but no step lists apps/Deployment edge/web').trimEnd(),
    ]);
  });

  test("a writer's fields that are not a fieldsV1 set, and field managers the API server refuses", () => {
    const edited = applyEdited((p) => {
      const plan = JSON.parse(p);
      plan.writers[0].writers[0].fields = { zz: {} };
      plan.writers[0].writers[0].manager = '';
      plan.writers[1].released = ['a\u0007b'];
      return JSON.stringify(plan);
    });
    expect({ code: edited.code, calls: edited.calls }).toEqual({ code: 1, calls: [] });
    expect(edited.stderr).toBe([
      line(edited.dir, '/writers/0/writers/0/manager ("") must be a field manager\'s name: 1 to 128 bytes of printable characters'),
      line(edited.dir, "/writers/0/writers/0/fields is not a fieldsV1 set as the API server records one: the path element 'zz' has no ':' after its type"),
      line(edited.dir, '/writers/1/released/0 ("a\\u0007b") must be a field manager\'s name: 1 to 128 bytes of printable characters'),
    ].join(''));
  });

  test("a schema refusal is one sentence: the format version, and a writer's field manager too long", () => {
    // GIVEN a plan of another format version, and a field manager of 129 bytes (the schema's limit is 128)
    const edited = applyEdited((p) => {
      const plan = JSON.parse(p);
      plan.version = 999;
      plan.writers[0].writers[0].manager = 'x'.repeat(129);
      return JSON.stringify(plan);
    });

    // THEN each problem reads "must be <what>", once, without the schema's documentation in it
    expect({ code: edited.code, calls: edited.calls }).toEqual({ code: 1, calls: [] });
    expect(edited.stderr).toBe([
      line(edited.dir, '/version (999) must be 1'),
      line(edited.dir, `/writers/0/writers/0/manager ("${'x'.repeat(56)}...) must be a field manager's name: 1 to 128 bytes of printable characters`),
    ].join(''));
  });

  test('a fieldsV1 set nested deeper than the stack is refused, not a crash', () => {
    const edited = applyEdited((p) => {
      const plan = JSON.parse(p);
      plan.writers[0].writers[0].fields = 'DEEP';
      // written as text: JSON.stringify itself overflows the stack at this depth
      return JSON.stringify(plan).replace('"DEEP"', `${'{"f:a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`);
    });
    expect({ code: edited.code, calls: edited.calls }).toEqual({ code: 1, calls: [] });
    expect(edited.stderr).toMatch(/^CAP016 plan file: .*: \/writers\/0\/writers\/0\/fields is not a fieldsV1 set as the API server records one: .*Nothing was run\.\n$/);
  });

  describe('runtime files that are not as synth wrote them: refused before anything runs', () => {
    /** Applies a copy of the CDN example's output with `edit` made to its runtime files. */
    function applyWithFiles(edit: (runtime: string) => void): { code: number; stderr: string; calls: string[]; dir: string } {
      const dir = path.join(tempDir(), 'dist');
      fs.cpSync(outdir, dir, { recursive: true });
      edit(path.join(dir, 'runtime'));
      return { ...runApply(['apply', '--outdir', dir]), dir };
    }
    const fileLine = (dir: string, problem: string) =>
      `CAP016 plan file: '${dir}/plan.json' names a runtime file that is not as synth wrote it: ${problem}. Run cdk8s synth again to rewrite the plan and its files; apply carries out only what synth wrote. Nothing was run.\n`;

    test('a file deleted, and one truncated mid-YAML: one line each', () => {
      const edited = applyWithFiles((runtime) => {
        fs.rmSync(path.join(runtime, '0001-cdn-routing-1.yaml'));
        fs.writeFileSync(path.join(runtime, '0002-cdn-routing-2.yaml'), 'apiVersion: v1\nkind: [ConfigMap\n');
      });
      expect({ code: edited.code, calls: edited.calls }).toEqual({ code: 1, calls: [] });
      expect(edited.stderr.split('\n').filter((l) => l !== '')).toEqual([
        fileLine(edited.dir, `'${edited.dir}/runtime/0001-cdn-routing-1.yaml' (step 5) does not exist`).trimEnd(),
        expect.stringMatching(new RegExp(`^CAP016 plan file: .* '${edited.dir}/runtime/0002-cdn-routing-2\\.yaml' \\(step 6\\) is not YAML \\(.+\\)\\. Run cdk8s synth again`)),
      ]);
    });

    test('a file holding something else than Kubernetes objects', () => {
      const edited = applyWithFiles((runtime) => {
        fs.writeFileSync(path.join(runtime, '0002-cdn-routing-2.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n- 1\n- 2\n');
      });
      expect({ code: edited.code, calls: edited.calls }).toEqual({ code: 1, calls: [] });
      expect(edited.stderr).toBe(
        fileLine(edited.dir, `'${edited.dir}/runtime/0002-cdn-routing-2.yaml' (step 6) holds a document that is not a Kubernetes object: document 2 needs a string apiVersion, kind and metadata.name`),
      );
    });

    test("blank lines, comments and empty documents around the objects are still the file's objects", () => {
      // ported from Helm (helm/helm pkg/releaseutil/manifest_test.go, TestSplitManifest): a manifest that starts
      // with blank lines and a '---' is one object; here also a comment-only document and a trailing '---'
      const edited = applyWithFiles((runtime) => {
        const file = path.join(runtime, '0002-cdn-routing-2.yaml');
        fs.writeFileSync(file, `\n\n---\n# edited by hand\n---\n${fs.readFileSync(file, 'utf-8')}---\n`);
      });
      expect({ code: edited.code, stderr: edited.stderr }).toEqual({ code: 0, stderr: '' });
      expect(edited.calls).toHaveLength(18); // as unedited: 4 deploys, 11 applies, 3 waits
    });

    test('the files of steps before --from-step are not read', () => {
      const edited = applyWithFiles((runtime) => fs.rmSync(path.join(runtime, '0001-cdn-routing-1.yaml')));
      const resumed = runApply(['apply', '--outdir', edited.dir, '--from-step', '6']);
      expect(resumed.code).toBe(0);
      expect(resumed.calls.some((c) => c.includes('0001-cdn-routing-1.yaml'))).toBe(false);
    });
  });

  test('a byte-order mark in front of the plan synth wrote is accepted', () => {
    const { code, calls } = applyEdited((p) => `\uFEFF${p}`);
    expect(code).toBe(0);
    expect(calls).toHaveLength(18); // the CDN example's: 4 deploys, 11 applies (one field manager per writer), 3 waits
  });
});

describe('cdk-capability apply refuses a plan.json that does not describe its runtime files (CAP016), running nothing', () => {
  /** The output of an app with capability shop whose chart Routing holds what `declare` adds. */
  function synthShop(declare: (routing: RuntimeRouting) => void): string {
    const outdir = path.join(tempDir(), 'dist');
    const app = new CapabilityApp({ outdir });
    declare(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'));
    app.synth();
    return outdir;
  }
  const configMapNamed = (name: string) => (routing: RuntimeRouting) => {
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' }, data: { a: '1' } });
  };
  const disagree = (dir: string, problem: string) =>
    `CAP016 plan file: '${dir}/plan.json' and its runtime files do not agree: ${problem}. Run cdk8s synth again to rewrite the plan and its files; apply carries out only what synth wrote. Nothing was run.\n`;

  test('a plan.json copied from another outdir: one line for the object the plan lists, one for the object the file holds', () => {
    // GIVEN app A synthesized into distA (ConfigMap shop/alpha), app B into distB (shop/beta), and B's plan copied over A's
    const distA = synthShop(configMapNamed('alpha'));
    const distB = synthShop(configMapNamed('beta'));
    fs.copyFileSync(path.join(distB, 'plan.json'), path.join(distA, 'plan.json'));

    // WHEN apply runs, and runs dry
    for (const argv of [['apply', '--outdir', distA], ['apply', '--outdir', distA, '--dry-run']]) {
      // THEN nothing runs and each disagreement is named, instead of alpha's writer apply dropped without a word
      expect(runApply(argv)).toEqual({
        code: 1,
        stdout: '',
        calls: [],
        stderr: [
          disagree(distA, `/steps/0/objects/0 ("ConfigMap shop/beta") is not in the files of step 1: '${distA}/runtime/0001-shop-routing.yaml'`),
          disagree(distA, `'${distA}/runtime/0001-shop-routing.yaml' (step 1) holds ConfigMap shop/alpha, which /steps/0/objects does not list`),
        ].join(''),
      });
    }
  });

  test("a writers[].object no step lists is refused: its writers' applies would never run", () => {
    const outdir = cdnOutdir();
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    plan.writers[1].object = 'object:|ConfigMap|shop|gamma';
    fs.writeFileSync(path.join(outdir, 'plan.json'), JSON.stringify(plan));

    expect(runApply(['apply', '--outdir', outdir, '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      calls: [],
      stderr:
        `CAP016 plan file: '${outdir}/plan.json' is not a plan cdk-capability wrote: /writers/1/object ("object:|ConfigMap|shop|gamma") must be an object of a runtime step, but no step lists ConfigMap shop/gamma. ` +
        'Run cdk8s synth again to rewrite it; apply carries out only a plan synth wrote. Nothing was run.\n',
    });
  });

  test('a runtime file holding objects its step does not list: one line each, at most 20, the last counting the rest', () => {
    // GIVEN the CDN example with its second runtime file replaced by 25 ConfigMaps the plan does not know
    const outdir = cdnOutdir();
    const file = path.join(outdir, 'runtime', '0002-cdn-routing-2.yaml');
    const listed: string[] = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).steps[5].objects;
    fs.writeFileSync(file, Array.from({ length: 25 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra-${i}\n  namespace: edge\n`).join('---\n'));

    // WHEN apply runs
    const { code, calls, stderr } = runApply(['apply', '--outdir', outdir]);

    // THEN the objects listed and missing come first, then those held and not listed, 20 lines in all
    const lines = stderr.split('\n').filter((l) => l !== '');
    const missing = listed.map((label, k) => disagree(outdir, `/steps/5/objects/${k} (${JSON.stringify(label)}) is not in the files of step 6: '${file}'`).trimEnd());
    const held = Array.from({ length: 25 }, (_, i) => disagree(outdir, `'${file}' (step 6) holds ConfigMap edge/extra-${i}, which /steps/5/objects does not list`).trimEnd());
    expect({ code, calls }).toEqual({ code: 1, calls: [] });
    expect(lines).toEqual([
      ...[...missing, ...held].slice(0, 19),
      disagree(outdir, `and ${missing.length + held.length - 19} more problems like these`).trimEnd(),
    ]);
  });

  test('a field of a writer edited out of its runtime file is refused before anything runs, naming the file, the field and the writer', () => {
    // GIVEN a ConfigMap whose declarer writes data.a and data.b, and data.b deleted from the runtime file by hand
    const outdir = synthShop((routing) => {
      new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1', b: '2' } });
    });
    const file = path.join(outdir, 'runtime', '0001-shop-routing.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf-8').replace(/^ {2}b: "2"\n/m, ''));

    // WHEN apply runs, and runs dry
    for (const argv of [['apply', '--outdir', outdir], ['apply', '--outdir', outdir, '--dry-run']]) {
      // THEN one CAP016, not a stack trace from cutting the writer's fields out of the object
      expect(runApply(argv)).toEqual({
        code: 1,
        stdout: '',
        calls: [],
        stderr: disagree(outdir, `'${file}' (step 1) holds ConfigMap shop/cfg without data.b, where its writer 'shop/Routing/Cfg' (/writers/0/writers/0) writes`),
      });
    }
  });

  test('a value where a writer writes below it, in a runtime file edited by hand, is refused the same way', () => {
    const outdir = synthShop((routing) => {
      new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1' } });
    });
    const file = path.join(outdir, 'runtime', '0001-shop-routing.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf-8').replace(/^data:\n {2}a: "1"\n/m, 'data: none\n'));

    expect(runApply(['apply', '--outdir', outdir, '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      calls: [],
      stderr: disagree(outdir, `'${file}' (step 1) holds ConfigMap shop/cfg with a value at data, below which its writer 'shop/Routing/Cfg' (/writers/0/writers/0) writes`),
    });
  });

  test("a runtime writer's record edited to another kind in plan.json is refused: apply would apply its fields under its controller's manager", () => {
    // GIVEN a runtime writer of the ConfigMap's data.zone, its kind in plan.json edited from runtime to declaration
    const outdir = synthShop((routing) => {
      const cfg = new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1' } });
      new RuntimeWriter(routing, 'Zoner', { target: cfg, fields: ['data.zone'], identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
    });
    const planFile = path.join(outdir, 'plan.json');
    const plan = JSON.parse(fs.readFileSync(planFile, 'utf-8'));
    expect(plan.writers[0].writers[1]).toEqual(expect.objectContaining({ writer: 'shop/Routing/Zoner (RuntimeWriter)', kind: 'runtime' }));
    plan.writers[0].writers[1].kind = 'declaration';
    fs.writeFileSync(planFile, JSON.stringify(plan));

    // WHEN apply runs dry
    expect(runApply(['apply', '--outdir', outdir, '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      calls: [],
      stderr:
        `CAP016 plan file: '${planFile}' is not a plan cdk-capability wrote: /writers/0/writers/1 ('shop/Routing/Zoner (RuntimeWriter)', kind "declaration") has the field manager "zoner", ` +
        "which is not one of ours ('cdk-capability:<construct path>'): apply would apply its fields under it, and only a runtime writer's manager is another's. " +
        'Run cdk8s synth again to rewrite it; apply carries out only a plan synth wrote. Nothing was run.\n',
    });
  });

  test("a cluster-scoped object whose manifest carries a namespace is its step's object, and its writer's apply runs", () => {
    // GIVEN a ClusterRole declared with a namespace (synth keeps the manifest as declared; the plan names it without)
    const outdir = synthShop((routing) => {
      new ApiObject(routing, 'Reader', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader', namespace: 'shop' }, rules: [] });
    });

    // WHEN apply runs
    const { code, calls, stderr } = runApply(['apply', '--outdir', outdir]);

    // THEN it is not refused, and the ClusterRole's declarer applies its own fields under its own manager
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(calls).toEqual([
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0001-shop-routing.yaml`,
      'kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/Reader -f -',
    ]);
  });
});

describe('cdk-capability apply --dry-run of a release that hands a field back from a runtime writer', () => {
  /** Synthesizes ConfigMap shop/cfg with `data` in a fresh folder against `lockFile`, with runtime writer Zoner of data.zone when `zoner`. */
  function synthCfg(lockFile: string, data: Record<string, string>, zoner: boolean): CapabilityApp {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), lockFile });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const cfg = new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data });
    if (zoner) new RuntimeWriter(routing, 'Zoner', { target: cfg, fields: ['data.zone'], identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
    return app;
  }

  test('says what to do about the controller before the commands, in the words of cdk-capability plan, as comments', () => {
    // GIVEN release 1, whose controller Zoner (field manager zoner) writes data.zone, locked
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    writeLock(lockFile, synthCfg(lockFile, { a: '1' }, true).synthesize().lock!);

    // WHEN release 2, whose declarer writes data.zone and has no runtime writer, is synthesized and applied dry
    const release = synthCfg(lockFile, { a: '1', zone: 'eu' }, false);
    release.synth();
    const { code, stdout, stderr, calls } = runApply(['apply', '--outdir', release.outdir, '--dry-run']);

    // THEN the hand-back and its advice come first, then the commands
    expect({ code, stderr, calls }).toEqual({ code: 0, stderr: '', calls: [] });
    expect(stdout).toBe([
      '# Handovers of field ownership from a runtime writer back to the release:',
      "#   ~ ConfigMap shop/cfg data.zone: 'shop/Routing/Zoner (RuntimeWriter)' -> 'shop/Routing/Cfg' (runtime -> deploy time: the release applies it)",
      "#   (handed back from 'shop/Routing/Zoner (RuntimeWriter)': stop its controller writing these fields before the release is applied. " +
        "The release's apply takes a field with force only where the controller's value differs; where it holds the same value, its field manager zoner stays an owner " +
        'until the controller applies without the field (kubectl apply --server-side --field-manager=zoner with what it still writes of the object, its identity alone when nothing) ' +
        'or, for a controller that updates, until the value next changes; cdk-capability audit reports it as stale-owner until then)',
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${release.outdir}/runtime/0001-shop-routing.yaml`,
      "kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/Cfg -f - <<'EOF'",
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: cfg',
      '  namespace: shop',
      'data:',
      '  a: "1"',
      '  zone: eu',
      'EOF',
      '',
    ].join('\n'));
  });

  test('a real run prints the same advice first, each line prefixed as apply prints its steps', () => {
    // GIVEN release 2 handing data.zone back from Zoner, as above
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    writeLock(lockFile, synthCfg(lockFile, { a: '1' }, true).synthesize().lock!);
    const release = synthCfg(lockFile, { a: '1', zone: 'eu' }, false);
    release.synth();

    // WHEN it is applied with the stand-ins
    const dry = runApply(['apply', '--outdir', release.outdir, '--dry-run']).stdout.split('\n').filter((l) => l.startsWith('#'));
    const { code, stdout } = runApply(['apply', '--outdir', release.outdir]);

    // THEN the advice comes before the first step, in the dry run's words
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines.slice(0, dry.length)).toEqual(dry.map((l) => `cdk-capability apply: ${l}`));
    expect(lines[dry.length]).toMatch(/^cdk-capability apply: step 1\/1 shop\/Routing: kubectl apply /);
  });

  test('prints no comment when nothing is handed back', () => {
    // GIVEN two releases, the runtime writer in both
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    writeLock(lockFile, synthCfg(lockFile, { a: '1' }, true).synthesize().lock!);
    const release = synthCfg(lockFile, { a: '2' }, true);
    release.synth();

    // WHEN the second is applied dry, THEN the first line is its first command
    expect(runApply(['apply', '--outdir', release.outdir, '--dry-run']).stdout.split('\n')[0]).toBe(
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${release.outdir}/runtime/0001-shop-routing.yaml`,
    );
  });
});

describe('cdk-capability apply on an empty composition', () => {
  test('a plan with no steps is nothing to apply: said on stdout, nothing run, exit 0, also with --dry-run', () => {
    // GIVEN the output of a CapabilityApp with nothing in it (plan.json has "steps": [])
    const outdir = path.join(tempDir(), 'dist');
    new CapabilityApp({ outdir }).synth();
    expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).steps).toEqual([]);

    // WHEN apply runs, and runs dry
    for (const argv of [['apply', '--outdir', outdir], ['apply', '--outdir', outdir, '--dry-run']]) {
      // THEN it says there is nothing to apply, and no flag the user did not give
      expect(runApply(argv)).toEqual({
        code: 0,
        stdout: `cdk-capability apply: the plan at '${outdir}/plan.json' has no steps (the composition declares no stack and no Kubernetes object): nothing to apply.\n`,
        stderr: '',
        calls: [],
      });
    }
  });

  test('--from-step past the end of an empty plan is still refused, naming the flag the user gave', () => {
    const outdir = path.join(tempDir(), 'dist');
    new CapabilityApp({ outdir }).synth();
    expect(runApply(['apply', '--outdir', outdir, '--from-step', '2'])).toEqual({ code: 1, stdout: '', stderr: 'cdk-capability apply: --from-step 2 is past the last step: the plan has 0\n', calls: [] });
  });
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
      'kubectl wait --for=condition=Established --timeout=90s crd/tenantroutes.routing.cdn.example.com',
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0002-cdn-routing-2.yaml`,
      ...writers('EdgeInterface', 'Web', 'TenantRoute'),
      'kubectl wait --for=condition=Ready --timeout=90s externalsecrets.external-secrets.io/cdn-edge-interface -n edge',
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

describe('cdk-capability apply puts a namespaced object that names no namespace in default, as the waits do', () => {
  function synthShop(declare: (routing: RuntimeRouting) => void): string {
    const outdir = path.join(tempDir(), 'dist');
    const app = new CapabilityApp({ outdir });
    declare(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'));
    app.synth();
    return outdir;
  }
  const configMap = (routing: RuntimeRouting, id: string, metadata: { name: string; namespace?: string }) =>
    new ApiObject(routing, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { a: '1' } });

  test('--dry-run: every apply of the step takes -n default, and the rollout waits in default', () => {
    // GIVEN one Deployment without a namespace
    const outdir = synthShop((routing) => {
      new ApiObject(routing, 'Web', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:1' }] } } },
      });
    });

    // WHEN apply runs dry
    const { code, calls, stdout } = runApply(['apply', '--outdir', outdir, '--dry-run']);

    // THEN the merged apply and the writer's apply name default, where the wait looks (a first release releases no manager)
    expect({ code, calls }).toEqual({ code: 0, calls: [] });
    expect(stdout.split('\n').filter((l) => /^kubectl /.test(l))).toEqual([
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -n default -f ${outdir}/runtime/0001-shop-routing.yaml`,
      "kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/Web -n default -f - <<'EOF'",
      'kubectl rollout status deployment/web -n default --timeout=5m',
    ]);
  });

  test('a step mixing namespace-less objects and objects of another namespace is applied in runs, in file order, each on stdin', () => {
    // GIVEN ConfigMaps a (no namespace), b (shop) and c (no namespace) in one step
    const outdir = synthShop((routing) => {
      configMap(routing, 'A', { name: 'a' });
      configMap(routing, 'B', { name: 'b', namespace: 'shop' });
      configMap(routing, 'C', { name: 'c' });
    });

    // WHEN apply runs
    const { code, calls, stdout } = runApply(['apply', '--outdir', outdir]);
    const dry = runApply(['apply', '--outdir', outdir, '--dry-run']).stdout;

    // THEN no call mixes them: kubectl would refuse -n default for shop/b, and without it put a and c in its context's namespace
    expect(code).toBe(0);
    expect(calls).toEqual([
      'kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -n default -f -',
      'kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f -',
      'kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -n default -f -',
      'kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/A -n default -f -',
      'kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/B -f -',
      'kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/C -n default -f -',
    ]);
    expect(stdout).toMatch(/cdk-capability apply: 1 steps applied\.\n$/);
    expect(dry).toContain([
      "kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -n default -f - <<'EOF'",
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: a',
      'data:',
      '  a: "1"',
      'EOF',
      "kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f - <<'EOF'",
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: b',
      '  namespace: shop',
      'data:',
      '  a: "1"',
      'EOF',
    ].join('\n'));
  });

  test('objects in default or cluster-scoped only need no -n: the file as it is', () => {
    const outdir = synthShop((routing) => {
      new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
      configMap(routing, 'A', { name: 'a', namespace: 'default' });
    });
    const { code, calls } = runApply(['apply', '--outdir', outdir]);
    expect(code).toBe(0);
    expect(calls[0]).toBe(`kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${outdir}/runtime/0001-shop-routing.yaml`);
  });
});
