import { spawn, spawnSync } from 'child_process';
import * as path from 'path';
import { NODE_TS, readTree, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'cdn');

/** Two machines as different as a CI runner and a laptop can be: locale collation and time zone. */
const MACHINES = [
  { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' },
  { LANG: 'sv_SE.UTF-8', LC_ALL: 'sv_SE.UTF-8', TZ: 'Pacific/Chatham' },
  { LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8', TZ: 'America/St_Johns' },
];

function synthExample(env: Record<string, string>, outdir: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_TS, 'main.ts'], {
      cwd: EXAMPLE,
      env: { ...process.env, ...env, CDK8S_OUTDIR: outdir, CDK_CAPABILITY_UPDATE_LOCK: '' },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('output under different locales and time zones', () => {
  test('each machine setting is in effect in a child process (the test could tell them apart)', () => {
    const seen = MACHINES.map((env) => {
      const r = spawnSync(process.execPath, ['-p', "[Intl.DateTimeFormat().resolvedOptions().timeZone, ['z', 'ä', 'a'].sort((a, b) => a.localeCompare(b)).join('')].join(' ')"], {
        env: { ...process.env, ...env },
        encoding: 'utf-8',
      });
      return r.stdout.trim();
    });
    expect(seen).toEqual(['UTC aäz', 'Pacific/Chatham azä', 'America/St_Johns aäz']);
  });

  test('the bundled example synthesizes byte-identically under every one of them', async () => {
    // GIVEN one outdir per machine setting
    const outdirs = MACHINES.map(() => path.join(tempDir(), 'dist'));

    // WHEN the example is synthesized under each (two at a time: two cores)
    const codes = [...(await Promise.all([0, 1].map((i) => synthExample(MACHINES[i], outdirs[i])))), await synthExample(MACHINES[2], outdirs[2])];

    // THEN every run succeeded and wrote the same bytes
    expect(codes).toEqual([0, 0, 0]);
    const [first, ...others] = outdirs.map(readTree);
    expect(Object.keys(first)).toContain('plan.json');
    for (const other of others) expect(other).toEqual(first);
  });
});
