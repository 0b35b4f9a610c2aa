/**
 * An exception no command expects (a bug) is one `CAP000 internal error` line and exit code 1, never a stack
 * trace. The failure is injected into a function each command calls deep inside, after it has read its input.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { appOf, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, RuntimeRouting } from '../src';
import * as formatPlan from '../src/cli/format-plan';
import { main } from '../src/cli/main';
import * as runtimeFiles from '../src/cli/runtime-files';
import * as auditModule from '../src/cluster/audit';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});
afterEach(() => jest.restoreAllMocks());

const BUG = 'This is a bug in cdk-capability, not in your composition: please report it with the composition that triggers it.';

/** Synthesizes one ConfigMap with the lock written; returns the outdir and the lock file. */
function released(): { outdir: string; lockFile: string } {
  const series = newSeries();
  const app = appOf(series);
  new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { mode: 'live' } });
  withUpdateLock('1', () => capturingOutput(() => app.synth()));
  return { outdir: app.outdir, lockFile: series.lockFile };
}

function run(argv: string[]): { code: number; stdout: string; stderr: string } {
  const r = capturingOutput(() => main(argv));
  return { code: r.result, stdout: r.stdout, stderr: r.stderr };
}

test('apply: an exception while reading the runtime files is one CAP000 line naming apply, exit 1, no stack', () => {
  // GIVEN a plan synth wrote, and reading its runtime files throws
  const { outdir } = released();
  jest.spyOn(runtimeFiles, 'readRuntimeFiles').mockImplementation(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'objects')");
  });

  // WHEN
  const result = run(['apply', '--outdir', outdir, '--dry-run']);

  // THEN
  expect(result).toEqual({
    code: 1,
    stdout: '',
    stderr: `CAP000 internal error: cdk-capability apply crashed: Cannot read properties of undefined (reading 'objects'). ${BUG}\n`,
  });
  // AND docs/errors.md shows that line
  expect(fs.readFileSync(path.join(__dirname, '..', 'docs', 'errors.md'), 'utf-8')).toContain(`\n> ${result.stderr}`);
});

test('apply: an error whose message spans lines is still one line', () => {
  // GIVEN
  const { outdir } = released();
  jest.spyOn(runtimeFiles, 'readRuntimeFiles').mockImplementation(() => {
    throw new Error('first line\n    second line');
  });

  // WHEN
  const result = run(['apply', '--outdir', outdir, '--dry-run']);

  // THEN
  expect(result).toEqual({ code: 1, stdout: '', stderr: `CAP000 internal error: cdk-capability apply crashed: first line second line. ${BUG}\n` });
});

test('audit: an exception while comparing is one CAP000 line naming audit, exit 1 also with --exit-zero', () => {
  // GIVEN a lock, live objects, and a comparison that throws
  const { lockFile } = released();
  const input = path.join(tempDir(), 'live.json');
  fs.writeFileSync(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
  jest.spyOn(auditModule, 'auditCluster').mockImplementation(() => {
    throw new RangeError('Maximum call stack size exceeded');
  });

  // WHEN
  const result = run(['audit', input, '--lock', lockFile, '--exit-zero']);

  // THEN
  expect(result).toEqual({ code: 1, stdout: '', stderr: `CAP000 internal error: cdk-capability audit crashed: Maximum call stack size exceeded. ${BUG}\n` });
});

test('plan: an exception while printing a plan is one CAP000 line naming plan, exit 1', () => {
  // GIVEN a plan synth wrote, and printing it throws something that is not an Error
  const { outdir } = released();
  jest.spyOn(formatPlan, 'formatPlan').mockImplementation(() => {
    throw 'not an Error';
  });

  // WHEN
  const result = run(['plan', '--plan', path.join(outdir, 'plan.json')]);

  // THEN
  expect(result).toEqual({ code: 1, stdout: '', stderr: `CAP000 internal error: cdk-capability plan crashed: not an Error. ${BUG}\n` });
});
