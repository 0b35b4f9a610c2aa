import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { capturingOutput, HANG_GUARD_MS, NODE_TS_COMMAND, removeTempDirs, tempDir } from './util';
import { ViolationCode } from '../src/check/finding';
import { RULES } from '../src/check/rules';
import { danglingReferences } from '../src/check/rules/dangling-references';
import { escapeData, escapeProperty, formatGithub } from '../src/cli/format-github';
import { main } from '../src/cli/main';
import { firstProgramFrame } from '../src/private/creation-site';
import type { SynthReport } from '../src/render/report-file';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const SPAWN_TIMEOUT = HANG_GUARD_MS;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE'; // AWS's documented example key id

/** Runs `main(argv)` in process, capturing what it writes to stdout and stderr. */
function runMain(argv: string[]): { code: number; stdout: string; stderr: string } {
  const { result, stdout, stderr } = capturingOutput(() => main(argv));
  return { code: result, stdout, stderr };
}

/** The 1-based line of this file that holds `marker`. */
function lineOf(marker: string): number {
  return fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.includes(marker) && !l.includes('lineOf(')) + 1;
}

/** Synthesizes, in this process, a composition with one refusal and one warning, and returns its report file. */
function refusedReport(): { file: string; report: SynthReport } {
  const dir = tempDir();
  const file = path.join(dir, 'report.json');
  const previous = process.env.CDK_CAPABILITY_REPORT;
  process.env.CDK_CAPABILITY_REPORT = file;
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'capability.lock.json') });
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'creds', namespace: 'shop' }, data: { key: `id=${AWS_KEY}` } }); // SITE-CREDS
    new ApiObject(routing, 'Binding', { // SITE-BINDING
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'read-config', namespace: 'shop' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'config-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'shop' }],
    });
    new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    expect(() => app.synth()).toThrow(/CAP005/);
  } finally {
    err.mockRestore();
    if (previous === undefined) delete process.env.CDK_CAPABILITY_REPORT;
    else process.env.CDK_CAPABILITY_REPORT = previous;
  }
  return { file, report: JSON.parse(fs.readFileSync(file, 'utf-8')) };
}

/** `plan --format <format>` of the report `file`, through an app command that only copies the report into place. */
function planOfReport(file: string, format: string) {
  return runMain(['plan', '--app', `cp '${file}' "$CDK_CAPABILITY_REPORT"`, '--format', format]);
}

const THIS_FILE = path.relative(process.cwd(), __filename).split(path.sep).join('/');
const DANGLING =
  "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/read-config declared by 'cdn/Routing/Binding' refers to rbac.authorization.k8s.io/Role shop/config-reader at roleRef, which is not in the composition. Declare the target in the composition, fix the name, or mark it external with Reference.external(scope, id, { apiVersion, kind, name, namespace }).";

describe('source locations in the report', () => {
  test('each construct a finding names is located at the line of this file that created it', () => {
    // WHEN a refused composition built in this file reports
    const { report } = refusedReport();

    // THEN the locations are this file's lines of `new ApiObject(...)`, column of `new`
    expect(report.locations).toEqual({
      'cdn/Routing/Binding': { file: __filename, line: lineOf('// SITE-BINDING'), column: 5, order: expect.any(Number) },
      'cdn/Routing/Creds': { file: __filename, line: lineOf('// SITE-CREDS'), column: 5, order: expect.any(Number) },
    });
    // and the later construct has the larger creation order
    expect(report.locations!['cdn/Routing/Binding'].order).toBeGreaterThan(report.locations!['cdn/Routing/Creds'].order!);
  });

  test('the creation site is the first frame outside node_modules, node internals and this package', () => {
    // GIVEN a V8 stack as constructs, cdk8s and this package leave it
    const own = path.join(ROOT, 'src', 'routing', 'tenant-route.ts');
    const stack = [
      'Error',
      `    at new Node (${ROOT}/node_modules/constructs/lib/construct.js:65:24)`,
      `    at new ApiObject (${ROOT}/node_modules/cdk8s/lib/api-object.js:99:9)`,
      `    at RuntimeRouting.route (${own}:40:7)`,
      '    at node:internal/modules/cjs/loader:1554:14',
      '    at /home/me/app/main.ts:12:3',
      '    at Object.<anonymous> (/home/me/app/other.ts:1:1)',
    ].join('\n');

    // THEN the site is the program's main.ts
    expect(firstProgramFrame(stack)).toEqual({ file: '/home/me/app/main.ts', line: 12, column: 3 });
    expect(firstProgramFrame('Error\n    at file:///home/me/app/m%20x.mjs:3:9')).toEqual({ file: '/home/me/app/m x.mjs', line: 3, column: 9 });
    expect(firstProgramFrame(`Error\n    at new X (${own}:1:1)`)).toBeUndefined();
  });
});

describe('cdk-capability plan --format github', () => {
  test('prints one workflow command per finding, errors first, as exact text; exit code 1', () => {
    // GIVEN a refused composition's report (CAP005) with a warning (CAP012)
    const { file } = refusedReport();

    // WHEN the plan is printed for GitHub
    const { code, stdout, stderr } = planOfReport(file, 'github');

    // THEN one ::error and one ::warning, each at the file and line that created the construct
    expect(code).toBe(1);
    expect(stdout).toBe(
      [
        `::error file=${THIS_FILE},line=${lineOf('// SITE-BINDING')},col=5,title=CAP005 dangling reference::${DANGLING} (constructs: cdn/Routing/Binding)`,
        `::warning file=${THIS_FILE},line=${lineOf('// SITE-CREDS')},col=5,title=CAP012 possible secret::CAP012 possible secret: an AWS access key id ("AKIA...MPLE") in data.key of ConfigMap shop/creds declared by 'cdn/Routing/Creds' would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret. (constructs: cdn/Routing/Creds)`,
        '',
      ].join('\n'),
    );
    expect(stderr).toBe('cdk-capability plan: the composition was refused with 1 violation; nothing to apply.\n');
  });

  test('text prints the warning too, before the violation, as synth prints both (a user trial found it dropped)', () => {
    // GIVEN the same refused report, with its CAP012 warning
    const { file } = refusedReport();

    // WHEN printed as text
    const { code, stdout, stderr } = planOfReport(file, 'text');

    // THEN the warning, then the violations, then the refusal line, all on stderr
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr.split('\n').map((l) => l.slice(0, 30))).toEqual([
      'CAP012 warning: possible secre',
      'The composition was refused wi',
      'CAP005 dangling reference: rba',
      "  'cdn/Routing/Binding' create",
      'cdk-capability plan: the compo',
      '',
    ]);
  });

  test('escapes %, CR and LF in messages, and also : and , in properties (as @actions/core does)', () => {
    // The escaping of actions/toolkit packages/core/src/command.ts (escapeData, escapeProperty), which the runner undoes.
    expect(escapeData('a%b\rc\nd:e,f')).toBe('a%25b%0Dc%0Ad:e,f');
    expect(escapeProperty('a%b\rc\nd:e,f')).toBe('a%25b%0Dc%0Ad%3Ae%2Cf');
    expect(
      formatGithub([
        {
          code: 'CAP010' as any,
          rule: 'CAP010/object-validity',
          title: 'invalid object',
          severity: 'error',
          message: 'invalid object: 100% bad\nline',
          paths: ['a/b'],
          location: { file: 'x,y:z.ts', line: 3, column: 4 },
          writers: [{ path: 'a/b', location: { file: 'x,y:z.ts', line: 3, column: 4 } }],
        },
        { code: 'CAP000' as any, rule: 'CAP000/internal-error', title: 'internal error', severity: 'error', message: 'internal error: boom', paths: [], writers: [] },
      ]),
    ).toBe(
      '::error file=x%2Cy%3Az.ts,line=3,col=4,title=CAP010 invalid object::CAP010 invalid object: 100%25 bad%0Aline (constructs: a/b)\n' +
        '::error title=CAP000 internal error::CAP000 internal error: boom\n',
    );
  });

  test('an accepted first release prints its plan and exits 2, as every format does (the real fixture app, run by node)', () => {
    // GIVEN the accepted plan-app fixture and no lock
    const lock = path.join(tempDir(), 'capability.lock.json');
    const previous = process.env.PLAN_APP_LOCK;
    process.env.PLAN_APP_LOCK = lock;
    try {
      // WHEN
      const { code, stdout } = runMain(['plan', '--app', `${NODE_TS_COMMAND} test/fixtures/plan-app/main.ts`, '--format', 'github']);

      // THEN no annotation, the readable plan, and no lock written
      expect(`exit ${code}`).toBe('exit 2');
      expect(stdout).not.toContain('::');
      expect(stdout).toContain('Steps, in apply order:\n  1. deploy  cdn/Base');
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.PLAN_APP_LOCK;
      else process.env.PLAN_APP_LOCK = previous;
    }
  }, SPAWN_TIMEOUT);
});

describe('cdk-capability plan --format sarif', () => {
  let sarif: any;
  let code: number;

  beforeAll(() => {
    const { file } = refusedReport();
    const run = planOfReport(file, 'sarif');
    code = run.code;
    sarif = JSON.parse(run.stdout);
  });

  test('is valid against the OASIS SARIF 2.1.0 JSON Schema (vendor/sarif)', () => {
    // GIVEN the schema, read by ajv as draft-04 with its formats checked
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);

    // THEN our log validates
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
    expect(code).toBe(1);
  });

  test('the schema rejects a log that breaks it, so the check can fail', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const broken = JSON.parse(JSON.stringify(sarif));
    broken.runs[0].results[0].level = 'fatal';
    broken.runs[0].originalUriBaseIds.SRCROOT.uri = 'not a uri';
    expect(validate(broken)).toBe(false);
  });

  test('each result has its code, level, message, the creation site and the construct paths', () => {
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe('cdk-capability');
    const ids: string[] = run.tool.driver.rules.map((r: any) => r.id);
    // every rule synth runs, by its own id, plus the findings no rule makes; every code has at least one
    expect(ids).toHaveLength(RULES.length + 6);
    expect([...new Set(ids.map((id) => id.slice(0, 6)))]).toEqual(Object.values(ViolationCode));
    const dangling = ids.indexOf('CAP005/dangling-references');
    expect(run.tool.driver.rules[dangling]).toEqual({
      id: 'CAP005/dangling-references',
      name: 'DanglingReferences',
      shortDescription: { text: 'CAP005 dangling reference: dangling references' },
      fullDescription: { text: danglingReferences.explanation },
      help: {
        text: `${danglingReferences.explanation} See docs/errors.md of cdk-capability, section "CAP005 dangling reference".`,
        markdown: `${danglingReferences.explanation}\n\nSee [CAP005 dangling reference](docs/errors.md) in cdk-capability's docs/errors.md.`,
      },
      defaultConfiguration: { level: 'error' },
      properties: { code: 'CAP005' },
    });
    expect(run.originalUriBaseIds).toEqual({ SRCROOT: { uri: `file://${process.cwd()}/` } });
    expect(run.results[0]).toEqual({
      ruleId: 'CAP005/dangling-references',
      ruleIndex: dangling,
      level: 'error',
      message: { text: DANGLING },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: THIS_FILE, uriBaseId: 'SRCROOT' }, region: { startLine: lineOf('// SITE-BINDING'), startColumn: 5 } },
          logicalLocations: [{ fullyQualifiedName: 'cdn/Routing/Binding', kind: 'object' }],
        },
      ],
    });
    expect(run.results.map((r: any) => `${r.ruleId} ${r.level}`)).toEqual(['CAP005/dangling-references error', 'CAP012/possible-secrets warning']);
  });
});

describe('cdk-capability plan --format json', () => {
  test('prints the findings with codes, paths and locations, and no plan when refused', () => {
    const { file } = refusedReport();
    const { code, stdout } = planOfReport(file, 'json');
    const json = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(json.accepted).toBe(false);
    expect(json.plan).toBeUndefined();
    expect(json.findings.map((f: any) => [f.code, f.severity, f.paths, f.location])).toEqual([
      ['CAP005', 'error', ['cdn/Routing/Binding'], { file: THIS_FILE, line: lineOf('// SITE-BINDING'), column: 5 }],
      ['CAP012', 'warning', ['cdn/Routing/Creds'], { file: THIS_FILE, line: lineOf('// SITE-CREDS'), column: 5 }],
    ]);
  });

  test('an unknown format, or --format sarif with --plan, is a usage error: exit code 1, never 2; SARIF asked for, a SARIF log of it', () => {
    expect(runMain(['plan', '--format', 'xml']).code).toBe(1);
    const r = runMain(['plan', '--plan', 'plan.json', '--format', 'sarif']);
    expect({ ...r, stdout: '' }).toEqual({
      code: 1, stdout: '', stderr: "cdk-capability plan: --format sarif needs the app's findings, so it runs the app: drop --plan\n",
    });
    expect(JSON.parse(r.stdout).runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, toolExecutionNotifications: [{ properties: { kind: 'usage' } }] });
  });
});
