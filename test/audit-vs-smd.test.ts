/**
 * `auditCluster` on `managedFields` that the real structured-merge-diff produced (the oracle in test/smd/):
 * the seed's composition is applied with `cdk-capability apply`'s sequence, then other clients write the
 * object as they would in a cluster, and the audit must name what changed: the object, the fields, the
 * manager and the writer it displaced.
 *
 * The composition: an `ApplicationDeployment` declared by `cap/Routing/Object` (image, replicas) into which
 * the deployment pipeline's `cap/Routing/Timers` contributes `spec.timers`, and whose `spec.domains` NetOp
 * writes in the cluster, declared as the runtime writer `cap/Routing/NetOp` with its field manager `netop`.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import * as fc from 'fast-check';
import * as jsyaml from 'js-yaml';
import { applyOperations, asLiveObject, objectKey, Release, REPLAYED_KINDS, synthRelease } from './cluster-fixtures';
import { editedJson, jsonEdit } from './json-edits';
import type { SmdOperation, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { audit } from '../src/cli/audit';
import { main } from '../src/cli/main';
import { AuditFinding, auditCluster } from '../src/cluster/audit';
import { AUDIT_RULES } from '../src/cluster/audit-rules';
import { readLiveObjects } from '../src/cluster/live-objects';
import { expectedObjects } from '../src/cluster/object-writers';
import { writeLock } from '../src/release/lock';

afterAll(removeTempDirs);

const OBJECT = 'example.com/ApplicationDeployment ns/shared';
/** Cases of the property test of audit on edited live objects. */
const AUDIT_FUZZ_RUNS = 200;
const KEY = 'example.com/ApplicationDeployment ns/shared';

let release: Release;
let manifest: any;
let sequence: SmdOperation[];

/** The object as the release applied it, changed by `change`: what a client's full-object update sends. */
function updated(change: (o: any) => void): any {
  const o = structuredClone(manifest);
  change(o);
  return o;
}

/** Each scenario: what other clients write after the release's apply. */
const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'clean': () => [],
  'NetOp applies its declared fields under its manager': () => [
    { manager: 'netop', object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { domains: ['shop.example.com'] } } },
  ],
  'an undeclared manager applies a field the composition does not write': () => [
    { manager: 'helm', object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { routeTables: { east: 'rt-1' } } } },
  ],
  'an undeclared manager force-applies a field of the declarer': () => [
    { manager: 'helm', force: true, object: { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'shared', namespace: 'ns' }, spec: { replicas: 9 } } },
  ],
  'kubectl edit changes a timer': () => [
    { manager: 'kubectl-edit', operation: 'update', object: updated((o) => (o.spec.timers.publishTimeout = '30m')) },
  ],
  'the seed incident: a controller\'s full-object Update() without timers': () => [
    { manager: 'netop', operation: 'update', object: updated((o) => { delete o.spec.timers; o.spec.domains = ['shop.example.com']; }) },
  ],
};

let results: Record<string, SmdResult> = {};
let cases: Record<string, NamedSmdCase> = {};

beforeAll(() => {
  release = synthRelease({
    apiVersion: 'example.com/v1',
    kind: 'ApplicationDeployment',
    declared: { spec: { image: 'app:1.0', replicas: 2 } },
    contributions: [{ id: 'Timers', fields: { spec: { timers: { publishTimeout: '5m', retryTimeout: '10s' } } } }],
    runtimeWriters: [{ id: 'NetOp', fields: ['spec.domains'], identity: 'system:serviceaccount:netop-system:netop', manager: 'netop' }],
  });
  sequence = applyOperations(release).get(KEY)!.map(({ manager, force, object }) => ({ manager, force, object }));
  manifest = sequence.find((op) => op.manager === 'cdk-capability')!.object;
  const { typeName, schema } = REPLAYED_KINDS['example.com/ApplicationDeployment'];
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, writes]) => [name, { name: `audit: ${name}`, typeName, schema, apiVersion: 'example.com/v1', applies: [...sequence, ...writes()] }]));
  // live when Go is here (CI), else the vectors recorded in test/smd/vectors/audit.json
  const answers = smdVerdicts('audit', Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

/** The audit of the scenario's object against the release's lock. */
function auditOf(scenario: string): AuditFinding[] {
  const result = results[scenario];
  expect(result.error).toBeUndefined();
  expect(result.applies.filter((a) => a.conflicts.length > 0)).toEqual([]);
  const live = readLiveObjects(JSON.stringify(asLiveObject(result, cases[scenario].applies)), 'the oracle');
  expect(live.map((l) => objectKey(l.manifest))).toEqual([KEY]);
  return auditCluster(expectedObjects(release.lock).filter((e) => e.label === OBJECT), live);
}

/** A finding without its message, which the tests match on its own. */
const shape = ({ message: _message, unitId: _unitId, ...rest }: AuditFinding) => ({ writer: undefined, writerManager: undefined, ...rest });

describe('the audit of managedFields written by structured-merge-diff', () => {
  test('a cluster as the release applied it has no finding', () => {
    expect(auditOf('clean')).toEqual([]);
  });

  test('NetOp applying its declared fields under its declared manager has no finding', () => {
    expect(auditOf('NetOp applies its declared fields under its manager')).toEqual([]);
  });

  test('the lock records NetOp as a runtime writer with its declared manager, which the audit compares with', () => {
    const writers = expectedObjects(release.lock).find((e) => e.label === OBJECT)!.writers;
    expect(writers.map((w) => [w.writer, w.manager, w.runtime ?? false])).toEqual([
      ['cap/Routing/Object', 'cdk-capability:cap/Routing/Object', false],
      ['cap/Routing/Timers', 'cdk-capability:cap/Routing/Timers', false],
      ['cap/Routing/NetOp (RuntimeWriter)', 'netop', true],
    ]);
  });

  test('an undeclared manager\'s apply: the fields it owns and the manager', () => {
    const findings = auditOf('an undeclared manager applies a field the composition does not write');
    expect(findings.map(shape)).toEqual([
      { kind: 'undeclared-manager', object: OBJECT, fields: [['spec', 'routeTables', 'east']], manager: 'helm', operation: 'Apply', writer: undefined, writerManager: undefined },
    ]);
    expect(findings[0].message).toMatch(/^example\.com\/ApplicationDeployment ns\/shared: 'helm' \(Apply at [0-9T:-]+Z\) owns spec\.routeTables\.east, and no writer of the composition declares that manager: drift, or a controller the composition does not declare\. Declare it as a RuntimeWriter with its fields and manager, pass --ignore-manager for a controller you accept, or remove its writes\.$/);
  });

  test('an undeclared manager\'s forced apply over a leaf of ours: taken over, naming the writer displaced', () => {
    const findings = auditOf('an undeclared manager force-applies a field of the declarer');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'taken-over',
        object: OBJECT,
        fields: [['spec', 'replicas']],
        manager: 'helm',
        operation: 'Apply',
        writer: 'cap/Routing/Object',
        writerManager: 'cdk-capability:cap/Routing/Object',
      },
    ]);
    expect(findings[0].message).toMatch(/^example\.com\/ApplicationDeployment ns\/shared: spec\.replicas of 'cap\/Routing\/Object' \(field manager cdk-capability:cap\/Routing\/Object\) is owned by 'helm' \(Apply at .*\) alone: an apply took it over/);
  });

  test('a kubectl edit-style update of a leaf of ours: overwritten by an update, naming the writer displaced', () => {
    const findings = auditOf('kubectl edit changes a timer');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'overwritten-by-update',
        object: OBJECT,
        fields: [['spec', 'timers', 'publishTimeout']],
        manager: 'kubectl-edit',
        operation: 'Update',
        writer: 'cap/Routing/Timers',
        writerManager: 'cdk-capability:cap/Routing/Timers',
      },
    ]);
    expect(findings[0].message).toMatch(/is now owned by 'kubectl-edit' \(Update at .*\), whose update changed it \(a kubectl edit, or a controller's full-object Update\(\)\)/);
  });

  test('the seed incident: the timers a full-object Update() dropped are stripped, naming the update and the writer', () => {
    const findings = auditOf('the seed incident: a controller\'s full-object Update() without timers');
    expect(findings.map(shape)).toEqual([
      {
        kind: 'stripped',
        object: OBJECT,
        fields: [['spec', 'timers', 'publishTimeout'], ['spec', 'timers', 'retryTimeout']],
        manager: 'netop',
        operation: 'Update',
        writer: 'cap/Routing/Timers',
        writerManager: 'cdk-capability:cap/Routing/Timers',
      },
      // and nothing of the domains it wrote: NetOp is their declared writer, under its manager
    ]);
    expect(findings[0].message).toMatch(
      /^example\.com\/ApplicationDeployment ns\/shared: spec\.timers\.publishTimeout, spec\.timers\.retryTimeout of 'cap\/Routing\/Timers' \(field manager cdk-capability:cap\/Routing\/Timers\) are gone and owned by nobody: a full-object update that did not carry them dropped them; the latest update is by 'netop' \(Update at [0-9T:-]+Z\), the field manager of the runtime writer 'cap\/Routing\/NetOp \(RuntimeWriter\)', which may change only its own fields\. Make that controller send only its own fields \(server-side apply, or a patch\), and apply the release again to restore them\. Set CapabilityApp's enforce so the admission policy refuses such an update\.$/,
    );
  });
});

describe('cdk-capability audit on those objects', () => {
  /** Writes the scenario's object as `kubectl get -o json --show-managed-fields` prints a List, and the lock. */
  function files(scenario: string): { live: string; lock: string } {
    const dir = tempDir('audit-command-');
    const live = path.join(dir, 'live.json');
    fs.writeFileSync(live, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [asLiveObject(results[scenario], cases[scenario].applies)] }, undefined, 2));
    const lock = path.join(dir, 'capability.lock.json');
    // the lock of the release, its other objects (the Namespace, the CRD) left out of the comparison
    writeLock(lock, { ...release.lock, units: release.lock.units.map(({ writers, ...u }) => (u.label === OBJECT ? { ...u, writers } : u)) });
    return { live, lock };
  }

  test('a clean cluster: exit 0 and one line saying so', () => {
    const { live, lock } = files('clean');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock]));
    expect(run.result).toBe(0);
    expect(run.stdout).toBe(`cdk-capability audit: the cluster matches ${lock} (1 object compared).\n`);
  });

  test('the seed incident: exit 2, each finding with the object, the fields, the manager and the writer', () => {
    const { live, lock } = files('the seed incident: a controller\'s full-object Update() without timers');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock]));
    expect(run.result).toBe(2);
    expect(run.stdout).toMatch(/^stripped: example\.com\/ApplicationDeployment ns\/shared: spec\.timers\.publishTimeout, spec\.timers\.retryTimeout of 'cap\/Routing\/Timers' .* the latest update is by 'netop' \(Update at [^\n]*\n/);
    expect(run.stdout).toMatch(/\ncdk-capability audit: 1 difference between the cluster and .*capability\.lock\.json \(1 object compared\)\.\n$/);
    expect(run.stdout.split('\n').filter((l) => l !== '').map((l) => l.slice(0, l.indexOf(':')))).toEqual(['stripped', 'cdk-capability audit']);
  });

  test('NetOp applying its declared fields under its manager: exit 0, its manager is no undeclared one', () => {
    const { live, lock } = files('NetOp applies its declared fields under its manager');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock]));
    expect(run.result).toBe(0);
    expect(run.stdout).toBe(`cdk-capability audit: the cluster matches ${lock} (1 object compared).\n`);
  });

  test.each([
    ['an undeclared manager applies a field the composition does not write', 'undeclared-manager'],
    ['an undeclared manager force-applies a field of the declarer', 'taken-over'],
    ['kubectl edit changes a timer', 'overwritten-by-update'],
  ])('%s: exit 2 with the %s finding', (scenario, kind) => {
    const { live, lock } = files(scenario);
    const run = capturingOutput(() => main(['audit', live, '--lock', lock]));
    expect(run.result).toBe(2);
    expect(run.stdout.split('\n')[0]).toMatch(new RegExp(`^${kind}: example\\.com/ApplicationDeployment ns/shared: `));
  });

  test('--json: valid against docs/audit-output.schema.json, the fields in both forms', () => {
    const { live, lock } = files('kubectl edit changes a timer');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock, '--json']));
    expect(run.result).toBe(2);
    const doc = JSON.parse(run.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'audit-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc).toMatchObject({ formatVersion: 1, matches: false, compared: 1, live: 1 });
    expect(doc.findings).toEqual([expect.objectContaining({
      kind: 'overwritten-by-update',
      level: 'error',
      unitId: 'object:example.com|ApplicationDeployment|ns|shared',
      fields: ['spec.timers.publishTimeout'],
      fieldPaths: [['spec', 'timers', 'publishTimeout']],
      manager: 'kubectl-edit',
      operation: 'Update',
      writer: 'cap/Routing/Timers',
      writerManager: 'cdk-capability:cap/Routing/Timers',
    })]);
  });

  test('--format sarif: valid SARIF 2.1.0, each finding a result on the lock\'s line of its object, each kind a rule', () => {
    const { live, lock } = files('the seed incident: a controller\'s full-object Update() without timers');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock, '--format', 'sarif']));
    expect(run.result).toBe(2);
    const sarif = JSON.parse(run.stdout);
    const ajv = new AjvDraft04({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8')));
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
    const line = fs.readFileSync(lock, 'utf-8').split('\n').findIndex((l) => l.includes('"id": "object:example.com|ApplicationDeployment|ns|shared"')) + 1;
    expect(sarif.runs[0].results.map((r: any) => [r.ruleId, r.level, r.locations[0].physicalLocation.region.startLine])).toEqual([
      ['stripped', 'error', line],
    ]);
    expect(sarif.runs[0].tool.driver.rules.map((r: any) => r.id)).toEqual(AUDIT_RULES.map((r) => r.id));
  });

  test('--format github: one annotation per finding on the lock\'s line', () => {
    const { live, lock } = files('kubectl edit changes a timer');
    const run = capturingOutput(() => main(['audit', live, '--lock', lock, '--format', 'github']));
    expect(run.result).toBe(2);
    expect(run.stdout).toMatch(/^::error file=[^,]*capability\.lock\.json,line=\d+,title=cdk-capability audit%3A field overwritten by an update::overwritten-by-update: example\.com\/ApplicationDeployment ns\/shared: /);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
  });

  test('stdin, YAML documents: read the same', () => {
    const { live, lock } = files('clean');
    const yaml = jsyaml.dump(JSON.parse(fs.readFileSync(live, 'utf-8')).items[0]);
    const run = capturingOutput(() => audit(['--lock', lock], () => `---\n${yaml}`));
    expect(run.result).toBe(0);
  });

  test.each<[string, (f: { live: string; lock: string }) => string[], RegExp]>([
    ['no lock', (f) => [f.live, '--lock', path.join(path.dirname(f.lock), 'none.json')], /^cdk-capability audit: no lock at '.*none\.json': audit compares the cluster with the lock of the release applied/],
    ['input without managedFields', (f) => {
      const bare = JSON.parse(fs.readFileSync(f.live, 'utf-8'));
      delete bare.items[0].metadata.managedFields;
      fs.writeFileSync(f.live, JSON.stringify(bare));
      return [f.live, '--lock', f.lock];
    }, /^CAP017 live objects: no object of the input has metadata\.managedFields: run kubectl get with --show-managed-fields\n$/],
    ['some objects of the input without managedFields', (f) => {
      const list = JSON.parse(fs.readFileSync(f.live, 'utf-8'));
      delete list.items[0].metadata.managedFields;
      list.items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: 'ns', managedFields: [{ manager: 'kubectl-create', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }] } });
      fs.writeFileSync(f.live, JSON.stringify(list));
      return [f.live, '--lock', f.lock];
    }, /^CAP017 live objects: 1 of the 2 objects of the input has no metadata\.managedFields \(example\.com\/ApplicationDeployment ns\/shared\): audit cannot tell who owns their fields\. Read every object with kubectl get --show-managed-fields\n$/],
    ['an empty --applied-by', (f) => [f.live, '--lock', f.lock, '--applied-by', ''], /^cdk-capability audit: --applied-by '' must name the field manager that applied the release, such as kustomize-controller\n/],
    ['an empty --ignore-manager', (f) => [f.live, '--lock', f.lock, '--ignore-manager', ''], /^cdk-capability audit: --ignore-manager '' must name a field manager to leave out, such as kube-controller-manager\n/],
    ['an unreadable input', (f) => [path.join(path.dirname(f.live), 'missing.json'), '--lock', f.lock], /^CAP017 live objects: cannot read '.*missing\.json': ENOENT/],
    ['an unknown format', (f) => [f.live, '--lock', f.lock, '--format', 'xml'], /^cdk-capability audit: unknown --format 'xml' \(one of text, json, sarif, github\)/],
    ['a bad label', (f) => [f.live, '--lock', f.lock, '--label', 'team'], /^cdk-capability audit: --label 'team' is not <key>=<value>/],
  ])('%s: exit 1, saying why', (_what, args, message) => {
    const f = files('clean');
    const run = capturingOutput(() => main(['audit', ...args(f)]));
    expect(run.result).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  test(`live objects edited at random (${AUDIT_FUZZ_RUNS} cases): a report, or exit 1 with one line saying why; never a crash`, () => {
    const f = files('the seed incident: a controller\'s full-object Update() without timers');
    const live = JSON.parse(fs.readFileSync(f.live, 'utf-8'));
    fc.assert(
      fc.property(fc.array(jsonEdit, { minLength: 1, maxLength: 3 }), (edits) => {
        fs.writeFileSync(f.live, JSON.stringify(editedJson(live, edits)));
        // an exception escaping main fails the case: a crash is never an accepted refusal
        const run = capturingOutput(() => main(['audit', f.live, '--lock', f.lock]));
        if (run.result === 1) {
          expect({ stdout: run.stdout, stderr: run.stderr }).toEqual({ stdout: '', stderr: expect.stringMatching(/^(cdk-capability audit|CAP017 live objects): [^\n]+\n$/) });
        } else {
          expect({ code: [0, 2].includes(run.result), stderr: run.stderr }).toEqual({ code: true, stderr: '' });
        }
      }),
      { numRuns: AUDIT_FUZZ_RUNS },
    );
  });

  test('a lock written before writers were recorded: exit 1, saying how to record them', () => {
    const f = files('clean');
    const old = JSON.parse(fs.readFileSync(f.lock, 'utf-8'));
    for (const u of old.units) delete u.writers;
    delete old.contentDigest; // an edited lock, read as one an earlier version wrote: without the contentDigest an edit would no longer match
    fs.writeFileSync(f.lock, JSON.stringify(old));
    const run = capturingOutput(() => main(['audit', f.live, '--lock', f.lock]));
    expect(run.result).toBe(1);
    expect(run.stderr).toMatch(/records no writers of runtime objects: .* Synthesize with CDK_CAPABILITY_UPDATE_LOCK=1 to record them\.\n$/);
  });
});
