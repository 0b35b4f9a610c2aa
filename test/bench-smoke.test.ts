import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';
import { summarizeProfile } from '../bench/cpu-profile';
import { RunResult, Series } from '../bench/measure';
import { describeMachine, renderReport, ScenarioReport } from '../bench/report';
import { bareAwsCdk } from '../bench/scenarios/bare-aws-cdk';
import { bareCdk8s } from '../bench/scenarios/bare-cdk8s';
import { fillLedger } from '../bench/scenarios/ledger';
import { ours } from '../bench/scenarios/ours';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';

// A smoke test of the benchmark's code paths at tiny sizes, in-process. It times nothing:
// the figures live in bench/RESULTS.md, produced by `npm run bench`.

afterAll(removeTempDirs);

const run = (runMs: number, status: 'ok' | 'crash' = 'ok'): RunResult => ({
  status,
  loadMs: 10,
  runMs,
  cpuMs: runMs,
  processMs: runMs + 100,
  maxRssKb: 100_000,
  error: status === 'crash' ? 'RangeError: Maximum call stack size exceeded' : undefined,
});
const series = (side: Series['side'], scenario: string, size: number, runs: RunResult[]): Series => ({ side, scenario, size, runs });

describe('bench scenarios', () => {
  test.each(['charts', 'chained', 'chain'])('the %s scenario synthesizes on our side and on bare cdk8s', (scenario) => {
    // GIVEN two fresh outdirs
    const mine = path.join(tempDir(), 'dist');
    const bare = path.join(tempDir(), 'dist');

    // WHEN both sides build and synthesize the scenario at a tiny size
    ours[scenario](mine, 2);
    bareCdk8s[scenario](bare, 2);

    // THEN both wrote their output
    expect(fs.readdirSync(path.join(mine, 'runtime')).length).toBeGreaterThan(0);
    expect(fs.readdirSync(bare).length).toBeGreaterThan(0);
  });

  test('the tenants scenario synthesizes on our side and on bare aws-cdk', () => {
    const mine = path.join(tempDir(), 'dist');
    const bare = path.join(tempDir(), 'dist');

    ours.tenants(mine, 1);
    bareAwsCdk.tenants(bare, 1);

    expect(fs.existsSync(path.join(mine, 'deploy', 'manifest.json'))).toBe(true);
    expect(fs.existsSync(path.join(bare, 'manifest.json'))).toBe(true);
  });

  test('the ledger scenario finds exactly the contested leaves it planted', () => {
    const { ledger, expectedConflicts } = fillLedger(1_000);

    const objects = ledger.facts().objects;
    expect(objects.reduce((n, o) => n + o.writes.length, 0)).toBe(1_000);
    expect(findFieldConflicts(objects)).toHaveLength(expectedConflicts);
  });
});

describe('bench report', () => {
  test('renders the machine, the targets, each scenario table and the profile summary', () => {
    // GIVEN figures of a compare scenario (with a bare crash), a ledger scenario and a profile
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
        id: 'ledger',
        title: 'Field ledger',
        what: 'tiny',
        kind: 'ledger',
        rows: [{ size: 100, ours: series('ledger', 'ledger', 100, [{ ...run(1), conflicts: 1, fillMs: 2 }]) }],
        targets: [{ target: '`conflicts()` < 0.5 s', measured: '1.0 ms', holds: true }],
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

    // THEN it has every section, the crash is a result, and the profile is aggregated per function and per area
    for (const heading of ['# Benchmark results', '## Machine', '## How it is measured', '## Targets', '## A chain of dependent ConfigMaps', '## Field ledger', '## Where the time goes']) {
      expect(markdown).toContain(`${heading}\n`);
    }
    expect(markdown).toContain('| size | ours build+synth | bare build+synth | ratio ours/bare |');
    expect(markdown).toContain('crash after 0.01 s');
    expect(summary.functions[0]).toMatchObject({ name: 'conflicts (src/ledger/field-ledger.js:46)', ms: 3 });
    expect(summary.areas[0]).toMatchObject({ name: 'cdk-capability src/ledger', ms: 3 });
  });
});
