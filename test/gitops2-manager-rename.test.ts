/**
 * gitops2: a RuntimeWriter's field manager renamed between releases (its controller upgraded, now writing under
 * another name), in a cluster Flux applies. Replayed on the real structured-merge-diff (live where Go is
 * installed, else test/smd/vectors/gitops2-manager-rename.json) and audited against the new release's lock, to
 * check what the plan says about it: the cluster sees nothing until the controller writes under the new name, the
 * old manager's entry keeps the field until then, and what audit reports meanwhile.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { withUpdateLock } from './release-fixtures';
import type { SmdOperation, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { CapabilityApp, Capability, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { formatPlan } from '../src/cli/format-plan';
import { main } from '../src/cli/main';
import { serializeLock, writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(removeTempDirs);

const FLUX = 'kustomize-controller';
const OLD = 'reloader';
const NEW = 'stakater-reloader';
const TYPE = 'io.k8s.api.core.v1.ConfigMap';

interface Release { readonly plan: Plan; readonly lock: Lock; readonly manifest: any }

/** The shop's release: ConfigMap shop/cfg, its data.mode written by the controller Reloader under `manager`. */
function release(manager: string, previous?: Release, gitops: GitOps = GitOps.flux({ sourceRef: { name: 'platform' } })): Release {
  const dir = tempDir('gitops2-manager-');
  const lockFile = path.join(dir, 'capability.lock.json');
  if (previous) writeLock(lockFile, previous.lock);
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile, gitops });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const cfg = new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { level: 'info' } });
  new RuntimeWriter(routing, 'Reloader', { target: cfg, fields: ['data.mode'], identity: 'system:serviceaccount:shop:reloader', manager });
  const result = app.synthesize();
  if (result.violations.length > 0 || !result.plan || !result.lock) throw new Error(result.violations.map((v) => v.message).join('\n'));
  const manifest = (result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest)).find((m) => m.kind === 'ConfigMap');
  return { plan: result.plan, lock: JSON.parse(serializeLock(result.lock)) as Lock, manifest };
}

let first: Release;
let second: Release;

/** kustomize-controller's apply of the ConfigMap (its owner labels left out: no writer of the lock writes labels). */
const FLUX_APPLY = (): SmdOperation => ({ manager: FLUX, force: true, object: first.manifest });
/** The controller's update (a patch of data.mode, as it sends it) under `manager`, the live object carrying `mode`. */
const controller = (manager: string, mode: string): SmdOperation => ({
  manager,
  operation: 'update',
  object: { ...first.manifest, data: { ...first.manifest.data, mode } },
});
/** The controller's server-side apply of data.mode under `manager`. */
const applied = (manager: string, mode: string): SmdOperation => ({
  manager,
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { mode } },
});
const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'before the controller writes under the new name': () => [FLUX_APPLY(), controller(OLD, 'on'), FLUX_APPLY()],
  'the controller changes the value under the new name': () => [FLUX_APPLY(), controller(OLD, 'on'), FLUX_APPLY(), controller(NEW, 'off')],
  'the controller writes the same value under the new name': () => [FLUX_APPLY(), controller(OLD, 'on'), FLUX_APPLY(), controller(NEW, 'on')],
  'the controller applied under the old name': () => [FLUX_APPLY(), applied(OLD, 'on'), FLUX_APPLY()],
  'the controller applies the same value under the new name': () => [FLUX_APPLY(), controller(OLD, 'on'), FLUX_APPLY(), applied(NEW, 'on')],
};

let results: Record<string, SmdResult> = {};
let cases: Record<string, NamedSmdCase> = {};

beforeAll(() => {
  first = release(OLD);
  second = release(NEW, first);
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, ops]) => [name, { name: `gitops2: ${name}`, typeName: TYPE, apiVersion: 'v1', applies: ops() }]));
  const answers = smdVerdicts('gitops2-manager-rename', Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

/** The object as `kubectl get -o json --show-managed-fields` prints it. */
function live(scenario: string): any {
  const r = results[scenario];
  const object = structuredClone(r.object) as any;
  object.metadata.managedFields = Object.entries(r.managers).map(([manager, set], i) => ({
    manager,
    operation: set.operation === 'apply' ? 'Apply' : 'Update',
    apiVersion: set.apiVersion,
    time: `2026-12-07T10:00:0${i}Z`,
    fieldsType: 'FieldsV1',
    fieldsV1: set.fieldsV1,
  }));
  return object;
}

/** `cdk-capability audit --applied-by kustomize-controller` of the scenario's object against `release`'s lock. */
function audit(scenario: string, against: Release, extra: string[] = []): { code: number; stdout: string } {
  const dir = tempDir('gitops2-audit-');
  const file = path.join(dir, 'live.json');
  fs.writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [live(scenario)] }));
  const lock = path.join(dir, 'capability.lock.json');
  writeLock(lock, against.lock);
  const run = capturingOutput(() => main(['audit', file, '--lock', lock, '--applied-by', FLUX, ...extra]));
  return { code: run.result, stdout: run.stdout.split(lock).join('<lock>') + run.stderr };
}

/** The managers that own `leaf` at the end of the scenario. */
const owners = (scenario: string, leaf: string) =>
  Object.entries(results[scenario].managers).filter(([, set]) => set.leaves.includes(leaf)).map(([m]) => m);

const NOTE = '(the cluster sees nothing of the new field manager until the controller writes under stakater-reloader: no release applies under a runtime writer\'s manager. '
  + 'Until then reloader\'s entries in metadata.managedFields keep data.mode of ConfigMap shop/cfg, and cdk-capability audit reports them owned by \'reloader\' '
  + '(taken-over, or overwritten-by-update when it wrote by an update) with the advice to declare manager: \'reloader\': expected until the controller writes, so keep stakater-reloader. '
  + 'A write gives them to stakater-reloader only where it changes a value: an update that leaves a value as it is records nothing, and an apply of the same value shares it with reloader, '
  + 'which audit then reports as undeclared-manager \'reloader\' (pass --ignore-manager reloader, or remove reloader\'s entry from metadata.managedFields))';

test('the plan says what the cluster and the audit show of a runtime writer\'s new field manager', () => {
  const lines = formatPlan(second.plan).split('\n');
  const at = lines.indexOf('Runtime writers:');
  expect(lines.slice(at, at + 4)).toEqual(['Runtime writers:', '  ~ shop/Routing/Reloader: field manager reloader -> stakater-reloader', `  ${NOTE}`, '']);
});

test('with Argo CD, and without GitOps, the note is the same: no engine applies under a runtime writer\'s manager', () => {
  for (const gitops of [GitOps.argoCd(), undefined]) {
    const text = formatPlan(release(NEW, release(OLD, undefined, gitops), gitops).plan);
    expect(text).toContain(`  ~ shop/Routing/Reloader: field manager reloader -> stakater-reloader\n  ${NOTE}\n`);
  }
});

test('four runtime writers renamed from one manager to another: four lines, one note naming three of their fields and counting the rest', () => {
  const dir = tempDir('gitops2-four-');
  const lockFile = path.join(dir, 'capability.lock.json');
  const app = (manager: string, n: number) => {
    const a = new CapabilityApp({ outdir: path.join(dir, `dist-${n}`), lockFile, gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    const routing = new RuntimeRouting(new Capability(a, 'shop'), 'Routing');
    for (const t of ['a', 'b', 'c', 'd']) {
      const cfg = new ApiObject(routing, `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'shop' }, data: { level: 'info' } });
      new RuntimeWriter(routing, `Reloader-${t}`, { target: cfg, fields: ['data.mode'], identity: 'system:serviceaccount:shop:reloader', manager });
    }
    return a;
  };
  capturingOutput(() => withUpdateLock('1', () => app(OLD, 1).synth()));
  const lines = formatPlan(app(NEW, 2).synthesize().plan!).split('\n');
  const at = lines.indexOf('Runtime writers:');
  expect(lines.slice(at + 1, at + 5)).toEqual(['a', 'b', 'c', 'd'].map((t) => `  ~ shop/Routing/Reloader-${t}: field manager reloader -> stakater-reloader`));
  expect(lines[at + 5]).toMatch(/^ {2}\(the cluster sees nothing of the new field manager until the controller writes under stakater-reloader: .* Until then reloader's entries in metadata\.managedFields keep data\.mode of ConfigMap shop\/cfg-a, data\.mode of ConfigMap shop\/cfg-b, data\.mode of ConfigMap shop\/cfg-c and 1 more, and cdk-capability audit reports them /);
  expect(lines[at + 6]).toBe('');
});

describe('what structured-merge-diff records, and what audit reports against the new lock', () => {
  test('before the controller writes under the new name: reloader keeps data.mode, and audit advises declaring reloader', () => {
    const s = 'before the controller writes under the new name';
    expect(owners(s, '.data.mode')).toEqual([OLD]);
    const { code, stdout } = audit(s, second);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^overwritten-by-update: ConfigMap shop\/cfg: data\.mode of 'shop\/Routing\/Reloader \(RuntimeWriter\)' \(field manager stakater-reloader\) is now owned by 'reloader' \(Update at [^)]+\), whose update changed it, while the manager 'stakater-reloader' that the RuntimeWriter declares owns nothing on the object/);
    expect(stdout).toContain('declare manager: \'reloader\' on \'shop/Routing/Reloader\'');
    // against the previous release's lock, the same cluster matches
    expect(audit(s, first)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });

  test('a controller that applied under the old name: taken-over', () => {
    const s = 'the controller applied under the old name';
    expect(owners(s, '.data.mode')).toEqual([OLD]);
    expect(audit(s, second).stdout).toMatch(/^taken-over: ConfigMap shop\/cfg: data\.mode of 'shop\/Routing\/Reloader \(RuntimeWriter\)' \(field manager stakater-reloader\) is owned by 'reloader' \(Apply at [^)]+\) alone/);
  });

  test('an update under the new name that leaves the value as it is records nothing: the finding stays', () => {
    const s = 'the controller writes the same value under the new name';
    expect(owners(s, '.data.mode')).toEqual([OLD]);
    expect(Object.keys(results[s].managers).sort()).toEqual([FLUX, OLD]);
    expect(audit(s, second).stdout).toMatch(/^overwritten-by-update: ConfigMap shop\/cfg: data\.mode of 'shop\/Routing\/Reloader \(RuntimeWriter\)' \(field manager stakater-reloader\) is now owned by 'reloader'/);
  });

  test('an update under the new name that changes the value takes the field, reloader\'s entry is gone, and the cluster matches', () => {
    const s = 'the controller changes the value under the new name';
    expect(owners(s, '.data.mode')).toEqual([NEW]);
    expect(Object.keys(results[s].managers).sort()).toEqual([FLUX, NEW]);
    expect(audit(s, second)).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });

  test('an apply of the same value under the new name shares the field: undeclared-manager reloader, left out with --ignore-manager', () => {
    const s = 'the controller applies the same value under the new name';
    expect(owners(s, '.data.mode').sort()).toEqual([OLD, NEW]);
    const { code, stdout } = audit(s, second);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^undeclared-manager: ConfigMap shop\/cfg: 'reloader' \(Update at [^)]+\) owns data\.mode, and no writer of the composition declares that manager/);
    expect(audit(s, second, ['--ignore-manager', OLD])).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (1 object compared).\n' });
  });
});
