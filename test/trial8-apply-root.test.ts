import * as fs from 'fs';
import * as path from 'path';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { appsBelow } from '../src/cli/cdk8s-config';
import { main } from '../src/cli/main';

// `cdk-capability apply` run at a monorepo's root (docs/monorepo.md): the root has no cdk8s.yaml and no dist/, so
// the default `dist/plan.json` is missing; the refusal names the apps below and the --outdir of the first.

afterAll(removeTempDirs);

/** A monorepo: two apps (one with its own `output`), and cdk8s.yaml files where no app is (node_modules, .git, too deep). */
function monorepo(): string {
  const root = tempDir();
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('apps/platform/cdk8s.yaml', 'language: typescript\napp: npx ts-node main.ts\noutput: out\n');
  write('apps/admin/cdk8s.yaml', 'language: typescript\napp: npx ts-node main.ts\n');
  write('node_modules/cdk8s-cli/templates/cdk8s.yaml', 'app: x\n');
  write('.git/cdk8s.yaml', 'app: x\n');
  write('a/b/c/d/cdk8s.yaml', 'app: x\n');
  return root;
}

/** Runs `cdk-capability <argv>` in `dir`. */
function runIn(dir: string, argv: string[]): { code: number; stdout: string; stderr: string } {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const { result, stdout, stderr } = capturingOutput(() => main(argv));
    return { code: result, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}

describe('apply at the root of a monorepo', () => {
  test('without --outdir: names the apps below and the output folder of the first, exit 1', () => {
    expect(runIn(monorepo(), ['apply', '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "cdk-capability apply: no plan at 'dist/plan.json': there is no ./cdk8s.yaml in this folder, and the apps below it are apps/admin, apps/platform: "
        + "run apply in an app's folder, or give its output folder (--outdir apps/admin/dist); or run cdk8s synth first (a refused synth writes none)\n",
    });
  });

  test('with the --outdir it names, apply reads that plan (and says only that it is missing when it is)', () => {
    expect(runIn(monorepo(), ['apply', '--dry-run', '--outdir', 'apps/admin/dist']).stderr)
      .toBe("cdk-capability apply: no plan at 'apps/admin/dist/plan.json': run cdk8s synth first (a refused synth writes none)\n");
  });

  test('in a folder with no app at all, it says there is no cdk8s.yaml and how to go on', () => {
    expect(runIn(tempDir(), ['apply', '--dry-run']).stderr).toBe(
      "cdk-capability apply: no plan at 'dist/plan.json': there is no ./cdk8s.yaml in this folder: run apply in the folder of the app's cdk8s.yaml, "
      + 'or give its output folder (--outdir); or run cdk8s synth first (a refused synth writes none)\n',
    );
  });

  test("in an app's folder the message is as before", () => {
    const root = monorepo();
    expect(runIn(path.join(root, 'apps', 'platform'), ['apply', '--dry-run']).stderr)
      .toBe("cdk-capability apply: no plan at 'out/plan.json': run cdk8s synth first (a refused synth writes none)\n");
  });
});

describe('appsBelow', () => {
  test('finds cdk8s.yaml up to three folders down, never in node_modules or a dot folder, sorted', () => {
    const root = monorepo();
    fs.mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'b', 'c', 'cdk8s.yaml'), 'app: x\n');
    expect(appsBelow(root)).toEqual(['a/b/c', 'apps/admin', 'apps/platform']);
  });
});

describe('plan at the root of a monorepo', () => {
  test('without --app: names the apps below, how to plan in the first one\'s folder, and an --app from here, exit 1', () => {
    expect(runIn(monorepo(), ['plan'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cdk-capability plan: no --app given and there is no ./cdk8s.yaml in this folder, and the apps below it are apps/admin, apps/platform: '
        + "run plan in an app's folder (cd apps/admin && npx cdk-capability plan), or give the command that runs one from here, such as --app \"npx ts-node apps/admin/main.ts\"\n",
    });
  });

  test('in a folder with no app at all: where to run it, as before', () => {
    expect(runIn(tempDir(), ['plan']).stderr).toBe(
      'cdk-capability plan: no --app given and there is no ./cdk8s.yaml in this folder: run it where cdk8s.yaml is, or give the command that runs the app (--app "npx ts-node main.ts")\n',
    );
  });
});
