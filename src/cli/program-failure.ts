import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';
import type { ReportedLocation } from './report-findings';

/**
 * How the app `plan` ran failed to give a plan: it ended with an error before its synth wrote a report (a thrown
 * `Error` or other value, a syntax or type error of its entry, a module not found, an exit code without a message),
 * it synthesized and then failed, or it ended well without a report (its root is no `CapabilityApp`); or it was still
 * running when `plan --timeout` ran out, and was stopped.
 */
export type ProgramFailureKind = 'before-synth' | 'after-synth' | 'no-report' | 'timeout';

/** One frame of the program's stack, as Node printed it. */
export interface ProgramFrame {
  /** The function, as the frame names it (`Object.<anonymous>`), when it names one. */
  readonly function?: string;
  /** The file (absolute, or `node:internal/...`), as the frame names it. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** What `plan` knows of an app that failed: how it ended, its own message, and where in the program. */
export interface ProgramFailure {
  /** When it failed. */
  readonly kind: ProgramFailureKind;
  /** The command that ran the app (`--app`, or cdk8s.yaml's `app`). */
  readonly app: string;
  /** Its exit code, or the signal that ended it. */
  readonly exit: { readonly code: number } | { readonly signal: string };
  /**
   * The program's own error as it printed it on stderr, without the stack: `Error: Port 8080 is not exposed by
   * any container`, a thrown value (`boom`), a compiler's diagnostics; empty when it printed nothing.
   */
  readonly message: string;
  /**
   * The program's frame, as an absolute file: the file and line a compiler's diagnostic names, else the first
   * frame of the stack outside `node_modules` and Node's internals, else the line Node printed above the error
   * (a syntax error's, a thrown non-Error's); undefined when none names a file of the app.
   */
  readonly site?: ProgramFrame;
  /** The stack frames Node printed, in order (none for a thrown non-Error or a compiler's error). */
  readonly frames: readonly ProgramFrame[];
  /** For `timeout`: the `--timeout` it ran out of, as given (`10m`). */
  readonly timeout?: string;
  /** For `timeout`: true when it had synthesized (written its report) and then kept running. */
  readonly synthesized?: boolean;
}

/** The `Node.js v20.20.2` line Node ends an uncaught exception's report with. */
const NODE_TRAILER = /\n*Node\.js v\d+\.\d+\.\d+\s*$/;
/** Node's hint under a thrown non-Error value. */
const TRACE_HINT = /^\(Use `node --trace-uncaught \.\.\.` to show where the exception was thrown\)$/;
/** A frame line: `    at f (/app/main.ts:3:9)`, `    at /app/main.ts:3:9`, `    at node:internal/main/run_main_module:28:49`. */
const FRAME = /^\s+at (?:(.*?) \()?((?:[A-Za-z]:\\|\/|file:\/\/|node:|internal\/)[^()]*?):(\d+):(\d+)\)?(?: \{)?$/;
/** Any stack line, framed or not (`    at async Promise.all (index 0)`). */
const STACK_LINE = /^\s+at \S/;

/**
 * What an app that ended without a plan printed, read as Node prints an uncaught exception: the error's message
 * (its first lines, up to the stack), the stack's frames, and the program's frame.
 *
 * @param kind when it failed
 * @param app the command that ran it
 * @param exit its exit code or signal
 * @param stderr what it printed on stderr
 * @param cwd the folder it ran in, against which a compiler names its files
 */
export function programFailure(kind: ProgramFailureKind, app: string, exit: ProgramFailure['exit'], stderr: string, cwd: string): ProgramFailure {
  const lines = stderr.replace(/\r\n/g, '\n').replace(NODE_TRAILER, '').split('\n');
  // Node's header above an uncaught exception: `<file>:<line>`, the source line, a caret under the column
  const header = lastHeader(lines);
  const text = header ? lines.slice(header.index + 3) : lines;
  const firstFrame = text.findIndex((l) => STACK_LINE.test(l));
  const messageLines = (firstFrame < 0 ? text : text.slice(0, firstFrame)).filter((l) => !TRACE_HINT.test(l));
  const message = trimLines(messageLines).join('\n');
  const frames: ProgramFrame[] = [];
  if (firstFrame >= 0) {
    for (const l of text.slice(firstFrame)) {
      if (!STACK_LINE.test(l)) break;
      const f = FRAME.exec(l);
      if (f) frames.push({ ...(f[1] ? { function: f[1] } : {}), file: fileOf(f[2]), line: Number(f[3]), column: Number(f[4]) });
    }
  }
  const site = diagnosticSite(message, cwd) ?? frames.find(isProgramFile) ?? (header && isProgramFile(header.frame) ? header.frame : undefined);
  return { kind, app, exit, message, ...(site ? { site } : {}), frames };
}

/** Node's last `<file>:<line>` header with its source line and caret, and the frame it names. */
function lastHeader(lines: readonly string[]): { index: number; frame: ProgramFrame } | undefined {
  for (let i = lines.length - 3; i >= 0; i--) {
    const at = /^(.+):(\d+)$/.exec(lines[i]);
    const caret = /^(\s*)\^+\s*$/.exec(lines[i + 2]);
    if (at && caret && /^(?:[A-Za-z]:\\|\/|file:\/\/|node:)/.test(at[1])) {
      return { index: i, frame: { file: fileOf(at[1]), line: Number(at[2]), column: caret[1].length + 1 } };
    }
  }
  return undefined;
}

/**
 * The file and line a compiler's diagnostic in the message names: TypeScript's `main.ts(3,7): error TS2322`
 * (ts-node) or `main.ts:3:7 - error TS2322` (tsc --pretty), esbuild's `main.ts:3:6: ERROR:` (0-based column).
 */
function diagnosticSite(message: string, cwd: string): ProgramFrame | undefined {
  for (const line of message.split('\n')) {
    const ts = /^(.+?)\((\d+),(\d+)\): error TS\d+/.exec(line) ?? /^(.+?):(\d+):(\d+) - error TS\d+/.exec(line);
    const esbuild = ts ? undefined : /^(.+?):(\d+):(\d+): ERROR: /.exec(line);
    const hit = ts ?? esbuild;
    if (!hit) continue;
    const frame = { file: path.resolve(cwd, hit[1]), line: Number(hit[2]), column: Number(hit[3]) + (esbuild ? 1 : 0) };
    if (isProgramFile(frame)) return frame;
  }
  return undefined;
}

/** A file of the app: an absolute path outside `node_modules` (not Node's internals, not `<anonymous>`). */
function isProgramFile(frame: ProgramFrame): boolean {
  return path.isAbsolute(frame.file) && !frame.file.split(/[\\/]/).includes('node_modules') && fs.existsSync(frame.file);
}

/** A frame's file as a path: a `file://` URL converted; anything else as written. */
function fileOf(file: string): string {
  if (!file.startsWith('file://')) return file;
  try {
    return fileURLToPath(file);
  } catch {
    return file;
  }
}

/** The lines without the blank ones at either end. */
function trimLines(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}

/** A frame as a place relative to `root`, as the report formats give files. */
export function relativeSite(frame: ProgramFrame, root: string): ReportedLocation {
  return { file: path.relative(root, frame.file).split(path.sep).join('/'), line: frame.line, column: frame.column };
}

/** How the app ended, in words: `exit code 1`, `signal SIGKILL`. */
export function endedWith(exit: ProgramFailure['exit']): string {
  return 'code' in exit ? `exit code ${exit.code}` : `signal ${exit.signal}`;
}

/**
 * The one sentence every format says of a failed app: what happened, that it is the program's own error and not a
 * cdk-capability violation, and its message (or that it printed none).
 */
export function failureSentence(f: ProgramFailure): string {
  const own = f.message === '' ? "the program's own failure, not a cdk-capability violation; it printed no error" : `the program's own error, not a cdk-capability violation; its error: ${f.message}`;
  if (f.kind === 'no-report') {
    return `the app '${f.app}' ended (${endedWith(f.exit)}) without synthesizing a CapabilityApp, so there is no plan: its root is not a CapabilityApp, or it never calls app.synth()`;
  }
  if (f.kind === 'timeout') return timeoutSentence(f);
  const when = f.kind === 'before-synth' ? 'failed before synth' : 'synthesized, then failed';
  return `the app '${f.app}' ${when} (${endedWith(f.exit)}): ${own}`;
}

/**
 * What the text format says under the app's own stderr (which `plan` prints first): how it ended, at the program's
 * frame when known, and that the error above is the program's own, not a cdk-capability violation.
 *
 * @param root the folder the frame's file is named relative to (where `plan` runs)
 */
export function failureText(f: ProgramFailure, root: string): string {
  const site = f.site ? relativeSite(f.site, root) : undefined;
  const at = site ? ` at ${site.file}:${site.line}:${site.column}` : '';
  if (f.kind === 'no-report' || f.kind === 'timeout') return `${failureSentence(f)}.`;
  const what = f.kind === 'before-synth' ? `failed before synth (${endedWith(f.exit)})` : `synthesized, then ended with ${endedWith(f.exit)}`;
  const whose = f.message === '' ? ' and printed no error: the program\'s own failure' : `${at}: the error above is the program's own`;
  return `the app '${f.app}' ${what}${whose}, not a cdk-capability violation. No plan is printed for an app that fails.`;
}

/**
 * What a timeout is, in the sentence every format says: the app, the limit, that plan stopped it and every process
 * it started, whether it had synthesized (then something of the program keeps Node running after synth), and what
 * to do.
 */
function timeoutSentence(f: ProgramFailure): string {
  const why = f.synthesized
    ? 'it had synthesized, then kept running: something of the program keeps Node running after synth (an open server, socket, child process or timer); end it, or call process.exit() after app.synth()'
    : 'it had not synthesized yet: find what it waits for (a network call, a prompt on stdin, a promise that never settles), or raise --timeout if it needs longer';
  const printed = f.message === '' ? 'it printed no error' : `its last error output: ${f.message}`;
  return `the app '${f.app}' was still running after --timeout ${f.timeout}, so plan stopped it and every process it started (SIGKILL): ${why}; ${printed}`;
}

/**
 * The app's entry file, from the command that runs it: its last word that names an existing `.ts`, `.js` (and
 * `.mts`, `.cts`, `.mjs`, `.cjs`, `.tsx`) file (`npx ts-node --transpile-only rel/main.ts` -> `rel/main.ts`);
 * undefined when none does (`npm run synth`).
 *
 * @param app the command, as cdk8s.yaml's `app` or `--app` gives it
 * @param cwd the folder it runs in
 */
export function entryFileOf(app: string, cwd: string): string | undefined {
  const words = shellWords(app).filter((w) => /\.(?:[cm]?[jt]s|tsx)$/.test(w)).reverse();
  for (const w of words) {
    const file = path.resolve(cwd, w);
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  }
  return undefined;
}

/** The words of a command line as a POSIX shell splits them: blanks, single and double quotes, backslashes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '\'' | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === '\'') {
      if (c === '\'') quote = undefined; else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined; else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i]; else word += c;
    } else if (c === '\'' || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c) || c === ';' || c === '&' || c === '|') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
