import { spawnSync } from 'child_process';
import * as path from 'path';
import { HANG_GUARD_MS } from './util';

const ROOT = path.resolve(__dirname, '..');
const TIMEOUT = HANG_GUARD_MS;

describe('the API reference', () => {
  test('every public member has a doc comment (`projen docs:check` passes)', () => {
    // WHEN typedoc validates the public API with its warnings as errors
    const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'projen'), ['docs:check'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf-8', timeout: TIMEOUT - 10_000 });
    if (r.error) throw r.error;

    // THEN it exits 0; otherwise the output names each undocumented member
    expect(`exit ${r.status}\n${r.stdout}${r.stderr}`).toMatch(/^exit 0\n/);
  }, TIMEOUT);
});
