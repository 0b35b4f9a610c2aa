import * as fs from 'fs';
import { hasBrand } from './brand';
import { firstProgramFrame, SourceLocation } from './creation-site';

/** The message of anything thrown, without its stack. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Node's `util.inspect.custom`, by its registered name: no import of `util` for it. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes `console.error(error)` (and `util.inspect`) print a refusal as its report, `CompositionError: The
 * composition was refused ...` then one `CAPnnn ...` line each, instead of the report in brackets, as Node
 * shows an error whose stack holds no frame (a refusal's stack is its report alone); and a refusal no one
 * catches too ({@link reportUncaughtRefusals}).
 */
export function inspectedAsReport(error: Error): void {
  Object.defineProperty(error, INSPECT, { value: () => error.stack, enumerable: false, configurable: true });
  recordThrowSite(error);
  reportUncaughtRefusals();
}

/** Frames kept of where a refusal was made: enough to climb out of this package's and its libraries' frames. */
const THROW_FRAMES = 40;

/** Where each refusal was made, as an unformatted stack (V8 formats it only when read): the refusal's own stack is its report. */
const throwSites = new WeakMap<Error, { stack?: string }>();

function recordThrowSite(error: Error): void {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = THROW_FRAMES;
  Error.captureStackTrace(holder, inspectedAsReport);
  Error.stackTraceLimit = limit;
  throwSites.set(error, holder);
}

/**
 * The program's line a refusal was made from: the first frame outside `node_modules`, Node's internals and this
 * package (the `new InterfaceContract(...)` of a program whose arguments it refuses); undefined when unknown.
 */
export function refusalSite(error: Error): SourceLocation | undefined {
  const stack = throwSites.get(error)?.stack;
  return stack === undefined ? undefined : firstProgramFrame(stack);
}

/** Set on `globalThis` once the monitor is installed: one per process, also across duplicate installs. */
const MONITOR_INSTALLED = Symbol.for('cdk-capability.uncaught-refusal-monitor');

/**
 * A refusal thrown out of the program (`app.synth()` in a `main.ts` that `node`, `ts-node` or `cdk8s synth`
 * runs, uncaught, or an unhandled rejection) is printed as its report, once, and the process exits 1. Node's own
 * printer inspects an uncaught error without its custom inspection, so it would show the report in brackets
 * (`[CompositionError: ...]`) under the source line of the library's `throw`, and its version below. Installed
 * once, when the first refusal is created; an `uncaughtExceptionMonitor`, so it changes nothing for any other
 * error, nor when the program handles uncaught exceptions itself (`process.on('uncaughtException')`).
 */
function reportUncaughtRefusals(): void {
  const global = globalThis as { [MONITOR_INSTALLED]?: boolean };
  if (global[MONITOR_INSTALLED] || typeof process?.on !== 'function') return;
  global[MONITOR_INSTALLED] = true;
  process.on('uncaughtExceptionMonitor', (e: unknown) => {
    if (!(e instanceof Error) || e.name !== 'CompositionError' || !hasBrand(e, 'CompositionError')) return;
    if (process.listenerCount('uncaughtException') > 0) return;
    reportRefusalBeforeSynth(e);
    // written synchronously: process.exit does not wait for a pipe's queued writes
    fs.writeSync(2, `${e.stack}\n`);
    process.exit(1);
  });
}

/**
 * The environment variable that asks a synth for a machine-readable report:
 * its value is the file to write. `cdk-capability plan` sets it, so it can
 * print or convert the findings (and the plan) of the app it ran, refused or not.
 */
export const REPORT_ENV = 'CDK_CAPABILITY_REPORT';

/**
 * Writes the report `cdk-capability plan` asks for when a refusal leaves the program before any synth wrote one:
 * one thrown while the program builds its tree (a duplicate construct id, `CAP015`, a contract's arguments), so
 * the plan prints it in every format as a refused synth's. A synth's own report, written before it throws, stays.
 */
function reportRefusalBeforeSynth(e: Error): void {
  const file = process.env[REPORT_ENV];
  const violations = (e as { violations?: unknown }).violations;
  if (!file || !Array.isArray(violations) || fs.existsSync(file)) return;
  // the program's line that made the refusal is where each construct it names is annotated, as a synth's creation sites
  const site = refusalSite(e);
  const paths = violations.flatMap((v: { paths?: unknown }) => (Array.isArray(v.paths) ? v.paths.filter((p): p is string => typeof p === 'string') : []));
  const locations = site && paths.length > 0 ? Object.fromEntries(paths.map((p) => [p, site])) : undefined;
  try {
    fs.writeFileSync(file, `${JSON.stringify({ formatVersion: 1, accepted: false, violations, warnings: [], ...(locations ? { locations } : {}) }, undefined, 2)}\n`);
  } catch {
    // the plan then says that the app left no report, and the refusal is printed below as it always is
  }
}
