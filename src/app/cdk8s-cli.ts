import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileContent, textOf } from '../render/file-content';
import type { OutputTree } from '../render/output-tree';
import type { RuntimeFile } from '../render/plan-steps';

/**
 * How the cdk8s CLI runs the app: `outdir` for `cdk8s synth [--output dir]`,
 * `stdout` for `cdk8s synth --stdout` (`-p`); undefined when the app runs on
 * its own (`node main.js`, a test, `cdk-capability plan`).
 */
export type Cdk8sCliMode = 'outdir' | 'stdout' | undefined;

/**
 * Tells whether the cdk8s CLI runs the app, and how.
 *
 * cdk8s-cli (lib/util.js `synthApp`) starts the app with `CDK8S_OUTDIR` and
 * always sets `CDK8S_RECORD_CONSTRUCT_METADATA` (`true` or `false`); nothing
 * else sets the second variable. For `--stdout` the outdir is a fresh
 * `mkdtemp(<tmpdir>/cdk8s-)` folder, empty when the app starts; for an output
 * folder the CLI deleted it before it started the app.
 *
 * @param outdir the app's outdir
 */
export function cdk8sCliMode(outdir: string, env: NodeJS.ProcessEnv = process.env): Cdk8sCliMode {
  const fromCli = env.CDK8S_OUTDIR;
  if (fromCli === undefined || fromCli.trim() === '' || env.CDK8S_RECORD_CONSTRUCT_METADATA === undefined) return undefined;
  const target = path.resolve(outdir);
  if (target !== path.resolve(fromCli)) return undefined;
  return isCliTempFolder(target) ? 'stdout' : 'outdir';
}

function isCliTempFolder(target: string): boolean {
  if (!/^cdk8s-[A-Za-z0-9]{6}$/.test(path.basename(target))) return false;
  const parent = path.dirname(target);
  if (parent !== path.resolve(os.tmpdir()) && realOrSelf(parent) !== realOrSelf(os.tmpdir())) return false;
  try {
    return fs.statSync(target).isDirectory() && fs.readdirSync(target).length === 0;
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * The output for `cdk8s synth --stdout`, which prints every `*.yaml` under the
 * outdir (recursively, in no defined order, then deletes the folder): every
 * runtime object once, in apply order, in the one `.yaml` file
 * `manifests.yaml`. The kustomization, the GitOps folders (which repeat the
 * runtime objects) and the cloud assembly are left out; `plan.json` and
 * `interface.json` stay.
 */
export function stdoutTree(output: OutputTree, runtimeFiles: readonly RuntimeFile[]): OutputTree {
  const files = new Map<string, FileContent>();
  for (const [file, content] of output.files) {
    if (!file.includes('/') && !file.endsWith('.yaml')) files.set(file, content);
  }
  const manifests = runtimeFiles.map((f) => textOf(output.files.get(f.file) ?? '')).filter((c) => c !== '');
  if (manifests.length > 0) files.set('manifests.yaml', manifests.map((c) => (c.endsWith('\n') ? c : `${c}\n`)).join('---\n'));
  return { files, copies: new Map() };
}

/**
 * After a refusal under the cdk8s CLI: leaves the outdir absent, so the CLI
 * ends with its one line `ERROR: synthesis failed, app expected to create
 * "<outdir>"` and exit code 1, where a non-zero exit of the app would make it
 * print its own stack trace. Removes the outdir only when it is empty (the
 * CLI's `--stdout` folder).
 *
 * @returns true when the outdir is absent now
 */
export function leaveOutdirAbsent(outdir: string): boolean {
  try {
    fs.rmdirSync(outdir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return false;
  }
  return !fs.existsSync(outdir);
}
