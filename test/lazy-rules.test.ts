import { spawnSync } from 'child_process';
import * as path from 'path';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');

describe('a rule module loads only when its input exists (require.cache of a fresh process)', () => {
  let steps: Record<string, { rules: string[]; messages: string[] }>;

  beforeAll(() => {
    // GIVEN test/fixtures/lazy-rules/main.ts, run in a fresh node process (transpiled only)
    const r = spawnSync(process.execPath, [...NODE_TS, path.join('test', 'fixtures', 'lazy-rules', 'main.ts'), tempDir()], {
      cwd: ROOT, encoding: 'utf-8', timeout: HANG_GUARD_MS, env: { ...process.env, CDK_VALIDATION: 'false' },
    });
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    steps = Object.fromEntries(r.stdout.trim().split('\n').map((l) => JSON.parse(l)).map(({ step, ...rest }) => [step, rest]));
  }, HANG_GUARD_MS);

  test('a composition without a contract and without a lock loads no contract rule and no interface-compatibility rule', () => {
    expect(steps.imported.rules).toEqual([]);
    expect(steps['synthesized without a contract']).toEqual({ rules: [], messages: [] });
  });

  test('a composition with a contract loads the contract rules, which find what they found before', () => {
    // THEN the three contract rules ran (interface compatibility, without a lock, still has nothing to compare)
    expect(steps['synthesized with a contract'].rules).toEqual(['contract-usage', 'contract-parameter-size', 'contract-shapes']);
    expect(steps['synthesized with a contract'].messages).toEqual([
      "contract misuse: 'cdn/Base' publishes 'extra', which 'cdn/Edge' does not declare (declared: origin). Declare the field in the contract or stop publishing it.",
    ]);
  });
});
