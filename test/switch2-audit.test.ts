/**
 * switch2: audit after a release switched engines (Flux to Argo CD, cdk-capability apply to Argo CD). The previous
 * applier's managedFields entry stays in every object it applied; audited with --applied-by for the new engine,
 * its manager is an undeclared manager, and the finding says whose entry it is and gives the command the plan of
 * the switch gives, not the RuntimeWriter advice. Replayed on the real structured-merge-diff (live where Go is
 * installed, else test/smd/vectors/switch2-audit.json), in every output format.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
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

/** cdk-capability apply: the writer's fields under its own manager, then the whole object under cdk-capability, both with force. */
const byApply: SmdOperation[] = [
  { manager: WRITER, force: true, object: manifest },
  { manager: 'cdk-capability', force: true, object: manifest },
];
/** The command the finding gives: the object's identity alone (audit/objects.list) applied under the old manager. */
const releasing = (manager: string): SmdOperation => ({ manager, object: identity });

let fluxThenArgo: SmdResult;
let fluxReleased: SmdResult;
let applyThenArgo: SmdResult;
let applyReleased: SmdResult;
let fluxThenApply: SmdResult;
let fluxThenApplyReleased: SmdResult;
let argoLock: Lock;
let plainLock: Lock;

beforeAll(() => {
  [applyThenArgo, applyReleased, fluxThenArgo, fluxReleased, fluxThenApply, fluxThenApplyReleased] = smdVerdicts('switch2-audit', [
    { name: 'switch2: cdk-capability apply, then Argo CD syncs', typeName: TYPE, apiVersion: 'v1', applies: [...byApply, byArgo] },
    { name: 'switch2: cdk-capability apply, then Argo CD syncs, then the identity alone under both old managers', typeName: TYPE, apiVersion: 'v1', applies: [...byApply, byArgo, releasing(WRITER), releasing('cdk-capability')] },
    { name: 'switch2: Flux applied, then Argo CD syncs', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo] },
    { name: 'switch2: Flux applied, then Argo CD syncs, then the identity alone under kustomize-controller', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, byArgo, releasing('kustomize-controller')] },
    { name: 'switch2: Flux applied, then cdk-capability apply', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, ...byApply] },
    { name: 'switch2: Flux applied, then cdk-capability apply, then the identity alone under kustomize-controller', typeName: TYPE, apiVersion: 'v1', applies: [byFlux, ...byApply, releasing('kustomize-controller')] },
  ]);
  argoLock = lockOf(GitOps.argoCd());
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

/** `cdk-capability audit --applied-by argocd-controller` of the object against the Argo CD release's lock. */
function audit(r: SmdResult, extra: string[] = [], lock: Lock = argoLock, appliedBy: string[] = ['--applied-by', 'argocd-controller']): { code: number; stdout: string } {
  const dir = tempDir('switch2-audit-');
  const object = structuredClone(r.object) as any;
  object.metadata.managedFields = Object.entries(r.managers).map(([manager, set]) => ({
    manager, operation: 'Apply', apiVersion: 'v1', time: '2026-12-07T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: set.fieldsV1,
  }));
  fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(object));
  writeLock(path.join(dir, 'capability.lock.json'), lock);
  const run = capturingOutput(() => main(['audit', path.join(dir, 'live.json'), '--lock', path.join(dir, 'capability.lock.json'), ...appliedBy, ...extra]));
  return { code: run.result, stdout: run.stdout.split(path.join(dir, 'capability.lock.json')).join('<lock>') };
}

const FLUX_MESSAGE = 'ConfigMap default/cfg-acme: \'kustomize-controller\' (Apply at 2026-12-07T10:00:00Z) owns data.tenant, metadata.labels["kustomize.toolkit.fluxcd.io/name"], '
  + 'metadata.labels["kustomize.toolkit.fluxcd.io/namespace"], and no writer of the composition declares that manager: '
  + "this is the previous engine's (Flux's kustomize-controller) entry, left when the release switched to argocd-controller: no writer needs a RuntimeWriter for them, "
  + 'and applying the release does not remove the entry. Only once argocd-controller has applied the release, release them: '
  + 'kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, which applies each object\'s identity alone under kustomize-controller, '
  + 'so it owns no other field: what only it owned leaves the object, and the fields the release applied stay (applied before, it removes every field no other manager owns).';

describe('Flux applied, then Argo CD synced the same object', () => {
  test('the oracle: both own data.tenant, Flux\'s owner labels kustomize-controller alone', () => {
    expect(fluxThenArgo.applies.map((a) => a.conflicts)).toEqual([[], []]);
    const owners = (leaf: string) => Object.entries(fluxThenArgo.managers).filter(([, s]) => s.leaves.includes(leaf)).map(([m]) => m).sort();
    expect(owners('.data.tenant')).toEqual(['argocd-controller', 'kustomize-controller']);
    expect(owners('.metadata.labels.kustomize.toolkit.fluxcd.io/name')).toEqual(['kustomize-controller']);
  });

  test('text: kustomize-controller\'s entry is the previous engine\'s, with the command that releases it, not the RuntimeWriter advice', () => {
    const { code, stdout } = audit(fluxThenArgo);
    expect(code).toBe(2);
    expect(stdout.split('\n').filter((l) => l.startsWith('undeclared-manager: '))).toEqual([`undeclared-manager: ${FLUX_MESSAGE}`]);
    expect(stdout).not.toMatch(/RuntimeWriter with its fields/);
  });

  test('json: the finding\'s message is the same', () => {
    const { stdout } = audit(fluxThenArgo, ['--format', 'json']);
    const findings = JSON.parse(stdout).findings;
    expect(findings.map((f: any) => [f.kind, f.manager, f.message])).toEqual([['undeclared-manager', 'kustomize-controller', FLUX_MESSAGE]]);
  });

  test('sarif: the result\'s message is the same, and the rule explains the previous applier\'s entry', () => {
    const log = JSON.parse(audit(fluxThenArgo, ['--format', 'sarif']).stdout);
    const run = log.runs[0];
    expect(run.results.map((r: any) => [r.ruleId, r.message.text])).toEqual([['undeclared-manager', FLUX_MESSAGE]]);
    const rule = run.tool.driver.rules.find((r: any) => r.id === 'undeclared-manager');
    expect(rule.fullDescription.text).toContain('Audited with --applied-by, another GitOps engine\'s manager (or, for an engine, cdk-capability\'s) is the previous applier\'s entry, '
      + 'left when the release switched engines: once the new one has applied the release, release it with kubectl apply --server-side --field-manager=<that manager> -f <outdir>/audit/objects.list.');
  });

  test('github: the annotation carries the same message', () => {
    const lines = audit(fluxThenArgo, ['--format', 'github']).stdout.split('\n').filter((l) => l.startsWith('::warning'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::warning [^:]*::undeclared-manager: /);
    expect(lines[0].slice(lines[0].indexOf('::undeclared-manager: ') + '::undeclared-manager: '.length)).toBe(FLUX_MESSAGE);
  });

  test('the command the finding gives releases the entry: Flux\'s labels go, data.tenant stays, and the audit matches', () => {
    expect(fluxReleased.applies.map((a) => a.conflicts)).toEqual([[], [], []]);
    expect((fluxReleased.object as any).metadata.labels).toBeUndefined();
    expect((fluxReleased.object as any).data).toEqual({ tenant: 'acme' });
    expect(audit(fluxReleased)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });
});

describe('cdk-capability apply, then Argo CD synced the same object', () => {
  test('text: each of cdk-capability apply\'s managers is the previous deployer\'s entry, with the command that releases it', () => {
    expect(applyThenArgo.applies.map((a) => a.conflicts)).toEqual([[], [], []]);
    const { code, stdout } = audit(applyThenArgo);
    expect(code).toBe(2);
    const previous = (manager: string) => `undeclared-manager: ConfigMap default/cfg-acme: '${manager}' (Apply at 2026-12-07T10:00:00Z) owns data.tenant, and no writer of the composition declares that manager: `
      + "this is the previous deployer's (cdk-capability apply's) entry, left when the release switched to argocd-controller: no writer needs a RuntimeWriter for it, "
      + 'and applying the release does not remove the entry. Only once argocd-controller has applied the release, release it: '
      + `kubectl apply --server-side --field-manager=${manager} -f <outdir>/audit/objects.list, which applies each object's identity alone under ${manager}, `
      + 'so it owns no other field: what only it owned leaves the object, and the fields the release applied stay (applied before, it removes every field no other manager owns).';
    expect(stdout.split('\n').filter((l) => /^[a-z-]+: /.test(l))).toEqual([previous('cdk-capability'), previous(WRITER)]);
  });

  test('the commands release both entries: data.tenant stays, owned by argocd-controller, and the audit matches', () => {
    expect(applyReleased.applies.map((a) => a.conflicts)).toEqual([[], [], [], [], []]);
    expect((applyReleased.object as any).data).toEqual({ tenant: 'acme' });
    expect(applyReleased.managers[WRITER].leaves).toEqual(['.apiVersion', '.kind', '.metadata.name', '.metadata.namespace']);
    expect(audit(applyReleased)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });
});

test('audited for the engine that applied them, its own manager is no previous applier\'s: Argo CD\'s two managers are one engine', () => {
  const { stdout } = audit(fluxThenArgo, ['--ignore-manager', 'kustomize-controller']);
  expect(stdout).toBe('cdk-capability audit: the cluster matches <lock> (1 object compared).\n');
});

describe('Flux applied, then cdk-capability apply (audited without --applied-by)', () => {
  test('kustomize-controller\'s entry: audit with --applied-by if Flux applied the release, else the previous engine\'s, with the command that releases it', () => {
    expect(fluxThenApply.applies.map((a) => a.conflicts)).toEqual([[], [], []]);
    const { code, stdout } = audit(fluxThenApply, [], plainLock, []);
    expect(code).toBe(2);
    expect(stdout.split('\n').filter((l) => /^[a-z-]+: /.test(l))).toEqual([
      'undeclared-manager: ConfigMap default/cfg-acme: \'kustomize-controller\' (Apply at 2026-12-07T10:00:00Z) owns data.tenant, metadata.labels["kustomize.toolkit.fluxcd.io/name"], '
      + 'metadata.labels["kustomize.toolkit.fluxcd.io/namespace"], and no writer of the composition declares that manager. '
      + 'If kustomize-controller applied the release (a GitOps engine applies every writer\'s fields under its one manager), audit with --applied-by kustomize-controller; '
      + "else this is the previous engine's (Flux's kustomize-controller) entry, left when the release switched to cdk-capability apply: no writer needs a RuntimeWriter for them, "
      + 'and applying the release does not remove the entry. Only once cdk-capability apply has applied the release, release them: '
      + 'kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, which applies each object\'s identity alone under kustomize-controller, '
      + 'so it owns no other field: what only it owned leaves the object, and the fields the release applied stay (applied before, it removes every field no other manager owns).',
    ]);
  });

  test('the command releases it, and the audit matches', () => {
    expect(fluxThenApplyReleased.applies.map((a) => a.conflicts)).toEqual([[], [], [], []]);
    expect((fluxThenApplyReleased.object as any).metadata.labels).toBeUndefined();
    expect(audit(fluxThenApplyReleased, [], plainLock, [])).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });
});
