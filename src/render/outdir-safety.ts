import * as fs from 'fs';
import * as path from 'path';
import { appendAll } from '../private/append';
import { compareText } from '../private/compare';

/** The file every output folder of this library holds, so a later synth knows the folder is ours to replace. */
export const OUTPUT_MARKER = '.cdk-capability-output';

/**
 * The content of the marker of the first format, which named no files: an
 * outdir a release before the file list wrote holds it (and tests write it as
 * such an outdir's).
 */
export const OUTPUT_MARKER_CONTENT = JSON.stringify({ generator: 'cdk-capability', formatVersion: 1 }) + '\n';

/** The folder of the cloud assembly, whose files (assets of any name, the aws-cdk CLI's read locks) the marker does not list. */
const ASSEMBLY_FOLDER = 'deploy';

/**
 * The content of the marker of an outdir holding `files`: the files a synth
 * wrote there (relative, `/`-separated), but for the cloud assembly's, so the
 * next synth can tell a file someone added (notes, a `.git` folder, a manifest
 * of their own under `runtime/`) from its own output. Deterministic: two synths
 * of one program give byte-identical folders.
 */
export function outputMarkerContent(files: readonly string[]): string {
  const listed = files.filter((f) => f !== OUTPUT_MARKER && !isUnder(ASSEMBLY_FOLDER, f)).sort(compareText);
  return JSON.stringify({ generator: 'cdk-capability', formatVersion: 2, files: listed }) + '\n';
}

/** Paths a synth must never replace, however the outdir is set. */
export interface ProtectedPaths {
  /** The working directory. */
  readonly cwd: string;
  /** Files that must survive the synth: the lock file, the program being run. */
  readonly files: readonly string[];
}

/**
 * The variable `cdk-capability plan` sets to the temporary folder it runs the
 * app into. It wins over the `outdir` prop as well as `CDK8S_OUTDIR`, so a
 * program that sets its outdir (`new CapabilityApp({ outdir: '/abs/dist' })`)
 * still leaves its real output untouched when it is planned.
 */
export const PLAN_OUTDIR_ENV = 'CDK_CAPABILITY_PLAN_OUTDIR';

/**
 * The outdir a `CapabilityApp` writes to: a non-blank `CDK_CAPABILITY_PLAN_OUTDIR`
 * (set by `cdk-capability plan`), else the `outdir` prop, else a non-blank
 * `CDK8S_OUTDIR`, else `dist`. A blank `CDK8S_OUTDIR` (set but empty, as a
 * shell `CDK8S_OUTDIR= cmd` leaves it) counts as unset: cdk8s itself would
 * keep `''`, which is the working directory.
 */
export function resolveOutdir(prop: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const planned = env[PLAN_OUTDIR_ENV];
  if (planned !== undefined && planned.trim() !== '') return planned;
  if (prop !== undefined) return prop;
  const fromEnv = env.CDK8S_OUTDIR;
  return fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : 'dist';
}

/**
 * Why synth must not replace `outdir`, or undefined when it may.
 *
 * Synth replaces its outdir as a whole, so the outdir must be a folder this
 * library wrote (it holds `OUTPUT_MARKER`) holding nothing else than what the
 * marker lists, an empty folder, or absent; and it must not be or contain the
 * working directory, the lock file or the program.
 *
 * @param outdir the absolute outdir
 */
export function outdirProblem(outdir: string, protectedPaths: ProtectedPaths): string | undefined {
  const target = path.resolve(outdir);
  const cwd = realOrSelf(protectedPaths.cwd);
  const real = realOrSelf(target);
  if (contains(real, cwd)) {
    return real === cwd
      ? `the outdir '${outdir}' is the working directory, which synth would replace as a whole`
      : `the outdir '${outdir}' contains the working directory '${protectedPaths.cwd}', which synth would replace as a whole`;
  }
  for (const file of protectedPaths.files) {
    if (contains(real, realOrSelf(path.resolve(file)))) return `the outdir '${outdir}' contains '${file}', which synth would delete with the previous output`;
  }
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `the outdir '${outdir}' cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (stat.isSymbolicLink()) return `the outdir '${outdir}' is a symbolic link; synth replaces only a real folder it wrote`;
  if (!stat.isDirectory()) return `the outdir '${outdir}' is a file, not a folder`;
  const entries = fs.readdirSync(target);
  if (entries.length === 0) return undefined;
  const written = entries.includes(OUTPUT_MARKER) ? markedFiles(target) : undefined;
  let foreign: string[];
  if (Array.isArray(written)) {
    const ours = new Set(written);
    foreign = filesUnder(target).filter((f) => f !== OUTPUT_MARKER && !isUnder(ASSEMBLY_FOLDER, f) && !ours.has(f));
    appendAll(foreign, emptyForeignFolders(target, written, foreign));
  } else {
    foreign = entries.filter((e) => e !== OUTPUT_MARKER && !isOurEntry(target, e));
    if (foreign.length === 0 && (written === 'unlisted' || isEarlierOutput(target))) return undefined;
    // a lookalike of our output without our marker or our plan: whose it is, nothing says
    if (foreign.length === 0) foreign = entries;
  }
  if (foreign.length === 0) return undefined;
  const listed = foreign.sort(compareText);
  const shown = listed.slice(0, 3).map((e) => `'${e}'`).join(', ');
  return `the outdir '${outdir}' holds files this library did not write (${shown}${listed.length > 3 ? `, and ${listed.length - 3} more` : ''}), `
    + 'and synth replaces the outdir as a whole: move them out of it';
}

/**
 * The files the marker in `dir` lists; `'unlisted'` for a marker of the first
 * format (this library's, naming no files); undefined when the marker is not
 * this library's.
 */
function markedFiles(dir: string): readonly string[] | 'unlisted' | undefined {
  let marker: { generator?: unknown; files?: unknown } | null;
  try {
    marker = JSON.parse(fs.readFileSync(path.join(dir, OUTPUT_MARKER), 'utf-8'));
  } catch {
    return undefined;
  }
  if (marker?.generator !== 'cdk-capability') return undefined;
  const files = marker.files;
  if (Array.isArray(files) && files.every((f) => typeof f === 'string')) return files as string[];
  return 'unlisted';
}

/** Every file (anything not a folder: symbolic links too) below `dir`, relative and `/`-separated. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    // `parentPath` from Node 20.12, `path` before it
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'));
}

/**
 * The folders under `dir` that someone made and that hold no file (`mkdir dist/.git`), each as `name/`: no
 * file of ours lies in them, and no foreign file names them already; a folder inside one is not named again.
 * The cloud assembly's folder is aws-cdk's, left alone.
 */
function emptyForeignFolders(dir: string, ours: readonly string[], foreignFiles: readonly string[]): string[] {
  const oursFolders = new Set<string>();
  for (const file of ours) for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) oursFolders.add(file.slice(0, i));
  const found: string[] = [];
  for (const d of foldersUnder(dir)) {
    if (d === ASSEMBLY_FOLDER || isUnder(ASSEMBLY_FOLDER, d) || oursFolders.has(d)) continue;
    if (foreignFiles.some((f) => isUnder(d, f)) || found.some((f) => isUnder(f, d))) continue;
    found.push(d);
  }
  return found.map((d) => `${d}/`);
}

/** The folders under `dir`, as relative paths with `/`, each after the folder that holds it. */
function foldersUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'))
    .sort(compareText);
}

/** True when the relative path `file` lies in the folder `folder` at the top. */
function isUnder(folder: string, file: string): boolean {
  return file.startsWith(`${folder}/`);
}

/** What a synth writes at the top of its outdir: a file, or a folder and what the folder may hold. */
const OUR_ENTRIES: Readonly<Record<string, 'file' | RegExp>> = {
  'plan.json': 'file',
  'interface.json': 'file',
  'manifests.yaml': 'file', // under `cdk8s synth --stdout`
  'runtime': /\.yaml$/,
  'audit': /^objects\.list$/,
  'gitops': /\.yaml$/,
  'deploy': /./, // a cloud assembly holds assets of any name
};

/**
 * The output folder of a synth that `file` lies in, or undefined: the nearest
 * folder above `file` that holds `OUTPUT_MARKER` with this library's content,
 * where `file` is at its top (`manifests.yaml` under `cdk8s synth --stdout`)
 * or inside a folder a synth writes (`runtime/`, `audit/`, `gitops/`, `deploy/`). So a
 * folder of someone else's inside an output folder is not taken for it.
 *
 * @param file a file, such as a manifest the cdk8s CLI lists
 */
export function outputFolderOf(file: string): string | undefined {
  const absolute = path.resolve(file);
  for (let dir = path.dirname(absolute); ; dir = path.dirname(dir)) {
    const [top, ...below] = path.relative(dir, absolute).split(path.sep);
    const ours = below.length === 0 || (Object.prototype.hasOwnProperty.call(OUR_ENTRIES, top) && OUR_ENTRIES[top] !== 'file');
    if (ours && holdsMarker(dir)) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** True when `dir` holds the marker a synth writes, with this library's content. */
function holdsMarker(dir: string): boolean {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, OUTPUT_MARKER), 'utf-8'))?.generator === 'cdk-capability';
  } catch {
    return false;
  }
}

/**
 * True when `entry` of `dir` is a file or folder a synth writes there, of the
 * right type, and (for `runtime/` and `gitops/`) holding only the files a synth
 * writes in it.
 */
function isOurEntry(dir: string, entry: string): boolean {
  const kind = OUR_ENTRIES[entry];
  if (kind === undefined || !Object.prototype.hasOwnProperty.call(OUR_ENTRIES, entry)) return false;
  const stat = fs.lstatSync(path.join(dir, entry));
  if (kind === 'file') return stat.isFile();
  if (!stat.isDirectory()) return false;
  const inside = fs.readdirSync(path.join(dir, entry), { recursive: true, withFileTypes: true });
  return inside.every((e) => e.isDirectory() || (e.isFile() && kind.test(e.name)));
}

/**
 * An output of a release before the marker existed: `plan.json` and
 * `interface.json` in our formats, beside nothing but what a synth writes.
 * Recognized so that upgrading this library does not refuse the outdir it
 * wrote itself; a lookalike that also holds someone's files is refused.
 */
function isEarlierOutput(dir: string): boolean {
  try {
    const plan = JSON.parse(fs.readFileSync(path.join(dir, 'plan.json'), 'utf-8'));
    const artifact = JSON.parse(fs.readFileSync(path.join(dir, 'interface.json'), 'utf-8'));
    return plan?.version === 1 && Array.isArray(plan.steps) && artifact?.formatVersion === 1 && Array.isArray(artifact.interfaces);
  } catch {
    return false;
  }
}

/** True when `inner` is `outer` or lies below it. */
function contains(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of `p`, or of its closest existing ancestor joined with the rest. */
function realOrSelf(p: string): string {
  const absolute = path.resolve(p);
  try {
    return fs.realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realOrSelf(parent), path.basename(absolute));
  }
}
