import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir, WIDGET_CRD } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
const CLI_TIMEOUT = HANG_GUARD_MS;

/**
 * A plain cdk8s project in a fresh folder, as a user has one: `cdk8s.yaml`
 * with one entry under `validations:`, and a JavaScript app of plain cdk8s
 * charts. The plugin entry names a local file that loads this repository's
 * plugin from source (a consumer names `./node_modules/cdk-capability`), and
 * node_modules is this repository's, linked in.
 *
 * @param charts chart id -> the documents of that chart, in order
 */
function plainProject(charts: Record<string, object[]>): string {
  const dir = tempDir('cdk-capability-plugin-');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(
    path.join(dir, 'plugin.js'),
    `require(${JSON.stringify(NODE_TS[1])});\nmodule.exports = require(${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))});\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'cdk8s.yaml'),
    ['language: javascript', 'app: node main.js', 'validations:', '  - package: ./plugin.js', '    class: CapabilityValidation', '    version: 0.0.0', ''].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'main.js'),
    [
      "const { ApiObject, App, Chart } = require('cdk8s');",
      'const app = new App();',
      `for (const [id, docs] of Object.entries(${JSON.stringify(charts)})) {`,
      '  const chart = new Chart(app, id);',
      '  docs.forEach((d, i) => new ApiObject(chart, `o${i}`, d));',
      '}',
      'app.synth();',
      '',
    ].join('\n'),
  );
  return dir;
}

/**
 * A `CapabilityApp` project with the validation plugin configured, as the user trial had it: a
 * `SharedBase` holding an SSM parameter and a `RuntimeRouting` holding a ConfigMap. The app and the
 * plugin load this repository's source, as in {@link plainProject}.
 */
function capabilityProject(): string {
  const dir = tempDir('cdk-capability-plugin-app-');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const register = `require(${JSON.stringify(NODE_TS[1])});`;
  const source = JSON.stringify(path.join(ROOT, 'src', 'index.ts'));
  fs.writeFileSync(path.join(dir, 'plugin.js'), `${register}\nmodule.exports = require(${source});\n`);
  fs.writeFileSync(
    path.join(dir, 'cdk8s.yaml'),
    ['language: javascript', 'app: node main.js', 'validations:', '  - package: ./plugin.js', '    class: CapabilityValidation', '    version: 0.0.0', ''].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'main.js'),
    [
      register,
      "const { aws_ssm: ssm } = require('aws-cdk-lib');",
      "const { ApiObject } = require('cdk8s');",
      `const { Capability, CapabilityApp, RuntimeRouting, SharedBase } = require(${source});`,
      'const app = new CapabilityApp();',
      "const cdn = new Capability(app, 'cdn');",
      "new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'Origin', { stringValue: 'origin.example.com' });",
      "new ApiObject(new RuntimeRouting(cdn, 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
      'app.synth();',
      '',
    ].join('\n'),
  );
  return dir;
}

interface Synth {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The JSON validation report the CLI wrote (`--validation-reports-output-file`). */
  readonly report: any;
}

/** `cdk8s synth` in `dir`, offline, with the JSON report written beside. */
function synth(dir: string, env: NodeJS.ProcessEnv = {}): Synth {
  const reportFile = path.join(tempDir(), 'validation.json');
  const runEnv = { ...process.env, ...env };
  delete runEnv.CDK8S_OUTDIR;
  delete runEnv.CDK_CAPABILITY_REPORT;
  const run = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--validation-reports-output-file', reportFile], { cwd: dir, env: runEnv, encoding: 'utf-8', timeout: CLI_TIMEOUT - 5_000 });
  if (run.error) throw run.error;
  const report = fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf-8')) : undefined;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, report };
}

const CRD = WIDGET_CRD;
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
const WIDGET = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' }, spec: { size: 1 } };
const CONFIG = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'live' } };

/** The violations of our plugin's report: rule name and the resources, as `manifest#document resource`. */
function violations(report: any): Array<{ rule: string; resources: string[] }> {
  const ours = report.reports.find((r: any) => r.summary.plugin.endsWith('plugin.js'));
  return ours.violations.map((v: any) => ({
    rule: v.ruleName,
    resources: v.violatingConstructs.map((c: any) => `${path.basename(c.manifestPath)}#${c.locations.join(',')} ${c.resourceName} at ${c.constructPath ?? 'N/A'}`),
  }));
}

describe('the cdk8s validation plugin under the real cdk8s CLI, on a plain cdk8s app', () => {
  let bad: Synth;
  let good: Synth;

  beforeAll(() => {
    bad = synth(
      plainProject({
        base: [NAMESPACE, CONFIG],
        app: [
          WIDGET,
          CRD,
          { ...CONFIG, data: { mode: 'other' } },
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'read', namespace: 'shop' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
            subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'shop' }],
          },
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', namespace: 'shop' }, data: { origin: '${Token[TOKEN.42]}' } },
        ],
      }),
    );
    good = synth(plainProject({ '1-base': [NAMESPACE, CRD, CONFIG], '2-app': [WIDGET] }));
  }, 2 * CLI_TIMEOUT);

  test('manifests that pass: the CLI reports success and exits 0', () => {
    expect(`exit ${good.status}\n${good.stderr}`).toBe('exit 0\n');
    expect(good.stdout).toContain('Validations ended succesfully');
    expect(violations(good.report)).toEqual([]);
  });

  test('refused manifests: the CLI exits 2 and reports each finding with its code', () => {
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('Validation failed. See above reports for details\n');
    expect(violations(bad.report)).toEqual([
      // cdk8s keys its construct metadata by object name (the one it wrote last): the two objects named settings are given no path, not one path twice
      {
        rule: 'CAP001 duplicate object',
        resources: ['app.k8s.yaml#document 3 (ConfigMap shop/settings) ConfigMap shop/settings at N/A', 'base.k8s.yaml#document 2 (ConfigMap shop/settings) ConfigMap shop/settings at N/A'],
      },
      { rule: 'CAP005 dangling reference', resources: ['app.k8s.yaml#document 4 (RoleBinding shop/read) read at app/o3'] },
      { rule: 'CAP006 boundary leak', resources: ['app.k8s.yaml#document 5 (ConfigMap shop/Bad_Name) Bad_Name at app/o4'] },
      { rule: 'CAP010 invalid object', resources: ['app.k8s.yaml#document 5 (ConfigMap shop/Bad_Name) Bad_Name at app/o4'] },
      {
        rule: 'CAP013 custom resource before its CRD',
        resources: ['app.k8s.yaml#document 1 (Widget shop/w) w at app/o0', 'app.k8s.yaml#document 2 (CustomResourceDefinition widgets.example.com) widgets.example.com at app/o1'],
      },
    ]);
  });

  test("the findings' messages name the app's own construct paths, as cdk8s recorded them", () => {
    const ours = bad.report.reports.find((r: any) => r.summary.plugin.endsWith('plugin.js'));
    const dangling = ours.violations.find((v: any) => v.ruleName.startsWith('CAP005'));
    expect(dangling.recommendation).toMatch(/^CAP005 dangling reference: rbac\.authorization\.k8s\.io\/RoleBinding shop\/read declared by 'app\/o3' refers to /);
  });

  test("two objects of one name, which cdk8s' metadata cannot tell apart, are named by their manifest file and document", () => {
    const ours = bad.report.reports.find((r: any) => r.summary.plugin.endsWith('plugin.js'));
    const duplicate = ours.violations.find((v: any) => v.ruleName.startsWith('CAP001')).recommendation;
    expect(duplicate).toMatch(/^CAP001 duplicate object: ConfigMap shop\/settings is declared by document \d of 'dist\/\w+\.k8s\.yaml' and document \d of 'dist\/\w+\.k8s\.yaml'\. /);
    expect(duplicate).toContain("document 3 of 'dist/app.k8s.yaml'");
    expect(duplicate).toContain("document 2 of 'dist/base.k8s.yaml'");
  });

  test('the advice fits a plain cdk8s app: no Contribution, InterfaceContract or Reference.external as the fix', () => {
    const ours = bad.report.reports.find((r: any) => r.summary.plugin.endsWith('plugin.js'));
    const advice = (code: string) => ours.violations.find((v: any) => v.ruleName.startsWith(code)).recommendation;
    expect(advice('CAP001')).toMatch(/\. Emit it once: drop one of the constructs, or give each its own name \(or namespace\)\. If two parts of the app must each write fields of one object, synthesize with CapabilityApp, where a Contribution writes them\.$/);
    expect(advice('CAP005')).toMatch(/, which is not in the app's manifests\. Emit the target in the app, or fix the name\. If another release provides it, the reference is expected to dangle here: with CapabilityApp, Reference\.external\(scope, id, \{ apiVersion, kind, name, namespace \}\) says so\.$/);
    expect(advice('CAP006')).toMatch(/\. cdk8s cannot resolve an aws-cdk token: pass the resolved value to the chart \(a literal, or a value read at synth\), or let a deploy step write it to the cluster \(an ExternalSecret reading SSM\)\. With CapabilityApp, an InterfaceContract carries such values across, resolved at deploy time\.$/);
    for (const v of ours.violations) expect(v.recommendation).not.toMatch(/new Contribution\(|contract\.consume\(|in the composition/);
  });

  test('the CAP013 recommendation names both documents and the fix', () => {
    const ours = bad.report.reports.find((r: any) => r.summary.plugin.endsWith('plugin.js'));
    const crd = ours.violations.find((v: any) => v.ruleName.startsWith('CAP013'));
    expect(crd.recommendation).toBe(
      "CAP013 custom resource before its CRD: example.com/Widget shop/w (document 1 of '" +
        `${crd.violatingConstructs[0].manifestPath}') comes before CustomResourceDefinition widgets.example.com (document 2 of '${crd.violatingConstructs[0].manifestPath}') in apply order ` +
        '(files by name, then documents, as kubectl apply -f <folder> takes them), so the API server refuses the custom resource. ' +
        'Emit the CRD first (an earlier chart, or earlier in its chart), or synthesize with CapabilityApp, which orders it.',
    );
    expect(crd.fix).toBe('See docs/errors.md of cdk-capability, section "CAP013 custom resource before its CRD".');
  });
});

describe('deletion safety against a lock, under the real cdk8s CLI', () => {
  test('removing the CRD while its custom resource remains is CAP008 against the lock the first release wrote', () => {
    // GIVEN release 1, which passes and writes the lock (CDK_CAPABILITY_UPDATE_LOCK=true, as a CI job sets it)
    const dir = plainProject({ '1-base': [NAMESPACE, CRD], '2-app': [WIDGET] });
    const first = synth(dir, { CDK_CAPABILITY_UPDATE_LOCK: 'true' });
    expect(`exit ${first.status}\n${first.stderr}`).toBe(
      'exit 0\ncdk-capability: wrote the lock of this release to capability.lock.json (CDK_CAPABILITY_UPDATE_LOCK=true); commit it.\n',
    );
    expect(fs.existsSync(path.join(dir, 'capability.lock.json'))).toBe(true);
    // and a value it cannot read is CAP011, before anything is written
    const maybe = plainProject({ '1-base': [NAMESPACE] });
    const refused = synth(maybe, { CDK_CAPABILITY_UPDATE_LOCK: 'maybe' });
    expect(refused.status).toBe(2);
    expect(violations(refused.report).map((v) => v.rule)).toEqual(['CAP011 output not written']);
    expect(fs.existsSync(path.join(maybe, 'capability.lock.json'))).toBe(false);

    // WHEN release 2 drops the CRD but keeps the Widget
    const next = plainProject({ '1-base': [NAMESPACE], '2-app': [WIDGET] });
    fs.copyFileSync(path.join(dir, 'capability.lock.json'), path.join(next, 'capability.lock.json'));
    const second = synth(next);

    // THEN the plugin refuses it with CAP008
    expect(second.status).toBe(2);
    expect(violations(second.report).map((v) => v.rule)).toEqual(['CAP008 unsafe deletion']);
  }, 2 * CLI_TIMEOUT);
});

describe('the validation plugin under the real cdk8s CLI, on the output of a CapabilityApp', () => {
  let dir: string;
  let run: Synth;

  beforeAll(() => {
    // GIVEN a CapabilityApp with the plugin configured, synthesized with the lock switch on (as a release job runs it)
    dir = capabilityProject();
    run = synth(dir, { CDK_CAPABILITY_UPDATE_LOCK: '1' });
  }, CLI_TIMEOUT);

  test('exits 0; the lock is written once, by the app, and the plugin says in one line that it skipped the output', () => {
    expect(`exit ${run.status}\n${run.stderr}`).toBe(
      'exit 0\n' +
        'cdk-capability: wrote the lock of this release to capability.lock.json (CDK_CAPABILITY_UPDATE_LOCK=1); commit it.\n' +
        "cdk-capability: the validation plugin skipped 'dist', the output of a CapabilityApp: its synth ran these checks, and the lock is its own.\n",
    );
    expect(violations(run.report)).toEqual([]);
  });

  test("the lock is the app's: its stack and its object by construct path, no kustomization.yaml as an object", () => {
    const lock = JSON.parse(fs.readFileSync(path.join(dir, 'capability.lock.json'), 'utf-8'));
    expect(lock.units.map((u: { id: string; path: string }) => `${u.id} at ${u.path}`)).toEqual([
      'stack:cdn/Base at cdn/Base',
      'object:|ConfigMap||settings at cdn/Routing/Settings',
    ]);
  });
});
