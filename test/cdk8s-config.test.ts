import * as fs from 'fs';
import * as path from 'path';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { readCdk8sConfig } from '../src/cli/cdk8s-config';
import { main } from '../src/cli/main';

afterAll(removeTempDirs);

/** A cdk8s.yaml holding `text`, in a folder of its own. */
function config(text: string): string {
  const file = path.join(tempDir(), 'cdk8s.yaml');
  fs.writeFileSync(file, text);
  return file;
}

describe('readCdk8sConfig', () => {
  test('app and output as the cdk8s CLI reads them; nothing without the file or without the settings', () => {
    expect(readCdk8sConfig(config('language: typescript\napp: npx ts-node main.ts\noutput: out\n'))).toEqual({ app: 'npx ts-node main.ts', output: 'out' });
    expect(readCdk8sConfig(config('language: typescript\n'))).toEqual({});
    expect(readCdk8sConfig(config(''))).toEqual({});
    expect(readCdk8sConfig(path.join(tempDir(), 'cdk8s.yaml'))).toEqual({});
  });

  test('a file that is not YAML, not a map, or gives app or output as something else than a string: what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['app: [npx ts-node main.ts\n', /^.*\/cdk8s\.yaml is not YAML \(.+\)$/],
      ['- app\n', /^.*\/cdk8s\.yaml must be a map of settings \(app, output, \.\.\.\), not \["app"\]$/],
      ['app: [npx, ts-node]\n', /^"app" in .*\/cdk8s\.yaml \(\["npx","ts-node"\]\) must be the command that runs the app, such as "npx ts-node main\.ts"$/],
      ['app: "  "\n', /^"app" in .*\/cdk8s\.yaml \("  "\) must be the command that runs the app/],
      ['app: npx ts-node main.ts\noutput: 7\n', /^"output" in .*\/cdk8s\.yaml \(7\) must be a folder, such as "dist"$/],
    ];
    for (const [text, expected] of cases) {
      const read = readCdk8sConfig(config(text));
      expect({ text, problem: 'problem' in read ? read.problem : read }).toEqual({ text, problem: expect.stringMatching(expected) });
    }
  });
});

describe('the commands on a broken ./cdk8s.yaml: a usage error naming what is wrong, never a crash', () => {
  /** Runs the command line in a folder whose cdk8s.yaml holds `text`. */
  function inFolder(text: string, argv: string[]): { code: number; stdout: string; stderr: string } {
    const dir = path.dirname(config(text));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { result: code, stdout, stderr } = capturingOutput(() => main(argv));
      return { code, stdout, stderr };
    } finally {
      process.chdir(cwd);
    }
  }

  test('plan with app given as a list: exit 1, naming the setting', () => {
    expect(inFolder('app: [npx, ts-node]\n', ['plan'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cdk-capability plan: "app" in ./cdk8s.yaml (["npx","ts-node"]) must be the command that runs the app, such as "npx ts-node main.ts"\n',
    });
  });

  test('apply with output given as a number: exit 1 and how to go around it; with --outdir the file is not read', () => {
    expect(inFolder('output: 7\n', ['apply', '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cdk-capability apply: "output" in ./cdk8s.yaml (7) must be a folder, such as "dist"; or give --outdir\n',
    });
    const given = inFolder('output: 7\n', ['apply', '--dry-run', '--outdir', 'nowhere']);
    expect(given.code).toBe(1);
    expect(given.stderr).toBe("cdk-capability apply: no plan at 'nowhere/plan.json': run cdk8s synth first (a refused synth writes none)\n");
  });
});

describe('plan without --app: where the command to run comes from', () => {
  /** Runs `cdk-capability plan` in a fresh folder, with `cdk8s.yaml` holding `text` when given. */
  function planIn(text: string | undefined): { code: number; stdout: string; stderr: string } {
    const dir = tempDir();
    if (text !== undefined) fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), text);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { result: code, stdout, stderr } = capturingOutput(() => main(['plan']));
      return { code, stdout, stderr };
    } finally {
      process.chdir(cwd);
    }
  }

  test('in a folder with no cdk8s.yaml: says the file is missing and how to pass --app, not that it lacks "app"', () => {
    expect(planIn(undefined)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'cdk-capability plan: no --app given and there is no ./cdk8s.yaml in this folder: run it where cdk8s.yaml is, or give the command that runs the app (--app "npx ts-node main.ts")\n',
    });
  });

  test('a cdk8s.yaml without "app": says so', () => {
    expect(planIn('language: typescript\n')).toEqual({ code: 1, stdout: '', stderr: 'cdk-capability plan: no --app given and no "app" in ./cdk8s.yaml\n' });
  });
});
