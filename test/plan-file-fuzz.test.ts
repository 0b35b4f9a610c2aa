import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import * as jsyaml from 'js-yaml';
import { editedJson, JsonEdit, jsonEdit } from './json-edits';
import { capturingOutput, removeTempDirs, synthExample, tempDir } from './util';
import { main } from '../src/cli/main';

/**
 * `apply` and `plan --plan` read files a user can edit after synth: plan.json and the runtime files it names.
 * Whatever the edit, each command either does its work or refuses with coded `CAP016` lines and runs (or
 * prints) nothing. The oracle fails on an exception escaping the command (a crash is never an accepted
 * refusal), on an exit code of 1 without a `CAP016` line, and on any other line on stderr.
 */

afterAll(removeTempDirs);

const RUNS = 150;

let outdir: string;
let written: unknown;
let runtimeFiles: string[];

beforeAll(() => {
  outdir = synthExample('cdn');
  written = JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8'));
  runtimeFiles = fs.readdirSync(path.join(outdir, 'runtime')).filter((f) => f !== 'kustomization.yaml');
});

type FileEdit =
  | { readonly kind: 'text'; readonly file: number; readonly text: string }
  | { readonly kind: 'truncate'; readonly file: number; readonly keep: number }
  | { readonly kind: 'yaml'; readonly file: number; readonly value: unknown }
  | { readonly kind: 'remove'; readonly file: number };

const fileEdit: fc.Arbitrary<FileEdit> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), file: fc.nat(), text: fc.string({ maxLength: 80 }) }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('yaml' as const), file: fc.nat(), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('remove' as const), file: fc.nat() }),
);

/** A copy of the example's plan.json and runtime files, edited. */
function editedOutput(plan: readonly JsonEdit[], files: readonly FileEdit[]): string {
  const dir = path.join(tempDir(), 'dist');
  fs.mkdirSync(dir);
  fs.cpSync(path.join(outdir, 'runtime'), path.join(dir, 'runtime'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(editedJson(written, plan)));
  for (const edit of files) {
    const file = path.join(dir, 'runtime', runtimeFiles[edit.file % runtimeFiles.length]);
    if (!fs.existsSync(file)) continue;
    switch (edit.kind) {
      case 'remove':
        fs.rmSync(file);
        break;
      case 'text':
        fs.writeFileSync(file, edit.text);
        break;
      case 'yaml':
        fs.writeFileSync(file, jsyaml.dump(edit.value));
        break;
      case 'truncate': {
        const text = fs.readFileSync(file, 'utf-8');
        fs.writeFileSync(file, text.slice(0, Math.floor(text.length * edit.keep)));
        break;
      }
    }
  }
  return dir;
}

/** Runs the command line in this process; an exception escaping it fails the case. */
function run(argv: string[]): { code: number; stdout: string; stderr: string } {
  const { result: code, stdout, stderr } = capturingOutput(() => main(argv));
  return { code, stdout, stderr };
}

/** Done (exit code in `done`, nothing on stderr), or refused: exit code 1 and only `CAP016` lines, at least one. */
function expectDoneOrRefused(outcome: { code: number; stdout: string; stderr: string }, done: readonly number[]): void {
  if (outcome.code === 1) {
    const lines = outcome.stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^CAP016 plan file: '.*' (is not a plan cdk-capability wrote|names a runtime file that is not as synth wrote it|and its runtime files do not agree): .+\. Run cdk8s synth again/);
  } else {
    expect({ code: done.includes(outcome.code), stderr: outcome.stderr }).toEqual({ code: true, stderr: '' });
  }
}

describe('fuzz: plan.json and runtime files edited after synth', () => {
  test('unedited, both commands do their work (the oracle can accept)', () => {
    const dir = editedOutput([], []);
    expect(run(['apply', '--outdir', dir, '--dry-run'])).toEqual(expect.objectContaining({ code: 0, stderr: '' }));
    expect(run(['plan', '--plan', path.join(dir, 'plan.json')])).toEqual(expect.objectContaining({ code: 2, stderr: '' }));
  });

  test(`apply --dry-run (${RUNS} cases): the commands, or CAP016 lines and nothing run; never a crash`, () => {
    fc.assert(
      fc.property(fc.array(jsonEdit, { maxLength: 3 }), fc.array(fileEdit, { maxLength: 2 }), (planEdits, fileEdits) => {
        const dir = editedOutput(planEdits, fileEdits);
        const outcome = run(['apply', '--outdir', dir, '--dry-run']);
        expectDoneOrRefused(outcome, [0]);
        if (outcome.code === 1) expect(outcome.stdout).toBe('');
      }),
      { numRuns: RUNS },
    );
  });

  test(`plan --plan and plan --plan --teardown (${RUNS} cases): the plan, or CAP016 lines and nothing printed; never a crash`, () => {
    fc.assert(
      fc.property(fc.array(jsonEdit, { minLength: 1, maxLength: 3 }), (planEdits) => {
        const file = path.join(editedOutput(planEdits, []), 'plan.json');
        for (const argv of [['plan', '--plan', file], ['plan', '--plan', file, '--teardown'], ['plan', '--plan', file, '--json']]) {
          const outcome = run(argv);
          // 0: nothing changes against the lock, 2: changes to apply
          expectDoneOrRefused(outcome, [0, 2]);
          // refused: nothing printed, but with --json the document of the refusal, its lines as stderr says them
          if (outcome.code === 1 && argv.includes('--json')) {
            expect(JSON.parse(outcome.stdout)).toEqual({
              formatVersion: 1,
              accepted: false,
              findings: [],
              failure: { kind: 'plan-file', code: 'CAP016', file, message: outcome.stderr.trimEnd(), summary: expect.stringMatching(/^cdk-capability plan stopped on a plan file it cannot print: CAP016 /) },
            });
          } else if (outcome.code === 1) {
            expect(outcome.stdout).toBe('');
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
