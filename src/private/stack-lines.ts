/**
 * Stacks captured at a call and read, if ever, much later: by a message that
 * names the call's site, or by a check of which code made the call.
 *
 * `Error.captureStackTrace` keeps V8's structured frames; the first read of the
 * holder's `stack` formats all of them (each frame's `CallSite#toString`, 20 of
 * them here), though a reader looking for the caller of a library or the first
 * frame of the program stops after one to three. `stackLines` formats a stack
 * captured by `captureStack` one frame at a time, as far as it is read, when
 * nothing rewrites stacks: `Error.prepareStackTrace` is Node's own (not
 * source-map-support's, which ts-node and jest install) and Node's source maps
 * are off. Node then formats a stack as the holder's `Error.prototype.toString`
 * and `\n    at ` and each frame, so the lines are the same text. Otherwise it
 * reads the holder's `stack` whole, as before.
 */

/** A holder `captureStack` filled: its `stack` is read only through `stackLines`. */
export interface CapturedStack {
  readonly stack?: unknown;
}

/** The lines made so far of a structured stack, and the frames not yet formatted. */
interface Lines {
  readonly lines: string[];
  readonly frames: readonly unknown[];
  next: number;
}

const structured = new WeakSet<object>();
const read = new WeakMap<object, Lines>();
const nodeDefaults = new WeakSet<Function>();

/**
 * Captures the stack above `above` into a new holder, at most `frames` frames,
 * unformatted (`Error.captureStackTrace`, a few microseconds). Read its lines
 * with `stackLines`, never its `stack`.
 */
export function captureStack(above: Function, frames: number): CapturedStack {
  const holder = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frames;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = limit;
  structured.add(holder);
  return holder;
}

/**
 * The lines of a captured stack after its first (`Error`), as
 * `holder.stack.split('\n').slice(1)` gives them; for a holder of `captureStack`,
 * each made when first reached (see the module's comment). A holder without a
 * stack has none.
 */
export function stackLines(holder: CapturedStack): Generator<string, void, undefined> {
  let state = read.get(holder);
  if (!state) read.set(holder, (state = openStack(holder, structured.has(holder) && formatsPlainly())));
  return linesOf(state);
}

/**
 * The lines of a stack captured by `captureStack`, from its structured frames, whatever formats stacks now:
 * what `stackLines` reads when Node's default would format it. For the test that holds it to `stack`.
 */
export function structuredLines(holder: CapturedStack): Generator<string, void, undefined> {
  return linesOf(openStack(holder, true));
}

function* linesOf(state: Lines): Generator<string, void, undefined> {
  for (let i = 0; ; i++) {
    while (i >= state.lines.length && state.next < state.frames.length) {
      // a frame's text may hold line breaks (a function or file name): the stack's split sees them too
      for (const line of `    at ${String(state.frames[state.next++])}`.split('\n')) state.lines.push(line);
    }
    if (i >= state.lines.length) return;
    yield state.lines[i];
  }
}

/** The lines of `holder`'s stack: with `frames`, its structured frames, each formatted when first read; else its `stack`, formatted whole. */
function openStack(holder: CapturedStack, frames: boolean): Lines {
  if (frames) {
    const prepare = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
    let sites: unknown;
    try {
      Error.prepareStackTrace = (_error, callSites) => callSites;
      sites = holder.stack;
    } finally {
      if (prepare) Object.defineProperty(Error, 'prepareStackTrace', prepare);
      else delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    }
    // read before (a string): the stack as it was formatted then
    if (Array.isArray(sites)) return { lines: (Error.prototype.toString.call(holder) as string).split('\n').slice(1), frames: sites, next: 0 };
    return textLines(sites);
  }
  return textLines(holder.stack);
}

function textLines(stack: unknown): Lines {
  return { lines: stack === undefined ? [] : (stack as string).split('\n').slice(1), frames: [], next: 0 };
}

/**
 * True when a stack read now would be formatted by Node's default, with no source map: the text of its frames.
 * Only where `Error.prepareStackTrace` is Node's own (Node 20 defines one in its main context): where there is
 * none, in another context (a `vm` context, jest's), Node still asks the main context's, which may rewrite.
 */
function formatsPlainly(): boolean {
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled !== false) return false;
  const prepare: unknown = Error.prepareStackTrace;
  return typeof prepare === 'function' && isNodeDefault(prepare);
}

/** Node's own `Error.prepareStackTrace` (Node 20.x defines one that formats as if there were none). */
function isNodeDefault(prepare: Function): boolean {
  if (nodeDefaults.has(prepare)) return true;
  const own = prepare.name === 'ErrorPrepareStackTrace' && /^function ErrorPrepareStackTrace\(error, trace\) \{\s*return internalPrepareStackTrace\(error, trace\);\s*\}$/.test(Function.prototype.toString.call(prepare));
  if (own) nodeDefaults.add(prepare);
  return own;
}
