/**
 * gitops3: audit takes the applier from the lock's gitops record when --applied-by is not given, and says so; a flag
 * naming another engine wins, and audit says the lock names another engine, with the fix. A field of the release that
 * the previous applier's manager alone owns (the new engine has not applied yet) is a taken-over finding that says the
 * release switched and what to do, in that order. Replayed on the real structured-merge-diff (live where Go is
 * installed, else test/smd/vectors/gitops3-audit.json), as test/switch2-audit.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { sarifErrors } from './cifail-cli';
import { byArgo, byFlux, identity, manifest, TYPE } from './engine-switch-operations';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import type { SmdOperation, SmdResult } from './smd/smd';
import { smdVerdicts } from './smd/verdicts';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting } from '../src';
import { main } from '../src/cli/main';
import { writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

/** The writer's field manager, as the lock records it. */
const WRITER = 'cdk-capability:shop/Routing/Cfg-acme';
const T = '2026-12-07T10:00:00Z';

/** cdk-capability apply: the writer's fields under its own manager, then the whole object under cdk-capability, both with force. */
const byApply: SmdOperation[] = [
  { manager: WRITER, force: true, object: manifest },
  { manager: 'cdk-capability', force: true, object: manifest },
];
/** The command the findings give: the object's identity alone (audit/objects.list) applied under the old manager. */
const releasing = (manager: string): SmdOperation => ({ manager, object: identity });

let fluxOnly: SmdResult;
let fluxReleasedTooEarly: SmdResult;
let fluxThenArgo: SmdResult;
let fluxThenArgoReleased: SmdResult;
let applyOnly: SmdResult;
let argoLock: Lock;
let fluxLock: Lock;
let plainLock: Lock;

beforeAll(() => {
  [fluxOnly, fluxReleasedTooEarly, fluxThenArgo, fluxThenArgoReleased, applyOnly] = smdVerdicts('gitops3-audit', [
    { name: 'gitops3: Flux applied (Argo CD has not synced yet)', typeName: TYPE, apiVersion: 'v1', applies: [byFlux] },
    { name: 'gitops3: Flux applied, then the identity alone under kustomize-controller before Argo CD synced', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, releasing('kustomize-controller')] },
    { name: 'gitops3: Flux applied, then Argo CD syncs', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo] },
    { name: 'gitops3: Flux applied, then Argo CD syncs, then the identity alone under kustomize-controller', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo, releasing('kustomize-controller')] },
    { name: 'gitops3: cdk-capability apply (Argo CD has not synced yet)', typeName: TYPE, apiVersion: 'v1', applies: byApply },
  ]);
  argoLock = lockOf(GitOps.argoCd());
  fluxLock = lockOf(GitOps.flux({ sourceRef: { name: 'platform' } }));
  plainLock = lockOf(undefined);
});

/** The lock of the release of the object, written for `gitops` (or for cdk-capability apply). */
function lockOf(gitops: GitOps | undefined): Lock {
  const s = newSeries();
  const app = new CapabilityApp({ outdir: path.join(s.dir, 'dist'), lockFile: s.lockFile, ...(gitops ? { gitops } : {}) });
  new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg-acme', manifest);
  expect(coded(app.synthesize().violations)).toEqual([]);
  capturingOutput(() => withUpdateLock('1', () => app.synth()));
  return JSON.parse(fs.readFileSync(s.lockFile, 'utf8')) as Lock;
}

/** `cdk-capability audit` of the object against `lock`, with `args`. */
function audit(r: SmdResult, lock: Lock, args: string[] = []): { code: number; stdout: string } {
  const dir = tempDir('gitops3-audit-');
  const object = structuredClone(r.object) as any;
  object.metadata.managedFields = Object.entries(r.managers).map(([manager, set]) => ({
    manager, operation: 'Apply', apiVersion: 'v1', time: T, fieldsType: 'FieldsV1', fieldsV1: set.fieldsV1,
  }));
  fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(object));
  writeLock(path.join(dir, 'capability.lock.json'), lock);
  const run = capturingOutput(() => main(['audit', path.join(dir, 'live.json'), '--lock', path.join(dir, 'capability.lock.json'), ...args]));
  return { code: run.result, stdout: run.stdout.split(path.join(dir, 'capability.lock.json')).join('<lock>') };
}

/** The findings' lines of a text report. */
const findingLines = (stdout: string) => stdout.split('\n').filter((l) => /^[a-z-]+: /.test(l));

const FROM_ARGO_LOCK = "Audited as applied by argocd-controller: the lock records the release's output as written for Argo CD (gitops: GitOps.argoCd()). "
  + 'If something else applied it, pass --applied-by with its field manager (--applied-by cdk-capability for cdk-capability apply).';
const FROM_FLUX_LOCK = "Audited as applied by kustomize-controller: the lock records the release's output as written for Flux (gitops: GitOps.flux({ sourceRef })). "
  + 'If something else applied it, pass --applied-by with its field manager (--applied-by cdk-capability for cdk-capability apply).';

/** kustomize-controller's bookkeeping labels, as a finding lists them after data.tenant. */
const FLUX_LABELS = 'metadata.labels["kustomize.toolkit.fluxcd.io/name"], metadata.labels["kustomize.toolkit.fluxcd.io/namespace"]';

describe('the applier, from the lock when --applied-by is not given', () => {
  test('Flux applied, the lock says Argo CD, no flag: audited as argocd-controller, and the report says it took that from the lock', () => {
    const { code, stdout } = audit(fluxThenArgo, argoLock);
    expect(code).toBe(2);
    expect(stdout.split('\n').slice(-3)).toEqual(['cdk-capability audit: 1 difference between the cluster and <lock> (1 object compared).', FROM_ARGO_LOCK, '']);
    // the same finding as with --applied-by argocd-controller (test/switch2-audit.test.ts)
    expect(findingLines(stdout)).toEqual(findingLines(audit(fluxThenArgo, argoLock, ['--applied-by', 'argocd-controller']).stdout));
    expect(findingLines(stdout)).toEqual([expect.stringMatching(/^undeclared-manager: ConfigMap default\/cfg-acme: 'kustomize-controller' .* this is the previous engine's \(Flux's kustomize-controller\) entry, left when the release switched to argocd-controller/)]);
  });

  test('a Flux lock and Flux\'s apply match without the flag, and the report says the applier came from the lock', () => {
    expect(audit(fluxOnly, fluxLock)).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches <lock> (1 object compared).\n${FROM_FLUX_LOCK}\n` });
  });

  test('json: the document names the applier, where it came from, and the note', () => {
    const doc = JSON.parse(audit(fluxOnly, fluxLock, ['--format', 'json']).stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'audit-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc.matches).toBe(true);
    expect(doc.applier).toEqual({ manager: 'kustomize-controller', source: 'lock', note: FROM_FLUX_LOCK });
  });

  test('github: the note is a notice', () => {
    expect(audit(fluxOnly, fluxLock, ['--format', 'github']).stdout).toBe(`::notice title=cdk-capability audit%3A the applier::${FROM_FLUX_LOCK}\n`);
  });

  test('sarif (gitops4): the note is a notification of the run\'s invocation, with the applier as its properties; valid SARIF 2.1.0', () => {
    const { code, stdout } = audit(fluxOnly, fluxLock, ['--format', 'sarif']);
    expect(code).toBe(0);
    const log = JSON.parse(stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].invocations).toEqual([{
      executionSuccessful: true,
      toolExecutionNotifications: [{ level: 'note', message: { text: FROM_FLUX_LOCK }, properties: { applier: { manager: 'kustomize-controller', source: 'lock' } } }],
    }]);
  });

  test('sarif (gitops4): an input with no object and the applier from the lock, both notifications, the warning first', () => {
    const dir = tempDir('gitops4-audit-');
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    writeLock(path.join(dir, 'capability.lock.json'), fluxLock);
    const run = capturingOutput(() => main(['audit', path.join(dir, 'live.json'), '--lock', path.join(dir, 'capability.lock.json'), '--format', 'sarif']));
    const log = JSON.parse(run.stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].invocations[0].toolExecutionNotifications.map((n: any) => [n.level, n.message.text])).toEqual([
      ['warning', expect.stringMatching(/^The input holds no object at all/)],
      ['note', FROM_FLUX_LOCK],
    ]);
  });

  test('a lock without gitops: cdk-capability apply, and no note', () => {
    expect(audit(applyOnly, plainLock)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });

  test('--applied-by cdk-capability names cdk-capability apply, over the lock\'s engine', () => {
    const { code, stdout } = audit(applyOnly, fluxLock, ['--applied-by', 'cdk-capability']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^cdk-capability audit: the cluster matches <lock> \(1 object compared\)\.\nAudited as applied by cdk-capability apply \(--applied-by cdk-capability\), but the lock records the release's output as written for Flux/);
  });
});

describe('--applied-by naming another engine than the lock\'s', () => {
  const CONFLICT = "Audited as applied by kustomize-controller (--applied-by kustomize-controller), but the lock records the release's output as written for Argo CD, which applies it as argocd-controller: "
    + 'the flag wins. If Argo CD applied this release, audit without --applied-by; if kustomize-controller did, this lock is not the one of the release applied: '
    + "give that release's lock with --lock, or synthesize the release for the applier it has (gitops: GitOps.flux({ sourceRef: { name: '<the GitRepository Flux reads the output from>' } })) and commit its lock.";

  test('the flag wins, and the report says the lock names Argo CD, with the fix', () => {
    const { code, stdout } = audit(fluxOnly, argoLock, ['--applied-by', 'kustomize-controller']);
    expect(code).toBe(0);
    expect(stdout).toBe(`cdk-capability audit: the cluster matches <lock> (1 object compared).\n${CONFLICT}\n`);
  });

  test('json: source flag, with the same note', () => {
    const doc = JSON.parse(audit(fluxOnly, argoLock, ['--applied-by', 'kustomize-controller', '--json']).stdout);
    expect(doc.applier).toEqual({ manager: 'kustomize-controller', source: 'flag', note: CONFLICT });
  });

  test('sarif (gitops4): source flag, with the same note; no note, no invocation', () => {
    const log = JSON.parse(audit(fluxOnly, argoLock, ['--applied-by', 'kustomize-controller', '--format', 'sarif']).stdout);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].invocations[0].toolExecutionNotifications).toEqual([
      { level: 'note', message: { text: CONFLICT }, properties: { applier: { manager: 'kustomize-controller', source: 'flag' } } },
    ]);
    expect(JSON.parse(audit(applyOnly, plainLock, ['--format', 'sarif']).stdout).runs[0].invocations).toBeUndefined();
  });

  test('a flag naming the lock\'s engine (either of Argo CD\'s managers) says nothing', () => {
    const { stdout } = audit(fluxThenArgo, argoLock, ['--applied-by', 'argocd-application-controller', '--ignore-manager', 'argocd-controller', '--ignore-manager', 'kustomize-controller']);
    expect(stdout).not.toMatch(/Audited as applied by/);
  });
});

describe('the previous engine\'s manager alone owns a field of the release: the new engine has not applied yet', () => {
  const NOT_YET = (manager: string, who: string, its: string) => `this is ${who} entry, and the release switched to argocd-controller, which has not applied it yet (it would own ${its} too). `
    + 'First let argocd-controller apply the release (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it); '
    + `then release the old entry: kubectl apply --server-side --field-manager=${manager} -f <outdir>/audit/objects.list, which applies each object's identity alone under ${manager}. `
    + `Not before: released now, ${its} would leave the object, as no other manager owns ${its}.`;

  test('the oracle: kustomize-controller alone owns data.tenant', () => {
    expect(fluxOnly.managers['kustomize-controller'].leaves).toContain('.data.tenant');
    expect(Object.keys(fluxOnly.managers)).toEqual(['kustomize-controller']);
  });

  test('taken-over says the release switched engines, and to apply with the new engine first, then release the old entry', () => {
    const { code, stdout } = audit(fluxOnly, argoLock);
    expect(code).toBe(2);
    expect(findingLines(stdout)).toEqual([
      // the writer's manager is the engine's, as the lock's engine applies every writer's fields under its one manager
      `taken-over: ConfigMap default/cfg-acme: data.tenant of 'shop/Routing/Cfg-acme' (field manager argocd-controller) is owned by 'kustomize-controller' (Apply at ${T}) alone: `
      + NOT_YET('kustomize-controller', "the previous engine's (Flux's kustomize-controller)", 'it'),
      `undeclared-manager: ConfigMap default/cfg-acme: 'kustomize-controller' (Apply at ${T}) owns ${FLUX_LABELS}, and no writer of the composition declares that manager: `
      + "this is the previous engine's (Flux's kustomize-controller) entry, left when the release switched to argocd-controller: no writer needs a RuntimeWriter for them, "
      + 'and applying the release does not remove the entry. Only once argocd-controller has applied the release, release them: '
      + "kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, which applies each object's identity alone under kustomize-controller, "
      + 'so it owns no other field: what only it owned leaves the object, and the fields the release applied stay (applied before, it removes every field no other manager owns).',
    ]);
  });

  test('the order matters: releasing the old entry before Argo CD synced removes data.tenant from the object', () => {
    expect(fluxReleasedTooEarly.applies.map((a) => a.conflicts)).toEqual([[], []]);
    expect((fluxReleasedTooEarly.object as any).data).toBeUndefined();
  });

  test('in the order given, the audit matches', () => {
    expect((fluxThenArgoReleased.object as any).data).toEqual({ tenant: 'acme' });
    expect(audit(fluxThenArgoReleased, argoLock)).toEqual({ code: 0, stdout: `cdk-capability audit: the cluster matches <lock> (1 object compared).\n${FROM_ARGO_LOCK}\n` });
  });

  test('cdk-capability apply\'s managers before Argo CD synced: the previous deployer\'s, with the same order', () => {
    const lines = findingLines(audit(applyOnly, argoLock).stdout);
    expect(lines).toEqual([
      `taken-over: ConfigMap default/cfg-acme: data.tenant of 'shop/Routing/Cfg-acme' (field manager argocd-controller) is owned by 'cdk-capability' (Apply at ${T}) alone: `
      + NOT_YET('cdk-capability', "the previous deployer's (cdk-capability apply's)", 'it'),
      // the writer's own manager is the second of cdk-capability apply's entries (test/switch2-audit.test.ts)
      expect.stringMatching(/^undeclared-manager: ConfigMap default\/cfg-acme: 'cdk-capability:shop\/Routing\/Cfg-acme' \(Apply at [^)]+\) owns data\.tenant, .* this is the previous deployer's \(cdk-capability apply's\) entry/),
    ]);
  });

  test('Flux applied, the lock has no engine (a switch to cdk-capability apply): taken-over says to audit with --applied-by if Flux applies it, else to run cdk-capability apply first', () => {
    const lines = findingLines(audit(fluxOnly, plainLock).stdout);
    expect(lines[0]).toBe(`taken-over: ConfigMap default/cfg-acme: data.tenant of 'shop/Routing/Cfg-acme' (field manager ${WRITER}) is owned by 'kustomize-controller' (Apply at ${T}) alone. `
      + "If kustomize-controller applied the release (a GitOps engine applies every writer's fields under its one manager), audit with --applied-by kustomize-controller; "
      + "else this is the previous engine's (Flux's kustomize-controller) entry, and the release switched to cdk-capability apply, which has not applied it yet (it would own it too). "
      + 'First run cdk-capability apply; then release the old entry: kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, '
      + "which applies each object's identity alone under kustomize-controller. Not before: released now, it would leave the object, as no other manager owns it.");
  });
});
