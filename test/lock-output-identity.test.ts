import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { capturingOutput, readTree, removeTempDirs, tempDir } from './util';
import { oursPlus } from '../bench/scenarios/ours-plus';
import { oursRuntime } from '../bench/scenarios/ours-runtime';

// Issue 23 (the lock's cost on every synth): the lock, plan.json and every other output are built faster but must
// stay the same bytes. The digests below were recorded on main (eae4c76) before that work: every file of each
// release's output, what it printed and the lock it wrote, for the bench's small and tenants shapes, a first release,
// the same again, one that adds objects and one that removes some, without and with CDK_CAPABILITY_LOCK_KEY.
// A change that means to change the output records them again (the failure prints the new ones). Recorded again:
// tenants, when a contract's binding gained its version annotation (cdk-capability.io/contract-version), and when
// interface.json's schemas stopped refusing properties a later minor version adds.

afterAll(removeTempDirs);

type Build = (outdir: string, size: number, options: { lockFile: string }) => void;

/** Synthesizes `build` at `size` into a fresh outdir against `lockFile`, updating it: everything written and printed, temp folders named alike. */
function release(build: Build, size: number, lockFile: string): string {
  const parent = tempDir();
  const outdir = path.join(parent, 'dist');
  const { stdout, stderr } = capturingOutput(() => build(outdir, size, { lockFile }));
  const text = JSON.stringify({ tree: readTree(outdir), stdout, stderr, lock: fs.readFileSync(lockFile, 'utf-8') });
  return text.split(parent).join('<parent>').split(path.dirname(lockFile)).join('<lockdir>');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const RECORDED: Record<string, string[]> = {
  small: [
    '904c0f3594651d80ae68de09b9adbc2d9147ea8f66dbd21a4feef1a9ca11a828',
    '5907cc7726c5e911ff16a3385ebcbb47f5fa1c4dcb46cc0f0f5510ae2bf46f1f',
    '240ae8aff0f9dbae25e47ddb69e6a92af6bbfc6de7040d7b2ba1f2daa79e8901',
    '462f2e07d7fd7e7847e705597afa07354a9a802284ea2bce0fa4bc8e8646e23c',
    'd440a25ee77411e9b7f9dc3cee15556835122268c4c189e5ed58b1a9d9fa6f30',
    '933571886a167305a8aea6a367fb6221bf7bf233e3ba92864e1fb2ed45823f2d',
    'ccfadcb1986b4d1c3773ce0d54436a0a110f20814969a290ac590790b5e4c697',
    '45d0b5912eed83908e42ab41e02605b1ceb744ac9c224a702ac6ae9a791c499b',
  ],
  tenants: [
    'a03c9e5f220e8412710df1d572a547c734714fadecebc73258462adab7c54a1b',
    '357b84dc6d3adc66c326bd323ce423e3a8be0d0974c863c39e09d739a4f4c350',
    '22b54eb952e0a64c04cab515326f88ca2efbaa8626b4159b804c5f6b50321fc8',
    '25f11d4780f5142cf80c5cf77c78b748ea2d847926c98c2abda5e21112bf6c3d',
    'c0865d2e1d06cb089364597004b165ec9bf5076728e45ca4562ebc854ea51678',
    '19f9e2fbb1b63320ec58c9a811ef71e14bc4c16c3c4c05ae60e3684b4ace988f',
    '6acdfea2681c5f8a6f2188f1bd082ad827e6fc2428c4a1bec632da125aa88892',
    '8e43c65976f89445745469245e3db6cfd4993fa17f2d9dbc52ae641a752571ba',
  ],
};

describe('the output of the bench shapes, lock and plan.json included', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test.each([
    ['small', oursRuntime.small as Build, [20, 24, 16]],
    ['tenants', oursPlus.tenants as Build, [5, 6, 4]],
  ] as const)('of %s is the same bytes as main wrote before the lock was made faster', (name, build, sizes) => {
    // GIVEN a lock written by each release
    process.env.CDK_CAPABILITY_UPDATE_LOCK = '1';
    const digests: string[] = [];
    for (const key of [undefined, '0123456789abcdef0123456789abcdef']) {
      if (key) process.env.CDK_CAPABILITY_LOCK_KEY = key;
      else delete process.env.CDK_CAPABILITY_LOCK_KEY;
      const lockFile = path.join(tempDir(), 'capability.lock.json');
      // WHEN a first release, the same again, one that adds objects and one that removes some are synthesized
      for (const size of [sizes[0], sizes[0], sizes[1], sizes[2]]) digests.push(sha256(release(build, size, lockFile)));
    }
    // THEN each wrote and printed what main did
    expect(digests).toEqual(RECORDED[name]);
  });
});
