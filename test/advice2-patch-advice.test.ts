/**
 * The advice of the patch-values refusal (`CAP010`: a JSON patch's text where a cdk8s-plus class's schema has a
 * Quantity) is code that compiles and keeps the value: the example app of docs/package-releases.md, with the
 * worker's memory limit patched as the text '256Mi', is refused naming `k8s.Quantity.fromString('256Mi')` and
 * `import { k8s } from 'cdk8s-plus-30'`; that import and that expression, put in the program as the message
 * gives them, type-check with the TypeScript compiler and synthesize the limit.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as jsyaml from 'js-yaml';
import * as ts from 'typescript';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'published-construct', 'app', 'main.ts');
const ADVISED = "k8s.Quantity.fromString('256Mi')";

/**
 * The example app as a program in a folder of its own (its imports of the repository made absolute, the
 * repository's node_modules beside it), with its patched memory limit given as `memory` and its cdk8s-plus
 * import as `plusImport`.
 */
function program(memory: string, plusImport: string): { dir: string; file: string } {
  let code = fs.readFileSync(EXAMPLE, 'utf-8');
  const edits: Array<[string, string]> = [
    ["import { k8s } from 'cdk8s-plus-30';\n", plusImport === '' ? '' : `${plusImport};\n`],
    [`memory: ${ADVISED}`, `memory: ${memory}`],
    ["from '../../../src'", `from ${JSON.stringify(path.join(ROOT, 'src'))}`],
    ["from '../queue-worker/src'", `from ${JSON.stringify(path.join(ROOT, 'examples', 'published-construct', 'queue-worker', 'src'))}`],
  ];
  for (const [from, to] of edits) {
    expect({ from, occurrences: code.split(from).length - 1 }).toEqual({ from, occurrences: 1 });
    code = code.replace(from, to);
  }
  const dir = tempDir();
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'main.ts'), code);
  return { dir, file: path.join(dir, 'main.ts') };
}

function run(dir: string): { status: number | null; stderr: string; outdir: string } {
  const outdir = path.join(dir, 'dist');
  const env = { ...process.env, CDK8S_OUTDIR: outdir };
  const r = spawnSync(process.execPath, [...NODE_TS, 'main.ts'], { cwd: dir, env, encoding: 'utf-8', timeout: HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, stderr: r.stderr, outdir };
}

/**
 * tsc's diagnostics of a program's file, with the repository's compiler options, one line each: the options' and
 * the global ones, and the file's own, syntax and types (the types it uses from src/ read, not src/ checked again:
 * the test task's tsc does that).
 */
function typeErrors(file: string): string[] {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const compiled = ts.createProgram([file], { ...options, noEmit: true, rootDir: undefined, outDir: undefined, skipLibCheck: true });
  return ts.getPreEmitDiagnostics(compiled, compiled.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

let refused: ReturnType<typeof run> | undefined;

/** The run of the example app with the limit as the text '256Mi' (run once, read by the tests of its refusal). */
function refusedRun(): ReturnType<typeof run> {
  return (refused ??= run(program("'256Mi'", '').dir));
}

describe("the advice for a quantity patched as text on a cdk8s-plus object (the example app's worker memory limit)", () => {
  test("names k8s.Quantity.fromString('256Mi') and import { k8s } from 'cdk8s-plus-30', the Quantity alone (the field takes a quantity)", () => {
    // GIVEN the app with the memory limit as the text '256Mi'
    // WHEN it runs
    const r = refusedRun();

    // THEN the refusal names the class's form as code, and only the Quantity
    expect(r.status).toBe(1);
    const line = r.stderr.split('\n').find((l) => l.startsWith('CAP010 '));
    expect(line).toEqual(
      "CAP010 invalid object: 'orders/Routing/Worker-acme' (addJsonPatch at main.ts:18) writes \"256Mi\" at "
      + "'spec.template.spec.containers[name=worker].resources.limits.memory', which the output has as null: its class, KubeDeployment, "
      + 'serializes the object after its patches by its schema, which drops a key it lacks and reads a Quantity or an IntOrString by its '
      + "'value' (text or a number there is lost). Write the field with a Contribution (new Contribution(scope, id, { target, fields }): "
      + "its fields are merged into the rendered object as written), or give the patch the class's form, k8s.Quantity.fromString('256Mi') "
      + "(import { k8s } from 'cdk8s-plus-30'), or check the key's spelling.",
    );
  });

  test('the import and the expression the message gives, put in the program, compile with tsc and write the limit', () => {
    // GIVEN the refusal's advice
    const advice = /give the patch the class's form, (.+?) \((import \{ .+? \} from '[^']+')\)/.exec(refusedRun().stderr);
    expect(advice?.slice(1)).toEqual([ADVISED, "import { k8s } from 'cdk8s-plus-30'"]);

    // WHEN the program takes it
    const { dir, file } = program(advice![1], advice![2]);

    // THEN it type-checks, runs, and the Deployment has the limit
    expect(typeErrors(file)).toEqual([]);
    const r = run(dir);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    const objects = fs.readdirSync(path.join(r.outdir, 'runtime')).filter((f) => /^\d{4}-.*\.yaml$/.test(f))
      .flatMap((f) => jsyaml.loadAll(fs.readFileSync(path.join(r.outdir, 'runtime', f), 'utf-8')) as any[]);
    const worker = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.startsWith('orders-routing-worker-acme'));
    expect(worker.spec.template.spec.containers[0].resources).toEqual({ limits: { memory: '256Mi' } });
  });
});

describe('the class form the advice names follows the field', () => {
  function refusals(build: (routing: RuntimeRouting) => void): string[] {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    build(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'));
    return app.synthesize().violations.map((v) => v.message.slice(v.message.indexOf(' writes ')));
  }

  test("an int-or-string (a Service's targetPort) given as a number: k8s.IntOrString.fromNumber alone", () => {
    const found = refusals((routing) => {
      const svc = new kplus.Service(routing, 'Svc', { ports: [{ port: 80 }] });
      ApiObject.of(svc).addJsonPatch(JsonPatch.replace('/spec/ports/0/targetPort', 8080));
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/, or give the patch the class's form, k8s\.IntOrString\.fromNumber\(8080\) \(import \{ k8s \} from 'cdk8s-plus-30'\), or check the key's spelling\.$/);
  });

  test('a key the schema lacks (a misspelled minReadySeconds) is told to check its spelling, with no Quantity or IntOrString', () => {
    const found = refusals((routing) => {
      const db = new kplus.StatefulSet(routing, 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
      ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/minReadySecnds', 5));
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^ writes 5 at 'spec\.minReadySecnds', which the output leaves out: .*merged into the rendered object as written\), or check the key's spelling\.$/);
  });
});
