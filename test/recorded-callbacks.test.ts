/**
 * Write callbacks into a plain cdk8s object are recorded, not rendered after each (issue 26: "10,000 write
 * callbacks into one object still linear"). The oracle is the render path: with the recorded path off, every
 * callback renders its target after it runs; with it on, the runs, the violations and the manifests are the same.
 */
import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { conflict, contributes, declares, fixture } from './write-fixtures';
import { CapabilityApp, CapabilityTesting, Contribution } from '../src';
import { recordedCallbacks } from '../src/collect/ledger/label-recorder';
import { runWriteCallbacks } from '../src/collect/ledger/write-callbacks';

/** The app's contributions with a write callback, in the order synth runs them. */
function contributionsOf(app: CapabilityApp): Contribution[] {
  return app.node.findAll().filter((c): c is Contribution => Contribution.isContribution(c));
}

/** The runs of the app's write callbacks as the ledger reads them, the targets named by path. */
function runsOf(app: CapabilityApp) {
  return runWriteCallbacks(contributionsOf(app)).runs.map(({ target, ...run }) => ({ target: target.node.path, ...run }));
}

/** How many times `ApiObject.prototype.toJson` runs in `f`. */
function rendersIn(f: () => void): number {
  const spy = jest.spyOn(ApiObject.prototype, 'toJson');
  try {
    f();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

/** With the recorded path off for `f` (the render path after every callback). */
function rendering<T>(f: () => T): T {
  recordedCallbacks.enabled = false;
  try {
    return f();
  } finally {
    recordedCallbacks.enabled = true;
  }
}

/** A ConfigMap declared by NetOp, a plain `ApiObject`. */
function settings(scope: Construct, labels: Record<string, string> = {}, annotations: Record<string, string> = {}) {
  return new ApiObject(scope, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'apps', labels, annotations }, data: { level: 'info' } });
}

const SETTINGS = 'ConfigMap apps/settings';

describe('exact values on the recorded path', () => {
  test('two callbacks writing one label with different values are CAP002 naming both contributions, with two renders for five callbacks', () => {
    // GIVEN a plain ConfigMap and five callbacks into it, two of which set team
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp);
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'deploy') });
    for (const id of ['A', 'B', 'C']) new Contribution(deployTeam, id, { target, write: (t) => t.metadata.addAnnotation(`example.com/${id}`, id) });
    new Contribution(netOp, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'netop') });

    // WHEN the callbacks run, rendering the target once before them and once after
    let runs: ReturnType<typeof runsOf> = [];
    const renders = rendersIn(() => { runs = runsOf(app); });

    // THEN recorded: two renders, the changes renderDelta gives, and CAP002 naming both contributions
    expect(renders).toBe(2);
    expect(runs.map((r) => [r.writer, r.changes])).toEqual([
      ['cdn/Routing/DeployTeam/Team', [{ path: ['metadata', 'labels'], before: undefined, after: { team: 'deploy' } }]],
      ['cdn/Routing/DeployTeam/A', [{ path: ['metadata', 'annotations'], before: undefined, after: { 'example.com/A': 'A' } }]],
      ['cdn/Routing/DeployTeam/B', [{ path: ['metadata', 'annotations', 'example.com/B'], before: undefined, after: 'B' }]],
      ['cdn/Routing/DeployTeam/C', [{ path: ['metadata', 'annotations', 'example.com/C'], before: undefined, after: 'C' }]],
      ['cdn/Routing/NetOp/Team', [{ path: ['metadata', 'labels', 'team'], before: 'deploy', after: 'netop' }]],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP002',
      message: conflict("'cdn/Routing/DeployTeam/Team'", "'cdn/Routing/NetOp/Team'", 'metadata.labels.team', SETTINGS, contributes('write callback', 'cdn/Routing/DeployTeam/Team', 'cdn/Routing/NetOp/Team')),
      paths: ['cdn/Routing/DeployTeam/Team', 'cdn/Routing/NetOp/Team'],
    }]);
  });

  test('a callback setting the declarer\'s label to the value it has writes nothing', () => {
    // GIVEN a ConfigMap labelled team=payments by its declarer
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp, { team: 'payments' });

    // WHEN a callback sets team=payments again
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'payments') });

    // THEN no change, accepted
    expect(runsOf(app).map((r) => r.changes)).toEqual([[]]);
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'ConfigMap').metadata.labels).toEqual({ team: 'payments' });
  });

  test('a callback over the declarer\'s label value is CAP002 naming the declarer and the contribution', () => {
    // GIVEN a ConfigMap labelled team=payments by its declarer
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp, { team: 'payments' });

    // WHEN a callback relabels it
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'obs') });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP002',
      message: conflict("'cdn/Routing/DeployTeam/Team'", "'cdn/Routing/NetOp/Settings'", 'metadata.labels.team', SETTINGS, contributes('write callback', 'cdn/Routing/DeployTeam/Team'), declares('cdn/Routing/NetOp/Settings')),
      paths: ['cdn/Routing/DeployTeam/Team', 'cdn/Routing/NetOp/Settings'],
    }]);
  });

  test('a generated KubeConfigMap target is rendered after each callback, and two values of one label are CAP002', () => {
    // GIVEN a KubeConfigMap (its toJson is its own) and three callbacks into it
    const { app, deployTeam, netOp } = fixture();
    const target = new kplus.k8s.KubeConfigMap(netOp, 'Settings', { metadata: { name: 'settings', namespace: 'apps' }, data: { level: 'info' } });
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'deploy') });
    new Contribution(deployTeam, 'Tier', { target, write: (t) => t.metadata.addLabel('tier', 'web') });
    new Contribution(netOp, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'netop') });

    // WHEN
    let runs: ReturnType<typeof runsOf> = [];
    const renders = rendersIn(() => { runs = runsOf(app); });

    // THEN the render path: one render before and one after each callback
    expect(renders).toBe(4);
    expect(runs.map((r) => r.changes)).toEqual([
      [{ path: ['metadata', 'labels'], before: undefined, after: { team: 'deploy' } }],
      [{ path: ['metadata', 'labels', 'tier'], before: undefined, after: 'web' }],
      [{ path: ['metadata', 'labels', 'team'], before: 'deploy', after: 'netop' }],
    ]);
    expect(CapabilityTesting.synth(app).violations.map((v) => v.message)).toEqual([
      conflict("'cdn/Routing/DeployTeam/Team'", "'cdn/Routing/NetOp/Team'", 'metadata.labels.team', SETTINGS, contributes('write callback', 'cdn/Routing/DeployTeam/Team', 'cdn/Routing/NetOp/Team')),
    ]);
  });

  test('a cdk8s-plus target is rendered after each callback, and its labels land in the manifest', () => {
    // GIVEN a cdk8s-plus ConfigMap (its apiObject's props are a Lazy)
    const { app, deployTeam, netOp } = fixture();
    const target = new kplus.ConfigMap(netOp, 'Settings', { metadata: { name: 'settings', namespace: 'apps' }, data: { level: 'info' } });
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'deploy') });
    new Contribution(deployTeam, 'Tier', { target, write: (t) => t.metadata.addLabel('tier', 'web') });

    // WHEN
    const renders = rendersIn(() => runsOf(app));

    // THEN
    expect(renders).toBe(3);
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(result.runtimeObjects.find((o) => o.kind === 'ConfigMap').metadata.labels).toEqual({ team: 'deploy', tier: 'web' });
  });

  test('a callback that adds a finalizer is rendered after it runs, and the callbacks after it are recorded again', () => {
    // GIVEN five callbacks into a plain ConfigMap, the third adding a finalizer
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp);
    for (const id of ['A', 'B']) new Contribution(deployTeam, id, { target, write: (t) => t.metadata.addLabel(id, 'x') });
    new Contribution(deployTeam, 'Keep', { target, write: (t) => { t.metadata.addFinalizers('example.com/keep'); t.metadata.addLabel('keep', 'x'); } });
    for (const id of ['C', 'D']) new Contribution(deployTeam, id, { target, write: (t) => t.metadata.addLabel(id, 'x') });

    // WHEN
    let runs: ReturnType<typeof runsOf> = [];
    const renders = rendersIn(() => { runs = runsOf(app); });

    // THEN one render before, one after the finalizer, one at the end
    expect(renders).toBe(3);
    expect(runs[2].changes).toEqual([
      { path: ['metadata', 'finalizers'], before: undefined, after: ['example.com/keep'] },
      { path: ['metadata', 'labels', 'keep'], before: undefined, after: 'x' },
    ]);
    expect(runs[4].after).toEqual(expect.objectContaining({ metadata: { name: 'settings', namespace: 'apps', finalizers: ['example.com/keep'], labels: { A: 'x', B: 'x', C: 'x', D: 'x', keep: 'x' } } }));
  });

  test('a write the recorder did not see is found at the end of the run: a problem naming the run\'s contributions, never accepted', () => {
    // GIVEN two callbacks into one object, one of them writing the label map through a reference taken before the run, out of the recorder's sight
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp);
    const labels = (target.metadata as any).labels;
    new Contribution(deployTeam, 'Team', { target, write: (t) => t.metadata.addLabel('team', 'deploy') });
    new Contribution(deployTeam, 'Hidden', { target, write: () => { labels.hidden = 'yes'; } });

    // WHEN
    const { problems } = runWriteCallbacks(contributionsOf(app));

    // THEN the problem names both contributions and where the object differs from what was recorded
    expect(problems).toEqual([{
      path: 'cdn/Routing/DeployTeam/Team',
      others: ['cdn/Routing/DeployTeam/Hidden'],
      error:
        "the write callbacks of it and 'cdn/Routing/DeployTeam/Hidden' into 'cdn/Routing/NetOp/Settings' are followed by recording what they write into its labels and annotations, " +
        'but the object renders otherwise than they were seen to write, at metadata.labels.hidden (recorded nothing, rendered "yes"): a callback wrote the object outside its API ' +
        '(into its private state, through a reference kept from before it ran), so what it wrote cannot be attributed. ' +
        "Write through the object's API (metadata.addLabel, metadata.addAnnotation) or with `fields`; if no callback writes that way, report it to cdk-capability with these callbacks",
    }]);
  });

  test('through synth, a write the recorder did not see is CAP010 naming the contribution, the field and the fix, on every synth', () => {
    // GIVEN the same out-of-sight write, alone
    const { app, deployTeam, netOp } = fixture();
    const target = settings(netOp);
    const labels = (target.metadata as any).labels;
    new Contribution(deployTeam, 'Hidden', { target, write: () => { labels.hidden = 'yes'; } });

    // WHEN synthesized twice (the second reuses the callbacks' run)
    const first = CapabilityTesting.synth(app).violations;
    const second = CapabilityTesting.synth(app).violations;

    // THEN
    const expected = [{
      code: 'CAP010',
      message:
        "invalid object: Contribution 'cdn/Routing/DeployTeam/Hidden': its write callback into 'cdn/Routing/NetOp/Settings' is followed by recording what it writes into its labels and annotations, " +
        'but the object renders otherwise than it was seen to write, at metadata.labels (recorded nothing, rendered {"hidden":"yes"}): a callback wrote the object outside its API ' +
        '(into its private state, through a reference kept from before it ran), so what it wrote cannot be attributed. ' +
        "Write through the object's API (metadata.addLabel, metadata.addAnnotation) or with `fields`; if no callback writes that way, report it to cdk-capability with these callbacks.",
      paths: ['cdn/Routing/DeployTeam/Hidden'],
    }];
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
  });
});

/** One thing a callback does to its target. */
type Action =
  | { kind: 'label' | 'annotation' | 'privateLabel' | 'lazyLabel' | 'countingLabel' | 'props' | 'stashedLabel'; key: string; value: string }
  | { kind: 'add'; key: 'generateName' | 'name' | 'labels' | 'annotations'; value: string }
  | { kind: 'finalizer' | 'deleteLabel' | 'pruneLabels' | 'replaceLabels' | 'stashLabels' | 'throw'; key: string };

const KEYS = ['team', 'tier', 'a', 'b', '1', '10', '2', 'app.kubernetes.io/name'];
const VALUES = ['x', 'y', '', 'z'];
const key = fc.constantFrom(...KEYS, '__proto__');
const value = fc.constantFrom(...VALUES);
const stringMap = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 3 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constantFrom('label' as const, 'annotation' as const), key, value }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('privateLabel' as const, 'lazyLabel' as const, 'countingLabel' as const, 'props' as const, 'stashedLabel' as const), key, value }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom('generateName' as const, 'name' as const, 'labels' as const, 'annotations' as const), value }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('finalizer' as const, 'deleteLabel' as const, 'pruneLabels' as const, 'replaceLabels' as const, 'stashLabels' as const, 'throw' as const), key }) },
);
const plan = fc.record({
  labels: stringMap,
  annotations: stringMap,
  // each callback: which team writes, into which object (mostly the first), what it does
  callbacks: fc.array(
    fc.record({ team: fc.nat(2), target: fc.constantFrom(0, 0, 0, 1), actions: fc.array(action, { minLength: 1, maxLength: 4 }) }),
    { minLength: 1, maxLength: 10 },
  ),
});

type Plan = typeof plan extends fc.Arbitrary<infer T> ? T : never;

/**
 * Does `a` to `t`. `stash` holds a label map a callback kept (the metadata's private map as the callback sees it)
 * and how many times a counting label was rendered (a Lazy whose value changes with each render).
 */
function act(t: ApiObject, a: Action, stash: { labels?: Record<string, unknown>; renders: number }): void {
  const metadata = t.metadata as any;
  switch (a.kind) {
    case 'label': return t.metadata.addLabel(a.key, a.value);
    case 'annotation': return t.metadata.addAnnotation(a.key, a.value);
    case 'privateLabel': metadata.labels[a.key] = a.value; return;
    case 'lazyLabel': return t.metadata.addLabel(a.key, Lazy.any({ produce: () => a.value }) as any);
    case 'countingLabel': return t.metadata.addLabel(a.key, Lazy.any({ produce: () => `${a.value}${stash.renders++}` }) as any);
    case 'props': (t as any).props.data[a.key] = a.value; return;
    case 'stashedLabel': if (stash.labels) stash.labels[a.key] = a.value; return;
    case 'add': return t.metadata.add(a.key, a.key === 'labels' || a.key === 'annotations' ? { team: a.value } : a.value);
    case 'finalizer': return t.metadata.addFinalizers(`example.com/${a.key}`);
    case 'deleteLabel': delete metadata.labels[a.key]; return;
    case 'pruneLabels': for (const k of Object.keys(metadata.labels)) if (k !== a.key) delete metadata.labels[k]; return;
    case 'replaceLabels': metadata.labels = { [a.key]: 'replaced' }; return;
    case 'stashLabels': stash.labels = metadata.labels; return;
    case 'throw': throw new Error(`boom ${a.key}`);
  }
}

/** The app `p` describes: two plain ConfigMaps declared by NetOp, and its callbacks by three teams. */
function build(p: Plan) {
  const { app, routing, netOp } = fixture();
  const targets = [settings(netOp, p.labels, p.annotations), new ApiObject(netOp, 'Other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'apps' }, data: { a: '1' } })];
  const teams = [0, 1, 2].map((i) => new Construct(routing, `Team${i}`));
  const stash = { renders: 0 };
  p.callbacks.forEach((c, i) => new Contribution(teams[c.team], `C${i}`, { target: targets[c.target], write: (t) => c.actions.forEach((a) => act(t, a, stash)) }));
  return app;
}

/** What a plan gives: the runs, the violations and the manifests. */
function outcome(p: Plan) {
  const app = build(p);
  const runs = runsOf(app);
  const result = CapabilityTesting.synth(app);
  return { runs, violations: result.violations, manifests: result.runtimeObjects };
}

describe('the recorded path gives what the render path gives', () => {
  test('random callbacks into one plain ApiObject: the same runs (changes, renders kept), violations and manifests', () => {
    fc.assert(fc.property(plan, (p) => {
      const rendered = rendering(() => outcome(p));
      const recorded = outcome(p);
      expect(recorded).toStrictEqual(rendered);
    }), { numRuns: 300, seed: 20261226 });
  });
});
