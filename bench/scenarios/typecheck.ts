/**
 * The `typecheck` scenario: a small runtime-only app run as cdk8s' default
 * `app:` line runs it, `ts-node main.ts` with type-checking, so the time
 * includes type-checking the program against the declaration files it imports.
 * Ours imports `cdk-capability/runtime` from an installed copy of this package
 * (declarations and lib/bundle.js as `npm pack` ships them); bare imports cdk8s alone.
 * Both build the objects of the `small` scenario.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Builder } from './builder';
import { buildPackage, repositoryRoot } from '../package-build';
import { APP_NAMESPACE, IMAGE, PORT, SMALL_APP_GROUP } from './sizes';

/** The environment variable that names the prepared project (`prepareTypecheckApps`). */
export const TYPECHECK_DIR_ENV = 'BENCH_TYPECHECK_DIR';

/** The program of one side: the `small` shape, in a RuntimeRouting of a runtime-only Capability (ours) or a Chart (bare). */
function program(side: 'ours' | 'bare'): string {
  const imports = side === 'ours'
    ? "import { Capability, CapabilityApp, RuntimeRouting } from 'cdk-capability/runtime';\n"
    : "import { App, Chart } from 'cdk8s';\n";
  const chart = side === 'ours'
    ? "const app = new CapabilityApp({ lockFile: process.env.BENCH_LOCK_FILE || 'capability.lock.json' });\nconst chart = new RuntimeRouting(new Capability(app, 'bench'), 'Routing');\n"
    : "const app = new App();\nconst chart = new Chart(app, 'Routing');\n";
  return [
    imports + "import * as kplus from 'cdk8s-plus-30';",
    '',
    chart,
    `for (let a = 0; a < Number(process.env.BENCH_SIZE) / ${SMALL_APP_GROUP}; a++) {`,
    '  const name = `app-${a}`;',
    `  const metadata = { name, namespace: '${APP_NAMESPACE}' };`,
    "  const config = new kplus.ConfigMap(chart, `Config${a}`, { metadata, data: { LOG_LEVEL: 'info', APP: name } });",
    '  const serviceAccount = new kplus.ServiceAccount(chart, `Account${a}`, { metadata });',
    '  const deployment = new kplus.Deployment(chart, `App${a}`, {',
    '    metadata,',
    '    serviceAccount,',
    `    containers: [{ name, image: '${IMAGE}', ports: [{ number: ${PORT}, name: 'http' }], envFrom: [kplus.Env.fromConfigMap(config)] }],`,
    '  });',
    `  new kplus.Service(chart, \`App\${a}Service\`, { metadata, selector: deployment, ports: [{ name: 'http', port: ${PORT}, targetPort: ${PORT} }] });`,
    '}',
    'app.synth();',
    '',
  ].join('\n');
}

/** cdk8s' TypeScript app template's compiler options (`cdk8s init typescript-app`), with a newer lib and target and without `charset` (TypeScript 5.5+ refuses it). */
const TSCONFIG = {
  compilerOptions: {
    alwaysStrict: true,
    declaration: true,
    experimentalDecorators: true,
    inlineSourceMap: true,
    inlineSources: true,
    lib: ['es2022'],
    module: 'CommonJS',
    noEmitOnError: true,
    noFallthroughCasesInSwitch: true,
    noImplicitAny: true,
    noImplicitReturns: true,
    noImplicitThis: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    resolveJsonModule: true,
    strict: true,
    strictNullChecks: true,
    strictPropertyInitialization: true,
    stripInternal: true,
    target: 'ES2022',
    types: ['node'],
  },
  files: ['main.ts'],
};

/** A prepared project for both sides, and how to remove it. */
export interface TypecheckApps {
  readonly env: Record<string, string>;
  dispose(): void;
}

/**
 * Prepares `<dir>/ours` and `<dir>/bare`: each a main.ts, cdk8s' tsconfig and a
 * node_modules with the peers linked from this repository; ours also holds this
 * package as it ships (`buildPackage`: lib/bundle.js and tsc's declarations).
 *
 * @throws when the build fails
 */
export function prepareTypecheckApps(base: string, log: (line: string) => void): TypecheckApps {
  const ROOT = repositoryRoot();
  const dir = fs.mkdtempSync(path.join(base, 'cdk-capability-bench-typecheck-'));
  const started = Date.now();
  try {
    buildPackage(path.join(dir, 'ours', 'node_modules', 'cdk-capability'), { declarations: true });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  for (const side of ['ours', 'bare'] as const) {
    const at = path.join(dir, side);
    // the peers, and for ours the package's own dependencies (a real install puts them there)
    const own = side === 'ours' ? Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')).dependencies ?? {}) : [];
    for (const peer of ['cdk8s', 'constructs', 'cdk8s-plus-30', '@types', ...own]) {
      fs.mkdirSync(path.join(at, 'node_modules'), { recursive: true });
      fs.symlinkSync(path.join(ROOT, 'node_modules', peer), path.join(at, 'node_modules', peer));
    }
    fs.writeFileSync(path.join(at, 'main.ts'), program(side));
    fs.writeFileSync(path.join(at, 'tsconfig.json'), JSON.stringify(TSCONFIG, undefined, 2));
  }
  log(`typecheck: package built into ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { env: { [TYPECHECK_DIR_ENV]: dir }, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `<prepared>/<side>/main.ts` as `ts-node main.ts` does: registers ts-node with type-checking, then requires it. */
function runTypeChecked(side: 'ours' | 'bare'): Builder {
  return (outdir, size, options) => {
    const prepared = process.env[TYPECHECK_DIR_ENV];
    if (!prepared) throw new Error(`typecheck: ${TYPECHECK_DIR_ENV} is not set (prepareTypecheckApps makes the project)`);
    const at = path.join(prepared, side);
    process.env.CDK8S_OUTDIR = outdir;
    process.env.BENCH_SIZE = String(size);
    if (options?.lockFile) process.env.BENCH_LOCK_FILE = options.lockFile;
    process.chdir(at);
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies -- the bench is a dev tool; ts-node runs it as cdk8s' app line does
    (require('ts-node') as typeof import('ts-node')).register({ cwd: at, project: path.join(at, 'tsconfig.json'), transpileOnly: false });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(at, 'main.ts'));
  };
}

/** Our side: `cdk-capability/runtime`. */
export const oursTypecheck: Record<string, Builder> = { typecheck: runTypeChecked('ours') };

/** The bare side: cdk8s alone. */
export const bareTypecheck: Record<string, Builder> = { typecheck: runTypeChecked('bare') };
