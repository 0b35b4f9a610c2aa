import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

/** A copy of src/ with the project's tsconfig and rule, where a test may break the architecture. */
function copyOfSource(): string {
  const dir = tempDir('cdk-capability-architecture-');
  fs.cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true, filter: (f) => !f.includes(`${path.sep}imports${path.sep}`) });
  for (const file of ['tsconfig.json', '.dependency-cruiser.cjs']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  return dir;
}

/**
 * Runs the architecture rule exactly as the test task does, once: its exit code, and the violated rules its
 * report names, sorted. The `err` report gives each violation as `  error <rule>: <from> → <to>[ → ...]`,
 * a cycle's modules on lines of their own; `<from> -> <to>` are its first two modules, as the JSON report's
 * `from` and `to` are (one cruise, not a second one for the JSON report: each takes seconds).
 */
function cruise(cwd: string): { status: number | null; rules: string[] } {
  const run = spawnSync(DEPCRUISE, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd, encoding: 'utf-8' });
  if (run.error) throw run.error;
  const violations = run.stdout.split(/^ {2}(?=(?:error|warn|info) )/m).slice(1);
  const rules = violations.map((v) => {
    const [, rule, modules] = /^\S+ ([^:\s]+): ([^]*?)\s*(?:\n\n|$)/.exec(v)!;
    const [from, to] = modules.split(/\s*→\s*/);
    return `${rule}: ${from} -> ${to}`;
  });
  return { status: run.status, rules: rules.sort() };
}

describe('the architecture rule (.dependency-cruiser.cjs)', () => {
  test('passes on the source as it is', () => {
    expect(cruise(ROOT)).toEqual({ status: 0, rules: [] });
  });

  test('fails when collect imports the render stage', () => {
    // GIVEN a back edge from stage 1 to stage 3
    const dir = copyOfSource();
    fs.appendFileSync(path.join(dir, 'src', 'collect', 'facts.ts'), "import '../render/render';\n");

    // WHEN / THEN
    expect(cruise(dir)).toEqual({ status: 1, rules: ['layer-collect: src/collect/facts.ts -> src/render/render.ts'] });
  });

  test('fails on a run-time import cycle, naming it, and on the layer it breaks', () => {
    // GIVEN a construct importing the stage that reads it
    const dir = copyOfSource();
    fs.appendFileSync(path.join(dir, 'src', 'constructs', 'reference.ts'), "import { collect } from '../collect/collect';\nexport const c = collect;\n");

    // WHEN
    const { status, rules } = cruise(dir);

    // THEN (depcruise exits with the number of errors)
    expect(status).toBeGreaterThan(1);
    expect(rules).toContain('layer-constructs: src/constructs/reference.ts -> src/collect/collect.ts');
    expect(rules).toContain('no-runtime-cycle: src/collect/collect.ts -> src/collect/references.ts');
  });

  test('a type-only import that closes a loop is not a run-time cycle', () => {
    // GIVEN a type-only import from a helper of a module that imports it
    const dir = copyOfSource();
    fs.appendFileSync(path.join(dir, 'src', 'collect', 'ledger', 'field-path.ts'), "import type { LedgerBuilder } from './field-ledger';\nexport type B = LedgerBuilder;\n");

    // WHEN / THEN
    expect(cruise(dir)).toEqual({ status: 0, rules: [] });
  });
});
