/**
 * Trial 11, day 2 on the cluster side with a GitOps engine: a capability whose runtime Flux applies (one field
 * manager, `kustomize-controller`, forcing conflicts) under the field-ownership admission policy (`enforce`).
 *
 * Replayed on the real structured-merge-diff (the oracle of test/smd/: live where Go is installed, as `.ci/run`
 * runs it, else the vectors recorded in test/smd/vectors/trial11-gitops.json) and judged by the CEL evaluator of
 * test/enforcement/: a Deployment's `spec.replicas` handed to the HorizontalPodAutoscaler's controller, then a
 * person's `kubectl edit`, a client-side `kubectl apply`, and the autoscaler's controller writing outside its field.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { admit, Request } from './enforcement/admission';
import type { SmdOperation, SmdResult } from './smd/smd';
import { NamedSmdCase, smdVerdicts } from './smd/verdicts';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { CapabilityApp, Capability, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { formatPlan } from '../src/cli/format-plan';
import { handBackNotes } from '../src/cli/hand-back-advice';
import { main } from '../src/cli/main';
import { serializeLock, writeLock } from '../src/release/lock';
import type { Lock } from '../src/release/lock';
import type { Plan } from '../src/render/writers/plan-json';

afterAll(removeTempDirs);

const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';
const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';
const KCM = 'kube-controller-manager';
const FLUX = 'kustomize-controller';
const TYPE = 'io.k8s.api.apps.v1.Deployment';

interface Release { readonly plan: Plan; readonly lock: Lock; readonly manifests: any[]; readonly dir: string }

/** The shop's release: a Deployment `shop/web`, its replicas declared (release 1) or its autoscaler's (release 2). */
function release(autoscaled: boolean, previous?: Release, gitops = GitOps.flux({ sourceRef: { name: 'platform' } })): Release {
  const dir = tempDir('trial11-');
  const lockFile = path.join(dir, 'capability.lock.json');
  if (previous) writeLock(lockFile, previous.lock);
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile, gitops, enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      ...(autoscaled ? {} : { replicas: 2 }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  });
  if (autoscaled) new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: HPA, manager: KCM });
  const result = app.synthesize();
  if (result.violations.length > 0 || !result.plan || !result.lock) throw new Error(result.violations.map((v) => v.message).join('\n'));
  const manifests = (result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest));
  return { plan: result.plan, lock: JSON.parse(serializeLock(result.lock)) as Lock, manifests, dir };
}

let first: Release;
let second: Release;
const deployment = (r: Release) => r.manifests.find((m) => m.kind === 'Deployment');
const policies = (r: Release) => r.manifests.filter((m) => m.apiVersion === 'admissionregistration.k8s.io/v1');

/** An update's entry is keyed apart from the same manager's apply entry, as the API server keys it. */
const UPDATE_KEY = (manager: string) => JSON.stringify({ manager, operation: 'Update', apiVersion: 'apps/v1' });
/** What the hand-over the plan prints applies: the object's identity and the field at release 1's value. */
const HAND_OVER = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2 } };
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The live object after the hand-over and release 2, changed by `change`: what a full-object update sends. */
function edited(change: (o: any) => void): () => any {
  return () => {
    // what the cluster holds after the hand-over and release 2 (the test below checks it): release 2 with the replicas
    const o = byFlux(deployment(second));
    o.spec.replicas = 2;
    change(o);
    return o;
  };
}

/**
 * What kustomize-controller applies: the manifest with its owner labels (fluxcd/pkg `ssa.ResourceManager.SetOwnerLabels`,
 * which kustomize-controller calls with the Kustomization's name and namespace before it applies the objects).
 */
function byFlux(manifest: any): any {
  const o = structuredClone(manifest);
  o.metadata.labels = { ...o.metadata.labels, ...FLUX_LABELS };
  return o;
}
const FLUX_LABELS = { 'kustomize.toolkit.fluxcd.io/name': 'shop-routing-2', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };
const FLUX_1 = (): SmdOperation => ({ manager: FLUX, force: true, object: byFlux(deployment(first)) });
const FLUX_2 = (): SmdOperation => ({ manager: FLUX, force: true, object: byFlux(deployment(second)) });
const SETTLED = (): SmdOperation[] => [FLUX_1(), { manager: KCM, object: HAND_OVER }, FLUX_2()];
const SCENARIOS: Record<string, () => SmdOperation[]> = {
  'release 2 without the hand-over': () => [FLUX_1(), FLUX_2()],
  'release 2 after the hand-over': SETTLED,
  'kubectl edit changes the image': () => [...SETTLED(), {
    manager: 'kubectl-edit',
    operation: 'update',
    object: edited((o) => (o.spec.template.spec.containers[0].image = 'nginx:1.28'))(),
  }],
  'a client-side kubectl apply changes the image': () => [...SETTLED(), {
    manager: 'kubectl-client-side-apply',
    operation: 'update',
    object: edited((o) => {
      o.spec.template.spec.containers[0].image = 'nginx:1.28';
      o.metadata.annotations = { [LAST_APPLIED]: '{"apiVersion":"apps/v1","kind":"Deployment"}\n' };
    })(),
  }],
  'the autoscaler\'s controller updates the image': () => [...SETTLED(), {
    manager: UPDATE_KEY(KCM),
    operation: 'update',
    object: edited((o) => (o.spec.template.spec.containers[0].image = 'nginx:1.28'))(),
  }],
  'the autoscaler\'s controller updates an annotation nobody declares': () => [...SETTLED(), {
    manager: UPDATE_KEY(KCM),
    operation: 'update',
    object: edited((o) => (o.metadata.annotations = { 'example.com/scaled-at': '2026-12-07' }))(),
  }],
};

let results: Record<string, SmdResult> = {};
let cases: Record<string, NamedSmdCase> = {};

beforeAll(() => {
  first = release(false);
  second = release(true, first);
  cases = Object.fromEntries(Object.entries(SCENARIOS).map(([name, ops]) => [name, { name: `trial11: ${name}`, typeName: TYPE, apiVersion: 'apps/v1', applies: ops() }]));
  // live when Go is here (CI), else the vectors recorded in test/smd/vectors/trial11-gitops.json
  const answers = smdVerdicts('trial11-gitops', Object.values(cases));
  results = Object.fromEntries(Object.keys(cases).map((name, i) => [name, answers[i]]));
});

/** The object as `kubectl get -o json --show-managed-fields` prints it, each update's key by its manager. */
function live(scenario: string): any {
  const r = results[scenario];
  const ops = cases[scenario].applies;
  const last = new Map<string, number>();
  ops.forEach((op, i) => last.set(op.manager, i));
  const object = structuredClone(r.object) as any;
  object.metadata.managedFields = Object.entries(r.managers)
    .sort(([a], [b]) => (last.get(a) ?? 0) - (last.get(b) ?? 0))
    .map(([key, set]) => ({
      manager: key.startsWith('{') ? JSON.parse(key).manager : key,
      operation: set.operation === 'apply' ? 'Apply' : 'Update',
      apiVersion: set.apiVersion,
      time: new Date(Date.UTC(2026, 11, 7, 10, 0, last.get(key) ?? 0)).toISOString().replace('.000Z', 'Z'),
      fieldsType: 'FieldsV1',
      fieldsV1: set.fieldsV1,
    }));
  return object;
}

/**
 * `cdk-capability audit --applied-by kustomize-controller` of the scenario's Deployment and release 2's policies
 * (as Flux applied them: the audit does not compare their fields) against release 2's lock.
 */
function audit(scenario: string, withPolicies = true): { code: number; stdout: string } {
  const dir = tempDir('trial11-audit-');
  const file = path.join(dir, 'live.json');
  const applied = (m: any) => ({
    ...m,
    metadata: { ...m.metadata, managedFields: [{ manager: FLUX, operation: 'Apply', apiVersion: m.apiVersion, time: '2026-12-07T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] },
  });
  fs.writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [live(scenario), ...(withPolicies ? policies(second).map(applied) : [])] }));
  const lock = path.join(dir, 'capability.lock.json');
  // the Namespace (not read here) left out of the lock
  writeLock(lock, { ...second.lock, units: second.lock.units.filter((u) => u.label !== 'Namespace shop'), edges: [] });
  const run = capturingOutput(() => main(['audit', file, '--lock', lock, '--applied-by', FLUX]));
  return { code: run.result, stdout: run.stdout.split(lock).join('<lock>') + run.stderr };
}

/** The request a write makes, judged by release 2's policies. */
function judge(username: string, oldObject: any, object: any): ReturnType<typeof admit> {
  const request: Request = {
    operation: 'UPDATE',
    username,
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespace: 'shop',
    name: 'web',
    oldObject,
    object,
  };
  return admit(policies(second), request);
}

const settled = () => results['release 2 after the hand-over'].object as any;
/** The object as the API server holds it: a Deployment without replicas is defaulted to 1. */
const defaulted = (o: any) => ({ ...o, spec: { replicas: 1, ...o.spec } });

describe('moving spec.replicas to the autoscaler under Flux', () => {
  test('without the hand-over, Flux\'s apply of release 2 removes the replicas', () => {
    const r = results['release 2 without the hand-over'];
    expect(r.applies.map((a) => a.conflicts)).toEqual([[], []]);
    expect((r.object as any).spec.replicas).toBeUndefined();
  });

  test('and with enforce the API server refuses that apply: the defaulted replicas change the autoscaler\'s leaf', () => {
    const before = results['release 2 after the hand-over'].object;
    const after = defaulted(results['release 2 without the hand-over'].object);
    const decision = judge(DEPLOYER, before, after);
    expect(decision.allowed).toBe(false);
    expect(decision.message).toContain(`spec.replicas of apps/Deployment shop/web belong to the runtime writer 'shop/Routing/Autoscaler' (${HPA}): only that identity may change them, not ${DEPLOYER}`);
  });

  test('after the hand-over and release 2 the cluster holds release 2 with the replicas: what the edits below start from', () => {
    expect(results['release 2 after the hand-over'].object).toEqual(edited(() => undefined)());
  });

  test('the hand-over the plan prints keeps them, owned by the autoscaler\'s manager alone, and the API server admits each request', () => {
    const r = results['release 2 after the hand-over'];
    expect(r.applies.map((a) => a.conflicts)).toEqual([[], [], []]);
    expect((r.object as any).spec.replicas).toBe(2);
    expect(Object.entries(r.managers).filter(([, set]) => set.leaves.includes('.spec.replicas')).map(([m]) => m)).toEqual([KCM]);
    // the hand-over, by a person under release 1's policy (replicas still the deployer's): its value unchanged
    const afterRelease1 = defaulted(deployment(first));
    expect(admit(policies(first), {
      operation: 'UPDATE',
      username: 'alice',
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
      oldObject: afterRelease1,
      object: afterRelease1,
    }).allowed).toBe(true);
    expect(judge(DEPLOYER, r.object, r.object).allowed).toBe(true);
    // Flux's owner labels, owned by kustomize-controller and by no writer of the lock, are Flux's bookkeeping: no finding
    expect((r.object as any).metadata.labels).toEqual(FLUX_LABELS);
    expect(audit('release 2 after the hand-over')).toEqual({ code: 0, stdout: 'cdk-capability audit: the cluster matches <lock> (3 objects compared).\n' });
  });

  test('the plan of release 2 says to hand the field over before Flux applies it, with the command', () => {
    expect(handBackNotes(second.plan)).toEqual([
      'handed to \'shop/Routing/Autoscaler (RuntimeWriter)\': Flux applies this release without the field, and removes it '
      + 'where kustomize-controller is its only owner (with enforce, the API server refuses that apply instead). '
      + 'Before committing the release, hand it over under the controller\'s field manager: echo '
      + '\'{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":2}}\' '
      + '| kubectl apply --server-side --field-manager=kube-controller-manager -f - (the value is the previous release\'s: where the controller changed it already, it owns it and the apply conflicts, harmlessly)',
    ]);
    expect(formatPlan(second.plan)).toContain('  (handed to \'shop/Routing/Autoscaler (RuntimeWriter)\': Flux applies this release without the field');
  });

  test('with Argo CD the same note names argocd-controller', () => {
    const argo = release(true, release(false, undefined, GitOps.argoCd()), GitOps.argoCd());
    expect(handBackNotes(argo.plan)[0]).toMatch(/^handed to 'shop\/Routing\/Autoscaler \(RuntimeWriter\)': Argo CD applies this release without the field, and removes it where argocd-controller is its only owner /);
  });

  test('without GitOps, cdk-capability apply hands it over itself: no note', () => {
    const dir = tempDir('trial11-kubectl-');
    const lockFile = path.join(dir, 'capability.lock.json');
    writeLock(lockFile, first.lock);
    const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile, enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const web = new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    });
    new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: HPA, manager: KCM });
    expect(handBackNotes(app.synthesize().plan!)).toEqual([]);
  });
});

describe('what people and controllers do afterwards: the audit with --applied-by kustomize-controller, and the policy', () => {
  test('kubectl edit of the image: overwritten-by-update naming kubectl-edit; a person\'s update is refused', () => {
    const { code, stdout } = audit('kubectl edit changes the image');
    expect(code).toBe(2);
    expect(stdout).toContain('overwritten-by-update: apps/Deployment shop/web: spec.template.spec.containers[name=web].image of \'shop/Routing/Web\' (field manager kustomize-controller) is now owned by \'kubectl-edit\' (Update at 2026-12-07T10:00:03Z), whose update changed it (a kubectl edit, or a controller\'s full-object Update()): the writer no longer owns it. '
      + 'Declare that client as a RuntimeWriter of it, or stop it, and let kustomize-controller apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it). '
      + 'The release\'s admission policy is in the cluster with Deny, and refuses such an update by any identity but the field\'s owner: the update came before the policy, or that client ran as the owner\'s identity (the deployer\'s, for a field of the release: its credentials, or kubectl --as).\n');
    const decision = judge('alice', settled(), results['kubectl edit changes the image'].object);
    expect(decision.allowed).toBe(false);
    expect(decision.message).toContain(`spec.template.spec.containers[name=web].image of apps/Deployment shop/web belong to the deployer (${DEPLOYER}): only that identity may change them, not alice`);
  });

  test('a client-side kubectl apply: named as one, with the annotation to remove', () => {
    const { code, stdout } = audit('a client-side kubectl apply changes the image');
    expect(code).toBe(2);
    expect(stdout).toContain('overwritten-by-update: apps/Deployment shop/web: spec.template.spec.containers[name=web].image of \'shop/Routing/Web\' (field manager kustomize-controller) is owned by \'kubectl-client-side-apply\' (Update at 2026-12-07T10:00:03Z), a kubectl apply without --server-side (kubectl records a client-side apply as an Update under that manager), not by the writer. '
      + 'Let kustomize-controller apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it): its server-side apply forces, and takes them back; do not apply the release with a plain kubectl apply -f.\n');
    expect(stdout).toContain(`(the annotation ${LAST_APPLIED} that a client-side apply leaves: kubectl annotate Deployment.apps/web -n shop ${LAST_APPLIED}-)`);
    expect(judge('alice', settled(), results['a client-side kubectl apply changes the image'].object).allowed).toBe(false);
  });

  test('the autoscaler\'s controller changing the image: named as the runtime writer, and refused', () => {
    const { code, stdout } = audit('the autoscaler\'s controller updates the image');
    expect(code).toBe(2);
    expect(stdout).toContain('overwritten-by-update: apps/Deployment shop/web: spec.template.spec.containers[name=web].image of \'shop/Routing/Web\' (field manager kustomize-controller) is now owned by \'kube-controller-manager\'');
    expect(stdout).toContain('\'shop/Routing/Autoscaler (RuntimeWriter)\'');
    const decision = judge(HPA, settled(), results['the autoscaler\'s controller updates the image'].object);
    expect(decision.allowed).toBe(false);
    expect(decision.message).toContain(`not ${HPA}`);
  });

  test('without the policies in the cluster, the advice is to let Flux apply the release, not cdk-capability apply', () => {
    const { code, stdout } = audit('the autoscaler\'s controller updates the image', false);
    expect(code).toBe(2);
    expect(stdout).toContain('else make the controller write only its own fields (server-side apply, or a patch) and let kustomize-controller apply the release again '
      + '(reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it) to restore it. '
      + 'The release\'s admission policy, which refuses such an update, is not in the cluster (admissionregistration.k8s.io/ValidatingAdmissionPolicy shop.field-owners.deployments.apps, '
      + 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding shop.field-owners.deployments.apps: missing-object): '
      + 'let kustomize-controller apply the release (its field-ownership Kustomization or first sync wave).\n');
  });

  test('the autoscaler\'s controller writing an annotation nobody declares: admitted (unconstrained), and the audit names it', () => {
    const { code, stdout } = audit('the autoscaler\'s controller updates an annotation nobody declares');
    expect(code).toBe(2);
    expect(stdout).toContain('metadata.annotations["example.com/scaled-at"]');
    expect(stdout).toContain('also owns metadata.annotations["example.com/scaled-at"], outside its fields (spec.replicas): its controller writes it');
    expect(judge(HPA, settled(), results['the autoscaler\'s controller updates an annotation nobody declares'].object).allowed).toBe(true);
  });
});
