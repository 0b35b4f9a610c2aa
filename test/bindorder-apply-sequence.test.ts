/**
 * Inside the field-ownership step's one `kubectl apply`, request by request: an object protected in two
 * releases in a row is bound to a policy at every request of the step, not only after each command.
 *
 * kubectl applies the documents of a file one request after the other, in file order (kubernetes/kubectl
 * pkg/cmd/apply/apply.go `Run`: `for _, info := range infos` over the builder's objects, unsorted; read at
 * dee3483a3d6a64c07fdf746caf80af446dee99ac). So each document of `runtime/0000-field-ownership.yaml` is one
 * request here, and after each one the policies and bindings then in the model cluster judge (with the CEL
 * evaluator of test/enforcement/) an intruder's change of each tenant's image, which must be refused. The model
 * of the rest of the sequence (the teardown's `kubectl delete`, the deployer's applies) is the one of
 * test/policynames-apply-sequence.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { buildShop, Command, DEPLOYER, dryRun, Shape, teardown } from './apply-replay';
import { admit, Request } from './enforcement/admission';
import { newSeries, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

const INTRUDER = 'mallory';
const STEP_FILE = '0000-field-ownership.yaml';
/** What the autoscaler scales a Deployment to while it owns the replicas. */
const SCALED = 3;

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
  return { operation: 'UPDATE', username, group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespace: 'web', name: oldObject.metadata.name, oldObject, object };
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

/** One request of a `kubectl apply`: an admission object is put in force; a Deployment is judged as the deployer's apply. */
function applyDocument(cluster: Cluster, doc: any): string[] {
  if (doc.apiVersion === 'admissionregistration.k8s.io/v1') cluster.admission.set(`${doc.kind}/${doc.metadata.name}`, doc);
  if (doc.kind !== 'Deployment') return [];
  const live = cluster.deployments.get(doc.metadata.name);
  const after = merged(live ?? {}, doc);
  cluster.deployments.set(doc.metadata.name, after);
  if (!live) return [];
  const decision = admit([...cluster.admission.values()], request(DEPLOYER, live, after));
  return decision.allowed ? [] : [`the deployer's apply of ${doc.metadata.name} is refused: ${decision.message}`];
}

/** The documents a `kubectl apply` command sends, in order: its here-document, else its files. */
function documentsOf(command: Command): any[] {
  const words = command.line.split(' ');
  const files = words.flatMap((w, i) => (words[i - 1] === '-f' && w !== '-' ? [w] : []));
  const text = command.input ?? files.map((f) => fs.readFileSync(f, 'utf-8')).join('---\n');
  return (yaml.loadAll(text) as any[]).filter(Boolean);
}

/** What a `kubectl delete` command removes from the model. */
function carryOutDelete(cluster: Cluster, command: Command): void {
  for (const w of command.line.split(' ').filter((x) => x.startsWith('validatingadmissionpolicy') || x.startsWith('deployment.apps/'))) {
    const [resource, name] = w.split('/');
    if (resource === 'deployment.apps') cluster.deployments.delete(name);
    else cluster.admission.delete(`${resource.startsWith('validatingadmissionpolicybinding.') ? 'ValidatingAdmissionPolicyBinding' : 'ValidatingAdmissionPolicy'}/${name}`);
  }
}

/** The step's documents applied one by one from `cluster`; the tenants unprotected after each request, as `<request>: web-<tenant>`. */
function replayStep(cluster: Cluster, docs: readonly any[], tenants: readonly string[]): string[] {
  const gaps: string[] = [];
  for (const doc of docs) {
    applyDocument(cluster, doc);
    gaps.push(...unprotected(cluster, tenants).map((t) => `after ${doc.kind} ${doc.metadata.name}: web-${t} is not protected`));
  }
  return gaps;
}

/** All orders of a list (the step holds at most a few documents here). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

function cloneCluster(cluster: Cluster): Cluster {
  return { admission: new Map(cluster.admission), deployments: new Map([...cluster.deployments].map(([k, v]) => [k, structuredClone(v)])) };
}

/** What a series of releases did, played request by request. */
interface Played {
  /** Every problem: a tenant unprotected, an apply of the deployer refused; by release and request. */
  readonly problems: string[];
  /** With the oracle: the releases (from 1) of whose step no order of the documents leaves every tenant protected. */
  readonly noSafeOrder: number[];
  /** Per release: the step's documents, `<kind> <name>`, in the order applied. */
  readonly stepOrders: string[][];
}

/**
 * Plays each release as `plan --teardown` and `apply --dry-run` say, the field-ownership step request by request.
 * With `oracle`, also tries every order of each step's documents on a copy of the cluster; `reorder` gives the
 * order an engine applies the step's documents in (the file's, by default).
 */
function play(
  tenants: readonly string[],
  releases: ReadonlyArray<readonly Shape[]>,
  oracle = false,
  reorder: (docs: any[]) => any[] = (d) => d,
): Played {
  const series = newSeries();
  const cluster: Cluster = { admission: new Map(), deployments: new Map() };
  const problems: string[] = [];
  const noSafeOrder: number[] = [];
  const stepOrders: string[][] = [];
  releases.forEach((shapes, i) => {
    const outdir = buildShop(series, path.join(series.dir, `release-${i + 1}`), tenants, shapes);
    const both = tenants.filter((_, t) => shapes[t] !== 'absent' && i > 0 && releases[i - 1][t] !== 'absent');
    const sequence = [...teardown(outdir, 'before-apply'), ...dryRun(outdir), ...teardown(outdir, 'after-apply')];
    for (const command of sequence) {
      const where = `release ${i + 1}`;
      if (command.line.startsWith('kubectl apply')) {
        if (command.line.endsWith(STEP_FILE)) {
          const docs = reorder(documentsOf(command));
          stepOrders.push(docs.map((d) => `${d.kind} ${d.metadata.name}`));
          if (oracle && !permutations(docs).some((order) => replayStep(cloneCluster(cluster), order, both).length === 0)) noSafeOrder.push(i + 1);
          problems.push(...replayStep(cluster, docs, both).map((p) => `${where}, ${p}`));
          continue;
        }
        for (const doc of documentsOf(command)) problems.push(...applyDocument(cluster, doc).map((p) => `${where}: ${p}`));
      } else if (command.line.startsWith('kubectl delete')) {
        carryOutDelete(cluster, command);
      }
      problems.push(...unprotected(cluster, both).map((t) => `${where}, after '${command.line.slice(0, 60)}...': web-${t} is not protected`));
    }
    tenants.forEach((t, x) => {
      if (shapes[x] === 'autoscaled') cluster.deployments.get(`web-${t}`).spec.replicas = SCALED;
    });
  });
  return { problems, noSafeOrder, stepOrders };
}

const THREE = ['acme', 'globex', 'initech'];

describe('the field-ownership step applies each binding that gains an object, after its policy, before the binding that lets it go', () => {
  test('web-acme autoscaled: the second binding, which gains web-globex and web-initech, goes before the first, which lets them go', () => {
    // GIVEN release 1 (one shape: one binding for the three tenants) and release 2 (web-acme autoscaled: its
    // policy keeps the first name, and the other two move to the second binding)
    // WHEN both are played request by request
    const { problems, stepOrders } = play(THREE, [
      ['declared', 'declared', 'declared'],
      ['autoscaled', 'declared', 'declared'],
    ]);

    // THEN no tenant is unprotected after any request, and no apply of the deployer is refused
    expect(problems).toEqual([]);
    // and release 2's step sends the policies, then the gaining binding, then the losing one
    expect(stepOrders[1]).toEqual([
      'ValidatingAdmissionPolicy shop.field-owners.deployments.apps',
      'ValidatingAdmissionPolicy shop.field-owners-2.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners.deployments.apps',
    ]);
  });

  test('a release whose bindings move no object keeps the rendered order: each policy followed by its binding', () => {
    // GIVEN the first release (no lock), and a second with the same shapes
    const { problems, stepOrders } = play(THREE, [
      ['autoscaled', 'declared', 'declared'],
      ['autoscaled', 'declared', 'declared'],
    ]);
    const rendered = [
      'ValidatingAdmissionPolicy shop.field-owners.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners.deployments.apps',
      'ValidatingAdmissionPolicy shop.field-owners-2.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps',
    ];
    expect(stepOrders).toEqual([rendered, rendered]);
    expect(problems).toEqual([]);
  });

  test('web-acme handed back: the first binding gains the others, and the second is deleted after the step', () => {
    const { problems } = play(THREE, [
      ['declared', 'declared', 'declared'],
      ['autoscaled', 'declared', 'declared'],
      ['declared', 'declared', 'declared'],
    ]);
    expect(problems).toEqual([]);
  });

  test('two bindings that exchange objects: no order keeps both bound; the first goes after the second, and what the second lets go of is unbound until then', () => {
    // GIVEN web-initech autoscaled (binding 1: acme, globex; binding 2: initech), then web-globex instead
    // (binding 1: acme, initech; binding 2: globex): each binding gains what the other lets go of
    const { problems, noSafeOrder, stepOrders } = play(THREE, [
      ['declared', 'declared', 'autoscaled'],
      ['declared', 'autoscaled', 'declared'],
    ], true);

    // THEN no order of release 2's step is safe; the first binding goes after the second, and web-initech, which
    // the second lets go of to it, is unbound from the second binding's request to the first's
    expect(noSafeOrder).toEqual([2]);
    expect(problems).toEqual(['release 2, after ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps: web-initech is not protected']);
    expect(stepOrders[1]).toEqual([
      'ValidatingAdmissionPolicy shop.field-owners.deployments.apps',
      'ValidatingAdmissionPolicy shop.field-owners-2.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps',
      'ValidatingAdmissionPolicyBinding shop.field-owners.deployments.apps',
    ]);
  });
});

describe('any series of shape changes: the step\'s order leaves no object unprotected wherever some order does', () => {
  const FOUR = ['acme', 'globex', 'initech', 'umbrella'];

  test('four tenants gaining, losing or keeping an autoscaler, or coming and going, over three releases', () => {
    const shape = fc.constantFrom<Shape>('declared', 'autoscaled', 'absent');
    const releases = fc.array(fc.tuple(shape, shape, shape, shape), { minLength: 3, maxLength: 3 });
    fc.assert(fc.property(releases, (series) => {
      // WHEN the series is played, every order of each step tried on a copy of the cluster
      const { problems, noSafeOrder } = play(FOUR, series, true);
      // THEN where some order of a release's step keeps every tenant protected, the step's own order does,
      // and nothing else (a command, an apply of the deployer) fails
      expect(problems.filter((p) => !noSafeOrder.some((r) => p.startsWith(`release ${r}, after ValidatingAdmission`)))).toEqual([]);
    }), { numRuns: 10, seed: 20261207 });
  });
});

/**
 * What Flux does with the step's order: kustomize-controller applies a Kustomization with fluxcd/pkg ssa
 * `ApplyAllStaged`, whose `ApplyAll` sorts the objects (ssa/sort.go: kind rank, where neither kind is listed,
 * then group, then kind, then namespace and name) and applies them one by one in that order (fluxcd/pkg
 * e2cfd1a2d1815a81b3e77ef750e6528282ccccd6, kustomize-controller 186fb3b29138ce82ff61ba1a9370b96a3dd598fe). So
 * every ValidatingAdmissionPolicy goes before every ValidatingAdmissionPolicyBinding, each by name, whatever the
 * file's order: these cases pin what docs/enforcement.md says of it.
 */
describe('with Flux, the step is applied by kind then name, not in the file\'s order', () => {
  /** Go's string order. */
  const goLess = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const fluxOrder = (docs: any[]) => [...docs].sort((a, b) => goLess(a.kind, b.kind) || goLess(a.metadata.name, b.metadata.name));

  test('objects moving to field-owners-2 (web-acme autoscaled): the gaining binding sorts first, no gap', () => {
    const releases: Shape[][] = [['declared', 'declared', 'declared'], ['autoscaled', 'declared', 'declared']];
    expect(play(THREE, releases, false, fluxOrder).problems).toEqual([]);
  });

  test('an object moving from field-owners-2 to field-owners: the losing binding sorts first, and the object is unbound for one request', () => {
    // GIVEN web-globex and web-initech autoscaled (binding 2), then web-globex declared again (binding 1, which gains it)
    const releases: Shape[][] = [['declared', 'autoscaled', 'autoscaled'], ['declared', 'declared', 'autoscaled']];
    // THEN the file's order has no gap, and Flux's has one, from binding 2's request to binding 1's
    expect(play(THREE, releases).problems).toEqual([]);
    expect(play(THREE, releases, false, fluxOrder).problems).toEqual([
      'release 2, after ValidatingAdmissionPolicyBinding shop.field-owners-2.deployments.apps: web-globex is not protected',
    ]);
  });
});
