import * as os from 'os';
import { appFolder, cli, CliRun, cliInProcess, readWorkflowCommand, RUN_TS, sarifErrors, schemaErrors } from './cifail-cli';
import { HANG_GUARD_MS, removeTempDirs } from './util';

// A violation that names no construct (found in the adopt2 trial) had no physical location in the SARIF log, so
// code scanning showed it on no file. It is now placed on the best place known, and the log says which: the lock
// file, on the line of its problem, when it is about the lock; else the app's entry file.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);

const APP = `${RUN_TS} main.ts`;
const MAIN = [
  "import { Capability, CapabilityApp } from 'cdk-capability';",
  '',
  'const app = new CapabilityApp();',
  "new Capability(app, 'shop');",
  'app.synth();',
  '',
].join('\n');

/**
 * Runs `plan` on the app in the formats CI reads: through its `main` in this process, or with `spawned` the SARIF run
 * as the real command line (its exit code and stdout are the process's).
 */
function formats(dir: string, env: Record<string, string> = {}, github = true, spawned = false): Partial<Record<'sarif' | 'json' | 'github', CliRun>> & Record<'sarif' | 'json', CliRun> {
  return {
    sarif: (spawned ? cli : cliInProcess)(dir, ['plan', '--app', APP, '--format', 'sarif'], env),
    json: cliInProcess(dir, ['plan', '--app', APP, '--format', 'json'], env),
    ...(github ? { github: cliInProcess(dir, ['plan', '--app', APP, '--format', 'github'], env) } : {}),
  };
}

describe('a CAP011 that names no construct (CDK_OUTDIR holds the plan\'s output folder) is placed on the app\'s entry file', () => {
  let runs: ReturnType<typeof formats>;

  beforeAll(() => {
    // GIVEN a CI whose environment sets CDK_OUTDIR to the temporary folder, which holds plan's own output folder
    runs = formats(appFolder({ 'main.ts': MAIN }), { CDK_OUTDIR: os.tmpdir() }, true, true);
  });

  test('SARIF: the result is at main.ts line 1, and its location says it is the app\'s entry file', () => {
    const log = JSON.parse(runs.sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(runs.sarif.code).toBe(1);
    const [result] = log.runs[0].results;
    expect(result.ruleId).toBe('CAP011/output-not-written');
    expect(result.locations).toEqual([{
      physicalLocation: { artifactLocation: { uri: 'main.ts', uriBaseId: 'SRCROOT' }, region: { startLine: 1, startColumn: 1 } },
      message: { text: "the app's entry file: the finding names no construct whose creation site is known" },
      logicalLocations: [],
    }]);
    // a refusal is a run that went well: its invocation succeeded
    expect(log.runs[0].invocations).toEqual([{ executionSuccessful: true }]);
  });

  test('JSON: the finding\'s location is the entry file, locatedAt app-entry, valid against the schema', () => {
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document.findings).toHaveLength(1);
    expect(document.findings[0]).toMatchObject({ code: 'CAP011', paths: [], writers: [], location: { file: 'main.ts', line: 1, column: 1 }, locatedAt: 'app-entry' });
  });

  test('GitHub: the annotation is on main.ts line 1, and says why there', () => {
    const [line, ...rest] = runs.github!.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const command = readWorkflowCommand(line);
    expect(command?.properties).toEqual({ file: 'main.ts', line: '1', col: '1', title: 'CAP011 output not written' });
    expect(command?.message).toMatch(/^CAP011 output not written: the AWS CDK CLI runs this app with the output folder '.*' \(CDK_OUTDIR: /);
    expect(command?.message.endsWith(" [on the app's entry file: the finding names no construct whose creation site is known]")).toBe(true);
  });
});

describe('a lock CAP014 is placed on the lock file, at the line of its problem, and the SARIF log says so', () => {
  const LOCK = ['{', '<<<<<<< HEAD', '  "formatVersion": 1', '=======', '  "formatVersion": 2', '>>>>>>> release-2', '}', ''].join('\n');
  let runs: ReturnType<typeof formats>;

  beforeAll(() => {
    // (its GitHub annotation, on the lock's line, is test/lockci-github-lock.test.ts's)
    runs = formats(appFolder({ 'main.ts': MAIN, 'capability.lock.json': LOCK }), {}, false);
  });

  test('SARIF: at capability.lock.json line 2 (the first conflict marker), with the location\'s message', () => {
    const log = JSON.parse(runs.sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    const [result] = log.runs[0].results;
    expect(result.ruleId).toMatch(/^CAP014\//);
    expect(result.locations).toEqual([{
      physicalLocation: { artifactLocation: { uri: 'capability.lock.json', uriBaseId: 'SRCROOT' }, region: { startLine: 2, startColumn: 1 } },
      message: { text: 'the lock file this finding is about, at the line of the problem' },
      logicalLocations: [],
    }]);
  });

  test('JSON: locatedAt lock-file', () => {
    const document = JSON.parse(runs.json.stdout);
    expect(schemaErrors('plan-output.schema.json', document)).toEqual([]);
    expect(document.findings[0]).toMatchObject({ code: 'CAP014', location: { file: 'capability.lock.json', line: 2, column: 1 }, locatedAt: 'lock-file' });
  });
});

describe('a refusal of plan --teardown --json', () => {
  test('prints the refusal as plan --json does, valid against docs/teardown-output.schema.json (it printed nothing)', () => {
    const dir = appFolder({ 'main.ts': MAIN });
    const run = cliInProcess(dir, ['plan', '--teardown', '--json', '--app', APP], { CDK_OUTDIR: os.tmpdir() });
    expect(run.code).toBe(1);
    const document = JSON.parse(run.stdout);
    expect(schemaErrors('teardown-output.schema.json', document)).toEqual([]);
    // (each run's scratch folder has a name of its own)
    const scratch = (text: string) => JSON.parse(text.replace(/cdk-capability-plan-\w+/g, 'cdk-capability-plan-XXXXXX'));
    expect(scratch(run.stdout)).toEqual(scratch(cliInProcess(dir, ['plan', '--json', '--app', APP], { CDK_OUTDIR: os.tmpdir() }).stdout));
    expect(document).toMatchObject({ formatVersion: 1, accepted: false, findings: [{ code: 'CAP011', locatedAt: 'app-entry' }] });
  });
});
