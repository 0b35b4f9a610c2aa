import * as path from 'path';
import { capturingOutput, NODE_TS_COMMAND, removeTempDirs, tempDir } from './util';
import { formatAuditGithub } from '../src/cli/format-audit';
import { sarifRoot } from '../src/cli/format-sarif';
import { main } from '../src/cli/main';

// On a GitHub runner, code scanning and annotations resolve files from the workspace (GITHUB_WORKSPACE), not from
// the folder a step runs in: a plan or audit run in an app's folder of a monorepo names its files from the workspace
// in SARIF, as --format github does, so they land on the pull request's files.

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');

describe('sarifRoot', () => {
  test('the workspace when the command runs in it or below it; else the folder it runs in', () => {
    expect(sarifRoot('/w/apps/platform', '/w')).toBe('/w');
    expect(sarifRoot('/w', '/w')).toBe('/w');
    expect(sarifRoot('/w/apps/platform', '/w/')).toBe('/w');
    expect(sarifRoot('/elsewhere/app', '/w')).toBe('/elsewhere/app');
    expect(sarifRoot('/w2/app', '/w')).toBe('/w2/app');
    expect(sarifRoot('/w/apps/platform', undefined)).toBe('/w/apps/platform');
  });
});

describe('plan --format sarif run in a folder below the workspace', () => {
  /** The SARIF log of the refused fixture app, planned from test/ with GITHUB_WORKSPACE as given. */
  function sarifFromTestFolder(workspace: string | undefined): any {
    const cwd = process.cwd();
    const saved = { ws: process.env.GITHUB_WORKSPACE, lock: process.env.PLAN_APP_LOCK };
    if (workspace === undefined) delete process.env.GITHUB_WORKSPACE;
    else process.env.GITHUB_WORKSPACE = workspace;
    process.env.PLAN_APP_LOCK = path.join(tempDir(), 'capability.lock.json');
    process.chdir(path.join(ROOT, 'test'));
    try {
      const run = capturingOutput(() => main(['plan', '--format', 'sarif', '--app', `${NODE_TS_COMMAND} fixtures/plan-app/refused.ts`]));
      expect(run.result).toBe(1);
      return JSON.parse(run.stdout);
    } finally {
      process.chdir(cwd);
      for (const [k, v] of [['GITHUB_WORKSPACE', saved.ws], ['PLAN_APP_LOCK', saved.lock]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  test('on a runner: the file from the workspace, and SRCROOT the workspace', () => {
    const log = sarifFromTestFolder(ROOT);
    expect(log.runs[0].originalUriBaseIds.SRCROOT.uri).toBe(`file://${encodeURI(ROOT)}/`);
    expect(log.runs[0].results.map((r: any) => [r.ruleId, r.locations[0].physicalLocation])).toEqual([
      ['CAP005/dangling-references', { artifactLocation: { uri: 'test/fixtures/plan-app/refused.ts', uriBaseId: 'SRCROOT' }, region: { startLine: 9, startColumn: 1 } }],
    ]);
  });

  test('elsewhere: the file from the folder plan runs in, as before', () => {
    const log = sarifFromTestFolder(undefined);
    expect(log.runs[0].originalUriBaseIds.SRCROOT.uri).toBe(`file://${encodeURI(ROOT)}/test/`);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'fixtures/plan-app/refused.ts', uriBaseId: 'SRCROOT' });
  });
});

describe('audit --format github names the lock from the workspace', () => {
  const report = (lockFile: string) => ({
    lockFile,
    lockText: '{\n  "units": [\n    {\n      "id": "object:/ConfigMap/shop/settings"\n    }\n  ]\n}\n',
    compared: 1,
    live: 0,
    findings: [{ kind: 'missing-object' as const, object: 'ConfigMap shop/settings', unitId: 'object:/ConfigMap/shop/settings', fields: [], message: 'not in the cluster' }],
  });

  test('a lock in an app folder of the workspace, given relative to that folder, is named from the workspace', () => {
    const cwd = process.cwd();
    process.chdir(path.join(ROOT, 'test'));
    try {
      expect(formatAuditGithub(report('capability.lock.json'), ROOT)).toMatch(/^::error file=test\/capability\.lock\.json,line=4,/);
      // no runner: as given
      expect(formatAuditGithub(report('capability.lock.json'), undefined)).toMatch(/^::error file=capability\.lock\.json,line=4,/);
      // a lock outside the workspace: as given
      expect(formatAuditGithub(report('/elsewhere/capability.lock.json'), ROOT)).toMatch(/^::error file=\/elsewhere\/capability\.lock\.json,line=4,/);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('plan in text, refused', () => {
  test('each violation is followed by where the program created the constructs it names', () => {
    // GIVEN the refused fixture app (a RoleBinding to a Role the composition lacks), planned from the repository root
    const saved = process.env.PLAN_APP_LOCK;
    process.env.PLAN_APP_LOCK = path.join(tempDir(), 'capability.lock.json');
    try {
      // WHEN
      const run = capturingOutput(() => main(['plan', '--app', `${NODE_TS_COMMAND} test/fixtures/plan-app/refused.ts`]));

      // THEN the violation as synth words it, then its construct's creation site, then plan's line
      expect(run.result).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n');
      expect(lines[0]).toBe('The composition was refused with 1 violation:');
      expect(lines[1]).toMatch(/^CAP005 dangling reference: rbac\.authorization\.k8s\.io\/RoleBinding shop\/read-config declared by 'cdn\/Routing\/Binding' refers to /);
      expect(lines.slice(2)).toEqual([
        "  'cdn/Routing/Binding' created at test/fixtures/plan-app/refused.ts:9:1",
        'cdk-capability plan: the composition was refused with 1 violation; nothing to apply.',
        '',
      ]);
    } finally {
      if (saved === undefined) delete process.env.PLAN_APP_LOCK;
      else process.env.PLAN_APP_LOCK = saved;
    }
  });
});
