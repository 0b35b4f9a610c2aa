import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { HANG_GUARD_MS, NODE_TS, readTree, removeTempDirs, tempDir } from './util';
import { prepareTypecheckApps, TYPECHECK_DIR_ENV } from '../bench/scenarios/typecheck';
import { Capability, CapabilityApp, SharedBase } from '../src';
import * as runtime from '../src/runtime';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const TSC = require.resolve('typescript/bin/tsc');

function run(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  // aws-cdk's template validator off, as in every unit test but its own
  const env = { ...process.env, CDK_VALIDATION: 'false' };
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf-8', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a runtime-only composition pays only for what it uses (require.cache of a fresh process)', () => {
  let steps: Record<string, { awsCdkLib: number; imports: string[]; jsYaml: boolean }>;
  let out: string;

  beforeAll(() => {
    // GIVEN test/fixtures/runtime-only/main.ts, which imports cdk-capability/runtime only
    out = tempDir();
    // WHEN it runs in a fresh node process (transpiled only: the loaded modules are the program's, not a type checker's)
    const r = run([...NODE_TS, path.join('test', 'fixtures', 'runtime-only', 'main.ts'), out], ROOT);
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    steps = Object.fromEntries(r.stdout.trim().split('\n').map((l) => JSON.parse(l)).map(({ step, ...rest }) => [step, rest]));
  }, HANG_GUARD_MS);

  test('importing the entry point loads no aws-cdk-lib module, no generated CRD module and no js-yaml', () => {
    expect(steps.imported).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
  });

  test('a synth with charts, contributions, a reference and a backend loads none either, and writes its output', () => {
    expect(steps['synthesized without routes']).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
    const files = fs.readdirSync(path.join(out, 'plain', 'runtime')).sort();
    expect(files).toEqual(expect.arrayContaining(['kustomization.yaml']));
    const settings = files.map((f) => fs.readFileSync(path.join(out, 'plain', 'runtime', f), 'utf-8')).find((t) => t.includes('name: settings'));
    expect(settings).toMatch(/data:\n {2}mode: a\n {2}level: info\n {2}team: edge\n/);
  });

  test('a Gateway API tenant route loads no generated module (it renders as the generated class would), and Flux output the Flux module only; still no aws-cdk-lib', () => {
    expect(steps['synthesized with a route']).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
    expect(steps['synthesized with Flux output']).toEqual({
      awsCdkLib: 0,
      imports: ['kustomization-kustomize.toolkit.fluxcd.io.ts'],
      jsYaml: false,
    });
  });

  test('js-yaml is loaded for the first document the block writer leaves to it, a value on several lines', () => {
    expect(steps['synthesized with a value on several lines'].jsYaml).toBe(true);
    const written = fs.readdirSync(path.join(out, 'script', 'runtime')).filter((f) => f !== 'kustomization.yaml');
    expect(written.map((f) => fs.readFileSync(path.join(out, 'script', 'runtime', f), 'utf-8'))).toEqual([
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: script\ndata:\n  run.sh: |\n    #!/bin/sh\n    exec server\n',
    ]);
  });

  test('the main entry point with a stack loads aws-cdk-lib, and still no CRD module that nothing used', () => {
    expect(steps['main entry, synthesized with a stack']).toEqual({
      awsCdkLib: expect.any(Number),
      imports: ['kustomization-kustomize.toolkit.fluxcd.io.ts'],
      jsYaml: true,
    });
    expect(steps['main entry, synthesized with a stack'].awsCdkLib).toBeGreaterThan(20);
    expect(fs.readdirSync(path.join(out, 'staged', 'deploy')).filter((f) => f.endsWith('.template.json'))).toEqual([expect.stringMatching(/^cdnBase[0-9A-F]{8}\.template\.json$/)]);
  });
});

describe('the Capability of cdk-capability/runtime', () => {
  function compose(app: CapabilityApp, capability: { new (scope: CapabilityApp, id: string): Capability | runtime.Capability }): void {
    const chart = new Chart(new capability(app, 'web'), 'Config');
    new ApiObject(chart, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', data: { mode: 'a' } });
  }

  test('writes byte for byte what the Capability of cdk-capability writes for the same charts', () => {
    // GIVEN the same composition under each kind of capability
    const [a, b] = [tempDir(), tempDir()];
    const staged = new CapabilityApp({ outdir: path.join(a, 'dist'), lockFile: path.join(a, 'lock.json') });
    compose(staged, Capability);
    const runtimeOnly = new runtime.CapabilityApp({ outdir: path.join(b, 'dist'), lockFile: path.join(b, 'lock.json') });
    compose(runtimeOnly, runtime.Capability);

    // WHEN
    staged.synth();
    runtimeOnly.synth();

    // THEN
    const expected = readTree(path.join(a, 'dist'));
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['plan.json', 'runtime/kustomization.yaml']));
    expect(readTree(path.join(b, 'dist'))).toEqual(expected);
  });

  test('is no aws-cdk Stage, and the Capability of cdk-capability says it is not one of its own', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const web = new runtime.Capability(app, 'web');
    expect([runtime.Capability.isCapability(web), Capability.isCapability(web)]).toEqual([true, false]);
    expect(runtime.Capability.of(new Chart(web, 'Config')).node.path).toEqual('web');
  });

  test('refuses a stack with CAP015, saying which Capability takes stacks', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const web = new runtime.Capability(app, 'web');
    expect(() => new SharedBase(web, 'Base')).toThrow(
      /^The composition was refused with 1 violation:\nCAP015 misplaced construct: SharedBase 'web\/Base' is created in the runtime-only capability 'web', which holds no stacks\. Create that capability with the Capability of 'cdk-capability' \(it takes stacks and charts\), not of 'cdk-capability\/runtime'\.$/,
    );
  });

  test('refuses an id aws-cdk would refuse as a Stage name with CAP010, suggesting one it takes', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    expect(() => new runtime.Capability(app, '9web')).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: Capability \'9web\' has the id "9web", which no capability may have: ' +
        "a capability id is letters, digits, '-', '_' and '.', starting with a letter (the id aws-cdk takes for a Stage). Give it an id such as \"web\".",
    ));
  });
});

describe('the types of cdk-capability/runtime, and the bench programs type-checked as cdk8s runs them', () => {
  const CONSUMER = [
    "import { ApiObject, Chart } from 'cdk8s';",
    "import { Capability, CapabilityApp, Contribution, RuntimeRouting } from 'cdk-capability/runtime';",
    '',
    'const app = new CapabilityApp();',
    "const web = new Capability(app, 'web', { description: 'the web tier' });",
    "const settings = new ApiObject(new Chart(web, 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', data: { mode: 'a' } });",
    "new Contribution(web, 'Team', { target: settings, fields: { data: { team: 'edge' } } });",
    "new RuntimeRouting(web, 'Routing').addBackend('Api', { image: 'ghcr.io/example/api:1.0.0', port: 8080 });",
    'app.synth();',
    '',
  ].join('\n');
  let prepared: string;
  let dispose: () => void;

  beforeAll(() => {
    // GIVEN the bench's typecheck project: this package built by tsc (declarations with internal members stripped, and
    // its package.json) installed beside the peers in ours/node_modules, which holds no aws-cdk-lib
    const apps = prepareTypecheckApps(tempDir(), () => undefined);
    prepared = apps.env[TYPECHECK_DIR_ENV];
    dispose = apps.dispose;
  }, HANG_GUARD_MS);
  afterAll(() => dispose?.());

  /** Type-checks `source` as main.ts with the given node_modules and module resolution; returns the files tsc loaded. */
  function typeCheck(source: string, nodeModules: string, resolution: 'node10' | 'node16'): string[] {
    const dir = fs.mkdtempSync(path.join(prepared, 'app-'));
    fs.writeFileSync(path.join(dir, 'main.ts'), source);
    fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'));
    const module = resolution === 'node16' ? ['--module', 'node16', '--moduleResolution', 'node16'] : ['--module', 'commonjs', '--moduleResolution', 'node10'];
    const r = run([TSC, 'main.ts', '--noEmit', '--listFiles', '--strict', '--target', 'ES2022', ...module, '--types', 'node'], dir);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect({ status: r.status, errors: lines.filter((l) => /error TS\d+/.test(l)) }).toEqual({ status: 0, errors: [] });
    return lines.map((f) => fs.realpathSync(path.resolve(dir, f)));
  }

  test.each(['node10', 'node16'] as const)('a runtime-only program type-checks (%s resolution) without any aws-cdk-lib declaration file', (resolution) => {
    const files = typeCheck(CONSUMER, path.join(prepared, 'ours', 'node_modules'), resolution);

    expect(files).toContain(path.join(fs.realpathSync(prepared), 'ours', 'node_modules', 'cdk-capability', 'lib', 'runtime.d.ts'));
    expect(files).toContain(fs.realpathSync(path.join(ROOT, 'node_modules', 'cdk8s', 'lib', 'index.d.ts')));
    expect(files.filter((f) => /[\\/]aws-cdk-lib[\\/]/.test(f))).toEqual([]);
  }, HANG_GUARD_MS);

  test('the same program on the main entry point loads aws-cdk-lib declarations (what the runtime one avoids)', () => {
    // GIVEN the same node_modules, with aws-cdk-lib added
    const modules = path.join(prepared, 'with-aws-cdk-lib', 'node_modules');
    fs.mkdirSync(modules, { recursive: true });
    for (const name of fs.readdirSync(path.join(prepared, 'ours', 'node_modules'))) {
      const from = path.join(prepared, 'ours', 'node_modules', name);
      // the package copied, so that its declarations resolve aws-cdk-lib from here
      if (name === 'cdk-capability') fs.cpSync(from, path.join(modules, name), { recursive: true });
      else fs.symlinkSync(from, path.join(modules, name));
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'aws-cdk-lib'), path.join(modules, 'aws-cdk-lib'));

    const files = typeCheck(CONSUMER.replace("'cdk-capability/runtime'", "'cdk-capability'"), modules, 'node10');

    expect(files.filter((f) => /[\\/]aws-cdk-lib[\\/]/.test(f)).length).toBeGreaterThan(100);
  }, HANG_GUARD_MS);

  test('the bench typecheck programs pass ts-node with type-checking and write the same objects on both sides', () => {
    // WHEN each side's main.ts runs as `ts-node main.ts` (cdk8s' default app line) at a tiny size
    const objects = (['ours', 'bare'] as const).map((side) => {
      const outdir = path.join(prepared, `${side}-dist`);
      const r = spawnSync(process.execPath, [require.resolve('ts-node/dist/bin.js'), 'main.ts'], {
        cwd: path.join(prepared, side), encoding: 'utf-8', timeout: HANG_GUARD_MS, env: { ...process.env, CDK_VALIDATION: 'false', CDK8S_OUTDIR: outdir, BENCH_SIZE: '8' },
      });
      expect({ side, status: r.status, stderr: r.stderr }).toEqual({ side, status: 0, stderr: '' });
      // the manifests only: kustomize's files list them, and ours' audit/objects.list repeats their identities
      const files = Object.entries(readTree(outdir)).filter(([f]) => /\.ya?ml$/.test(f) && !f.endsWith('kustomization.yaml') && !f.startsWith('audit/'));
      return files.flatMap(([, text]) => parseAllDocuments(text).map((d) => d.toJS())).map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort();
    });

    // THEN
    expect(objects[0]).toHaveLength(8);
    expect(objects[0]).toEqual(objects[1]);
  }, HANG_GUARD_MS);
});
