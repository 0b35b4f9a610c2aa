import type { Stack } from 'aws-cdk-lib';
import { Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { awsCdk, isStage } from './aws-cdk';
import { programSite } from './creation-site';
import { isOwnFile } from './package-root';
import { CapturedStack, captureStack, stackLines } from './stack-lines';

/** Who made one `addDependency` call: a library for its own construct, or the program at a line. */
export interface DependencyCall {
  /** True when cdk8s-plus or aws-cdk-lib made it (a StatefulSet on its headless Service), not the program. */
  readonly byLibrary: boolean;
  /** Where the program made it (`file:line`, relative to the working directory); undefined when unknown. */
  readonly site: string | undefined;
}

/** Who made one stack's `addStackDependency` (or `addDependency`) call on another stack, and with what reason. */
export interface StackDependencyCall extends DependencyCall {
  /** The reason given with the call, if any: aws-cdk's names the reference that implies it (`shop/acme -> shop/Base/Origin/Resource.Ref`). */
  readonly reason: string | undefined;
}

/** Frames kept per call: enough to climb out of cdk8s' `ApiObject.addDependency` and a library's constructor. */
const FRAMES = 20;

const calls = new WeakMap<IConstruct, Map<IConstruct, DependencyCall>>();
const patched = new WeakSet<object>();
const stackCalls = new WeakMap<Stack, Map<Stack, StackDependencyCall>>();
const packageDependencies = new WeakMap<Stack, Map<Stack, string | undefined>>();
let stackCallsRecorded = false;
let packageOwn = 0;

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
    const holder = captureStack(addDependency, FRAMES);
    const host = this.host ?? this._host;
    if (host) {
      let byHost = calls.get(host);
      if (!byHost) calls.set(host, (byHost = new Map()));
      for (const d of deps) if (d && !byHost.has(d)) byHost.set(d, lazyCall(holder));
    }
    return original.apply(this, deps);
  };
}

/**
 * Starts recording who calls `addStackDependency` on the stacks of the
 * aws-cdk-lib copy this package uses (its deprecated `addDependency`, and
 * aws-cdk's own call for a cross-stack reference, go through it): the first
 * call per pair of stacks keeps an unformatted stack and the reason given,
 * formatted only when a message reads it. Loads aws-cdk-lib; a `Capability`,
 * which is an aws-cdk `Stage`, calls it. Idempotent.
 */
export function recordStackDependencyCalls(): void {
  if (stackCallsRecorded) return;
  stackCallsRecorded = true;
  const proto = awsCdk().Stack.prototype as unknown as { addStackDependency: (this: Stack, target: Stack, reason?: string) => void };
  const original = proto.addStackDependency;
  // an aws-cdk-lib older than the peer range has none: CapabilityStack refuses the call (CAP010), naming the version
  if (typeof original !== 'function') return;
  proto.addStackDependency = function addStackDependency(this: Stack, target: Stack, reason?: string) {
    // a chart (or an object of one), passed from JavaScript or with a cast: aws-cdk finds no stack in it and drops
    // the call; as the dependency of the stack's node on it, it is the cycle it makes (runtime deploys after stacks)
    if (isUnderChart(target) && !awsCdk().Stack.isStack(target)) {
      // named by the program's line, past aws-cdk's deprecated addDependency
      let byHost = calls.get(this);
      if (!byHost) calls.set(this, (byHost = new Map()));
      if (!byHost.has(target)) byHost.set(target, lazyCall(captureStack(addStackDependency, FRAMES), skipsStackFrame));
      this.node.addDependency(target);
      return;
    }
    let byTarget = stackCalls.get(this);
    if (packageOwn > 0) {
      let own = packageDependencies.get(this);
      if (!own) packageDependencies.set(this, (own = new Map()));
      own.set(target, reason);
    } else if (!byTarget?.has(target)) {
      const holder = captureStack(addStackDependency, FRAMES);
      if (!byTarget) stackCalls.set(this, (byTarget = new Map()));
      byTarget.set(target, lazyStackCall(holder, reason));
    }
    return original.call(this, target, reason);
  };
}

/** True when `c` is a construct under a cdk8s chart (or a chart): from JavaScript, `c` may be anything. */
function isUnderChart(c: unknown): c is IConstruct {
  for (let x = c as IConstruct | undefined; x && typeof x === 'object' && x.node; x = x.node.scope) if (Chart.isChart(x)) return true;
  return false;
}

/**
 * Runs `fn` recording the stack dependencies it adds as this package's own
 * (each tenant aggregate after its shared base), apart from the calls
 * `stackDependencyCall` tells of: named by their rule, not by the program line
 * that started the synth, and a later call for the same pair (aws-cdk's, for a
 * cross-stack reference) is still recorded.
 */
export function asPackageStackDependencies<T>(fn: () => T): T {
  packageOwn++;
  try {
    return fn();
  } finally {
    packageOwn--;
  }
}

/**
 * When this package made `stack` depend on `target` for its own rule (`asPackageStackDependencies`): the
 * reason it gave (`shared base before tenant aggregate`); undefined for any other dependency. The program
 * cannot remove such a dependency.
 */
export function packageStackDependency(stack: Stack, target: Stack): { readonly reason: string | undefined } | undefined {
  const own = packageDependencies.get(stack);
  return own?.has(target) ? { reason: own.get(target) } : undefined;
}

/** Who made `stack` depend on `target` through `addStackDependency`, when that call was recorded (the first such call). */
export function stackDependencyCall(stack: Stack, target: Stack): StackDependencyCall | undefined {
  return stackCalls.get(stack)?.get(target);
}

/** Who made `c` depend on `d`, when that call was recorded (the first such call). */
export function dependencyCall(c: IConstruct, d: IConstruct): DependencyCall | undefined {
  return calls.get(c)?.get(d);
}

/**
 * Who made an explicit dependency: `c` was made to depend on `d`, by
 * `c.node.addDependency(d)` (or cdk8s' `addDependency`, which calls it). When
 * a library made the call for its own construct (cdk8s-plus' StatefulSet on
 * its headless Service, an aws-cdk L2 on its L1), the construct whose code made
 * it: the one `c` is the default child of (id `Resource` or `Default`), or `c`
 * itself; when the program made it, its file and line. (`node.defaultChild`
 * is not read: it throws when a construct has both ids.)
 */
export function explicitDependencyOrigin(c: IConstruct, d: IConstruct): string {
  const call = dependencyCall(c, d);
  const made = dependencyCallText(c, d);
  if (call?.byLibrary) {
    const scope = c.node.scope;
    const isDefaultChild = c.node.id === 'Resource' || c.node.id === 'Default';
    const owner = scope && isDefaultChild && !Chart.isChart(scope) ? scope : c;
    return `${made}, by ${owner.constructor.name} '${owner.node.path}'`;
  }
  return call?.site ? `${made} at ${call.site}` : made;
}

/** `'a'.addDependency('b')`: how a message names the call that made `c` depend on `d`. */
export function dependencyCallText(c: IConstruct, d: IConstruct): string {
  return `'${c.node.path}'.addDependency('${d.node.path}')`;
}

function lazyCall(holder: CapturedStack, skips: (file: string) => boolean = skipsNodeFrame): DependencyCall {
  let caller: string | null | undefined;
  const site = programSite(holder);
  return {
    get byLibrary() {
      caller ??= callerFile(holder, skips) ?? null;
      return caller !== null && /[\\/]node_modules[\\/](aws-cdk-lib|cdk8s-plus-\d+)[\\/]/.test(caller);
    },
    get site() {
      return site();
    },
  };
}

/** A recorded stack dependency call, its caller and site read off `holder` on first use. */
function lazyStackCall(holder: CapturedStack, reason: string | undefined): StackDependencyCall {
  const call = lazyCall(holder, skipsStackFrame);
  return {
    reason,
    get byLibrary() {
      return call.byLibrary;
    },
    get site() {
      return call.site;
    },
  };
}

/**
 * The file of the first frame that `skips` does not skip, nor Node's own: the code that asked for the
 * dependency. Reads the stack only as far as that frame (`stackLines`): most often the first.
 */
function callerFile(holder: CapturedStack, skips: (file: string) => boolean): string | undefined {
  for (const line of stackLines(holder)) {
    const file = /^\s*at (?:.*\()?(.+?):\d+:\d+\)?$/.exec(line)?.[1];
    if (file === undefined || file.startsWith('node:') || skips(file)) continue;
    return file;
  }
  return undefined;
}

/** `constructs`, cdk8s and this package: what a `node.addDependency` call passes through (cdk8s' `ApiObject.addDependency`). */
function skipsNodeFrame(file: string): boolean {
  return /[\\/]node_modules[\\/](constructs|cdk8s)[\\/]/.test(file) || isOwnFile(file);
}

/** aws-cdk's `Stack` (its deprecated `addDependency` calls `addStackDependency`) and this package (`CapabilityStack`'s). */
function skipsStackFrame(file: string): boolean {
  return /[\\/]node_modules[\\/]aws-cdk-lib[\\/]core[\\/]lib[\\/]stack\.js$/.test(file) || isOwnFile(file);
}


/**
 * The first `node.addDependency` by which a construct of stack `from` (or `from` itself) depends on a construct
 * of stack `to` (or `to`), in aws-cdk's order (depth first, each construct's dependencies in the order added):
 * the call that makes aws-cdk add the stack dependency at synth, which records no `addStackDependency` call.
 * Constructs of a nested stage are left out (it synthesizes on its own). Undefined when there is none.
 */
export function nodeDependencyBetween(from: Stack, to: Stack): { readonly source: IConstruct; readonly target: IConstruct } | undefined {
  for (const source of from.node.findAll()) {
    if (!holds(from, source)) continue;
    for (const target of source.node.dependencies) if (holds(to, target)) return { source, target };
  }
  return undefined;
}

/** True when `c` is `stack` or inside it, not inside a stage nested in it. */
function holds(stack: Stack, c: IConstruct): boolean {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
    if (s === stack) return true;
    if (isStage(s)) return false;
  }
  return false;
}
