import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { readWorkflowCommand, sarifErrors } from './cifail-cli';
import { appOf, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, RuntimeRouting } from '../src';
import { audit } from '../src/cli/audit';

// `cdk-capability audit --format json|sarif|github` printed nothing on stdout when it failed on its input (a usage
// error, no lock, input it cannot read, CAP017), and --json printed nothing for a lock it cannot read (CAP014): a
// scheduled CI job that parses the JSON or uploads the SARIF log got an empty file. Each is now a document in the
// format asked for, exit 1; an objects list of another capability is CAP017, not every object missing; an input
// without any object says so in every format.

afterAll(removeTempDirs);
afterAll(removeReleaseDirs);

const validateAudit = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'audit-output.schema.json'), 'utf-8')));
const auditSchemaErrors = (doc: unknown) => (validateAudit(doc) ? [] : validateAudit.errors);

/** A release of ConfigMap shop/cfg, its lock written; the lock's path. */
function release(): string {
  const series = newSeries();
  withUpdateLock('1', () => {
    const app = appOf(series);
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1' } });
    app.synth();
  });
  return series.lockFile;
}

/** A live ConfigMap of another capability, with its managedFields. */
const OTHER = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'other',
    namespace: 'billing',
    managedFields: [{ manager: 'cdk-capability:billing/Routing/Other', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} } } }],
  },
  data: { b: '2' },
};

function run(argv: string[], stdin = ''): { code: number; stdout: string; stderr: string } {
  const r = capturingOutput(() => audit(argv, () => stdin));
  return { code: r.result, stdout: r.stdout, stderr: r.stderr };
}

const CAP017_EMPTY = 'CAP017 live objects: stdin is empty: there is no object to compare with the lock. kubectl get prints nothing on stdout when it fails (its error is on stderr), '
  + "and with --ignore-not-found nothing when it finds none of the objects: see kubectl's error, or apply the release first; "
  + 'a cluster without the objects is an empty List ({"kind":"List","items":[]})';

describe('audit input it cannot compare, in each format', () => {
  test('--json with an empty stdin: a document of docs/audit-output.schema.json with failure kind input, CAP017; stderr as before', () => {
    const lockFile = release();
    const r = run(['--lock', lockFile, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(auditSchemaErrors(doc)).toEqual([]);
    expect(doc).toEqual({
      formatVersion: 1,
      matches: false,
      findings: [],
      failure: { kind: 'input', code: 'CAP017', message: CAP017_EMPTY, summary: `cdk-capability audit stopped on live objects it cannot compare: ${CAP017_EMPTY}` },
    });
    expect(r.stderr).toBe(`${CAP017_EMPTY}\n`);
  });

  test('--format sarif --exit-zero with input that is not JSON or YAML: a valid SARIF log, no result, a failed invocation; exit 1', () => {
    const lockFile = release();
    const r = run(['--lock', lockFile, '--format', 'sarif', '--exit-zero'], '{"kind": [');
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].tool.driver.name).toBe('cdk-capability audit');
    expect(log.runs[0].results).toEqual([]);
    const [invocation] = log.runs[0].invocations;
    expect(invocation).toMatchObject({ executionSuccessful: false, exitCode: 1 });
    expect(invocation.toolExecutionNotifications).toEqual([{
      level: 'error',
      message: { text: expect.stringMatching(/^cdk-capability audit stopped on live objects it cannot compare: CAP017 live objects: stdin is neither JSON nor YAML: /) },
      properties: { kind: 'input', code: 'CAP017' },
    }]);
  });

  test('--format github with objects read with another capability\'s list: CAP017 naming them, not a missing-object finding per object', () => {
    const lockFile = release();
    const r = run(['--lock', lockFile, '--format', 'github'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [OTHER] }));
    expect(r.code).toBe(1);
    const message = `CAP017 live objects: none of the 1 object of the input (ConfigMap billing/other) is one of the 1 of the lock '${lockFile}': `
      + 'they were read with the objects.list of another capability or release, or the lock is not the one of the release applied. '
      + "Read the objects with the list synth wrote beside this lock (kubectl get -f dist/audit/objects.list --ignore-not-found -o json --show-managed-fields), or give that release's lock with --lock";
    expect(r.stderr).toBe(`${message}\n`);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(readWorkflowCommand(lines[0])).toEqual({
      command: 'error',
      properties: { title: 'cdk-capability audit: live objects it cannot compare' },
      message: `cdk-capability audit stopped on live objects it cannot compare: ${message}`,
    });
  });

  test('an empty List is every object missing (exit 2), and every format says the input held no object', () => {
    const lockFile = release();
    const empty = '{"apiVersion":"v1","kind":"List","items":[]}';
    const note = 'The input holds no object at all: check that it was read from the cluster the release is applied to (the kubectl context), with the documented command (docs/cluster.md).';
    const json = run(['--lock', lockFile, '--json'], empty);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout);
    expect(auditSchemaErrors(doc)).toEqual([]);
    expect(doc.note).toBe(note);
    const sarif = run(['--lock', lockFile, '--format', 'sarif'], empty);
    const log = JSON.parse(sarif.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [{ level: 'warning', message: { text: note } }] }]);
    const github = run(['--lock', lockFile, '--format', 'github'], empty);
    const lines = github.stdout.trimEnd().split('\n');
    expect(lines.map((l) => readWorkflowCommand(l)?.command)).toEqual(['error', 'warning']);
    expect(readWorkflowCommand(lines[1])).toEqual({ command: 'warning', properties: { title: 'cdk-capability audit: no object read' }, message: note });
  });
});

describe('audit without a lock it can compare with, in each format', () => {
  test('--json with no lock: failure kind lock, the file, and where to find the lock', () => {
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    const r = run(['--lock', lockFile, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(auditSchemaErrors(doc)).toEqual([]);
    const message = `no lock at '${lockFile}': audit compares the cluster with the lock of the release applied. Give it with --lock <file>, or run audit in the folder that holds capability.lock.json (the lock committed with the release)`;
    expect(doc.failure).toEqual({ kind: 'lock', file: lockFile, message, summary: `cdk-capability audit stopped on a lock it cannot compare with: ${message}` });
    expect(r.stderr).toBe(`cdk-capability audit: ${message}\n`);
  });

  test('--json with a lock that is not JSON: failure kind lock, CAP014, its line as text prints it', () => {
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    fs.writeFileSync(lockFile, '{bad');
    const r = run(['--lock', lockFile, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(auditSchemaErrors(doc)).toEqual([]);
    expect(doc.failure).toMatchObject({ kind: 'lock', code: 'CAP014', file: lockFile });
    expect(`${doc.failure.message}\n`).toBe(r.stderr);
    expect(r.stderr).toMatch(/^CAP014 lock file: /);
  });
});

describe('a usage error of audit, in the format asked for', () => {
  test('--json with two inputs: failure kind usage, uncoded', () => {
    const r = run(['--json', 'a.json', 'b.json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(auditSchemaErrors(doc)).toEqual([]);
    expect(doc.failure).toEqual({
      kind: 'usage',
      message: 'one input at most, got 2 (a.json b.json)',
      summary: 'cdk-capability audit ran nothing: one input at most, got 2 (a.json b.json). This is a usage error (how audit was called), not a composition violation, so it has no code; cdk-capability audit --help lists the options.',
    });
  });

  test('--format sarif with an unknown option: a valid SARIF log of the usage error', () => {
    const r = run(['--format', 'sarif', '--lokc', 'x']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].invocations[0].toolExecutionNotifications[0].properties).toEqual({ kind: 'usage' });
  });

  test('--format that names no format: text alone, saying so', () => {
    const r = run(['--format', 'sarfi']);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      "cdk-capability audit: unknown --format 'sarfi' (did you mean 'sarif'?) (one of text, json, sarif, github)",
      "This usage error is printed as text alone: --format 'sarfi' names no format of cdk-capability audit (text, json, sarif, github).",
    ]);
  });

  test('--json --format sarif: --json wins, as for a report, so a failure after it is JSON too', () => {
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    const r = run(['--json', '--format', 'sarif', '--lock', lockFile]);
    expect(JSON.parse(r.stdout).failure.kind).toBe('lock');
  });
});
