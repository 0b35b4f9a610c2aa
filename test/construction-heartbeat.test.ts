import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting, SharedBase } from '../src';
import { SHORT_SYNTH_CONSTRUCTS } from '../src/app/short-synth';
import { HEARTBEAT, refreshingThread } from '../src/private/heartbeat';
import { sleep } from '../src/private/liveness';
import { writeSteps } from '../src/private/write-steps';

// The run folder an aws-cdk stage gets at construction (the `Capability` of `cdk-capability` is one) has an
// owner record that the refreshing thread keeps fresh. Starting that thread (a second V8 isolate) while the
// tree is still being built cost every synth of the full entry point its CPU, short or not. These tests share
// this file's module instance of the thread: each leaves it stopped or knows it runs.

const saved = { ...HEARTBEAT };
afterEach(() => Object.assign(HEARTBEAT, saved));

/** A full-entry app (its `Capability` is an aws-cdk stage) with `objects` ConfigMaps in one runtime chart. */
function fullEntryApp(objects: number): { app: CapabilityApp; chart: RuntimeRouting } {
  const dir = tempDir();
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'capability.lock.json') });
  const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  for (let i = 0; i < objects; i++) new ApiObject(chart, `Config${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `config-${i}`, namespace: 'shop' } });
  return { app, chart };
}

/** This process's run folders beside `app`'s outdir. */
function runFolders(app: CapabilityApp): string[] {
  const parent = path.dirname(app.outdir);
  return fs.readdirSync(parent).filter((f) => f.startsWith(`.${path.basename(app.outdir)}.run-`));
}

describe('the run folder of a stage made at construction', () => {
  test('building a Capability makes its run folder but starts no refreshing thread; a short synth starts none either', () => {
    // WHEN
    const { app } = fullEntryApp(3);

    // THEN the run folder (with its owner record) exists, and no thread refreshes it yet
    expect(runFolders(app)).toHaveLength(1);
    expect(refreshingThread()).toBe(false);

    // WHEN synthesized (short: a few constructs, no stack)
    app.synth();

    // THEN written, the run folder gone, and still no thread
    expect(fs.readdirSync(path.join(app.outdir, 'runtime')).sort()).toEqual(['0001-shop-routing.yaml', 'kustomization.yaml']);
    expect(runFolders(app)).toEqual([]);
    expect(refreshingThread()).toBe(false);
  });

  test('a synth with a stack and aws-cdk\'s template validator off is short: no refreshing thread, and its run folder goes', () => {
    // GIVEN a SharedBase stack in the capability, with the validator off (CDK_VALIDATION=false, as in every test here)
    const { app } = fullEntryApp(1);
    new SharedBase(Capability.of(app.node.findChild('shop')), 'Base');
    expect(process.env.CDK_VALIDATION).toBe('false');

    // WHEN
    app.synth();

    // THEN the stack's template is written, and no thread ran for the lock or the run folder
    expect(fs.readdirSync(path.join(app.outdir, 'deploy')).filter((f) => f.endsWith('.template.json'))).toEqual([expect.stringMatching(/^shopBase[0-9A-F]{8}\.template\.json$/)]);
    expect(runFolders(app)).toEqual([]);
    expect(refreshingThread()).toBe(false);
  });

  test('a synth that is not short refreshes the record made at construction at once, and hands it to the thread', () => {
    // GIVEN a tree of more than SHORT_SYNTH_CONSTRUCTS constructs, built while the record ages
    Object.assign(HEARTBEAT, { refreshMs: 50, staleMs: 600 });
    const { app } = fullEntryApp(1);
    const [folder] = runFolders(app);
    const owner = path.join(path.dirname(app.outdir), folder, 'owner.json');
    const made = fs.statSync(owner).mtimeMs;
    const bulk = new Construct(app, 'Bulk');
    for (let i = app.node.findAll().length + 1; i <= SHORT_SYNTH_CONSTRUCTS + 1; i++) new Construct(bulk, `C${i}`);
    sleep(30);
    expect(refreshingThread()).toBe(false);

    // WHEN synthesized, watching the record as the synth starts (its first write step)
    let seen: { mtimeMs: number; thread: boolean } | undefined;
    writeSteps.observe = () => {
      seen ??= { mtimeMs: fs.statSync(owner).mtimeMs, thread: refreshingThread() };
    };
    try {
      app.synth();
    } finally {
      writeSteps.observe = undefined;
    }

    // THEN by then the record was refreshed and the thread ran
    expect(seen).toBeDefined();
    expect(seen!.mtimeMs).toBeGreaterThan(made);
    expect(seen!.thread).toBe(true);
  });
});
