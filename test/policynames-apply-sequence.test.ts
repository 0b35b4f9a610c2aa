/**
 * Trial 11's shape change, played release by release on a model of the cluster: an object protected in two
 * releases in a row stays protected at every point of the apply sequence between them.
 *
 * Tenants web-acme and web-initech are Deployments of one shape in release 1 (one field-ownership policy binds
 * both); release 2 gives web-acme an autoscaler (a `RuntimeWriter` of `spec.replicas` and its
 * HorizontalPodAutoscaler), so the kind gets two policies, named by position; release 3 hands the replicas back,
 * and one of the two names goes. The sequence is what the operator is told to run: the teardown steps
 * `plan --teardown --json` puts before the release is applied, then every command `apply --dry-run` prints, then
 * the teardown's steps after it. After each command, the policies and bindings in the model cluster judge (with
 * the CEL evaluator of test/enforcement/) an intruder's change of each tenant's image, which must be refused, and
 * each Deployment the command applies is judged as the deployer's write, which must be admitted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { buildShop, Command, DEPLOYER, dryRun, HPA, KCM, Shape, teardown } from './apply-replay';
import { admit, Request } from './enforcement/admission';
import { newSeries, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { main } from '../src/cli/main';

afterAll(removeReleaseDirs);

const INTRUDER = 'mallory';
const TENANTS = ['acme', 'initech'];
/** What the autoscaler scaled its Deployment to while it owned the replicas. */
const SCALED = 3;

/** `autoscaled`: with the RuntimeWriter and its HorizontalPodAutoscaler; `writer-only`: the RuntimeWriter alone. */
type Variant = 'declared' | 'autoscaled' | 'writer-only';

/** One release of the shop: the tenants' Deployments in `web`, the tenant `scaled` autoscaled or not. */
function release(series: ReleaseSeries, n: number, variant: Variant, scaled: string, enforce = true, gitops?: GitOps): string {
  const outdir = path.join(series.dir, `dist-${n}`);
  const options = { ...(enforce ? { enforce: { deployer: DEPLOYER } } : {}), ...(gitops ? { gitops } : {}) };
  const app = new CapabilityApp({ outdir, lockFile: series.lockFile, ...options });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  for (const tenant of TENANTS) {
    const autoscaled = tenant === scaled && variant !== 'declared';
    const web = new ApiObject(routing, `Web-${tenant}`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `web-${tenant}`, namespace: 'web' },
      spec: {
        ...(autoscaled ? {} : { replicas: 2 }),
        selector: { matchLabels: { app: `web-${tenant}` } },
        template: { metadata: { labels: { app: `web-${tenant}` } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      },
    });
    if (!autoscaled) continue;
    new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: HPA, manager: KCM });
    if (variant === 'writer-only') continue;
    new ApiObject(routing, 'Hpa', {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: `web-${tenant}`, namespace: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: `web-${tenant}` }, minReplicas: 2, maxReplicas: 5 },
    });
  }
  const run = capturingOutput(() => withUpdateLock('1', () => app.synth()));
  expect(run.stderr).toMatch(/^cdk-capability: wrote the lock of this release to /);
  return outdir;
}

/** The model cluster: the admission objects by kind and name, and the live Deployments by name. */
interface Cluster {
  readonly admission: Map<string, any>;
  readonly deployments: Map<string, any>;
}

/** A deep merge of an applied object into the live one: maps merged, anything else replaced. */
function merged(live: any, applied: any): any {
  if (live === undefined || typeof live !== 'object' || Array.isArray(live) || typeof applied !== 'object' || Array.isArray(applied)) return structuredClone(applied);
  const out = structuredClone(live);
  for (const [k, v] of Object.entries(applied)) out[k] = merged(live[k], v);
  return out;
}

function request(username: string, oldObject: any, object: any): Request {
  return {
    operation: 'UPDATE',
    username,
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespace: 'web',
    name: oldObject.metadata.name,
    oldObject,
    object,
  };
}

/**
 * Runs one command on the model cluster; returns what went wrong: a Deployment it applies that the policies in
 * force refuse the deployer.
 */
function carryOut(cluster: Cluster, command: Command): string[] {
  const words = command.line.split(' ');
  const problems: string[] = [];
  if (words[0] === 'kubectl' && words[1] === 'apply') {
    // the files each follow a -f; stdin's objects are the here-document
    const files = words.flatMap((w, i) => (words[i - 1] === '-f' && w !== '-' ? [w] : []));
    const text = command.input ?? files.map((f) => fs.readFileSync(f, 'utf-8')).join('---\n');
    for (const doc of yaml.loadAll(text) as any[]) {
      if (!doc) continue;
      if (doc.apiVersion === 'admissionregistration.k8s.io/v1') cluster.admission.set(`${doc.kind}/${doc.metadata.name}`, doc);
      if (doc.kind !== 'Deployment') continue;
      const live = cluster.deployments.get(doc.metadata.name);
      const after = merged(live ?? {}, doc);
      if (live) {
        const decision = admit([...cluster.admission.values()], request(DEPLOYER, live, after));
        if (!decision.allowed) problems.push(`the deployer's apply of ${doc.metadata.name} is refused: ${decision.message}`);
      }
      cluster.deployments.set(doc.metadata.name, after);
    }
  } else if (words[0] === 'kubectl' && words[1] === 'delete') {
    for (const w of words.slice(2).filter((x) => x.startsWith('validatingadmissionpolicy'))) {
      const [resource, name] = w.split('/');
      const kind = resource.startsWith('validatingadmissionpolicybinding.') ? 'ValidatingAdmissionPolicyBinding' : 'ValidatingAdmissionPolicy';
      cluster.admission.delete(`${kind}/${name}`);
    }
  }
  return problems;
}

/** The tenants the admission objects in force leave unprotected: an intruder's change of the image is admitted. */
function unprotected(cluster: Cluster, tenants: readonly string[]): string[] {
  return tenants.filter((t) => {
    const live = cluster.deployments.get(`web-${t}`);
    const changed = structuredClone(live);
    changed.spec.template.spec.containers[0].image = 'evil:latest';
    return admit([...cluster.admission.values()], request(INTRUDER, live, changed)).allowed;
  });
}

/** Plays releases 1, 2 and 3 in order; returns every problem, named by release and command. */
function play(scaled: string): { problems: string[]; policies: string[][] } {
  const series = newSeries();
  const cluster: Cluster = { admission: new Map(), deployments: new Map() };
  const problems: string[] = [];
  const policies: string[][] = [];
  const variants: Variant[] = ['declared', 'autoscaled', 'declared'];
  variants.forEach((variant, i) => {
    const outdir = release(series, i + 1, variant, scaled);
    const sequence = [...teardown(outdir, 'before-apply'), ...dryRun(outdir), ...teardown(outdir, 'after-apply')];
    for (const command of sequence) {
      const where = `release ${i + 1}, after '${command.line.split(' ').slice(0, 2).join(' ')} ... ${command.line.split(' ').slice(-1)[0]}'`;
      problems.push(...carryOut(cluster, command).map((p) => `${where}: ${p}`));
      // the first release creates the tenants: they are protected in both releases from release 2 on
      if (i > 0) problems.push(...unprotected(cluster, TENANTS).map((t) => `${where}: web-${t} is not protected`));
    }
    // the autoscaler scales its Deployment while it owns the replicas
    if (variant === 'autoscaled') cluster.deployments.get(`web-${scaled}`).spec.replicas = SCALED;
    policies.push([...cluster.admission.keys()].filter((k) => k.startsWith('ValidatingAdmissionPolicy/')).sort());
  });
  return { problems, policies };
}

describe('a shape change that renames another object\'s policy leaves no object unprotected', () => {
  // the policies of a kind are named in the order of their objects' names: web-acme's shape is the first
  test.each([
    ['web-acme autoscaled (trial 11: the name of web-initech\'s policy moves)', 'acme'],
    ['web-initech autoscaled (the name of its own policy moves)', 'initech'],
  ])('%s: through releases 1, 2 and 3 both tenants stay protected, and every apply of the deployer is admitted', (_, scaled) => {
    // GIVEN releases 1 (one shape), 2 (one tenant autoscaled: two shapes) and 3 (handed back: one shape)
    // WHEN each is played on the cluster as plan --teardown and apply --dry-run say
    const { problems, policies } = play(scaled);

    // THEN after every command both tenants are protected, and no apply of the deployer is refused
    expect(problems).toEqual([]);
    // and the cluster holds each release's policies at its end (the renamed one deleted)
    expect(policies).toEqual([
      ['ValidatingAdmissionPolicy/shop.field-owners.deployments.apps'],
      [
        'ValidatingAdmissionPolicy/shop.field-owners-2.deployments.apps',
        'ValidatingAdmissionPolicy/shop.field-owners.deployments.apps',
        'ValidatingAdmissionPolicy/shop.field-owners.horizontalpodautoscalers.autoscaling',
      ],
      ['ValidatingAdmissionPolicy/shop.field-owners.deployments.apps'],
    ]);
  });
});

describe('apply deletes the removed policies itself, at the one point that keeps every object protected', () => {
  const BINDING_2 = 'validatingadmissionpolicybinding.admissionregistration.k8s.io/shop.field-owners-2.deployments.apps';
  const POLICY_2 = 'validatingadmissionpolicy.admissionregistration.k8s.io/shop.field-owners-2.deployments.apps';
  const HPA_BINDING = 'validatingadmissionpolicybinding.admissionregistration.k8s.io/shop.field-owners.horizontalpodautoscalers.autoscaling';
  const HPA_POLICY = 'validatingadmissionpolicy.admissionregistration.k8s.io/shop.field-owners.horizontalpodautoscalers.autoscaling';
  const DELETE = `kubectl delete --wait=true --ignore-not-found ${BINDING_2} ${HPA_BINDING} ${POLICY_2} ${HPA_POLICY}`;

  /** Releases 1, 2 and 3 of web-acme autoscaled, each accepted; the outdir of each. */
  function series(): string[] {
    const s = newSeries();
    return (['declared', 'autoscaled', 'declared'] as Variant[]).map((v, i) => release(s, i + 1, v, 'acme'));
  }

  test('release 3: the teardown\'s step runs after the field-ownership step, and apply --dry-run prints it last in that step', () => {
    // GIVEN release 3, which removes the second policy of Deployments and the autoscaler's policy
    const third = series()[2];

    // WHEN
    const json = JSON.parse(capturingOutput(() => main(['plan', '--plan', path.join(third, 'plan.json'), '--teardown', '--json'])).stdout);
    const lines = dryRun(third).map((c) => c.line);

    // THEN the step says when, and apply deletes them between the release's policies and its first object
    expect(json.teardown.steps[0]).toEqual({
      lifecycle: 'runtime',
      when: 'after-field-ownership',
      units: [
        'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps',
        'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding shop.field-owners.horizontalpodautoscalers.autoscaling',
        'admissionregistration.k8s.io/ValidatingAdmissionPolicy shop.field-owners-2.deployments.apps',
        'admissionregistration.k8s.io/ValidatingAdmissionPolicy shop.field-owners.horizontalpodautoscalers.autoscaling',
      ],
      commands: [DELETE],
      fieldOwnership: true,
    });
    expect(lines.slice(0, 2)).toEqual([
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${path.join(third, 'runtime', '0000-field-ownership.yaml')}`,
      DELETE,
    ]);
    expect(lines.filter((l) => l.startsWith('kubectl delete'))).toEqual([DELETE]);
  });

  test('a plan written before after-field-ownership (its step before-apply) is applied without the deletion: it told to run it before', () => {
    // GIVEN release 3's plan as an earlier version wrote it
    const third = series()[2];
    const file = path.join(third, 'plan.json');
    const plan = JSON.parse(fs.readFileSync(file, 'utf-8'));
    plan.teardown.steps[0].when = 'before-apply';
    fs.writeFileSync(file, JSON.stringify(plan, undefined, 2));

    // WHEN / THEN
    expect(dryRun(third).map((c) => c.line).filter((l) => l.startsWith('kubectl delete'))).toEqual([]);
  });

  test('enforce removed: apply deletes every policy and binding at the start of the first runtime step, before any object', () => {
    // GIVEN release 1 with enforce, WHEN release 2 turns it off
    const s = newSeries();
    release(s, 1, 'declared', 'acme');
    const second = release(s, 2, 'declared', 'acme', false);
    const commands = capturingOutput(() => main(['apply', '--outdir', second, '--dry-run'])).stdout.split('\n');

    // THEN the deletion is the first command, of step 1
    expect(commands[0]).toBe('kubectl delete --wait=true --ignore-not-found '
      + 'validatingadmissionpolicybinding.admissionregistration.k8s.io/shop.field-owners.deployments.apps '
      + 'validatingadmissionpolicy.admissionregistration.k8s.io/shop.field-owners.deployments.apps');
    expect(commands[1]).toMatch(/^kubectl apply --server-side /);
  });
});

describe('with Flux, the field-ownership Kustomization prunes the removed policies after applying the new ones', () => {
  const FLUX = GitOps.flux({ sourceRef: { name: 'platform' } });

  /** The Kustomizations of an outdir's `gitops/flux/cluster`, in the order its kustomization.yaml lists them. */
  function kustomizations(outdir: string): any[] {
    const cluster = path.join(outdir, 'gitops', 'flux', 'cluster');
    const list = yaml.load(fs.readFileSync(path.join(cluster, 'kustomization.yaml'), 'utf-8')) as any;
    return list.resources.map((f: string) => yaml.load(fs.readFileSync(path.join(cluster, f), 'utf-8')));
  }

  /** The objects a Kustomization applies: the files its step folder's kustomization.yaml names. */
  function objectsOf(outdir: string, k: any): any[] {
    const folder = path.join(outdir, 'gitops', 'flux', 'steps', path.basename(k.spec.path));
    const list = yaml.load(fs.readFileSync(path.join(folder, 'kustomization.yaml'), 'utf-8')) as any;
    return list.resources.flatMap((f: string) => yaml.loadAll(fs.readFileSync(path.join(folder, f), 'utf-8')).filter(Boolean));
  }

  test.each([['acme'], ['initech']])('web-%s autoscaled in release 2: Flux\'s reconcile order (apply, prune, then the dependents) keeps both tenants protected', (scaled) => {
    // GIVEN releases 1, 2 and 3 written for Flux, and the inventory of each Kustomization (what it applied)
    const s = newSeries();
    const cluster: Cluster = { admission: new Map(), deployments: new Map() };
    const inventory = new Map<string, Set<string>>();
    const problems: string[] = [];
    (['declared', 'autoscaled', 'declared'] as Variant[]).forEach((variant, i) => {
      const outdir = release(s, i + 1, variant, scaled, true, FLUX);
      const all = kustomizations(outdir);
      const policies = all.find((k) => k.metadata.name === 'field-ownership');
      // THEN the policies' Kustomization prunes, and every Kustomization of a protected object waits for it
      expect(policies.spec.prune).toBe(true);
      for (const k of all.filter((x) => objectsOf(outdir, x).some((o) => o.kind === 'Deployment'))) {
        expect(k.spec.dependsOn).toEqual(expect.arrayContaining([{ name: 'field-ownership' }]));
      }
      // WHEN Flux reconciles each Kustomization in dependsOn order: apply what it holds, then prune what it no longer holds
      for (const k of all) {
        const objects = objectsOf(outdir, k);
        const applied = new Set<string>();
        for (const o of objects) {
          if (o.apiVersion === 'admissionregistration.k8s.io/v1') {
            cluster.admission.set(`${o.kind}/${o.metadata.name}`, o);
            applied.add(`${o.kind}/${o.metadata.name}`);
          }
          if (o.kind === 'Deployment') {
            const live = cluster.deployments.get(o.metadata.name);
            const after = merged(live ?? {}, o);
            if (live && !admit([...cluster.admission.values()], request(DEPLOYER, live, after)).allowed) problems.push(`release ${i + 1}: ${o.metadata.name} refused`);
            cluster.deployments.set(o.metadata.name, after);
          }
        }
        if (i > 0) problems.push(...unprotected(cluster, TENANTS).map((t) => `release ${i + 1}, ${k.metadata.name} applied: web-${t} is not protected`));
        for (const stale of [...(inventory.get(k.metadata.name) ?? [])].filter((x) => !applied.has(x))) cluster.admission.delete(stale);
        inventory.set(k.metadata.name, applied);
        if (i > 0) problems.push(...unprotected(cluster, TENANTS).map((t) => `release ${i + 1}, ${k.metadata.name} pruned: web-${t} is not protected`));
      }
      if (variant === 'autoscaled') cluster.deployments.get(`web-${scaled}`).spec.replicas = SCALED;
    });

    // THEN no tenant was unprotected after any apply or prune, and every apply of the deployer was admitted
    expect(problems).toEqual([]);
    expect([...cluster.admission.keys()].sort()).toEqual([
      'ValidatingAdmissionPolicy/shop.field-owners.deployments.apps',
      'ValidatingAdmissionPolicyBinding/shop.field-owners.deployments.apps',
    ]);
  });

  test('enforce removed: the teardown says Flux deletes them with the field-ownership Kustomization, in no order', () => {
    const s = newSeries();
    release(s, 1, 'declared', 'acme', true, FLUX);
    const second = release(s, 2, 'declared', 'acme', false, FLUX);
    const text = capturingOutput(() => main(['plan', '--plan', path.join(second, 'plan.json'), '--teardown'])).stdout.split('\n');
    expect(text).toEqual(expect.arrayContaining([
      'cdk-capability apply runs it itself, at the start of its first runtime step, before it writes any',
      'With Flux (prune: true), Flux deletes them with the field-ownership Kustomization this release no',
      'longer has, not before the other Kustomizations apply it: a write they refuse is retried at its interval.',
    ]));
    expect(text.filter((l) => l.includes('the field-ownership Kustomization prunes them itself'))).toEqual([]);
  });

  test('the teardown of release 3 says Flux prunes them itself, nothing to run', () => {
    const s = newSeries();
    const outdir = (['declared', 'autoscaled', 'declared'] as Variant[]).map((v, i) => release(s, i + 1, v, 'acme', true, FLUX))[2];
    const text = capturingOutput(() => main(['plan', '--plan', path.join(outdir, 'plan.json'), '--teardown'])).stdout.split('\n');
    expect(text).toEqual(expect.arrayContaining([
      'With Flux (prune: true), the field-ownership Kustomization prunes them itself once it has applied the',
      'release\'s policies, and the Kustomizations that depend on it wait for that: nothing to run.',
    ]));
  });
});

/**
 * Argo CD's sync of the same releases, as argoproj/gitops-engine orders it (pkg/sync/sync_context.go at
 * 93156c594168d6e73e534e64ada95f8bde462bc3): a prune's wave is the live object's `sync-wave`, reversed among the
 * waves that prune ("symmetric swap on prune waves"), and each wave runs its prunes before its applies ("prune
 * first", `runTasks`); within a wave objects go by kind, then name (pkg/sync/sync_tasks.go). The library cannot
 * choose where Argo CD prunes: these cases pin what docs/enforcement.md says of it.
 */
describe('with Argo CD, where the sync prunes a renamed policy decides whether there is a gap', () => {
  const WAVE = 'argocd.argoproj.io/sync-wave';
  /** gitops-engine's kind order for the kinds here: Deployment and HorizontalPodAutoscaler before kinds it does not list. */
  const KIND_ORDER: Record<string, number> = { Deployment: -7, HorizontalPodAutoscaler: -6 };
  /** Go's string order of two objects' names. */
  const byName = (a: any, b: any) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

  function sync(variants: readonly Variant[], scaled: string): string[] {
    const s = newSeries();
    const cluster: Cluster = { admission: new Map(), deployments: new Map() };
    const live = new Map<string, { wave: number; object: any }>();
    const problems: string[] = [];
    variants.forEach((variant, i) => {
      const outdir = release(s, i + 1, variant, scaled, true, GitOps.argoCd());
      const folder = path.join(outdir, 'gitops', 'argocd');
      const targets = fs.readdirSync(folder).sort().flatMap((f) => yaml.loadAll(fs.readFileSync(path.join(folder, f), 'utf-8')).filter(Boolean) as any[]);
      const keyOf = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      const wanted = new Set(targets.map(keyOf));
      const prunes = [...live].filter(([k]) => !wanted.has(k));
      const pruneWaves = [...new Set(prunes.map(([, v]) => v.wave))].sort((a, b) => a - b);
      const swapped = new Map(pruneWaves.map((w, n) => [w, pruneWaves[pruneWaves.length - 1 - n]]));
      const waves = [...new Set([...targets.map((o) => Number(o.metadata.annotations[WAVE])), ...swapped.values()])].sort((a, b) => a - b);
      const check = (what: string) => {
        if (i > 0) problems.push(...unprotected(cluster, TENANTS).map((t) => `release ${i + 1}, ${what}: web-${t} is not protected`));
      };
      for (const wave of waves) {
        for (const [k, v] of prunes.filter(([, p]) => swapped.get(p.wave) === wave)) {
          live.delete(k);
          if (v.object.apiVersion === 'admissionregistration.k8s.io/v1') cluster.admission.delete(`${v.object.kind}/${v.object.metadata.name}`);
          check(`wave ${wave} pruned ${k}`);
        }
        const applies = targets.filter((o) => Number(o.metadata.annotations[WAVE]) === wave)
          .sort((a, b) => (KIND_ORDER[a.kind] ?? 0) - (KIND_ORDER[b.kind] ?? 0) || byName(a, b));
        for (const o of applies) {
          live.set(keyOf(o), { wave, object: o });
          if (o.apiVersion === 'admissionregistration.k8s.io/v1') cluster.admission.set(`${o.kind}/${o.metadata.name}`, o);
          if (o.kind === 'Deployment') {
            const before = cluster.deployments.get(o.metadata.name);
            const after = merged(before ?? {}, o);
            if (before && !admit([...cluster.admission.values()], request(DEPLOYER, before, after)).allowed) problems.push(`release ${i + 1}, wave ${wave}: the apply of ${o.metadata.name} is refused`);
            cluster.deployments.set(o.metadata.name, after);
          }
          check(`wave ${wave} applied ${keyOf(o)}`);
        }
      }
      if (variant !== 'declared') cluster.deployments.get(`web-${scaled}`).spec.replicas = SCALED;
    });
    return problems;
  }

  test('release 3 also prunes the autoscaler (a later wave): the policies are pruned in that wave, after the new ones and before the Deployments', () => {
    expect(sync(['declared', 'autoscaled', 'declared'], 'acme')).toEqual([]);
  });

  test('release 3 prunes only policies: the sync deletes them at the start of wave 0, and the tenant whose policy is renamed is unprotected until its new binding is applied', () => {
    expect(sync(['declared', 'writer-only', 'declared'], 'acme')).toEqual([
      'release 3, wave 0 pruned ValidatingAdmissionPolicy//shop.field-owners-2.deployments.apps: web-initech is not protected',
      'release 3, wave 0 pruned ValidatingAdmissionPolicyBinding//shop.field-owners-2.deployments.apps: web-initech is not protected',
      'release 3, wave 0 applied ValidatingAdmissionPolicy//shop.field-owners.deployments.apps: web-initech is not protected',
    ]);
  });
});

/**
 * Any series of shape changes: four tenants, each in each release declared, autoscaled (a `RuntimeWriter` of its
 * replicas) or absent. After every command of every release's sequence, each tenant in both that release and the
 * one before is protected, and no apply of the deployer is refused.
 */
describe('any series of shape changes keeps every object protected in two releases in a row', () => {
  const NAMES = ['acme', 'globex', 'initech', 'umbrella'];

  test('four releases of random shapes, played command by command', () => {
    const shape = fc.constantFrom<Shape>('declared', 'autoscaled', 'absent');
    const releases = fc.array(fc.tuple(shape, shape, shape, shape), { minLength: 4, maxLength: 4 });
    fc.assert(fc.property(releases, (series) => {
      const s = newSeries();
      const cluster: Cluster = { admission: new Map(), deployments: new Map() };
      const problems: string[] = [];
      series.forEach((shapes, i) => {
        const outdir = buildShop(s, path.join(s.dir, `random-${i + 1}`), NAMES, shapes);
        const both = NAMES.filter((_, t) => shapes[t] !== 'absent' && i > 0 && series[i - 1][t] !== 'absent');
        const sequence = [...teardown(outdir, 'before-apply'), ...dryRun(outdir), ...teardown(outdir, 'after-apply')];
        for (const command of sequence) {
          problems.push(...carryOut(cluster, command).map((p) => `release ${i + 1}: ${p}`));
          problems.push(...unprotected(cluster, both).map((t) => `release ${i + 1}, after '${command.line.slice(0, 80)}': web-${t} is not protected`));
          // a deleted Deployment: the teardown's after-apply step
          for (const t of NAMES.filter((_, x) => shapes[x] === 'absent')) if (command.line.includes(`deployment.apps/web-${t}`)) cluster.deployments.delete(`web-${t}`);
        }
        NAMES.forEach((t, x) => {
          if (shapes[x] === 'autoscaled') cluster.deployments.get(`web-${t}`).spec.replicas = SCALED;
        });
      });
      expect(problems).toEqual([]);
    }), { numRuns: 12, seed: 20261207 });
  });
});
