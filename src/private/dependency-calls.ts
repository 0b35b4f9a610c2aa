import type { IConstruct } from 'constructs';
import { programSite } from './creation-site';
import { isOwnFile } from './package-root';

/** Who made one `addDependency` call: a library for its own construct, or the program at a line. */
export interface DependencyCall {
  /** True when cdk8s-plus or aws-cdk-lib made it (a StatefulSet on its headless Service), not the program. */
  readonly byLibrary: boolean;
  /** Where the program made it (`file:line`, relative to the working directory); undefined when unknown. */
  readonly site: string | undefined;
}

/** Frames kept per call: enough to climb out of cdk8s' `ApiObject.addDependency` and a library's constructor. */
const FRAMES = 20;

const calls = new WeakMap<IConstruct, Map<IConstruct, DependencyCall>>();
const patched = new WeakSet<object>();

/**
 * Starts recording who calls `node.addDependency` on the constructs of the
 * `constructs` copy `root` uses (cdk8s' `ApiObject.addDependency` and
 * `Chart.addDependency` call it too): each call keeps an unformatted stack,
 * formatted only when a cycle message reads it. Idempotent.
 */
export function recordDependencyCalls(root: IConstruct): void {
  const proto = Object.getPrototypeOf(root.node) as { addDependency?: (...deps: IConstruct[]) => void };
  if (patched.has(proto) || typeof proto.addDependency !== 'function') return;
  patched.add(proto);
  const original = proto.addDependency;
  proto.addDependency = function addDependency(this: { host?: IConstruct; _host?: IConstruct }, ...deps: IConstruct[]) {
    const holder: { stack?: string } = {};
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = FRAMES;
    Error.captureStackTrace(holder, addDependency);
    Error.stackTraceLimit = limit;
    const host = this.host ?? this._host;
    if (host) {
      let byHost = calls.get(host);
      if (!byHost) calls.set(host, (byHost = new Map()));
      for (const d of deps) if (d && !byHost.has(d)) byHost.set(d, lazyCall(holder));
    }
    return original.apply(this, deps);
  };
}

/** Who made `c` depend on `d`, when that call was recorded (the first such call). */
export function dependencyCall(c: IConstruct, d: IConstruct): DependencyCall | undefined {
  return calls.get(c)?.get(d);
}

function lazyCall(holder: { stack?: string }): DependencyCall {
  let caller: string | null | undefined;
  const site = programSite(holder);
  return {
    get byLibrary() {
      caller ??= callerFile(holder.stack) ?? null;
      return caller !== null && /[\\/]node_modules[\\/](aws-cdk-lib|cdk8s-plus-\d+)[\\/]/.test(caller);
    },
    get site() {
      return site();
    },
  };
}

/** The file of the first frame outside `constructs`, cdk8s itself and this package: the code that asked for the dependency. */
function callerFile(stack: string | undefined): string | undefined {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const file = /^\s*at (?:.*\()?(.+?):\d+:\d+\)?$/.exec(line)?.[1];
    if (file === undefined || file.startsWith('node:')) continue;
    if (/[\\/]node_modules[\\/](constructs|cdk8s)[\\/]/.test(file) || isOwnFile(file)) continue;
    return file;
  }
  return undefined;
}

