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

/** `firstProgramFrame` of a stack's lines after its first, read only as far as the frame found. */
function firstProgramFrameIn(lines: Iterable<string>): SourceLocation | undefined {
  for (const line of lines) {
    if (/^\s*at (?:.* \()?eval at /.test(line)) return undefined;
    const m = /^\s*at (?:.*\()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    let file = m[1];
    if (file.startsWith('file://')) file = decodeURIComponent(new URL(file).pathname);
    if (!path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    if (isOwnFile(file)) continue; // this package's own frames are never the creation site a user wants to see
    return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

/** A file as messages show it: relative to the working directory when inside it. */
export function displayFile(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

/**
 * Where the program made a call, as messages show it (`main.ts:12`), read
 * off the stack `holder` captured at the call, on first use and once, as far
 * as that frame (`stackLines`); undefined when no frame of the program is on it.
 */
export function programSite(holder: CapturedStack): () => string | undefined {
  let site: string | null | undefined;
  return () => {
    if (site === undefined) {
      const frame = firstProgramFrameIn(stackLines(holder));
      site = frame ? `${displayFile(frame.file)}:${frame.line}` : null;
    }
    return site ?? undefined;
  };
}
