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
import * as yaml from 'js-yaml';
import { admit, Request } from './enforcement/admission';
import { newSeries, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { main } from '../src/cli/main';

afterAll(removeReleaseDirs);

const DEPLOYER = 'system:serviceaccount:ci:deployer';
const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';
const KCM = 'kube-controller-manager';
const INTRUDER = 'mallory';
const TENANTS = ['acme', 'initech'];
/** What the autoscaler scaled its Deployment to while it owned the replicas. */
const SCALED = 3;

type Variant = 'declared' | 'autoscaled';

/** One release of the shop: the tenants' Deployments in `web`, the tenant `scaled` autoscaled or not. */
function release(series: ReleaseSeries, n: number, variant: Variant, scaled: string, enforce = true): string {
  const outdir = path.join(series.dir, `dist-${n}`);
  const app = new CapabilityApp({ outdir, lockFile: series.lockFile, ...(enforce ? { enforce: { deployer: DEPLOYER } } : {}) });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  for (const tenant of TENANTS) {
    const autoscaled = tenant === scaled && variant === 'autoscaled';
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

/** One command of the sequence: its line, and what it sends on stdin. */
interface Command {
  readonly line: string;
  readonly input?: string;
}

/** The commands `apply --dry-run` prints, each with its here-document. */
function dryRun(outdir: string): Command[] {
  const run = capturingOutput(() => main(['apply', '--outdir', outdir, '--dry-run']));
  expect(run.result).toBe(0);
  const commands: Command[] = [];
  const lines = run.stdout.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '' || line.startsWith('#')) continue;
    if (!line.endsWith("<<'EOF'")) {
      commands.push({ line });
      continue;
    }
    const end = lines.indexOf('EOF', i);
    commands.push({ line, input: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return commands;
}

/** The teardown's commands of the steps that run at `when`, as `plan --teardown --json` gives them. */
function teardown(outdir: string, when: string): Command[] {
  const run = capturingOutput(() => main(['plan', '--plan', path.join(outdir, 'plan.json'), '--teardown', '--json']));
  const steps: any[] = JSON.parse(run.stdout).teardown.steps;
  return steps.filter((s) => s.when === when).flatMap((s) => s.commands.map((line: string) => ({ line })));
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
