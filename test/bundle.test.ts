import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HANG_GUARD_MS, NODE_TS, readTree, removeTempDirs, tempDir } from './util';
import { copyBuiltLib } from '../scripts/built-package';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8'));

/**
 * The JavaScript the package ships is one file, lib/bundle.js (scripts/bundle-lib.js, the last step of
 * `npm run compile`); every other test runs src/ through ts-jest. These run the built package: a clone-like folder
 * (`pkg`, not under node_modules, as this repository's own lib/ is) whose lib/ the build script writes, and programs
 * in `app` that require it as `cdk-capability`, resolving every other package to this repository's one copy.
 */
let pkg: string;
let app: string;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function node(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, CDK_VALIDATION: 'false' };
  delete env.CDK8S_OUTDIR;
  Object.assign(env, options.env);
  const r = spawnSync(process.execPath, args, { cwd: options.cwd ?? app, env, encoding: 'utf-8', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const TS = NODE_TS;

beforeAll(() => {
  const work = tempDir('cdk-capability-bundle-');
  pkg = path.join(work, 'pkg');
  app = path.join(work, 'app');
  // GIVEN the package as `npm pack` takes it: package.json, docs/ and lib/ as the build writes it
  fs.mkdirSync(pkg);
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'docs'), path.join(pkg, 'docs'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  // (scripts/built-package.js keeps the build per content of src/ and throws when it fails or writes to stderr)
  copyBuiltLib(path.join(pkg, 'lib'));
  // and a program folder that installs it (linked, as npm links a local folder) beside this repository's packages
  fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.')) fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(app, 'node_modules', name));
  }
  fs.symlinkSync(pkg, path.join(app, 'node_modules', 'cdk-capability'));
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022', esModuleInterop: true } }));
}, HANG_GUARD_MS);

test('the build leaves lib/bundle.js, its source map, the three entry files and the generated CRD modules as the only JavaScript', () => {
  const js = fs.readdirSync(path.join(pkg, 'lib'), { recursive: true }).map(String).filter((f) => /\.js(\.map)?$/.test(f)).sort();
  expect(js).toEqual([
    'bundle.js',
    'bundle.js.map',
    path.join('cli', 'main.js'),
    ...fs.readdirSync(path.join(ROOT, 'src', 'imports')).filter((f) => f.endsWith('.ts')).map((f) => path.join('imports', f.replace(/\.ts$/, '.js'))).sort(),
    'index.js',
    'runtime.js',
  ]);
  const map = JSON.parse(fs.readFileSync(path.join(pkg, 'lib', 'bundle.js.map'), 'utf-8'));
  const runtime = map.sources.findIndex((s: string) => s.endsWith('/src/runtime.ts'));
  expect(map.sourcesContent[runtime]).toEqual(fs.readFileSync(path.join(ROOT, 'src', 'runtime.ts'), 'utf-8'));
  // every source of src/ as written, also those whose built-in imports the build compiles as `import x = require()`
  const ours = (map.sources as string[]).map((s, i) => [s.replace(/^.*\/src\//, 'src/'), map.sourcesContent[i]]).filter(([s]) => s.startsWith('src/') && s.endsWith('.ts'));
  expect(ours.filter(([s]) => s.endsWith('/atomic-output.ts')).length).toBe(1);
  for (const [source, content] of ours) expect({ source, same: content === fs.readFileSync(path.join(ROOT, source), 'utf-8') }).toEqual({ source, same: true });
});

test('lib/bundle.js uses Node built-in modules themselves, not a copy of each one per importing module', () => {
  const bundle = fs.readFileSync(path.join(pkg, 'lib', 'bundle.js'), 'utf-8');
  expect(bundle.match(/__toESM\(require\("(fs|path|os|crypto)"\)\)/g)).toBeNull();
  expect(bundle.match(/= require\("fs"\);/g)?.length).toBeGreaterThan(20);
});

test('lib/bundle.js is ASCII only, so V8 holds its source one byte a character and the entry files read it as Latin-1 unchanged', () => {
  // GIVEN the built bundle
  const bundle = fs.readFileSync(path.join(pkg, 'lib', 'bundle.js'), 'utf-8');

  // THEN no character of it is past U+007F (one past U+00FF makes V8 keep the whole 1.2 MB source as UTF-16; one past
  // U+007F would be misread as Latin-1), and Latin-1 reads it as UTF-8 does
  expect([...new Set(bundle.match(/[^\u0000-\u007f]/g) ?? [])]).toEqual([]);
  expect(fs.readFileSync(path.join(pkg, 'lib', 'bundle.js'), 'latin1') === bundle).toBe(true);
});

test('the build refuses a bundle with a character that is not ASCII, naming it and its line', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script, a plain CommonJS file
  const { nonAsciiProblem } = require('../scripts/bundle-lib.js') as { nonAsciiProblem: (text: string) => string | undefined };

  // WHEN a bundle holds a character Latin-1 would read as two (UTF-8's two bytes of U+00E9), THEN it is named
  expect(nonAsciiProblem('var a = 1;\nvar b = "caf\u00e9";\n')).toEqual(
    "character U+00E9 at line 2 is not ASCII; the entry files read the bundle as Latin-1 (keep esbuild's charset 'ascii')");
  // and an ASCII one, escapes included, passes
  expect(nonAsciiProblem('var b = "caf\\u00e9";\n')).toBeUndefined();
});

describe('function names in lib/bundle.js (esbuild keepNames)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script, a plain CommonJS file
  const { withoutInnerNameCalls } = require('../scripts/bundle-lib.js') as { withoutInnerNameCalls: (text: string) => string };

  /** A bundle as esbuild writes it with keepNames: a module's one-time init, and a function that makes closures on every call. */
  const FIXTURE = [
    'var __defProp = Object.defineProperty;',
    'var calls = 0;',
    'var __name = (target, value) => (calls++, __defProp(target, "name", { value, configurable: true }));',
    'var __esm = (fn, res) => function __init() {',
    '  return fn && (res = (0, fn[Object.getOwnPropertyNames(fn)[0]])(fn = 0)), res;',
    '};',
    'var once;',
    'var init_a = __esm({',
    '  "src/a.ts"() {',
    '    once = /* @__PURE__ */ __name(() => 1, "once");',
    '  }',
    '});',
    'function outer(n) {',
    '  const leaf = /* @__PURE__ */ __name((x) => x + n, "leaf");',
    '  const walk3 = /* @__PURE__ */ __name((x) => {',
    '    return leaf(x);',
    '  }, "walk");',
    '  const handlers = { run: /* @__PURE__ */ __name(() => n, "run") };',
    '  const named = /* @__PURE__ */ __name(function named() {',
    '    return n;',
    '  }, "named");',
    '  return [leaf, walk3, handlers.run, named];',
    '}',
    '__name(outer, "outer");',
    'init_a();',
    'return () => { const made = outer(1); return { names: [once.name, outer.name, ...made.map((f) => f.name)], values: made.map((f) => f(2)), calls }; };',
  ].join('\n');

  test('drops the name calls made on every call where JavaScript names the function anyway, keeping lines, columns and names', () => {
    // WHEN the fixture is rewritten
    const rewritten = withoutInnerNameCalls(FIXTURE);

    // THEN every line keeps its length (the source map stays right), only the four per-call calls whose binding names the function went
    expect(rewritten.split('\n').map((l) => l.length)).toEqual(FIXTURE.split('\n').map((l) => l.length));
    expect(rewritten).toContain('  const leaf = /* @__PURE__ */       ((x) => x + n)        ;');
    expect(rewritten).toContain('  const walk3 = /* @__PURE__ */ __name((x) => {');
    expect(rewritten).toContain('    once = /* @__PURE__ */ __name(() => 1, "once");');
    // and both run alike: the same names and values, with one name call per call of outer instead of four
    const before = (new Function(FIXTURE) as () => () => { names: string[]; values: number[]; calls: number })();
    const after = (new Function(rewritten) as () => () => { names: string[]; values: number[]; calls: number })();
    expect(before()).toEqual({ names: ['once', 'outer', 'leaf', 'walk', 'run', 'named'], values: [3, 3, 1, 1], calls: 6 });
    expect(after()).toEqual({ names: ['once', 'outer', 'leaf', 'walk', 'run', 'named'], values: [3, 3, 1, 1], calls: 3 });
  });

  test('the build drops every such call, and classes keep their names', () => {
    const bundle = fs.readFileSync(path.join(pkg, 'lib', 'bundle.js'), 'utf-8');
    expect(withoutInnerNameCalls(bundle) === bundle).toBe(true);
    expect(bundle).toMatch(/\n {2}const leaf = \/\* @__PURE__ \*\/ +\(\(/);
    const run = node(['-e', [
      "const full = require('cdk-capability');",
      "const classes = Object.entries(full).filter(([, v]) => typeof v === 'function' && /^class\\b/.test(Function.prototype.toString.call(v)));",
      'console.log(classes.length > 10, JSON.stringify(classes.filter(([k, v]) => v.name !== k).map(([k]) => k)));',
    ].join('\n')]);
    expect(run).toEqual({ status: 0, stdout: 'true []\n', stderr: '' });
  });
});

test('the bundled example (examples/cdn) writes byte for byte what it writes from src/', () => {
  // GIVEN examples/cdn, and a copy of it that imports the built package
  const copy = path.join(app, 'cdn');
  fs.mkdirSync(copy);
  for (const file of fs.readdirSync(path.join(ROOT, 'examples', 'cdn')).filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(ROOT, 'examples', 'cdn', file), 'utf-8');
    fs.writeFileSync(path.join(copy, file), text.replace(/'\.\.\/\.\.\/src'/g, "'cdk-capability'"));
  }
  expect(fs.readFileSync(path.join(copy, 'main.ts'), 'utf-8')).toMatch(/from 'cdk-capability';/);

  // WHEN each runs as `cdk8s synth` runs it, into its own outdir
  const [fromSrc, fromLib] = [tempDir(), tempDir()].map((d) => path.join(d, 'dist'));
  const src = node([...TS, 'main.ts'], { cwd: path.join(ROOT, 'examples', 'cdn'), env: { CDK8S_OUTDIR: fromSrc } });
  const lib = node([...TS, 'main.ts'], { cwd: copy, env: { CDK8S_OUTDIR: fromLib } });

  // THEN
  expect([src.status, src.stderr, lib.status, lib.stderr]).toEqual([0, '', 0, '']);
  const expected = readTree(fromSrc);
  expect(Object.keys(expected)).toEqual(expect.arrayContaining(['plan.json', 'interface.json', 'runtime/kustomization.yaml', 'deploy/manifest.json']));
  expect(readTree(fromLib)).toEqual(expected);
}, HANG_GUARD_MS);

describe('a refused composition', () => {
  // Two plain patches of one leaf (CAP002 names both calls where the program made them), and two Contributions of
  // another leaf (CAP002 names both; with a report asked for, as `cdk-capability plan` asks, the report locates each
  // where the program created it, past the frames of the package's own constructor in lib/bundle.js).
  const PROGRAM = [
    "const { ApiObject, Chart, JsonPatch } = require('cdk8s');",
    'const { CapabilityApp, Capability, CapabilityTesting, Contribution } = require(process.argv[2]);',
    "const app = new CapabilityApp({ outdir: process.argv[3], lockFile: process.argv[3] + '.lock.json' });",
    "const cdn = new Capability(app, 'cdn');",
    "const target = new ApiObject(new Chart(cdn, 'Routing'), 'App1', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: {} });",
    "target.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '5m' }));",
    "target.addJsonPatch(JsonPatch.add('/spec/timers', { rollout: '10m' }));",
    "new Contribution(cdn, 'Network', { target, fields: { spec: { replicas: 2 } } });",
    "new Contribution(cdn, 'Scaling', { target, fields: { spec: { replicas: 3 } } });",
    'const { violations } = CapabilityTesting.synth(app);',
    'try { app.synth(); } catch { /* refused: the report is written */ }',
    'process.stdout.write(JSON.stringify(violations));',
    '',
  ].join('\n');

  /** The violations and the report's locations when PROGRAM runs on `library` (`cdk-capability`, or src/ through ts-node). */
  interface Refusal {
    readonly violations: Array<{ code: string; message: string }>;
    readonly locations: Record<string, { file: string }>;
  }

  function refusal(library: string, runtimeArgs: readonly string[]): Refusal {
    const dir = fs.mkdtempSync(path.join(app, 'refused-'));
    fs.writeFileSync(path.join(dir, 'main.js'), PROGRAM);
    const report = path.join(dir, 'report.json');
    const r = node([...runtimeArgs, 'main.js', library, path.join(dir, 'dist')], { cwd: dir, env: { CDK_CAPABILITY_REPORT: report } });
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    return { violations: JSON.parse(r.stdout), locations: JSON.parse(fs.readFileSync(report, 'utf-8')).locations };
  }

  let fromLib: Refusal;
  let fromSrc: Refusal;

  beforeAll(() => {
    // WHEN the same program runs on the built package and on src/
    fromLib = refusal('cdk-capability', []);
    fromSrc = refusal(path.join(ROOT, 'src'), TS);
  }, HANG_GUARD_MS);

  test('is CAP002 naming both writers of each leaf, the plain calls at the program\'s file:line, exactly as from src/', () => {
    expect(fromLib.violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      expect.stringMatching(/^CAP002 field conflict: 'cdn\/Network' and 'cdn\/Scaling' both write spec\.replicas of apps\.example\.com\/ApplicationDeployment apps\/app1\. /),
      expect.stringMatching(
        /^CAP002 field conflict: 'cdn\/Routing\/App1' \(addJsonPatch at main\.js:6\) and 'cdn\/Routing\/App1' \(addJsonPatch at main\.js:7\) both write spec\.timers\.rollout of apps\.example\.com\/ApplicationDeployment apps\/app1\. /,
      ),
    ]);
    expect(fromLib.violations).toEqual(fromSrc.violations);
  });

  test('the report locates each writer where the program created it, as from src/', () => {
    const at = (locations: Refusal['locations']) => Object.fromEntries(Object.entries(locations).map(([p, v]) => [p, { ...v, file: path.basename(v.file) }]));
    expect(at(fromLib.locations)).toEqual({
      'cdn/Network': { file: 'main.js', line: 8, column: 1, order: expect.any(Number) },
      'cdn/Scaling': { file: 'main.js', line: 9, column: 1, order: expect.any(Number) },
      'cdn/Routing/App1': { file: 'main.js', line: 5, column: 16, order: expect.any(Number) },
    });
    expect(at(fromLib.locations)).toEqual(at(fromSrc.locations));
  });
});

describe('the runtime entry point from lib/bundle.js (require.cache of a fresh process)', () => {
  let steps: Record<string, { awsCdkLib: number; imports: string[]; jsYaml: boolean }>;

  beforeAll(() => {
    // GIVEN test/fixtures/runtime-only/main.ts, importing the built package instead of src/
    const text = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'runtime-only', 'main.ts'), 'utf-8');
    const program = text.replace(/'\.\.\/\.\.\/\.\.\/src\/runtime'/g, "'cdk-capability/runtime'").replace(/'\.\.\/\.\.\/\.\.\/src'/g, "'cdk-capability'");
    expect(program).not.toMatch(/\/src\b'/);
    fs.writeFileSync(path.join(app, 'runtime-only.ts'), program);

    // WHEN it runs
    const r = node([...TS, 'runtime-only.ts', tempDir()]);
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    steps = Object.fromEntries(r.stdout.trim().split('\n').map((l) => JSON.parse(l)).map(({ step, ...rest }) => [step, rest]));
  }, HANG_GUARD_MS);

  test('loads no aws-cdk-lib module, no generated CRD module and no js-yaml when imported, nor after a synth without routes', () => {
    expect(steps.imported).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
    expect(steps['synthesized without routes']).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
  });

  test('loads the CRD module of what it uses only (a route, then Flux output), and aws-cdk-lib only with the main entry and a stack', () => {
    // a Gateway API route renders as its generated class would, without loading it
    expect(steps['synthesized with a route']).toEqual({ awsCdkLib: 0, imports: [], jsYaml: false });
    expect(steps['synthesized with Flux output']).toEqual({
      awsCdkLib: 0,
      imports: ['kustomization-kustomize.toolkit.fluxcd.io.js'],
      jsYaml: false,
    });
    expect(steps['synthesized with a value on several lines'].jsYaml).toBe(true);
    expect(steps['main entry, synthesized with a stack'].awsCdkLib).toBeGreaterThan(20);
    expect(steps['main entry, synthesized with a stack'].imports).toEqual(['kustomization-kustomize.toolkit.fluxcd.io.js']);
  });

  test('loads lib/bundle.js and the entry file, and no other module of the package', () => {
    const r = node(['-e', "require('cdk-capability/runtime'); process.stdout.write(JSON.stringify(Object.keys(require.cache)))"]);
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    const own = (JSON.parse(r.stdout) as string[]).filter((f) => f.startsWith(fs.realpathSync(pkg) + path.sep));
    expect(own.map((f) => path.relative(fs.realpathSync(pkg), f)).sort()).toEqual([path.join('lib', 'bundle.js'), path.join('lib', 'runtime.js')]);
  });
});

test('a short synth loads no worker_threads module: the refreshing thread, and so the module, only come with a long one', () => {
  // GIVEN a runtime-only program in plain JavaScript (ts-node loads worker_threads itself)
  const out = tempDir();
  const program = [
    "const { ApiObject, Chart } = require('cdk8s');",
    "const { Capability, CapabilityApp } = require('cdk-capability/runtime');",
    "const loaded = () => process.moduleLoadList.includes('NativeModule worker_threads');",
    `const app = new CapabilityApp({ outdir: ${JSON.stringify(path.join(out, 'dist'))}, lockFile: ${JSON.stringify(path.join(out, 'none.lock.json'))} });`,
    "new ApiObject(new Chart(new Capability(app, 'web'), 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'const imported = loaded();',
    'app.synth();',
    "console.log(imported, loaded(), require('fs').readdirSync(" + JSON.stringify(path.join(out, 'dist', 'runtime')) + ').length);',
  ].join('\n');

  // WHEN it synthesizes, THEN neither the import nor the synth loaded it, and the output is written
  expect(node(['-e', program])).toEqual({ status: 0, stdout: 'false false 2\n', stderr: '' });
});

test('a runtime-only program that does not load perf_hooks itself has it loaded by neither the import nor a synth', () => {
  // GIVEN a runtime-only program in plain JavaScript, which cdk8s loads no perf_hooks for (about 1.5 ms of start-up)
  const out = tempDir();
  const program = [
    "const { ApiObject, Chart } = require('cdk8s');",
    "const { Capability, CapabilityApp } = require('cdk-capability/runtime');",
    "const loaded = () => process.moduleLoadList.includes('NativeModule perf_hooks');",
    `const app = new CapabilityApp({ outdir: ${JSON.stringify(path.join(out, 'dist'))}, lockFile: ${JSON.stringify(path.join(out, 'none.lock.json'))} });`,
    "new ApiObject(new Chart(new Capability(app, 'web'), 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'const imported = loaded();',
    'app.synth();',
    "console.log(imported, loaded(), require('fs').readdirSync(" + JSON.stringify(path.join(out, 'dist', 'runtime')) + ').length);',
  ].join('\n');

  // WHEN it synthesizes, THEN neither the import nor the synth loaded it, and the output is written
  expect(node(['-e', program])).toEqual({ status: 0, stdout: 'false false 2\n', stderr: '' });
});

test('loading the runtime entry and a synth load none of Node\'s `module`, `v8` or ES module loader modules that the program does not', () => {
  // GIVEN a runtime-only program in plain JavaScript that loads none of them itself (nor does cdk8s), run twice, so
  // the second run at least loads the bundle with the code cache an earlier run wrote
  const out = tempDir();
  const program = (outdir: string) => [
    "const { ApiObject, Chart } = require('cdk8s');",
    "const { Capability, CapabilityApp } = require('cdk-capability/runtime');",
    "const NODE = ['NativeModule module', 'NativeModule v8', 'NativeModule internal/modules/esm/loader'];",
    'const loaded = () => NODE.filter((m) => process.moduleLoadList.includes(m));',
    `const app = new CapabilityApp({ outdir: ${JSON.stringify(outdir)}, lockFile: ${JSON.stringify(path.join(out, 'none.lock.json'))} });`,
    "new ApiObject(new Chart(new Capability(app, 'web'), 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'const imported = loaded();',
    'app.synth();',
    'console.log(JSON.stringify([imported, loaded()]));',
  ].join('\n');

  // WHEN it synthesizes twice
  // (a file, not `node -e`, which loads Node's `module` itself)
  const run = (name: string) => {
    fs.writeFileSync(path.join(app, `native-modules-${name}.js`), program(path.join(out, name)));
    return node([`native-modules-${name}.js`]);
  };
  const first = run('first');
  const second = run('second');

  // THEN neither the import nor the synth loaded any of them, and both wrote the same output
  expect(first).toEqual({ status: 0, stdout: '[[],[]]\n', stderr: '' });
  expect(second).toEqual({ status: 0, stdout: '[[],[]]\n', stderr: '' });
  expect(readTree(path.join(out, 'second'))).toEqual(readTree(path.join(out, 'first')));
});

test('a runtime-only program never resolves aws-cdk-lib: no module of it is loaded, so none can be the one it resolves to', () => {
  // GIVEN a runtime-only program that records each request Node resolves
  const out = tempDir();
  const program = [
    "const Module = require('module');",
    'const requests = [];',
    'const resolve = Module._resolveFilename;',
    'Module._resolveFilename = function (request, ...rest) { requests.push(request); return resolve.call(this, request, ...rest); };',
    "const { ApiObject, Chart } = require('cdk8s');",
    "const { Capability, CapabilityApp } = require('cdk-capability/runtime');",
    `const app = new CapabilityApp({ outdir: ${JSON.stringify(path.join(out, 'dist'))}, lockFile: ${JSON.stringify(path.join(out, 'none.lock.json'))} });`,
    "new ApiObject(new Chart(new Capability(app, 'web'), 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'app.synth();',
    "console.log(JSON.stringify(requests.filter((r) => r.includes('aws-cdk'))), requests.includes('cdk8s'));",
  ].join('\n');

  // WHEN it synthesizes, THEN no request for aws-cdk-lib was resolved (the hook saw the others)
  expect(node(['-e', program])).toEqual({ status: 0, stdout: '[] true\n', stderr: '' });
});

test('both entry points share one copy of every module: a Capability of one takes a RuntimeRouting of the other', () => {
  const program = [
    "const full = require('cdk-capability');",
    "const runtime = require('cdk-capability/runtime');",
    "const { ApiObject } = require('cdk8s');",
    'const app = new runtime.CapabilityApp({ outdir: process.argv[2], lockFile: process.argv[2] + \'.lock.json\' });',
    "const web = new full.Capability(app, 'web');",
    "new ApiObject(new runtime.RuntimeRouting(web, 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'app.synth();',
    'process.stdout.write(JSON.stringify({',
    '  RuntimeRouting: full.RuntimeRouting === runtime.RuntimeRouting,',
    '  CapabilityApp: full.CapabilityApp === runtime.CapabilityApp,',
    '  Contribution: full.Contribution === runtime.Contribution,',
    '  isCapability: full.Capability.isCapability(web),',
    '}));',
  ].join('\n');
  const outdir = path.join(tempDir(), 'dist');
  fs.writeFileSync(path.join(app, 'both.js'), program);

  const r = node(['both.js', outdir]);

  expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
  expect(JSON.parse(r.stdout)).toEqual({ RuntimeRouting: true, CapabilityApp: true, Contribution: true, isCapability: true });
  expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).steps.map((s: { id: string }) => s.id)).toEqual(['web/Routing']);
});

test('an ES module imports each entry point\'s exports by name, every one of them, the same objects as require gives', () => {
  // GIVEN an ES module program, as `import { CapabilityApp } from 'cdk-capability'` in a .mjs file or a "type": "module" app
  const program = [
    "import { createRequire } from 'module';",
    "import { ApiObject } from 'cdk8s';",
    "import { CapabilityApp, Capability, SharedBase } from 'cdk-capability';",
    "import { RuntimeRouting } from 'cdk-capability/runtime';",
    "import * as full from 'cdk-capability';",
    "import * as runtime from 'cdk-capability/runtime';",
    'const require = createRequire(import.meta.url);',
    'const named = (ns, cjs) => Object.keys(cjs).filter((k) => ns[k] !== cjs[k]);',
    "const app = new CapabilityApp({ outdir: process.argv[2], lockFile: process.argv[2] + '.lock.json' });",
    "const shop = new Capability(app, 'shop');",
    "new ApiObject(new RuntimeRouting(shop, 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });",
    'app.synth();',
    "process.stdout.write(JSON.stringify({ missing: [...named(full, require('cdk-capability')), ...named(runtime, require('cdk-capability/runtime'))], SharedBase: typeof SharedBase }));",
  ].join('\n');
  const outdir = path.join(tempDir(), 'dist');
  fs.writeFileSync(path.join(app, 'esm.mjs'), program);

  // WHEN
  const r = node(['esm.mjs', outdir]);

  // THEN every export of either entry point is a named export, and the synth wrote its output
  expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
  expect(JSON.parse(r.stdout)).toEqual({ missing: [], SharedBase: 'function' });
  expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).steps.map((s: { id: string }) => s.id)).toEqual(['shop/Routing']);
});

test('the command line (package.json `bin`) prints the package\'s version', () => {
  const r = node([path.join(pkg, PKG.bin['cdk-capability']), '--version']);
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: `${PKG.version}\n`, stderr: '' });
});

describe("V8's code cache of lib/bundle.js (the entry files' loader)", () => {
  // A program that synthesizes one ConfigMap through the package at argv[2] into the outdir argv[3].
  const PROGRAM = [
    "const { ApiObject, Chart } = require('cdk8s');",
    "const { Capability, CapabilityApp } = require(require('path').join(process.argv[2], 'lib', 'runtime.js'));",
    "const app = new CapabilityApp({ outdir: process.argv[3], lockFile: process.argv[3] + '.lock.json' });",
    "new ApiObject(new Chart(new Capability(app, 'web'), 'Config'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: 'b' } });",
    'app.synth();',
    '',
  ].join('\n');
  const CACHE = new RegExp(`^bundle-${process.versions.v8.replace(/[.]/g, '\\.')}\\.v8-cache$`);

  let work: string;
  let expected: Record<string, string>;

  /** A copy of the built package without any code cache, readable by every user (a test may run as `nobody`). */
  function freshPackage(): string {
    const copy = fs.mkdtempSync(path.join(work, 'pkg-'));
    fs.chmodSync(copy, 0o755);
    fs.copyFileSync(path.join(pkg, 'package.json'), path.join(copy, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'docs'), path.join(copy, 'docs'));
    fs.cpSync(path.join(pkg, 'lib'), path.join(copy, 'lib'), { recursive: true, filter: (f) => !f.endsWith('.v8-cache') });
    return copy;
  }

  /** Runs PROGRAM on `library`; the outdir it wrote. */
  function synth(library: string, options: { args?: readonly string[]; env?: NodeJS.ProcessEnv; asNobody?: boolean } = {}): string {
    const out = fs.mkdtempSync(path.join(work, 'out-'));
    fs.chmodSync(out, 0o777);
    const env: NodeJS.ProcessEnv = { ...process.env, CDK_VALIDATION: 'false', ...options.env };
    delete env.CDK8S_OUTDIR;
    const r = spawnSync(process.execPath, [...(options.args ?? []), path.join(work, 'main.js'), library, path.join(out, 'dist')], {
      cwd: out, env, encoding: 'utf-8', timeout: HANG_GUARD_MS, ...(options.asNobody ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(`exit ${r.status}\n${r.stderr}`).toEqual('exit 0\n');
    return path.join(out, 'dist');
  }

  const caches = (library: string) => fs.readdirSync(path.join(library, 'lib')).filter((f) => f.includes('v8-cache'));

  /** Whether V8, in a plain `node` as the program runs in, takes the cache as the bundle's. */
  function accepted(library: string, cache: string): boolean {
    const script = [
      "const fs = require('fs'); const vm = require('vm'); const { wrap } = require('module');",
      `const [bundle, cache] = ${JSON.stringify([path.join(library, 'lib', 'bundle.js'), path.join(library, 'lib', cache)])};`,
      "const s = new vm.Script(wrap(fs.readFileSync(bundle, 'utf-8')), { filename: bundle, cachedData: fs.readFileSync(cache) });",
      'process.stdout.write(String(!s.cachedDataRejected));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf-8' });
    expect(r.stderr).toBe('');
    return r.stdout === 'true';
  }

  beforeAll(() => {
    work = tempDir('cdk-capability-code-cache-');
    fs.chmodSync(work, 0o755);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
    fs.writeFileSync(path.join(work, 'main.js'), PROGRAM);
    // the output as the bundle writes it loaded by `require`, no cache read or written
    const plain = freshPackage();
    expected = readTree(synth(plain, { env: { CDK_CAPABILITY_CODE_CACHE: '0' } }));
    expect(caches(plain)).toEqual([]);
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['plan.json', 'runtime/0001-web-config.yaml']));
  }, HANG_GUARD_MS);

  test('the first run leaves a cache beside the bundle that only its user may write; later runs take it as it is and write the same output', () => {
    // GIVEN a package without a cache
    const library = freshPackage();

    // WHEN a program runs on it, then runs again
    const first = readTree(synth(library));
    const [cache] = caches(library);
    const written = fs.statSync(path.join(library, 'lib', cache));
    const second = readTree(synth(library));

    // THEN one cache, mode 0600, that V8 accepts; the second run kept it as it was; the output is the same
    expect(caches(library)).toEqual([expect.stringMatching(CACHE)]);
    expect(written.mode % 0o1000).toBe(0o600);
    expect(accepted(library, cache)).toBe(true);
    const kept = fs.statSync(path.join(library, 'lib', cache));
    expect([kept.ino, kept.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
  }, HANG_GUARD_MS);

  test('the command line reads the cache but never writes it: the first program run after it writes its own', () => {
    // GIVEN a package without a cache
    const library = freshPackage();

    // WHEN the command line runs, then a program
    const cli = spawnSync(process.execPath, [path.join(library, 'lib', 'cli', 'main.js'), '--version'], { encoding: 'utf-8' });
    const afterCli = caches(library);
    expect(readTree(synth(library))).toEqual(expected);

    // THEN the command wrote none; the program wrote one that V8 accepts
    expect([cli.status, cli.stdout.trim(), cli.stderr]).toEqual([0, PKG.version, '']);
    expect(afterCli).toEqual([]);
    expect(caches(library)).toEqual([expect.stringMatching(CACHE)]);
    expect(accepted(library, caches(library)[0])).toBe(true);
  }, HANG_GUARD_MS);

  test('a cache V8 refuses is replaced by one it accepts, and the output is the same', () => {
    // GIVEN a package whose cache holds bytes no V8 made
    const library = freshPackage();
    synth(library);
    const [cache] = caches(library);
    fs.writeFileSync(path.join(library, 'lib', cache), Buffer.alloc(4096, 7), { mode: 0o600 });
    expect(accepted(library, cache)).toBe(false);

    // WHEN the program runs
    const out = readTree(synth(library));

    // THEN
    expect(out).toEqual(expected);
    expect(caches(library)).toEqual([cache]);
    expect(accepted(library, cache)).toBe(true);
  }, HANG_GUARD_MS);

  test('a cache others may write, or older than the bundle, is not read: it is replaced', () => {
    for (const spoil of [
      (file: string) => fs.chmodSync(file, 0o666),
      (file: string) => fs.utimesSync(file, new Date(2000, 0, 1), new Date(2000, 0, 1)),
    ]) {
      // GIVEN a cache V8 would accept, but that others may write or that is older than the bundle
      const library = freshPackage();
      synth(library);
      const [cache] = caches(library);
      const file = path.join(library, 'lib', cache);
      spoil(file);
      const before = fs.statSync(file);

      // WHEN the program runs
      expect(readTree(synth(library))).toEqual(expected);

      // THEN the cache was written anew: another file, of mode 0600
      const after = fs.statSync(file);
      expect({ replaced: after.ino !== before.ino, mode: after.mode % 0o1000 }).toEqual({ replaced: true, mode: 0o600 });
    }
  }, HANG_GUARD_MS);

  test('a package folder the user cannot write works as ever, silently, and keeps no cache', () => {
    // GIVEN a package without a cache, in a folder the program's user may not write (as root, the program runs as nobody)
    const library = freshPackage();
    const asNobody = process.getuid?.() === 0;
    if (!asNobody) fs.chmodSync(path.join(library, 'lib'), 0o555);
    const listed = fs.readdirSync(path.join(library, 'lib')).sort();
    // nobody must reach node_modules through the checkout: a clone in a folder of `mktemp -d` (mode 0700) is
    // opened to others for the test's length, and closed again
    const restore = asNobody ? traversableByOthers(ROOT) : () => undefined;

    // WHEN the program runs, twice (synth checks the exit and an empty stderr)
    let outs: Array<Record<string, string>>;
    try {
      outs = [synth(library, { asNobody }), synth(library, { asNobody })].map(readTree);
    } finally {
      restore();
    }

    // THEN the same output, and nothing was added to the folder
    fs.chmodSync(path.join(library, 'lib'), 0o755);
    expect(outs).toEqual([expected, expected]);
    expect(fs.readdirSync(path.join(library, 'lib')).sort()).toEqual(listed);
  }, HANG_GUARD_MS);

  test('with --enable-source-maps the bundle is required as ever, so frames name src/, and no cache is read or written', () => {
    // GIVEN a package without a cache
    const library = freshPackage();

    // WHEN the program runs with Node's source maps, and a program that throws from inside the package
    expect(readTree(synth(library, { args: ['--enable-source-maps'] }))).toEqual(expected);
    const thrown = spawnSync(process.execPath, ['--enable-source-maps', '-e', [
      `const { CapabilityApp } = require(${JSON.stringify(path.join(library, 'lib', 'runtime.js'))});`,
      "try { CapabilityApp.prototype.synth.call(null); } catch (e) { process.stdout.write(e.stack.split('\\n')[1]); }",
    ].join('\n')], { encoding: 'utf-8', env: { ...process.env, CDK_VALIDATION: 'false' } });

    // THEN
    expect(caches(library)).toEqual([]);
    expect(thrown.stdout).toMatch(/^ {4}at synth \(.*\/src\/app\/capability-app\.ts:\d+:\d+\)$/);
  }, HANG_GUARD_MS);
});

test('under a module registry of its own (jest runs this test) the entry file requires the bundle through it: one cdk8s, one realm', () => {
  // GIVEN the built runtime entry and cdk8s, both required through jest's registry
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ApiObject } = require('cdk8s') as typeof import('cdk8s');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Capability, CapabilityApp, RuntimeRouting } = require(path.join(pkg, 'lib', 'runtime.js')) as typeof import('../src/runtime');
  const out = path.join(tempDir(), 'dist');

  // WHEN a program's ApiObject joins the package's RuntimeRouting, and the app synthesizes
  const composition = new CapabilityApp({ outdir: out, lockFile: `${out}.lock.json` });
  const routing = new RuntimeRouting(new Capability(composition, 'web'), 'Routing');
  new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' } });
  composition.synth();

  // THEN the object is written, and the bundle is a module of jest's registry, not of Node's own
  expect(fs.readFileSync(path.join(out, 'runtime', '0001-web-routing.yaml'), 'utf-8')).toMatch(/^kind: ConfigMap$/m);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(Object.keys((require('module') as { _cache: object })._cache)).not.toContain(path.join(pkg, 'lib', 'bundle.js'));
});

/**
 * Gives others the search permission (o+x) on `dir` and each folder above it that lacks it, so that another user
 * reaches files below `dir`; returns what puts the modes back.
 */
function traversableByOthers(dir: string): () => void {
  const changed: Array<[string, number]> = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const mode = fs.statSync(d).mode % 0o10000;
    // the lowest bit of the mode is others' search permission
    if (mode % 2 === 0) {
      fs.chmodSync(d, mode + 1);
      changed.push([d, mode]);
    }
    if (path.dirname(d) === d) break;
  }
  return () => changed.reverse().forEach(([d, mode]) => fs.chmodSync(d, mode));
}
