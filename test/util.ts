import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CapabilityApp, Plan } from '../src';

const created: string[] = [];

/**
 * The arguments of `node` that run a TypeScript file as `ts-node --transpile-only` does, faster
 * (test/support/transpile-hook.js): `spawn(process.execPath, [...NODE_TS, 'main.ts'])`.
 */
export const NODE_TS: readonly string[] = ['-r', path.join(__dirname, 'support', 'transpile-hook.js')];

/** The same as one command line, for an `--app` or a cdk8s.yaml `app`: `${NODE_TS_COMMAND} main.ts`. */
export const NODE_TS_COMMAND = [process.execPath, ...NODE_TS].map((a) => JSON.stringify(a)).join(' ');

/**
 * How long a test may wait for a child process (tsc, npm, the cdk8s or AWS CDK
 * CLI) before it counts as hung. A guard against a hang, never a time budget:
 * on a loaded 2-core machine a step can take many times its usual time, and a
 * slow run must still pass (issue 17).
 */
export const HANG_GUARD_MS = 15 * 60_000;

/** A fresh temporary folder, removed by `removeTempDirs()`. */
export function tempDir(prefix = 'cdk-capability-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every folder `tempDir()` created; call it from `afterAll`. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A `CapabilityApp` whose outdir is a fresh temporary folder (never the repository). */
export function newApp(outdir = path.join(tempDir(), 'dist')): CapabilityApp {
  return new CapabilityApp({ outdir });
}

/**
 * Every file under `dir`, recursively, as a map from the path relative to
 * `dir` (with `/`) to its exact content, sorted by path: the text when the
 * bytes are valid UTF-8 (readable diffs), else `base64:` and the bytes.
 * Folders are listed with the value `<dir>` so an empty folder also shows.
 */
export function readTree(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (relative: string): void => {
    const absolute = path.join(dir, relative);
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        tree[`${child}/`] = '<dir>';
        walk(child);
      } else {
        const bytes = fs.readFileSync(path.join(dir, child));
        const text = bytes.toString('utf-8');
        tree[child] = Buffer.from(text, 'utf-8').equals(bytes) ? text : `base64:${bytes.toString('base64')}`;
      }
    }
  };
  walk('');
  return tree;
}

/** A ConfigMap, the plainest object: `namespace` omitted leaves it unset. */
export function configMap(scope: Construct, id: string, name: string, namespace?: string): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: namespace === undefined ? { name } : { name, namespace },
  });
}

/** A plan step reduced to what ordering tests compare. */
export interface StepSummary {
  readonly id: string;
  readonly objects?: string[];
  readonly dependsOn: Array<{ step: string; reasons: string[] }>;
}

/** The steps of a plan reduced to what ordering tests compare: id, objects and dependencies. */
export function stepSummary(plan: Plan | undefined): StepSummary[] {
  if (!plan) throw new Error('the synth was refused: no plan');
  return plan.steps.map((s) => ({ id: s.id, objects: s.objects, dependsOn: s.dependsOn }));
}

/** The ids of a plan's steps, in order. */
export function stepIds(plan: Plan | undefined): string[] {
  if (!plan) throw new Error('the synth was refused: no plan');
  return plan.steps.map((s) => s.id);
}

/** A namespaced CRD of `example.com/Widget`, as several tests declare it. */
export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

/** Declares `WIDGET_CRD` in `scope`. */
export function widgetCrd(scope: Construct, id: string): ApiObject {
  return new ApiObject(scope, id, structuredClone(WIDGET_CRD));
}

/**
 * The entries of `parent`, without this process's own run folders (`.<outdir>.run-<pid>-*`)
 * as long as they hold only what a finished write keeps in them (the owner file and the
 * cloud assemblies, removed when the process exits): what a write left behind.
 */
export function entriesBeside(parent: string): string[] {
  return fs.readdirSync(parent).filter((e) => {
    if (!new RegExp(`^\\..*\\.run-${process.pid}-[0-9a-f]+$`).test(e)) return true;
    return fs.readdirSync(path.join(parent, e)).some((inner) => inner !== 'owner.json' && inner !== 'assemblies');
  }).sort();
}

/** Runs `fn`, capturing what it writes to stdout and stderr meanwhile. */
export function capturingOutput<T>(fn: () => T): { result: T; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const result = fn();
    return { result, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/**
 * A namespaced CRD of `example.com/<kind>` (plural: lowercase kind plus `s`) whose only version's `spec`
 * has the given properties: the list, map and set markers a test wants the topology to read.
 */
export function crdWithSpec(kind: string, specProperties: Record<string, unknown>): Record<string, any> {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      names: { kind, plural },
      scope: 'Namespaced',
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: specProperties } } } },
      }],
    },
  };
}

/**
 * The call site messages print for a call on the line after the one that
 * calls this (`test/write-paths.test.ts:42`): a file relative to the working
 * directory and a line.
 *
 * @example
 * const at = siteOfNextLine();
 * ApiObject.of(web).addJsonPatch(JsonPatch.replace('/spec/replicas', 3));
 */
export function siteOfNextLine(): string {
  const frame = new Error().stack!.split('\n')[2];
  const m = /\((.+):(\d+):\d+\)$/.exec(frame) ?? /at (.+):(\d+):\d+$/.exec(frame);
  if (!m) throw new Error(`no file and line in the stack frame '${frame}'`);
  return `${path.relative(process.cwd(), m[1]).split(path.sep).join('/')}:${Number(m[2]) + 1}`;
}

/** Synthesizes an example's main.ts in this process into a fresh outdir (as `cdk8s synth` would, through CDK8S_OUTDIR). */
export function synthExample(name: string): string {
  const outdir = path.join(tempDir(), 'dist');
  const previous = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = outdir;
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the example is a program: importing it runs its synth
      require(path.join(__dirname, '..', 'examples', name, 'main.ts'));
    });
  } finally {
    if (previous === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = previous;
  }
  return outdir;
}

/** What `make` throws; fails the test when it throws nothing. */
export function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}

/** The closing lines of `plan --teardown` when every step runs after applying the release, as it prints them. */
export const TEARDOWN_AFTER_APPLY: readonly string[] = [
  'Run the steps in order, each after the one before has finished. Until this release is applied the',
  'previous one runs, and may still use what the steps after applying delete (a workload reading a',
  'removed Secret, a stack importing a removed stack\'s export): run those only once cdk-capability',
  'apply has finished, or your GitOps engine has applied this release.',
];

/** The lines after `TEARDOWN_AFTER_APPLY` when a runtime step runs after applying a release with Flux output (`GitOps.flux`). */
export const TEARDOWN_FLUX_PRUNE: readonly string[] = [
  'With Flux (prune: true), Flux prunes the removed runtime objects itself as it applies this release,',
  'each Kustomization on its own: not in this order, and maybe before the Kustomizations that stop',
  'using them have applied it. The runtime steps then delete what is left.',
];

/**
 * The line of `file` that is `statement` (once, indentation aside), as a message's `file:line` names it; a test
 * fails when the statement is not there exactly once.
 */
export function lineOf(file: string, statement: string): number {
  const lines = fs.readFileSync(file, 'utf-8').split('\n');
  const found = lines.flatMap((l, i) => (l.trim() === statement ? [i + 1] : []));
  expect(found).toHaveLength(1);
  return found[0];
}
