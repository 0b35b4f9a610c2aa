import * as fs from 'fs';
import * as path from 'path';
import type { IConstruct } from 'constructs';
import { isOwnFile } from './package-root';
import { CapturedStack, stackLines } from './stack-lines';

/** Where a construct was created: a file of the program, 1-based line and column. */
export interface SourceLocation {
  /** The absolute file. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** When the construct was created, as a sequence number of the run: a larger one is newer. */
  readonly order?: number;
  /**
   * The installed package (in `node_modules`) whose code, called from this line, created the construct, when
   * that is no construct library of its own (a capability package such as `@acme/queue-worker-capability`).
   */
  readonly package?: InstalledPackage;
}

/** A package in `node_modules`, by its name and the version its package.json gives. */
export interface InstalledPackage {
  /** `@acme/queue-worker-capability`. */
  readonly name: string;
  /** `2.1.0`; absent when its package.json cannot be read. */
  readonly version?: string;
}

/** Frames kept per construct: enough to climb out of cdk8s-plus and aws-cdk constructors into the program. */
const FRAMES = 20;

const sites = new WeakMap<object, { stack?: string; order?: number }>();
let created = 0;
const patched = new WeakSet<object>();

/**
 * Starts recording where each construct below `root` is created: wraps the
 * `addChild` of the `constructs` copy `root` uses, so every construct created
 * from now on keeps an unformatted stack of at most 20 frames
 * (`Error.captureStackTrace`, a few microseconds; V8 formats it only when read).
 * Called only when a report asks for source locations.
 */
export function recordCreationSites(root: IConstruct): void {
  const proto = Object.getPrototypeOf(root.node) as { addChild?: (child: IConstruct, name: string) => void };
  if (patched.has(proto) || typeof proto.addChild !== 'function') return;
  patched.add(proto);
  const original = proto.addChild;
  proto.addChild = function addChild(this: unknown, child: IConstruct, name: string) {
    const holder: { stack?: string; order?: number } = { order: created++ };
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = FRAMES;
    Error.captureStackTrace(holder, addChild);
    Error.stackTraceLimit = limit;
    sites.set(child, holder);
    return original.call(this, child, name);
  };
}

/**
 * The program line that created `construct`, or the closest enclosing
 * construct whose creation site is known: the first stack frame outside
 * `node_modules`, Node's internals and this package.
 */
export function creationSite(construct: IConstruct): SourceLocation | undefined {
  for (const scope of [...construct.node.scopes].reverse()) {
    const recorded = sites.get(scope);
    const site = recorded?.stack === undefined ? undefined : firstProgramFrame(recorded.stack);
    if (site) return { ...site, order: sites.get(construct)?.order ?? recorded?.order };
  }
  return undefined;
}

/**
 * The first frame of a V8 stack in a file of the program; undefined when code
 * with no file of its own (`eval`, `new Function`) comes first.
 */
export function firstProgramFrame(stack: string): SourceLocation | undefined {
  return firstProgramFrameIn(stack.split('\n').slice(1));
}

/**
 * `firstProgramFrame` of a stack's lines after its first, read only as far as the frame found; with the package
 * of the last frame in `node_modules` before it (the one the program called) when that is no construct library.
 */
function firstProgramFrameIn(lines: Iterable<string>): SourceLocation | undefined {
  let installed: string | undefined;
  for (const line of lines) {
    if (/^\s*at (?:.* \()?eval at /.test(line)) return undefined;
    const m = /^\s*at (?:.*\()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    let file = m[1];
    if (file.startsWith('file://')) file = decodeURIComponent(new URL(file).pathname);
    if (!path.isAbsolute(file)) continue;
    if (file.includes(`${path.sep}node_modules${path.sep}`)) {
      installed = file;
      continue;
    }
    if (isOwnFile(file)) continue; // this package's own frames are never the creation site a user wants to see
    const pkg = installed === undefined || isOwnFile(installed) ? undefined : installedPackage(installed);
    return { file, line: Number(m[2]), column: Number(m[3]), ...(pkg ? { package: pkg } : {}) };
  }
  return undefined;
}

/** Packages whose frames say nothing of who made a construct: the construct libraries a program calls directly. */
const CONSTRUCT_LIBRARIES = /^(constructs|cdk8s|cdk8s-plus-\d+|aws-cdk-lib|cdk-capability|@aws-cdk\/.+)$/;

const packages = new Map<string, InstalledPackage>();

/** The package in `node_modules` a file belongs to, read from its package.json once; undefined for a construct library. */
export function installedPackage(file: string): InstalledPackage | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker) + marker.length;
  const parts = file.slice(at).split(path.sep);
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  if (CONSTRUCT_LIBRARIES.test(name)) return undefined;
  const root = path.join(file.slice(0, at), ...name.split('/'));
  let found = packages.get(root);
  if (!found) {
    let version: unknown;
    try {
      version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).version;
    } catch {
      version = undefined;
    }
    found = typeof version === 'string' ? { name, version } : { name };
    packages.set(root, found);
  }
  return found;
}

/** A file as messages show it: relative to the working directory when inside it. */
export function displayFile(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

/** Where the program made a call, as messages show it, and the installed package whose code made it, when not the program. */
export interface ProgramCallSite {
  /** The program's line that made the call, or that called the package that made it: `main.ts:12`. */
  readonly site: string;
  /** The installed package (no construct library) whose code, called from `site`, made the call. */
  readonly package?: InstalledPackage;
}

/**
 * Where the program made a call, as messages show it (`main.ts:12`), read
 * off the stack `holder` captured at the call, on first use and once, as far
 * as that frame (`stackLines`); undefined when no frame of the program is on it.
 */
export function programSite(holder: CapturedStack): () => string | undefined {
  const call = programCallSite(holder);
  return () => call()?.site;
}

/**
 * `programSite`, with the installed package whose code made the call when the program's line only reached it (a
 * capability package from npm that calls `addJsonPatch` in its constructor, which the program's line 5 calls).
 */
export function programCallSite(holder: CapturedStack): () => ProgramCallSite | undefined {
  let site: ProgramCallSite | null | undefined;
  return () => {
    if (site === undefined) {
      const frame = firstProgramFrameIn(stackLines(holder));
      site = frame ? { site: `${displayFile(frame.file)}:${frame.line}`, ...(frame.package ? { package: frame.package } : {}) } : null;
    }
    return site ?? undefined;
  };
}

/** A package as messages name it: `@acme/queue-worker-capability@2.1.0` (its name alone when its version is unknown). */
export function packageText(pkg: InstalledPackage): string {
  return `${pkg.name}${pkg.version !== undefined ? `@${pkg.version}` : ''}`;
}

/**
 * Where a call was made, as messages say it after its API: `at main.ts:12` for the program's own call;
 * `inside the installed package @acme/queue-capability@1.0.0, reached from main.ts:5` for a call an installed
 * package's code made, the program's line being the one that called into the package.
 */
export function callPlace(site: string, pkg: InstalledPackage | undefined): string {
  return pkg ? `inside the installed package ${packageText(pkg)}, reached from ${site}` : `at ${site}`;
}
