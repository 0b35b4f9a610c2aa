import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isShortSynth, SHORT_SYNTH_CONSTRUCTS } from '../src/app/short-synth';
import { beat, deferringThread, HEARTBEAT, pulse, refreshingThread, stopBeating } from '../src/private/heartbeat';
import { sleep } from '../src/private/liveness';
import { Capability, CapabilityApp, RuntimeRouting } from '../src/runtime';

// Not test/util's tempDir: it imports the full entry point, which loads aws-cdk-lib (a short synth has none in use).
const dirs: string[] = [];
const tempDir = () => {
  dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-short-synth-')));
  return dirs[dirs.length - 1];
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const saved = { ...HEARTBEAT };
afterEach(() => Object.assign(HEARTBEAT, saved));

/** A runtime-only app of `objects` ConfigMaps, writing into a fresh folder. */
function runtimeApp(objects: number): CapabilityApp {
  const dir = tempDir();
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'capability.lock.json') });
  const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  for (let i = 0; i < objects; i++) new ApiObject(chart, `Config${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `config-${i}`, namespace: 'shop' } });
  return app;
}

// These tests share the refreshing thread of this file's module instance: the first must run before any thread started.
describe('a short synth', () => {
  test('a small runtime-only app synthesizes without starting the refreshing thread', () => {
    // GIVEN
    const app = runtimeApp(3);
    expect(isShortSynth(app)).toBe(true);

    // WHEN
    app.synth();

    // THEN its output is written, and no thread was started for its lock and run folder
    expect(fs.readdirSync(path.join(app.outdir, 'runtime')).sort()).toEqual(['0001-shop-routing.yaml', 'kustomization.yaml']);
    expect(refreshingThread()).toBe(false);
  });

  test('synth walks the construct tree once: the walk that tells a short synth is the one collect reads, with the same output', () => {
    // GIVEN two apps alike, and a watch on the walks of the tree from the app
    const [app, twin] = [runtimeApp(5), runtimeApp(5)];
    const proto = Object.getPrototypeOf(app.node) as { findAll: (...args: unknown[]) => unknown };
    const findAll = jest.spyOn(proto, 'findAll');
    try {
      // WHEN one synthesizes
      app.synth();
      // THEN the tree was walked from the app once
      expect(findAll.mock.contexts.filter((c) => c === app.node)).toHaveLength(1);
    } finally {
      findAll.mockRestore();
    }
    // and its output is what a synth that walks the tree in collect (CapabilityTesting's way) renders
    const result = twin.synthesize();
    const written = (dir: string) => fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf-8')]);
    const runtimeFiles = [...result.output!.files].filter(([f]) => f.startsWith('runtime/')).map(([f, content]) => [f.slice('runtime/'.length), String(content)]).sort();
    expect(written(path.join(app.outdir, 'runtime'))).toEqual(runtimeFiles);
  });

  test('a tree of more than SHORT_SYNTH_CONSTRUCTS constructs is not short', () => {
    // GIVEN one construct too many under a runtime-only app
    const app = runtimeApp(0);
    const at = app.node.findAll().length;
    const bulk = new Construct(app, 'Bulk');
    for (let i = at + 1; i <= SHORT_SYNTH_CONSTRUCTS; i++) new Construct(bulk, `C${i}`);
    expect(app.node.findAll().length).toBe(SHORT_SYNTH_CONSTRUCTS + 1);

    // THEN
    expect(isShortSynth(app)).toBe(false);
  });

  test('a record beaten while the thread is deferred is handed to it at the first pulse once a fifth of staleMs has passed', () => {
    // GIVEN short timings and a record
    Object.assign(HEARTBEAT, { refreshMs: 50, staleMs: 600 });
    const file = path.join(tempDir(), 'record.json');
    fs.writeFileSync(file, JSON.stringify({ token: 't' }));

    deferringThread(() => {
      // WHEN beaten, and pulsed at once
      beat(file, 't');
      pulse();
      // THEN no thread yet
      expect(refreshingThread()).toBe(false);

      // WHEN pulsed once a fifth of staleMs has passed
      sleep(HEARTBEAT.staleMs / 5);
      pulse();
      // THEN the thread runs
      expect(refreshingThread()).toBe(true);
    });
    stopBeating(file);
  });

  test('a record still beaten when the deferral ends is handed to the thread, so it stays refreshed', () => {
    // GIVEN a record beaten inside a deferral that ends without a pulse
    Object.assign(HEARTBEAT, { refreshMs: 50, staleMs: 600 });
    const file = path.join(tempDir(), 'record.json');
    fs.writeFileSync(file, JSON.stringify({ token: 't' }));
    const before = fs.statSync(file, { bigint: true }).mtimeNs;

    // WHEN
    deferringThread(() => beat(file, 't'));

    // THEN the thread refreshes it
    let refreshed = false;
    for (let i = 0; i < 40 && !refreshed; i++) {
      sleep(HEARTBEAT.refreshMs);
      refreshed = fs.statSync(file, { bigint: true }).mtimeNs !== before;
    }
    stopBeating(file);
    expect(refreshed).toBe(true);
  });

  test('a tree with an aws-cdk stack is short only with aws-cdk\'s template validator off: the validator takes seconds a stack', () => {
    // GIVEN
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded last: it marks the process as using aws-cdk
    const { Stack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
    const app = runtimeApp(1);
    new Stack(app, 'Stack');

    // THEN
    expect({ validating: isShortSynth(app, true), notValidating: isShortSynth(app, false), byDefault: isShortSynth(app) }).toEqual({
      validating: false,
      notValidating: true,
      byDefault: false,
    });
  });
});
