import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, DeploymentAggregate, Field, FieldMap, InterfaceContract, Plan, RuntimeRouting, SharedBase } from '../src';
import { appOf, lockedSeries, newSeries, releaseDir, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, HANG_GUARD_MS, NODE_TS, NODE_TS_COMMAND } from './util';
import { main } from '../src/cli/main';

afterAll(removeReleaseDirs);

const ROOT = path.resolve(__dirname, '..');
const SPAWN_TIMEOUT = HANG_GUARD_MS;

interface ShopVariant {
  readonly version: string;
  readonly fields: FieldMap;
  readonly tenants: string[];
  /** ConfigMaps in namespace shop: name -> data.mode. */
  readonly configMaps: Record<string, string>;
}

/** GIVEN-side builder: capability cdn (contract Edge, Base, tenants) and chart Routing with Namespace shop and its ConfigMaps. */
function shop(app: CapabilityApp, v: ShopVariant): void {
  const cdn = new Capability(app, 'cdn');
  const edge = new InterfaceContract(cdn, 'Edge', { version: v.version, fields: v.fields });
  edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
  for (const tenant of v.tenants) new DeploymentAggregate(cdn, tenant);
  const routing = new RuntimeRouting(cdn, 'Routing');
  new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  for (const [name, mode] of Object.entries(v.configMaps)) {
    new ApiObject(routing, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' }, data: { mode } });
  }
}

const RELEASE_1: ShopVariant = { version: '1.0.0', fields: { tenantHeader: Field.string() }, tenants: ['acme'], configMaps: { settings: 'live', old: 'x' } };

/** Adds tenant globex and ConfigMap extra, changes settings, removes old, adds optional field maxTenants. */
const RELEASE_2: ShopVariant = {
  version: '1.1.0',
  fields: { tenantHeader: Field.string(), maxTenants: Field.number().optional() },
  tenants: ['acme', 'globex'],
  configMaps: { settings: 'maintenance', extra: 'x' },
};

/** Synthesizes `variant` to disk against the series' lock (or none) and returns its plan.json path and content. */
function writePlan(variant: ShopVariant, series = newSeries()): { file: string; plan: Plan } {
  const app = appOf(series);
  shop(app, variant);
  withUpdateLock(undefined, () => app.synth());
  const file = path.join(app.outdir, 'plan.json');
  return { file, plan: JSON.parse(fs.readFileSync(file, 'utf-8')) };
}

/** Runs `main(argv)` in process, capturing what it writes to stdout and stderr. */
function runMain(argv: string[]): { code: number; stdout: string; stderr: string } {
  const { result, stdout, stderr } = capturingOutput(() => main(argv));
  return { code: result, stdout, stderr };
}

/** The step lines of a formatted plan: `<n>. <lifecycle> <id>`. */
function stepLines(output: string): Array<{ n: number; lifecycle: string; id: string }> {
  return [...output.matchAll(/^ +(\d+)\. (deploy|runtime) +(\S+) {2}\(/gm)].map((m) => ({ n: Number(m[1]), lifecycle: m[2], id: m[3] }));
}

describe('cdk-capability plan --plan <plan.json> (in process)', () => {
  test('a plan.json synth did not write is refused with one CAP016 line per problem, and nothing is printed', () => {
    // GIVEN the plan.json of release 2 with its contract change cut short and its teardown replaced
    const { file, plan } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const edited = structuredClone(plan) as any;
    const change = edited.changes.contracts[0];
    delete change[change.change === 'retired' ? 'before' : 'after'];
    edited.teardown = [false];
    fs.writeFileSync(file, JSON.stringify(edited));

    // WHEN the command prints it, as the plan and as its teardown
    const printed = runMain(['plan', '--plan', file]);
    const teardown = runMain(['plan', '--plan', file, '--teardown']);

    // THEN both refuse it without a crash, naming the JSON pointers, and print nothing
    const refusal = (problem: string) => `CAP016 plan file: '${file}' is not a plan cdk-capability wrote: ${problem}. Run cdk8s synth again to rewrite it. Nothing was printed.`;
    expect({ code: printed.code, stdout: printed.stdout }).toEqual({ code: 1, stdout: '' });
    expect(printed.stderr.trimEnd().split('\n')).toEqual([
      refusal(`/changes/contracts/0/${change.change === 'retired' ? 'before' : 'after'} is missing`),
      refusal('/teardown ([false]) must be an object'),
    ]);
    expect(teardown).toEqual(printed);
  });

  test('prints the summary line of the changes against the lock first', () => {
    // GIVEN the plan.json of release 2 synthesized against the real lock of release 1
    const { file } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));

    // WHEN the command prints it
    const { code, stdout } = runMain(['plan', '--plan', file]);

    // THEN it exits 2 (changes, as terraform plan -detailed-exitcode) and the first line counts 2 added, 2 changed, 1 removed,
    // and the contract version and interface field release 2 changes
    expect(code).toBe(2);
    expect(stdout.split('\n')[0]).toBe('Plan: 2 to add, 2 to change, 1 to remove, 1 contract change, 1 interface field change.');
  });

  test('prints every step in apply order, numbered, with what each waits for and why', () => {
    // GIVEN the plan.json of release 2 against the lock of release 1
    const { file, plan } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));

    // WHEN the command prints it
    const { stdout } = runMain(['plan', '--plan', file]);

    // THEN the step lines follow plan.steps, numbered 1..n: stacks first, the Namespace before its ConfigMaps
    expect(stepLines(stdout)).toEqual(plan.steps.map((s, i) => ({ n: i + 1, lifecycle: s.lifecycle, id: s.id })));
    expect(plan.steps.map((s) => s.id)).toEqual(['cdn/Base', 'cdn/acme', 'cdn/globex', 'cdn/Routing#1', 'cdn/Routing#2']);
    expect(stdout).toContain('Steps, in apply order:\n  1. deploy  cdn/Base  (stack cdn-Base: deploy/');
    expect(stdout).toMatch(/ 3\. deploy {2}cdn\/globex {2}\(stack cdn-globex: deploy\/\S+\.template\.json\)\n +after cdn\/Base: shared base before tenant aggregate\n/);
    expect(stdout).toMatch(/ 5\. runtime cdn\/Routing#2 {2}\(2 objects: runtime\/0002-cdn-routing-2\.yaml\)\n(?: +after .*\n)* +after cdn\/Routing#1: Namespace before its contents\n/);
  });

  test('prints the changes against the lock and the interface changes', () => {
    // GIVEN the plan.json of release 2 against the lock of release 1
    const { file } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));

    // WHEN the command prints it
    const { stdout } = runMain(['plan', '--plan', file]);

    // THEN it ends with + added, ~ changed (each with its changed fields, old -> new), - removed, the contract's version, and the interface field with the bump it needs
    expect(stdout.slice(stdout.indexOf('\nChanges against the lock:'))).toBe(
      [
        '',
        'Changes against the lock:',
        '  + stack cdn/globex',
        '  + ConfigMap shop/extra',
        '  ~ stack cdn/Base',
        '      ~ Resources.EdgeInterfaceE1F560EE.Properties.Description: "cdk-capability interface cdn/Edge 1.0.0" -> "cdk-capability interface cdn/Edge 1.1.0"',
        '  ~ ConfigMap shop/settings',
        '      ~ data.mode: "live" -> "maintenance"',
        '  - ConfigMap shop/old',
        '',
        'Contracts:',
        '  ~ cdn/Edge 1.0.0 -> 1.1.0, at /cdk-capability/cdn/edge/v1',
        '',
        'Interface:',
        "  ~ cdn/Edge field 'maxTenants' added (optional) (needs minor)",
        '',
      ].join('\n'),
    );
  });

  test('a release with no changes says (none)', () => {
    // GIVEN the plan.json of release 1 against its own lock
    const { file } = writePlan(RELEASE_1, lockedSeries(shop, RELEASE_1));

    // WHEN the command prints it
    const { code, stdout } = runMain(['plan', '--plan', file]);

    // THEN exit 0, zero counts and (none)
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Plan: 0 to add, 0 to change, 0 to remove.');
    expect(stdout).toMatch(/\nChanges against the lock:\n {2}\(none\)\n$/);
  });

  test('a first release says so and lists no changes against a lock', () => {
    // GIVEN the plan.json of release 1 with no lock
    const { file, plan } = writePlan(RELEASE_1);

    // WHEN the command prints it
    const { stdout } = runMain(['plan', '--plan', file]);

    // THEN every stack and object is to add, and there is no lock section
    expect(stdout.split('\n')[0]).toBe(`Plan: ${plan.changes.added.length} to add, 0 to change, 0 to remove (first release: no lock file).`);
    expect(plan.changes.added).toHaveLength(5);
    expect(stdout).not.toContain('Changes against the lock:');
  });

  test('an empty composition: no steps, said so, and nothing changes (exit 0), as text and as JSON', () => {
    // GIVEN the plan.json of a CapabilityApp with nothing in it, and no lock
    const app = appOf(newSeries());
    withUpdateLock(undefined, () => app.synth());
    const file = path.join(app.outdir, 'plan.json');

    // WHEN the command prints it
    const text = runMain(['plan', '--plan', file]);
    const json = runMain(['plan', '--plan', file, '--json']);

    // THEN there is nothing to apply, and the exit code says nothing changes
    expect(text).toEqual({
      code: 0,
      stdout: [
        'Plan: 0 to add, 0 to change, 0 to remove (first release: no lock file).',
        '',
        'Steps, in apply order:',
        '  (none: the composition declares no stack and no Kubernetes object, so there is nothing to apply)',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).summary).toEqual({ add: 0, change: 0, remove: 0, changes: false });
  });

  test('--json prints the summary and the plan, valid against docs/plan-output.schema.json', () => {
    // GIVEN the plan.json of release 2 against the lock of release 1, and the shipped schema
    const { file, plan } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);

    // WHEN the command prints it with --json
    const { code, stdout } = runMain(['plan', '--plan', file, '--json']);

    // THEN exit 2, and the output is the schema's shape: counts, changes flag, the plan unchanged
    const output = JSON.parse(stdout);
    expect(code).toBe(2);
    expect(validate(output) ? [] : validate.errors).toEqual([]);
    expect(output.summary).toEqual({ add: 2, change: 2, remove: 1, changes: true });
    expect(output.plan).toEqual(plan);
    // the same document as --format json: accepted, no findings, no lock (a plan read from a file)
    expect({ accepted: output.accepted, findings: output.findings, lock: output.lock }).toEqual({ accepted: true, findings: [], lock: undefined });
    expect(runMain(['plan', '--plan', file, '--format', 'json'])).toEqual({ code: 2, stdout, stderr: '' });
  });

  test('--teardown --json prints the teardown, valid against docs/teardown-output.schema.json, and exits 2 when it deletes', () => {
    // GIVEN release 2, which removes ConfigMap shop/old, against the lock of release 1
    const { file, plan } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'teardown-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);

    // WHEN the teardown is printed as JSON, and as text
    const json = runMain(['plan', '--plan', file, '--teardown', '--json']);
    const text = runMain(['plan', '--plan', file, '--teardown']);

    // THEN both exit 2 (something to delete); the JSON is the schema's shape with the plan's teardown
    const output = JSON.parse(json.stdout);
    expect([json.code, text.code]).toEqual([2, 2]);
    expect(validate(output) ? [] : validate.errors).toEqual([]);
    expect(output).toEqual({ formatVersion: 1, firstRelease: false, summary: { delete: 1, steps: 1 }, teardown: plan.teardown });
    expect(text.stdout).toMatch(/^Teardown: 1 to delete, in 1 step, in this order:\n/);
    // and with --exit-zero, 0
    expect(runMain(['plan', '--plan', file, '--teardown', '--exit-zero']).code).toBe(0);
  });

  test('an app that synthesizes, then fails (an exit code, an error thrown after synth), prints no plan: exit 1 with its error', () => {
    // GIVEN an accepted report, written by apps that then end badly
    const { file } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const report = path.join(path.dirname(file), 'report.json');
    fs.writeFileSync(report, JSON.stringify({ formatVersion: 1, accepted: true, violations: [], warnings: [], plan: JSON.parse(fs.readFileSync(file, 'utf-8')) }));
    const exits = `cp '${report}' "$CDK_CAPABILITY_REPORT"; echo 'Error: boom after synth' >&2; exit 5`;

    // WHEN
    const run = runMain(['plan', '--app', exits, '--exit-zero']);

    // THEN
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: boom after synth\ncdk-capability plan: the app '${exits}' synthesized, then ended with exit code 5: the error above is the program's own, not a cdk-capability violation. No plan is printed for an app that fails.\n`,
    });
    // and the same app ending well prints its plan
    expect(runMain(['plan', '--app', `cp '${report}' "$CDK_CAPABILITY_REPORT"`]).code).toBe(2);
  });

  test('every format exits 2 for a changed release, 0 with --exit-zero; a teardown that deletes nothing exits 0', () => {
    // GIVEN release 2 against the lock of release 1, and release 1 against its own lock
    const { file } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const { file: same } = writePlan(RELEASE_1, lockedSeries(shop, RELEASE_1));
    const report = path.join(path.dirname(file), 'report.json');
    fs.writeFileSync(report, JSON.stringify({ formatVersion: 1, accepted: true, violations: [], warnings: [], plan: JSON.parse(fs.readFileSync(file, 'utf-8')) }));
    const viaApp = (...args: string[]) => runMain(['plan', '--app', `cp '${report}' "$CDK_CAPABILITY_REPORT"`, ...args]).code;

    // THEN
    expect({
      'text': viaApp(),
      '--json': viaApp('--json'),
      '--format json': viaApp('--format', 'json'),
      '--format sarif': viaApp('--format', 'sarif'),
      '--format github': viaApp('--format', 'github'),
      '--teardown': viaApp('--teardown'),
      '--format sarif --exit-zero': viaApp('--format', 'sarif', '--exit-zero'),
      '--exit-zero': viaApp('--exit-zero'),
      'unchanged': runMain(['plan', '--plan', same]).code,
      'unchanged --teardown': runMain(['plan', '--plan', same, '--teardown']).code,
      'usage error --exit-zero': runMain(['plan', '--format', 'xml', '--exit-zero']).code,
    }).toEqual({
      'text': 2,
      '--json': 2,
      '--format json': 2,
      '--format sarif': 2,
      '--format github': 2,
      '--teardown': 2,
      '--format sarif --exit-zero': 0,
      '--exit-zero': 0,
      'unchanged': 0,
      'unchanged --teardown': 0,
      'usage error --exit-zero': 1,
    });
  });

  test('the schema rejects what it must: a field change with neither before nor after, an unknown change kind', () => {
    // GIVEN the shipped schema and a valid --json output of release 1 against its own lock
    const { file } = writePlan(RELEASE_1, lockedSeries(shop, RELEASE_1));
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(schema);
    const { code, stdout } = runMain(['plan', '--plan', file, '--json']);
    const valid = JSON.parse(stdout);

    // WHEN it is broken in two ways
    const noValues = structuredClone(valid);
    noValues.plan.changes.fields = [{ unit: 'ConfigMap shop/settings', fields: [{ path: 'data.mode' }] }];
    const badKind = structuredClone(valid);
    badKind.plan.changes.contracts = [{ contract: 'cdn/Edge', change: 'renamed' }];

    // THEN the valid one passes (exit 0: no changes), the broken ones fail
    expect(code).toBe(0);
    expect(valid.summary).toEqual({ add: 0, change: 0, remove: 0, changes: false });
    expect([validate(valid), validate(noValues), validate(badKind)]).toEqual([true, false, false]);
  });

  test('a missing plan file exits 1 and says where it looked', () => {
    // GIVEN a path with no file
    const file = path.join(releaseDir(), 'plan.json');

    // WHEN the command prints it
    const { code, stdout, stderr } = runMain(['plan', '--plan', file]);

    // THEN exit 1, nothing on stdout
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`cdk-capability plan: no plan at '${file}': give the plan.json synth writes into its output folder (--plan dist/plan.json)\n`);
  });

  test('an output folder given for the plan exits 1 and names the plan file in it, not "not valid JSON (EISDIR)"', () => {
    // GIVEN the folder synth wrote a plan.json into, and an empty one
    const { file } = writePlan(RELEASE_2, lockedSeries(shop, RELEASE_1));
    const folder = path.dirname(file);
    const empty = releaseDir();

    // WHEN the command is given each folder for the plan
    const given = runMain(['plan', '--plan', folder]);
    const none = runMain(['plan', '--plan', empty]);

    // THEN exit 1, nothing on stdout, and the file to give instead
    expect(given).toEqual({ code: 1, stdout: '', stderr: `cdk-capability plan: '${folder}' is a folder, not a plan file: give the plan synth wrote there, --plan ${file}\n` });
    expect(none).toEqual({ code: 1, stdout: '', stderr: `cdk-capability plan: '${empty}' is a folder, not a plan file: give the plan.json synth writes into its output folder\n` });
  });

  test('an unknown option is refused with exit 1, naming it, and where the options are listed (not the whole usage)', () => {
    // WHEN run with an option plan does not have
    const { code, stdout, stderr } = runMain(['plan', '--bogus']);

    // THEN nothing runs: exit 1, the option named on stderr, then where the options are
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe("cdk-capability plan: Unknown option '--bogus'\nRun 'cdk-capability plan --help' for the options.\n");
  });

  test('a positional argument is refused too', () => {
    const { code, stderr } = runMain(['plan', 'dist/plan.json']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^cdk-capability plan: Unexpected argument 'dist\/plan\.json'/);
  });

  test('an unknown command is named, then each command with one line of usage, exit 1; --help exits 0', () => {
    // WHEN run with an unknown command, with none, and with "plan --help"
    const unknown = runMain(['bogus']);
    const none = runMain([]);
    const help = runMain(['plan', '--help']);

    // THEN the command named and the commands listed, one line each, not every command's whole usage
    const commands = [
      '  cdk-capability plan [--app "<command>"] [--plan <plan.json>] [--json] [--format text|json|sarif|github] [--expect-lock] [--timeout <duration>] [--exit-zero]',
      '  cdk-capability plan --teardown [--app "<command>"] [--plan <plan.json>] [--json] [--expect-lock] [--timeout <duration>] [--exit-zero]',
      '  cdk-capability apply [--outdir <dir>] [--dry-run] [--from-step <n>] [--timeout <duration>] [--deploy-timeout <duration>]',
      '  cdk-capability audit [<file> | -] [--lock <file>] [--json] [--format text|json|sarif|github] [--exit-zero]',
      '  cdk-capability --version',
      '  cdk-capability --help',
      'Run cdk-capability <command> --help for its options.',
      '',
    ];
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: ["cdk-capability: unknown command 'bogus'. The commands:", ...commands].join('\n') });
    expect(none).toEqual({ code: 1, stdout: '', stderr: ['cdk-capability: no command given. The commands:', ...commands].join('\n') });
    expect(help.code).toBe(0);
  });

  test("an empty --app is a usage error saying it is empty, not 'no --app given'", () => {
    for (const app of ['', ' ']) {
      expect(runMain(['plan', '--app', app])).toEqual({
        code: 1,
        stdout: '',
        stderr: `cdk-capability plan: --app '${app}' is empty: give the command that runs the app, as cdk8s.yaml's "app" does (--app "npx ts-node main.ts"), or leave --app out to run ./cdk8s.yaml's\n`,
      });
    }
  });

  test('--version prints the package version alone and exits 0', () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')).version;
    expect(runMain(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

interface Spawned {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real command line, as a user would, from the repository root. */
function spawnPlan(fixture: string, env: Record<string, string>): Promise<Spawned> {
  const app = `${NODE_TS_COMMAND} ${path.join('test', 'fixtures', 'plan-app', fixture)}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.CDK8S_OUTDIR;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_TS, 'src/cli/main.ts', 'plan', '--app', app], { cwd: ROOT, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), SPAWN_TIMEOUT - 5_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('cdk-capability plan --app (spawned for real)', () => {
  let accepted: Spawned;
  let refused: Spawned;
  let lockFile: string;
  let project: string;

  beforeAll(async () => {
    // GIVEN the fixtures, a lock path with no file, an outdir the program sets (absolute, as its prop), and CDK_CAPABILITY_UPDATE_LOCK=1
    project = releaseDir();
    lockFile = path.join(project, 'capability.lock.json');
    const env = { PLAN_APP_LOCK: lockFile, PLAN_APP_OUTDIR: path.join(project, 'dist'), CDK_CAPABILITY_UPDATE_LOCK: '1' };
    // WHEN `cdk-capability plan` runs the accepted and the refused app (both at once, to save time)
    [accepted, refused] = await Promise.all([spawnPlan('main.ts', env), spawnPlan('refused.ts', env)]);
  }, SPAWN_TIMEOUT);

  test('an accepted first release exits 2 (changes) and prints the summary line', () => {
    expect(`exit ${accepted.code}\n${accepted.stderr}`).toBe('exit 2\n');
    expect(accepted.stdout.split('\n').slice(0, 3)).toEqual([
      `Lock: none at ${lockFile}, so this is a first release: every stack and object is an addition, and no release check (CAP007, CAP008) compares it with an earlier release.`,
      `      If a release was accepted before, restore its lock (git checkout origin/main -- ${lockFile}); in CI, plan --expect-lock refuses a missing lock.`,
      'Plan: 4 to add, 0 to change, 0 to remove (first release: no lock file).',
    ]);
  });

  test('an accepted app prints its steps in apply order: base, tenant, Namespace, then its contents', () => {
    expect(stepLines(accepted.stdout)).toEqual([
      { n: 1, lifecycle: 'deploy', id: 'cdn/Base' },
      { n: 2, lifecycle: 'deploy', id: 'cdn/acme' },
      { n: 3, lifecycle: 'runtime', id: 'cdn/Routing#1' },
      { n: 4, lifecycle: 'runtime', id: 'cdn/Routing#2' },
    ]);
    expect(accepted.stdout).toContain('       after cdn/Base: shared base before tenant aggregate\n');
    expect(accepted.stdout).toContain('       after cdn/Routing#1: Namespace before its contents\n');
  });

  test('plan never writes the lock, even with CDK_CAPABILITY_UPDATE_LOCK=1 in the environment', () => {
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  test('plan never writes the outdir the program sets in its outdir prop: nothing appears beside the lock path', () => {
    // the accepted app's prop says <project>/dist; plan runs it into its temporary folder instead
    expect(fs.readdirSync(project)).toEqual([]);
  });

  test('a refused app exits 1 and prints the coded violation, and no plan', () => {
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/read-config declared by 'cdn/Routing/Binding' refers to rbac.authorization.k8s.io/Role shop/config-reader at roleRef",
    );
    expect(refused.stderr).toContain('cdk-capability plan: the composition was refused with 1 violation; nothing to apply.\n');
    // one coded line per violation, never the CompositionError's wrapping or a stack trace
    expect(refused.stderr).not.toMatch(/CompositionError|\n\s+at /);
    expect(refused.stdout).not.toContain('Plan:');
  });
});
