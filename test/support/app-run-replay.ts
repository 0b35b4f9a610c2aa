import * as fs from 'fs';
import * as appRun from '../../src/cli/app-run';
import { REPORT_ENV } from '../../src/private/errors';
import { PLAN_OUTDIR_ENV } from '../../src/render/outdir-safety';

/**
 * The variables `plan` sets to paths of a scratch folder of its own, new on every run: left out of the key of a run,
 * so two runs of one app that differ only there are one run.
 */
const SCRATCH_ENV = ['CDK8S_OUTDIR', PLAN_OUTDIR_ENV, REPORT_ENV];

/** What one real run of the app gave: how it ended, and the report file it wrote (undefined: none). */
interface Recorded {
  readonly run: appRun.AppRun;
  readonly report?: string;
  /** The scratch paths of the real run, as `SCRATCH_ENV` names them. */
  readonly scratchPaths: readonly string[];
}

/** `text` with each of the real run's scratch paths made the replaying run's, as its app would have written them. */
function moved(text: string, from: readonly string[], to: readonly string[]): string {
  return from.reduce((t, old, i) => (old === '' ? t : t.split(old).join(to[i])), text);
}

/**
 * Makes `plan`, run in this process (`main`), run each distinct app command once and replay its result when asked
 * again: the same command in the same folder with the same environment (apart from `plan`'s own scratch paths)
 * ended the same way, so a test that reads one app in several output formats starts it once, not once a format.
 * The replay writes the report file the app wrote into the new run's scratch folder, as the app would have.
 * A run with a time limit is never replayed (its timing is the point). Call it at the top of a test file: it
 * restores the real `runAppCommand` after the file.
 *
 * @param ignoredEnv variables left out of the key too: only for a variable that `plan` reads and the app does not
 * (`GITHUB_WORKSPACE`, read by the formats), so two runs that differ only there are one run of the app
 * @returns how many real runs and replays there were, for a test that wants to see them
 */
export function replayIdenticalAppRuns(ignoredEnv: readonly string[] = []): { readonly real: number; readonly replayed: number } {
  const counts = { real: 0, replayed: 0 };
  const recorded = new Map<string, Recorded>();
  const real = appRun.runAppCommand;
  let spy: jest.SpyInstance | undefined;
  beforeAll(() => {
    spy = jest.spyOn(appRun, 'runAppCommand').mockImplementation((command, env, timeoutMs, scratch) => {
      if (timeoutMs !== undefined) return real(command, env, timeoutMs, scratch);
      const keyed = (name: string) => !SCRATCH_ENV.includes(name) && !ignoredEnv.includes(name);
      const kept = Object.entries(env).filter(([name]) => keyed(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const key = JSON.stringify([command, process.cwd(), kept]);
      const reportFile = env[REPORT_ENV];
      const scratchPaths = SCRATCH_ENV.map((name) => env[name] ?? '');
      const before = recorded.get(key);
      if (before) {
        counts.replayed++;
        if (before.report !== undefined && reportFile) fs.writeFileSync(reportFile, moved(before.report, before.scratchPaths, scratchPaths));
        const { stdout, stderr } = before.run;
        return { ...before.run, stdout: moved(stdout, before.scratchPaths, scratchPaths), stderr: moved(stderr, before.scratchPaths, scratchPaths) };
      }
      counts.real++;
      const run = real(command, env, timeoutMs, scratch);
      const report = reportFile && fs.existsSync(reportFile) ? fs.readFileSync(reportFile, 'utf-8') : undefined;
      recorded.set(key, { run, scratchPaths, ...(report !== undefined ? { report } : {}) });
      return run;
    });
  });
  afterAll(() => spy?.mockRestore());
  return counts;
}
