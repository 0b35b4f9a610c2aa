import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { SourceMap } from 'module';
import * as path from 'path';
import * as YAML from 'yaml';
import { HANG_GUARD_MS, removeTempDirs, tempDir } from './util';
import { summarizeProfile, toSources } from '../bench/cpu-profile';
import { ratio, RunResult, Series } from '../bench/measure';
import { installForBench } from '../bench/package-build';
import { describeMachine, renderReport, ScenarioReport } from '../bench/report';
import { leaves } from '../bench/scenarios/bare-cdk8s';
import { constructAddress, dnsLabel, labelValue, logicalId } from '../bench/scenarios/floor-objects';
import { fillLedger } from '../bench/scenarios/ledger';
import { hasBuilder, loadBuilder, scenariosOf } from '../bench/scenarios/registry';
import { runSerializer, SerializerName, SERIALIZERS } from '../bench/scenarios/serializers';
import { SCENARIOS } from '../bench/suite';
import { floorTarget, growthTarget, ratioTarget, targetLine } from '../bench/targets';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';

// A smoke test of the benchmark's code paths at tiny sizes, in-process. It times nothing:
// the figures live in bench/RESULTS.md, produced by `npm run bench`.

afterAll(removeTempDirs);

const run = (runMs: number, status: 'ok' | 'crash' = 'ok', processMs = runMs + 100): RunResult => ({
  status,
  loadMs: 10,
  runMs,
  cpuMs: runMs,
  processMs,
  processCpuMs: processMs,
  maxRssKb: 100_000,
  error: status === 'crash' ? 'RangeError: Maximum call stack size exceeded' : undefined,
});
const series = (side: Series['side'], scenario: string, size: number, runs: RunResult[]): Series => ({ side, scenario, size, runs });

/** Every file under `dir`, relative, with `/`. */
function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** What a side wrote: every Kubernetes object by identity, every stack's template by stack name and its dependencies. */
function output(dir: string) {
  const objects = new Map<string, any>();
  let manifests = 0;
  const stacks = new Map<string, { template: any; dependsOn: string[] }>();
  for (const file of files(dir)) {
    const absolute = path.join(dir, file);
    if (file.endsWith('.yaml') && !file.endsWith('kustomization.yaml')) {
      for (const doc of YAML.parseAllDocuments(fs.readFileSync(absolute, 'utf-8'))) {
        const o = doc.toJS();
        if (!o) continue;
        manifests++;
        objects.set(`${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`, o);
      }
    } else if (path.basename(file) === 'manifest.json') {
      const assembly = JSON.parse(fs.readFileSync(absolute, 'utf-8'));
      const name = (id: string) => assembly.artifacts[id].properties?.stackName ?? id;
      for (const [id, artifact] of Object.entries<any>(assembly.artifacts)) {
        if (artifact.type !== 'aws:cloudformation:stack') continue;
        const template = JSON.parse(fs.readFileSync(path.join(path.dirname(absolute), artifact.properties.templateFile), 'utf-8'));
        const dependsOn = (artifact.dependencies ?? []).filter((d: string) => assembly.artifacts[d]?.type === 'aws:cloudformation:stack').map(name).sort();
        stacks.set(name(id), { template, dependsOn });
      }
    }
  }
  return { manifests, objects, stacks };
}

/** A tiny size of each scenario at which it still builds something of every kind. */
const TINY: Record<string, number> = {
  ...{ charts: 3, chained: 3, chain: 5, refs: 80, contributions: 20, writers: 200, callbacks: 20, callbackWriters: 200 },
  ...{ stacks: 2, small: 8, tenants: 3, validated: 3 },
};

describe('bench scenarios', () => {
  test('every scenario but the ledger has a builder on our side and on the bare side, and a tiny size here', () => {
    const compared = SCENARIOS.map((s) => s.id).filter((id) => id !== 'ledger');

    expect(compared.filter((id) => !hasBuilder('ours', id) || !hasBuilder('bare', id))).toEqual([]);
    // typecheck runs its program under ts-node in a prepared project: test/runtime-entry.test.ts runs both sides
    expect(Object.keys(TINY).sort()).toEqual(compared.filter((id) => id !== 'typecheck').sort());
    expect(scenariosOf('floor').sort()).toEqual(['charts', 'small', 'tenants']);
    expect(() => loadBuilder('floor', 'chain')).toThrow(/unknown scenario 'chain' for side 'floor' \(known: charts, small, tenants\)/);
  });

  test.each(Object.entries(TINY))('the %s scenario builds the same objects and stacks on our side and on the bare side (size %d)', (scenario, size) => {
    // GIVEN two fresh outdirs
    const mine = path.join(tempDir(), 'dist');
    const bare = path.join(tempDir(), 'dist');

    // WHEN both sides build and synthesize the scenario at a tiny size
    loadBuilder('ours', scenario)(mine, size);
    loadBuilder('bare', scenario)(bare, size);

    // THEN they wrote as many manifests and stacks, and the same objects (key order aside) and templates
    const o = output(mine);
    const b = output(bare);
    expect(o.manifests + o.stacks.size).toBeGreaterThan(0);
    expect(o.manifests).toBe(b.manifests);
    expect(o.stacks.size).toBe(b.stacks.size);
    expect([...o.objects.keys()].sort()).toEqual([...b.objects.keys()].sort());
    for (const [key, object] of o.objects) expect({ key, object }).toEqual({ key, object: b.objects.get(key) });
    for (const [name, stack] of o.stacks) expect({ name, ...stack }).toEqual({ name, ...b.stacks.get(name) });
  });

  test.each(['charts', 'small', 'tenants'])('the floor of the %s scenario writes every manifest and template byte for byte as the bare side does', (scenario) => {
    // GIVEN the bare side's output and the floor's
    const bare = path.join(tempDir(), 'dist');
    const floor = path.join(tempDir(), 'dist');
    loadBuilder('bare', scenario)(bare, TINY[scenario]);

    // WHEN the floor builds the same scenario from plain objects
    loadBuilder('floor', scenario)(floor, TINY[scenario]);

    // THEN each of its object files is the bare side's, and its manifest.json names the same stacks and dependencies
    const objectFiles = files(floor).filter((f) => f.endsWith('.yaml') || f.endsWith('.template.json'));
    expect(objectFiles).toEqual(files(bare).filter((f) => f.endsWith('.yaml') || f.endsWith('.template.json')));
    for (const file of objectFiles) expect({ file, bytes: fs.readFileSync(path.join(floor, file), 'utf-8') }).toEqual({ file, bytes: fs.readFileSync(path.join(bare, file), 'utf-8') });
    const f = output(floor);
    const b = output(bare);
    expect([...f.stacks].map(([name, s]) => [name, s.dependsOn])).toEqual([...b.stacks].map(([name, s]) => [name, s.dependsOn]));
  });

  test('the tenants scenario, given the lock its first synth wrote, synthesizes as a second release', () => {
    // GIVEN a first synth that writes the lock, as the bench's previous release does
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    const tenants = loadBuilder('ours', 'tenants');
    process.env.CDK_CAPABILITY_UPDATE_LOCK = '1';
    try {
      tenants(path.join(tempDir(), 'dist'), 2, { lockFile });
    } finally {
      delete process.env.CDK_CAPABILITY_UPDATE_LOCK;
    }
    expect(fs.existsSync(lockFile)).toBe(true);

    // WHEN the same composition synthesizes again against it
    const outdir = path.join(tempDir(), 'dist');
    tenants(outdir, 2, { lockFile });

    // THEN the plan is of a release after the first, with nothing added or removed
    const plan = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
    expect(plan.changes).toMatchObject({ firstRelease: false, added: [], removed: [] });
  });

  test('our side never reads a lock from the working directory unless given one', () => {
    const outdir = path.join(tempDir(), 'dist');

    loadBuilder('ours', 'charts')(outdir, 1);

    expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).changes.firstRelease).toBe(true);
  });

  test('the ledger scenario finds exactly the contested leaves it planted', () => {
    const { ledger, expectedConflicts } = fillLedger(1_000);

    const objects = ledger.facts().objects;
    expect(objects.reduce((n, o) => n + o.writes.length, 0)).toBe(1_000);
    expect(findFieldConflicts(objects)).toHaveLength(expectedConflicts);
  });
});

describe('the package our side runs', () => {
  test('is lib/bundle.js built from src/, found by name from the compiled bench, never this repository\'s own lib/', () => {
    // GIVEN a repository-like folder: this package.json, its packages, and a lib/ that is not the build of src/ ...
    const repository = tempDir('cdk-capability-bench-repo-');
    const root = path.resolve(__dirname, '..');
    fs.copyFileSync(path.join(root, 'package.json'), path.join(repository, 'package.json'));
    fs.mkdirSync(path.join(repository, 'lib'));
    for (const entry of ['index.js', 'runtime.js']) fs.writeFileSync(path.join(repository, 'lib', entry), "throw new Error('the repository\\'s own lib/');\n");
    fs.mkdirSync(path.join(repository, 'node_modules'));
    for (const name of fs.readdirSync(path.join(root, 'node_modules')).filter((n) => !n.startsWith('.'))) {
      fs.symlinkSync(path.join(root, 'node_modules', name), path.join(repository, 'node_modules', name));
    }
    // ... and its compiled bench's folder, with the package installed for it
    const out = path.join(repository, 'bench', '.out');
    fs.mkdirSync(out, { recursive: true });
    const installed = installForBench(out);
    const scenarios = path.join(out, 'bench', 'scenarios');
    fs.mkdirSync(scenarios, { recursive: true });

    // WHEN a compiled scenario requires the package by name, as ours-charts.ts does
    const probe = spawnSync(process.execPath, ['-e', [
      "const entry = require.resolve('cdk-capability/runtime');",
      "const { Capability } = require('cdk-capability/runtime');",
      "const loaded = Object.keys(require.cache).filter((f) => f.includes('cdk-capability') || f.includes('/src/'));",
      'console.log(JSON.stringify({ entry, loaded, capability: typeof Capability }));',
    ].join('\n')], { cwd: scenarios, encoding: 'utf-8', timeout: HANG_GUARD_MS });

    // THEN it loads the installed entry and the one bundle, nothing of src/ or of the repository's lib/
    expect(probe.stderr).toEqual('');
    const lib = path.join(installed, 'lib');
    expect(JSON.parse(probe.stdout)).toEqual({ entry: path.join(lib, 'runtime.js'), loaded: [path.join(lib, 'runtime.js'), path.join(lib, 'bundle.js')], capability: 'function' });
    expect(fs.readlinkSync(path.join(installed, 'docs'))).toEqual(path.resolve(__dirname, '..', 'docs'));
  });
});

describe('bench floor helpers', () => {
  test('names and addresses are computed as constructs, cdk8s and aws-cdk compute them', () => {
    expect(constructAddress(['bench', 'Routing', 'Tenant0']).slice(0, 8)).toBe('c81c5fb8');
    expect(dnsLabel(['bench', 'Routing'])).toBe('bench-routing-c8faca99');
    expect(labelValue(['bench', 'Routing', 'Tenant0'])).toBe('bench-Routing-Tenant0-c81c5fb8');
    expect(logicalId(['Config', 'Resource'])).toBe('Config57D1D894');
  });

  test('a partial manifest becomes one JSON pointer per leaf, with ~ and / escaped', () => {
    expect(leaves({ metadata: { annotations: { 'a/b~c': 'x' } }, data: { k: '1' } })).toEqual([
      ['/metadata/annotations/a~1b~0c', 'x'],
      ['/data/k', '1'],
    ]);
  });

  test('cdk8s and yaml write the floor manifests with the same bytes; JSON writes other bytes', () => {
    const [cdk8s, yaml, json] = (Object.keys(SERIALIZERS) as SerializerName[]).map((name) => runSerializer(name, 'tenants', 3));

    expect(yaml.digest).toBe(cdk8s.digest);
    expect(json.digest).not.toBe(cdk8s.digest);
  });
});

describe('bench targets', () => {
  test('a ratio of two series with as many runs pairs them run by run', () => {
    const ours = series('ours', 'x', 10, [run(100), run(300)]);
    const bare = series('bare', 'x', 10, [run(100), run(200)]);

    expect(ratio(ours, bare, 'runMs')).toEqual({ median: 1.25, min: 1, max: 1.5 });
  });

  test('a ratio target holds at its median and prints a PASS or FAIL line with the spread', () => {
    const ours = series('ours', 'x', 30, [run(100, 'ok', 105), run(100, 'ok', 115)]);
    const bare = series('bare', 'x', 30, [run(100, 'ok', 100), run(100, 'ok', 100)]);

    const held = ratioTarget(ours, bare, 'processMs', 1.1);
    const failed = ratioTarget(ours, bare, 'processMs', 1.05);

    expect(targetLine('tenants', held)).toBe('PASS  tenants: N=30: ours/bare whole-process wall <= 1.1 — 1.10 (1.05–1.15); 0.11 s vs 0.10 s');
    expect(failed.holds).toBe(false);
  });

  test('a floor target holds on ours/floor alone and prints bare/floor beside it, for scale', () => {
    const ours = series('ours', 'x', 30, [run(100, 'ok', 300), run(100, 'ok', 330)]);
    const bare = series('bare', 'x', 30, [run(100, 'ok', 240), run(100, 'ok', 250)]);
    const floor = series('floor', 'x', 30, [run(10, 'ok', 100), run(10, 'ok', 110)]);

    const target = floorTarget(ours, bare, floor, 1.5);

    expect(targetLine('small', target)).toBe('FAIL  small: N=30: ours/floor whole-process wall <= 1.5 — 3.00 (3.00–3.00); 0.32 s vs 0.10 s; bare/floor 2.34 (2.27–2.40)');
    expect(floorTarget(ours, bare, floor, 3).holds).toBe(true);
    expect(floorTarget(ours, undefined, floor, 3)).toEqual(ratioTarget(ours, floor, 'processMs', 3, ['ours', 'floor']));
  });

  test('growth is normalized per doubling: x2 holds, x4 does not', () => {
    const at = (size: number, ms: number) => series('ours', 'x', size, [run(ms)]);

    expect(growthTarget([at(25_000, 1000), at(50_000, 2000), at(100_000, 4000)], 'linear').holds).toBe(true);
    expect(growthTarget([at(25_000, 1000), at(100_000, 16_000)], 'quadratic')).toMatchObject({ holds: false, measured: '25,000→100,000: x4.00 (4.00–4.00) per doubling' });
  });
});

describe('bench report', () => {
  test('renders the machine, the floor, the targets, each scenario table and the profile summary', () => {
    // GIVEN figures of a compare scenario (with a bare crash), one with a floor and serializers, a ledger scenario and a profile
    const scenarios: ScenarioReport[] = [
      {
        id: 'chain',
        title: 'A chain of dependent ConfigMaps',
        what: 'tiny',
        kind: 'compare',
        rows: [{ size: 10, ours: series('ours', 'chain', 10, [run(5), run(7)]), bare: series('bare', 'chain', 10, [run(9, 'crash')]) }],
        targets: [{ target: 'ours completes', measured: 'completed', holds: true }],
      },
      {
        id: 'tenants',
        title: 'N tenants',
        what: 'tiny',
        kind: 'compare',
        rows: [{ size: 30, ours: series('ours', 'tenants', 30, [run(50)]), bare: series('bare', 'tenants', 30, [run(40)]), floor: series('floor', 'tenants', 30, [run(5)]) }],
        serializers: [{ side: 'serializers', scenario: 'tenants', size: 30, variant: 'yaml stringify', runs: [{ ...run(3), bytes: 2048, digest: 'ab' }] }],
        targets: [{ target: 'N=30: ours/bare whole-process wall <= 1.1', measured: '1.07', holds: true }],
      },
      {
        id: 'ledger',
        title: 'Field ledger',
        what: 'tiny',
        kind: 'ledger',
        rows: [{ size: 100, ours: series('ledger', 'ledger', 100, [{ ...run(1), conflicts: 1, fillMs: 2 }]) }],
        targets: [{ target: '`conflicts()` < 0.5 s', measured: '1.0 ms', holds: false }],
      },
    ];
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
        { id: 2, callFrame: { functionName: 'conflicts', url: 'file:///x/bench/.out/src/ledger/field-ledger.js', lineNumber: 45 } },
      ],
      samples: [1, 2, 2],
      timeDeltas: [1000, 1000, 2000],
    });

    // WHEN the report is rendered
    const markdown = renderReport({
      command: 'npm run bench -- --quick',
      quick: true,
      started: new Date(0),
      durationS: 1,
      machine: describeMachine('/tmp'),
      scenarios,
      profile: { scenario: 'chain', size: 10, runMs: 6, summary },
    });

    // THEN it has every section, the crash is a result, the floor is a side with its ratio, and the profile is aggregated per function and per area
    for (const heading of ['# Benchmark results', '## Machine', '## How it is measured', '## What the floor is', '## Targets', '## A chain of dependent ConfigMaps', '## N tenants', '## Field ledger', '## Where the time goes']) {
      expect(markdown).toContain(`${heading}\n`);
    }
    expect(markdown).toContain('| size | side | build+synth wall | build+synth CPU | whole-process wall | whole-process CPU | peak RSS | runs |');
    expect(markdown).toContain('| 10 | bare | crash after 0.01 s |');
    expect(markdown).toContain('| 30 | ours/bare | 1.07 (1.07–1.07) |');
    expect(markdown).toContain('| 30 | ours/floor | 1.43 (1.43–1.43) |');
    expect(markdown).toContain('| 30 | bare/floor | 1.33 (1.33–1.33) |');
    expect(markdown).toContain('| yaml stringify | 10 (10–10) ms | 3.0 (3.0–3.0) ms | 2 KiB | yes | 1 |');
    expect(markdown).toContain('CDK_VALIDATION=false');
    expect(markdown).toContain('PASS  tenants: N=30: ours/bare whole-process wall <= 1.1 — 1.07\nFAIL  ledger: `conflicts()` < 0.5 s — 1.0 ms');
    expect(summary.functions[0]).toMatchObject({ name: 'conflicts (src/ledger/field-ledger.js:46)', ms: 3 });
    expect(summary.areas[0]).toMatchObject({ name: 'cdk-capability src/ledger', ms: 3 });
  });

  test('a gap longer than twice the sampling interval is not charged to the sample after it (the process was not running)', () => {
    // GIVEN a profile sampled every 1 ms in which the process was descheduled for 250 ms before one sample of `render`
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: 'build', url: 'file:///x/src/collect/collect.js', lineNumber: 9 } },
        { id: 2, callFrame: { functionName: 'render', url: 'file:///x/src/render/render.js', lineNumber: 19 } },
      ],
      samples: [1, 1, 1, 2, 2],
      timeDeltas: [1000, 1100, 900, 250_000, 1000],
    };

    // WHEN it is summarized
    const summary = summarizeProfile(profile);

    // THEN `render` is charged 2 ms (the long gap capped at 2 ms), not 251; the 248 ms left out are reported
    expect(summary.gapCapMs).toBe(2);
    expect(summary.functions.map((f) => [f.name, f.ms])).toEqual([['build (src/collect/collect.js:10)', 3], ['render (src/render/render.js:20)', 3]]);
    expect(summary.totalMs).toBe(6);
    expect(summary.notRunningMs).toBe(248);
  });

  test('a profile of lib/bundle.js names each frame\'s source file and line through the bundle\'s source map', () => {
    // GIVEN a bundle whose line 2 comes from line 3 of field-ledger.ts, and a frame of a package without a map
    const map = new SourceMap({ version: 3, file: 'bundle.js', sourceRoot: '', sources: ['../../src/collect/ledger/field-ledger.ts'], sourcesContent: [], names: [], mappings: 'AAAA;AAEA' });
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
        { id: 2, callFrame: { functionName: 'conflicts', url: 'file:///x/pkg/lib/bundle.js', lineNumber: 1, columnNumber: 4 } },
        { id: 3, callFrame: { functionName: 'resolve', url: 'file:///x/node_modules/cdk8s/lib/resolve.js', lineNumber: 100, columnNumber: 2 } },
      ],
      samples: [2, 2, 3],
      timeDeltas: [1000, 1000, 1000],
    };
    const asked: string[] = [];

    // WHEN it is mapped to the sources and summarized
    const summary = summarizeProfile(toSources(profile, (file) => {
      asked.push(file);
      return file === '/x/pkg/lib/bundle.js' ? map : undefined;
    }));

    // THEN the bundle's frame is the source's function, file and line; the other is as it was; each script's map is read once
    expect(summary.functions.map((f) => `${f.name} ${f.ms}`)).toEqual(['conflicts (src/collect/ledger/field-ledger.ts:3) 2', 'resolve (cdk8s/lib/resolve.js:101) 1']);
    expect(summary.areas.map((a) => a.name)).toEqual(['cdk-capability src/collect', 'cdk8s']);
    expect(asked).toEqual(['/x/pkg/lib/bundle.js', '/x/node_modules/cdk8s/lib/resolve.js']);
  });
});
